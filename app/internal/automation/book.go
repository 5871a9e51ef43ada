package automation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/level"
)

// ChangeKind is what a Change does.
type ChangeKind int

const (
	ChangeAdd       ChangeKind = iota + 1 // add an automation (it starts on)
	ChangeEnable                          // turn one on
	ChangeSwitchOn                        // turn the global switch on
	ChangeRemove                          // remove one
	ChangeDisable                         // turn one off
	ChangeSwitchOff                       // turn the global switch off
)

// Change is a change of the automations the person makes: from the menu,
// the CLI or the dashboard.
type Change struct {
	Kind ChangeKind
	// Automation is the automation added, turned on or off, or removed.
	Automation Automation
	// Assessment is its plan's rating, for ChangeAdd and ChangeEnable.
	Assessment Assessment
}

// RaisesTrust reports whether c lets something run that would not have
// run before: adding an automation, turning one on, turning the global
// switch on. Such a change is made only after the person's yes in
// Airlock's own confirmation popup (policy.RaisesTrust and the tray's
// confirmation); the others only make less run and need no more than the
// request. Unknown kinds raise trust.
func (c Change) RaisesTrust() bool {
	switch c.Kind {
	case ChangeRemove, ChangeDisable, ChangeSwitchOff:
		return false
	}
	return true
}

// Question is the confirmation popup's title, text and yes button for c.
// The text shows everything the person agrees to: the name, the schedule
// and cooldown, the request or the whole plan and its rating.
func (c Change) Question() (title, text, yes string) {
	a := c.Automation
	var b strings.Builder
	switch c.Kind {
	case ChangeSwitchOn:
		return "Airlock — turn automations on?",
			"Every automation that is on will run on its schedule again: each run goes through the gate " +
				"as your own request would, and what needs your approval still asks.\n\n" + confirmHint,
			"Turn on"
	case ChangeAdd:
		title, yes = fmt.Sprintf("Airlock — add the automation %q?", a.Name), "Add automation"
		b.WriteString("Airlock was asked to add this automation. It will run without you starting it:\n\n")
	case ChangeEnable:
		title, yes = fmt.Sprintf("Airlock — turn on the automation %q?", a.Name), "Turn on"
		b.WriteString("This automation will run without you starting it:\n\n")
	default:
		return fmt.Sprintf("Airlock — change the automation %q?", a.Name), confirmHint, "Yes"
	}
	fmt.Fprintf(&b, "Name: %s\nSchedule: %s (cooldown %s)\nRuns as: %s\n", a.Name, a.Schedule, formatDuration(a.Cooldown), a.Client())
	if a.Run != "" {
		fmt.Fprintf(&b, "Plan, rated %s now:\n\n%s\n", c.Assessment.Risk, strings.TrimRight(a.Run, "\n"))
		for _, r := range c.Assessment.Reasons {
			fmt.Fprintf(&b, "  - %s\n", r)
		}
	} else {
		fmt.Fprintf(&b, "Request in words (the local model writes a new plan for it at each run):\n\n%s\n", a.Ask)
	}
	b.WriteString("\nEach run goes through the gate as your own request would: it is rated again, and what needs " +
		"your approval at your autonomy level still asks you.\n\n" + confirmHint)
	return title, b.String(), yes
}

const confirmHint = "Say yes only if you asked for this yourself: any program can ask Airlock to."

// Errors of the Book.
var (
	// ErrNotConfirmed: the person did not say yes, or nobody could be
	// asked.
	ErrNotConfirmed = errors.New("it needs the person's yes in Airlock's confirmation popup")
	// ErrExists: an automation already has the name.
	ErrExists = errors.New("an automation with that name exists already")
	// ErrBlocked: the plan is blocked under the current settings.
	ErrBlocked = errors.New("the plan is blocked")
)

// Book makes the person's changes of the automations: it asks for the
// confirmation a change that raises trust needs, writes settings.json and
// gives the scheduler the result. Update, Confirm, Assess and Scheduler are
// its hooks; Update, Assess and Scheduler are required.
//
// What runs is the Book's own list, which starts as settings.json read at
// start and changes only through the Book: an automation written into the
// file by hand (or by any other program) meanwhile runs only once Airlock
// has started again, as every other setting.
type Book struct {
	// Update reads the settings file, lets change modify its automations
	// and, if change returns nil, saves it; one call at a time, and never
	// at the same time as another change of the file.
	Update func(change func(*Settings) error) error
	// Confirm asks the person about c (c.Question) and returns nil only
	// on their yes; nil: nobody can be asked, and nothing that raises trust
	// can be done.
	Confirm func(ctx context.Context, c Change) error
	// Assess rates an automation under the gate's settings.
	Assess    func(Automation) Assessment
	Scheduler *Scheduler

	mu      sync.Mutex // serialises changes
	current Settings   // guarded by mu; what runs
}

// Start gives the book what runs at start, as settings.json was read.
func (b *Book) Start(st Settings) {
	b.mu.Lock()
	b.current = Settings{Enabled: st.Enabled, Automations: append([]Automation(nil), st.Automations...)}
	b.mu.Unlock()
	b.Scheduler.Set(st)
}

