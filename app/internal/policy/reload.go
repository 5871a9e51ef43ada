package policy

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// SettingsDiff is what a reload of the settings file changes, sorted by
// what it does to trust. The settings file is the person's, but an agent
// that runs commands outside Airlock (its own shell) can write it too, and
// can ask for a reload: so what in a reload lets more run unasked is put in
// force only after the person's yes in Airlock's own confirmation popup, as
// the menu's items that raise trust are. What only makes the gate ask
// more, or refuse more, is put in force at once.
type SettingsDiff struct {
	// Raises says, a line each, what lets more run or reach further: a
	// root or an allowed app added, a higher level, an allow rule added or
	// changed, a deny or ask rule taken away, the model server or its key
	// changed (the key goes where the endpoint says).
	Raises []string
	// Lowers says what only narrows: a root or an app taken away, a lower
	// level, an allow rule taken away, a deny or ask rule added.
	Lowers []string
	// Restart says what a reload does not change: it takes effect at the
	// next start (or, for automations, through the menu and `airlock
	// automations`).
	Restart []string
	// Level is set when the autonomy level changes: From and To.
	Level *Change
}

// Changed reports whether the reload changes anything at all.
func (d SettingsDiff) Changed() bool {
	return len(d.Raises)+len(d.Lowers)+len(d.Restart) > 0
}

// DiffSettings compares the settings in force (old) with the file's (new).
// Roots and apps compare as written (a root spelled anew is a root added:
// unknown is never taken as harmless); rules compare whole, so an allow
// rule whose pins, folder or client changed is an allow rule added.
func DiffSettings(old, new Settings) SettingsDiff {
	var d SettingsDiff
	added, removed := setDiff(old.Roots, new.Roots)
	for _, r := range added {
		d.Raises = append(d.Raises, "adds the sandbox root "+r+": actions may read and write there")
	}
	for _, r := range removed {
		d.Lowers = append(d.Lowers, "takes away the sandbox root "+r)
	}
	added, removed = setDiff(old.AllowedApps, new.AllowedApps)
	if slices.Contains(old.AllowedApps, sanitize.AnyApp) {
		added = nil // every app was allowed: naming some only narrows
	}
	for _, a := range added {
		if a == sanitize.AnyApp {
			d.Raises = append(d.Raises, "allows every app to be opened, quit or brought to the front")
			continue
		}
		d.Raises = append(d.Raises, "allows the app "+strconv.Quote(a)+" to be opened, quit or brought to the front")
	}
	for _, a := range removed {
		d.Lowers = append(d.Lowers, "no longer allows the app "+strconv.Quote(a))
	}
	if old.Autonomy != new.Autonomy {
		c := Change{Kind: ChangeLevel, From: old.Autonomy, To: new.Autonomy}
		d.Level = &c
		line := fmt.Sprintf("changes the autonomy level from %s to %s", old.Autonomy, new.Autonomy)
		if RaisesTrust(c) {
			d.Raises = append(d.Raises, line)
		} else {
			d.Lowers = append(d.Lowers, line)
		}
	}
	d.diffRules(old.Rules, new.Rules)
	if old.LLMEndpoint != new.LLMEndpoint || old.LLMKeyName != new.LLMKeyName {
		line := "sends the model's requests to " + new.LLMEndpoint
		if new.LLMKeyName != "" {
			line += " with the API key " + strconv.Quote(new.LLMKeyName)
		}
		d.Raises = append(d.Raises, line)
	}
	if old.LLMAPI != new.LLMAPI || old.LLMModel != new.LLMModel {
		d.Lowers = append(d.Lowers, "changes the model (api "+strconv.Quote(new.LLMAPI)+", model "+strconv.Quote(new.LLMModel)+")")
	}
	if old.ApprovalTimeout != new.ApprovalTimeout {
		d.Restart = append(d.Restart, "approvalTimeout (restart Airlock)")
	}
	if old.KillHotkey != new.KillHotkey {
		d.Restart = append(d.Restart, "killHotkey (restart Airlock)")
	}
	if old.AutomationEnabled != new.AutomationEnabled || !reflect.DeepEqual(old.Automations, new.Automations) {
		d.Restart = append(d.Restart, "automations (change them from the menu or with `airlock automations`, or restart Airlock)")
	}
	return d
}

// diffRules sorts the rules added and taken away.
func (d *SettingsDiff) diffRules(old, new Rules) {
	in := func(rs Rules, r Rule) bool {
		return slices.ContainsFunc(rs, func(x Rule) bool { return reflect.DeepEqual(x, r) })
	}
	for i, r := range new {
		if in(old, r) {
			continue
		}
		line := fmt.Sprintf("adds %s rule %d: %s", r.Decision, i+1, ruleWords(r))
		if r.Decision == RuleAllow {
			d.Raises = append(d.Raises, line)
		} else {
			d.Lowers = append(d.Lowers, line)
		}
	}
	for _, r := range old {
		if in(new, r) {
			continue
		}
		line := fmt.Sprintf("takes away the %s rule: %s", r.Decision, ruleWords(r))
		if r.Decision == RuleAllow {
			d.Lowers = append(d.Lowers, line)
		} else {
			d.Raises = append(d.Raises, line)
		}
	}
}

// ruleWords says in one line what a rule matches.
func ruleWords(r Rule) string {
	quoted := make([]string, len(r.Prefix))
	for i, w := range r.Prefix {
		quoted[i] = sanitize.Display(w)
	}
	s := strings.Join(quoted, " ")
	if r.Dir != "" {
		s += " in " + sanitize.Display(r.Dir)
	}
	if r.Client != "" {
		s += " from " + strconv.Quote(r.Client)
	}
	return s
}

// setDiff returns the items of b not in a, and of a not in b, in their
// order.
func setDiff(a, b []string) (added, removed []string) {
	for _, x := range b {
		if !slices.Contains(a, x) {
			added = append(added, x)
		}
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			removed = append(removed, x)
		}
	}
	return added, removed
}
