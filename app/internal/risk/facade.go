package risk

import (
	"context"

	"github.com/airlockhq/airlock/app/internal/risk/jxa"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The shared core lives in package rate; these names keep callers outside
// risk reading risk.Verdict, risk.Env … as before.
type (
	Verdict = rate.Verdict
	Reason  = rate.Reason
	Span    = rate.Span
	Env     = rate.Env
	Self    = rate.Self
)

// ErrStopped is wrapped by the error of an assessment whose context ended
// before it finished (rate.ErrStopped).
var ErrStopped = rate.ErrStopped

// WithSelf returns the Env for paths with Airlock itself made known to the
// analyzers (rate.WithSelf).
func WithSelf(paths *sanitize.Config, gatePID int) (*Env, error) {
	return rate.WithSelf(paths, gatePID)
}

// begin starts an assessment under ctx whose nested scripts go to this
// package's analyzers (rate.Env.Begin).
func begin(env *Env, ctx context.Context) (*Env, func(*Verdict) error) {
	return env.Begin(ctx, languages{})
}

// languages hands a script nested in one language to the analyzer of
// another (rate.Languages).
type languages struct{}

func (languages) Shell(v *Verdict, src string, env *Env, at *Span, depth int) {
	shellInto(v, src, env, at, depth)
}

func (languages) AppleScript(src string, env *Env, depth int) Verdict {
	return appleScriptAt(src, env, depth)
}

func (languages) JXA(src string, env *Env, depth int) Verdict {
	return jxa.Rate(src, env, depth)
}
