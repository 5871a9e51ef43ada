package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/spf13/pflag"
)

// settingsUsage is `airlock settings`'s line in the commands table.
const settingsUsage = "airlock settings reload [--json]"

// settingsFlags declares airlock settings's flags.
func settingsFlags(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the gate's report as JSON")
	return func(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
		return cmdSettings(ctx, fs, *asJSON, stdout)
	}
}

// cmdSettings asks the running gate to read settings.json again. What of
// the file lets more run (a root, an app or an allow rule added, a higher
// level …) is put in force only after the person's yes in Airlock's own
// popup: an agent can edit the file and run this command too.
func cmdSettings(ctx context.Context, fs *pflag.FlagSet, asJSON bool, stdout io.Writer) error {
	if fs.NArg() != 1 || fs.Arg(0) != "reload" {
		return usagef("want reload: %s", settingsUsage)
	}
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	raw, err := c.Call(ctx, "settings", ipc.SettingsParams{Op: "reload"}, nil)
	if err != nil {
		return err
	}
	var rep reloadReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("reading the gate's report: %w", err)
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", raw)
		return nil
	}
	printReload(stdout, rep)
	return nil
}

// reloadReport is the gate's answer to a reload.
type reloadReport struct {
	// Changed says whether the file differed from the settings in force.
	Changed bool `json:"changed"`
	// Confirmed says the person said yes to what raises trust.
	Confirmed bool `json:"confirmed,omitempty"`
	// Applied says, a line each, what is now in force.
	Applied []string `json:"applied,omitempty"`
	// Restart says what changed in the file and is not in force until the
	// next start.
	Restart []string `json:"restart,omitempty"`
}

func printReload(w io.Writer, rep reloadReport) {
	if !rep.Changed {
		fmt.Fprintln(w, "settings.json: nothing changed")
		return
	}
	for _, l := range rep.Applied {
		fmt.Fprintf(w, "in force: %s\n", l)
	}
	for _, l := range rep.Restart {
		fmt.Fprintf(w, "not reloaded: %s\n", l)
	}
}

// codeSettings is the socket error code of a reload that was refused; its
// message says why.
const codeSettings = -32012

// settingsConfirm is how the gate's socket asks the person before a reload
// that raises trust: set by the caller before anything is served (the
// menu's Trust, serve's popups, or nobody).
type settingsConfirm struct {
	confirm func(ctx context.Context, d policy.SettingsDiff) error
	// rule asks about an allow rule chosen in the approval popup.
	rule func(ctx context.Context, o gate.RuleOffer) error
}

// confirmRule asks through trust, as a remembered approval is asked
// about, whether to keep the allow rule the person chose in the approval
// popup: a second yes, in Airlock's own confirmation popup.
func confirmRule(trust *tray.Trust) func(context.Context, gate.RuleOffer) error {
	return func(ctx context.Context, o gate.RuleOffer) error {
		q := tray.Question{Title: "Always allow this command here?",
			Text: "Keep a rule in settings.json that lets this command run without asking you, in this folder and below, " +
				"for this client:\n\n" + o.Words + "\n\nIt never covers a destructive command; `airlock rules remove` or the " +
				"dashboard takes it away. Say yes only if you chose \"always allow\" in the approval popup yourself.",
			Yes: "Keep the rule", Reason: "keep a rule that allows a command"}
		err := trust.Raise(ctx, policy.Change{Kind: policy.ChangeRemember}, q, func() error { return nil })
		switch {
		case err == nil:
			return nil
		case errors.Is(err, tray.ErrConfirmationOpen):
			return errors.New("another confirmation was open")
		case errors.Is(err, tray.ErrNotConfirmed):
			return fmt.Errorf("the person did not say yes in the confirmation popup%s", strings.TrimPrefix(err.Error(), tray.ErrNotConfirmed.Error()))
		}
		return err
	}
}

// keepRule is the gate's KeepRule: after the person's second yes, the
// rule goes at the end of the file's rules and into the running gate.
func (b *builtGate) keepRule(ctx context.Context, o gate.RuleOffer) error {
	if b.reload.rule == nil {
		return errors.New("it needs the person's yes in Airlock's confirmation popup, and none can be shown here")
	}
	if err := b.reload.rule(ctx, o); err != nil {
		return err
	}
	return b.changeRules(ctx, func(s *policy.Settings) error {
		if slices.ContainsFunc(s.Rules, func(r policy.Rule) bool { return reflect.DeepEqual(r, o.Rule) }) {
			return nil // kept already
		}
		s.Rules = append(s.Rules, o.Rule)
		return nil
	})
}

