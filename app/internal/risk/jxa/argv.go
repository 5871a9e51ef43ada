package jxa

import (
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// ArgvRater is what JXA needs beyond rate.Languages: the verdict on a
// program started with an argument vector and no shell (NSTask), where
// nothing is shell syntax. The Languages the facade binds implements it;
// like Languages, an implementation fails closed.
type ArgvRater interface {
	ShellArgv(argv []string, env *rate.Env) rate.Verdict
}

// argv rates argv through the Languages of the assessment; without an
// ArgvRater the program is not analysed, so it is Destructive.
func (an *jsAn) argv(argv []string) rate.Verdict {
	if r, ok := an.env.Languages().(ArgvRater); ok {
		return r.ShellArgv(argv, an.env)
	}
	var v rate.Verdict
	v.Found(effect.Of(effect.Unknown, effect.Computed), "analysis.unbound", rate.Span{}, "the program NSTask starts was not analysed (no analyzer bound to the assessment)")
	return v
}
