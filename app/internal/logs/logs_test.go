package logs_test

import (
	"bytes"
	"errors"
	"log"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/logs"
)

// A key that redact recognises (a GitHub token's shape), built at run time
// so the source holds no secret-looking literal.
var secret = "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]

// recorder is a Sink that keeps what it is given.
type recorder struct {
	mu      sync.Mutex
	entries []logs.Entry
	err     error
}

func (r *recorder) Write(e logs.Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	r.entries = append(r.entries, e)
	return nil
}

func (r *recorder) all() []logs.Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]logs.Entry(nil), r.entries...)
}

func (r *recorder) last(t *testing.T) logs.Entry {
	t.Helper()
	all := r.all()
	if len(all) == 0 {
		t.Fatal("nothing was logged")
	}
	return all[len(all)-1]
}

// install makes a Log writing to a recorder the default for the test.
func install(t *testing.T, level slog.Level) *recorder {
	t.Helper()
	rec := &recorder{}
	restore := logs.New("test", rec, level).Install()
	t.Cleanup(restore)
	return rec
}

func TestSecretsNeverReachTheSink(t *testing.T) {
	rec := install(t, slog.LevelInfo)
	// In the message, in attributes, in groups, in errors, in With.
	logs.For("gate").With("auth", "Bearer "+secret).Info("calling the model with token "+secret,
		"password", "hunter2", "url", "https://ada:pw1234@git.example.com/x.git",
		slog.Group("req", "err", errors.New("stderr: export GITHUB_TOKEN="+secret)))
	log.Printf("systray says: api_key=%s", secret)
	for _, e := range rec.all() {
		for _, leak := range []string{secret, "hunter2", "pw1234"} {
			if strings.Contains(e.Message, leak) {
				t.Errorf("the entry holds %q: %q", leak, e.Message)
			}
		}
		if !strings.Contains(e.Message, "[redacted:") {
			t.Errorf("no marker in %q", e.Message)
		}
	}
	if n := len(rec.all()); n != 2 {
		t.Errorf("%d entries, want 2", n)
	}
}

func TestCategoriesAndLevels(t *testing.T) {
	rec := install(t, slog.LevelInfo)
	tests := []struct {
		name     string
		do       func()
		category string
		level    slog.Level
		message  string
	}{
		{"For sets the category", func() { logs.For("gate").Info("request ended", "status", "ok") }, "gate", slog.LevelInfo, "request ended status=ok"},
		{"the standard log is app, info", func() { log.Printf("menu ready") }, "app", slog.LevelInfo, "menu ready"},
		{"slog's default is app", func() { slog.Warn("odd", "n", 3) }, "app", slog.LevelWarn, "odd n=3"},
		{"Fault is a security event", func() { logs.Fault(logs.For("gate"), "blocked action") }, "gate", logs.LevelFault, "blocked action"},
		{"Printf with an error is an error", func() { logs.Printf("tray")("tray: reading: %v", errors.New("locked")) }, "tray", slog.LevelError, "tray: reading: locked"},
		{"Printf without one is info", func() { logs.Printf("tray")("tray: autonomy set to %d", 2) }, "tray", slog.LevelInfo, "tray: autonomy set to 2"},
		{"values with spaces are quoted", func() { logs.For("ipc").Error("socket", "err", "peer went away") }, "ipc", slog.LevelError, `socket err="peer went away"`},
		{"groups flatten", func() { logs.For("x").WithGroup("req").Info("m", "id", "r1") }, "x", slog.LevelInfo, "m req.id=r1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.do()
			e := rec.last(t)
			if e.Category != tt.category || e.Level != tt.level || e.Message != tt.message {
				t.Errorf("got [%s] %v %q, want [%s] %v %q", e.Category, e.Level, e.Message, tt.category, tt.level, tt.message)
			}
			if e.Time.IsZero() {
				t.Error("no time")
			}
		})
	}
	n := len(rec.all())
	slog.Debug("below the level")
	if len(rec.all()) != n {
		t.Error("a debug entry passed an Info log")
	}
}

func TestInstallRestores(t *testing.T) {
	var b bytes.Buffer
	prevOut, prevFlags := log.Writer(), log.Flags()
	log.SetOutput(&b)
	defer log.SetOutput(prevOut)
	rec := &recorder{}
	restore := logs.New("test", rec, slog.LevelInfo).Install()
	log.Print("to the sink")
	restore()
	log.Print("to the writer again")
	if len(rec.all()) != 1 || !strings.Contains(b.String(), "to the writer again") || strings.Contains(b.String(), "to the sink") {
		t.Errorf("sink %v, writer %q", rec.all(), b.String())
	}
	if log.Flags() != prevFlags {
		t.Errorf("flags %v, want %v", log.Flags(), prevFlags)
	}
}

