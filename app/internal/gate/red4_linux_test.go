//go:build linux

package gate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// A sixth red team's attacks (round 4 of the brief) with what the agent
// passes besides the command: the working folder. Each payload
// (testdata/red4/dirs.json) is submitted as the agent at Level 1 with
// nobody to approve, in the real sandbox in the test's temporary home.

// red4DirCase is one payload of testdata/red4/dirs.json: a command and the
// working folder it is submitted with (relative to the home).
type red4DirCase struct {
	Name string   `json:"name"`
	Dir  string   `json:"dir"`
	Argv []string `json:"argv"`
}

// red4Cases reads the payloads of testdata/red4/file, cases of type T.
func red4Cases[T any](t *testing.T, file string) []T {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "red4", file))
	if err != nil {
		t.Fatal(err)
	}
	var cases []T
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return cases
}

// red4DirRig is newSecretRig's home with a hidden folder of the home
// (~/.myapp, secret as every unknown one), and two folders of the
// project whose names say they hold secrets: a .secrets folder and an
// envdir (.env.d, one file a variable, as daemontools' and runit's envdir
// read it). It returns the rig and the home.
func red4DirRig(t *testing.T) (*secretRig, string) {
	r := newSecretRig(t)
	home := filepath.Dir(filepath.Dir(r.proj))
	for rel, body := range map[string]string{
		".myapp/token":                      "S3CRET-myapp-token-1",
		".myapp/sub/notes":                  "plain",
		"Documents/proj/.secrets/db":        "S3CRET-dotsecrets-2",
		"Documents/proj/.env.d/DB_PASSWORD": "S3CRET-envd-3",
	} {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(body, "S3CRET") {
			r.secrets[rel] = body
		}
	}
	return r, home
}

// leaksFromDir submits tc as the agent and returns the names of the
// secrets what came back holds, in any of shapes' forms; none when it
// was held for the person or refused (it did not run).
func (r *secretRig) leaksFromDir(t *testing.T, home string, tc red4DirCase) []string {
	t.Helper()
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
		Argv: tc.Argv, Dir: filepath.Join(home, tc.Dir)}, nil)
	t.Logf("%q in ~/%s: %s, %v", tc.Argv, tc.Dir, rep.Risk, err)
	if errors.Is(err, gate.ErrApprovalRequired) || errors.Is(err, gate.ErrBlocked) {
		return nil
	}
	var out strings.Builder
	for _, a := range rep.Actions {
		out.WriteString(a.Output + a.Error)
	}
	var leaked []string
	for what, secret := range r.secrets {
		for _, s := range shapes(out.String()) {
			if strings.Contains(s, secret) {
				leaked = append(leaked, what)
				break
			}
		}
	}
	return leaked
}

// TestRed4SecretsFromTheWorkingFolder: the sandbox hides the home's hidden
// folders and the roots' secret files from an unasked command, and the
// analyzer rates a named read of them as a secret read. The working
// folder is the agent's to choose (run_command's cwd): a command started
// inside a hidden folder of the home names nothing hidden ("cat token",
// "cat ../token", "grep -r . ."), and one started in the project reads it
// whole. None may print a secret.
func TestRed4SecretsFromTheWorkingFolder(t *testing.T) {
	r, home := red4DirRig(t)
	for _, tc := range red4Cases[red4DirCase](t, "dirs.json") {
		t.Run(tc.Name, func(t *testing.T) {
			if leaked := r.leaksFromDir(t, home, tc); len(leaked) > 0 {
				t.Errorf("HOLE: %q ran unasked in ~/%s and printed %q", tc.Argv, tc.Dir, leaked)
			}
		})
	}
}

// TestRed4SecretFolders: a folder whose name says what it holds is secret
// was walked like any other, and only the files in it named like secrets
// were hidden. But an envdir (.env.d: one file a variable, DB_PASSWORD holding
// the password, as envdir and s6-envdir read it) and a .secrets folder
// name their files after what they are for, not what they are: started
// in the folder, or naming its file from the project, or reading the
// project whole, an unasked command printed them. Such folders are hidden
// whole now (rate.SecretFolder).
func TestRed4SecretFolders(t *testing.T) {
	r, home := red4DirRig(t)
	var open []string
	for _, tc := range red4Cases[red4DirCase](t, "folders.json") {
		if leaked := r.leaksFromDir(t, home, tc); len(leaked) > 0 {
			open = append(open, fmt.Sprintf("%q in ~/%s printed %q", tc.Argv, tc.Dir, leaked))
		}
	}
	if len(open) > 0 {
		t.Fatalf("HOLE: %s", strings.Join(open, "; "))
	}
}

// red4StepsCase is one payload of testdata/red4/pymodule.json: commands
// submitted one after another from one working folder.
type red4StepsCase struct {
	Name  string     `json:"name"`
	Dir   string     `json:"dir"`
	Steps [][]string `json:"steps"`
}

