package redact_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/redact"
)

type providerCase struct {
	ID      string `json:"id"`
	Format  string `json:"format"`
	Shape   string `json:"shape"`
	Context string `json:"context"` // bare: the key alone; assigned: beside the name it usually has
	Text    string `json:"text"`
	Secret  string `json:"secret"`
}

type ordinaryCase struct{ what, text string }

// loadOrdinary reads testdata/ordinary.txt: cases after "%% what" lines.
func loadOrdinary(t testing.TB) []ordinaryCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "ordinary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []ordinaryCase
	for _, part := range strings.Split(string(b), "\n%% ")[1:] {
		what, text, _ := strings.Cut(part, "\n")
		out = append(out, ordinaryCase{what, strings.TrimSuffix(text, "\n")})
	}
	return out
}

// The floors and ceilings TestRecallAndFalseRedactions holds String to. The
// figures they guard are in the test's log (go test -v -run Recall).
const (
	minRecallBare     = 0.96 // of keys shown alone
	minRecallAssigned = 0.98 // of keys beside their usual names
	maxFalse          = 2    // ordinary texts changed
)

// TestRecallAndFalseRedactions measures String on fake keys in ~85 providers'
// documented shapes (testdata/providers.jsonl) and on ordinary text
// (testdata/ordinary.txt and benign.jsonl): the share of keys of which no
// 8-byte piece survives, and the number of ordinary texts it changes.
func TestRecallAndFalseRedactions(t *testing.T) {
	cases := load[providerCase](t, "providers.jsonl")
	formats := map[string]bool{}
	caught := map[string]int{}
	total := map[string]int{}
	for _, c := range cases {
		formats[c.Format] = true
		if !strings.Contains(c.Text, c.Secret) {
			t.Fatalf("%s: the secret is not in the text", c.ID)
		}
		total[c.Context]++
		out := redact.String(c.Text)
		if w := leak(out, c.Secret); w != "" {
			t.Logf("missed %s (%s, %s): %q survives in %q", c.ID, c.Format, c.Context, w, out)
			continue
		}
		caught[c.Context]++
	}
	if len(formats) < 40 {
		t.Fatalf("the corpus has %d formats, want at least 40", len(formats))
	}
	changed := 0
	var ordinary []ordinaryCase
	ordinary = append(ordinary, loadOrdinary(t)...)
	for _, c := range load[benignCase](t, "benign.jsonl") {
		ordinary = append(ordinary, ordinaryCase{c.ID, c.Text})
	}
	for _, c := range ordinary {
		if out := redact.String(c.text); out != c.text {
			changed++
			t.Logf("false redaction (%s):\n in: %q\nout: %q", c.what, c.text, out)
		}
	}
	bare := float64(caught["bare"]) / float64(total["bare"])
	assigned := float64(caught["assigned"]) / float64(total["assigned"])
	t.Logf("%d formats; recall: bare %d/%d (%.1f%%), assigned %d/%d (%.1f%%); false redactions: %d of %d ordinary texts",
		len(formats), caught["bare"], total["bare"], 100*bare, caught["assigned"], total["assigned"], 100*assigned, changed, len(ordinary))
	if bare < minRecallBare || assigned < minRecallAssigned {
		t.Errorf("recall fell: bare %.3f (floor %.2f), assigned %.3f (floor %.2f)", bare, minRecallBare, assigned, minRecallAssigned)
	}
	if changed > maxFalse {
		t.Errorf("%d ordinary texts changed, ceiling %d", changed, maxFalse)
	}
}
