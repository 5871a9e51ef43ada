//go:build linux

package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// Red team of the warm launchers (warm.go): what an unasked action, the
// hostile agent's code confined, can do to the launchers that wait beside
// it and the ones started behind it.

// mountinfo returns pid's mount table, failing the test where it cannot
// be read.
func mountinfo(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/mountinfo")
	if err != nil {
		t.Fatalf("reading the mounts of warm launcher %d: %v", pid, err)
	}
	return string(b)
}

// waitingLaunchers returns the process ids of this test binary's children
// that are warm launchers (their command line holds launcher.WaitFlag).
func waitingLaunchers(t *testing.T) map[int]bool {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	self := strconv.Itoa(os.Getpid())
	found := map[int]bool{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 || f[1] != self || f[0] == "Z" {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(cmd), launcher.WaitFlag) {
			found[pid] = true
		}
	}
	return found
}

// TestRedWarmSibling: an unasked action runs through a warm launcher while
// another waits beside it (the other network shape), and attacks it and
// the one started behind it (testdata/attacks/warm-sibling.sh): finding it
// among its processes, signalling, stopping, killing, tracing it by its
// number outside, reading its descriptors and environment, entering its
// namespaces; its own launcher's descriptors (the socket it waited on);
// mounting, to reach a launcher whose mounts are not yet private; and
// leaving files where the next action looks. None may work: the sibling
// waits as before, its mounts unchanged, and takes the next action of its
// shape; the launchers started behind hold none of the action's mounts;
// the next action finds nothing it left.
func TestRedWarmSibling(t *testing.T) {
	r := newRig(t)
	pids := r.waitWarm(t)
	before := map[int]string{}
	for _, pid := range pids {
		before[pid] = mountinfo(t, pid)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "attacks", "warm-sibling.sh"))
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"sh", "-c", string(script), "sh"}
	for _, pid := range pids {
		argv = append(argv, strconv.Itoa(pid))
	}
	c, layers, done, err := r.box.ConfineReviewed(bridge.Command{Argv: argv, Dir: r.docs}, sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	defer sandbox.RemoveLayers(layers)
	if c.Warm == nil {
		t.Fatal("the unasked action took no warm launcher")
	}
	used := c.Warm.Pid()
	out, stderr, err := bridge.RunArgv(context.Background(), c)
	done()
	if err != nil || !strings.Contains(out, "done") {
		t.Fatalf("the payload did not run to its end: %v\n%s%s", err, out, stderr)
	}
	t.Logf("the action said:\n%s", out)
	if sandbox.WarmClaimed(r.box) != 1 {
		t.Fatalf("the action did not run through a warm launcher (%d claimed)", sandbox.WarmClaimed(r.box))
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "WON") {
			t.Errorf("attack got through: %s", l)
		}
	}
	sibling := 0
	for _, pid := range pids {
		if pid != used {
			sibling = pid
		}
	}
	if st := procState(t, sibling); st != "S" {
		t.Fatalf("the sibling launcher %d is in state %q after the attack, want S (waiting)", sibling, st)
	}
	if got := mountinfo(t, sibling); got != before[sibling] {
		t.Errorf("the sibling launcher's mounts changed under the attack:\nbefore\n%s\nafter\n%s", before[sibling], got)
	}
	for _, pid := range r.waitWarm(t) {
		if m := mountinfo(t, pid); strings.Contains(m, "warmattack") {
			t.Errorf("launcher %d holds the action's mount:\n%s", pid, m)
		}
	}
	// The next unasked action: nothing left for it, through a warm launcher
	// in a network of its own.
	host, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	next, stderr, err := r.run(t, sandbox.Grant{}, "sh", "-c",
		`for d in "$TMPDIR" /tmp /dev/shm /var/tmp "$HOME"; do cat "$d/warm-leftover" 2>/dev/null && echo "LEFT in $d"; done; readlink /proc/self/ns/net; tr '\0' ' ' < /proc/1/cmdline`)
	if err != nil {
		t.Fatalf("the next action: %v\n%s", err, stderr)
	}
	if strings.Contains(next, "LEFT") || !warm(next) || strings.Contains(next, host) {
		t.Errorf("the next action (want nothing left, a warm launcher, a network not the host's %s) said:\n%s", host, next)
	}
	// The sibling, untouched, takes the next action of its shape.
	approved, stderr, err := r.run(t, sandbox.Grant{Approved: true, Network: sandbox.NetInternet}, "sh", "-c", `tr '\0' ' ' < /proc/1/cmdline`)
	if err != nil || !warm(approved) {
		t.Fatalf("the approved action: %q %v\n%s", approved, err, stderr)
	}
	processGone(t, sibling)
}