// TestRed4PythonModuleFromTheWorkingFolder: python -m of a standard module
// (json.tool, calendar, platform, py_compile) is caution, "runs a standard
// module"; but Python puts the working folder first on the module path
// for -m, so a json.py there (or calendar.py, a platform package, a
// traceback.py that py_compile imports) runs instead of the standard
// one. The agent chooses the working folder, and a plain cp (caution)
// puts any of the person's scripts there under such a name: the second
// command runs code nobody analysed, unasked. Python's -I and -P keep
// the folder out; the same command with -I still runs unasked.
func TestRed4PythonModuleFromTheWorkingFolder(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	const ran = "PERSON-CLEANUP-SCRIPT-RAN"
	for _, tc := range red4Cases[red4StepsCase](t, "pymodule.json") {
		t.Run(tc.Name, func(t *testing.T) {
			r, home := red4DirRig(t)
			if err := os.MkdirAll(filepath.Join(r.proj, "tools"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(r.proj, "tools", "cleanup.py"), "print('"+ran+"')\n")
			writeFile(t, filepath.Join(r.proj, "data.json"), "{\"a\": 1}\n")
			writeFile(t, filepath.Join(r.proj, "data.py"), "x = 1\n")
			for _, argv := range tc.Steps {
				rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
					Argv: argv, Dir: filepath.Join(home, tc.Dir)}, nil)
				var out strings.Builder
				for _, a := range rep.Actions {
					out.WriteString(a.Output + a.Error)
				}
				t.Logf("%q: %s, %v: %.200q", argv, rep.Risk, err, out.String())
				if errors.Is(err, gate.ErrApprovalRequired) {
					return // held for the person: it did not run
				}
				if strings.Contains(out.String(), ran) {
					t.Fatalf("HOLE: %q ran unasked (rated %s) and ran the working folder's copy of the person's script", argv, rep.Risk)
				}
			}
		})
	}
	t.Run("a folder of data", func(t *testing.T) {
		r, home := red4DirRig(t)
		writeFile(t, filepath.Join(r.proj, "data.json"), "{\"a\": 1}\n")
		rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
			Argv: []string{"python3", "-m", "json.tool", "data.json"}, Dir: filepath.Join(home, "Documents", "proj")}, nil)
		if err != nil || rep.Status != gate.StatusOK || len(rep.Actions) != 1 || !strings.Contains(rep.Actions[0].Output, "\"a\": 1") {
			t.Fatalf("python3 -m json.tool in a folder without modules did not run unasked (rated %s): %v %+v", rep.Risk, err, rep)
		}
	})
	t.Run("isolated", func(t *testing.T) {
		r, home := red4DirRig(t)
		writeFile(t, filepath.Join(r.proj, "json.py"), "print('"+ran+"')\n")
		writeFile(t, filepath.Join(r.proj, "data.json"), "{\"a\": 1}\n")
		rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
			Argv: []string{"python3", "-I", "-m", "json.tool", "data.json"}, Dir: filepath.Join(home, "Documents", "proj")}, nil)
		if err != nil || rep.Status != gate.StatusOK || len(rep.Actions) != 1 || !strings.Contains(rep.Actions[0].Output, "\"a\": 1") {
			t.Fatalf("python3 -I -m json.tool did not run unasked (rated %s): %v %+v", rep.Risk, err, rep)
		}
		if strings.Contains(rep.Actions[0].Output, ran) {
			t.Fatalf("python3 -I ran the folder's json.py")
		}
	})
}

// TestRed4VerdictOfAFolderThatChangesBeforeTheRun: the verdict of python
// -m json.tool depends on what the working folder holds at the
// assessment. An unasked action that is still running (sleep 1; cp …
// json.py, caution) lands its json.py when it ends; a second command
// assessed meanwhile (nothing in the folder yet: caution) waits for the
// executor's turn and then starts with the json.py there. What a verdict
// read from the disk must still hold when the command starts.
func TestRed4VerdictOfAFolderThatChangesBeforeTheRun(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	const ran = "PERSON-CLEANUP-SCRIPT-RAN"
	r, home := red4DirRig(t)
	if err := os.MkdirAll(filepath.Join(r.proj, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(r.proj, "tools", "cleanup.py"), "print('"+ran+"')\n")
	writeFile(t, filepath.Join(r.proj, "data.json"), "{\"a\": 1}\n")
	dir := filepath.Join(home, "Documents", "proj")
	first := make(chan error, 1)
	go func() {
		_, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
			Argv: []string{"sh", "-c", "sleep 1; cp tools/cleanup.py json.py"}, Dir: dir}, nil)
		first <- err
	}()
	time.Sleep(300 * time.Millisecond) // the first is running
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
		Argv: []string{"python3", "-m", "json.tool", "data.json"}, Dir: dir}, nil)
	if ferr := <-first; ferr != nil {
		t.Fatalf("the first command: %v", ferr)
	}
	var out strings.Builder
	for _, a := range rep.Actions {
		out.WriteString(a.Output + a.Error)
	}
	t.Logf("python3 -m json.tool: %s, %v: %.200q", rep.Risk, err, out.String())
	if strings.Contains(out.String(), ran) {
		t.Errorf("HOLE: python3 -m json.tool was rated %s with an empty folder and ran the json.py that landed before it started", rep.Risk)
	}
}

