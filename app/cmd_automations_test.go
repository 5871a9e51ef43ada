package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func TestParseAutomations(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want automationsOptions
		err  string
	}{
		{"list", []string{"list"}, automationsOptions{op: "list"}, ""},
		{"list as JSON", []string{"list", "--json"}, automationsOptions{op: "list", json: true}, ""},
		{"add words, flags after the name", []string{"add", "morning notes", "--schedule", "weekdays 09:00", "--ask", "open my notes"},
			automationsOptions{op: "add", name: "morning notes", schedule: "weekdays 09:00", ask: "open my notes"}, ""},
		{"add a plan, flags first", []string{"add", "--run", "plan.txt", "--schedule", "every 2h", "--cooldown", "30m", "tidy"},
			automationsOptions{op: "add", name: "tidy", schedule: "every 2h", planFile: "plan.txt", cooldown: "30m"}, ""},
		{"run-now", []string{"run-now", "tidy"}, automationsOptions{op: "run-now", name: "tidy"}, ""},
		{"off", []string{"off"}, automationsOptions{op: "off"}, ""},

		{"nothing", nil, automationsOptions{}, "say what to do"},
		{"unknown op", []string{"approve", "tidy"}, automationsOptions{}, `"approve": want list`},
		{"no name", []string{"enable"}, automationsOptions{}, "wants the automation's name"},
		{"two names", []string{"remove", "a", "b"}, automationsOptions{}, "wants the automation's name"},
		{"a name for on", []string{"on", "tidy"}, automationsOptions{}, "takes no name"},
		{"a bad name", []string{"remove", "../x"}, automationsOptions{}, "the name"},
		{"add without a schedule", []string{"add", "x", "--ask", "y"}, automationsOptions{}, "wants --schedule"},
		{"add with both", []string{"add", "x", "--schedule", "daily 09:00", "--ask", "y", "--run", "f"}, automationsOptions{}, "one of --ask"},
		{"add with neither", []string{"add", "x", "--schedule", "daily 09:00"}, automationsOptions{}, "one of --ask"},
		{"add with a bad schedule", []string{"add", "x", "--schedule", "daily 9", "--ask", "y"}, automationsOptions{}, `"9" is not a time of day`},
		{"a flag of add on list", []string{"list", "--ask", "y"}, automationsOptions{}, "unknown flag: --ask"},
		{"a flag's value missing", []string{"add", "x", "--schedule"}, automationsOptions{}, "needs an argument: --schedule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseAutomations(tt.args)
			if tt.err != "" {
				var ue usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseAutomations(%q) = %v; want a usage error with %q", tt.args, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("parseAutomations(%q) = %+v, %v; want %+v", tt.args, got, err, tt.want)
			}
		})
	}
}

// parseAutomations reads `airlock automations ARGS` as the command line
// does, and returns what the op's body would be given instead of running
// it.
func parseAutomations(args []string) (automationsOptions, error) {
	var got automationsOptions
	capture := func(_ context.Context, opts automationsOptions, _ io.Reader, _, _ io.Writer) error {
		got = opts
		return nil
	}
	root := newRoot([]command{commands[0], automationsCommand(capture)}, strings.NewReader(""), io.Discard, io.Discard)
	_, err := dispatch(context.Background(), root, append([]string{"automations"}, args...))
	return got, err
}

// Each op of the gate's automations call is a subcommand.
func TestAutomationsOps(t *testing.T) {
	var ops []string
	for _, o := range automationsOps {
		ops = append(ops, o.op)
	}
	if !slices.Equal(ops, ipc.AutomationOps) {
		t.Errorf("airlock automations has subcommands %q; the gate's ops are %q", ops, ipc.AutomationOps)
	}
}

// cliWorld is the gate's automations side behind a real socket: the
// handler the app serves, its Book on a settings file in a temporary data
// folder, a person who answers the confirmation as told, and a runner
// standing in for the gate.
type cliWorld struct {
	t      *testing.T
	client *ipc.Client
	path   string // the settings file
	mu     sync.Mutex
	say    bool     // guarded by mu; the person's answer
	asked  []string // guarded by mu; the questions' titles
}

type okRunner struct{}

