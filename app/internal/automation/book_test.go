package automation_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// testEnv rates against a home in a temporary folder with ~/Documents as
// the sandbox.
func testEnv(t *testing.T) *risk.Env {
	t.Helper()
	paths, err := sanitize.NewConfig(t.TempDir(), []string{"~/Documents"})
	if err != nil {
		t.Fatal(err)
	}
	return &risk.Env{Paths: paths}
}

func TestAssess(t *testing.T) {
	env := testEnv(t)
	tests := []struct {
		name, plan string
		want       level.Level
		reason     string
	}{
		{"notify", `NOTIFY "Airlock" "hello"`, level.Safe, ""},
		{"folder in the sandbox", `CREATE_FOLDER "~/Documents/Inbox"`, level.Caution, ""},
		{"write in the sandbox", "NOTIFY \"a\" \"b\"\nWRITE_FILE \"~/Documents/x.txt\" \"hi\"", level.Dangerous, "plan line 2: "},
		{"a credential store", "NOTIFY \"a\" \"b\"\nDELETE_FILE \"~/.ssh/id_ed25519\"", level.Blocked, "plan line 2: "},
		{"does not parse", "NOTIFY \"a\" \"b\"\nEXPLODE", level.Blocked, "plan line 2: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := automation.Assess(automation.Automation{Name: "x", Run: tt.plan}, env)
			if !as.Rated || as.Risk != tt.want {
				t.Fatalf("Assess = %+v, want rated %v", as, tt.want)
			}
			if tt.reason != "" && !strings.Contains(strings.Join(as.Reasons, "\n"), tt.reason) {
				t.Errorf("reasons %q, want one with %q", as.Reasons, tt.reason)
			}
		})
	}
	if as := automation.Assess(automation.Automation{Name: "x", Ask: "tidy up"}, env); as.Rated || as.String() != "rated at each run" {
		t.Errorf("a request in words: %+v", as)
	}
}

// bookWorld is a Book on a settings "file" in memory, a scheduler that
// is not running, and a person who answers the confirmations as told.
type bookWorld struct {
	book   *automation.Book
	mu     sync.Mutex
	file   automation.Settings   // guarded by mu
	asked  []automation.Change   // guarded by mu
	answer error                 // guarded by mu; nil: yes
	fail   error                 // guarded by mu; the next save fails with it
	sched  *automation.Scheduler // not running
}

func newBookWorld(t *testing.T, st automation.Settings) *bookWorld {
	w := &bookWorld{file: st}
	env := testEnv(t)
	assess := func(a automation.Automation) automation.Assessment { return automation.Assess(a, env) }
	w.sched = automation.NewScheduler(automation.SchedulerConfig{Runner: newRunner(), Clock: newClock(day(2025, 3, 10, 8, 0)), Assess: assess}, automation.Settings{})
	w.book = &automation.Book{
		Update: func(change func(*automation.Settings) error) error {
			w.mu.Lock()
			defer w.mu.Unlock()
			if w.fail != nil {
				return w.fail
			}
			next := automation.Settings{Enabled: w.file.Enabled, Automations: append([]automation.Automation(nil), w.file.Automations...)}
			if err := change(&next); err != nil {
				return err
			}
			w.file = next
			return nil
		},
		Confirm: func(_ context.Context, c automation.Change) error {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.asked = append(w.asked, c)
			return w.answer
		},
		Assess:    assess,
		Scheduler: w.sched,
	}
	w.book.Start(st)
	return w
}

func (w *bookWorld) say(err error) {
	w.mu.Lock()
	w.answer = err
	w.mu.Unlock()
}

// questions returns and forgets the changes the person was asked about.
func (w *bookWorld) questions() []automation.Change {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.asked
	w.asked = nil
	return q
}

