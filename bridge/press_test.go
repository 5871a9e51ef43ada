package bridge_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
)

// A press is tried the ways another process could make it: an
// accessibility press (no event, or an earlier one borrowed), an event
// posted by another process with each kind of event source, a key, and
// stale or reused events. Only the person's own click counts.
func TestPersonPressed(t *testing.T) {
	const self = 4242
	boot := 1000 * time.Second // the time since boot the action runs at
	click := bridge.PressEvent{Present: true, Type: 2, InControl: true, Time: boot - 30*time.Millisecond, Now: boot,
		Armed: boot - 5*time.Second, SourcePID: 0, SourceState: 1}
	with := func(f func(e *bridge.PressEvent)) bridge.PressEvent {
		e := click
		f(&e)
		return e
	}
	tests := []struct {
		name string
		e    bridge.PressEvent
		why  string // "" for a press that counts
	}{
		{"the person's mouse up", click, ""},
		{"the person's mouse down", with(func(e *bridge.PressEvent) { e.Type = 1 }), ""},
		{"an event AppKit re-sent in this process", with(func(e *bridge.PressEvent) { e.SourcePID = self }), ""},
		{"right at the arm time", with(func(e *bridge.PressEvent) { e.Armed = e.Time }), ""},

		{"an accessibility press: no event", bridge.PressEvent{Now: boot}, "no event"},
		{"an accessibility press borrowing a click elsewhere", with(func(e *bridge.PressEvent) { e.InControl = false }), "not on the control"},
		{"an accessibility press while a key was the last event", with(func(e *bridge.PressEvent) { e.Type = 10 }), "type 10"},
		{"a right click", with(func(e *bridge.PressEvent) { e.Type = 3 }), "type 3"},
		{"a mouse move", with(func(e *bridge.PressEvent) { e.Type = 5 }), "type 5"},
		{"an application-defined event", with(func(e *bridge.PressEvent) { e.Type = 15 }), "type 15"},
		{"posted by another process, combined session source", with(func(e *bridge.PressEvent) { e.SourcePID, e.SourceState = 777, 0 }), "process 777"},
		{"posted by another process, HID source", with(func(e *bridge.PressEvent) { e.SourcePID, e.SourceState = 777, 1 }), "process 777"},
		{"posted by another process, private source", with(func(e *bridge.PressEvent) { e.SourcePID, e.SourceState = 777, 95512 }), "process 777"},
		{"posted with the process id forged to 0, combined source", with(func(e *bridge.PressEvent) { e.SourceState = 0 }), "state 0"},
		{"posted with the process id forged to 0, private source", with(func(e *bridge.PressEvent) { e.SourceState = -1 }), "state -1"},
		{"a negative process id", with(func(e *bridge.PressEvent) { e.SourcePID = -1 }), "process -1"},
		{"a click on the control while it was disabled", with(func(e *bridge.PressEvent) { e.Armed = e.Time + time.Millisecond }), "before the control"},
		{"a stale click", with(func(e *bridge.PressEvent) { e.Time = boot - 3*time.Second }), "old"},
		{"an event from the future", with(func(e *bridge.PressEvent) { e.Time = boot + time.Second }), "old"},
		{"an event that already answered", with(func(e *bridge.PressEvent) { e.Reused = true }), "already answered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := bridge.PersonPressed(tt.e, self)
			switch {
			case tt.why == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.why != "" && err == nil:
				t.Error("counted as the person's")
			case tt.why != "" && (!errors.Is(err, bridge.ErrNotPerson) || !strings.Contains(err.Error(), tt.why)):
				t.Errorf("err %v, want ErrNotPerson saying %q", err, tt.why)
			}
		})
	}
}

// TestLogPress: every press is logged with what its event carried, in the
// press category: at Info when it counted, at Warn (which os.log keeps)
// with the reason when it did not; a press without an event says so.
func TestLogPress(t *testing.T) {
	var b bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })

	boot := 1000 * time.Second
	click := bridge.PressEvent{Present: true, Type: 2, InControl: true, Time: boot - 30*time.Millisecond, Now: boot,
		Armed: boot - 5*time.Second, SourcePID: 0, SourceState: 1, SourceUID: 501, SourceGID: 20, Subtype: 0, Clicks: 1}
	bridge.LogPress(click, bridge.PersonPressed(click, 4242))
	posted := click
	posted.SourcePID, posted.SourceState = 777, 0
	bridge.LogPress(posted, bridge.PersonPressed(posted, 4242))
	bridge.LogPress(bridge.PressEvent{Now: boot}, bridge.PersonPressed(bridge.PressEvent{Now: boot}, 4242))

	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	for i, want := range [][]string{
		{"level=INFO", `msg="a press counted"`, "category=press", "sourcePID=0", "sourceState=1", "sourceUID=501", "sourceGID=20", "clicks=1", "age=30ms", "type=2"},
		{"level=WARN", `msg="a press did not count"`, "category=press", "sourcePID=777", "sourceState=0", `why="the press did not come from the person's mouse: process 777 posted its event"`},
		{"level=WARN", "present=false", "no event came with it"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d lacks %s:\n%s", i, w, lines[i])
			}
		}
	}
	if strings.Contains(lines[2], "sourcePID") {
		t.Errorf("a press without an event logs event fields: %s", lines[2])
	}
}

// TestPressOffer: a refused press of yes is answered with the owner's
// authentication where the Mac has one, once at a time, and never where it
// has none.
func TestPressOffer(t *testing.T) {
	if got := bridge.PressOffer("Approve", true, false); !strings.Contains(got, "Approve") || !strings.Contains(got, "did not count") {
		t.Errorf("offer: %q", got)
	}
	for _, tt := range []struct {
		yes              string
		ownerAuth, asked bool
	}{{"Approve", false, false}, {"Approve", true, true}, {" ", true, false}} {
		if got := bridge.PressOffer(tt.yes, tt.ownerAuth, tt.asked); got != "" {
			t.Errorf("PressOffer(%q, %v, %v) = %q, want no offer", tt.yes, tt.ownerAuth, tt.asked, got)
		}
	}
}
