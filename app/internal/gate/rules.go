package gate

import (
	"context"
	"errors"
	"strings"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/redact"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// applyRules lets the person's rules (Config.Rules) change d, the decision
// the level made for step i, and returns the decision and the reasons with
// the rule's appended. Only commands are matched (policy.Rule), and the
// strictest rule that matches decides:
//   - deny refuses the command, before anyone is asked, with the rule's
//     reason as its error (refusalOf);
//   - ask turns a command that would run unasked into a question, and no
//     remembered grant answers it (granted);
//   - allow lets a command that would be asked about run unasked, but only
//     while Rule.Covers holds: never a destructive or blocked one, never an
//     unverified program's when the rule names a client, and only while
//     the files it runs hold what the rule pins (checked again right
//     before it starts). When it does not hold, the command is asked
//     about, and the reasons say why.
//
// A refused decision is never loosened.
func (sub *submission) applyRules(ctx context.Context, i int, d policy.Decision, reasons []string) (policy.Decision, []string) {
	st := &sub.steps[i]
	if len(sub.live.rules) == 0 || st.argv == nil || d == policy.Refuse {
		return d, reasons
	}
	home := sub.home()
	c := policy.RuleCommand{Argv: st.argv, Dir: st.dir, Client: sub.s.Client, Verified: sub.s.Identity.Verified(), Program: sub.s.Identity.Key}
	if c.Dir == "" {
		c.Dir = home
	}
	m, ok := sub.live.rules.Match(c, home)
	if !ok {
		return d, reasons
	}
	why := redact.String(m.Reason())
	switch m.Rule.Decision {
	case policy.RuleDeny:
		st.refusal = why
		return policy.Refuse, append(reasons, why)
	case policy.RuleAsk:
		st.ruleAsks = true
		return policy.Ask, append(reasons, why)
	}
	if d != policy.Ask {
		return d, reasons
	}
	if st.runsOf != nil {
		st.runs = st.runsOf(ctx)
	}
	rule, runs, lvl := m.Rule, st.runs, st.verdict.Level
	if err := rule.Covers(c, runs, lvl); err != nil {
		msg := err.Error()
		for _, e := range []error{policy.ErrRuleNotCovering, policy.ErrLapsed} {
			if errors.Is(err, e) {
				msg = strings.TrimPrefix(msg, e.Error()+": ")
			}
		}
		return d, append(reasons, redact.String(strings.Replace(m.Reason(), "allowed by", "not allowed by", 1)+" ("+msg+"): asking you"))
	}
	st.check = func() error { return rule.Covers(c, runs, lvl) }
	st.rulePins = rule.PinsOf(runs)
	return policy.Auto, append(reasons, why)
}

// refusalOf is the error of refused step i: the rule that denied it, or
// else the first blocking reason of its verdict.
func (sub *submission) refusalOf(i int) string {
	if r := sub.steps[i].refusal; r != "" {
		return r
	}
	return firstBlocked(sub.steps[i].verdict)
}

// PlaceCommand is what the gate makes of a command before it is assessed
// and matched against the rules: ~ expanded under the home, the working
// folder dir checked and resolved ("" for the home), and the program looked
// up on pathList (commandPlace). `airlock rules test` uses it to see a
// command as the gate would.
func PlaceCommand(argv []string, dir, pathList string, paths *sanitize.Config) ([]string, string, error) {
	return commandPlace(expandHome(argv, paths.Home), dir, pathList, paths)
}
