package policy

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// RuleAppNotAllowed is the rule of the reason that blocks an action naming
// an app outside the allowed apps.
const RuleAppNotAllowed = "dsl.app-not-allowed"

// appArgs are the DSL commands that open, quit or bring forward an app, and
// the argument that names it: what the allowedApps setting limits.
// OPEN_FILE with an app opens that app. RELEASE_LOCK names an app too, but
// only to lock onto it: it starts nothing.
var appArgs = map[string]string{
	"OPEN_APP": "app", "QUIT_APP": "app", "ACTIVATE_APP": "app", "OPEN_FILE": "app",
}

// AppReason is the reason that blocks a, when a opens, quits or brings
// forward an app env's allowed apps do not list; ok is false otherwise. Its
// text names the setting:
//
//	blocked: "Terminal" is not in allowedApps (settings.json); add it there to allow OPEN_APP
func AppReason(a action.Action, env *risk.Env) (r risk.Reason, ok bool) {
	arg, limited := appArgs[a.Cmd.Name]
	if !limited || env == nil {
		return risk.Reason{}, false
	}
	app, given := a.Arg(arg)
	if !given {
		return risk.Reason{}, false
	}
	allowed, why := env.Paths.AppAllowed(app)
	if allowed {
		return risk.Reason{}, false
	}
	text := "blocked: " + why
	if strings.Contains(why, "allowedApps") {
		text += "; add it there to allow " + a.Cmd.Name
	}
	return risk.Reason{Level: level.Blocked, Rule: RuleAppNotAllowed, Text: text}, true
}

// LimitApps applies the allowed apps to a plan's verdicts as risk.Plan
// made them (total for the plan, per for each action; src anchors the
// reasons' spans to its lines, as risk.Plan does): every action that opens,
// quits or brings forward an app env does not allow is Blocked, and so is
// the plan. It adds a reason only once, however often it is called.
//
// The analyzers will apply the allowed apps themselves (risk's DSL rules
// and AppleScript's tell application targets, through
// sanitize.Config.App); until then every caller that rates a plan under
// the settings calls this after risk: the gate and Assess.
func LimitApps(p *action.Plan, src string, env *risk.Env, total *risk.Verdict, per []risk.Verdict) {
	for i, a := range p.Actions {
		r, ok := AppReason(a, env)
		if !ok {
			continue
		}
		r.Span = lineSpan(src, a.Line)
		if i < len(per) {
			addReason(&per[i], r)
		}
		r.Text = fmt.Sprintf("line %d: %s", a.Line, r.Text)
		addReason(total, r)
	}
}

// Assess is risk.AssessContext under these settings' rules that the
// analyzers do not apply yet (LimitApps, for a DSL plan): the verdict the
// gate would give. `airlock assess` and MCP's assess rate through it.
func Assess(ctx context.Context, kind risk.Kind, input string, env *risk.Env) (risk.Verdict, error) {
	v, err := risk.AssessContext(ctx, kind, input, env)
	if err != nil || kind != risk.KindDSL {
		return v, err
	}
	if p, perr := action.Parse(input); perr == nil {
		LimitApps(p, input, env, &v, nil)
	}
	return v, nil
}

// addReason adds r to v unless it has it, keeping the reasons most severe
// first, then in the order of the input, as risk orders them.
func addReason(v *risk.Verdict, r risk.Reason) {
	for _, x := range v.Reasons {
		if x.Rule == r.Rule && x.Text == r.Text {
			return
		}
	}
	v.Reasons = append(v.Reasons, r)
	slices.SortStableFunc(v.Reasons, func(a, b risk.Reason) int {
		if a.Level != b.Level {
			return cmp.Compare(b.Level, a.Level)
		}
		return cmp.Compare(a.Span.Start, b.Span.Start)
	})
	v.Level = level.Max(v.Level, r.Level)
}

// lineSpan is the span of line n (from 1) of src, without its newline; the
// zero span when src has no such line.
func lineSpan(src string, n int) risk.Span {
	start := 0
	for i := 1; i < n; i++ {
		j := strings.IndexByte(src[start:], '\n')
		if j < 0 {
			return risk.Span{}
		}
		start += j + 1
	}
	if n < 1 || start > len(src) || (start == len(src) && n > 1) {
		return risk.Span{}
	}
	end := len(src)
	if j := strings.IndexByte(src[start:], '\n'); j >= 0 {
		end = start + j
	}
	return risk.Span{Start: start, End: end}
}
