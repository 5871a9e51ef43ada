package action_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
)

// specExample is the spec's example plan.
const specExample = `# Write up the meeting and open it
NOTIFY "Airlock" "Writing the summary"
WRITE_DOC "~/Documents/Meeting Notes.md" <<END
# Meeting notes — 2024-01-28

* Decided to ship on Friday
* "Quotes", back\slashes and	tabs stay as they are

END
OPEN_FILE "~/Documents/Meeting Notes.md" "TextEdit"
`

func TestRoundTripSpecExample(t *testing.T) {
	p := mustParse(t, specExample)
	if len(p.Actions) != 3 {
		t.Fatalf("%d actions", len(p.Actions))
	}
	want := `NOTIFY "Airlock" "Writing the summary"
WRITE_DOC "~/Documents/Meeting Notes.md" <<END
# Meeting notes — 2024-01-28

* Decided to ship on Friday
* "Quotes", back\slashes and	tabs stay as they are

END
OPEN_FILE "~/Documents/Meeting Notes.md" "TextEdit"
`
	if got := p.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	checkRoundTrip(t, p)
}

func TestRoundTripAllValid(t *testing.T) {
	var b strings.Builder
	for _, tt := range validTests {
		b.WriteString(tt.in)
		b.WriteString("\n# between\n\n")
	}
	p := mustParse(t, b.String())
	if len(p.Actions) != len(validTests) {
		t.Fatalf("%d actions, want %d", len(p.Actions), len(validTests))
	}
	checkRoundTrip(t, p)
}

func TestCanonicalForms(t *testing.T) {
	cmd := func(name string) *action.Command {
		c, ok := action.Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return c
	}
	tests := []struct {
		a    action.Action
		want string
	}{
		{action.Action{Cmd: cmd("SPEAK"), Args: []string{"say \"hi\"\\\t\n\x01é"}}, "SPEAK \"say \\\"hi\\\"\\\\\\t\\n\x01é\""},
		{action.Action{Cmd: cmd("SPEAK"), Args: []string{"<<END"}}, `SPEAK "<<END"`},
		{action.Action{Cmd: cmd("SPEAK"), Args: []string{"# not a comment"}}, `SPEAK "# not a comment"`},
		{action.Action{Cmd: cmd("SPEAK"), Args: []string{""}}, `SPEAK ""`},
		{action.Action{Cmd: cmd("SPEAK"), Args: []string{"ends in newline\n"}}, `SPEAK "ends in newline\n"`}, // not heredoc-capable
		{action.Action{Cmd: cmd("WRITE_FILE"), Args: []string{"a", "x\n"}}, "WRITE_FILE \"a\" <<END\nx\nEND"},
		{action.Action{Cmd: cmd("WRITE_FILE"), Args: []string{"a", "x"}}, `WRITE_FILE "a" "x"`},
		{action.Action{Cmd: cmd("WRITE_FILE"), Args: []string{"a", "\n"}}, "WRITE_FILE \"a\" <<END\n\nEND"},
		{action.Action{Cmd: cmd("WRITE_FILE"), Args: []string{"a", "END\nEND1\nEND3\n"}}, "WRITE_FILE \"a\" <<END2\nEND\nEND1\nEND3\nEND2"},
		{action.Action{Cmd: cmd("WRITE_FILE"), Args: []string{"a", "END01\nEND\nEND+1\n"}}, "WRITE_FILE \"a\" <<END1\nEND01\nEND\nEND+1\nEND1"},
		{action.Action{Cmd: cmd("SEND_EMAIL"), Args: []string{"a@x.com", "s", "body\n"}}, "SEND_EMAIL \"a@x.com\" \"s\" <<END\nbody\nEND"},
		{action.Action{Cmd: cmd("SET_VOLUME"), Args: []string{"5"}}, "SET_VOLUME 5"},
		{action.Action{Cmd: cmd("DO_NOT_DISTURB"), Args: []string{"ON"}}, "DO_NOT_DISTURB ON"},
		{action.Action{Cmd: cmd("OPEN_FILE"), Args: []string{"a"}}, `OPEN_FILE "a"`},
		{action.Action{}, ""},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		if tt.a.Cmd == nil {
			continue
		}
		p := &action.Plan{Actions: []action.Action{tt.a}}
		q := mustParse(t, p.String())
		if !samePlan(p, q) {
			t.Errorf("%q did not round-trip: %q", tt.want, q.Actions[0].Args)
		}
	}
	if (*action.Plan)(nil).String() != "" {
		t.Error("nil plan prints something")
	}
}

// randomValue returns a canonical value of the given kind, with text drawn
// from an alphabet of awkward characters.
func randomValue(r *rand.Rand, spec action.ArgSpec) string {
	switch spec.Kind {
	case action.KindNumber:
		return []string{"0", "7", "42", "100"}[r.Intn(4)]
	case action.KindEnum:
		return spec.Enum[r.Intn(len(spec.Enum))]
	case action.KindDatetime:
		return []string{"2024-01-28 14:00", "2024-01-28 14:00:01"}[r.Intn(2)]
	case action.KindEmails:
		return []string{"a@x.com", "a@x.com, b.c+d@y.example"}[r.Intn(2)]
	}
	alphabet := []string{"a", " ", "\t", "\n", "\"", "\\", "#", "<<END", "END", "END1", "é", "\x00", "\x7f", "\u2028", "→", "'", "n", "t"}
	var b strings.Builder
	n := r.Intn(12)
	if spec.Kind != action.KindText {
		b.WriteString("x")
	}
	for i := 0; i < n; i++ {
		b.WriteString(alphabet[r.Intn(len(alphabet))])
	}
	if spec.Heredoc && r.Intn(2) == 0 {
		b.WriteString("\n")
	}
	return b.String()
}

func TestRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	cmds := action.Commands()
	for round := 0; round < 300; round++ {
		p := &action.Plan{}
		for i := 0; i < 1+r.Intn(6); i++ {
			c := cmds[r.Intn(len(cmds))]
			n := len(c.Args)
			for n > 0 && c.Args[n-1].Optional && r.Intn(2) == 0 {
				n--
			}
			args := make([]string, n)
			for j := range args {
				args[j] = randomValue(r, c.Args[j])
			}
			if c.Name == "CREATE_EVENT" {
				args[2] = args[1]
			}
			p.Actions = append(p.Actions, action.Action{Cmd: c, Args: args})
		}
		q, err := action.Parse(p.String())
		if err != nil {
			t.Fatalf("canonical text does not parse: %v\n%s", err, p.String())
		}
		if !samePlan(p, q) {
			t.Fatalf("round trip changed\n%#v\n%#v\n%s", withoutLines(p), withoutLines(q), p.String())
		}
		checkRoundTrip(t, q)
	}
}
