package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// A red team's attacks on the live output's redaction (live.go): output
// shaped so that the live copy shows a secret the result, redacted whole,
// does not. The payloads are data (testdata/redlive/*.txt), fed to the
// lineRedactor as a command's pipes would hand them over.

// redLive reads the payload name and expands its markers: {{FILL n}} is n
// bytes of words and blanks, {{RUN n}} n bytes with no blank.
func redLive(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "redlive", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, m := range []struct {
		mark string
		unit string
	}{{"{{FILL ", "word "}, {"{{RUN ", "x"}} {
		for {
			i := strings.Index(s, m.mark)
			if i < 0 {
				break
			}
			j := strings.Index(s[i:], "}}")
			n := 0
			for _, c := range s[i+len(m.mark) : i+j] {
				n = n*10 + int(c-'0')
			}
			s = s[:i] + strings.Repeat(m.unit, n/len(m.unit)) + s[i+j+2:]
		}
	}
	return s
}

// TestRedLiveLongLineCutBetweenNameAndValue: a line longer than maxLine
// goes out cut at a blank, and the blank chosen may be the one between a
// name that calls a value secret and the value ("db_password = V"): each
// half alone is no secret to the redactor, the whole line is. The value
// must not go out live.
func TestRedLiveLongLineCutBetweenNameAndValue(t *testing.T) {
	const value = "Xy7pQ2vR9sLm4Kw8Zt3N"
	line := strings.TrimSuffix(redLive(t, "long-line-cut.txt"), "\n")
	if !strings.Contains(line, value) {
		t.Fatalf("the payload lacks the value")
	}
	if strings.Contains(redact.String(line+"\n"), value) {
		t.Fatalf("the redactor does not find the value in the whole line: the payload tests nothing")
	}
	// The line comes without its end, then the end.
	sent := feedAll(line, "\n", "")
	for i, s := range sent {
		if strings.Contains(s, value) {
			j := strings.Index(s, value)
			t.Errorf("piece %d sent the value live: %q", i, s[max(0, j-40):j+len(value)])
		}
	}
}
