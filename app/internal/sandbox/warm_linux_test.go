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
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// liveness bounds how long a test waits for what should happen at once;
// reaching it is a failure, not a measurement.
const liveness = 10 * time.Second

// cmdline runs, confined by r's box, a program that prints its launcher's
// command line (PID 1's), and returns that.
func (r *rig) cmdline(t *testing.T, g sandbox.Grant) string {
	t.Helper()
	out, stderr, err := r.run(t, g, "sh", "-c", `tr '\0' ' ' < /proc/1/cmdline`)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	return out
}

// warm reports whether a launcher's command line is a warm one's.
func warm(cmdline string) bool { return strings.Contains(cmdline, launcher.WaitFlag) }

// processGone waits until pid is no process, or a dead one (a zombie whose
// parent is not this test), failing after liveness.
func processGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(liveness); ; time.Sleep(time.Millisecond) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if s := string(b); strings.Contains(s[strings.LastIndexByte(s, ')'):], ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still there: %s", pid, b)
		}
	}
}

// TestWarmLaunchersRunActions: once the probe has passed a Box has a
// launcher waiting for each network shape; an action runs through one
// (its PID 1 is a warm launcher), which confines that action only and is
// gone with it, and another is started behind it. Approved and unasked
// actions, each shape.
func TestWarmLaunchersRunActions(t *testing.T) {
	r := newRig(t)
	for i, g := range []sandbox.Grant{{}, {Approved: true}, {Network: sandbox.NetInternet}, {}} {
		before := r.waitWarm(t)
		if got := r.cmdline(t, g); !warm(got) {
			t.Fatalf("action %d (%+v) started through %q, want a warm launcher", i, g, got)
		}
		if n := sandbox.WarmClaimed(r.box); n != i+1 {
			t.Fatalf("%d actions ran through warm launchers, want %d", n, i+1)
		}
		after := r.waitWarm(t)
		used := 0
		for _, pid := range before {
			if !slices.Contains(after, pid) {
				used++
				processGone(t, pid)
			}
		}
		if used != 1 {
			t.Fatalf("launchers before %v, after %v: want exactly one used and replaced", before, after)
		}
	}
}

// TestWarmDiscard is the kill switch's part: Discard kills every warm
// launcher before it returns, none is started again until the next
// action, which starts cold, and after it they come back.
func TestWarmDiscard(t *testing.T) {
	r := newRig(t)
	pids := r.waitWarm(t)
	r.box.Discard()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("warm launcher %d after Discard: %v", pid, err)
		}
	}
	time.Sleep(200 * time.Millisecond) // what a refill would take, and more
	if n := sandbox.WarmIdle(r.box); n != 0 {
		t.Fatalf("%d launchers started after Discard, before any action", n)
	}
	if got := r.cmdline(t, sandbox.Grant{}); warm(got) {
		t.Fatalf("the first action after Discard started through %q, want a cold launcher", got)
	}
	r.waitWarm(t)
	if got := r.cmdline(t, sandbox.Grant{}); !warm(got) {
		t.Fatalf("the second action after Discard started through %q, want a warm launcher", got)
	}
}

