//go:build linux

package execute_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// A red team's attacks on the review of what an unasked command changed:
// each payload (testdata/review/red.json) runs unasked through the real
// sandbox in a home made in a temporary folder, and the test asserts what
// must become of the person's files.

// redRig is a home in a temporary folder (inside base, which also holds
// "outside": a folder beyond the home), its sandbox roots, and an executor
// that confines commands with the real sandbox.
type redRig struct {
	base, home, trash string
	ex                *execute.Executor
}

// redFile is a file of the rig's home: its content and mode ("" content
// with a 0 mode makes a folder).
type redFile struct {
	content string
	mode    fs.FileMode
}

func newRedRig(t *testing.T, roots []string, files map[string]redFile) *redRig {
	t.Helper()
	base := tempDir(t)
	home := filepath.Join(base, "home")
	data := filepath.Join(home, ".local", "share", "airlock")
	for _, d := range []string{filepath.Join(home, "Documents"), filepath.Join(home, ".config", "autostart"), filepath.Join(base, "outside"), data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for rel, f := range files {
		p := filepath.Join(home, rel)
		if f.mode == 0 {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.content), f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	return &redRig{base: base, home: home, trash: filepath.Join(home, ".local", "share", "Trash"),
		ex: reviewingExecutor(t, home, data, roots)}
}

// payload returns the argv of the red team's payload name (red.json).
func payload(t *testing.T, name string) []string { return payloadIn(t, "red.json", name) }

// payloadIn returns the argv of the payload name of testdata/review/file;
// the test is skipped when its program is not installed.
func payloadIn(t *testing.T, file, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "review", file))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string][]string
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	argv, ok := all[name]
	if !ok {
		t.Fatalf("no payload %q in %s", name, file)
	}
	if _, err := os.Stat(argv[0]); err != nil {
		t.Skipf("%s is not installed", argv[0])
	}
	return argv
}

// run runs the payload name unasked from the folder rel of the home, then
// answers no to every held change (nobody is there) and removes the
// layers. It returns the result, the held changes (relative to the home)
// and the error.
func (r *redRig) run(t *testing.T, name, rel string) (execute.Result, []string, error) {
	t.Helper()
	return r.runKeep(t, name, rel, false)
}

// runKeep is run, keeping every held change when keep is set.
func (r *redRig) runKeep(t *testing.T, name, rel string, keep bool) (execute.Result, []string, error) {
	t.Helper()
	return r.runArgvKeep(t, name, payload(t, name), rel, keep)
}

// runArgv is run of the payload argv, labelled name.
func (r *redRig) runArgv(t *testing.T, name string, argv []string, rel string) (execute.Result, []string, error) {
	t.Helper()
	return r.runArgvKeep(t, name, argv, rel, false)
}

// runArgvKeep is runKeep of the payload argv, labelled name.
func (r *redRig) runArgvKeep(t *testing.T, name string, argv []string, rel string, keep bool) (execute.Result, []string, error) {
	t.Helper()
	res, err := r.ex.RunScript(execute.WithLabel(context.Background(), name), execute.KindCommand, "",
		argv, filepath.Join(r.home, rel), ossandbox.Grant{})
	var held []string
	if res.Held != nil {
		answers := make([]bool, len(res.Held.Items))
		for i, it := range res.Held.Items {
			p, _ := filepath.Rel(r.home, it.Change.Path)
			held = append(held, p)
			answers[i] = keep
		}
		if _, rerr := res.Held.Resolve(context.Background(), answers); rerr != nil && keep {
			t.Logf("Resolve: %v", rerr)
		}
	}
	if res.Release != nil {
		res.Release()
	}
	return res, held, err
}

func (r *redRig) p(rel string) string { return filepath.Join(r.home, rel) }

// read returns the content of the home's file rel, or "<missing>".
func (r *redRig) read(rel string) string {
	b, err := os.ReadFile(r.p(rel))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

func (r *redRig) exists(rel string) bool {
	_, err := os.Lstat(r.p(rel))
	return err == nil
}

// inTrash reports whether the Trash holds a regular file with content.
func (r *redRig) inTrash(t *testing.T, content string) bool {
	t.Helper()
	found := false
	filepath.WalkDir(filepath.Join(r.trash, "files"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); string(b) == content {
				found = true
			}
		}
		return nil
	})
	return found
}

