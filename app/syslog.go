package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/logs"
)

// openLog opens the system log for the menu-bar app: os.log on macOS, the
// journal on Linux where it runs, else stderr. AIRLOCK_LOG=stderr sends it
// to stderr whatever the platform has (tests, containers). Started from a
// terminal, the app also shows every entry there.
func openLog(stderr io.Writer) *logs.Log {
	opts := logs.Options{Stderr: os.Getenv("AIRLOCK_LOG") == "stderr", Fallback: stderr}
	if isTerminal(stderr) {
		opts.Echo = stderr
	}
	return logs.Open(opts)
}

// logWhere tells the person how to read the log.
func logWhere(l *logs.Log) string {
	switch l.Backend() {
	case "os.log":
		return fmt.Sprintf(`log stream --level info --predicate 'subsystem == "%s"'`, logs.Subsystem)
	case "journal":
		return "journalctl --user -t " + logs.Identifier + " -f"
	}
	return "standard error"
}

// isTerminal reports whether w is a character device (a terminal; also
// /dev/null, where an echo costs nothing).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// gateEventLog says how a gate event is logged, if at all: the kill
// switch and a blocked action as security events (fault), a request that
// failed, was refused or did not parse as an error, the rest as
// information. Event text was redacted by the gate; the log redacts it
// again.
func gateEventLog(e gate.Event) (slog.Level, string, bool) {
	switch e.Type {
	case gate.EventKilled:
		return logs.LevelFault, "gate: killed: the kill switch stopped every action in flight and denied every pending approval", true
	case gate.EventResumed, gate.EventAutonomy:
		return slog.LevelInfo, "gate: " + e.Type, true
	case gate.EventAssessed:
		if e.Risk != level.Blocked.String() {
			return 0, "", false
		}
		return logs.LevelFault, fmt.Sprintf("blocked action %d of request %s: %s (%s)", e.Index+1, e.Request, e.Preview, strings.Join(e.Reasons, "; ")), true
	case gate.EventDone:
		msg := strings.TrimSpace(fmt.Sprintf("gate: request %s ended %s %s", e.Request, e.Status, e.Error))
		switch e.Status {
		case gate.StatusFailed, gate.StatusRefused, gate.StatusRejected:
			return slog.LevelError, msg, true
		}
		return slog.LevelInfo, msg, true
	}
	return 0, "", false
}