// TestWarmClose: a closed Box kills its warm launchers and starts none
// again; its actions still run, cold.
func TestWarmClose(t *testing.T) {
	r := newRig(t)
	pids := r.waitWarm(t)
	r.box.Close()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("warm launcher %d after Close: %v", pid, err)
		}
	}
	for range 2 {
		if got := r.cmdline(t, sandbox.Grant{}); warm(got) {
			t.Fatalf("an action of a closed Box started through %q", got)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if n := sandbox.WarmIdle(r.box); n != 0 {
		t.Fatalf("a closed Box started %d launchers", n)
	}
}

// TestWarmColdWhenGone: with its warm launchers killed (dying, or gone:
// the action comes at once), an action starts cold and runs confined as
// before.
func TestWarmColdWhenGone(t *testing.T) {
	r := newRig(t)
	for _, pid := range r.waitWarm(t) {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := r.run(t, sandbox.Grant{}, "sh", "-c", `cat "$HOME/.ssh/id_rsa" || echo HIDDEN; tr '\0' ' ' < /proc/1/cmdline`)
	if err != nil || !strings.Contains(out, "HIDDEN") || warm(out) || !strings.Contains(out, launcher.Flag) {
		t.Fatalf("%q %v: want the key hidden, through a cold launcher", out, err)
	}
}

// TestWarmUnusedCommand: a command that took a warm launcher and is never
// run kills it when its done is called.
func TestWarmUnusedCommand(t *testing.T) {
	r := newRig(t)
	r.waitWarm(t)
	c, done, err := r.box.Confine(bridge.Command{Argv: []string{"/bin/true"}, Dir: r.home}, sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Warm == nil {
		t.Fatal("the command took no warm launcher")
	}
	pid := c.Warm.Pid()
	done()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the unused warm launcher %d after done: %v", pid, err)
	}
}

// TestWarmSameCommandTwice: a confined command run twice does not run
// twice through one launcher: the second run starts cold, and fails
// closed (its spec was read), running nothing.
func TestWarmSameCommandTwice(t *testing.T) {
	r := newRig(t)
	r.waitWarm(t)
	mark := filepath.Join(r.docs, "ran")
	c, done, err := r.box.Confine(bridge.Command{Argv: []string{"sh", "-c", `echo x >> "$1"; tr '\0' ' ' < /proc/1/cmdline`, "sh", mark}, Dir: r.home},
		sandbox.KindCommand, sandbox.Grant{Approved: true})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if out, _, err := bridge.RunArgv(context.Background(), c); err != nil || !warm(out) {
		t.Fatalf("first run: %q %v", out, err)
	}
	_, stderr, err := bridge.RunArgv(context.Background(), c)
	var ee *bridge.ExitError
	if !errors.As(err, &ee) || ee.Code != launcher.ExitSetup || !strings.Contains(stderr, "reading the profile") {
		t.Errorf("second run: %v %q, want the cold launcher to find no spec", err, stderr)
	}
	if b, _ := os.ReadFile(mark); string(b) != "x\n" {
		t.Errorf("the program ran %d times", strings.Count(string(b), "x"))
	}
}

// TestWarmIdleCost: a waiting warm launcher uses no processor time over
// two seconds (its clock ticks in /proc/PID/stat do not move, give or
// take the one a boundary may add); its memory is logged.
func TestWarmIdleCost(t *testing.T) {
	r := newRig(t)
	r.dedicated(t)
	pids := r.waitWarm(t)
	ticks := func(pid int) int {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		u, _ := strconv.Atoi(f[11]) // utime, then stime: fields 14 and 15
		k, _ := strconv.Atoi(f[12])
		return u + k
	}
	first := make([]int, len(pids))
	for i, pid := range pids {
		first[i] = ticks(pid)
	}
	time.Sleep(2 * time.Second)
	for i, pid := range pids {
		used := ticks(pid) - first[i]
		status, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		var rss string
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmRSS:") || strings.HasPrefix(l, "RssAnon:") {
				rss += strings.Join(strings.Fields(l), " ") + "; "
			}
		}
		t.Logf("warm launcher %d: %d clock ticks in 2 s, %s", pid, used, rss)
		if used > 1 {
			t.Errorf("warm launcher %d used %d clock ticks in 2 s while waiting", pid, used)
		}
	}
}

// gateEnv, set, makes this test binary a gate that starts warm launchers
// and waits to be killed (warmGate).
const gateEnv = "AIRLOCK_TEST_WARM_GATE"

// warmGate is a gate whose Box starts its warm launchers in home (the
// variable's value), prints their pids on one line, and then waits.
func warmGate(home string) int {
	docs := filepath.Join(home, "Documents")
	if err := os.MkdirAll(docs, 0o700); err != nil {
		fmt.Println(err)
		return 1
	}
	box, err := sandbox.New(sandbox.Settings{Home: home, Roots: []string{docs}, Env: []string{"PATH=/usr/bin:/bin", "HOME=" + home}}, "")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	pids, err := box.WarmReady(ctx)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println(strings.Trim(fmt.Sprint(pids), "[]"))
	time.Sleep(time.Minute)
	return 0
}

// TestWarmGateGone: when the gate dies, its warm launchers, which wait
// for it alone, exit.
func TestWarmGateGone(t *testing.T) {
	newRig(t) // skips where there is no sandbox
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run", "^$")
	cmd.Env = append(os.Environ(), gateEnv+"="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	var pids []int
	for _, f := range strings.Fields(line) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	if len(pids) != 2 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the gate said %q (%v)", line, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for _, pid := range pids {
		processGone(t, pid)
	}
}

