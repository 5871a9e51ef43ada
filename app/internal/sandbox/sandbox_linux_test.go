//go:build linux

package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/creack/pty"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// The tests run the real launcher: this test binary started again with
// sandbox.LaunchFlag (TestMain hands it to sandbox.Main, as app/main.go
// does). What a confined program tries is done by this binary too, copied
// into the test's home so that it may run there, in helper mode.

const helperEnv = "AIRLOCK_SANDBOX_TEST_HELPER"

func TestMain(m *testing.M) {
	if code, ok := sandbox.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	if home := os.Getenv(gateEnv); home != "" {
		os.Exit(warmGate(home))
	}
	// The confined copy is called "helper": its environment is the
	// sandbox's (which passes no variable of the test's own).
	if (os.Getenv(helperEnv) == "1" || filepath.Base(os.Args[0]) == "helper") && len(os.Args) > 1 {
		os.Exit(helper(os.Args[1], os.Args[2:]))
	}
	code := m.Run()
	removeBuilt()
	os.Exit(code)
}

// helper is what a confined program tries, printed one result a line as
// "what: ok" or "what: error".
func helper(mode string, args []string) int {
	report := func(what string, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
			return
		}
		fmt.Printf("%s: ok\n", what)
	}
	switch mode {
	case "sockets":
		try := func(what string, domain, typ int, pair bool) {
			var err error
			if pair {
				var fds [2]int
				fds, err = unix.Socketpair(domain, typ, 0)
				if err == nil {
					unix.Close(fds[0])
					unix.Close(fds[1])
				}
			} else {
				var fd int
				fd, err = unix.Socket(domain, typ, 0)
				if err == nil {
					unix.Close(fd)
				}
			}
			report(what, err)
		}
		try("unix stream", unix.AF_UNIX, unix.SOCK_STREAM, false)
		try("unix datagram", unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, false)
		try("inet stream", unix.AF_INET, unix.SOCK_STREAM, false)
		try("stream pair", unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, true)
		try("datagram pair", unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, true)
		var params [120]byte
		_, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafePointer(&params)), 0)
		if e != 0 {
			report("io_uring", e)
		} else {
			report("io_uring", nil)
		}
	case "connect":
		c, err := net.Dial("unix", args[0])
		if err == nil {
			c.Close()
		}
		report("connect", err)
	case "tty":
		f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		report("open /dev/tty", err)
		fds := map[string]uintptr{"0": 0, "1": 1, "2": 2}
		if err == nil {
			defer f.Close()
			fds["/dev/tty"] = f.Fd()
		}
		for _, name := range []string{"0", "1", "2", "/dev/tty"} {
			fd, ok := fds[name]
			if !ok {
				continue
			}
			c := byte('\n')
			_, _, e := unix.Syscall(unix.SYS_IOCTL, fd, unix.TIOCSTI, uintptr(unsafePointer(&c)))
			if e != 0 {
				report("TIOCSTI on "+name, e)
			} else {
				report("TIOCSTI on "+name, nil)
			}
		}
	case "tty-check":
		// Run in a process whose controlling terminal is a pty: the helper
		// "tty" once unconfined and once confined.
		home := args[0]
		env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, helperEnv + "=1"}
		box, err := sandbox.New(sandbox.Settings{Home: home, Roots: []string{filepath.Join(home, "Documents")}, Env: env}, "")
		if err != nil {
			report("box", err)
			return 1
		}
		argv := []string{filepath.Join(home, "bin", "helper"), "tty"}
		out, _, err := bridge.RunArgv(context.Background(), bridge.Command{Argv: argv, Env: env})
		fmt.Printf("== unconfined\n%s(%v)\n", out, err)
		c, done, err := box.Confine(bridge.Command{Argv: argv}, sandbox.KindCommand, sandbox.Grant{})
		if err != nil {
			report("confine", err)
			return 1
		}
		out, _, err = bridge.RunArgv(context.Background(), c)
		done()
		fmt.Printf("== confined\n%s(%v)\nend\n", out, err)
	case "signal":
		pid, _ := strconv.Atoi(args[0])
		report("kill -STOP", unix.Kill(pid, unix.SIGSTOP))
	case "caps":
		b, err := os.ReadFile("/proc/self/status")
		if err != nil {
			report("status", err)
			return 1
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "Cap") || strings.HasPrefix(line, "NoNewPrivs") {
				fmt.Println(line)
			}
		}
	default:
		if code, ok := netHelper(mode, args); ok {
			return code
		}
		if code, ok := overlayHelper(mode, args); ok {
			return code
		}
		fmt.Printf("unknown helper mode %q\n", mode)
		return 2
	}
	return 0
}

