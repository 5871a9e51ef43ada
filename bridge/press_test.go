package bridge_test

import (
	"errors"
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
