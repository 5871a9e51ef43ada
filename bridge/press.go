package bridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Who pressed a control. On macOS a control's action runs the same way
// whether the person clicked it, another process posted a mouse event at
// it (CGEventPost, which needs Accessibility rights an agent's terminal may
// have), or an assistive application sent it an accessibility press
// (AXPress). Approve, "allow again" and the yes of a confirmation raise
// trust, so they count only a press the person made with the mouse. What
// the decision relies on, from Apple's documentation and from projects that
// tell local input from injected input:
//
//   - An accessibility press is not an event: AppKit performs the button's
//     action from the accessibility request, so NSApp's currentEvent is not
//     a mouse event at that button, or is nil. A press with no current
//     event, or whose event is not a left mouse down or up inside the
//     control in its window, is refused.
//   - Every Quartz event records its source (CGEventField): the Unix
//     process id of the process that posted it (kCGEventSourceUnixProcessID,
//     41) and the source state table it was made with (kCGEventSourceStateID,
//     45). Apple's CGEventSourceStateID documentation: the HID system state
//     (1) "reflects the combined state of all hardware event sources
//     posting from the HID system"; a program in a login session that
//     posts events is to use the combined session state (0), a remote
//     control program a private state (its own id). Events that come from
//     the hardware carry process id 0 (they are made by the window server
//     from the HID system, not posted by a process); Chromium's remoting
//     host tells local mouse input from its own injected input by exactly
//     that, and RustDesk treats the HID system state as "local physical
//     input". So a press counts when its event's source process is 0 (or
//     this process: an event AppKit re-sent within Airlock) and its source
//     state is the HID system's.
//   - A poster can create an event source with the HID system state (it is
//     documented for user-space drivers) and may be able to overwrite the
//     process id field before posting; neither field is a signature. That
//     is why switching to Level 2, Resume after a kill and destructive
//     actions also need Touch ID or the login password (Authenticate), a
//     prompt the system draws and no posted event answers.
//   - An event from before the control was enabled (a click on the greyed
//     Approve) or older than maxPressAge is stale: AppKit's currentEvent is
//     the last event it dispatched, which an accessibility press arriving
//     later would otherwise borrow. And one event answers one press.
//
// None of this has been measured on a Mac: what AppKit hands a button for a
// real click is what Apple's headers and the projects above say. Every
// press is logged with what its event carried (LogPress), so that the first
// run on a Mac shows it; if a real click carries other values, the decision
// changes with that log as its evidence, not before.
type PressEvent struct {
	// Present: NSApp had a current event when the action ran.
	Present bool
	// Type is the event's type (NSEventType, numbered as CGEventType for
	// mouse events): 1 left mouse down, 2 left mouse up.
	Type int
	// InControl: the event was in the control's window, inside its bounds.
	InControl bool
	// Time is the event's timestamp, Now the time the action ran, Armed the
	// time the control was enabled: all since the system started
	// (NSEvent timestamp, NSProcessInfo systemUptime).
	Time, Now, Armed time.Duration
	// SourcePID and SourceState are the event's kCGEventSourceUnixProcessID
	// and kCGEventSourceStateID fields.
	SourcePID, SourceState int64
	// Reused: this event already answered a press.
	Reused bool

	// Recorded for the log only, not part of the decision: the event's
	// kCGEventSourceUserID (43), kCGEventSourceGroupID (44) and
	// kCGEventSourceUserData (42) fields, its NSEvent subtype and click
	// count. Nobody has yet measured what AppKit hands a button for a real
	// click on every Mac; the log of the first presses tells, and
	// PersonPressed changes only with that evidence.
	SourceUID, SourceGID, SourceUserData int64
	Subtype, Clicks                      int
}

// Event types and source states a press may have (CGEventTypes.h,
// CGEventSource.h).
const (
	eventLeftMouseDown   = 1
	eventLeftMouseUp     = 2
	sourceStateHIDSystem = 1
)