// noLinkOut fails when the home's Trash folders are links, or anything
// landed in the folders beside the home.
func (r *redRig) trashIsReal(t *testing.T) {
	t.Helper()
	for _, d := range []string{r.trash, filepath.Join(r.trash, "files"), filepath.Join(r.trash, "info")} {
		if fi, err := os.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			t.Errorf("%s is a link: the gate would trash through it", d)
		}
	}
	if es, _ := os.ReadDir(filepath.Join(r.base, "outside")); len(es) > 0 {
		t.Errorf("the gate put things outside the home: %v", names(es))
	}
	if es, _ := os.ReadDir(r.p(".config/autostart")); len(es) > 0 {
		t.Errorf("the gate put things in the autostart folder: %v", names(es))
	}
}

func names(es []os.DirEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestRedTrashLink: where the home is a sandbox root, an unasked action
// may change the Trash's own folders through its view. One that makes
// the Trash's files folder (or info folder) a link must not make the gate
// trash the person's files through it: into the autostart folder (where
// a .desktop entry runs at the next login) or out of the home (where the
// old versions are beyond the Trash).
func TestRedTrashLink(t *testing.T) {
	home := []string{"~"}
	t.Run("fresh trash, to autostart", func(t *testing.T) {
		r := newRedRig(t, home, map[string]redFile{
			"Documents/payload.desktop": {"[Desktop Entry]\nType=Application\nExec=sh -c 'touch ~/pwned'\n", 0o644}})
		r.run(t, "trash link to autostart", "")
		r.trashIsReal(t)
		if r.exists("Documents/payload.desktop") && r.inTrash(t, "[Desktop Entry]\nType=Application\nExec=sh -c 'touch ~/pwned'\n") {
			t.Errorf("payload.desktop is both in place and in the Trash")
		}
	})
	t.Run("fresh trash, out of the home", func(t *testing.T) {
		r := newRedRig(t, home, map[string]redFile{"Documents/thesis.docx": {"four years of work", 0o644}})
		r.run(t, "trash link out of the home", "")
		r.trashIsReal(t)
		if r.read("Documents/thesis.docx") != "four years of work" && !r.inTrash(t, "four years of work") {
			t.Errorf("the thesis is neither in place nor in the Trash")
		}
	})
	t.Run("existing trash, files replaced by a link", func(t *testing.T) {
		r := newRedRig(t, home, map[string]redFile{
			"Documents/payload.desktop":     {"[Desktop Entry]\n", 0o644},
			".local/share/Trash/files/old":  {"trashed before", 0o644},
			".local/share/Trash/info/x.txt": {"", 0},
		})
		r.run(t, "trash link replaces an existing one", "")
		r.trashIsReal(t)
		if !r.inTrash(t, "trashed before") {
			t.Errorf("what was in the Trash before is gone")
		}
	})
	t.Run("existing trash, info replaced by a link", func(t *testing.T) {
		r := newRedRig(t, home, map[string]redFile{
			"Documents/notes.txt":                   {"notes", 0o644},
			"Documents/pub":                         {"", 0},
			".local/share/Trash/files/old":          {"trashed before", 0o644},
			".local/share/Trash/info/old.trashinfo": {"[Trash Info]\nPath=/x\n", 0o644},
		})
		r.run(t, "trash info link", "")
		r.trashIsReal(t)
		if es, _ := os.ReadDir(r.p("Documents/pub")); len(es) > 0 {
			t.Errorf("the gate wrote the Trash's records into ~/Documents/pub: %v", names(es))
		}
		if r.read("Documents/notes.txt") != "notes" && !r.inTrash(t, "notes") {
			t.Errorf("the notes are neither in place nor in the Trash")
		}
	})
}

// gitRig is ~/Documents with a repository whose git folder lies apart
// (git init --separate-git-dir: meta/proj, proj/.git a file naming it), an
// ordinary one (work), and a script folder that work's hooksPath names.
func gitRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/proj/README":                   {"readme", 0o644},
		"Documents/proj/.git":                     {"gitdir: ../meta/proj\n", 0o644},
		"Documents/meta/proj/HEAD":                {"ref: refs/heads/main\n", 0o644},
		"Documents/meta/proj/config":              {"[core]\n\tbare = false\n", 0o644},
		"Documents/meta/proj/objects/info":        {"", 0},
		"Documents/meta/proj/refs/heads":          {"", 0},
		"Documents/meta/proj/hooks/post-checkout": {"#!/bin/sh\n", 0o755},
		"Documents/work/.git/HEAD":                {"ref: refs/heads/main\n", 0o644},
		"Documents/work/.git/config":              {"[core]\n\thooksPath = scripts/hooks\n", 0o644},
		"Documents/work/.git/hooks":               {"", 0},
		"Documents/work/.git/objects/info":        {"", 0},
		"Documents/work/.git/refs/heads":          {"", 0},
		"Documents/work/scripts/hooks/pre-commit": {"#!/bin/sh\nexec make lint\n", 0o755},
		"Documents/srv.git/HEAD":                  {"ref: refs/heads/main\n", 0o644},
		"Documents/srv.git/config":                {"[core]\n\tbare = true\n", 0o644},
		"Documents/srv.git/objects/info":          {"", 0},
		"Documents/srv.git/refs/heads":            {"", 0},
		"Documents/tools/deploy.sh":               {"#!/bin/sh\nrsync -a site/ host:\n", 0o755},
		"Documents/notes.txt":                     {"notes", 0o644},
	})
}

