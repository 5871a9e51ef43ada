//go:build linux

package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// testPool is a pool whose launcher is this test binary (TestMain hands
// it to Main), skipped where the sandbox cannot run.
func testPool(t *testing.T) *pool {
	t.Helper()
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < launcher.MinABI {
		t.Skipf("no Landlock ABI %d here (%d, %v)", launcher.MinABI, abi, err)
	}
	p := newPool(selfExe())
	t.Cleanup(func() { p.discard(true) })
	return p
}

// waitIdle waits until p has a launcher of shape k waiting, and returns it.
func waitIdle(t *testing.T, p *pool, k shape) warmOne {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		p.mu.Lock()
		one, ok := p.idle[k]
		p.mu.Unlock()
		if ok {
			return one
		}
	}
	t.Fatal("no launcher came")
	return warmOne{}
}

// warmChildren counts this process's children that are warm launchers.
func warmChildren() int {
	n := 0
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			cmd, _ := os.ReadFile("/proc/" + f + "/cmdline")
			if strings.Contains(string(cmd), launcher.WaitFlag) {
				n++
			}
		}
	}
	return n
}

// TestWarmStaleGeneration: a waiting launcher from a generation before the
// pool's is not handed out, and is killed; the one started behind it is
// of the current generation.
func TestWarmStaleGeneration(t *testing.T) {
	p := testPool(t)
	k := shape{}
	p.fill(k, 0)
	stale := waitIdle(t, p, k)
	p.mu.Lock()
	p.gen++ // as if it had slipped past a discard
	p.mu.Unlock()
	w, release := p.take(p.command(k), k.filtered, 0)
	if w != nil {
		t.Fatal("a launcher of a stale generation was handed out")
	}
	if err := syscall.Kill(stale.w.Pid(), 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the stale launcher %d: %v", stale.w.Pid(), err)
	}
	release()
	next := waitIdle(t, p, k)
	if next.gen != p.gen || next.w == stale.w {
		t.Errorf("the launcher behind it is of generation %d (pool %d)", next.gen, p.gen)
	}
}

// TestWarmDiscardWhileStarting: a launcher that finishes starting after a
// discard is killed, not kept; and none is left running.
func TestWarmDiscardWhileStarting(t *testing.T) {
	p := testPool(t)
	before := warmChildren()
	k := shape{hostNetwork: true}
	p.fill(k, 0)
	p.mu.Lock()
	s := p.starting[k]
	p.mu.Unlock()
	if s == nil {
		t.Fatal("nothing is starting")
	}
	p.discard(false)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the start did not end")
	}
	p.mu.Lock()
	n := len(p.idle)
	p.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d launchers kept after the discard", n)
	}
	if after := warmChildren(); after > before {
		t.Errorf("%d warm launchers before, %d after", before, after)
	}
	// Paused: nothing starts until the next take.
	p.fill(k, 0)
	p.mu.Lock()
	n = len(p.starting)
	p.mu.Unlock()
	if n != 0 {
		t.Error("a paused pool started a launcher")
	}
}

// TestWarmFilteredRunsOnlyFiltered: a launcher that installed both socket
// filters while it waited (launcher.WaitFilteredFlag), handed an action
// that must not have one of them (a UI action, one with the host's whole
// network), fails closed: it exits with the launcher's setup status,
// saying why, and the program never runs. (The pool never hands it one:
// its shape is filtered only for an action that has both.)
func TestWarmFilteredRunsOnlyFiltered(t *testing.T) {
	p := testPool(t)
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < launcher.NetABI {
		t.Skipf("no Landlock ABI %d here (%d, %v): a UI action has a network namespace of its own", launcher.NetABI, abi, err)
	}
	home := t.TempDir()
	ran := filepath.Join(home, "ran")
	for _, tc := range []struct {
		name string
		p    Profile
	}{
		{"ui", Profile{UI: true, Network: NetNone}},
		{"host network", Profile{Network: NetHost}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if launcher.Filtered(tc.p, abi) {
				t.Fatalf("%+v gets both filters", tc.p)
			}
			k := shape{hostNetwork: true, filtered: true}
			p.fill(k, 0)
			waitIdle(t, p, k)
			prof := tc.p
			prof.Kind, prof.Read, prof.Write, prof.TempDir = KindCommand, []string{"/"}, []string{home}, home
			prof.Env = []string{"PATH=/usr/bin:/bin"}
			f, err := specFile(spec{Profile: prof, Argv: []string{"touch", ran}, Dir: home})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			c := p.command(k)
			c.ExtraFiles = []*os.File{f}
			w, release := p.take(c, true, 0)
			if w == nil {
				t.Fatal("no launcher was handed out")
			}
			c.Warm = w
			_, stderr, err := bridge.RunArgv(context.Background(), c)
			release()
			var ee *bridge.ExitError
			if !errors.As(err, &ee) || ee.Code != launcher.ExitSetup || !strings.Contains(stderr, "it runs nothing") {
				t.Errorf("the launcher ended with %v, saying %q; want status %d and why", err, stderr, launcher.ExitSetup)
			}
			if !w.Claimed() {
				t.Error("the action did not go to the launcher that waited")
			}
			if _, err := os.Stat(ran); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the program ran (%v)", err)
			}
		})
	}
}
