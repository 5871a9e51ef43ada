package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestParseCommand(t *testing.T) {
	code, out, _ := runCLI(t, "MOVE_FILE \"~/a.txt\" \"~/Documents/a.txt\"\nNOTIFY \"Done\" \"Moved\"\n", "parse", "-")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"2 action(s)", "Move ~/a.txt → ~/Documents/a.txt", "line 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	code, out, errOut := runCLI(t, "NOTIFY \"a\" \"b\"\nMOVEFILE \"x\" \"y\"\nSET_VOLUME 500\n", "parse", "-")
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if out != "" {
		t.Errorf("a rejected plan printed actions:\n%s", out)
	}
	for _, want := range []string{"nothing of it will run", "line 2:", "MOVEFILE", "line 3:"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("errors lack %q:\n%s", want, errOut)
		}
	}
}

func TestParseEmptyPlan(t *testing.T) {
	code, out, _ := runCLI(t, "# No action needed\n", "parse", "-")
	if code != 0 || !strings.Contains(out, "empty plan") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

func TestAssessFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "x.applescript")
	if err := os.WriteFile(f, []byte("tell application \"Finder\" to empty trash\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "", "assess", f)
	if code != 0 || !strings.HasPrefix(out, "destructive\n") || !strings.Contains(out, "EMPTY TRASH") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "rm -rf ~/Documents", "assess", "--kind", "shell", "--json", "-")
	var v struct {
		Risk    string `json:"risk"`
		Reasons []struct {
			Text string `json:"text"`
			Span struct{ Start, End int }
		} `json:"reasons"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Risk != "destructive" || len(v.Reasons) == 0 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestAssessUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"assess", "noext"},
		{"assess", "--kind", "cobol", "-"},
		{"assess", "--jsonl", "extra"},
		{"assess"},
		{"parse"},
		{"frobnicate"},
	} {
		code, _, errOut := runCLI(t, "", args...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
	code, _, errOut := runCLI(t, "", "assess", "--kind", "shell", "/does/not/exist")
	if code != 1 || !strings.Contains(errOut, "/does/not/exist") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
}

// TestAssessJSONL is the measuring interface: one line out per line in, in
// order; malformed lines get an error and the stream goes on.
func TestAssessJSONL(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"a","kind":"shell","input":"ls -la"}`,
		`not json`,
		`{"id":"b","kind":"applescript","input":"tell application \"Finder\" to delete every file of desktop"}`,
		`{"id":"c","kind":"fortran","input":"x"}`,
		`{"id":"d","kind":"dsl","input":"UNKNOWN_COMMAND \"x\""}`,
		``,
		`{"id":7,"input":"x"}`,
		`{"id":"e","kind":"jxa","input":"Application('Finder').empty()"}`,
		`{"id":"f","kind":"shell","input":"rm -rf ~","input":"ls"}`,
	}, "\n")
	code, out, _ := runCLI(t, in, "assess", "--jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []struct{ id, risk, err string }{
		{`"a"`, "safe", ""}, {"null", "", "not a JSON object"}, {`"b"`, "destructive", ""},
		{`"c"`, "", "unknown kind"}, {`"d"`, "blocked", ""}, {"7", "", `missing "kind"`}, {`"e"`, "destructive", ""},
		{`"f"`, "", `key "input" appears twice`},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines out, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		var got map[string]json.RawMessage
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if string(got["id"]) != w.id {
			t.Errorf("line %d: id %s, want %s", i+1, got["id"], w.id)
		}
		if w.err != "" {
			var msg string
			json.Unmarshal(got["error"], &msg)
			if !strings.Contains(msg, w.err) {
				t.Errorf("line %d: error %s, want %q", i+1, got["error"], w.err)
			}
			continue
		}
		if string(got["risk"]) != `"`+w.risk+`"` {
			t.Errorf("line %d: risk %s, want %s", i+1, got["risk"], w.risk)
		}
		if _, ok := got["reasons"]; !ok {
			t.Errorf("line %d: no reasons field", i+1)
		}
	}
}

// `airlock --applescript-helper` is dispatched before any subcommand; off
// macOS it answers, in JSON, that it needs macOS.
func TestAppleScriptHelperDispatch(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("on macOS the helper runs the script")
	}
	code, out, _ := runCLI(t, `{"source":"beep","argv":[]}`, "--applescript-helper")
	var ans struct {
		Problem     string
		Unavailable bool
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil || code != 2 || !ans.Unavailable || !strings.Contains(ans.Problem, "needs macOS") {
		t.Fatalf("exit %d, stdout %q (%v)", code, out, err)
	}
}

// A socket client may not pass itself off as the menu's "Automate…".
func TestSocketClientNames(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "unnamed client",
		"airlock run":      "airlock run",
		"mcp: Claude":      "mcp: Claude",
		"Automate… (menu)": `socket client calling itself "Automate… (menu)"`,
		"automate… (menu)": `socket client calling itself "automate… (menu)"`,
	} {
		if got := socketClient(in); got != want {
			t.Errorf("socketClient(%q) = %q, want %q", in, got, want)
		}
	}
}

// Airlock's own files may not lie inside the sandbox.
func TestOwnFilesOutsideSandbox(t *testing.T) {
	home := t.TempDir()
	t.Setenv("AIRLOCK_DATA_DIR", filepath.Join(home, "Documents", "airlock"))
	inside, err := sanitize.NewConfig(home, nil) // ~/Documents is a default root
	if err != nil {
		t.Fatal(err)
	}
	if err := ownFilesOutsideSandbox(inside, filepath.Join(home, "Documents", "airlock")); err == nil || !strings.Contains(err.Error(), "Airlock's own files") {
		t.Fatalf("a data directory inside ~/Documents: %v", err)
	}
	t.Setenv("AIRLOCK_DATA_DIR", filepath.Join(home, ".airlock"))
	if err := ownFilesOutsideSandbox(inside, filepath.Join(home, ".airlock")); err != nil {
		t.Fatalf("a data directory outside the roots: %v", err)
	}
}
