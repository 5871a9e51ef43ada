package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpusTexts returns every text of the test corpora, each also in upper
// case, and all of them joined into one text of many lines.
func corpusTexts(t *testing.T) []string {
	t.Helper()
	var texts []string
	for _, name := range []string{"secrets.jsonl", "benign.jsonl", "providers.jsonl"} {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var c struct{ Text string }
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatal(err)
			}
			texts = append(texts, c.Text)
		}
		f.Close()
	}
	b, err := os.ReadFile(filepath.Join("testdata", "ordinary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(b), "\n%% ")[1:] {
		_, text, _ := strings.Cut(part, "\n")
		texts = append(texts, text)
	}
	n := len(texts)
	for _, s := range texts[:n] {
		texts = append(texts, upper(s))
	}
	return append(texts, strings.Join(texts[:n], "\n"), strings.Join(texts[:n], " "))
}

// TestWindowsOnlySkip: the shortcuts (windows clipped to a rule's longest
// match, anchored tries at keywords) change no result. For every corpus
// text String gives what reading all the lines around each rule's
// keywords gives.
func TestWindowsOnlySkip(t *testing.T) {
	e := theEngine()
	for _, s := range corpusTexts(t) {
		want := s
		for tier := range e.tiers {
			want = e.pass(e.kw.scan(want), tier, false)
		}
		if got := String(s); got != want {
			t.Errorf("String(%.200q)\n = %.300q\nreading whole lines gives %.300q", s, got, want)
		}
	}
}

// TestLazyPrefixKeepsSecrets: dropping the lazy run that begins gitleaks'
// semi-generic rules changes no secret they find in the corpora.
func TestLazyPrefixKeepsSecrets(t *testing.T) {
	texts := corpusTexts(t)
	texts = texts[:len(texts)-2] // not the joined ones: a property of each match
	cfg := gitleaksConfig()
	dropped, found := 0, 0
	for _, gr := range cfg.GetOrderedRules() {
		if gr.Regex == nil {
			continue
		}
		short := withoutLazyPrefix(gr.Regex)
		if short == gr.Regex {
			continue
		}
		dropped++
		r := rule{group: gr.SecretGroup, first: true}
		spans := func(s string, m [][]int) [][2]int {
			var out [][2]int
			for _, mm := range m {
				lo, hi := r.span(s, mm)
				out = append(out, [2]int{lo, hi})
			}
			return out
		}
		for _, s := range texts {
			if !slices.ContainsFunc(gr.Keywords, func(w string) bool { return strings.Contains(strings.ToLower(s), w) }) {
				continue // gitleaks would not run the rule here either
			}
			want := spans(s, gr.Regex.FindAllStringSubmatchIndex(s, -1))
			got := spans(s, short.FindAllStringSubmatchIndex(s, -1))
			found += len(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: secrets at %v, without the lazy run at %v, in %.200q", gr.RuleID, want, got, s)
			}
		}
	}
	if dropped < 90 || found == 0 {
		t.Errorf("%d rules lost a lazy run, %d secrets compared: the test checks nothing", dropped, found)
	}
	t.Logf("%d rules without their lazy run; %d secrets compared", dropped, found)
}

// TestRuleSet pins what the engine is built from: gitleaks' rules (less
// those for paths and the two skipped) and Airlock's, every kind a valid
// marker name, most rules anchored at their keywords.
func TestRuleSet(t *testing.T) {
	e := theEngine()
	n, anchored := 0, 0
	kinds := map[string]bool{}
	for tier := range e.tiers {
		for _, r := range e.tiers[tier] {
			n++
			kinds[r.kind] = true
			if r.anchored != nil {
				anchored++
			}
			if !isMarker(Marker(r.kind)) {
				t.Errorf("kind %q makes no marker", r.kind)
			}
			if len(r.words) == 0 {
				t.Errorf("%s has no keywords: it would read every text whole", r.kind)
			}
		}
	}
	for _, k := range []string{"github-pat", "aws-access-token", "generic-api-key", "private-key", "url-password", "secret"} {
		if !kinds[k] {
			t.Errorf("no rule of kind %s", k)
		}
	}
	if n < 220 || anchored < n*3/4 {
		t.Errorf("%d rules, %d anchored", n, anchored)
	}
	t.Logf("%d rules (%d kinds), %d anchored at their keywords", n, len(kinds), anchored)
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