// TestRedWarmShapesUnderLoad: many actions at once, of both network
// shapes, with the kill switch (Discard) pressed among them, exhaust the
// pool and race its refills and generations. Each must run confined (its
// PID 1 a launcher, warm or cold, the key hidden) and an unasked one
// never in the host's network, whatever launcher it got.
func TestRedWarmShapesUnderLoad(t *testing.T) {
	r := newRig(t)
	host, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	grants := []sandbox.Grant{{}, {Approved: true, Network: sandbox.NetInternet}, {}, {Approved: true}, {}, {Approved: true, Network: sandbox.NetInternet}}
	for round := range 3 {
		if round > 0 {
			r.cmdline(t, sandbox.Grant{}) // after a Discard, the next action brings them back
		}
		r.waitWarm(t)
		var wg sync.WaitGroup
		errs := make(chan error, len(grants))
		for i, g := range grants {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, done, err := r.box.Confine(bridge.Command{Argv: []string{"sh", "-c",
					`cat "$HOME/.ssh/id_rsa" 2>/dev/null || echo HIDDEN; readlink /proc/self/ns/net; tr '\0' ' ' < /proc/1/cmdline`}, Dir: r.home},
					sandbox.KindCommand, g)
				if err != nil {
					errs <- err
					return
				}
				defer done()
				out, stderr, err := bridge.RunArgv(context.Background(), c)
				switch {
				case err != nil:
					errs <- fmt.Errorf("action %d: %v\n%s", i, err, stderr)
				case !strings.Contains(out, "HIDDEN") || !launcherLine(out):
					errs <- fmt.Errorf("action %d (%+v) ran unconfined: %q", i, g, out)
				case !g.Approved && strings.Contains(out, host):
					errs <- fmt.Errorf("unasked action %d ran in the host's network %s: %q", i, host, out)
				}
			}()
			if i == round+1 {
				r.box.Discard()
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}

// TestRedWarmKillSwitchRace: actions that took their launchers before the
// kill switch end after it; their refills must start nothing (none waits,
// none is being started, no launcher process is left) until the next
// action, whether the kill switch came before they started, as they
// started, or while they ran. One handed a launcher the kill switch killed
// starts cold, confined.
func TestRedWarmKillSwitchRace(t *testing.T) {
	old := waitingLaunchers(t) // other tests' boxes: not this one's
	r := newRig(t)
	for round, wait := range []time.Duration{0, 100 * time.Microsecond, time.Millisecond, 5 * time.Millisecond, 50 * time.Millisecond} {
		if round > 0 {
			r.cmdline(t, sandbox.Grant{}) // after a Discard, the next action brings them back
		}
		r.waitWarm(t)
		type confined struct {
			c    bridge.Command
			done func()
		}
		var cs []confined
		for _, g := range []sandbox.Grant{{}, {Approved: true, Network: sandbox.NetInternet}} {
			c, done, err := r.box.Confine(bridge.Command{Argv: []string{"sh", "-c",
				`sleep 0.02; cat "$HOME/.ssh/id_rsa" 2>/dev/null || echo HIDDEN; tr '\0' ' ' < /proc/1/cmdline`}, Dir: r.home}, sandbox.KindCommand, g)
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, confined{c, done})
		}
		var wg sync.WaitGroup
		for i, x := range cs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer x.done()
				out, stderr, err := bridge.RunArgv(context.Background(), x.c)
				if err != nil || !strings.Contains(out, "HIDDEN") || !launcherLine(out) {
					t.Errorf("action %d, kill switch after %v: %q %v\n%s", i, wait, out, err, stderr)
				}
			}()
		}
		time.Sleep(wait)
		r.box.Discard()
		wg.Wait()
		time.Sleep(100 * time.Millisecond) // what a refill would take, and more
		if n := sandbox.WarmIdle(r.box); n != 0 {
			t.Errorf("kill switch after %v: %d launchers wait or are starting with no action since", wait, n)
		}
		for pid := range waitingLaunchers(t) {
			if !old[pid] {
				t.Errorf("kill switch after %v: warm launcher %d is alive", wait, pid)
				if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
					t.Log(err)
				}
			}
		}
	}
}

// parentOf is pid's parent's process id.
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	return ppid
}

// TestRedSpawner: an unasked action attacks the spawner, which starts the
// warm launchers in the gate's place (testdata/attacks/spawner.sh):
// finding it by name, signalling, stopping, killing, tracing it by its
// number outside, reading its descriptors, environment and memory,
// entering its namespaces. None may work: the spawner waits as before
// (its state S), and the launchers behind the action are started through
// it, as this process's children.
func TestRedSpawner(t *testing.T) {
	r := newRig(t)
	r.dedicated(t)
	pids := r.waitWarm(t)
	sp := sandbox.SpawnerPid(r.box)
	if sp == 0 {
		t.Fatal("the box has no spawner")
	}
	for _, pid := range pids {
		if ppid := parentOf(t, pid); ppid != os.Getpid() {
			t.Fatalf("warm launcher %d's parent is %d, want this process %d", pid, ppid, os.Getpid())
		}
	}
	script, err := os.ReadFile(filepath.Join("testdata", "attacks", "spawner.sh"))
	if err != nil {
		t.Fatal(err)
	}
	c, layers, done, err := r.box.ConfineReviewed(bridge.Command{Argv: []string{"sh", "-c", string(script), "sh", strconv.Itoa(sp)}, Dir: r.docs},
		sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	defer sandbox.RemoveLayers(layers)
	out, stderr, err := bridge.RunArgv(context.Background(), c)
	done()
	if err != nil || !strings.Contains(out, "done") {
		t.Fatalf("the payload did not run to its end: %v\n%s%s", err, out, stderr)
	}
	t.Logf("the action said:\n%s", out)
	if sandbox.WarmClaimed(r.box) != 1 {
		t.Fatalf("the action did not run through a warm launcher (%d claimed)", sandbox.WarmClaimed(r.box))
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "WON") {
			t.Errorf("attack got through: %s", l)
		}
	}
	if st := procState(t, sp); st != "S" {
		t.Fatalf("the spawner %d is in state %q after the attack, want S (waiting)", sp, st)
	}
	for _, pid := range r.waitWarm(t) {
		if ppid := parentOf(t, pid); ppid != os.Getpid() {
			t.Errorf("warm launcher %d's parent is %d after the attack, want this process", pid, ppid)
		}
	}
	if got := sandbox.SpawnerPid(r.box); got != sp {
		t.Errorf("the spawner is %d after the attack, want %d (the same, still serving)", got, sp)
	}
}
