package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
)

// The test binary doubles as the AppleScript helper: with BRIDGE_STANDIN
// set and bridge.HelperFlag as its first argument it serves one request the
// way `airlock --applescript-helper` does, with a stand-in interpreter
// instead of NSAppleScript, or misbehaves as BRIDGE_STANDIN says.
func TestMain(m *testing.M) {
	if mode := os.Getenv("BRIDGE_STANDIN"); mode != "" && len(os.Args) > 1 && os.Args[1] == bridge.HelperFlag {
		os.Exit(standIn(mode))
	}
	os.Exit(m.Run())
}

func standIn(mode string) int {
	switch mode {
	case "serve":
		return bridge.ServeHelper(os.Stdin, os.Stdout, os.Args[2:], standInInterpreter)
	case "garbage":
		fmt.Println("Segmentation fault? no: just not JSON")
		return 0
	case "trailing":
		fmt.Println(`{"ok":true,"result":"x"} {"ok":true}`)
		return 0
	case "two-kinds":
		fmt.Println(`{"ok":true,"result":"x","problem":"also a problem"}`)
		return 0
	case "huge":
		chunk := bytes.Repeat([]byte(`{"ok":true,"result":"`), 1<<14)
		for range 64 { // 20 MB, five times the cap
			os.Stdout.Write(chunk)
		}
		return 0
	case "crash":
		fmt.Fprintln(os.Stderr, "helper: something broke")
		return 3
	case "warm":
		return warmStandIn(os.Args[2:])
	case "spawn":
		return spawnStandIn()
	}
	return 99
}

// standInInterpreter answers by the script's first word.
func standInInterpreter(src string, argv []string, compile bool) (string, error) {
	word, rest, _ := strings.Cut(src, " ")
	switch word {
	case "echo": // the arguments, as the run handler saw them
		if compile {
			return "", nil
		}
		b, _ := json.Marshal(argv)
		return string(b), nil
	case "fail": // fail NUMBER MESSAGE
		num, msg, _ := strings.Cut(rest, " ")
		n, _ := strconv.Atoi(num)
		return "", &bridge.ScriptError{Number: n, Message: msg, App: "Mail", Compile: compile}
	case "big": // a result larger than the helper passes on
		return strings.Repeat("é", 700_000), nil
	case "tree": // tree PIDFILE: a child in the group, then wait forever
		cmd := exec.Command("sleep", "100")
		if err := cmd.Start(); err != nil {
			return "", err
		}
		pids := fmt.Sprintf("%d\n%d\n", os.Getpid(), cmd.Process.Pid)
		if err := os.WriteFile(rest, []byte(pids), 0o600); err != nil {
			return "", err
		}
		select {}
	case "sleep":
		time.Sleep(time.Hour)
	}
	return "", fmt.Errorf("the stand-in does not know %q", word)
}