func (okRunner) Killed() bool { return false }
func (okRunner) Run(_ context.Context, a automation.Automation) automation.Result {
	return automation.Result{Status: "ok", Request: "req-" + a.Name}
}

func newCLIWorld(t *testing.T, settings string) *cliWorld {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir, err := os.MkdirTemp("", "al")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	w := &cliWorld{t: t, path: filepath.Join(dir, policy.SettingsFile)}
	if err := os.WriteFile(w.path, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := policy.LoadSettings(w.path)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := sanitize.NewConfig(home, s.Roots)
	if err != nil {
		t.Fatal(err)
	}
	b := &builtGate{settingsPath: w.path, settings: s}
	env := &risk.Env{Paths: paths}
	assess := func(a automation.Automation) automation.Assessment { return automation.Assess(a, env) }
	b.scheduler = automation.NewScheduler(automation.SchedulerConfig{Runner: okRunner{}, Assess: assess}, automation.Settings{})
	b.book = &automation.Book{Update: b.updateAutomations, Assess: assess, Scheduler: b.scheduler,
		Confirm: func(_ context.Context, c automation.Change) error {
			title, _, _ := c.Question()
			w.mu.Lock()
			defer w.mu.Unlock()
			w.asked = append(w.asked, title)
			if !w.say {
				return automation.ErrNotConfirmed
			}
			return nil
		}}
	b.book.Start(automation.Settings{Enabled: s.AutomationEnabled, Automations: s.Automations})
	srv, err := ipc.Listen(dir, gateHandler{book: b.book})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	t.Cleanup(func() { srv.Close() })
	if w.client, err = ipc.Dial(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.client.Close() })
	return w
}

// run runs `airlock automations ARGS` against the world, with plan as the
// plan an add reads.
func (w *cliWorld) run(plan string, args ...string) (string, error) {
	w.t.Helper()
	opts, err := parseAutomations(args)
	if err != nil {
		w.t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = runAutomations(context.Background(), w.client, opts, plan, &out, &errOut)
	return out.String() + errOut.String(), err
}

func (w *cliWorld) answer(say bool) {
	w.mu.Lock()
	w.say = say
	w.mu.Unlock()
}

func (w *cliWorld) questions() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.asked
	w.asked = nil
	return q
}

