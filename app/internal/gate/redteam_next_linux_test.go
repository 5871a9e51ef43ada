//go:build linux

package gate_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// A fourth red team's launches, in the rig of redteam_launch_linux_test.go
// (a home in a temporary folder, stand-ins for the desktop's programs).

// Attack 9. The next spellings of a PostScript program a viewer runs.
// shared-mime-info knows PostScript by "%!" and by "\x04%!" (a leading
// Ctrl-D, as old spoolers wrote it); and Evince, when the type the name
// says fails to load (report.pdf is no PDF), reads the type from the
// content alone, and unpacks gzip, bzip2 and xz files first to read what
// is inside. So a PostScript program behind a Ctrl-D, or compressed, under
// a document's name or as .ps.gz, runs in Ghostscript like the plain one
// attack 8 found. None is inert: each launch asks.
func TestRedLaunchViewerGivenAHiddenProgram(t *testing.T) {
	for _, tc := range []struct{ name, testdata string }{
		{"report.pdf", "red-postscript-eot.ps"},
		{"figures.ps", "red-postscript-eot.ps"},
		{"summary.pdf", "red-postscript.ps.gz"},
		{"scan.pdf", "red-postscript.ps.bz2"},
		{"figures.ps.gz", "red-postscript.ps.gz"},
		{"figures.ps.bz2", "red-postscript.ps.bz2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := baseRed()
			d.desktop["org.gnome.Evince.desktop"] = "[Desktop Entry]\nType=Application\nName=Document Viewer\nExec=evince %U\n" +
				"MimeType=application/pdf;application/postscript;application/x-gzpostscript;application/x-bzpostscript;\n"
			d.mimeapps += "application/postscript=org.gnome.Evince.desktop;\napplication/x-gzpostscript=org.gnome.Evince.desktop;\n" +
				"application/x-bzpostscript=org.gnome.Evince.desktop;\n"
			r := newRedRig(t, 1, d)
			r.write(t, "Documents/"+tc.name, tc.testdata, 0o644)
			rep, _ := r.submit(`OPEN_FILE "~/Documents/` + tc.name + `"`)
			t.Logf("%s: %s %v", rep.Status, rep.Risk, rep.Actions)
			if r.waitFor("evince", 300*time.Millisecond) || rep.Status == gate.StatusOK {
				t.Fatalf("HOLE: a PostScript program (%s, %s) opened in the viewer unasked at Level 1 (rated %s): %+v", tc.name, tc.testdata, rep.Risk, rep)
			}
		})
	}
}

// Attack 10. A folder is inert to a file manager, which "opens nothing by
// itself": but it shows the folder's files with thumbnails, and its
// thumbnailers read them as the viewers do. Evince's thumbnailer (Files)
// and KDE's Ghostscript thumbnailer (Dolphin, without a sandbox) run a
// PostScript file, under its own name or a document's, when the folder
// is shown. A folder that holds one is no inert folder; one of documents
// still opens unasked.
func TestRedLaunchFolderOfPrograms(t *testing.T) {
	for _, tc := range []struct {
		name, file, testdata string
		opens                bool
	}{
		{"figures", "chart.pdf", "red-postscript.ps", false},
		{"print", "figures.eps", "red-postscript.ps", false},
		{"old", "scan.pdf", "red-postscript-eot.ps", false},
		{"notes", "notes.txt", "viewer.sh", true}, // text with no bit: inert
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := baseRed()
			d.bins["nautilus"] = "viewer.sh"
			d.desktop["org.gnome.Nautilus.desktop"] = "[Desktop Entry]\nType=Application\nName=Files\nExec=nautilus %U\nMimeType=inode/directory;\n"
			d.mimeapps += "inode/directory=org.gnome.Nautilus.desktop;\n"
			r := newRedRig(t, 1, d)
			if err := os.MkdirAll(filepath.Join(r.home, "Documents", tc.name), 0o755); err != nil {
				t.Fatal(err)
			}
			r.write(t, "Documents/"+tc.name+"/"+tc.file, tc.testdata, 0o644)
			rep, _ := r.submit(`OPEN_FILE "~/Documents/` + tc.name + `"`)
			t.Logf("%s: %s %v", rep.Status, rep.Risk, rep.Actions)
			started := r.waitFor("nautilus", 300*time.Millisecond)
			if !tc.opens && (started || rep.Status == gate.StatusOK) {
				t.Fatalf("HOLE: a folder holding a PostScript program (%s) opened in the file manager unasked at Level 1 (rated %s)", tc.file, rep.Risk)
			}
			if tc.opens && (!started || rep.Status != gate.StatusOK) {
				t.Errorf("a folder of notes did not open unasked (rated %s): %+v", rep.Risk, rep)
			}
		})
	}
}

