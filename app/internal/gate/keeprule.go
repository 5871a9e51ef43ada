package gate

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/redact"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// RuleOffer is the allow rule the approval popup offers to keep ("always
// allow this exact command here"): exactly the command as it was resolved
// (its whole argv, so a prefix of nothing more), the folder it runs in (and
// below), the client's name and verified program, and the pins of the files it runs as they are
// now, as `airlock rules test` would print it.
type RuleOffer struct {
	Rule  policy.Rule
	Words string // the rule in one line, for the popups
}

// ruleOffer returns the rule the popup may offer for the submission, or
// nil: only for one command the person is asked about, that is not
// destructive, not under a rule that asks every time, from a client whose
// program is verified (a rule naming an unverified client never holds),
// and whose files Airlock can name and pin.
func (sub *submission) ruleOffer() *RuleOffer {
	if sub.g.cfg.KeepRule == nil || len(sub.steps) != 1 {
		return nil
	}
	st, ar := sub.steps[0], sub.rep.Actions[0]
	if st.argv == nil || st.ruleAsks || ar.Decision != policy.Ask.String() || ar.Approval == approvalGranted ||
		st.verdict.Level >= level.Destructive || !sub.s.Identity.Verified() {
		return nil
	}
	pins, err := policy.RulePins(st.runs)
	if err != nil {
		return nil
	}
	dir := st.dir
	if dir == "" {
		dir = sub.home()
	}
	// The rule is the client program's, as a grant is: its name alone is
	// any program's to claim.
	r := policy.Rule{Decision: policy.RuleAllow, Prefix: append([]string(nil), st.argv...), Dir: dir, Client: sub.s.Client,
		Program: sub.s.Identity.Key, Pins: pins}
	if policy.ValidateRules(policy.Rules{r}) != nil {
		return nil
	}
	prefix, _ := json.Marshal(r.Prefix)
	words := fmt.Sprintf("%s in %s, from %q run by %s", sanitize.Display(string(prefix)), sanitize.Display(dir), r.Client,
		sanitize.Display(sub.s.Identity.Program))
	switch folders := len(st.runs.Folders); {
	case folders > 0:
		words += fmt.Sprintf(", while the %d files it runs and the code beside its script stay as they are now", len(pins)-folders)
	case len(pins) > 0:
		words += fmt.Sprintf(", while the %d files it runs stay as they are now", len(pins))
	}
	return &RuleOffer{Rule: r, Words: words}
}

// keepRule keeps the rule the person chose in the popup, through
// Config.KeepRule (which asks them once more), and says how it went in the
// action's reasons. The action was approved either way: a rule not kept
// changes nothing of it.
func (sub *submission) keepRule(ctx context.Context, o *RuleOffer) {
	ar := &sub.rep.Actions[0]
	if err := sub.g.cfg.KeepRule(ctx, *o); err != nil {
		ar.Reasons = append(ar.Reasons, "the rule to always allow it here was not kept: "+redact.String(err.Error()))
		return
	}
	ar.Reasons = append(ar.Reasons, "kept as your rule: always allow "+redact.String(o.Words))
}