func (w *cliWorld) saved() policy.Settings {
	w.t.Helper()
	s, err := policy.LoadSettings(w.path)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

func TestAutomationsCLI(t *testing.T) {
	w := newCLIWorld(t, `{"roots": ["~/Documents"], "automations": [{"name": "hello", "ask": "say hello", "schedule": "at login", "enabled": false}]}`)

	out, err := w.run("", "list")
	if err != nil || !strings.Contains(out, "automations: on") || !strings.Contains(out, "hello") || !strings.Contains(out, "at login") {
		t.Fatalf("list: %v\n%s", err, out)
	}

	// An add the person refuses: an error, and nothing in the file.
	plan := "CREATE_FOLDER \"~/Documents/Inbox\"\nNOTIFY \"Airlock\" \"Inbox ready\"\n"
	out, err = w.run(plan, "add", "tidy", "--schedule", "every 2h", "--cooldown", "30m", "--run", "-")
	if err == nil || !strings.Contains(err.Error(), "needs the person's yes") || !strings.Contains(out, "waiting for your yes") {
		t.Fatalf("an add the person refused: %v\n%s", err, out)
	}
	if q := w.questions(); len(q) != 1 || !strings.Contains(q[0], `"tidy"`) {
		t.Fatalf("asked %q", q)
	}
	if s := w.saved(); len(s.Automations) != 1 {
		t.Fatalf("the file holds %d automations", len(s.Automations))
	}

	// The person says yes: added, with the plan's risk.
	w.answer(true)
	out, err = w.run(plan, "add", "tidy", "--schedule", "every 2h", "--cooldown", "30m", "--run", "-")
	if err != nil || !strings.Contains(out, `added "tidy": every 2h, next `) || !strings.Contains(out, "rated caution") {
		t.Fatalf("add: %v\n%s", err, out)
	}
	if q := w.questions(); len(q) != 1 {
		t.Fatalf("asked %q", q)
	}
	s := w.saved()
	if len(s.Automations) != 2 || s.Automations[1].Run != plan || s.Automations[1].Cooldown.String() != "30m0s" || !s.Automations[1].Enabled {
		t.Fatalf("the file holds %+v", s.Automations)
	}

	// Refused before anyone is asked: a blocked plan, a plan that does not
	// parse, a name taken, a cooldown longer than the interval.
	for _, tc := range []struct {
		plan string
		args []string
		want string
	}{
		{"NOTIFY \"a\" \"b\"\nDELETE_FILE \"~/.ssh/id_ed25519\"\n", []string{"add", "keys", "--schedule", "daily 09:00", "--run", "-"}, "plan line 2"},
		{"NOTIFY \"a\" \"b\"\nEXPLODE\n", []string{"add", "bad", "--schedule", "daily 09:00", "--run", "-"}, "plan line 2"},
		{"", []string{"add", "TIDY", "--schedule", "daily 09:00", "--ask", "x"}, "exists already"},
		{"", []string{"add", "poll", "--schedule", "every 30m", "--cooldown", "1h", "--ask", "x"}, "skip runs"},
		{"", []string{"add", "poll", "--schedule", "every 30m", "--cooldown", "soon", "--ask", "x"}, "not a duration"},
	} {
		if out, err := w.run(tc.plan, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q\n%s", tc.args, err, tc.want, out)
		}
	}
	if q := w.questions(); len(q) != 0 {
		t.Errorf("asked about additions that were refused: %q", q)
	}

	// Turning on asks; off does not.
	w.answer(false)
	if _, err := w.run("", "enable", "hello"); err == nil {
		t.Fatal("enabled without a yes")
	}
	if _, err := w.run("", "off"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.run("", "disable", "tidy"); err != nil {
		t.Fatal(err)
	}
	if q := w.questions(); len(q) != 1 {
		t.Errorf("asked %q, want only about enabling", q)
	}
	if s := w.saved(); s.AutomationEnabled || s.Automations[0].Enabled || s.Automations[1].Enabled {
		t.Fatalf("the file: switch %v, %+v", s.AutomationEnabled, s.Automations)
	}
	w.answer(true)
	if out, err := w.run("", "on"); err != nil || !strings.Contains(out, "automations are on") {
		t.Fatalf("on: %v\n%s", err, out)
	}
	if out, err := w.run("", "run-now", "tidy"); err == nil || !strings.Contains(err.Error(), "is off") {
		t.Fatalf("run-now of one that is off: %v\n%s", err, out)
	}
	if out, err := w.run("", "enable", "tidy"); err != nil || !strings.Contains(out, `turned on "tidy"`) {
		t.Fatalf("enable: %v\n%s", err, out)
	}
	if out, err := w.run("", "run-now", "tidy"); err != nil || out != "tidy: ok (request req-tidy; `airlock history` shows it)\n" {
		t.Fatalf("run-now: %v\n%q", err, out)
	}
	out, err = w.run("", "list")
	if err != nil || !strings.Contains(out, "ok") || !strings.Contains(out, "req-tidy") || !strings.Contains(out, "caution") {
		t.Fatalf("list after a run: %v\n%s", err, out)
	}
	if out, err := w.run("", "remove", "tidy"); err != nil || out != "removed \"tidy\"\n" {
		t.Fatalf("remove: %v\n%s", err, out)
	}
	if _, err := w.run("", "remove", "tidy"); err == nil || !strings.Contains(err.Error(), "no automation has that name") {
		t.Fatalf("remove again: %v", err)
	}
	if s := w.saved(); len(s.Automations) != 1 || s.Automations[0].Name != "hello" {
		t.Fatalf("the file: %+v", s.Automations)
	}
}

// A socket client may not pass for an automation (or the menu) by its
// name: the gate shows it as what it is.
func TestSocketClientCannotBeAnAutomation(t *testing.T) {
	for _, name := range []string{"automation: tidy", "Automation: tidy", "AUTOMATIONS", "Automate… (menu)"} {
		if got := socketClient(name); !strings.HasPrefix(got, "socket client calling itself ") {
			t.Errorf("socketClient(%q) = %q", name, got)
		}
	}
	if got := socketClient("claude-code"); got != "claude-code" {
		t.Errorf("socketClient(claude-code) = %q", got)
	}
}
