package tray_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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

// Whatever a field holds, the report shows it as text: markup in any field
// is escaped, and a secret that slipped into one is redacted.
func TestWriteReportEscapesEveryField(t *testing.T) {
	const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`
	fields := map[string]func(e *history.Entry){
		"client":  func(e *history.Entry) { e.Request.Client = evil },
		"request": func(e *history.Entry) { e.Request.ID = evil },
		"preview": func(e *history.Entry) { e.Decision.Preview = evil },
		"action":  func(e *history.Entry) { e.Decision.Action = evil },
		"reasons": func(e *history.Entry) { e.Decision.Reasons = []string{evil} },
		"output":  func(e *history.Entry) { e.Outcome.Output = evil },
		"error":   func(e *history.Entry) { e.Outcome.Error = evil },
	}
	for name, set := range fields {
		t.Run(name, func(t *testing.T) {
			e := history.Entry{Decision: history.Decision{Risk: level.Dangerous, Decision: "ask"},
				Outcome: &history.Outcome{Status: "ok"}}
			set(&e)
			var b bytes.Buffer
			if err := tray.WriteReport(&b, []history.Entry{e}, now); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, bad := range []string{"<script>", "<img", "onerror=alert"} {
				if strings.Contains(out, bad) && !strings.Contains(out, "&lt;img src=x onerror=alert") {
					t.Errorf("the report holds %q unescaped", bad)
				}
			}
			if strings.Contains(out, "<script>") || strings.Contains(out, "<img") {
				t.Errorf("markup from the %s reached the page", name)
			}
			if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
				t.Errorf("the %s is not shown as text", name)
			}
		})
	}
	var b bytes.Buffer
	e := history.Entry{Decision: history.Decision{Action: "curl -H 'Authorization: Bearer " + token + "'", Risk: level.Caution}}
	if err := tray.WriteReport(&b, []history.Entry{e}, now); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), token) || !strings.Contains(b.String(), "running") {
		t.Errorf("report:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "default-src 'none'") {
		t.Error("the page has no Content-Security-Policy")
	}
	b.Reset()
	if err := tray.WriteReport(&b, nil, now); err != nil || !strings.Contains(b.String(), "Nothing has been recorded yet") {
		t.Errorf("empty report: %v\n%s", err, b.String())
	}
}

// Open history writes the report of the real history, owner-only, in the
// data directory, and opens it.
func TestOpenHistory(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.FullAuto})
	plan := `WRITE_FILE "~/Documents/<b>bold&.txt" "token ` + token + `"`
	if _, err := rg.g.Submit(context.Background(), gate.Submission{Client: "<i>client</i>", Plan: plan}, nil); err != nil {
		t.Fatalf("submit: %v", err)
	}
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.OpenHistory}); err != nil {
		t.Fatal(err)
	}
	path := <-rg.opened
	if filepath.Base(path) != tray.ReportFile {
		t.Errorf("opened %s", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("report mode %v, want 0600", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(path)
	out := string(b)
	for _, want := range []string{"&lt;i&gt;client&lt;/i&gt;", "&lt;b&gt;bold&amp;.txt", "WRITE_FILE", "dangerous", "ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(out, token) || strings.Contains(out, "<b>") || strings.Contains(out, "<i>") {
		t.Errorf("the report leaks a secret or markup:\n%s", out)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left a temporary file %s", e.Name())
		}
	}
}