// helperDesktop returns a Desktop whose helper is this test binary in mode.
func helperDesktop(t *testing.T, mode string, timeout time.Duration) *bridge.Desktop {
	t.Helper()
	d, err := bridge.NewDesktop(bridge.Options{Helper: osArgs0(), ScriptTimeout: timeout, Env: standInEnv(mode)})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func osArgs0() string { return os.Args[0] }

// standInEnv makes the test binary, run as the helper, behave as mode.
// atexit_sleep_ms: a race-enabled child would wait a second before exiting.
func standInEnv(mode string) []string {
	return append(os.Environ(), "BRIDGE_STANDIN="+mode, "GORACE=atexit_sleep_ms=0")
}

func TestHelperProtocol(t *testing.T) {
	ctx := context.Background()
	argv := []string{`"; do shell script "id`, "two words", "", "ünïcode ☃", "line\nbreak"}
	tests := []struct {
		name    string
		mode    string
		src     string
		argv    []string
		compile bool
		want    string // the result
		wantErr string // a part of the error; "" means success
		wantSE  int    // the number of the *ScriptError wanted; 0 means none
	}{
		{name: "argv arrives intact", mode: "serve", src: "echo", argv: argv, want: mustJSON(argv)},
		{name: "no argv is an empty list", mode: "serve", src: "echo", want: "[]"},
		{name: "compile only", mode: "serve", src: "echo", compile: true, want: ""},
		{name: "script error", mode: "serve", src: "fail -1743 Not authorized to send Apple events to Mail.", wantSE: -1743,
			wantErr: "Privacy & Security → Automation"},
		{name: "compile error", mode: "serve", src: "fail -2741 Expected end of line but found identifier.", compile: true, wantSE: -2741,
			wantErr: "does not compile"},
		{name: "unknown script", mode: "serve", src: "dance", wantErr: "could not run the script: the stand-in does not know"},
		{name: "NUL in the source", mode: "serve", src: "echo\x00 rest", wantErr: "NUL"},
		{name: "NUL in an argument", mode: "serve", src: "echo", argv: []string{"a\x00b"}, wantErr: "argument 1 holds a NUL"},
		{name: "invalid UTF-8", mode: "serve", src: "echo", argv: []string{"\xff"}, wantErr: "not valid UTF-8"},
		{name: "malformed answer", mode: "garbage", src: "echo", wantErr: "answer is not valid"},
		{name: "something after the answer", mode: "trailing", src: "echo", wantErr: "answer is not valid"},
		{name: "two kinds of answer", mode: "two-kinds", src: "echo", wantErr: "answer is not valid"},
		{name: "huge answer", mode: "huge", src: "echo", wantErr: "more than 4194304 bytes"},
		{name: "crash without an answer", mode: "crash", src: "echo", wantErr: "exited with status 3: helper: something broke"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := helperDesktop(t, tt.mode, 0)
			got, err := bridge.RunHelper(ctx, d, tt.src, tt.argv, tt.compile)
			var se *bridge.ScriptError
			if tt.wantSE != 0 {
				if !errors.As(err, &se) || se.Number != tt.wantSE || se.Compile != tt.compile {
					t.Fatalf("err = %v, want a *ScriptError %d (compile %v)", err, tt.wantSE, tt.compile)
				}
			} else if errors.As(err, &se) {
				t.Fatalf("err = %v, a *ScriptError", err)
			}
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Fatalf("got %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// A result over the helper's limit comes back cut at a character boundary.
func TestHelperTruncatesResult(t *testing.T) {
	got, err := bridge.RunHelper(context.Background(), helperDesktop(t, "serve", 0), "big", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if got != strings.Repeat("é", 1<<19) {
		t.Fatalf("result of %d bytes, want the first 1 MiB of it, in whole characters", len(got))
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "?") == s }

// The script timeout kills the helper's whole group.
func TestHelperTimeout(t *testing.T) {
	needProc(t)
	pidFile := filepath.Join(t.TempDir(), "pids")
	d := helperDesktop(t, "serve", bridge.MinScriptTimeout)
	_, err := bridge.RunHelper(context.Background(), d, "tree "+pidFile, nil, false)
	if !errors.Is(err, bridge.ErrScriptTimeout) {
		t.Fatalf("err = %v, want ErrScriptTimeout", err)
	}
	pids := readPids(t, pidFile)
	waitGone(t, pids[0], pids)
}

// Cancelling the context (the kill switch) kills the helper's whole group at
// once and the error wraps the cause.
func TestHelperKill(t *testing.T) {
	needProc(t)
	pidFile := filepath.Join(t.TempDir(), "pids")
	killed := errors.New("kill switch")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	done := make(chan error, 1)
	go func() {
		_, err := bridge.RunHelper(ctx, helperDesktop(t, "serve", bridge.MaxScriptTimeout), "tree "+pidFile, nil, false)
		done <- err
	}()
	var pids []int
	deadline := time.Now().Add(liveness)
	for len(pids) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the helper did not start its tree")
		}
		time.Sleep(5 * time.Millisecond)
		pids = readPidsIfAny(pidFile)
	}
	cancel(killed)
	select {
	case err := <-done:
		if !errors.Is(err, killed) || errors.Is(err, bridge.ErrScriptTimeout) {
			t.Fatalf("err = %v, want the kill switch's cause", err)
		}
	case <-time.After(liveness):
		t.Fatal("RunHelper did not return after its context was cancelled")
	}
	waitGone(t, pids[0], pids)
}

func readPidsIfAny(file string) []int {
	b, _ := os.ReadFile(file)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	if len(pids) < 2 {
		return nil
	}
	return pids
}

func readPids(t *testing.T, file string) []int {
	t.Helper()
	pids := readPidsIfAny(file)
	if pids == nil {
		t.Fatalf("no pids in %s", file)
	}
	return pids
}

// The helper takes no arguments: everything comes as JSON on stdin.
func TestServeHelperRequests(t *testing.T) {
	echo := func(src string, argv []string, compile bool) (string, error) { return mustJSON(argv), nil }
	tests := []struct {
		name     string
		args     []string
		stdin    string
		wantCode int
		want     string // a part of stdout
	}{
		{"ok", nil, `{"source":"x","argv":["a"]}`, 0, `{"ok":true,"result":"[\"a\"]"}`},
		{"an argument", []string{"--", "x"}, `{"source":"x","argv":[]}`, 2, `"problem":"the helper takes no arguments`},
		{"not JSON", nil, `tell app "Finder"`, 2, `"problem":"the request is not valid`},
		{"unknown field", nil, `{"source":"x","argv":[],"shell":"id"}`, 2, `unknown field`},
		{"two requests", nil, `{"source":"x"} {"source":"y"}`, 2, `something follows`},
		{"NUL", nil, `{"source":"x\u0000y"}`, 2, `NUL byte`},
		{"too large", nil, `{"source":"` + strings.Repeat("x", 16<<20) + `"}`, 2, `larger than`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			code := bridge.ServeHelper(strings.NewReader(tt.stdin), &out, tt.args, echo)
			if code != tt.wantCode || !strings.Contains(out.String(), tt.want) || strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("exit %d, stdout %.200q; want %d and %q on one line", code, out.String(), tt.wantCode, tt.want)
			}
			if ok, err := bridge.DecodeAnswer(out.Bytes()); !ok {
				t.Fatalf("the helper's own answer does not decode: %v", err)
			}
		})
	}
}

// Outside macOS the real helper answers that it needs macOS, and the
// Desktop reports that as unavailable.
func TestAppleScriptHelperNeedsMacOS(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("on macOS the helper runs NSAppleScript")
	}
	var out bytes.Buffer
	code := bridge.AppleScriptHelper(strings.NewReader(`{"source":"beep","argv":[]}`), &out, nil)
	if code != 2 || !strings.Contains(out.String(), `"problem":"run AppleScript: needs macOS","unavailable":true`) {
		t.Fatalf("exit %d, %s", code, out.String())
	}
}

func FuzzHelperAnswer(f *testing.F) {
	for _, s := range []string{`{"ok":true,"result":"x"}`, `{"error":{"number":-1743,"message":"m"}}`,
		`{"problem":"p","unavailable":true}`, `{"ok":true,"problem":"p"}`, `{}`, `[]`, `{"ok":true} x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ok, _ := bridge.DecodeAnswer(b)
		if !ok {
			return
		}
		// Whatever is accepted is one well-formed JSON object.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("accepted %q, which is not one JSON object: %v", b, err)
		}
		kinds := 0
		for _, k := range []string{"ok", "error", "problem"} {
			if v, set := m[k]; set && string(v) != "false" && string(v) != `""` && string(v) != "null" {
				kinds++
			}
		}
		if kinds != 1 {
			t.Fatalf("accepted %q with %d kinds of answer", b, kinds)
		}
	})
}

func FuzzHelperRequest(f *testing.F) {
	for _, s := range []string{`{"source":"beep","argv":["a"]}`, `{"source":"x","compile":true}`, `{"source":"\u0000"}`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		src, argv, _, err := bridge.DecodeRequest(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, s := range append([]string{src}, argv...) {
			if strings.ContainsRune(s, 0) || !utf8Valid(s) {
				t.Fatalf("accepted %q holding %q", b, s)
			}
		}
	})
}
