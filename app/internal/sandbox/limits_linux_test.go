//go:build linux

package sandbox_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// withLimits gives r a box whose unasked actions start under ls.
func (r *rig) withLimits(t *testing.T, ls ...launcher.Limit) {
	t.Helper()
	r.settings.Limits = ls
	box, err := sandbox.New(r.settings, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close)
	if err := box.Available(); err != nil {
		t.Fatalf("with limits %v the sandbox does not start: %v", ls, err)
	}
	r.box = box
}

// procLimits are the rows of /proc/self/limits, by the resource's name in
// it.
var procLimits = map[string]string{
	launcher.LimitProcesses: "Max processes",
	launcher.LimitData:      "Max data size",
	launcher.LimitFileSize:  "Max file size",
	launcher.LimitCore:      "Max core file size",
	launcher.LimitOpenFiles: "Max open files",
}

// ownLimit is the gate's own soft limit of the resource named.
func ownLimit(t *testing.T, name string) uint64 {
	t.Helper()
	r := map[string]int{launcher.LimitProcesses: unix.RLIMIT_NPROC, launcher.LimitData: unix.RLIMIT_DATA,
		launcher.LimitFileSize: unix.RLIMIT_FSIZE, launcher.LimitCore: unix.RLIMIT_CORE, launcher.LimitOpenFiles: unix.RLIMIT_NOFILE}[name]
	var l syscall.Rlimit
	if err := syscall.Getrlimit(r, &l); err != nil {
		t.Fatal(err)
	}
	return l.Cur
}

// parseLimits reads /proc/self/limits as the action printed it: the soft
// and hard limit of each resource named in procLimits ("unlimited" is
// RLIM_INFINITY).
func parseLimits(t *testing.T, out string) map[string][2]uint64 {
	t.Helper()
	got := map[string][2]uint64{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		for name, row := range procLimits {
			rest, ok := strings.CutPrefix(sc.Text(), row+" ")
			if !ok {
				continue
			}
			f := strings.Fields(rest)
			var v [2]uint64
			for i := range v {
				if f[i] == "unlimited" {
					v[i] = unix.RLIM_INFINITY
					continue
				}
				n, err := strconv.ParseUint(f[i], 10, 64)
				if err != nil {
					t.Fatalf("%s: %v", row, err)
				}
				v[i] = n
			}
			got[name] = v
		}
	}
	if len(got) != len(procLimits) {
		t.Fatalf("limits missing from %q", out)
	}
	return got
}

// TestUnaskedLimitsApplied: an action that runs unasked starts under
// UnaskedLimits (or the gate's own limit where it is lower), soft and hard
// alike, so that it cannot raise them; an approved one starts under the
// gate's own, as before.
func TestUnaskedLimitsApplied(t *testing.T) {
	r := newRig(t)
	out, _, err := r.run(t, sandbox.Grant{}, "cat", "/proc/self/limits")
	if err != nil {
		t.Fatal(err)
	}
	got := parseLimits(t, out)
	for _, l := range sandbox.UnaskedLimits() {
		want := min(l.Max, ownLimit(t, l.Resource))
		if g := got[l.Resource]; g != [2]uint64{want, want} {
			t.Errorf("unasked: %s is %v, want %d for both", l.Resource, g, want)
		}
	}
	out, _, err = r.run(t, sandbox.Grant{Approved: true}, "cat", "/proc/self/limits")
	if err != nil {
		t.Fatal(err)
	}
	got = parseLimits(t, out)
	for _, l := range sandbox.UnaskedLimits() {
		if own := ownLimit(t, l.Resource); own > l.Max && got[l.Resource][0] != own {
			t.Errorf("approved: %s is %v, want the gate's own %d", l.Resource, got[l.Resource], own)
		}
	}
}

// stillWorks checks that after an action hit its bound the gate still
// runs the next action, and the person's own programs still start.
func stillWorks(t *testing.T, r *rig) {
	t.Helper()
	if out, _, err := r.run(t, sandbox.Grant{}, "echo", "next"); err != nil || out != "next\n" {
		t.Fatalf("the next action: %q, %v", out, err)
	}
	if err := exec.Command("true").Run(); err != nil {
		t.Fatalf("a program of the person's: %v", err)
	}
}

