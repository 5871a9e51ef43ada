package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The end-to-end tests run the real binary: `airlock serve` under a pty,
// inside a private D-Bus session with gnome-keyring holding the history's
// key, and `airlock run`, `history`, `kill` and `audit verify` as separate
// processes against it.

// buildAirlock builds the binary once per test binary, with the sandbox's
// launcher beside it as make build puts it (static on Linux).
var buildAirlock = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "airlock-e2e-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "airlock")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", errors.New("go build: " + string(out))
	}
	launch := exec.Command("go", "build", "-o", filepath.Join(dir, "airlock-launch"), "./cmd/airlock-launch")
	if runtime.GOOS == "linux" {
		launch.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	if out, err := launch.CombinedOutput(); err != nil {
		return "", errors.New("go build ./cmd/airlock-launch: " + string(out))
	}
	return bin, nil
})

// world is one user's machine: a home with the sandbox folders, a data
// directory, and the running gate.
type world struct {
	t    *testing.T
	bin  string
	home string
	env  []string

	ptmx *os.File
	gate *exec.Cmd
	mu   sync.Mutex
	tty  bytes.Buffer // everything the gate wrote to its terminal
	read int          // how much of tty expect has consumed
}

func newWorld(t *testing.T, settings string) *world {
	t.Helper()
	bin, err := buildAirlock()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	for _, d := range []string{"Documents", "Downloads", "Desktop", ".local/share"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(home, "airlock-data")
	if settings != "" {
		if err := os.MkdirAll(data, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, "settings.json"), []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "HOME", "AIRLOCK_DATA_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "AIRLOCK_LOG":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "AIRLOCK_DATA_DIR="+data, "XDG_DATA_HOME="+filepath.Join(home, ".local/share"),
		"AIRLOCK_LOG=stderr") // the app's log on its stderr, where the tests read it, not the machine's journal
	return &world{t: t, bin: bin, home: home, env: env}
}

// startGate runs `airlock serve --prompter=terminal` on a private D-Bus
// session with gnome-keyring, with a pty as its controlling terminal, and
// waits until it serves.
func (w *world) startGate() {
	w.t.Helper()
	newBus(w.t, w, false)
	w.launchGate()
}

// launchGate starts the gate on the world's bus (after stopGate: a restart
// with the same keyring).
func (w *world) launchGate() {
	w.t.Helper()
	cmd := exec.Command(w.bin, "serve", "--prompter=terminal")
	cmd.Env = w.env
	ptmx, err := pty.Start(cmd)
	if err != nil {
		w.t.Fatal(err)
	}
	w.ptmx, w.gate = ptmx, cmd
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			w.mu.Lock()
			w.tty.Write(buf[:n])
			w.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	w.t.Cleanup(w.stopGate)
	w.expect(regexp.MustCompile(`gate serving on`))
}

func (w *world) stopGate() {
	if w.gate == nil || w.gate.Process == nil {
		return
	}
	w.gate.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { w.gate.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		w.gate.Process.Kill()
		<-done
	}
	w.ptmx.Close()
	w.gate = nil
}

// expect waits for the gate's terminal to show re (after what earlier
// expects consumed) and returns the text up to the match's end.
func (w *world) expect(re *regexp.Regexp) string {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		text := w.tty.String()[w.read:]
		if loc := re.FindStringIndex(text); loc != nil {
			w.read += loc[1]
			w.mu.Unlock()
			return text[:loc[1]]
		}
		w.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t.Fatalf("the gate's terminal never showed %q; it shows:\n%s", re, w.tty.String()[w.read:])
	return ""
}

// answer types a line at the gate's terminal.
func (w *world) answer(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.ptmx, line+"\n"); err != nil {
		w.t.Fatal(err)
	}
}

// client runs an airlock client command and returns its output and exit
// status.
func (w *world) client(stdin string, args ...string) (string, int) {
	w.t.Helper()
	r := wait(w.t, w.clientAsync(stdin, args...))
	return r.out, r.code
}

// clientAsync starts a client and returns a channel with its result.
func (w *world) clientAsync(stdin string, args ...string) <-chan clientResult {
	return w.clientAsyncAt(w.bin, stdin, args...)
}

// clientAsyncAt is clientAsync with the program at bin.
func (w *world) clientAsyncAt(bin, stdin string, args ...string) <-chan clientResult {
	ch := make(chan clientResult, 1)
	go func() {
		cmd := exec.Command(bin, args...)
		cmd.Env = w.env
		cmd.Dir = w.home // a command runs where `airlock run` is typed
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			code = ee.ExitCode()
		case err != nil:
			out, code = []byte(err.Error()), -1
		}
		ch <- clientResult{string(out), code}
	}()
	return ch
}