// maxPressAge is how old the event behind a press may be: a click's mouse up
// is the current event while its action runs, milliseconds old.
const maxPressAge = 2 * time.Second

// ErrNotPerson is wrapped by PersonPressed's error: the press did not come
// from the person's own mouse.
var ErrNotPerson = errors.New("the press did not come from the person's mouse")

// PersonPressed decides whether a press of one of Airlock's trust-raising
// controls came from the person's own mouse, from the event that triggered
// it; self is this process's id. It returns nil, or an error wrapping
// ErrNotPerson that says why not. It is the whole decision: the darwin glue
// only reads the fields.
func PersonPressed(e PressEvent, self int) error {
	refuse := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrNotPerson, fmt.Sprintf(format, a...))
	}
	switch {
	case !e.Present:
		return refuse("no event came with it (an accessibility press)")
	case e.Type != eventLeftMouseDown && e.Type != eventLeftMouseUp:
		return refuse("it came with an event of type %d, not a left mouse button (an accessibility press, or a key)", e.Type)
	case !e.InControl:
		return refuse("its event was not on the control (an accessibility press borrowing an earlier event)")
	case e.Reused:
		return refuse("its event already answered a press")
	case e.Time < e.Armed:
		return refuse("its event came before the control could be pressed")
	case e.Time > e.Now || e.Now-e.Time > maxPressAge:
		return refuse("its event is %v old", (e.Now - e.Time).Round(time.Millisecond))
	case e.SourcePID != 0 && e.SourcePID != int64(self):
		return refuse("process %d posted its event", e.SourcePID)
	case e.SourceState != sourceStateHIDSystem:
		return refuse("its event was made with event source state %d, not the hardware's (%d)", e.SourceState, sourceStateHIDSystem)
	}
	return nil
}

// pressCategory is the log category of presses (logs.CategoryKey names the
// attribute; bridge imports nothing from app).
const pressCategory = "press"

// LogPress logs what the event behind a press of a trust-raising control
// carried and whether it counted (err is PersonPressed's): at Info when it
// counted, at Warn (os.log keeps those) when it did not. Nothing in it is
// secret. `log show --info --predicate 'subsystem == "dev.airlock.Airlock"
// AND category == "press"'` shows them.
func LogPress(e PressEvent, err error) {
	level, what := slog.LevelInfo, "a press counted"
	if err != nil {
		level, what = slog.LevelWarn, "a press did not count"
	}
	slog.Default().Log(context.Background(), level, what, pressAttrs(e, err)...)
}

// pressAttrs are the attributes LogPress logs.
func pressAttrs(e PressEvent, err error) []any {
	attrs := []any{"category", pressCategory, "present", e.Present}
	if e.Present {
		attrs = append(attrs, "type", e.Type, "inControl", e.InControl, "reused", e.Reused,
			"sourcePID", e.SourcePID, "sourceState", e.SourceState, "sourceUID", e.SourceUID,
			"sourceGID", e.SourceGID, "sourceUserData", e.SourceUserData, "subtype", e.Subtype, "clicks", e.Clicks,
			"age", (e.Now - e.Time).Round(time.Millisecond).String(), "sinceArmed", (e.Time - e.Armed).Round(time.Millisecond).String())
	}
	if err != nil {
		attrs = append(attrs, "why", err.Error())
	}
	return attrs
}

// pressOffer is what a popup offers after a press of its yes button (named
// yes) was refused as not the person's (PersonPressed): the owner's
// authentication (Touch ID or the login password, drawn by the system, so
// that no process can answer it) for that approval, when the Mac has one
// and it is not already being asked for. It returns the reason the
// system's prompt shows ("" for no offer): the click is never simply
// ignored, and never counted.
func pressOffer(yes string, ownerAuth, asking bool) string {
	if !ownerAuth || asking || strings.TrimSpace(yes) == "" {
		return ""
	}
	return "confirm " + strings.TrimSpace(yes) + " (the click did not count as yours)"
}
