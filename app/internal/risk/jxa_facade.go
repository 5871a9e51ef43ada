package risk

import (
	"context"

	"github.com/airlockhq/airlock/app/internal/risk/jxa"
)

// JXA rates JavaScript for Automation (package jxa).
func JXA(src string, env *Env) Verdict {
	env, end := begin(env, context.Background())
	v := jxa.Rate(src, env, 0)
	end(&v)
	literalSecrets(&v, src) // secrets.go
	v.Sort()
	return v
}

// ShellArgv lets a nested program started without a shell (JXA's NSTask)
// be rated like a shell command's argv (jxa.ArgvRater).
func (languages) ShellArgv(argv []string, env *Env) Verdict {
	return ShellArgv(argv, env)
}