// rig is one user's machine: a home in a temporary folder with the sandbox
// root ~/Documents, Airlock's data directory (settings, history, socket,
// and the staging folder of layers), an SSH key, and the helper program in
// ~/bin.
type rig struct {
	home, docs, data, helper string
	box                      *sandbox.Box
	settings                 sandbox.Settings
}

func newRig(t testing.TB, extraEnv ...string) *rig {
	t.Helper()
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < 3 {
		t.Skipf("the kernel has no Landlock ABI 3 or newer (ABI %d, %v): the sandbox cannot run here", abi, err)
	}
	r := &rig{home: t.TempDir()}
	r.docs = filepath.Join(r.home, "Documents")
	r.data = filepath.Join(r.home, ".local", "share", "airlock")
	for _, d := range []string{r.docs, r.data, filepath.Join(r.home, ".ssh"), filepath.Join(r.home, "bin")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(r.data, "settings.json"), `{"autonomy": 1}`)
	write(t, filepath.Join(r.data, "history.db"), "the history")
	write(t, filepath.Join(r.home, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r.helper = filepath.Join(r.home, "bin", "helper")
	copyFile(t, self, r.helper, 0o755)
	env := append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + r.home, helperEnv + "=1"}, extraEnv...)
	r.settings = sandbox.Settings{Home: r.home, Roots: []string{r.docs}, Own: []string{r.data}, Env: env,
		Staging: filepath.Join(r.data, "layers")}
	r.box, err = sandbox.New(r.settings, "")
	if err != nil {
		t.Fatal(err)
	}
	b := r.box
	t.Cleanup(b.Close) // no folder made ahead is left behind
	if err := r.box.Available(); err != nil {
		t.Fatalf("the kernel has Landlock, but the sandbox does not start: %v", err)
	}
	return r
}

// run runs argv confined with g and returns its output.
func (r *rig) run(t *testing.T, g sandbox.Grant, argv ...string) (stdout, stderr string, err error) {
	t.Helper()
	c, done, err := r.box.Confine(bridge.Command{Argv: argv, Dir: r.home}, sandbox.KindCommand, g)
	if err != nil {
		t.Fatalf("confining %q: %v", argv, err)
	}
	defer done()
	return bridge.RunArgv(context.Background(), c)
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t testing.TB, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	// No process starts while the copy is open for writing: one forked
	// now (a Box starts warm launchers in the background) would hold it
	// open until its exec, and running the copy then fails with ETXTBSY.
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestConfinedCommand(t *testing.T) {
	r := newRig(t)
	out, _, err := r.run(t, sandbox.Grant{}, "sh", "-c", `printf '%s|%s|%s' "$(pwd)" "$TMPDIR" "$(cat)"`)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(out, "|")
	if len(parts) != 3 || parts[0] != r.home || !strings.Contains(parts[1], "airlock-action-") || parts[2] != "" {
		t.Fatalf("pwd|TMPDIR|stdin = %q", out)
	}
	// The exit status and the program's name come through the launcher.
	_, _, err = r.run(t, sandbox.Grant{}, "sh", "-c", "echo failing >&2; exit 3")
	var ee *bridge.ExitError
	if !errors.As(err, &ee) || ee.Code != 3 || ee.Program != "sh" || ee.LastLine != "failing" {
		t.Fatalf("err = %#v", err)
	}
	_, _, err = r.run(t, sandbox.Grant{}, "no-such-program-anywhere")
	if !errors.As(err, &ee) || ee.Code != 127 || !strings.Contains(ee.LastLine, "not found") {
		t.Fatalf("a missing program: %v", err)
	}
	// No capabilities, even as root inside; no new privileges.
	out, _, err = r.run(t, sandbox.Grant{}, r.helper, "caps")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CapInh:\t0000000000000000", "CapPrm:\t0000000000000000", "CapEff:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the program's status lacks %q:\n%s", want, out)
		}
	}
}