type clientResult struct {
	out  string
	code int
}

func wait(t *testing.T, ch <-chan clientResult) clientResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("the client did not finish")
	}
	return clientResult{}
}

var approvePrompt = regexp.MustCompile(`Approve\? \[y/N`)

func TestEndToEndApproveDenyTimeoutKill(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, `{"approvalTimeout": "10s"}`)
	w.startGate()
	doc := filepath.Join(w.home, "Documents")

	// Approve: the dangerous write runs after the person says yes.
	run := w.clientAsync(`WRITE_FILE "~/Documents/approved.txt" "hello from the plan"`, "run", "-")
	shown := w.expect(approvePrompt)
	for _, want := range []string{"airlock run", "dangerous", "~/Documents/approved.txt"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the prompt does not show %q:\n%s", want, shown)
		}
	}
	w.answer("y")
	if r := wait(t, run); r.code != 0 || !strings.Contains(r.out, "ok") {
		t.Fatalf("approved run: exit %d\n%s", r.code, r.out)
	}
	if b, err := os.ReadFile(filepath.Join(doc, "approved.txt")); err != nil || string(b) != "hello from the plan" {
		t.Fatalf("approved.txt: %q, %v", b, err)
	}

	// A command runs without a shell: what looks like a substitution is text.
	if out, code := w.client("", "run", "--kind", "command", "--", "printf", "%s", "$(id)"); code != 0 || !strings.Contains(out, "$(id)") {
		t.Fatalf("command: exit %d\n%s", code, out)
	}

	// Deny: nothing is written.
	run = w.clientAsync(`WRITE_FILE "~/Documents/denied.txt" "no"`, "run", "-")
	w.expect(approvePrompt)
	w.answer("n")
	if r := wait(t, run); r.code != 1 || !strings.Contains(r.out, "denied") {
		t.Fatalf("denied run: exit %d\n%s", r.code, r.out)
	}
	if _, err := os.Stat(filepath.Join(doc, "denied.txt")); !os.IsNotExist(err) {
		t.Fatalf("denied.txt exists: %v", err)
	}

	// Timeout: nobody answers; recorded as timeout, not denied.
	run = w.clientAsync(`WRITE_FILE "~/Documents/late.txt" "late"`, "run", "-")
	w.expect(approvePrompt)
	if r := wait(t, run); r.code != 1 || !strings.Contains(r.out, "timeout") {
		t.Fatalf("timed-out run: exit %d\n%s", r.code, r.out)
	}

	// History shows all three, newest first.
	out, code := w.client("", "history", "--json")
	if code != 0 {
		t.Fatalf("history: exit %d\n%s", code, out)
	}
	var entries []map[string]any
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	if len(entries) != 4 {
		t.Fatalf("history has %d entries, want 4:\n%s", len(entries), out)
	}
	for _, want := range []string{"approved.txt", "denied.txt", "late.txt", "timeout", "denied", "approved"} {
		if !strings.Contains(out, want) {
			t.Errorf("history does not mention %q:\n%s", want, out)
		}
	}

	// Kill: a pending approval is withdrawn, and new work is refused.
	run = w.clientAsync(`WRITE_FILE "~/Documents/killed.txt" "k"`, "run", "-")
	w.expect(approvePrompt)
	if out, code := w.client("", "kill"); code != 0 || !strings.Contains(out, "killed") {
		t.Fatalf("kill: exit %d\n%s", code, out)
	}
	if r := wait(t, run); r.code != 1 || !strings.Contains(r.out, "killed") {
		t.Fatalf("run during the kill: exit %d\n%s", r.code, r.out)
	}
	if out, code := w.client(`NOTIFY "a" "b"`, "run", "-"); code != 1 || !strings.Contains(out, "killed") {
		t.Fatalf("run after the kill: exit %d\n%s", code, out)
	}
	if out, _ := w.client("", "status"); !strings.Contains(out, "KILLED") {
		t.Errorf("status after the kill:\n%s", out)
	}
	w.stopGate()

	// The audit chain verifies, with the key from the same keyring.
	if out, code := w.client("", "audit", "verify"); code != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("audit verify: exit %d\n%s", code, out)
	}
}

func TestClientsWithoutAGate(t *testing.T) {
	bin, err := buildAirlock()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "status")
	cmd.Env = append(os.Environ(), "AIRLOCK_DATA_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "airlock serve") {
		t.Fatalf("status with no gate: %v\n%s", err, out)
	}
	_ = context.Background
}