// TestWarmEndNothingLeft: a warm launcher says its action ended (so the
// gate stops waiting before the launcher's own exit and its namespaces'
// teardown) only once nothing of the action is left: when the action's
// Wait returns, no process holds a file that processes the action left
// running held open (and not its output, whose end the gate waits for),
// though they ignored every signal they could and one left the action's
// session by a double fork (approved; setsid is refused to one that runs
// unasked, whose fourth process only double-forks); approved and unasked.
func TestWarmEndNothingLeft(t *testing.T) {
	r := newRig(t)
	script := `cd "$TMPDIR" || exit 1
for i in 1 2 3; do (trap '' TERM HUP INT QUIT USR1 USR2; exec 3>"held.$i" >/dev/null 2>&1; echo x >&3; exec sleep 30) & done
` + setsidIfAllowed + `($S sh -c 'exec 3>held.4 >/dev/null 2>&1; echo x >&3; exec sleep 30' &) &
n=0; for i in 1 2 3 4; do while [ ! -s "held.$i" ] && [ $n -lt 500 ]; do sleep 0.01; n=$((n+1)); done; done
ls >&2; printf '%s|' "$TMPDIR"; tr '\0' ' ' < /proc/1/cmdline`
	for _, g := range []sandbox.Grant{{Approved: true}, {}} {
		r.waitWarm(t)
		c, done, err := r.box.Confine(bridge.Command{Argv: []string{"sh", "-c", script}, Dir: r.home}, sandbox.KindCommand, g)
		if err != nil {
			t.Fatal(err)
		}
		out, stderr, err := bridge.RunArgv(context.Background(), c)
		dir, cmdline, _ := strings.Cut(out, "|")
		var holders []string
		if dir != "" {
			holders = holding(t, dir)
		}
		done()
		if err != nil || !filepath.IsAbs(dir) {
			t.Fatalf("%+v: %q %v\n%s", g, out, err, stderr)
		}
		if !warm(cmdline) {
			t.Fatalf("%+v: the action started through %q, want a warm launcher", g, cmdline)
		}
		if strings.Count(stderr, "held.") != 4 {
			t.Fatalf("%+v: the action's processes did not all start: %s", g, stderr)
		}
		if len(holders) > 0 {
			t.Errorf("%+v: when the action's Wait returned, these still held its files: %v", g, holders)
		}
	}
}

// holding returns the processes that hold a file in dir open, as
// "pid: file".
func holding(t *testing.T, dir string) []string {
	t.Helper()
	procs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		fds, _ := os.ReadDir("/proc/" + p.Name() + "/fd")
		for _, fd := range fds {
			if l, err := os.Readlink("/proc/" + p.Name() + "/fd/" + fd.Name()); err == nil && strings.HasPrefix(l, dir+"/") {
				out = append(out, p.Name()+": "+l)
			}
		}
	}
	return out
}

// TestWarmThroughSpawner: a Box through airlock-launch starts its warm
// launchers through a spawner, each this process's child; the kill switch
// (Discard) ends the spawner with the launchers, the next action brings
// another, and Close ends it for good.
func TestWarmThroughSpawner(t *testing.T) {
	r := newRig(t)
	r.dedicated(t)
	r.waitWarm(t)
	sp := sandbox.SpawnerPid(r.box)
	if sp == 0 {
		t.Fatal("the box has no spawner")
	}
	if ppid := parentOf(t, sp); ppid != os.Getpid() {
		t.Fatalf("the spawner's parent is %d, want this process", ppid)
	}
	r.box.Discard()
	if got := sandbox.SpawnerPid(r.box); got != 0 {
		t.Fatalf("the spawner is %d after Discard, want none", got)
	}
	processGone(t, sp)
	if got := r.cmdline(t, sandbox.Grant{}); !launcherLine(got) {
		t.Fatalf("the action after Discard started through %q", got)
	}
	r.waitWarm(t)
	next := sandbox.SpawnerPid(r.box)
	if next == 0 || next == sp {
		t.Fatalf("after the next action the spawner is %d (was %d), want a new one", next, sp)
	}
	r.box.Close()
	if got := sandbox.SpawnerPid(r.box); got != 0 {
		t.Fatalf("the spawner is %d after Close, want none", got)
	}
	processGone(t, next)
}
