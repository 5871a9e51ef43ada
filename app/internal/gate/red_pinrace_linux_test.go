//go:build linux

package gate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// The window between the last read of a file an approved action runs and
// the interpreter's open of it. The files an approved action runs (the
// script of `python3 build.py`, the modules beside it) are pinned when the
// popup goes up, or when "allow again" granted it, and read again right
// before it starts; a change refuses it. But the agent's own tools run
// outside Airlock: a process of its that waits for that last read (an
// inotify watch on the file: the read's close is its cue) and renames
// another file over the path in the microseconds before the launcher's
// interpreter opens it gets its own code run as approved. The action must
// run what was checked, whatever the path holds by the time it starts.

// pinRaceRig is a gate with the real executor and the real sandbox, whose
// approver approves (and, with remember, asks to allow again).
type pinRaceRig struct {
	g    *gate.Gate
	home string
	ask  *answerer
}

func newPinRaceRig(t *testing.T, remember bool) *pinRaceRig {
	t.Helper()
	env, home := sandbox(t)
	data := filepath.Join(home, ".local", "share", "airlock")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	box, ex := sandboxedExecutor(t, env, home, data)
	answer := approveAll
	if remember {
		answer = approveRemember
	}
	a := &answerer{answer: answer}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: policy.SmartDefault, Sandbox: box,
		Approver: a, Grants: policy.NewGrants(nil)})
	return &pinRaceRig{g: g, home: home, ask: a}
}

// swapper is the agent's process outside the action: once armed it counts
// the closes of target after a read (IN_CLOSE_NOWRITE: the gate's reads,
// the interpreter's) and, at the nth, renames a file holding evil over
// target. It notes whether the action had started by then (started, a
// file each version of the script writes first thing).
type swapper struct {
	f       *os.File
	target  string
	evil    string
	started string
	n       int
	// renames says the agent renames its file over target (else it
	// rewrites target in place).
	renames bool

	mu            sync.Mutex
	swapped       bool
	beforeStarted bool
	err           error
	done          chan struct{}
}

// watchReads returns an inotify descriptor (non-blocking) that tells each
// close of target after a read.
func watchReads(t *testing.T, target string) *os.File {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unix.InotifyAddWatch(fd, target, unix.IN_CLOSE_NOWRITE); err != nil {
		unix.Close(fd)
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fd), "inotify")
}

func startSwapper(t *testing.T, target, evil, started string, n int, renames bool) *swapper {
	t.Helper()
	s := &swapper{f: watchReads(t, target), target: target, evil: evil, started: started, n: n, renames: renames, done: make(chan struct{})}
	go s.run()
	t.Cleanup(s.stop)
	return s
}

func (s *swapper) run() {
	defer close(s.done)
	buf := make([]byte, 64*unix.SizeofInotifyEvent)
	seen := 0
	for {
		k, err := s.f.Read(buf)
		if err != nil {
			return // stopped
		}
		for off := 0; off+unix.SizeofInotifyEvent <= k; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_CLOSE_NOWRITE == 0 {
				continue
			}
			if seen++; seen < s.n {
				continue
			}
			var err error
			if s.renames {
				tmp := s.target + ".swap"
				if err = os.WriteFile(tmp, []byte(s.evil), 0o600); err == nil {
					err = os.Rename(tmp, s.target)
				}
			} else {
				err = os.WriteFile(s.target, []byte(s.evil), 0o600)
			}
			_, serr := os.Stat(s.started)
			s.mu.Lock()
			s.swapped, s.beforeStarted, s.err = err == nil, errors.Is(serr, os.ErrNotExist), err
			s.mu.Unlock()
			return
		}
	}
}

func (s *swapper) stop() {
	s.f.Close()
	<-s.done
}

// result stops the swapper and says whether it swapped, and before the
// action started.
func (s *swapper) result() (swapped, beforeStarted bool, err error) {
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.swapped, s.beforeStarted, s.err
}

// TestRedPinnedFileSwappedAfterItsLastRead: for every class of file an
// approved action runs (the script, a module beside it), approved at the
// popup or by "allow again", the agent swaps it at each of the first reads
// after the submission in turn. What runs is what was checked, or nothing
// (refused, saying what changed): never the agent's version.
func TestRedPinnedFileSwappedAfterItsLastRead(t *testing.T) {
	const good, evil = "ran what was approved", "SWAPPED by the agent"
	script := func(msg string) string {
		return "open('started', 'w').close()\nimport helpers\nprint(" + fmt.Sprintf("%q", msg) + ")\nhelpers.more()\n"
	}
	module := func(msg string) string {
		return "open('started', 'w').close()\ndef more():\n    print(" + fmt.Sprintf("%q", msg) + ")\n"
	}
	for _, tc := range []struct {
		name     string
		file     string // what the agent swaps, in the project's folder
		evil     string
		remember bool
	}{
		{"the script, approved at the popup", "build.py", script(evil), false},
		{"a module beside it, approved at the popup", "helpers.py", module(evil), false},
		{"the script, allowed again", "build.py", script(evil), true},
		{"a module beside it, allowed again", "helpers.py", module(evil), true},
	} {
		for _, renames := range []bool{false, true} {
			name := tc.name + ", rewritten in place"
			if renames {
				name = tc.name + ", another file renamed over it"
			}
			t.Run(name, func(t *testing.T) {
				if renames && os.Getenv("AIRLOCK_RED_OPEN") == "" {
					// Open: the launcher's copy is bound over the path,
					// and the kernel takes a bind off a file renamed
					// over, in every namespace. A rename after the
					// launcher's last look (stillBound), before the
					// interpreter opens the file, still runs the
					// agent's file. AIRLOCK_RED_OPEN=1 runs it.
					t.Skip("open: a file renamed over a pinned one after the launcher bound its copy")
				}
				pinRace(t, tc.file, tc.evil, tc.remember, renames, good, script, module)
			})
		}
	}
}

