package applescript

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// guardRules are the path guard's findings (rate.Finding), which carry a
// level of their own until the guard reports effects (issue 24).
var guardRules = map[string]bool{"as.own-files": true, "as.own-files-maybe": true, "as.system-path": true,
	"as.credential-store": true, "as.system-read": true}

// TestReasonsNameEffects rates every AppleScript of the risk corpora and
// checks each reason the analyzer adds says what the script does: it
// names an effect, and its level is the one the calibration table gives
// that effect, never one of the site's own (issue 24).
func TestReasonsNameEffects(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpora in ../testdata: %v", err)
	}
	env, end := (&Env{}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	scripts, reasons := 0, 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<22)
		for line := 1; sc.Scan(); line++ {
			var c struct{ ID, Kind, Input string }
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s:%d: %v", f, line, err)
			}
			if c.Kind != "applescript" {
				continue
			}
			scripts++
			for _, r := range Rate(c.Input, env, 0).Reasons {
				if strings.HasPrefix(r.Rule, "fake.") || guardRules[r.Rule] {
					continue
				}
				reasons++
				if r.Effect.Kind == 0 {
					t.Errorf("%s: %s: reason %s (%q) names no effect", filepath.Base(f), c.ID, r.Rule, r.Text)
				} else if r.Level != r.Effect.Level() {
					t.Errorf("%s: %s: reason %s at %v, its effect %v calibrates to %v", filepath.Base(f), c.ID, r.Rule, r.Level, r.Effect, r.Effect.Level())
				}
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fh.Close()
	}
	if scripts < 100 || reasons < 100 {
		t.Fatalf("only %d scripts and %d reasons rated: the corpora are not being read", scripts, reasons)
	}
}
