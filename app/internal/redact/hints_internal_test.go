package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestHintsOnlySkip: skipping rules by their hints changes no result. For
// every corpus text (and each in upper case), String gives what running
// every rule would.
func TestHintsOnlySkip(t *testing.T) {
	var texts []string
	for _, name := range []string{"secrets.jsonl", "benign.jsonl"} {
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
			texts = append(texts, c.Text, upper(c.Text))
		}
		f.Close()
	}
	for _, s := range texts {
		all := s
		for i := range rules {
			all = rules[i].apply(all)
		}
		if got := String(s); got != all {
			t.Errorf("String(%q)\n = %q\nall rules give %q", s, got, all)
		}
	}
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