// pinRace is one case of TestRedPinnedFileSwappedAfterItsLastRead: the
// agent swaps file at each of the first six reads in turn.
func pinRace(t *testing.T, file, evilText string, remember, renames bool, good string, script, module func(string) string) {
	tc := struct {
		file, evil string
		remember   bool
	}{file, evilText, remember}
	ran, ranChecked := 0, 0
	r := newPinRaceRig(t, tc.remember)
	for n := 1; n <= 6; n++ {
		proj := filepath.Join(r.home, "Documents", "proj"+strconv.Itoa(n))
		if err := os.MkdirAll(proj, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(proj, "build.py"), script(good))
		writeFile(t, filepath.Join(proj, "helpers.py"), module(good))
		started := filepath.Join(proj, "started")
		sub := gate.Submission{Client: "mcp: agent", Identity: agent, Kind: gate.KindCommand,
			Argv: []string{"python3", "build.py"}, Dir: proj}
		if tc.remember {
			r.ask.answer = approveRemember
			rep, err := r.g.Submit(context.Background(), sub, nil)
			if err != nil || rep.Actions[0].Approval != "approved" {
				t.Fatalf("first run: %v %+v", err, rep.Actions)
			}
			// What the run left beside the script (the cache of the
			// module it imported) is not the agent's.
			if err := os.RemoveAll(filepath.Join(proj, "__pycache__")); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(started); err != nil {
				t.Fatal(err)
			}
		}
		target := filepath.Join(proj, tc.file)
		var sw *swapper
		if tc.remember {
			// Allowed again for what it held then: asked again,
			// the person now says no.
			r.ask.answer = denyAll
			sw = startSwapper(t, target, tc.evil, started, n, renames)
		} else {
			// The person approves what the popup showed; the
			// agent's reads count from then on.
			r.ask.answer = func(ctx context.Context, req approval.Request) (approval.Answer, error) {
				sw = startSwapper(t, target, tc.evil, started, n, renames)
				return approveAll(ctx, req)
			}
		}
		rep, err := r.g.Submit(context.Background(), sub, nil)
		if sw == nil {
			t.Fatalf("swap at read %d: never asked: %v %+v", n, err, rep)
		}
		swapped, before, serr := sw.result()
		if serr != nil {
			t.Fatalf("the agent's swap failed: %v", serr)
		}
		out := strings.Join(outputs(rep), "\n")
		if len(rep.Actions) != 1 {
			t.Fatalf("swap at read %d: %v %+v", n, err, rep)
		}
		a := rep.Actions[0]
		switch {
		case strings.Contains(out, "SWAPPED"):
			t.Fatalf("HOLE: swap at read %d: the agent's %s ran as approved (%s): %q", n, tc.file, a.Approval, out)
		case a.Status == gate.StatusOK && !strings.Contains(out, good):
			t.Fatalf("swap at read %d: ran, but not what was approved: %q %+v", n, out, a)
		case a.Status == gate.StatusOK:
			ran++
			if swapped && before {
				ranChecked++
			}
		case a.Status == gate.StatusDenied && tc.remember:
			// The grant lapsed before it was used: asked again.
		case a.Status == gate.StatusRefused:
			if !strings.Contains(a.Error, "changed") {
				t.Fatalf("swap at read %d: refused without saying what changed: %v %+v", n, err, a)
			}
		case a.Status == gate.StatusFailed && strings.Contains(a.Error, "was replaced while the action was being set up"):
			// Swapped after the launcher put the copy in place,
			// before the program started: it did not start.
		default:
			t.Fatalf("swap at read %d: %v %+v", n, err, a)
		}
		t.Logf("swap at read %d: %s, %s (swapped %v, before it started %v)", n, a.Status, a.Approval, swapped, before)
	}
	// The swaps that came late (after the program's own read)
	// leave it to run: each class ran at least once.
	if ran == 0 {
		t.Fatalf("%s: it never ran", tc.file)
	}
	t.Logf("ran %d times, %d of them with %s swapped before it started", ran, ranChecked, tc.file)
}

// sandboxedExecutor returns a real OS sandbox for the home of env, with
// Airlock's data folder data hidden and layers kept in it, and the gate's
// default executor over it; the test is skipped where the sandbox cannot
// run.
func sandboxedExecutor(t *testing.T, env *risk.Env, home, data string) (*ossandbox.Box, gate.Executor) {
	t.Helper()
	box, err := ossandbox.New(ossandbox.Settings{Home: home, Roots: env.Paths.Roots, Own: []string{data},
		Env: []string{"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}, Staging: filepath.Join(data, "changes")}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close) // no folder made ahead is left behind
	if err := box.Available(); err != nil {
		t.Skipf("the sandbox cannot run here: %v", err)
	}
	ex, err := gate.DefaultExecutor(env.Paths, nil, box)
	if err != nil {
		t.Fatal(err)
	}
	return box, ex
}