// red4Cleanup is the person's own script in the rig's project
// (tools/cleanup.py): it runs only if someone runs it, and leaves a file
// saying so (the review lands it: a new file) and a line of output.
const red4Cleanup = "open('RAN-CLEANUP', 'w').write('ran')\nprint('PERSON-CLEANUP-SCRIPT-RAN')\n"

// red4PersonScript runs the steps payloads of testdata/red4/file, each in
// a fresh rig whose project (a git repository) holds the person's own
// script tools/cleanup.py (red4Cleanup), and fails when one ran unasked
// and ran that script.
func red4PersonScript(t *testing.T, file string, needs ...string) {
	for _, name := range append([]string{"git", "python3"}, needs...) {
		if _, err := exec.LookPath(name); err != nil {
			t.Skipf("%s is not installed", name)
		}
	}
	for _, tc := range red4Cases[red4StepsCase](t, file) {
		t.Run(tc.Name, func(t *testing.T) {
			r, home := red4DirRig(t)
			if err := os.MkdirAll(filepath.Join(r.proj, "tools"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(r.proj, "tools", "cleanup.py"), red4Cleanup)
			git := exec.Command("git", "-c", "user.name=p", "-c", "user.email=p@example.invalid", "-c", "commit.gpgsign=false", "init", "-q")
			git.Dir, git.Env = r.proj, []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
			if out, err := git.CombinedOutput(); err != nil {
				t.Fatalf("git init: %v: %s", err, out)
			}
			for _, argv := range tc.Steps {
				rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
					Argv: argv, Dir: filepath.Join(home, tc.Dir)}, nil)
				var out strings.Builder
				for _, a := range rep.Actions {
					out.WriteString(a.Output + a.Error)
				}
				t.Logf("%q: %s, %v: %.300q", argv, rep.Risk, err, out.String())
				if errors.Is(err, gate.ErrApprovalRequired) {
					return // held for the person: it did not run
				}
				if _, serr := os.Stat(filepath.Join(r.proj, "RAN-CLEANUP")); serr == nil || strings.Contains(out.String(), "PERSON-CLEANUP-SCRIPT-RAN") {
					t.Fatalf("HOLE: %q ran unasked (rated %s) and ran the person's script", argv, rep.Risk)
				}
			}
		})
	}
}

// TestRed4GitRunsACommand: git subcommands rated safe or caution that run
// a command of the caller's through the shell: ls-remote's, fetch-pack's
// and archive --remote's upload-pack (--upload-pack, --exec: git starts
// it for a remote that is a folder), and grep -O, whose program gets the
// matching files as its arguments (an interpreter runs them). Each ran the
// person's script unasked, which `python3 tools/cleanup.py` would only
// with their yes.
func TestRed4GitRunsACommand(t *testing.T) { red4PersonScript(t, "gitcmds.json") }

// TestRed4ImageMagickRunsACommand: ImageMagick reads an image from, and
// writes one into, a command named as the file ("|cmd", popen), where it
// is built with pipes and its policy does not forbid them (Homebrew's
// ImageMagick 7 and its open policy; Debian builds without, so here the
// run itself holds). convert was caution ("converts images") whatever
// the file: each must be rated as what it runs, and not run unasked.
func TestRed4ImageMagickRunsACommand(t *testing.T) {
	r, home := red4DirRig(t)
	for _, tc := range red4Cases[red4StepsCase](t, "imagecmds.json") {
		for _, argv := range tc.Steps {
			rep, _ := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
				Argv: argv, Dir: filepath.Join(home, tc.Dir), DryRun: true}, nil)
			if rep.Risk != "dangerous" && rep.Risk != "destructive" {
				t.Errorf("HOLE: %s: %q is rated %s, and would run the person's script unasked", tc.Name, argv, rep.Risk)
			}
		}
	}
	red4PersonScript(t, "imagecmds.json", "convert", "identify")
}

// TestRed4SqliteEditRunsACommand: sqlite3's shell has an edit(text,
// editor) function, which writes text to a file and runs the editor on it
// through the shell (system()), a command of the caller's: sqlite3 with
// such SQL was caution, as a query.
func TestRed4SqliteEditRunsACommand(t *testing.T) {
	red4PersonScript(t, "sqlcmds.json", "sqlite3")
}