func (w *bookWorld) fileNames() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var names []string
	for _, a := range w.file.Automations {
		n := a.Name
		if !a.Enabled {
			n += "(off)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ",")
}

func (w *bookWorld) running() string {
	var names []string
	for _, st := range w.sched.Overview().Automations {
		n := st.Name
		if !st.Enabled {
			n += "(off)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ",")
}

var errNo = errors.New("the person said no")

func TestBookAddAsksThePerson(t *testing.T) {
	ctx := context.Background()
	w := newBookWorld(t, automation.Settings{Enabled: true})
	tidy := automation.Automation{Name: "tidy", Run: `CREATE_FOLDER "~/Documents/Inbox"`, Schedule: mustSchedule(t, "weekdays 09:00"), Cooldown: time.Hour}

	// No: nothing is added anywhere.
	w.say(errNo)
	if _, err := w.book.Add(ctx, tidy); !errors.Is(err, errNo) {
		t.Fatalf("add refused by the person: %v", err)
	}
	if q := w.questions(); len(q) != 1 || q[0].Kind != automation.ChangeAdd || q[0].Assessment.Risk != level.Caution {
		t.Fatalf("asked %+v", q)
	}
	if w.fileNames() != "" || w.running() != "" {
		t.Fatalf("added without a yes: file %q, running %q", w.fileNames(), w.running())
	}

	// Yes: in the file and running, on, with its next time.
	w.say(nil)
	as, err := w.book.Add(ctx, tidy)
	if err != nil || as.Risk != level.Caution {
		t.Fatalf("add: %+v, %v", as, err)
	}
	q := w.questions()
	title, text, yes := q[0].Question()
	for _, want := range []string{"Schedule: weekdays 09:00 (cooldown 1h)", `CREATE_FOLDER "~/Documents/Inbox"`, "rated caution", "Runs as: automation: tidy", "any program can ask"} {
		if !strings.Contains(text, want) {
			t.Errorf("the question does not say %q:\n%s", want, text)
		}
	}
	if !strings.Contains(title, `"tidy"`) || yes != "Add automation" {
		t.Errorf("question %q / %q", title, yes)
	}
	if w.fileNames() != "tidy" || w.running() != "tidy" {
		t.Fatalf("file %q, running %q", w.fileNames(), w.running())
	}
	if st := w.sched.Overview().Automations[0]; !st.Next.Equal(day(2025, 3, 10, 9, 0)) || st.Assessment.Risk != level.Caution {
		t.Errorf("the scheduler has %+v", st)
	}

	// The same name again, in another case: refused before asking.
	again := tidy
	again.Name = "TIDY"
	if _, err := w.book.Add(ctx, again); !errors.Is(err, automation.ErrExists) {
		t.Errorf("a name taken: %v", err)
	}
	// A blocked plan, a plan that does not parse, a bad name: refused
	// before asking, with what is wrong.
	blocked := automation.Automation{Name: "keys", Run: "NOTIFY \"a\" \"b\"\nDELETE_FILE \"~/.ssh/id_ed25519\"", Schedule: mustSchedule(t, "daily 09:00"), Cooldown: time.Hour}
	if _, err := w.book.Add(ctx, blocked); !errors.Is(err, automation.ErrBlocked) || !strings.Contains(err.Error(), "plan line 2") {
		t.Errorf("a blocked plan: %v", err)
	}
	broken := blocked
	broken.Run = "NOTIFY \"a\" \"b\"\nEXPLODE"
	if _, err := w.book.Add(ctx, broken); err == nil || !strings.Contains(err.Error(), "plan line 2") {
		t.Errorf("a plan that does not parse: %v", err)
	}
	badName := tidy
	badName.Name = "tidy/../x"
	if _, err := w.book.Add(ctx, badName); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("a bad name: %v", err)
	}
	if q := w.questions(); len(q) != 0 {
		t.Errorf("asked about refused additions: %+v", q)
	}

	// Nobody to ask: nothing that raises trust.
	w.book.Confirm = nil
	other := tidy
	other.Name = "other"
	if _, err := w.book.Add(ctx, other); !errors.Is(err, automation.ErrNotConfirmed) {
		t.Errorf("add with nobody to ask: %v", err)
	}
	if w.fileNames() != "tidy" {
		t.Errorf("file %q", w.fileNames())
	}
}

func TestBookLoweringNeedsNoYes(t *testing.T) {
	ctx := context.Background()
	a := plan(t, "a", "daily 09:00", time.Hour)
	b := plan(t, "b", "daily 10:00", time.Hour)
	w := newBookWorld(t, on(a, b))
	w.say(errNo) // the person would say no to anything

	if err := w.book.SetEnabled(ctx, "A", false); err != nil {
		t.Fatal(err)
	}
	if err := w.book.Remove(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if err := w.book.SetSwitch(ctx, false); err != nil {
		t.Fatal(err)
	}
	if q := w.questions(); len(q) != 0 {
		t.Fatalf("asked about changes that lower trust: %+v", q)
	}
	if w.fileNames() != "a(off)" || w.running() != "a(off)" || w.sched.Overview().Enabled || w.file.Enabled {
		t.Fatalf("file %q (on %v), running %q (on %v)", w.fileNames(), w.file.Enabled, w.running(), w.sched.Overview().Enabled)
	}
	if err := w.book.Remove(ctx, "b"); !errors.Is(err, automation.ErrNotFound) {
		t.Errorf("removing what is gone: %v", err)
	}

	// Turning on asks, and a no leaves it off.
	if err := w.book.SetEnabled(ctx, "a", true); !errors.Is(err, errNo) {
		t.Fatalf("turning on, refused: %v", err)
	}
	if err := w.book.SetSwitch(ctx, true); !errors.Is(err, errNo) {
		t.Fatalf("the switch on, refused: %v", err)
	}
	if q := w.questions(); len(q) != 2 || q[0].Kind != automation.ChangeEnable || q[1].Kind != automation.ChangeSwitchOn {
		t.Fatalf("asked %+v", q)
	}
	if w.fileNames() != "a(off)" || w.sched.Overview().Enabled {
		t.Fatalf("changed after a no: file %q, switch %v", w.fileNames(), w.sched.Overview().Enabled)
	}
	w.say(nil)
	if err := w.book.SetEnabled(ctx, "a", true); err != nil {
		t.Fatal(err)
	}
	if err := w.book.SetSwitch(ctx, true); err != nil {
		t.Fatal(err)
	}
	if w.fileNames() != "a" || w.running() != "a" || !w.sched.Overview().Enabled {
		t.Fatalf("file %q, running %q", w.fileNames(), w.running())
	}
}

func TestBookKeepsToWhatRuns(t *testing.T) {
	ctx := context.Background()
	a := plan(t, "a", "daily 09:00", time.Hour)
	a.Enabled = false
	w := newBookWorld(t, on(a))
	// settings.json was edited behind Airlock's back: "a" there is another
	// plan, and there is an automation Airlock never ran.
	w.mu.Lock()
	edited := a
	edited.Run = `OPEN_URL "https://example.com/"`
	sneaked := plan(t, "sneaked", "every 5m", 0)
	w.file.Automations = []automation.Automation{edited, sneaked}
	w.mu.Unlock()

	err := w.book.SetEnabled(ctx, "a", true)
	if err == nil || !strings.Contains(err.Error(), "restart Airlock") {
		t.Fatalf("turning on what the file holds differently: %v", err)
	}
	if w.running() != "a(off)" {
		t.Fatalf("running %q", w.running())
	}
	// A change that goes through leaves the sneaked automation out of what
	// runs.
	if err := w.book.Remove(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if w.running() != "" || w.fileNames() != "sneaked" {
		t.Fatalf("running %q, file %q", w.running(), w.fileNames())
	}

	// A save that fails changes nothing.
	w.mu.Lock()
	w.fail = errors.New("disk full")
	w.mu.Unlock()
	if _, err := w.book.Add(ctx, plan(t, "b", "daily 09:00", time.Hour)); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("add with a failing save: %v", err)
	}
	if w.running() != "" {
		t.Fatalf("running %q after a failed save", w.running())
	}
}
