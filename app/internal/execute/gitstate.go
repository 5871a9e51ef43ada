package execute

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// An action may commit on the checked-out branch without the person (its
// files are the work tree's, which the review sees), but git's plumbing
// can leave there, and in the index, contents the work tree does not hold,
// which the person's next git restore, reset --hard or stash writes past
// the review. So what git does when it adds and commits is checked:
//
//   - the index: every entry the action added or changed must be the work
//     tree's file at its path as the action left it (git's blob id of its
//     bytes, its link target, its executable bit): git add makes it so; an
//     entry it removed writes nothing;
//   - the checked-out branch: its new commit must be the one git commit
//     makes: a loose commit whose one parent is the branch's commit before
//     (none for an unborn branch) and whose tree is the tree of the index
//     as the action left it, computed from the entries (the index's own
//     cache tree is the action's to forge), with the index passing the
//     check above;
//   - the object store: a loose object's content must hash to its name (git
//     reads it unchecked: one under a name the person's commits or index
//     use would give them other content); the commit graph or the
//     alternates list, which could do the same, is held whole; a pack is
//     not read (git gc's removals of what it packs are applied, so it is
//     applied too), but an index or commit that comes with one is held;
//   - ORIG_HEAD must name the commit HEAD named before the action (what
//     reset, merge and rebase write); FETCH_HEAD, which git merge
//     FETCH_HEAD writes, is held; the reflogs of HEAD and of the checked-out
//     branch may gain only lines from the branch's commit before to its
//     commit after, when that move is itself applied (HEAD@{1} is where
//     git reset --hard HEAD@{1}, the usual undo, goes).
//
// Anything that cannot be read so (a pack-only commit, a split or sparse
// index, a repository whose work tree lies elsewhere) is held.

// Bounds of what is read of git's files here.
const (
	maxRefFile     = 4096
	maxPackedRefs  = 64 << 20
	maxHeldPathsIn = 5 // paths named in one reason
)

// gitRepo is what the checks found in one git folder, found once.
type gitRepo struct {
	h    gitHash
	herr error
	// index: why its change is held ("" when it is not), and the index
	// as the action left it.
	indexDone bool
	indexWhy  string
	after     *gitIndex
	// branches: why the move of each checked-out branch is held.
	branches map[string]string
	pack     *bool // packAdded's answer, once found
}

// repo returns the checks' state of the git folder d.
func (g *gitFolders) repo(d string) *gitRepo {
	if r, ok := g.repos[d]; ok {
		return r
	}
	r := &gitRepo{}
	g.repos[d] = r
	b, ok, err := g.readBefore(d, "config", maxGitConfig)
	switch {
	case err != nil:
		r.herr = err
	case !ok:
		r.h = gitSHA1
	default:
		entries, err := gitConfigEntries(bytes.NewReader(b))
		if err == nil {
			r.h, err = objectFormat(entries)
		}
		r.herr = err
	}
	return r
}

// indexWhy says why the change of the index of the git folder d is held,
// "" when every entry it added or changed is the work tree's. It reads the
// index as the action left it (gitRepo.after) whether it changed or not:
// a commit's check needs it.
func (g *gitFolders) indexWhy(d string) string {
	r := g.repo(d)
	if r.indexDone {
		return r.indexWhy
	}
	r.indexDone = true
	r.indexWhy = g.checkIndex(d, r)
	return r.indexWhy
}

