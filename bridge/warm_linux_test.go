//go:build linux

package bridge_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/bridge"
)

// warmStandIn is a warm process as the sandbox's launcher is one, for the
// bridge's tests (BRIDGE_STANDIN=warm): started with "warm" it says it is
// ready on bridge.WarmFD and takes its standard input and one file from
// there; with "cold" its file is descriptor 3 and its input its own. The
// file says "CODE WHAT": it prints how it started, the file and its input,
// and for WHAT "sleep" then sleeps; it exits with CODE. For WHAT "end" it
// then lets go of its output and says on bridge.WarmFD that its command
// ended with CODE (bridge.WarmEnd), and sleeps; for "badend" it says it
// ended with CODE+1 in a message of the wrong length, then exits with CODE.
func warmStandIn(args []string) int {
	fd := 3
	if len(args) > 0 && args[0] == "warm" {
		_ = unix.Sendto(bridge.WarmFD, []byte{bridge.WarmReady}, unix.MSG_NOSIGNAL, nil)
		var b [1]byte
		oob := make([]byte, unix.CmsgSpace(2*4))
		n, oobn, _, _, err := unix.Recvmsg(bridge.WarmFD, b[:], oob, 0)
		if err != nil || n != 1 || b[0] != bridge.WarmGo {
			fmt.Fprintf(os.Stderr, "no command: %d %v\n", n, err)
			return 125
		}
		msgs, _ := unix.ParseSocketControlMessage(oob[:oobn])
		var fds []int
		for i := range msgs {
			got, _ := unix.ParseUnixRights(&msgs[i])
			fds = append(fds, got...)
		}
		if len(fds) != 2 {
			return 125
		}
		if err := unix.Sendto(bridge.WarmFD, []byte{bridge.WarmAck}, unix.MSG_NOSIGNAL, nil); err != nil {
			return 125
		}
		unix.Dup3(fds[0], 0, 0)
		fd = fds[1]
	}
	what, _ := io.ReadAll(os.NewFile(uintptr(fd), "file"))
	in, _ := io.ReadAll(os.Stdin)
	fmt.Printf("%s %s %s\n", args[0], what, in)
	fmt.Fprintln(os.Stderr, "said on stderr")
	code, action, _ := strings.Cut(string(what), " ")
	switch action {
	case "sleep":
		time.Sleep(100 * time.Second)
	case "end", "badend":
		n, _ := strconv.Atoi(code)
		if action == "badend" {
			_ = unix.Sendto(bridge.WarmFD, []byte{bridge.WarmEnd, byte(n + 1), 0}, unix.MSG_NOSIGNAL, nil)
			return n
		}
		null, err := unix.Open(os.DevNull, unix.O_RDWR, 0)
		if err != nil || unix.Dup3(null, 1, 0) != nil || unix.Dup3(null, 2, 0) != nil {
			return 125
		}
		_ = unix.Sendto(bridge.WarmFD, []byte{bridge.WarmEnd, byte(n)}, unix.MSG_NOSIGNAL, nil)
		time.Sleep(100 * time.Second)
		return 99
	case "mark":
		f, err := os.OpenFile(os.Getenv("BRIDGE_MARK"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return 125
		}
		fmt.Fprintln(f, args[0])
		f.Close()
	}
	n, _ := strconv.Atoi(code)
	return n
}

// warmRig is a cold command of the stand-in and a file to hand it.
func warmCommand(t *testing.T, file string) bridge.Command {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(t.TempDir(), "file")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.WriteString(file); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	return bridge.Command{Argv: []string{self, bridge.HelperFlag, "cold"}, Env: []string{"BRIDGE_STANDIN=warm"}, ExtraFiles: []*os.File{f}}
}

// startWarm starts a warm stand-in for c and waits until it is ready.
func startWarm(t *testing.T, c bridge.Command) *bridge.Warm {
	t.Helper()
	shape := c
	shape.ExtraFiles = nil
	w, err := bridge.StartWarm(shape, []string{c.Argv[0], bridge.HelperFlag, "warm"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	if err := w.Ready(ctx); err != nil {
		t.Fatalf("the warm process is not ready: %v", err)
	}
	return w
}

// gone waits until pid is no process (reaped), failing the test after
// liveness.
func gone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(liveness); ; time.Sleep(time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still there", pid)
		}
	}
}

// TestWarmRunsTheCommand: a command handed to a warm process runs there
// as it would cold: its standard input (or none), its file, its output
// capped and tapped, its exit status, and its errors naming it.
func TestWarmRunsTheCommand(t *testing.T) {
	for _, tt := range []struct {
		name, stdin string
		max         int
		want        string
	}{
		{"input", "the input", 0, "warm 3 echo the input\n"},
		{"no input", "", 0, "warm 3 echo \n"},
		{"capped", "the input", 6, "warm 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := warmCommand(t, "3 echo")
			w := startWarm(t, c)
			var mu sync.Mutex
			var tapped strings.Builder
			c.Warm, c.Stdin, c.MaxOutput, c.Name = w, tt.stdin, tt.max, "the stand-in"
			c.Output = func(p []byte, stderr bool) {
				mu.Lock()
				defer mu.Unlock()
				if !stderr {
					tapped.Write(p)
				}
			}
			out, _, err := bridge.RunArgv(context.Background(), c)
			var ee *bridge.ExitError
			if !errors.As(err, &ee) || ee.Code != 3 || ee.Program != "the stand-in" {
				t.Fatalf("err = %v, want the stand-in's exit status 3", err)
			}
			if out != tt.want || tapped.String() != out {
				t.Errorf("stdout %q, tapped %q; want %q", out, tapped.String(), tt.want)
			}
			if !w.Claimed() {
				t.Error("the warm process is not claimed")
			}
			gone(t, w.Pid())
		})
	}
}