// TestWritesStayInTheRoots: a confined program writes in the sandbox roots
// and its own temporary folder, and nowhere else, whatever the analyzer
// said; its temporary folder is gone once it has ended.
func TestWritesStayInTheRoots(t *testing.T) {
	r := newRig(t)
	outside := t.TempDir()
	script := `echo a > "$HOME/Documents/ok.txt" && echo root-ok
mkdir "$HOME/Documents/sub" && mv "$HOME/Documents/ok.txt" "$HOME/Documents/sub/" && echo move-ok
echo b > "$TMPDIR/t" && echo temp-ok && echo "$TMPDIR"
echo c > "$HOME/home.txt" || echo home-refused
echo d > "$1/outside.txt" || echo outside-refused
truncate -s 0 "$HOME/.profile-like" || echo truncate-refused`
	write(t, filepath.Join(r.home, ".profile-like"), "keep me")
	out, _, err := r.run(t, sandbox.Grant{}, "sh", "-c", script, "sh", outside)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"root-ok", "move-ok", "temp-ok", "home-refused", "outside-refused", "truncate-refused"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	for _, p := range []string{filepath.Join(r.home, "home.txt"), filepath.Join(outside, "outside.txt")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was written (%v)", p, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(r.home, ".profile-like")); string(b) != "keep me" {
		t.Errorf("a read-only file was truncated: %q", b)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	tmp := ""
	for i, l := range lines {
		if l == "temp-ok" && i+1 < len(lines) {
			tmp = lines[i+1]
		}
	}
	if tmp == "" {
		t.Fatalf("no temporary folder reported:\n%s", out)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the action's temporary folder %s outlived it (%v)", tmp, err)
	}
}

// TestOwnFilesAndCredentialStores is the settings rewrite and the history
// move of issue 12, tried at the sandbox layer, as if the analyzer had
// rated them caution (as it did before the issue): the sandbox refuses
// them anyway, and neither the data directory's files, its socket nor the
// SSH key can be reached.
func TestOwnFilesAndCredentialStores(t *testing.T) {
	r := newRig(t)
	evil, err := os.ReadFile(filepath.Join("testdata", "attacks", "evil-settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(r.docs, "evil-settings.json"), string(evil))
	ln, err := net.Listen("unix", filepath.Join(r.data, "gate.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	settings := filepath.Join(r.data, "settings.json")
	attacks := []struct {
		name string
		argv []string
	}{
		{"rewrite the settings", []string{"cp", filepath.Join(r.docs, "evil-settings.json"), settings}},
		{"replace the settings by a rename", []string{"mv", filepath.Join(r.docs, "evil-settings.json"), settings}},
		{"move the history away", []string{"mv", filepath.Join(r.data, "history.db"), r.docs}},
		{"copy the history out", []string{"cp", filepath.Join(r.data, "history.db"), r.docs}},
		{"read the settings", []string{"cat", settings}},
		{"list the data directory", []string{"ls", "-A", r.data}},
		{"read the SSH key", []string{"cat", filepath.Join(r.home, ".ssh", "id_rsa")}},
		{"copy the SSH key into a root", []string{"cp", filepath.Join(r.home, ".ssh", "id_rsa"), r.docs}},
		{"reach the gate's socket", []string{r.helper, "connect", filepath.Join(r.data, "gate.sock")}},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			out, stderr, _ := r.run(t, sandbox.Grant{}, a.argv...)
			for _, secret := range []string{"autonomy", "the history", "OPENSSH", "settings.json", "connect: ok"} {
				if strings.Contains(out, secret) {
					t.Errorf("%q printed %q:\n%s%s", a.argv, secret, out, stderr)
				}
			}
		})
	}
	if b, err := os.ReadFile(settings); err != nil || string(b) != `{"autonomy": 1}` {
		t.Errorf("settings.json is now %q (%v)", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(r.data, "history.db")); err != nil || string(b) != "the history" {
		t.Errorf("history.db is now %q (%v)", b, err)
	}
	for _, leaked := range []string{"history.db", "id_rsa"} {
		if _, err := os.Stat(filepath.Join(r.docs, leaked)); !os.IsNotExist(err) {
			t.Errorf("%s was copied into ~/Documents (%v)", leaked, err)
		}
	}
}

// TestLocalSockets: without the UI grant a confined program can make no
// local socket (so it reaches no display, bus, terminal multiplexer or
// agent, by path or abstract name), while the network and socket pairs
// stay; with the grant local sockets work.
func TestLocalSockets(t *testing.T) {
	r := newRig(t)
	out, _, err := r.run(t, sandbox.Grant{}, r.helper, "sockets")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []string{"unix stream: permission denied", "unix datagram: permission denied", "inet stream: ok",
		"stream pair: ok", "datagram pair: permission denied", "io_uring: function not implemented"}
	for _, w := range want {
		if !strings.Contains(out, w+"\n") {
			t.Errorf("without the UI grant, output lacks %q:\n%s", w, out)
		}
	}
	out, _, err = r.run(t, sandbox.Grant{Approved: true, UI: true}, r.helper, "sockets")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, w := range []string{"unix stream: ok", "datagram pair: ok"} {
		if !strings.Contains(out, w+"\n") {
			t.Errorf("with the UI grant, output lacks %q:\n%s", w, out)
		}
	}
}

// TestSessionBusHidden: the session bus's socket (a private one here) is
// out of reach, and its address out of the environment, unless the UI is
// granted.
func TestSessionBusHidden(t *testing.T) {
	sockDir := t.TempDir()
	bus := filepath.Join(sockDir, "bus")
	ln, err := net.Listen("unix", bus)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	r := newRig(t, "DBUS_SESSION_BUS_ADDRESS=unix:path="+bus, "DISPLAY=:4242")
	script := `echo "bus=$DBUS_SESSION_BUS_ADDRESS display=$DISPLAY"; ls -A "$1" | tr '\n' ' '; echo; "$2" connect "$3"`
	out, _, _ := r.run(t, sandbox.Grant{}, "sh", "-c", script, "sh", sockDir, r.helper, bus)
	if !strings.Contains(out, "bus= display=\n") || strings.Contains(out, "connect: ok") {
		t.Errorf("without the UI grant the bus is reachable:\n%s", out)
	}
	out, _, _ = r.run(t, sandbox.Grant{Approved: true, UI: true}, "sh", "-c", script, "sh", sockDir, r.helper, bus)
	if !strings.Contains(out, "bus=unix:path="+bus+" display=:4242\n") || !strings.Contains(out, "connect: ok") {
		t.Errorf("with the UI grant the bus is not reachable:\n%s", out)
	}
}

// TestNoTerminal: a confined program has no controlling terminal and no
// terminal device, so it cannot type into the terminal Airlock runs in
// (TIOCSTI), as the same program run unconfined from that terminal can.
func TestNoTerminal(t *testing.T) {
	r := newRig(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "tty-check", r.home)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + r.home, helperEnv + "=1"}
	ptmx, err := pty.Start(cmd) // a session of its own with the pty as its terminal
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	out, _ := io.ReadAll(ptmx) // until the child exits (EIO)
	cmd.Wait()
	text := strings.ReplaceAll(string(out), "\r\n", "\n")
	unconfined, confined, ok := strings.Cut(text, "== confined\n")
	if !ok || !strings.Contains(confined, "\nend") {
		t.Fatalf("the check did not finish:\n%s", text)
	}
	if !strings.Contains(unconfined, "TIOCSTI on /dev/tty: ok") {
		t.Fatalf("unconfined, the program cannot inject into its terminal either, so this test proves nothing "+
			"(dev.tty.legacy_tiocsti off?):\n%s", unconfined)
	}
	if strings.Contains(confined, ": ok") || !strings.Contains(confined, "open /dev/tty: ") {
		t.Fatalf("confined, a terminal is reachable:\n%s", confined)
	}
}

// TestSignalsStayInside: the program cannot stop or kill a process outside
// its sandbox (here a stand-in for the gate).
func TestSignalsStayInside(t *testing.T) {
	r := newRig(t)
	gate := exec.Command("sleep", "60")
	if err := gate.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { gate.Process.Kill(); gate.Wait() }()
	pid := strconv.Itoa(gate.Process.Pid)
	out, _, _ := r.run(t, sandbox.Grant{}, r.helper, "signal", pid)
	if strings.Contains(out, "kill -STOP: ok") {
		t.Errorf("the program stopped a process outside: %s", out)
	}
	out2, _, _ := r.run(t, sandbox.Grant{}, "kill", "-STOP", pid)
	if st := procState(t, gate.Process.Pid); st == "T" {
		t.Fatalf("the process outside was stopped (%s %s)", out, out2)
	}
}

// procState reads a process's state letter from /proc.
func procState(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return fields[0]
}

// TestNothingOutlivesTheProgram: what a program leaves running, even in a
// session of its own (where it may make one: an approved action; setsid
// is refused to one that runs unasked), ends with it; and when the kill
// switch cancels it, its whole sandbox ends at once.
func TestNothingOutlivesTheProgram(t *testing.T) {
	for _, g := range []sandbox.Grant{{Approved: true}, {}} {
		t.Run(fmt.Sprintf("approved=%v", g.Approved), func(t *testing.T) { nothingOutlives(t, g) })
	}
}

// setsidIfAllowed is a shell prefix: setsid where the action may call it,
// else nothing (the process then stays in the action's session).
const setsidIfAllowed = `S=setsid; setsid true 2>/dev/null || S=; `

func nothingOutlives(t *testing.T, g sandbox.Grant) {
	r := newRig(t)
	mark := fmt.Sprintf("313.%d", os.Getpid())
	if _, _, err := r.run(t, g, "sh", "-c", setsidIfAllowed+"$S sleep "+mark+" & exit 0"); err != nil {
		t.Fatal(err)
	}
	if pids := findProcesses(t, "sleep "+mark); len(pids) > 0 {
		t.Fatalf("processes left running after the program ended: %v", pids)
	}

	mark2 := fmt.Sprintf("314.%d", os.Getpid())
	c, done, err := r.box.Confine(bridge.Command{Argv: []string{"sh", "-c", setsidIfAllowed + "$S sleep " + mark2 + " & exec sleep " + mark2}}, sandbox.KindCommand, g)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	p, err := bridge.StartArgv(c)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(findProcesses(t, "sleep "+mark2)) < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the program's processes never appeared")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the kill switch
	start := time.Now()
	if _, _, err := p.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait: %v", err)
	}
	took := time.Since(start)
	if pids := findProcesses(t, "sleep "+mark2); len(pids) > 0 {
		t.Fatalf("processes left running after the kill: %v", pids)
	}
	t.Logf("the kill took %v", took)
	if took > time.Second {
		t.Errorf("the kill took %v", took)
	}
}

// findProcesses returns the pids whose command line holds s (arguments
// joined by spaces), zombies excluded.
func findProcesses(t *testing.T, s string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(bytes.ReplaceAll(b, []byte{0}, []byte{' '}), []byte(s)) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && strings.Contains(string(st), ") Z ") {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// TestUnavailableFailsClosed: where the sandbox cannot start, an action the
// person did not approve is refused, and an approved one runs in a session
// of its own without the display and bus variables.
func TestUnavailableFailsClosed(t *testing.T) {
	home := t.TempDir()
	s := sandbox.Settings{Home: home, Env: []string{"PATH=/usr/bin:/bin", "HOME=" + home, "DISPLAY=:0"}}
	box, err := sandbox.New(s, filepath.Join(home, "no-launcher"))
	if err != nil {
		t.Fatal(err)
	}
	if box.Available() == nil {
		t.Fatal("a missing launcher is available")
	}
	if !strings.HasPrefix(box.String(), "unavailable: ") {
		t.Errorf("String() = %q", box.String())
	}
	if _, _, err := box.Confine(bridge.Command{Argv: []string{"true"}}, sandbox.KindCommand, sandbox.Grant{}); !errors.Is(err, sandbox.ErrUnavailable) {
		t.Fatalf("unapproved: %v", err)
	}
	c, done, err := box.Confine(bridge.Command{Argv: []string{"sh", "-c", "echo display=$DISPLAY; tty"}}, sandbox.KindCommand, sandbox.Grant{Approved: true})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if !c.NewSession || c.Namespaces {
		t.Errorf("approved without a sandbox: %+v", c)
	}
	out, _, _ := bridge.RunArgv(context.Background(), c)
	if !strings.Contains(out, "display=\n") || !strings.Contains(out, "not a tty") {
		t.Errorf("output:\n%s", out)
	}
}

// TestLauncherNeedsItsNamespaces: the launcher started by hand, outside
// namespaces of its own, refuses rather than run anything unconfined.
func TestLauncherNeedsItsNamespaces(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, sandbox.LaunchFlag)
	f, err := os.CreateTemp(t.TempDir(), "spec")
	if err != nil {
		t.Fatal(err)
	}
	f.Write(launcher.EncodeSpec(launcher.Spec{Version: launcher.SpecVersion, Profile: sandbox.Profile{Kind: "command"}, Argv: []string{"true"}}))
	f.Seek(0, 0)
	cmd.ExtraFiles = []*os.File{f}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 125 || !strings.Contains(string(out), "namespaces of its own") {
		t.Fatalf("%v: %s", err, out)
	}
	cmd = exec.Command(self, sandbox.LaunchFlag)
	out, err = cmd.CombinedOutput()
	if !errors.As(err, &ee) || ee.ExitCode() != 125 || !strings.Contains(string(out), "profile") {
		t.Fatalf("no profile: %v: %s", err, out)
	}

	// PID 1 of a PID namespace, but in the user namespace everything runs
	// in (only root can start that; a mount namespace of its own keeps the
	// machine's mounts out of reach if the check failed).
	f.Seek(0, 0)
	cmd = exec.Command(self, sandbox.LaunchFlag)
	cmd.ExtraFiles = []*os.File{f}
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWPID | syscall.CLONE_NEWNS}
	out, err = cmd.CombinedOutput()
	if errors.Is(err, syscall.EPERM) {
		t.Skipf("starting a PID namespace without a user namespace needs root: %v", err)
	}
	if !errors.As(err, &ee) || ee.ExitCode() != 125 || !strings.Contains(string(out), "user namespace is not its own") {
		t.Fatalf("in the machine's user namespace: %v: %s", err, out)
	}
}

func unsafePointer[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