func (g *gitFolders) checkIndex(d string, r *gitRepo) string {
	where := "the index of " + g.e.short(d)
	switch {
	case r.herr != nil:
		return "changes " + where + ", a repository whose object format Airlock cannot read (" + r.herr.Error() + ")"
	case !strings.EqualFold(filepath.Base(d), ".git"):
		return "changes " + where + ", whose work tree Airlock does not know: git restore or git stash writes what it holds without this review"
	}
	b, ok, err := g.readAfter(filepath.Join(d, "index"), maxIndexBytes)
	if err != nil || !ok {
		return fmt.Sprintf("changes %s, which cannot be read (%v): git restore or git stash writes what it holds without this review", where, err)
	}
	after, err := parseIndex(b, r.h)
	if err != nil {
		return "changes " + where + ", which Airlock cannot read (" + err.Error() + "): git restore or git stash writes what it holds without this review"
	}
	r.after = after
	if g.packAdded(d) {
		return "changes " + where + " while adding a pack to its object store, which Airlock does not read and which could give the entries' ids other content: git stash or git restore writes it without this review"
	}
	var before *gitIndex
	if b, ok, err := g.readBefore(d, "index", maxIndexBytes); ok && err == nil {
		before, _ = parseIndex(b, r.h) // unreadable before: every entry is checked
	}
	if before != nil && !bytes.Equal(before.reuc, after.reuc) {
		return "changes the conflicts " + where + " keeps for git checkout -m, which writes them without this review"
	}
	key := func(e indexEntry) string { return string(rune('0'+e.stage)) + e.path }
	had := map[string]indexEntry{}
	if before != nil {
		had = make(map[string]indexEntry, len(before.entries))
		for _, e := range before.entries {
			had[key(e)] = e
		}
	}
	var planted []string
	wt := filepath.Dir(d)
	for _, e := range after.entries {
		if o, ok := had[key(e)]; ok && o.mode == e.mode && bytes.Equal(o.id, e.id) {
			continue
		}
		if !g.inWorkTree(wt, e, r.h) {
			planted = append(planted, e.path)
		}
	}
	if len(planted) == 0 {
		return ""
	}
	return "puts in " + where + " what the work tree does not hold (" + someOf(planted) + "): git restore, git checkout or git stash writes it without this review"
}

// someOf names the first few of paths, and how many more there are.
func someOf(paths []string) string {
	s := strings.Join(paths[:min(len(paths), maxHeldPathsIn)], ", ")
	if len(paths) > maxHeldPathsIn {
		s += fmt.Sprintf(" and %d more", len(paths)-maxHeldPathsIn)
	}
	return s
}

// inWorkTree reports whether the index entry e is what the work tree wt
// holds at its path as the action left it: a regular file whose bytes
// have e's id (with an executable bit for an executable entry), or a link
// whose target has it. An entry in conflict, only to be added, of a
// submodule, or at a path git would not write (.., .git, an empty
// element) is not.
func (g *gitFolders) inWorkTree(wt string, e indexEntry, h gitHash) bool {
	if e.stage != 0 || e.ext&ceIntentToAdd != 0 || !gitPathOK(e.path) {
		return false
	}
	p := filepath.Join(wt, filepath.FromSlash(e.path))
	if c, ok := g.changed[changeKey(p)]; ok && g.isHeld(c) {
		return false // the person may discard it: the index would then hold what the work tree does not
	}
	v, ok, err := g.locate(p)
	if !ok || err != nil {
		return false
	}
	defer v.Close()
	mode, err := v.mode()
	if err != nil {
		return false
	}
	var id []byte
	switch {
	case e.mode == modeLink && mode&fs.ModeSymlink != 0:
		target, err := v.readlink()
		if err != nil {
			return false
		}
		id = h.objectID("blob", []byte(target))
	case (e.mode == modeFile || e.mode == modeExec && mode&0o100 != 0) && mode.IsRegular():
		f, err := v.open()
		if err != nil {
			return false
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return false
		}
		if id, err = h.blobID(f, fi.Size()); err != nil {
			return false
		}
	default:
		return false
	}
	return bytes.Equal(id, e.id)
}

// isHeld reports whether the review holds the change c: it plants code
// (plants), or lies in a new folder that is held (whose entries go with
// it). A change still being decided counts as held.
func (g *gitFolders) isHeld(c sandbox.Change) bool {
	if g.look == nil {
		return true
	}
	if h, ok := g.held[c.Path]; ok {
		return h
	}
	if g.held == nil {
		g.held = map[string]bool{}
	}
	g.held[c.Path] = true
	held := false
	root := outerRoot(g.e.Paths.Roots, c.Path)
	for a := filepath.Dir(c.Path); !held && a != root && inside(a, root); a = filepath.Dir(a) {
		if ac, ok := g.changed[changeKey(a)]; ok {
			fi, err := os.Lstat(ac.Upper)
			held = err != nil || newFolder(ac, fi.Mode()) && g.isHeld(ac)
		}
	}
	if !held && c.Kind != sandbox.Removed {
		fi, err := os.Lstat(c.Upper)
		held = err != nil || g.e.plants(c, fi.Mode(), g.look) != ""
	}
	g.held[c.Path] = held
	return held
}

// gitPathOK reports whether p is a path git would write in a work tree:
// relative, with no empty, . or .. element, and no .git element in any
// case.
func gitPathOK(p string) bool {
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." || strings.EqualFold(el, ".git") {
			return false
		}
	}
	return true
}