// confirmSettings asks through trust: the menu's confirmation popup, one
// at a time with every change that raises trust. A reload that raises the
// level is confirmed as the menu's level item is (with the owner's
// authentication for Level 2); any other as a remembered approval is.
func confirmSettings(trust *tray.Trust) func(context.Context, policy.SettingsDiff) error {
	return func(ctx context.Context, d policy.SettingsDiff) error {
		c := policy.Change{Kind: policy.ChangeRemember}
		if d.Level != nil && policy.RaisesTrust(*d.Level) {
			c = *d.Level
		}
		q := tray.Question{Title: "Reload Airlock's settings?", Text: reloadQuestion(d),
			Yes: "Put them in force", Reason: "reload Airlock's settings"}
		err := trust.Raise(ctx, c, q, func() error { return nil })
		switch {
		case err == nil:
			return nil
		case errors.Is(err, tray.ErrConfirmationOpen):
			return errors.New("another confirmation is open; try again once it is answered")
		case errors.Is(err, tray.ErrNotConfirmed):
			return fmt.Errorf("it needs the person's yes in Airlock's confirmation popup%s", strings.TrimPrefix(err.Error(), tray.ErrNotConfirmed.Error()))
		}
		return err
	}
}

// reloadQuestion is the popup's text: what the reload would let run
// further first, then the rest.
func reloadQuestion(d policy.SettingsDiff) string {
	var b strings.Builder
	b.WriteString("settings.json was changed. Putting it in force lets more run without asking you:\n")
	for _, l := range d.Raises {
		b.WriteString("• " + l + "\n")
	}
	if len(d.Lowers) > 0 {
		b.WriteString("It also:\n")
		for _, l := range d.Lowers {
			b.WriteString("• " + l + "\n")
		}
	}
	b.WriteString("If you did not make this change, say no: the settings in force stay as they are.")
	return b.String()
}

// Settings answers the socket's settings method.
func (h gateHandler) Settings(ctx context.Context, p ipc.SettingsParams) (any, error) {
	if h.reload == nil {
		return nil, &ipc.RPCError{Code: codeSettings, Message: "this gate cannot reload its settings: restart it"}
	}
	rep, err := h.reload(ctx)
	if err != nil {
		return nil, &ipc.RPCError{Code: codeSettings, Message: "settings.json not reloaded: " + err.Error() + "; the settings in force are unchanged"}
	}
	return rep, nil
}

// inForce guards what a reload changes in a builtGate: the settings in
// force and the sandbox they were built into.
type inForce struct {
	mu       sync.Mutex
	settings policy.Settings // guarded by mu
	roots    []string        // guarded by mu; resolved
	box      *sandbox.Box    // guarded by mu
	env      *risk.Env       // guarded by mu; the analyzers' environment of settings
}

// current returns the settings in force, their resolved roots and box.
func (f *inForce) current() (policy.Settings, []string, *sandbox.Box) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.settings, f.roots, f.box
}

// reloadSettings reads settings.json again and puts it in force: at once
// when it only lowers trust, after confirm's yes when it raises it. A file
// that does not read, a root that holds Airlock's own files, a sandbox that
// cannot be built, a no, or a file or settings changed while the person was
// asked leave the settings in force as they were. The person is asked
// without the settings lock held, so that the menu's changes are not held
// up by an open popup; what they said yes to is checked again under it.
func (b *builtGate) reloadSettings(ctx context.Context, confirm func(context.Context, policy.SettingsDiff) error) (reloadReport, error) {
	p, err := b.prepareReload()
	if err != nil || !p.rep.Changed {
		return p.rep, err
	}
	if len(p.diff.Raises) > 0 {
		if confirm == nil {
			return reloadReport{}, errors.New("it lets more run without asking, which needs the person's yes in Airlock's confirmation popup, and nobody can be asked here")
		}
		if err := confirm(ctx, p.diff); err != nil {
			return reloadReport{}, err
		}
		p.rep.Confirmed = true
	}
	b.settingsMu.Lock()
	defer b.settingsMu.Unlock()
	again, err := b.prepareReload()
	if err != nil {
		return reloadReport{}, err
	}
	if !reflect.DeepEqual(again.next, p.next) || !reflect.DeepEqual(again.old, p.old) {
		return reloadReport{}, errors.New("settings.json, or the settings in force, changed while you were asked: run `airlock settings reload` again")
	}
	box := p.box
	if !slices.Equal(p.roots, p.env.Paths.Roots) {
		// The sandbox's view is of the roots: built anew, and probed.
		if box, err = newSandbox(p.home, p.env.Paths, b.dir); err != nil {
			return reloadReport{}, err
		}
	}
	p.env.Launch = b.launch
	if err := b.gate.Reconfigure(ctx, gate.Setup{Env: p.env, Box: box, Rules: p.next.Rules}); err != nil {
		return reloadReport{}, err
	}
	if p.diff.Level != nil {
		b.gate.SetAutonomy(p.next.Autonomy)
	}
	next, old := p.next, p.old
	b.force.mu.Lock()
	// What a reload does not change stays as it was, so that a later
	// reload still sees it as changed.
	next.ApprovalTimeout, next.KillHotkey = old.ApprovalTimeout, old.KillHotkey
	next.AutomationEnabled, next.Automations = old.AutomationEnabled, old.Automations
	b.force.settings, b.force.roots, b.force.box, b.force.env = next, p.env.Paths.Roots, box, p.env
	b.force.mu.Unlock()
	p.rep.Applied = append(append([]string{}, p.diff.Raises...), p.diff.Lowers...)
	return p.rep, nil
}

