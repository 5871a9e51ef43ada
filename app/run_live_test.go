package main

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// TestLivePrinter: output events go to stdout or stderr as they come; the
// result of an action that printed live shows only what was not shown
// (the review's note), or all of its output when the live copy differs;
// an action with no live output prints as before.
func TestLivePrinter(t *testing.T) {
	for _, tc := range []struct {
		name    string
		events  []gate.Event
		wantOut string
		wantErr string
	}{
		{"live then a note", []gate.Event{
			{Type: gate.EventOutput, Stream: gate.StreamStdout, Output: "one\n"},
			{Type: gate.EventOutput, Stream: gate.StreamStderr, Output: "warn\n"},
			{Type: gate.EventOutput, Stream: gate.StreamStdout, Output: "two"},
			{Type: gate.EventResult, Preview: "Run x", Status: "ok", Output: "one\ntwo\napplied 1 change"},
		}, "one\ntwo\n1. Run x: ok\n   applied 1 change\n", "warn\n"},
		{"the live copy was cut", []gate.Event{
			{Type: gate.EventOutput, Stream: gate.StreamStdout, Output: "one\n[the live output stops]\n"},
			{Type: gate.EventResult, Preview: "Run x", Status: "ok", Output: "one\ntwo"},
		}, "one\n[the live output stops]\n1. Run x: ok\n   one\n   two\n", ""},
		{"nothing live", []gate.Event{
			{Type: gate.EventResult, Preview: "Run x", Status: "ok", Output: "done"},
		}, "1. Run x: ok\n   done\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			p := newLivePrinter(&out, &errOut)
			for _, e := range tc.events {
				if !p.event(e) {
					printEvent(&out, e)
				}
			}
			if out.String() != tc.wantOut || errOut.String() != tc.wantErr {
				t.Fatalf("printed %q and %q, want %q and %q", out.String(), errOut.String(), tc.wantOut, tc.wantErr)
			}
		})
	}
}