func TestTextSink(t *testing.T) {
	var b bytes.Buffer
	s := logs.NewTextSink(&b)
	restore := logs.New("stderr", s, slog.LevelInfo).Install()
	defer restore()
	logs.Fault(logs.For("gate"), "the kill switch was tripped")
	logs.For("exec").Error("stderr:\nline two\n2026-01-01T00:00:00Z airlock[gate] INFO: forged")
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	if !strings.HasSuffix(lines[0], " airlock[gate] FAULT: the kill switch was tripped") {
		t.Errorf("line 1: %q", lines[0])
	}
	if !strings.HasSuffix(lines[1], " airlock[exec] ERROR: stderr:") {
		t.Errorf("line 2: %q", lines[1])
	}
	// A message's later lines cannot pass for entries of their own.
	for _, l := range lines[2:] {
		if !strings.HasPrefix(l, "\t") {
			t.Errorf("continuation line without its tab: %q", l)
		}
	}
}

func TestPlatformLevels(t *testing.T) {
	tests := []struct {
		level    slog.Level
		priority int
		osLog    uint8
		name     string
	}{
		{slog.LevelDebug, 7, 0x02, "DEBUG"},
		{slog.LevelInfo, 6, 0x01, "INFO"},
		{slog.LevelWarn, 4, 0x00, "WARN"},
		{slog.LevelError, 3, 0x10, "ERROR"},
		{logs.LevelFault, 2, 0x11, "FAULT"},
		{logs.LevelFault + 4, 2, 0x11, "FAULT"},
	}
	for _, tt := range tests {
		if p, o, n := logs.Priority(tt.level), logs.OSLogType(tt.level), logs.LevelName(tt.level); p != tt.priority || o != tt.osLog || n != tt.name {
			t.Errorf("%v: priority %d, os_log_type %#x, name %s; want %d, %#x, %s", tt.level, p, o, n, tt.priority, tt.osLog, tt.name)
		}
	}
	f := logs.JournalFields(logs.Entry{Category: "gate"})
	if f["SYSLOG_IDENTIFIER"] != "airlock" || f["AIRLOCK_CATEGORY"] != "gate" || len(f) != 2 {
		t.Errorf("journal fields %v", f)
	}
}

func TestFallbackWhenTheSystemLogRefuses(t *testing.T) {
	var b bytes.Buffer
	l := logs.Open(logs.Options{Stderr: true, Fallback: &b})
	if l.Backend() != "stderr" {
		t.Fatalf("backend %s", l.Backend())
	}
	restore := l.Install()
	defer restore()
	log.Printf("to stderr with token %s", secret)
	if !strings.Contains(b.String(), "airlock[app] INFO: to stderr with token [redacted:") {
		t.Errorf("stderr got %q", b.String())
	}
}

func TestEchoAndFallback(t *testing.T) {
	// Open with a system log that fails: entries reach the fallback, and
	// the first failure says why, once.
	var fallback, echo bytes.Buffer
	sys := &recorder{err: errors.New("socket gone")}
	l := logs.OpenWith(sys, "journal", logs.Options{Fallback: &fallback, Echo: &echo})
	restore := l.Install()
	defer restore()
	log.Print("one")
	log.Print("two")
	out := fallback.String()
	if strings.Count(out, "refused an entry (socket gone)") != 1 || !strings.Contains(out, "INFO: one") || !strings.Contains(out, "INFO: two") {
		t.Errorf("fallback got:\n%s", out)
	}
	if !strings.Contains(echo.String(), "INFO: one") {
		t.Errorf("echo got:\n%s", echo.String())
	}
	sys.err = nil
	log.Print("three")
	if len(sys.all()) != 1 || strings.Contains(fallback.String(), "three") {
		t.Errorf("system log %v; fallback:\n%s", sys.all(), fallback.String())
	}
}

func TestConcurrentLoggers(t *testing.T) {
	var b bytes.Buffer
	restore := logs.New("stderr", logs.NewTextSink(&b), slog.LevelInfo).Install()
	defer restore()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				logs.For("gate").Info("line", "writer", g, "n", i)
			}
		})
	}
	wg.Wait()
	if n := strings.Count(b.String(), "\n"); n != 400 {
		t.Errorf("%d lines, want 400", n)
	}
}