// List returns the scheduler's overview.
func (b *Book) List() Overview { return b.Scheduler.Overview() }

// Subscribe is Scheduler.Subscribe.
func (b *Book) Subscribe() (<-chan struct{}, func()) { return b.Scheduler.Subscribe() }

// Add adds a, on, after the person's yes. A plan is assessed first: one
// that does not parse or is blocked is refused (ErrBlocked, with the
// reasons and their plan lines) before anyone is asked. It returns the
// assessment.
func (b *Book) Add(ctx context.Context, a Automation) (Assessment, error) {
	a.Enabled = true
	if err := a.Validate(); err != nil {
		return Assessment{}, err
	}
	as := b.Assess(a)
	if as.Rated && as.Risk >= level.Blocked {
		return as, fmt.Errorf("%w: %s", ErrBlocked, strings.Join(as.Reasons, "; "))
	}
	if _, ok := b.get(a.Name); ok {
		return as, fmt.Errorf("%q: %w", a.Name, ErrExists)
	}
	err := b.change(ctx, Change{Kind: ChangeAdd, Automation: a, Assessment: as}, func(st *Settings) error {
		if Find(st.Automations, a.Name) >= 0 {
			return fmt.Errorf("%q: %w", a.Name, ErrExists)
		}
		st.Automations = append(st.Automations, a)
		return ValidateList(st.Automations)
	})
	return as, err
}

// Remove removes the automation called name. A run of it under way goes
// on to its end (the kill switch stops it).
func (b *Book) Remove(ctx context.Context, name string) error {
	a, ok := b.get(name)
	if !ok {
		return fmt.Errorf("%q: %w", name, ErrNotFound)
	}
	return b.change(ctx, Change{Kind: ChangeRemove, Automation: a}, func(st *Settings) error {
		if j := Find(st.Automations, name); j >= 0 {
			st.Automations = append(st.Automations[:j:j], st.Automations[j+1:]...)
		}
		return nil
	})
}

// SetEnabled turns the automation called name on (after the person's yes;
// a plan blocked now is refused) or off.
func (b *Book) SetEnabled(ctx context.Context, name string, on bool) error {
	a, ok := b.get(name)
	if !ok {
		return fmt.Errorf("%q: %w", name, ErrNotFound)
	}
	if a.Enabled == on {
		return nil
	}
	c := Change{Kind: ChangeDisable, Automation: a}
	if on {
		c = Change{Kind: ChangeEnable, Automation: a, Assessment: b.Assess(a)}
		if c.Assessment.Rated && c.Assessment.Risk >= level.Blocked {
			return fmt.Errorf("%w: %s", ErrBlocked, strings.Join(c.Assessment.Reasons, "; "))
		}
	}
	return b.change(ctx, c, func(st *Settings) error {
		j := Find(st.Automations, name)
		if j < 0 {
			return fmt.Errorf("%q: %w", name, ErrNotFound)
		}
		if on && !sameAutomation(st.Automations[j], a) {
			// What the person said yes to is not what would be turned on.
			return fmt.Errorf("%q changed while you were asked (or settings.json differs from what runs: restart Airlock to read it): nothing was turned on", name)
		}
		st.Automations[j].Enabled = on
		return nil
	})
}

// SetSwitch turns the global switch on (after the person's yes) or off.
func (b *Book) SetSwitch(ctx context.Context, on bool) error {
	b.mu.Lock()
	same := b.current.Enabled == on
	b.mu.Unlock()
	if same {
		return nil
	}
	c := Change{Kind: ChangeSwitchOff}
	if on {
		c.Kind = ChangeSwitchOn
	}
	return b.change(ctx, c, func(st *Settings) error {
		st.Enabled = on
		return nil
	})
}

// RunNow is Scheduler.RunNow.
func (b *Book) RunNow(name string) (<-chan Result, error) { return b.Scheduler.RunNow(name) }

// change asks about c if it raises trust, then applies edit to the file
// and to what runs, and hands the result to the scheduler.
func (b *Book) change(ctx context.Context, c Change, edit func(*Settings) error) error {
	if c.RaisesTrust() {
		if b.Confirm == nil {
			return fmt.Errorf("%w (no popup can ask here)", ErrNotConfirmed)
		}
		if err := b.Confirm(ctx, c); err != nil {
			return err
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	next := Settings{Enabled: b.current.Enabled, Automations: append([]Automation(nil), b.current.Automations...)}
	if err := edit(&next); err != nil {
		return err
	}
	if err := b.Update(edit); err != nil {
		return fmt.Errorf("saving the settings: %w", err)
	}
	b.current = next
	b.Scheduler.Set(next)
	return nil
}

// get returns the automation called name in what runs.
func (b *Book) get(name string) (Automation, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if i := Find(b.current.Automations, name); i >= 0 {
		return b.current.Automations[i], true
	}
	return Automation{}, false
}

// sameAutomation reports whether x and y do the same at the same times.
func sameAutomation(x, y Automation) bool {
	return x.Fingerprint() == y.Fingerprint() && x.Schedule == y.Schedule && x.Cooldown == y.Cooldown
}