// branchMoveWhy says why the move of ref, the branch the git folder d's
// HEAD named before the action, is held: "" when it did not move, or moved
// to the commit git commit makes.
func (g *gitFolders) branchMoveWhy(d, ref string) string {
	r := g.repo(d)
	if why, ok := r.branches[ref]; ok {
		return why
	}
	if r.branches == nil {
		r.branches = map[string]string{}
	}
	why := g.checkBranch(d, ref, r)
	r.branches[ref] = why
	return why
}

func (g *gitFolders) checkBranch(d, ref string, r *gitRepo) string {
	moves := "moves " + ref + " in " + g.e.short(d) + ", the checked-out branch, "
	if head, _ := g.headRef(d, "HEAD"); ref != head {
		// Its index and work tree are a linked worktree's, which the
		// checks do not read.
		return "moves " + ref + " in " + g.e.short(d) + ", the branch a linked worktree has checked out: checking it out writes the files of its commit without this review"
	}
	if r.herr != nil {
		return moves + "in a repository whose object format Airlock cannot read (" + r.herr.Error() + ")"
	}
	old, oldErr := g.refBefore(d, ref, r.h)
	now, nowErr := g.refAfter(d, ref, r.h)
	switch {
	case oldErr != nil || nowErr != nil:
		return moves + "and what it names cannot be read"
	case now == nil:
		return "" // removed: nothing checked out from it
	case bytes.Equal(old, now):
		return ""
	}
	why := g.commitWhy(d, r, old, now)
	if why == "" {
		return ""
	}
	return moves + "to " + why + ": git reset --hard or git stash then writes its files without this review"
}

// commitWhy says why now is not the commit git commit makes on a branch at
// old (nil: unborn) from the index as the action left it.
func (g *gitFolders) commitWhy(d string, r *gitRepo, old, now []byte) string {
	if g.packAdded(d) {
		return "a commit made while adding a pack to the object store, which Airlock does not read and which could give it other content"
	}
	name := hex.EncodeToString(now)
	b, ok, err := g.readAfter(filepath.Join(d, "objects", name[:2], name[2:]), maxObject)
	switch {
	case err != nil:
		return "a commit that cannot be read (" + err.Error() + ")"
	case !ok:
		return "a commit git keeps only in a pack, or not at all"
	}
	kind, body, err := readLoose(bytes.NewReader(b))
	if err == nil && kind != "commit" {
		err = fmt.Errorf("a %s, not a commit", kind)
	}
	if err == nil && !bytes.Equal(r.h.objectID(kind, body), now) {
		err = fmt.Errorf("its content is not what its name says")
	}
	var c gitCommit
	if err == nil {
		c, err = r.h.parseCommit(body)
	}
	if err != nil {
		return "an object Airlock cannot read as a commit (" + err.Error() + ")"
	}
	switch {
	case old == nil && len(c.parents) != 0, old != nil && (len(c.parents) != 1 || !bytes.Equal(c.parents[0], old)):
		return "a commit whose parents are not the branch's commit before (a merge, an amend, a reset or a rebase)"
	}
	if why := g.indexWhy(d); why != "" {
		return "a commit of an index that is held (it " + why + ")"
	}
	if r.after == nil { // indexWhy read it, changed or not
		return "a commit while the index cannot be read"
	}
	tree, err := r.after.treeID(r.h)
	if err != nil {
		return "a commit while the index is not one git commits (" + err.Error() + ")"
	}
	if !bytes.Equal(tree, c.tree) {
		return "a commit whose files are not the index's"
	}
	return ""
}

// refBefore returns the commit id ref names in the git folder d as the
// root holds it: its loose file, else its line in packed-refs; nil when
// there is neither (an unborn branch).
func (g *gitFolders) refBefore(d, ref string, h gitHash) ([]byte, error) {
	b, ok, err := g.readBefore(d, ref, maxRefFile)
	if err != nil {
		return nil, err
	}
	if ok {
		return refID(b, h)
	}
	b, ok, err = g.readBefore(d, "packed-refs", maxPackedRefs)
	if err != nil || !ok {
		return nil, err
	}
	return packedRef(b, ref, h)
}

// refAfter is refBefore as the action left the git folder.
func (g *gitFolders) refAfter(d, ref string, h gitHash) ([]byte, error) {
	b, ok, err := g.readAfter(filepath.Join(d, filepath.FromSlash(ref)), maxRefFile)
	if err != nil {
		return nil, err
	}
	if ok {
		return refID(b, h)
	}
	b, ok, err = g.readAfter(filepath.Join(d, "packed-refs"), maxPackedRefs)
	if err != nil || !ok {
		return nil, err
	}
	return packedRef(b, ref, h)
}

