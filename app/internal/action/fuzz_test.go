package action_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// prints to a canonical form that parses back to the same plan and prints
// the same again.
func FuzzParse(f *testing.F) {
	for _, tt := range validTests {
		f.Add(tt.in)
	}
	for _, tt := range errorTests {
		if len(tt.in) < 4096 {
			f.Add(tt.in)
		}
	}
	for _, tt := range previewTests {
		f.Add(tt.in)
	}
	f.Add(specExample)
	f.Add(benchPlan(40))
	f.Add("# No action needed\n")
	f.Add("WRITE_DOC \"a\" <<END\r\nx\r\nEND\r\n")
	f.Add("WRITE_DOC \"a\\q\" <<END\nSPEAK x\nEND\n")
	f.Add("SEND_EMAIL \"a@b.c\" <<END \"x\"\nEND\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := action.Parse(src)
		if err != nil {
			if p != nil {
				t.Fatal("Parse returned a plan and an error")
			}
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		last := 0
		for _, a := range p.Actions {
			if a.Line <= last || a.Cmd == nil {
				t.Fatalf("bad action %+v after line %d", a, last)
			}
			last = a.Line
			if pv := a.Preview(); strings.ContainsAny(pv, "\n\r") {
				t.Fatalf("preview %q is not one line", pv)
			}
		}
		checkRoundTrip(t, p)
	})
}