// TestMemoryHogStopped: `sort /dev/zero`, which the analyzer rates safe,
// holds one endless line in memory; under a small RLIMIT_DATA it fails
// there instead of taking the machine's memory.
func TestMemoryHogStopped(t *testing.T) {
	r := newRig(t)
	r.withLimits(t, launcher.Limit{Resource: launcher.LimitData, Max: 64 << 20})
	c, done, err := r.box.Confine(bridge.Command{Argv: []string{"sort", "/dev/zero"}, Dir: r.home}, sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, stderr, err := bridge.RunArgv(ctx, c)
	var ee *bridge.ExitError
	if !errors.As(err, &ee) || ctx.Err() != nil {
		t.Fatalf("sort /dev/zero: %v (%q), want it to fail on its own", err, stderr)
	}
	if !strings.Contains(stderr, "memory exhausted") {
		t.Errorf("sort failed, but not for memory: %q", stderr)
	}
	stillWorks(t, r)
}

// TestFileSizeBound: a file an action writes stops growing at its
// RLIMIT_FSIZE: the writer is killed (SIGXFSZ) rather than fill the disk.
func TestFileSizeBound(t *testing.T) {
	r := newRig(t)
	r.withLimits(t, launcher.Limit{Resource: launcher.LimitFileSize, Max: 1 << 20})
	copyFile(t, filepath.Join("testdata", "attacks", "fill-file.sh"), filepath.Join(r.docs, "fill-file.sh"), 0o644)
	out, stderr, err := r.run(t, sandbox.Grant{}, "sh", filepath.Join(r.docs, "fill-file.sh"), filepath.Join(r.docs, "big"))
	if err != nil {
		t.Fatalf("fill-file.sh: %v (%q)", err, stderr)
	}
	if out != fmt.Sprintf("wrote %d bytes\n", 1<<20) {
		t.Errorf("the file grew past its bound: %q (%q)", out, stderr)
	}
	if !strings.Contains(stderr, "SIGXFSZ") && !strings.Contains(stderr, "File size limit exceeded") {
		t.Errorf("the writer was not stopped by its bound: %q", stderr)
	}
	stillWorks(t, r)
}

// asNobodyEnv, set, says this test binary was started by
// TestForkStormStopped as the user nobody.
const asNobodyEnv = "AIRLOCK_TEST_AS_NOBODY"

// nobody is the user the fork storm runs as when the tests run as root.
const nobody = 65534

// TestForkStormStopped: a fork loop that runs unasked stops at a small
// RLIMIT_NPROC (the kernel refuses the next fork); the person's programs
// and the gate's next action still start, and the kill switch ends the
// action with everything it started. RLIMIT_NPROC binds no process of
// root (the kernel lets INIT_USER past it, namespaces or not), and the
// person is never root: run as root, the test runs itself again as nobody
// and wants that run to pass. There it starts the launcher itself with an
// unasked action's profile (sandbox.Derive) but no copy-on-write views,
// which this machine's overlayfs refuses to nobody (the probe fails).
func TestForkStormStopped(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 to run the fork storm")
	}
	if os.Getuid() == 0 {
		out, err := runAsNobody(t, "^TestForkStormStopped$")
		if err != nil || !strings.Contains(out, "the storm: \"refused after ") {
			t.Fatalf("the fork storm as nobody: %v\n%s", err, out)
		}
		t.Logf("as nobody:\n%s", out)
		return
	}
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < launcher.MinABI {
		t.Skipf("the kernel has no Landlock ABI %d or newer (ABI %d, %v)", launcher.MinABI, abi, err)
	}
	home := t.TempDir()
	docs := filepath.Join(home, "Documents")
	if err := os.Mkdir(docs, 0o700); err != nil {
		t.Fatal(err)
	}
	const nproc = 32
	s := sandbox.Settings{Home: home, Roots: []string{docs}, Env: []string{"PATH=/usr/bin:/bin", "HOME=" + home},
		Limits: []launcher.Limit{{Resource: launcher.LimitProcesses, Max: nproc}}}
	copyFile(t, filepath.Join("testdata", "attacks", "fork-storm.py"), filepath.Join(docs, "fork-storm.py"), 0o644)
	mark := fmt.Sprintf("315.%d", os.Getpid())
	run := func(ctx context.Context, output func([]byte, bool), argv ...string) error {
		p, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		spec := launcher.Spec{Version: launcher.SpecVersion, Profile: p, Argv: argv, Dir: docs, HostNetNS: launcher.NetNamespace()}
		f, err := os.CreateTemp(t.TempDir(), "spec")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Write(launcher.EncodeSpec(spec)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = bridge.RunArgv(ctx, bridge.Command{Argv: []string{self, sandbox.LaunchFlag}, Name: argv[0], Env: launcher.Environ(),
			Dir: "/", Namespaces: true, ExtraFiles: []*os.File{f}, Output: output})
		return err
	}
	said := make(chan string, 1)
	var once sync.Once
	var buf strings.Builder
	output := func(b []byte, stderr bool) {
		if stderr {
			return
		}
		buf.Write(b)
		if s := buf.String(); strings.HasSuffix(s, "\n") {
			once.Do(func() { said <- s })
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan error, 1)
	go func() {
		ended <- run(ctx, output, "/usr/bin/python3", filepath.Join(docs, "fork-storm.py"), "300", mark, "wait")
	}()
	var line string
	select {
	case line = <-said:
	case err := <-ended:
		t.Fatalf("the storm ended before it said anything: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the storm said nothing in a minute")
	}
	t.Logf("the storm: %q", line)
	if !strings.HasPrefix(line, "refused after ") {
		t.Errorf("a fork storm under RLIMIT_NPROC %d was not refused: %q", nproc, line)
	}
	if err := exec.Command("true").Run(); err != nil {
		t.Fatalf("a program of the person's, during the storm: %v", err)
	}
	if err := run(context.Background(), nil, "/bin/echo", "next"); err != nil {
		t.Fatalf("the next action, during the storm: %v", err)
	}
	cancel() // the kill switch
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the killed storm ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the kill did not end the storm")
	}
	if pids := findProcesses(t, mark); len(pids) > 0 {
		t.Fatalf("processes of the storm left after the kill: %v", pids)
	}
}

// runAsNobody runs this test binary again as the user nobody, with only
// the tests that match run, in a temporary folder of its own (a copy of the
// binary and a TMPDIR that user may write), and returns what it printed.
func runAsNobody(t *testing.T, run string) (string, error) {
	t.Helper()
	base, err := os.MkdirTemp("", "airlock-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	tmp := filepath.Join(base, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(base, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "sandbox.test")
	copyFile(t, self, bin, 0o755)
	// Its testdata: what it reads of this package's folder, which nobody
	// may not reach.
	attacks := filepath.Join(base, "testdata", "attacks")
	if err := os.MkdirAll(attacks, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join("testdata", "attacks", "fork-storm.py"), filepath.Join(attacks, "fork-storm.py"), 0o644)
	cmd := exec.Command(bin, "-test.run", run, "-test.count=1", "-test.v")
	cmd.Dir = base
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + tmp, "HOME=" + tmp, asNobodyEnv + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	return string(out), err
}