// TestRedGitFolders: git runs the hooks and the configuration of any git
// folder, whatever its name: a bare repository in a folder not named
// *.git (git finds it from inside), a repository's folder kept apart
// (--separate-git-dir), a worktree's config. Changes that plant code in
// one are held; its data (objects, refs) is not.
func TestRedGitFolders(t *testing.T) {
	cases := []struct {
		payload string
		held    []string
		same    map[string]string // files that must be as they were
		gone    []string
	}{
		{payload: "separate git dir config", held: []string{"Documents/meta/proj/config"},
			same: map[string]string{"Documents/meta/proj/config": "[core]\n\tbare = false\n"}},
		{payload: "separate git dir hook rewritten", held: []string{"Documents/meta/proj/hooks/post-checkout"},
			same: map[string]string{"Documents/meta/proj/hooks/post-checkout": "#!/bin/sh\n"}},
		{payload: "bare repo anywhere", held: []string{"Documents/notes"}, gone: []string{"Documents/notes/config"}},
		{payload: "bare repo at the root", gone: []string{"Documents/config", "Documents/HEAD"}},
		{payload: "bare repo data is not held"},
		{payload: "bare repo other branch moved", held: []string{"Documents/meta/proj/refs/heads/topic"}},
		{payload: "gitfile pointing elsewhere", held: []string{"Documents/other/.git"}},
		{payload: "worktree config", held: []string{"Documents/work/.git/config.worktree"}},
		{payload: "commondir", held: []string{"Documents/work/.git/commondir"}},
		{payload: "bare srv.git worktree config", held: []string{"Documents/srv.git/config.worktree", "Documents/srv.git/modules"}},
		{payload: "dotgit spelled in upper case", held: []string{"Documents/work/.GIT"}},
		{payload: "bare x.git", held: []string{"Documents/x.git/config", "Documents/x.git/hooks"}},
	}
	for _, tc := range cases {
		t.Run(tc.payload, func(t *testing.T) {
			r := gitRig(t)
			_, held, err := r.run(t, tc.payload, "Documents")
			if err != nil {
				t.Logf("run: %v", err)
			}
			if tc.held != nil && !sameSet(held, tc.held) {
				t.Errorf("held %q, want %q", held, tc.held)
			}
			if tc.held == nil && tc.gone == nil && len(held) > 0 {
				t.Errorf("held %q, want none", held)
			}
			for rel, want := range tc.same {
				if got := r.read(rel); got != want {
					t.Errorf("%s is %q, want %q", rel, got, want)
				}
			}
			for _, rel := range tc.gone {
				if r.exists(rel) {
					t.Errorf("%s was applied without the person (held %q)", rel, held)
				}
			}
		})
	}
}

// TestRedBareRepoInTwoSteps: the configuration first, in a plain folder
// (nothing to hold), then the files that make the folder a git folder,
// which git would then run that configuration of.
func TestRedBareRepoInTwoSteps(t *testing.T) {
	r := gitRig(t)
	if _, held, err := r.run(t, "bare repo, config first", "Documents"); err != nil || len(held) > 0 {
		t.Fatalf("the first step: held %q, %v", held, err)
	}
	_, held, _ := r.run(t, "bare repo, made later", "Documents")
	if r.exists("Documents/shared/HEAD") {
		t.Errorf("shared/ was made a git folder, whose config git runs, without the person (held %q)", held)
	}
}

