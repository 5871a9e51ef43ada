package tray_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// A token redact recognises, built at run time.
var token = "ghp_" + strings.Repeat("Zx9Yw8Vu7T", 4)[:36]

// The report shows each action's fields as they were recorded, with a
// secret that slipped into any of them redacted, and long texts cut.
func TestWriteReport(t *testing.T) {
	long := strings.Repeat("é", 5000) // 10,000 bytes
	e := history.Entry{
		Request: history.Request{ID: "r1", Client: "mcp: claude " + token},
		Decision: history.Decision{Index: 1, Time: now, Action: "curl -H 'Authorization: Bearer " + token + "'\n" + long,
			Preview: "Fetch a page", Risk: level.Dangerous, Reasons: []string{"sends " + token}, Decision: "ask"},
		Outcome: &history.Outcome{Approval: "approved", Status: "ok", Output: "out " + token, Error: "err\nline 2"},
	}
	var b strings.Builder
	if err := tray.WriteReport(&b, []history.Entry{e}, now); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, token) {
		t.Errorf("the report holds the token:\n%s", out)
	}
	for _, want := range []string{"the newest 1 action,", "ok (approved)  dangerous — ask by mcp: claude", "(request r1, action 2)",
		"  Fetch a page\n", "  │ curl -H", "  • sends", "  output: out", "  error: err\n    line 2",
		"more bytes: airlock history --json has them"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if len(out) > 8<<10 {
		t.Errorf("a 10 KB action made a %d-byte report: it is not cut", len(out))
	}
	b.Reset()
	running := history.Entry{Decision: history.Decision{Action: "x", Risk: level.Caution}}
	if err := tray.WriteReport(&b, []history.Entry{running}, now); err != nil || !strings.Contains(b.String(), "running  caution") {
		t.Errorf("an action still running: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := tray.WriteReport(&b, nil, now); err != nil || !strings.Contains(b.String(), "Nothing has been recorded yet") {
		t.Errorf("empty report: %v\n%s", err, b.String())
	}
}

// files lists every file under dir with its size.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// Open history shows the report of the real history in a window and
// writes nothing: no file holds the decrypted history afterwards, in the
// data directory, the home folder or the temporary directory. A second
// click while the window is open opens no second one.
func TestOpenHistoryWritesNoFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	release := make(chan struct{})
	shown := make(chan string, 2)
	rg := newRig(t, rigOptions{autonomy: policy.FullAuto, showText: func(ctx context.Context, title, text string) error {
		shown <- text
		<-release
		return nil
	}})
	plan := `WRITE_FILE "~/Documents/report.txt" "token ` + token + `"`
	if _, err := rg.g.Submit(context.Background(), gate.Submission{Client: "cli", Plan: plan}, nil); err != nil {
		t.Fatalf("submit: %v", err)
	}
	beforeData, beforeHome, beforeTmp := files(t, rg.data), files(t, rg.home), files(t, tmp)

	done := make(chan error, 1)
	go func() { done <- rg.app.Do(context.Background(), tray.Action{Kind: tray.OpenHistory}) }()
	text := <-shown
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.OpenHistory}); !errors.Is(err, tray.ErrHistoryOpen) {
		t.Errorf("a second Open history while the window is open: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"WRITE_FILE", "report.txt", "dangerous", "ok", "by cli"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, token) {
		t.Errorf("the report leaks the token:\n%s", text)
	}
	for _, d := range []struct {
		name          string
		before, after []string
	}{
		{"data directory", beforeData, files(t, rg.data)},
		{"home", beforeHome, files(t, rg.home)},
		{"temporary directory", beforeTmp, files(t, tmp)},
	} {
		if !slices.Equal(d.before, d.after) {
			t.Errorf("Open history changed the %s's files: %q → %q", d.name, d.before, d.after)
		}
	}
	// The window closed: it can be opened again.
	go func() { done <- rg.app.Do(context.Background(), tray.Action{Kind: tray.OpenHistory}) }()
	<-shown
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Without a window to show it in, Open history fails and says why.
func TestOpenHistoryWithoutAWindow(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, showText: nil})
	app := tray.New(tray.Config{Gate: rg.g, Approvals: rg.broker, Grants: rg.grants, History: rg.store})
	if err := app.Do(context.Background(), tray.Action{Kind: tray.OpenHistory}); err == nil || !strings.Contains(err.Error(), "no window") {
		t.Errorf("err %v", err)
	}
	if _, err := os.Stat(filepath.Join(rg.data, "history.html")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a report file: %v", err)
	}
}
