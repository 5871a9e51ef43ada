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

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge"
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
	env, home := sandbox(t)
	sys := t.TempDir() // the system's folders: not the home, so not the person's or an action's
	bin, apps := filepath.Join(sys, "bin"), filepath.Join(sys, "share", "applications")
	for _, d := range []string{bin, apps} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	install := func(src, name string) {
		b, err := os.ReadFile(filepath.Join("testdata", "launch", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	install("viewer.sh", "evince")
	install("runner.sh", "zutty")
	install("runner.sh", "python3.11")
	desktop := map[string]string{
		"org.gnome.Evince.desktop": "[Desktop Entry]\nType=Application\nName=Document Viewer\nExec=evince %U\nMimeType=application/pdf;\n",
		"zutty.desktop":            "[Desktop Entry]\nType=Application\nName=Zutty\nExec=zutty\n",
		"debian-python3.desktop":   "[Desktop Entry]\nType=Application\nName=Python (v3.11)\nExec=python3.11\nTerminal=true\n",
		"mimeapps.list":            "[Default Applications]\ntext/plain=org.gnome.Evince.desktop;\n",
	}
	for name, text := range desktop {
		if err := os.WriteFile(filepath.Join(apps, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(t.TempDir(), "launch")
	marker := "AIRLOCK_LAUNCH_TEST=" + strconv.FormatInt(time.Now().UnixNano(), 36)
	desk, err := bridge.NewDesktop(bridge.Options{Env: []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home,
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_DIRS=" + filepath.Join(sys, "share"), "XDG_CONFIG_DIRS=" + filepath.Join(sys, "etc"),
		"AIRLOCK_LAUNCH_LOG=" + log, marker}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, pid := range proctest.Marked(marker) {
			_ = syscallKill(pid)
		}
	})
	ex, err := gate.DefaultExecutor(env.Paths, desk, nil)
	if err != nil {
		t.Fatal(err)
	}
	env.Launch = execute.Handlers(desk)
	g := gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: autonomy})
	return &launchRig{g: g, home: home, log: log}
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
