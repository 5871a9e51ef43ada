package automation

import (
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// Assessment is what can be said of an automation before it runs. A fixed
// plan is parsed, sanitised and rated (risk.Plan) against the settings it
// will run under; a request in words cannot be rated until the model has
// written its plan, which happens at each run.
type Assessment struct {
	// Rated is false for a request in words.
	Rated bool `json:"rated"`
	// Risk is the plan's highest level; Blocked for a plan that does not
	// parse or that the sanitiser refuses.
	Risk level.Level `json:"risk"`
	// Reasons are the warnings, most severe first, each with the plan line
	// it was found on ("line 2: …").
	Reasons []string `json:"reasons,omitempty"`
}

// Assess rates a's plan under env, as the gate will when it runs (the
// gate rates it again then: the settings or the files it names may have
// changed).
func Assess(a Automation, env *risk.Env) Assessment {
	if a.Run == "" {
		return Assessment{}
	}
	p, err := action.Parse(a.Run)
	if err != nil {
		as := Assessment{Rated: true, Risk: level.Blocked}
		if es, ok := err.(action.Errors); ok {
			as.Reasons = lineErrors(es)
		} else {
			as.Reasons = []string{err.Error()}
		}
		return as
	}
	total, _ := risk.Plan(p, a.Run, env)
	as := Assessment{Rated: true, Risk: total.Level}
	for _, r := range total.Reasons {
		text := r.Text
		switch {
		case strings.HasPrefix(text, "line "):
			text = "plan " + text // the analyzer said where
		case r.Span != (risk.Span{}):
			text = fmt.Sprintf("plan line %d: %s", 1+strings.Count(a.Run[:min(max(r.Span.Start, 0), len(a.Run))], "\n"), text)
		}
		as.Reasons = append(as.Reasons, text)
	}
	return as
}

// String is the assessment in a few words, for a menu or a list: the
// level, or that a request in words is rated at each run.
func (as Assessment) String() string {
	if !as.Rated {
		return "rated at each run"
	}
	return as.Risk.String()
}