// Attack 11. A grant pins the script it runs (TestGrantCoversWhatRunsNotItsText),
// and now the code its interpreter loads from the script's folder too: the
// person approves `python3 ~/Documents/tool/build.py` with "allow again";
// the agent then changes the module build.py imports, or adds one beside
// it named like a standard-library module it imports (json.py runs instead
// of json: the script's folder comes first on Python's path; a new file is
// caution and lands unasked), or a package folder, or a cached module in
// __pycache__. The same command must be asked about again. A file no
// interpreter loads (README.md, data.csv) changing beside it keeps the
// grant.
func TestRedGrantReusedForChangedImports(t *testing.T) {
	for _, tc := range []struct {
		name, rel, content string
		keeps              bool
	}{
		{"the imported module rewritten", "Documents/tool/helpers.py", "def build():\n    print('replaced by the agent')\n", false},
		{"a module shadowing the standard library", "Documents/tool/json.py", "print('planted by the agent')\n", false},
		{"a package shadowing the standard library", "Documents/tool/json/__init__.py", "print('planted by the agent')\n", false},
		{"a cached module planted", "Documents/tool/__pycache__/helpers.cpython-312.pyc", "not really bytecode", false},
		{"an extension module planted", "Documents/tool/json.cpython-312-darwin.so", "not really a library", false},
		{"the notes beside it changed", "Documents/tool/README.md", "# notes, edited\n", true},
		{"the data beside it changed", "Documents/tool/data.csv", "a,b\n3,4\n", true},
		{"a folder of output written", "Documents/tool/out/result.txt", "done\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, policy.SmartDefault, approveRemember)
			dir := filepath.Join(r.home, "Documents", "tool")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "build.py"), "import json\nimport helpers\nhelpers.build()\n")
			writeFile(t, filepath.Join(dir, "helpers.py"), "def build():\n    print('build')\n")
			writeFile(t, filepath.Join(dir, "README.md"), "# notes\n")
			writeFile(t, filepath.Join(dir, "data.csv"), "a,b\n1,2\n")
			run := func() gate.Report {
				t.Helper()
				rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "mcp: agent", Identity: agent,
					Kind: gate.KindCommand, Argv: []string{"python3", "~/Documents/tool/build.py"}}, nil)
				if err != nil {
					t.Fatalf("%v %+v", err, rep)
				}
				return rep
			}
			if rep := run(); rep.Actions[0].Approval != "approved" || r.ask.count() != 1 {
				t.Fatalf("first run: %+v, asked %d times", rep.Actions[0], r.ask.count())
			}
			if rep := run(); rep.Actions[0].Approval != "granted" {
				t.Fatalf("allow again was not kept for the script (%q): %+v", rep.Actions[0].Approval, rep.Actions[0])
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(r.home, tc.rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(r.home, tc.rel), tc.content)
			rep := run()
			switch {
			case !tc.keeps && (rep.Actions[0].Approval == "granted" || r.ask.count() != 2):
				t.Fatalf("HOLE: %s ran as granted (asked %d times): %+v", tc.name, r.ask.count(), rep.Actions[0])
			case tc.keeps && (rep.Actions[0].Approval != "granted" || r.ask.count() != 1):
				t.Fatalf("%s: the grant did not hold (asked %d times): %+v", tc.name, r.ask.count(), rep.Actions[0])
			}
		})
	}
}

// Attack 12. The roots' secret files are hidden from an unasked command,
// but not their copies in git's history: a .env committed once (then
// untracked and ignored, as people do when they notice) is in
// .git/objects, and `git log -p`, which reads nothing by a secret's name,
// prints it. Through cut its values come back without their keys, in no
// shape the redactor knows.
func TestRedSecretsInGitHistory(t *testing.T) {
	r := newSecretRig(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=p", "-c", "user.email=p@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir, cmd.Env = r.proj, []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	git("init", "-q")
	git("add", ".env")
	git("commit", "-qm", "config")
	git("rm", "-q", "--cached", ".env")
	writeFile(t, filepath.Join(r.proj, ".gitignore"), ".env\n")
	git("add", ".gitignore")
	git("commit", "-qm", "ignore the env file")
	for _, argv := range [][]string{{"git", "log", "-p"}, {"sh", "-c", "git log -p | cut -d= -f2"}} {
		rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand, Argv: argv, Dir: r.proj}, nil)
		if errors.Is(err, gate.ErrApprovalRequired) {
			continue // held for the person: it did not run
		}
		var out strings.Builder
		for _, a := range rep.Actions {
			out.WriteString(a.Output + a.Error)
		}
		for what, secret := range r.secrets {
			if strings.Contains(out.String(), secret) {
				t.Errorf("%v ran unasked (%s) and printed %s from git's history: the object stores of a repository whose history names a secret file must be hidden from it", argv, rep.Risk, what)
			}
		}
		t.Logf("%v: %q", argv, out.String())
		if !strings.Contains(out.String(), "hid git's objects of") || !strings.Contains(out.String(), "a file named .env") {
			t.Errorf("%v ran unasked without its result saying why git's history was not there: %q", argv, out.String())
		}
	}
}