// refID reads a loose ref: an object id and a newline. A symbolic ref
// ("ref: …") or anything else is an error.
func refID(b []byte, h gitHash) ([]byte, error) {
	s := strings.TrimSuffix(string(b), "\n")
	id, ok := h.hexID(s)
	if !ok {
		return nil, fmt.Errorf("%.40q is no commit id", s)
	}
	return id, nil
}

// packedRef finds ref's line in packed-refs ("<id> <ref>"): nil when it
// is not there.
func packedRef(b []byte, ref string, h gitHash) ([]byte, error) {
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		id, name, ok := bytes.Cut(line, []byte(" "))
		if !ok || string(name) != ref || len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		return refID(id, h)
	}
	return nil, nil
}

// headBeforeID returns the commit the HEAD of the git folder d named
// before the action (through its branch, or detached); nil for an unborn
// branch.
func (g *gitFolders) headBeforeID(d string, h gitHash) ([]byte, error) {
	if ref, ok := g.headRef(d, "HEAD"); ok {
		return g.refBefore(d, ref, h)
	}
	text, ok := g.headBefore(d, "HEAD")
	if !ok {
		return nil, fmt.Errorf("HEAD cannot be read")
	}
	return refID([]byte(text), h)
}

// origHeadWhy says why c, a change of ORIG_HEAD in the git folder d, is
// held: reset, merge and rebase write there the commit HEAD named before
// them, which git reset --hard ORIG_HEAD goes back to; anything else would
// be written by it without this review.
func (g *gitFolders) origHeadWhy(d string, c sandbox.Change, mode fs.FileMode) string {
	why := "sets ORIG_HEAD in " + g.e.short(d) + " to a commit HEAD did not name before: git reset --hard ORIG_HEAD writes its files without this review"
	r := g.repo(d)
	if r.herr != nil || !mode.IsRegular() {
		return why
	}
	b, ok, err := g.readAfter(c.Path, maxRefFile)
	if err != nil || !ok {
		return why
	}
	id, err := refID(b, r.h)
	before, berr := g.headBeforeID(d, r.h)
	if err != nil || berr != nil || before == nil || !bytes.Equal(id, before) {
		return why
	}
	return ""
}

// packAdded reports whether the changes add or change a file in the
// object store's packs of the git folder d: git reads an object from a
// pack before a loose one, so a loose object checked here says nothing of
// what git reads then.
func (g *gitFolders) packAdded(d string) bool {
	r := g.repo(d)
	if r.pack == nil {
		added := false
		packs := filepath.Join(d, "objects", "pack")
		for _, c := range g.changed {
			if c.Kind != sandbox.Removed && inside(c.Path, packs) {
				added = true
				break
			}
		}
		r.pack = &added
	}
	return *r.pack
}

// objectWhy says why c, the entry rel (objects/…) of the git folder d, is
// held: a loose object whose content does not hash to its name, or
// anything else the object store holds (a pack, the commit graph, an
// alternates list), which can give an object git already has other
// content.
func (g *gitFolders) objectWhy(d, rel string, c sandbox.Change, mode fs.FileMode) string {
	other := "adds " + rel + " to the object store of " + g.e.short(d) + ", where only loose objects named by their content are applied: a commit graph, an alternates list or a misnamed object can give commits and files git already has other content, which it then writes without this review"
	parts := strings.Split(rel, "/")
	if len(parts) > 1 && parts[1] == "pack" {
		// Applied: git gc removes the loose objects it packs, and those
		// removals are applied; holding the pack would lose them. A pack
		// is not read here (see packAdded).
		return ""
	}
	r := g.repo(d)
	if len(parts) != 3 || len(parts[1]) != 2 || r.herr != nil {
		return other
	}
	name, ok := r.h.hexID(parts[1] + parts[2])
	if !ok {
		return other
	}
	forged := "writes the object " + parts[1] + parts[2] + " in " + g.e.short(d) + " with content that is not what its name says: a commit or file of that name would be read as it, without this review"
	if !mode.IsRegular() {
		return forged
	}
	f, err := os.OpenFile(c.Upper, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return forged
	}
	defer f.Close()
	id, err := r.h.looseID(bufio.NewReader(f))
	if err != nil || !bytes.Equal(id, name) {
		return forged
	}
	return ""
}
