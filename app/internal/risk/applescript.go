package risk

import (
	"context"

	"github.com/airlockhq/airlock/app/internal/risk/applescript"
)

// AppleScript rates an AppleScript (package applescript).
func AppleScript(src string, env *Env) Verdict {
	env, end := begin(env, context.Background())
	v := applescript.Rate(src, env, 0)
	end(&v)
	literalSecrets(&v, src) // secrets.go
	v.Sort()
	return v
}
