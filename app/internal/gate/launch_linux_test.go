//go:build linux

package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge/proctest"
)

// launchRig is a gate with the real executor and the real Linux bridge,
// whose desktop is a folder of the test's own outside the home: desktop
// files for a viewer (the default for text), a terminal nobody listed and an
// interpreter with Terminal=true, each a stand-in script that records its
// start in log.
type launchRig struct {
	g    *gate.Gate
	home string
	log  string // AIRLOCK_LAUNCH_LOG: each stand-in writes log.NAME
}

func newLaunchRig(t *testing.T, autonomy policy.Autonomy) *launchRig {
	t.Helper()
	return newRedRig(t, autonomy, baseRed())
}

func (r *launchRig) write(t *testing.T, rel, testdata string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "launch", testdata))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.home, rel), b, mode); err != nil {
		t.Fatal(err)
	}
}

func (r *launchRig) started(name string) bool {
	_, err := os.Stat(r.log + "." + name)
	return err == nil
}

// Issue 20's first attack, at Level 1 and Level 2, with nobody to approve:
// a file the agent wrote, opened with a terminal nobody listed (zutty) or an
// interpreter whose desktop file runs in a terminal (python3.11). The
// handler is not known to only display files, so the launch is destructive
// and asks at every level: nothing starts, the payload never runs.
func TestLaunchOfRunnerNeverRunsUnasked(t *testing.T) {
	for _, autonomy := range []policy.Autonomy{1, 2} {
		for _, tc := range []struct{ plan, handler string }{
			{`OPEN_FILE "~/Documents/notes" "zutty"`, "zutty"},
			{`OPEN_FILE "~/Documents/notes" "Zutty"`, "zutty"},
			{`OPEN_FILE "~/Documents/notes.txt" "debian-python3"`, "python3.11"},
			{`OPEN_FILE "~/Documents/notes.txt" "Python (v3.11)"`, "python3.11"},
		} {
			t.Run(autonomy.String()+"/"+tc.plan, func(t *testing.T) {
				r := newLaunchRig(t, autonomy)
				r.write(t, "Documents/notes", "payload.sh", 0o755)
				r.write(t, "Documents/notes.txt", "payload.sh", 0o644)
				rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindPlan, Plan: tc.plan}, nil)
				if err == nil || rep.Status == gate.StatusOK {
					t.Fatalf("the launch ran unasked: %+v", rep)
				}
				if rep.Risk != "destructive" {
					t.Errorf("rated %s, want destructive (%+v)", rep.Risk, rep)
				}
				time.Sleep(50 * time.Millisecond) // a launched process would have written by now
				if r.started(tc.handler) {
					t.Fatalf("%s was started", tc.handler)
				}
				if _, err := os.Stat(filepath.Join(r.home, "PWNED")); err == nil {
					t.Fatal("the payload ran")
				}
			})
		}
	}
}

// An inert text file opens unasked in the viewer the desktop names for
// text; what the viewer is, and what it started, the kill switch kills.
func TestLaunchedViewerDiesWithTheKillSwitch(t *testing.T) {
	r := newLaunchRig(t, 1)
	if err := os.WriteFile(filepath.Join(r.home, "Documents", "report.txt"), []byte("quarterly figures\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindPlan,
		Plan: `OPEN_FILE "~/Documents/report.txt"`}, nil)
	if err != nil || rep.Status != gate.StatusOK || rep.Risk != "caution" {
		t.Fatalf("Submit: %v, %+v; want it done unasked as caution", err, rep)
	}
	out := strings.Join(outputs(rep), "\n")
	pid := pidIn(t, out)
	deadline := time.Now().Add(5 * time.Second)
	for !r.started("evince") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	b, _ := os.ReadFile(r.log + ".evince")
	if want := filepath.Join(r.home, "Documents", "report.txt"); !strings.Contains(string(b), want) {
		t.Fatalf("the viewer got %q, want %s", b, want)
	}
	if !proctest.Alive(pid) {
		t.Fatalf("the viewer (pid %d) is not running before the kill", pid)
	}
	r.g.Kill()
	if proctest.Alive(pid) {
		t.Fatalf("the viewer (pid %d) outlived the kill switch", pid)
	}
}

// outputs are what the report's actions said.
func outputs(rep gate.Report) []string {
	var out []string
	for _, a := range rep.Actions {
		out = append(out, a.Output)
	}
	return out
}

// pidIn finds "(pid N)" in an action's output: the history records what
// was launched.
func pidIn(t *testing.T, out string) int {
	t.Helper()
	_, rest, ok := strings.Cut(out, "(pid ")
	if !ok {
		t.Fatalf("the output %q does not say what was launched", out)
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), ")"))
	if err != nil {
		t.Fatalf("the output %q: %v", out, err)
	}
	return n
}

func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