// pendingReload is a reload read and checked, not yet in force.
type pendingReload struct {
	old, next policy.Settings // in force (with the gate's level), and the file's
	roots     []string        // in force
	box       *sandbox.Box    // in force
	diff      policy.SettingsDiff
	rep       reloadReport
	home      string
	env       *risk.Env // of next
}

// prepareReload reads the file and compares it with the settings in
// force; when it changed, it builds and checks its environment (before
// the person is asked: a yes to settings that cannot be used would be for
// nothing).
func (b *builtGate) prepareReload() (pendingReload, error) {
	var p pendingReload
	var err error
	if p.next, err = policy.LoadSettings(b.settingsPath); err != nil {
		return p, err
	}
	p.old, p.roots, p.box = b.force.current()
	// The level in force is the gate's: the menu may have changed it.
	p.old.Autonomy = policy.Autonomy(b.gate.Status().Autonomy)
	p.diff = policy.DiffSettings(p.old, p.next)
	p.rep = reloadReport{Changed: p.diff.Changed(), Restart: p.diff.Restart}
	if !p.rep.Changed {
		return p, nil
	}
	if p.home, err = os.UserHomeDir(); err != nil {
		return p, fmt.Errorf("finding the home folder: %w", err)
	}
	if p.env, err = p.next.Env(p.home, os.Getpid()); err != nil {
		return p, fmt.Errorf("%s: %w", b.settingsPath, err)
	}
	if err := ownFilesOutsideSandbox(p.env.Paths, b.dir); err != nil {
		return p, fmt.Errorf("%s: sandbox roots: %w", b.settingsPath, err)
	}
	return p, nil
}

// changeRules changes the rules of the settings file with change (under
// the lock every change of the file takes), and the rules in force in the
// running gate with the same change. The caller has had the person confirm
// what raises trust: that one change, and nothing else. So the rules put
// in force are those in force changed, never the file's: a file changed
// behind the gate's back (another allow rule, a deny rule taken away)
// comes into force only through a reload, which asks about it.
func (b *builtGate) changeRules(ctx context.Context, change func(*policy.Settings) error) error {
	b.settingsMu.Lock()
	defer b.settingsMu.Unlock()
	s, err := policy.LoadSettings(b.settingsPath)
	if err != nil {
		return err
	}
	b.force.mu.Lock()
	env, box := b.force.env, b.force.box
	inForce := policy.Settings{Rules: slices.Clone(b.force.settings.Rules)}
	b.force.mu.Unlock()
	if env == nil {
		return errors.New("the running gate's settings are not known: restart Airlock to put the rules in force")
	}
	if err := change(&inForce); err != nil {
		return err
	}
	if err := change(&s); err != nil {
		return err
	}
	if len(s.Rules) == 0 {
		s.Rules = nil
	}
	if len(inForce.Rules) == 0 {
		inForce.Rules = nil
	}
	if err := policy.SaveSettings(b.settingsPath, s); err != nil {
		return err
	}
	if err := b.gate.Reconfigure(ctx, gate.Setup{Env: env, Box: box, Rules: inForce.Rules}); err != nil {
		return err
	}
	b.force.mu.Lock()
	b.force.settings.Rules = inForce.Rules
	b.force.mu.Unlock()
	return nil
}

// removeAllowRule takes allow rule n (from 1) out of the settings file and
// the running gate, if it still reads words (ruleWords): the dashboard's
// Remove. It only lowers trust, so it asks nobody.
func (b *builtGate) removeAllowRule(ctx context.Context, n int, words string) error {
	return b.changeRules(ctx, func(s *policy.Settings) error {
		if n < 1 || n > len(s.Rules) || ruleWords(s.Rules[n-1]) != words {
			return fmt.Errorf("rule %d is not %q in settings.json any more: %w", n, words, dashboard.ErrNoSuchRule)
		}
		if s.Rules[n-1].Decision != policy.RuleAllow {
			return fmt.Errorf("rule %d is a %s rule: only allow rules are removed here: %w", n, s.Rules[n-1].Decision, dashboard.ErrNoSuchRule)
		}
		s.Rules = append(s.Rules[:n-1:n-1], s.Rules[n:]...)
		return nil
	})
}

// ruleViews are the rules as the dashboard lists them.
func ruleViews(rs policy.Rules) []dashboard.RuleView {
	out := make([]dashboard.RuleView, len(rs))
	for i, r := range rs {
		out[i] = dashboard.RuleView{Decision: r.Decision.String(), Words: ruleWords(r)}
	}
	return out
}

// ruleWords is describeRule without the decision in front.
func ruleWords(r policy.Rule) string {
	return strings.TrimSpace(strings.TrimPrefix(describeRule(r), r.Decision.String()))
}
