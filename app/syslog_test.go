package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/logs"
)

func TestGateEventLog(t *testing.T) {
	tests := []struct {
		name  string
		e     gate.Event
		level slog.Level
		has   string
		quiet bool
	}{
		{"kill is a security event", gate.Event{Type: gate.EventKilled}, logs.LevelFault, "gate: killed: the kill switch stopped", false},
		{"a blocked action is a security event", gate.Event{Type: gate.EventAssessed, Request: "r1", Index: 0, Risk: "blocked", Preview: "delete ~/.ssh", Reasons: []string{"credential store"}}, logs.LevelFault, "blocked action 1 of request r1: delete ~/.ssh (credential store)", false},
		{"an assessed action that is not blocked is not logged", gate.Event{Type: gate.EventAssessed, Risk: "caution"}, 0, "", true},
		{"failure is an error", gate.Event{Type: gate.EventDone, Request: "r2", Status: gate.StatusFailed, Error: "exit 1"}, slog.LevelError, "gate: request r2 ended failed exit 1", false},
		{"refusal is an error", gate.Event{Type: gate.EventDone, Request: "r3", Status: gate.StatusRefused}, slog.LevelError, "ended refused", false},
		{"success is information", gate.Event{Type: gate.EventDone, Request: "r4", Status: gate.StatusOK}, slog.LevelInfo, "gate: request r4 ended ok", false},
		{"a denial is information", gate.Event{Type: gate.EventDone, Status: gate.StatusDenied}, slog.LevelInfo, "ended denied", false},
		{"resume is information", gate.Event{Type: gate.EventResumed}, slog.LevelInfo, "gate: resumed", false},
		{"progress is not logged", gate.Event{Type: gate.EventStarted}, 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			level, msg, ok := gateEventLog(tt.e)
			if ok == tt.quiet {
				t.Fatalf("logged %v, want %v", ok, !tt.quiet)
			}
			if ok && (level != tt.level || !strings.Contains(msg, tt.has)) {
				t.Errorf("%v %q, want %v and %q", level, msg, tt.level, tt.has)
			}
		})
	}
}

// TestCommandStderrIsRedacted: a command's stderr reaches the log in a
// request's error; whatever the gate did, the log redacts it again.
func TestCommandStderrIsRedacted(t *testing.T) {
	var b bytes.Buffer
	restore := logs.OpenWith(nil, "", logs.Options{Fallback: &b}).Install()
	defer restore()
	key := "AKIA" + strings.Repeat("Q7", 8)
	level, msg, _ := gateEventLog(gate.Event{Type: gate.EventDone, Request: "r9", Status: gate.StatusFailed,
		Error: "exit status 1: fatal: could not read Password for 'https://ada:s3cr3t-pw@git.example.com': aws_access_key_id=" + key})
	logs.For("gate").Log(t.Context(), level, msg)
	out := b.String()
	for _, leak := range []string{key, "s3cr3t-pw"} {
		if strings.Contains(out, leak) {
			t.Errorf("the log holds %q:\n%s", leak, out)
		}
	}
	if !strings.Contains(out, "airlock[gate] ERROR: gate: request r9 ended failed exit status 1") {
		t.Errorf("the log lost the entry:\n%s", out)
	}
}

func TestLogWhere(t *testing.T) {
	for backend, want := range map[string]string{
		"os.log":  `log stream --level info --predicate 'subsystem == "dev.airlock.Airlock"'`,
		"journal": "journalctl --user -t airlock -f",
	} {
		if got := logWhere(logs.New(backend, nil, 0)); got != want {
			t.Errorf("%s: %q, want %q", backend, got, want)
		}
	}
	if got := logWhere(logs.OpenWith(nil, "", logs.Options{})); got != "standard error" {
		t.Errorf("stderr: %q", got)
	}
}
