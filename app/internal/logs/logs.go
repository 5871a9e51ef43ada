// Package logs sends Airlock's log to the platform's log: os.log on macOS
// (subsystem dev.airlock.Airlock, one category per package), the systemd
// journal on Linux where it runs, standard error otherwise. Airlock keeps no
// log file and no retention of its own: how long an entry lives is the
// platform's to decide (log config on macOS, journald.conf on Linux).
//
// Packages log through log/slog with a category: For("gate") gives a
// logger whose entries carry the category; the standard library's log
// package, and so what third-party packages print with it, lands in
// category "app". Levels map onto the platform's: Info for normal
// operations, Error for failures, and LevelFault for security events — a
// blocked action, a forged approval, the kill switch — which os.log keeps
// as faults and the journal as crit.
//
// It must never pass on text it has not redacted: a message and all its
// attributes are formatted into one line and go through redact.String
// before any backend sees them.
package logs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"sync"
	"time"
)

// Names under which entries appear in the platform's log.
const (
	Subsystem     = "dev.airlock.Airlock" // os.log subsystem
	Identifier    = "airlock"             // journal SYSLOG_IDENTIFIER: journalctl -t airlock
	CategoryField = "AIRLOCK_CATEGORY"    // journal field holding the category
	CategoryKey   = "category"            // slog attribute that sets the category
	DefaultCat    = "app"                 // the category of entries that name none
)

// LevelFault is the level of security events: os.log's fault, the
// journal's crit.
const LevelFault = slog.Level(12)

// Entry is one message as a backend receives it: formatted and redacted.
type Entry struct {
	Time     time.Time
	Level    slog.Level
	Category string
	Message  string // may span lines
}

// Sink is a log backend. Write must be safe for concurrent use and must
// not block for long; an error means the entry was not logged.
type Sink interface {
	Write(Entry) error
}

// Options say where the log goes. The zero value picks the platform's log.
type Options struct {
	// Stderr forces the standard-error backend, whatever the platform
	// offers (AIRLOCK_LOG=stderr: tests, containers, debugging).
	Stderr bool
	// Fallback is where entries go when the platform has no log or its log
	// refuses one; nil means os.Stderr.
	Fallback io.Writer
	// Echo, when set, also receives every entry as a line of text (the
	// terminal the app was started from). Not used when the log itself is
	// Fallback.
	Echo io.Writer
	// Level is the least level logged; zero means Info.
	Level slog.Level
}

// Log is where the process's entries go.
type Log struct {
	backend string
	sink    Sink
	level   slog.Level
}

// Open picks the platform's log (os.log; the journal when its socket
// exists; standard error otherwise).
func Open(opts Options) *Log {
	if opts.Stderr {
		return OpenWith(nil, "", opts)
	}
	s, name := systemSink()
	return OpenWith(s, name, opts)
}

// OpenWith is Open with system as the platform's log (named name); nil
// means there is none.
func OpenWith(system Sink, name string, opts Options) *Log {
	fallback := opts.Fallback
	if fallback == nil {
		fallback = os.Stderr
	}
	stderr := NewTextSink(fallback)
	if system == nil {
		return &Log{backend: "stderr", sink: stderr, level: opts.Level}
	}
	l := &Log{backend: name, sink: &withFallback{primary: system, fallback: stderr}, level: opts.Level}
	if opts.Echo != nil {
		l.sink = tee{l.sink, NewTextSink(opts.Echo)}
	}
	return l
}

// New makes a Log writing to s, for tests and for other backends.
func New(backend string, s Sink, level slog.Level) *Log {
	return &Log{backend: backend, sink: s, level: level}
}

// Backend names where entries go: "os.log", "journal" or "stderr".
func (l *Log) Backend() string { return l.backend }

// Handler returns a handler writing entries of category cat.
func (l *Log) Handler(cat string) slog.Handler {
	return &handler{sink: l.sink, level: l.level, category: cat}
}

// Install makes l the process's default: slog.Default() and the standard
// log package (and so For) write to it, in category "app" unless told
// otherwise. The returned function restores what was there before.
func (l *Log) Install() (restore func()) {
	prev, out, flags := slog.Default(), log.Writer(), log.Flags()
	slog.SetDefault(slog.New(l.Handler(DefaultCat)))
	return func() {
		slog.SetDefault(prev)
		log.SetOutput(out)
		log.SetFlags(flags)
	}
}

// For returns the default logger (see Install) with category cat.
func For(cat string) *slog.Logger { return slog.Default().With(CategoryKey, cat) }

// Fault logs a security event on l.
func Fault(l *slog.Logger, msg string, args ...any) {
	l.Log(context.Background(), LevelFault, msg, args...)
}

// Printf returns a printf-style function logging to category cat: at
// Error when one of its arguments is an error, else at Info. It fits the
// Logf hooks of packages that log a line now and then.
func Printf(cat string) func(format string, args ...any) {
	return func(format string, args ...any) {
		level := slog.LevelInfo
		for _, a := range args {
			if _, ok := a.(error); ok {
				level = slog.LevelError
				break
			}
		}
		For(cat).Log(context.Background(), level, fmt.Sprintf(format, args...))
	}
}

// withFallback writes to primary, and to fallback what primary refuses,
// saying once why.
type withFallback struct {
	primary, fallback Sink
	once              sync.Once
}

func (w *withFallback) Write(e Entry) error {
	err := w.primary.Write(e)
	if err == nil {
		return nil
	}
	w.once.Do(func() {
		w.fallback.Write(Entry{Time: e.Time, Level: slog.LevelError, Category: DefaultCat,
			Message: fmt.Sprintf("the system log refused an entry (%v); entries it refuses go to standard error", err)})
	})
	return w.fallback.Write(e)
}

// tee writes to every sink; the first error is returned.
type tee []Sink

func (t tee) Write(e Entry) error {
	var errs []error
	for _, s := range t {
		errs = append(errs, s.Write(e))
	}
	return errors.Join(errs...)
}