// TestRedExecutableRewritten: a program already executable that gets new
// content is code that runs later (here a hook that the repository's
// hooksPath names, and a deploy script): held like one that gains the bit.
func TestRedExecutableRewritten(t *testing.T) {
	cases := []struct {
		payload string
		held    []string
		same    map[string]string
	}{
		{"executable rewritten in hooksPath", []string{"Documents/work/scripts/hooks/pre-commit"},
			map[string]string{"Documents/work/scripts/hooks/pre-commit": "#!/bin/sh\nexec make lint\n"}},
		{"executable appended to", []string{"Documents/tools/deploy.sh"},
			map[string]string{"Documents/tools/deploy.sh": "#!/bin/sh\nrsync -a site/ host:\n"}},
		{"executable made by cp -p", []string{"Documents/copy.sh"}, nil},
		{"chmod -x is not held", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.payload, func(t *testing.T) {
			r := gitRig(t)
			_, held, err := r.run(t, tc.payload, "Documents")
			if err != nil {
				t.Logf("run: %v", err)
			}
			if !sameSet(held, tc.held) {
				t.Errorf("held %q, want %q", held, tc.held)
			}
			for rel, want := range tc.same {
				if got := r.read(rel); got != want {
					t.Errorf("%s is %q, want %q", rel, got, want)
				}
			}
		})
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestRedOddFiles: named pipes and sockets are left out, and one put where
// a file was leaves that file in place; a layer past the bounds applies
// nothing; a name too long for the Trash's records leaves the old version
// in place rather than losing it; hard links are applied as files.
func TestRedOddFiles(t *testing.T) {
	t.Run("fifo and socket", func(t *testing.T) {
		r := gitRig(t)
		_, held, err := r.run(t, "fifo and socket are left out", "Documents")
		if err != nil {
			t.Logf("run: %v", err)
		}
		if len(held) > 0 {
			t.Errorf("held %q", held)
		}
		for _, rel := range []string{"Documents/pipe", "Documents/sock"} {
			if r.exists(rel) {
				t.Errorf("%s was applied", rel)
			}
		}
		if fi, err := os.Lstat(r.p("Documents/notes.txt")); err != nil || !fi.Mode().IsRegular() {
			if !r.inTrash(t, "notes") {
				t.Errorf("the notes are neither in place nor in the Trash")
			}
		}
	})
	t.Run("deep tree", func(t *testing.T) {
		r := gitRig(t)
		_, _, err := r.run(t, "deep tree", "Documents")
		if err == nil || !errors.Is(err, execute.ErrNotApplied) {
			t.Errorf("run: %v, want ErrNotApplied", err)
		}
		if r.exists("Documents/d") {
			t.Errorf("part of the deep tree was applied")
		}
	})
	t.Run("long name", func(t *testing.T) {
		r := gitRig(t)
		if _, _, err := r.run(t, "long name over a file", "Documents"); err != nil {
			t.Fatalf("making it: %v", err)
		}
		n := strings.Repeat("n", 250)
		if r.read("Documents/"+n) != "old" {
			t.Fatalf("the long name was not made")
		}
		_, _, err := r.run(t, "long name rewritten", "Documents")
		t.Logf("run: %v", err)
		if got := r.read("Documents/" + n); got != "new" && got != "old" {
			t.Errorf("the long name holds %q", got)
		}
		if r.read("Documents/"+n) == "new" && !r.inTrash(t, "old") {
			t.Errorf("the old version of the long name is lost")
		}
	})
	t.Run("newline in a held name", func(t *testing.T) {
		r := gitRig(t)
		_, held, err := r.run(t, "newline in a held name", "Documents")
		if err != nil {
			t.Logf("run: %v", err)
		}
		if want := "Documents/work/.git/hooks/pre-commit\nKeep: created notes.txt (harmless)"; len(held) != 1 || held[0] != want {
			t.Errorf("held %q, want %q", held, want)
		}
		if es, _ := os.ReadDir(r.p("Documents/work/.git/hooks")); len(es) > 0 {
			t.Errorf("applied without the person: %v", names(es))
		}
	})
	t.Run("hard links", func(t *testing.T) {
		r := gitRig(t)
		_, held, err := r.run(t, "hardlink pair", "Documents")
		if err != nil || len(held) > 0 {
			t.Fatalf("run: held %q, %v", held, err)
		}
		for rel, want := range map[string]string{"Documents/a": "x", "Documents/b": "x", "Documents/notes-link": "notes", "Documents/notes.txt": "notes"} {
			if got := r.read(rel); got != want {
				t.Errorf("%s is %q, want %q", rel, got, want)
			}
		}
	})
}

// TestRedLinkThenWrite: a folder replaced by a link into .git/hooks (not
// itself a planting: the link is applied), then a write through it in a
// second unasked action lands in the layer under its real name, and is
// held.
func TestRedLinkThenWrite(t *testing.T) {
	r := gitRig(t)
	if err := os.MkdirAll(r.p("Documents/report"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(r.p("Documents/work/.git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.run(t, "symlink into hooks", "Documents"); err != nil {
		t.Logf("link: %v", err)
	}
	_, held, err := r.run(t, "write through the link", "Documents")
	if err != nil {
		t.Logf("write: %v", err)
	}
	if r.exists("Documents/work/.git/hooks/pre-commit") {
		t.Errorf("the hook was planted through the link (held %q)", held)
	}
}

// TestRedBackgroundWriter: what the action leaves running when it exits
// dies with its launcher; nothing it writes reaches the person's files
// after the review, not even through a file it holds open, whose inode the
// review moves from the layer into the root (late.txt). (A write made
// while the launcher still ran, as a race-built launcher lingers a second
// at exit, is the action's own: it is in the layer, reviewed, the old
// version in the Trash.)
func TestRedBackgroundWriter(t *testing.T) {
	r := gitRig(t)
	if _, _, err := r.run(t, "background writer after exit", "Documents"); err != nil {
		t.Fatalf("run: %v", err)
	}
	notes, late := r.read("Documents/notes.txt"), r.read("Documents/late.txt")
	if late != "a\n" && late != "a\nlate\n" {
		t.Errorf("late.txt holds %q", late)
	}
	if notes != "notes" && !r.inTrash(t, "notes") {
		t.Errorf("the notes were changed to %q and the old version is not in the Trash", notes)
	}
	for range 30 { // three times the writer's delay
		if r.read("Documents/notes.txt") != notes || r.read("Documents/late.txt") != late {
			t.Fatalf("a process the action left behind wrote after the review")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRedManyHeld: thousands of held changes are each put to the person
// and none is applied when nobody answers.
func TestRedManyHeld(t *testing.T) {
	r := gitRig(t)
	_, held, err := r.run(t, "many held executables", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if len(held) != 3000 {
		t.Errorf("%d held, want 3000", len(held))
	}
	if r.exists("Documents/x0.sh") || r.exists("Documents/x2999.sh") {
		t.Errorf("an executable was applied without the person")
	}
}

// TestRedForgedOverlayAttributes: an action cannot forge overlayfs's
// whiteout or opaque marks through its view: they are escaped, so the
// gate sees an empty file and a new folder.
func TestRedForgedOverlayAttributes(t *testing.T) {
	r := gitRig(t)
	res, held, err := r.run(t, "forged whiteout attribute", "Documents")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(held) > 0 {
		t.Errorf("held %q", held)
	}
	if !r.exists("Documents/fake") || !r.exists("Documents/odir") {
		t.Errorf("the forged whiteout or opaque folder was not applied as a file and a folder: %+v", res.Changes)
	}
}

// TestRedTrashFolderIsLink: whatever put a link where the Trash keeps its
// items or records (an action through a DSL move, a change applied before
// this check existed), the Trash refuses to move anything through it, and
// undo removes no record through it.
func TestRedTrashFolderIsLink(t *testing.T) {
	for _, which := range []string{"Trash/files", "Trash/info", "Trash"} {
		t.Run(which, func(t *testing.T) {
			base := tempDir(t)
			data, outside, docs := filepath.Join(base, "share"), filepath.Join(base, "outside"), filepath.Join(base, "docs")
			for _, d := range []string{data, outside, docs, filepath.Join(data, "Trash")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(data, which)
			os.RemoveAll(link)
			if err := os.Symlink(outside, link); err != nil {
				t.Fatal(err)
			}
			victim := filepath.Join(docs, "thesis.docx")
			if err := os.WriteFile(victim, []byte("four years of work"), 0o644); err != nil {
				t.Fatal(err)
			}
			where, err := execute.FreedesktopTrash(data).Trash(context.Background(), victim)
			if err == nil {
				t.Errorf("trashed to %s through a link", where)
			}
			if es, _ := os.ReadDir(outside); len(es) > 0 {
				t.Errorf("the Trash put things where the link points: %v", names(es))
			}
			if b, _ := os.ReadFile(victim); string(b) != "four years of work" {
				t.Errorf("the file is gone from its place: %q", b)
			}
		})
	}
}

// TestRedDotfilesThroughLinks: people keep their start-up files in a
// folder of their own (a dotfiles repository) and link them from the home
// (~/.zshrc → ~/Documents/dotfiles/zshrc, GNU stow): rewriting the file
// the link points to is rewriting ~/.zshrc, and is held as that is.
func TestRedDotfilesThroughLinks(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/dotfiles/zshrc":     {"export EDITOR=vi\n", 0o644},
		"Documents/dotfiles/gitconfig": {"[user]\n\tname = Ann\n", 0o644},
		"Documents/dotfiles/autostart": {"", 0},
		"Documents/shared/envrc":       {"layout python\n", 0o644},
		"Documents/notes.txt":          {"notes", 0o644},
	})
	os.RemoveAll(r.p(".config/autostart"))
	for link, target := range map[string]string{".zshrc": "Documents/dotfiles/zshrc", ".gitconfig": "Documents/dotfiles/gitconfig",
		".config/autostart": "../Documents/dotfiles/autostart",
		".bashrc":           "Documents/dotfiles/bashrc", // not there yet
		".zprofile":         ".zprofile",                 // a loop
	} {
		if err := os.Symlink(target, r.p(link)); err != nil {
			t.Fatal(err)
		}
	}
	_, held, err := r.run(t, "dotfiles reached through links", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	want := []string{"Documents/dotfiles/zshrc", "Documents/dotfiles/gitconfig", "Documents/dotfiles/autostart/x.desktop", "Documents/dotfiles/bashrc"}
	if !sameSet(held, want) {
		t.Errorf("held %q, want %q", held, want)
	}
	for rel, was := range map[string]string{"Documents/dotfiles/zshrc": "export EDITOR=vi\n", "Documents/dotfiles/gitconfig": "[user]\n\tname = Ann\n"} {
		if got := r.read(rel); got != was {
			t.Errorf("%s is %q, want %q", rel, got, was)
		}
	}
	if r.exists("Documents/dotfiles/autostart/x.desktop") {
		t.Errorf("an autostart entry was planted through ~/.config/autostart's link")
	}
}

// TestRedProjectFileThroughLink: a project's .envrc (or .vscode/tasks.json,
// a hook) may be a link to a file elsewhere in the root, which direnv or
// the editor follows; rewriting that file is rewriting the .envrc.
func TestRedProjectFileThroughLink(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/shared/envrc": {"layout python\n", 0o644},
		"Documents/work/README":  {"readme", 0o644},
	})
	if err := os.Symlink("../shared/envrc", r.p("Documents/work/.envrc")); err != nil {
		t.Fatal(err)
	}
	_, held, err := r.run(t, "project envrc reached through a link", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if got := r.read("Documents/shared/envrc"); got != "layout python\n" {
		t.Errorf("work/.envrc now runs %q (held %q)", got, held)
	}
}

// TestRedLinkAndTargetInOneAction: one action makes work/.vscode a link to
// a folder and writes tasks.json where it leads; neither is a place by its
// own path, together they are work/.vscode/tasks.json.
func TestRedLinkAndTargetInOneAction(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/notes.txt": {"notes", 0o644},
	})
	_, held, err := r.run(t, "link and its target in one action", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if !slices.Contains(held, "Documents/shared/vs/tasks.json") {
		t.Errorf("held %q, want Documents/shared/vs/tasks.json (reached as work/.vscode/tasks.json)", held)
	}
	if r.exists("Documents/shared/vs/tasks.json") {
		t.Errorf("editor tasks were planted through a link the same action made")
	}
}

// TestRedHookHiddenInHeldFolder: a new .git is held whole, kept or
// discarded with everything in it: the person who asked for a clone keeps
// it. What runs in it must be named in the popup's line, not only counted
// ("with the 9 entries in it"), or a hook added to the clone rides along.
func TestRedHookHiddenInHeldFolder(t *testing.T) {
	r := gitRig(t)
	res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "", payload(t, "clone with a hook added"), r.p("Documents"), ossandbox.Grant{})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if res.Held == nil || len(res.Held.Items) != 1 {
		t.Fatalf("held %+v, want the new .git", res.Held)
	}
	line := res.Held.Items[0].String()
	t.Logf("the popup says: %s", line)
	if _, err := res.Held.Resolve(context.Background(), []bool{false}); err != nil {
		t.Fatal(err)
	}
	res.Release()
	for _, hook := range []string{"hooks/post-checkout", "hooks/pre-push"} {
		if !strings.Contains(line, hook) {
			t.Errorf("the popup's line does not name %s in the new .git: %q", hook, line)
		}
	}
	if strings.Contains(line, ".sample,") || strings.HasSuffix(line, ".sample") {
		t.Errorf("the popup's line names git's sample hooks, which never run: %q", line)
	}
}

// TestRedExecutableByACL: an access control list that lets someone run a
// file shows in its mode's bits (a named entry through the mask, the
// group's bits): held as any new executable.
func TestRedExecutableByACL(t *testing.T) {
	r := gitRig(t)
	res, held, err := r.run(t, "executable bit by an ACL", "Documents")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	t.Logf("the action said %q", res.Output)
	if r.exists("Documents/acl.sh") {
		if fi, _ := os.Stat(r.p("Documents/acl.sh")); fi.Mode()&0o111 != 0 {
			t.Errorf("acl.sh landed executable (mode %v) without the person (held %q)", fi.Mode(), held)
		}
	}
}

// TestRedProjectPlaces: a project's files that tools run by themselves (on
// entering the folder, opening it in the editor, a commit, any command of
// its package manager) are held, in a folder the action made too.
func TestRedProjectPlaces(t *testing.T) {
	r := gitRig(t)
	argv := payload(t, "project places")
	_, held, err := r.run(t, "project places", "Documents")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	isHeld := func(rel string) bool {
		return slices.ContainsFunc(held, func(h string) bool { return h == rel || strings.HasPrefix(rel, h+"/") })
	}
	for _, rel := range argv[3:] {
		if !isHeld("Documents/" + rel) {
			t.Errorf("%s was not held", rel)
		}
		if r.exists("Documents/" + rel) {
			t.Errorf("%s was applied", rel)
		}
	}
}

// TestRedBranchMovedUnderTheWorkTree: what git keeps as data (objects,
// refs, the index) is applied without the person, which lets an action
// commit a .envrc (or a hook manager's folder, an executable, editor
// tasks) onto a branch the person has but is not on: their next checkout
// of it writes the files, past the review.
func TestRedBranchMovedUnderTheWorkTree(t *testing.T) {
	if _, err := os.Stat("/usr/bin/git"); err != nil {
		t.Skip("git is not installed")
	}
	r := gitRig(t)
	repo := r.p("Documents/repo")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("/usr/bin/git", append([]string{"-C", repo}, args...)...)
		cmd.Env = execute.GitTestEnv(r.home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "README"), []byte("readme\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "README")
	git("commit", "-q", "-m", "start")
	git("branch", "dev")
	before := git("rev-parse", "dev")
	_, held, err := r.run(t, "moves another branch", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if after := git("rev-parse", "dev"); after != before {
		t.Errorf("the branch dev was moved to %s without the person (held %q): checking it out writes a .envrc", after, held)
	}
}

// TestRedConfigHiddenInHeldFolder: a new .git's config that runs a
// command (core.fsmonitor, core.pager, an alias, a filter …) rides along
// with the clone the person keeps: the popup's line must say so.
func TestRedConfigHiddenInHeldFolder(t *testing.T) {
	r := gitRig(t)
	res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "", payload(t, "clone with a config that runs"), r.p("Documents"), ossandbox.Grant{})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if res.Held == nil || len(res.Held.Items) != 1 {
		t.Fatalf("held %+v, want the new .git", res.Held)
	}
	line := res.Held.Items[0].String()
	if _, err := res.Held.Resolve(context.Background(), []bool{false}); err != nil {
		t.Fatal(err)
	}
	res.Release()
	if !strings.Contains(line, "fsmonitor") {
		t.Errorf("the popup's line does not say the new .git's config runs a command: %q", line)
	}
}
