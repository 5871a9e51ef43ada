package bridge_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
)

// A shim stands in for a tool that cannot run here: it records its
// arguments, exactly, and its standard input, then runs body.

// shims is a folder of shims and where they record.
type shims struct {
	bin, rec string
}

func newShims(t *testing.T) *shims {
	t.Helper()
	dir := t.TempDir()
	s := &shims{bin: filepath.Join(dir, "bin"), rec: filepath.Join(dir, "rec")}
	for _, d := range []string{s.bin, s.rec} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// add writes the shim name; body runs after the recording, with the
// arguments still in "$@".
func (s *shims) add(t *testing.T, name, body string) string {
	t.Helper()
	script := "#!/bin/sh\nPATH=/usr/bin:/bin\n" +
		`for a in "$@"; do printf '%s\0' "$a"; done > "$SHIM_REC/` + name + `.argv"` + "\n" +
		`cat > "$SHIM_REC/` + name + `.stdin"` + "\n" + body + "\n"
	p := filepath.Join(s.bin, name)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// link puts the real tool name (from this process's PATH) beside the shims.
func (s *shims) link(t *testing.T, name string) {
	t.Helper()
	real := lookPath(t, name)
	if err := os.Symlink(real, filepath.Join(s.bin, name)); err != nil {
		t.Fatal(err)
	}
}

// env is an environment whose PATH holds only the shims, plus extra.
func (s *shims) env(extra ...string) []string {
	return append([]string{"PATH=" + s.bin, "SHIM_REC=" + s.rec, "HOME=" + filepath.Dir(s.bin)}, extra...)
}

// called returns what the shim name recorded; ok is false if it never ran.
func (s *shims) called(t *testing.T, name string) (argv []string, stdin string, ok bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.rec, name+".argv"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile(filepath.Join(s.rec, name+".stdin"))
	if err != nil {
		t.Fatal(err)
	}
	argv = strings.Split(string(b), "\x00")
	return argv[:len(argv)-1], string(in), true
}

// want fails unless the shim name ran once with exactly argv and stdin.
func (s *shims) want(t *testing.T, name string, argv []string, stdin string) {
	t.Helper()
	got, in, ok := s.called(t, name)
	if !ok {
		t.Fatalf("%s did not run", name)
	}
	if !slices.Equal(got, argv) || in != stdin {
		t.Fatalf("%s ran with %q and stdin %q; want %q and %q", name, got, in, argv, stdin)
	}
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	t.Skipf("%s is not installed", name)
	return ""
}

func shimDesktop(t *testing.T, s *shims, extra ...string) *bridge.Desktop {
	t.Helper()
	d, err := bridge.NewDesktop(bridge.Options{Helper: "/nonexistent/airlock", Env: s.env(extra...), ScriptTimeout: bridge.MinScriptTimeout})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// JXA goes to osascript with the source on stdin and each value an argument
// after "-": none can be read as an option or as source.
func TestJXAThroughOsascript(t *testing.T) {
	s := newShims(t)
	d := shimDesktop(t, s)
	bridge.SetTool(d, bridge.OsascriptPath, s.add(t, "osascript", `printf 'result of %s\n' "$#"`))
	src := "function run(argv) { return argv.join('|') }"
	argv := []string{"-e", `'); app.doShellScript('id`, "", "two words"}
	out, err := bridge.RunJXA(context.Background(), d, src, argv)
	if err != nil {
		t.Fatal(err)
	}
	if out != "result of 7" {
		t.Fatalf("output %q", out)
	}
	s.want(t, "osascript", append([]string{"-l", "JavaScript", "-"}, argv...), src)
}

func TestJXAErrors(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		src     string
		wantSE  int
		wantErr string
	}{
		{"script error", `echo "-: execution error: Error: ReferenceError: Can't find variable: x (-2700)" >&2; exit 1`, "x", -2700, "Can't find variable"},
		{"not authorised", `echo "-: execution error: Error: Not authorized to send Apple events to Mail. (-1743)" >&2; exit 1`, "x", -1743, "Privacy & Security → Automation"},
		{"other failure", `echo "osascript: out of cheese" >&2; exit 2`, "x", 0, "osascript exited with status 2: osascript: out of cheese"},
		{"NUL in the source", `exit 0`, "a\x00b", 0, "NUL"},
		{"timeout", `exec sleep 100`, "x", 0, "ran past its time limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newShims(t)
			d := shimDesktop(t, s)
			bridge.SetTool(d, bridge.OsascriptPath, s.add(t, "osascript", tt.body))
			_, err := bridge.RunJXA(context.Background(), d, tt.src, nil)
			var se *bridge.ScriptError
			if got := errors.As(err, &se); got != (tt.wantSE != 0) || got && se.Number != tt.wantSE {
				t.Fatalf("err = %v (%T), want a *ScriptError %d", err, err, tt.wantSE)
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// A shortcut's input goes in a file (the CLI takes no text), its output
// comes back through one, the name comes after "--", and the files are
// gone afterwards.
func TestShortcutThroughCLI(t *testing.T) {
	s := newShims(t)
	d := shimDesktop(t, s)
	// The shim copies its input file and answers through the output file.
	bridge.SetTool(d, bridge.ShortcutsPath, s.add(t, "shortcuts", `
in=""; out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --input-path) in="$2"; shift 2;;
    --output-path) out="$2"; shift 2;;
    --) shift; break;;
    *) shift;;
  esac
done
[ -n "$in" ] && cp "$in" "$SHIM_REC/input.copy"
printf 'ran %s' "$1" > "$out"`))
	name := "--help; rm -rf ~"
	input := "line one\nline \"two\" $(id)"
	out, err := bridge.RunShortcut(context.Background(), d, name, input)
	if err != nil {
		t.Fatal(err)
	}
	if out != "ran "+name {
		t.Fatalf("output %q", out)
	}
	argv, _, _ := s.called(t, "shortcuts")
	if len(argv) != 9 {
		t.Fatalf("argv %q", argv)
	}
	dir := filepath.Dir(argv[2])
	s.want(t, "shortcuts", []string{"run", "--input-path", filepath.Join(dir, "input.txt"),
		"--output-path", filepath.Join(dir, "output.txt"), "--output-type", "public.plain-text", "--", name}, "")
	if b, _ := os.ReadFile(filepath.Join(s.rec, "input.copy")); string(b) != input {
		t.Fatalf("the shortcut's input was %q", b)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the temporary folder %s is still there: %v", dir, err)
	}

	// Without input there is no input file; a failing shortcut says so.
	s2 := newShims(t)
	d2 := shimDesktop(t, s2)
	bridge.SetTool(d2, bridge.ShortcutsPath, s2.add(t, "shortcuts", `echo "Error: The operation couldn’t be completed. Couldn’t find shortcut" >&2; exit 1`))
	_, err = bridge.RunShortcut(context.Background(), d2, "Missing", "")
	if err == nil || !strings.Contains(err.Error(), `shortcut "Missing": shortcuts exited with status 1: Error:`) {
		t.Fatalf("err = %v", err)
	}
	argv, _, _ = s2.called(t, "shortcuts")
	if slices.Contains(argv, "--input-path") {
		t.Fatalf("an input file was passed without input: %q", argv)
	}
}

// A tool that is not installed is unavailable, and the error names it.
func TestMissingTool(t *testing.T) {
	if _, err := os.Stat(bridge.OsascriptPath); err == nil {
		t.Skip("osascript is installed here")
	}
	s := newShims(t)
	d := shimDesktop(t, s)
	_, err := bridge.RunJXA(context.Background(), d, "1", nil)
	if !errors.Is(err, bridge.ErrUnavailable) || !strings.Contains(err.Error(), "needs /usr/bin/osascript") {
		t.Fatalf("err = %v", err)
	}
}

func TestNewDesktopOptions(t *testing.T) {
	for _, timeout := range []time.Duration{time.Millisecond, bridge.MaxScriptTimeout + time.Second, -time.Second} {
		if _, err := bridge.NewDesktop(bridge.Options{ScriptTimeout: timeout}); err == nil {
			t.Errorf("timeout %v accepted", timeout)
		}
	}
	for _, timeout := range []time.Duration{0, bridge.MinScriptTimeout, bridge.MaxScriptTimeout} {
		if _, err := bridge.NewDesktop(bridge.Options{ScriptTimeout: timeout}); err != nil {
			t.Errorf("timeout %v: %v", timeout, err)
		}
	}
}
