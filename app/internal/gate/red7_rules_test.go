package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// Red team 7, attack 3. The person's allow rule "python3
// ~/Documents/build.py" (pinned) names its program by base name, so it
// matches /usr/bin/python3 wherever PATH finds it. Does it also match a
// program of the same name the agent put in a folder of its own, named by
// its path or found on a PATH the agent gives? Then the rule would let the
// agent's program run unasked, with the person's script as its argument.
func TestRedRuleProgramOfTheSameName(t *testing.T) {
	for _, tc := range []struct {
		name       string
		argv       []string
		pathInHome string // the submission's PATH: this folder of the home, then the system's
	}{
		{"named by its path", []string{"~/Documents/tools/python3", "~/Documents/build.py"}, ""},
		{"found on the agent's PATH", []string{"python3", "~/Documents/build.py"}, "Documents/tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, policy.SmartDefault, denyAll, withPinnedRule(t, "python3", "~/Documents/build.py"))
			fake := filepath.Join(r.home, "Documents", "tools", "python3")
			if err := os.MkdirAll(filepath.Dir(fake), 0o700); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join("testdata", "red7", "fake-python3.sh"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(fake, b, 0o700); err != nil {
				t.Fatal(err)
			}
			s := gate.Submission{Client: "t", Identity: agent, Kind: gate.KindCommand, Argv: tc.argv}
			if tc.pathInHome != "" {
				s.Path = filepath.Join(r.home, tc.pathInHome) + ":/usr/local/bin:/usr/bin:/bin"
			}
			rep, _ := r.g.Submit(context.Background(), s, nil)
			if len(rep.Actions) == 1 && rep.Actions[0].Decision == "auto" || len(r.exec.names()) != 0 {
				t.Fatalf("HOLE: the person's rule for python3 ran the agent's %s unasked: %+v, ran %v", fake, rep.Actions, r.exec.names())
			}
			t.Logf("%s: %s %+v", rep.Status, rep.Risk, rep.Actions)
		})
	}
}