// TestWarmEnd: a warm process that says its command ended (WarmEnd) ends
// the command's Wait on its word, with the status it said and the output
// whole, without waiting for its own exit (the stand-in would sleep for
// 100 s); the process is then killed and reaped. A word of the wrong
// length is not heard: Wait returns the exit status.
func TestWarmEnd(t *testing.T) {
	c := warmCommand(t, "5 end")
	w := startWarm(t, c)
	c.Warm = w
	out, stderr, err := bridge.RunArgv(context.Background(), c)
	var ee *bridge.ExitError
	if !errors.As(err, &ee) || ee.Code != 5 || ee.LastLine != "said on stderr" {
		t.Fatalf("err = %v, want status 5 as the stand-in said", err)
	}
	if out != "warm 5 end \n" || stderr != "said on stderr\n" {
		t.Errorf("stdout %q, stderr %q", out, stderr)
	}
	gone(t, w.Pid())

	c = warmCommand(t, "0 end")
	c.Warm = startWarm(t, c)
	if out, _, err := bridge.RunArgv(context.Background(), c); err != nil || out != "warm 0 end \n" {
		t.Fatalf("status 0: %q %v", out, err)
	}

	c = warmCommand(t, "4 badend")
	c.Warm = startWarm(t, c)
	_, _, err = bridge.RunArgv(context.Background(), c)
	if !errors.As(err, &ee) || ee.Code != 4 {
		t.Fatalf("err = %v, want the exit status 4", err)
	}
}

// TestWarmOnce: a warm process runs one command, ever: the same Warm given
// again starts the next command cold.
func TestWarmOnce(t *testing.T) {
	c := warmCommand(t, "0 echo")
	c.Warm = startWarm(t, c)
	if out, _, err := bridge.RunArgv(context.Background(), c); err != nil || !strings.HasPrefix(out, "warm ") {
		t.Fatalf("first: %q %v", out, err)
	}
	c2 := warmCommand(t, "0 again")
	c2.Warm = c.Warm
	if out, _, err := bridge.RunArgv(context.Background(), c2); err != nil || out != "cold 0 again \n" {
		t.Fatalf("second: %q %v, want a cold start", out, err)
	}
}

// TestWarmColdWhenUnusable: a command whose warm process was closed, was
// killed, or was started for another shape of command starts cold; the
// killed one (dying, or gone) is reaped, the closed one is gone once Close
// returns, and the one of another shape is left waiting.
func TestWarmColdWhenUnusable(t *testing.T) {
	for _, how := range []string{"closed", "killed", "another shape"} {
		t.Run(how, func(t *testing.T) {
			c := warmCommand(t, "0 echo")
			w := startWarm(t, c)
			switch how {
			case "closed":
				w.Close()
				if err := syscall.Kill(w.Pid(), 0); !errors.Is(err, syscall.ESRCH) {
					t.Errorf("after Close, process %d: %v", w.Pid(), err)
				}
			case "killed":
				if err := syscall.Kill(w.Pid(), syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			case "another shape":
				c.Env = append(c.Env, "MORE=1")
			}
			c.Warm = w
			if out, _, err := bridge.RunArgv(context.Background(), c); err != nil || out != "cold 0 echo \n" {
				t.Fatalf("%q %v, want a cold start", out, err)
			}
			if w.Claimed() {
				t.Error("claimed")
			}
			if how == "killed" {
				gone(t, w.Pid())
			}
			if how == "another shape" {
				if err := syscall.Kill(w.Pid(), 0); err != nil {
					t.Errorf("the warm process of another shape: %v", err)
				}
			}
		})
	}
}

// TestWarmStopped: a contained command running in a warm process is
// killed when its ctx is done, as a cold one is.
func TestWarmStopped(t *testing.T) {
	c := warmCommand(t, "0 sleep")
	c.Contain = true
	c.Warm = startWarm(t, c)
	started := make(chan struct{})
	var once sync.Once
	c.Output = func(p []byte, stderr bool) { once.Do(func() { close(started) }) }
	p, err := bridge.StartArgv(c)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(liveness):
		t.Fatal("the command did not start")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("the kill switch")
	cancel(stop)
	out, _, err := p.Wait(ctx)
	if !errors.Is(err, stop) || !strings.HasPrefix(out, "warm 0 sleep") {
		t.Fatalf("%q %v, want the warm command stopped", out, err)
	}
	gone(t, p.Pid())
}

// TestStartWarmRefuses: a warm process's shape carries nothing that is
// the command's own.
func TestStartWarmRefuses(t *testing.T) {
	c := warmCommand(t, "0 echo")
	for name, change := range map[string]func(*bridge.Command){
		"extra files": func(c *bridge.Command) {},
		"stdin":       func(c *bridge.Command) { c.ExtraFiles, c.Stdin = nil, "x" },
		"linger":      func(c *bridge.Command) { c.ExtraFiles, c.Linger = nil, true },
		"output":      func(c *bridge.Command) { c.ExtraFiles, c.Output = nil, func([]byte, bool) {} },
	} {
		s := c
		change(&s)
		if w, err := bridge.StartWarm(s, []string{c.Argv[0], bridge.HelperFlag, "warm"}); err == nil {
			w.Close()
			t.Errorf("%s: started", name)
		}
	}
	if _, err := bridge.StartWarm(bridge.Command{}, nil); err == nil {
		t.Error("no program: started")
	}
}

// TestWarmLateAckRunsOnce: a warm process that says it took its command
// later than the gate waits is stopped, and the command then starts cold
// only if it had not taken it: a command runs once at most, and claiming
// never hangs, however the ack and the gate's deadline fall. The stand-in
// marks a file once it has its command (after its ack); the deadlines range
// from at once to longer than a handover takes, so that rounds fall before,
// around and after the ack.
func TestWarmLateAckRunsOnce(t *testing.T) {
	for _, wait := range []time.Duration{time.Nanosecond, 50 * time.Microsecond, 200 * time.Microsecond, time.Millisecond, 50 * time.Millisecond} {
		restore := bridge.SetAckWait(wait)
		for i := range 6 {
			marks := filepath.Join(t.TempDir(), "marks")
			c := warmCommand(t, "0 mark")
			// No second's sleep at the exit of each stand-in built with -race.
			c.Env = append(c.Env, "BRIDGE_MARK="+marks, "GORACE=atexit_sleep_ms=0")
			c.Warm = startWarm(t, c)
			_, _, _ = bridge.RunArgv(context.Background(), c)
			gone(t, c.Warm.Pid())
			b, err := os.ReadFile(marks)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			if n := strings.Count(string(b), "\n"); n > 1 {
				t.Fatalf("deadline %v, round %d: the command ran %d times: %q", wait, i, n, b)
			}
		}
		restore()
	}
}
