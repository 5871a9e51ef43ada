package execute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// What an action that ran unasked changed is reviewed here before it is
// real. The sandbox showed it a copy-on-write view of each sandbox root
// (sandbox.Layer); once it has ended, its changes (sandbox.ReadLayer) are
// applied to the real roots by the rules below, in the gate's process,
// which the action never reached:
//
//   - nothing is unlinked: what a change replaces or removes goes to the
//     Trash first, and so does whatever another action or the person put at
//     a path since, so two actions changing one file never clobber it;
//   - nothing is followed: every destination is reached from its sandbox
//     root by the open-folder operations of at.go (no symbolic link in any
//     element, not even one inside the root), a link is recreated as the
//     link it is, set-id and sticky bits are dropped;
//   - nothing that plants code runs later without the person: such changes
//     are held (Held) until they keep or discard them;
//   - nothing is lost: a new version that is not applied (discarded, or one
//     that could not be) goes to the Trash, in one folder named after the
//     action;
//   - everything is recorded (ChangeRecord), for the history and Undo.
//
// os.Root would reach paths beneath a root too, but it follows a link that
// stays inside the root: a folder swapped for a link to the repository's
// .git/hooks, in the same root, would redirect a write there. It also has
// no rename that refuses to replace, and the Trash takes an open folder and
// a name. So the folder type of at.go is used throughout.

// Bounds of one action's reviewed changes: a list beyond them is refused
// whole, with an error wrapping ErrTooManyChanges, and nothing is applied.
const (
	MaxChanges     = 100_000
	MaxChangeBytes = 8 << 30 // the regular files' new versions, together
)

var (
	// ErrTooManyChanges is wrapped by the error of ApplyChanges for a list
	// of changes over MaxChanges or MaxChangeBytes.
	ErrTooManyChanges = errors.New("the action changed more than Airlock applies at once")
	// ErrBadChanges is wrapped by the error of a change list that breaks
	// sandbox.Change's rules (a path outside the sandbox roots, one listed
	// twice, a new version missing from its layer …): nothing is applied.
	ErrBadChanges = errors.New("the list of changes is not one a layer yields")
	// ErrNotApplied is wrapped by the error of ApplyChanges and
	// Held.Resolve when some changes could not be applied; their records
	// say why, and where their new versions went.
	ErrNotApplied = errors.New("some changes were not applied")
)

// ChangeStatus says what became of one reviewed change.
type ChangeStatus uint8

// The statuses.
const (
	// ChangeApplied: it is in place (for a held one: the person kept it).
	ChangeApplied ChangeStatus = iota + 1
	// ChangeDiscarded: not applied; its new version is in the Trash at
	// ChangeRecord.Discarded (nothing, for a removal).
	ChangeDiscarded
	// ChangeSkipped: not applied and nothing kept: a named pipe, socket or
	// device, or something at a sandbox root itself.
	ChangeSkipped
	// ChangeFailed: it could not be applied (Note says why); its new
	// version is in the Trash at Discarded when it could be moved there.
	ChangeFailed
)

var statusNames = [...]string{"", "applied", "discarded", "skipped", "failed"}

func (s ChangeStatus) String() string {
	if int(s) < len(statusNames) && s != 0 {
		return statusNames[s]
	}
	return fmt.Sprintf("ChangeStatus(%d)", int(s))
}

// ParseChangeStatus is the inverse of ChangeStatus.String.
func ParseChangeStatus(s string) (ChangeStatus, error) {
	for i, n := range statusNames {
		if n == s && i != 0 {
			return ChangeStatus(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a change status", s)
}

// A ChangeRecord is one reviewed change as it was dealt with: what the
// history keeps of it, and what Undo reads.
type ChangeRecord struct {
	Kind   sandbox.ChangeKind
	Path   string
	Status ChangeStatus
	// Held says it was held for the person (Note says why); with
	// ChangeApplied, they kept it.
	Held bool
	// Placed says a new version was put at Path: Undo moves it to the
	// Trash. It is false for a removal, and for a new folder that merged
	// into one already there.
	Placed bool
	Mode   fs.FileMode // the new version's type and permission bits as placed (0 for a removal)
	Size   int64       // a regular file's new version's size
	// Hash is the hex SHA-256 of the new version: a regular file's
	// content, a link's target. "" for a folder.
	Hash string
	// Old is where what was at Path before now lies in the Trash; "" when
	// nothing went there.
	Old string
	// OldMode is the type and permission bits of what was at Path when the
	// change was applied (0 for nothing).
	OldMode fs.FileMode
	// OldHash is the hex SHA-256 of what went to Old: a regular file of at
	// most MaxOldHash bytes, a link's target; "" otherwise.
	OldHash string
	// Discarded is where the new version lies in the Trash, for one
	// discarded or not applied.
	Discarded string
	// Note says why it was held, skipped or not applied, or what else
	// happened ("merged into the folder there").
	Note string
}

// MaxOldHash bounds the size of an old version whose hash is recorded:
// hashing a bigger one would slow every overwrite of it down.
const MaxOldHash = 256 << 20

// Applied is what became of a list of changes.
type Applied struct {
	Records []ChangeRecord
	// Pending are the changes left alone because ctx ended: neither
	// applied nor in the Trash. DiscardChanges takes them.
	Pending []sandbox.Change
}

// Trashed lists where the old versions went in the Trash, and the new
// versions that were not applied.
func (a Applied) Trashed() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range a.Records {
		for _, w := range []string{r.Old, r.Discarded} {
			if w != "" && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// Summary says in one line how many changes were applied, trashed and
// not applied.
func (a Applied) Summary() string {
	var applied, old, discarded, skipped, failed int
	for _, r := range a.Records {
		switch r.Status {
		case ChangeApplied:
			applied++
		case ChangeDiscarded:
			discarded++
		case ChangeSkipped:
			skipped++
		case ChangeFailed:
			failed++
		}
		if r.Old != "" {
			old++
		}
	}
	s := fmt.Sprintf("%d changes applied (%d old versions in the Trash)", applied, old)
	for _, p := range []struct {
		n    int
		what string
	}{{discarded, "discarded to the Trash"}, {skipped, "skipped"}, {failed, "not applied"}, {len(a.Pending), "left pending"}} {
		if p.n > 0 {
			s += fmt.Sprintf(", %d %s", p.n, p.what)
		}
	}
	return s
}

// Held is the changes of one action that plant code the person would run
// later: hooks, start-up files, editor run configurations, a new .git, a
// file that gained an executable bit. None of them is applied until
// Resolve; the gate asks the person first ("keep these changes?", default
// discard), at every level. Resolve must be called exactly once, with
// every answer false when nobody answers, and before the layers go.
type Held struct {
	Items []HeldChange

	e     *Executor
	label string
	mu    sync.Mutex
	done  bool
}

// A HeldChange is one change held for the person, with why.
type HeldChange struct {
	Change sandbox.Change
	// Reason says why it is held: the persistence table's words ("a git
	// hooks folder"), "gains an executable bit", "a new .git …".
	Reason string
	// Inside are the changes within a new folder held here (a new .git's
	// whole content): kept or discarded with it, never alone.
	Inside []sandbox.Change
	// Settings are the keys a held new git folder's config sets beyond
	// those a clone writes (gitconfig.go): git runs what many of them
	// name, so the popup names them all.
	Settings []string
}

// String is the change for the person's popup: "created ~/x/.git/hooks/
// pre-commit (a git hooks folder)". A new folder kept whole names the
// programs in it (Programs), so that a hook added to a clone does not
// ride along as one of "the 40 entries in it".
func (h HeldChange) String() string {
	s := h.Change.Kind.String() + " " + h.Change.Path + " (" + h.Reason + ")"
	if n := len(h.Inside); n > 0 {
		s += fmt.Sprintf(", with the %d entries in it", n)
		if progs := h.Programs(); len(progs) > 0 {
			shown := progs[:min(len(progs), 5)]
			s += ", programs among them: " + strings.Join(shown, ", ")
			if len(progs) > len(shown) {
				s += fmt.Sprintf(" and %d more", len(progs)-len(shown))
			}
		}
	}
	if n := len(h.Settings); n > 0 {
		shown := h.Settings[:min(n, 8)]
		s += "; its config sets " + strings.Join(shown, ", ")
		if n > len(shown) {
			s += fmt.Sprintf(" and %d more", n-len(shown))
		}
		s += " (git runs the programs settings name)"
	}
	return s
}

// Programs lists the entries inside a held new folder that would run,
// relative to the folder: regular files with an executable bit but git's
// sample hooks (NAME.sample, copied executable into every new repository,
// which git never runs), and links (hooks/post-checkout → pre-commit.sample
// runs the sample).
func (h HeldChange) Programs() []string {
	var out []string
	for _, c := range h.Inside {
		runs := c.Mode&fs.ModeSymlink != 0 || c.Mode.IsRegular() && c.Mode&0o111 != 0 && !strings.HasSuffix(c.Path, ".sample")
		if !runs {
			continue
		}
		if rel, err := filepath.Rel(h.Change.Path, c.Path); err == nil {
			out = append(out, rel)
		}
	}
	return out
}

// ApplyChanges applies the changes of one action that ran unasked (from
// sandbox.ReadLayer, parents first) to the real sandbox roots, by the
// rules at the top of this file:
//
//   - Created: what is at Path now, if anything, goes to the Trash, and
//     the new version is put in place (a new folder merges into a folder
//     already there; its entries follow as their own changes);
//   - Changed: what is at Path now goes to the Trash, then the new version
//     is put in place; a folder whose permissions alone changed gets them;
//   - Removed: what is at Path now goes to the Trash;
//   - Replaced: the folder at Path goes to the Trash, an empty one is
//     made, and its entries follow as Created.
//
// A regular file is renamed from the layer into a temporary name beside
// Path when both lie on one file system (copied there, and flushed, when
// not, or when the file has other names), then renamed into place; a
// link is made anew with the same target; a folder is made. Permission
// bits are kept, set-id and sticky bits dropped. A named pipe, socket or
// device is skipped.
//
// Changes that plant code are held, not applied (Held; nil when none):
// those at a place sanitize.Config.Plants names, a new .git anywhere, and
// a regular file that gains an executable bit. A held new folder carries
// the changes inside it (HeldChange.Inside): they are kept or discarded
// with it. A held change inside a new folder that is not held itself
// (proj/.envrc in a new proj) is held alone: the folder and its other
// entries are applied, and keeping the change later puts it in that
// folder. A change that could not be
// applied (a folder of its path swapped for a link meanwhile, say) has
// its new version moved to the Trash, into one folder named "Not applied
// by Airlock (label)", and the error wraps ErrNotApplied; the Applied
// still says what became of each change.
//
// A list over MaxChanges or MaxChangeBytes is refused with an error
// wrapping ErrTooManyChanges, and one that breaks sandbox.Change's rules
// with ErrBadChanges; nothing is applied then (DiscardChanges still takes
// it). ctx is checked between changes (one begun is finished): once it
// ends, the changes not yet applied, the held ones included, are returned
// in Applied.Pending, Held is nil, and the error wraps ctx's.
//
// It waits for the executor's turn, as Run does. RunScript, which holds
// it already, calls applyChanges.
func (e *Executor) ApplyChanges(ctx context.Context, changes []sandbox.Change, label string) (Applied, *Held, error) {
	release, err := e.turn(ctx)
	if err != nil {
		return Applied{Pending: changes}, nil, fmt.Errorf("applying the changes: %w", err)
	}
	defer release()
	return e.applyChanges(ctx, changes, label)
}

func (e *Executor) applyChanges(ctx context.Context, changes []sandbox.Change, label string) (Applied, *Held, error) {
	if err := e.canReview(); err != nil {
		return Applied{}, nil, err
	}
	infos, err := e.checkChanges(changes, true)
	if err != nil {
		return Applied{}, nil, err
	}
	r := e.sort(changes, infos)
	var out Applied
	out.Records = append(out.Records, r.skipped...)
	var failed []pending
	for i, c := range r.apply {
		if err := ctx.Err(); err != nil {
			out.Pending = append(out.Pending, r.apply[i:]...)
			for _, h := range r.held {
				out.Pending = append(out.Pending, h.Change)
				out.Pending = append(out.Pending, h.Inside...)
			}
			return out, nil, fmt.Errorf("applying the changes: stopped with %d left: %w", len(out.Pending), context.Cause(ctx))
		}
		rec := e.applyOne(c)
		out.Records = append(out.Records, rec)
		if rec.Status == ChangeFailed {
			failed = append(failed, pending{c, len(out.Records) - 1})
		}
	}
	err = e.discardFailed(&out, failed, label)
	var held *Held
	if len(r.held) > 0 {
		held = &Held{e: e, label: label}
		for _, h := range r.held {
			held.Items = append(held.Items, *h)
		}
	}
	return out, held, err
}

// pending is a change and the index of its record in an Applied.
type pending struct {
	c   sandbox.Change
	rec int
}

// discardFailed moves the new versions of the failed changes to the Trash
// and says which were not applied.
func (e *Executor) discardFailed(out *Applied, failed []pending, label string) error {
	if len(failed) == 0 {
		return nil
	}
	e.bundle("Not applied by Airlock", label, failed, out.Records)
	paths := make([]string, 0, min(len(failed), 5))
	for _, f := range failed[:min(len(failed), 5)] {
		paths = append(paths, e.short(f.c.Path)+" ("+out.Records[f.rec].Note+")")
	}
	more := ""
	if len(failed) > len(paths) {
		more = fmt.Sprintf(" and %d more", len(failed)-len(paths))
	}
	return fmt.Errorf("%w: %s%s", ErrNotApplied, strings.Join(paths, "; "), more)
}

// canReview says whether e can apply changes at all.
func (e *Executor) canReview() error {
	switch {
	case e.Paths == nil:
		return errors.New("applying the changes: no sandbox is configured")
	case e.Trash == nil:
		return errors.New("applying the changes: no Trash is configured, and Airlock never deletes outright")
	}
	return nil
}

// upperInfo is a new version in its layer, as lstat saw it.
type upperInfo struct {
	mode  fs.FileMode
	size  int64
	nlink uint64
}

// checkChanges checks a change list against sandbox.Change's rules and
// the bounds, and returns each new version's lstat (zero for a removal).
// limits says whether MaxChanges and MaxChangeBytes apply.
func (e *Executor) checkChanges(changes []sandbox.Change, limits bool) ([]upperInfo, error) {
	if limits && len(changes) > MaxChanges {
		return nil, fmt.Errorf("%w: %d paths changed, at most %d are applied; nothing was applied", ErrTooManyChanges, len(changes), MaxChanges)
	}
	infos := make([]upperInfo, len(changes))
	seen := make(map[string]int, len(changes))
	var total int64
	for i, c := range changes {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: change %d (%s %s): %s", ErrBadChanges, i+1, c.Kind, c.Path, fmt.Sprintf(format, args...))
		}
		if c.Kind < sandbox.Created || c.Kind > sandbox.Replaced {
			return nil, bad("unknown kind %d", int(c.Kind))
		}
		if _, rel, ok := rootOf(e.Paths.Roots, c.Path, foldCase); !ok {
			return nil, bad("the path is not absolute and clean inside a sandbox root")
		} else if rel == "." && c.Kind != sandbox.Changed {
			return nil, bad("a sandbox root itself cannot be %s", c.Kind)
		}
		key := c.Path
		if foldCase {
			key = strings.ToLower(key)
		}
		if j, dup := seen[key]; dup {
			return nil, bad("the path is listed twice (change %d)", j+1)
		}
		seen[key] = i
		if c.Kind == sandbox.Removed {
			if c.Upper != "" {
				return nil, bad("a removal has a new version")
			}
			continue
		}
		if !filepath.IsAbs(c.Upper) || filepath.Clean(c.Upper) != c.Upper {
			return nil, bad("its new version %q is not an absolute clean path", c.Upper)
		}
		st, err := os.Lstat(c.Upper)
		if err != nil {
			return nil, bad("its new version: %v", err)
		}
		infos[i] = upperInfo{mode: st.Mode(), size: st.Size(), nlink: 1}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			infos[i].nlink = uint64(sys.Nlink)
		}
		if c.Kind == sandbox.Replaced && !st.IsDir() {
			return nil, bad("a replaced folder's new version is not a folder")
		}
		if st.Mode().IsRegular() {
			total += st.Size()
		}
	}
	if limits && total > MaxChangeBytes {
		return nil, fmt.Errorf("%w: %d bytes of new files, at most %d are applied; nothing was applied", ErrTooManyChanges, total, int64(MaxChangeBytes))
	}
	if err := checkComplete(changes, infos, seen); err != nil {
		return nil, err
	}
	return infos, nil
}

// newFolder reports whether c makes a folder that did not exist before,
// every entry of which is new (and listed as a change of its own).
func newFolder(c sandbox.Change, mode fs.FileMode) bool {
	if !mode.IsDir() {
		return false
	}
	return c.Kind == sandbox.Created || c.Kind == sandbox.Replaced || c.Kind == sandbox.Changed && !c.Was.IsDir()
}

// checkComplete checks that every entry of a new folder's new version is
// listed as a change: one left out would be lost with the layer. A
// whiteout (a character device 0:0, overlayfs's mark of a removal) is no
// entry.
func checkComplete(changes []sandbox.Change, infos []upperInfo, seen map[string]int) error {
	for i, c := range changes {
		if !newFolder(c, infos[i].mode) {
			continue
		}
		d, err := os.Open(c.Upper)
		if err != nil {
			return fmt.Errorf("%w: change %d (%s): reading its new version: %v", ErrBadChanges, i+1, c.Path, err)
		}
		names, err := d.Readdirnames(-1)
		d.Close()
		if err != nil {
			return fmt.Errorf("%w: change %d (%s): reading its new version: %v", ErrBadChanges, i+1, c.Path, err)
		}
		for _, n := range names {
			key := filepath.Join(c.Path, n)
			if foldCase {
				key = strings.ToLower(key)
			}
			if _, ok := seen[key]; ok || isWhiteout(filepath.Join(c.Upper, n)) {
				continue
			}
			return fmt.Errorf("%w: the new folder %s holds %s, which is not listed as a change", ErrBadChanges, c.Path, n)
		}
	}
	return nil
}

// isWhiteout reports whether p is overlayfs's whiteout: a character
// device numbered 0:0.
func isWhiteout(p string) bool {
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && sys.Rdev == 0
}

// review is a change list sorted: what to apply, what to hold, and what
// is skipped outright, each in the list's order.
type review struct {
	apply   []sandbox.Change
	held    []*HeldChange
	skipped []ChangeRecord
}

// sort sorts checked changes (infos from checkChanges).
func (e *Executor) sort(changes []sandbox.Change, infos []upperInfo) review {
	var r review
	heldDirs := map[string]*HeldChange{} // new folders held, by path
	look := e.plantLook(changes)
	for i, c := range changes {
		if h := heldAbove(heldDirs, c.Path); h != nil {
			h.Inside = append(h.Inside, c)
			continue
		}
		mode := infos[i].mode
		if c.Kind != sandbox.Removed && !mode.IsRegular() && !mode.IsDir() && mode&fs.ModeSymlink == 0 {
			r.skipped = append(r.skipped, ChangeRecord{Kind: c.Kind, Path: c.Path, Status: ChangeSkipped, Mode: mode,
				Note: "not applied: " + kindOfFile(mode) + " (only files, folders and links are)"})
			continue
		}
		if why := e.plants(c, mode, look); why != "" {
			h := &HeldChange{Change: c, Reason: why}
			r.held = append(r.held, h)
			if newFolder(c, mode) {
				heldDirs[c.Path] = h
			}
			continue
		}
		r.apply = append(r.apply, c)
	}
	for _, h := range r.held {
		if len(h.Inside) > 0 && isGitFolder(h) {
			h.Settings = gitSettings(h.Change.Path, h.Inside)
		}
	}
	return r
}

// isGitFolder reports whether a held new folder is a git folder: a .git,
// or a folder holding HEAD (a bare repository of any name).
func isGitFolder(h *HeldChange) bool {
	if strings.EqualFold(filepath.Base(h.Change.Path), ".git") {
		return true
	}
	return slices.ContainsFunc(h.Inside, func(c sandbox.Change) bool {
		return filepath.Dir(c.Path) == h.Change.Path && filepath.Base(c.Path) == "HEAD"
	})
}

// heldAbove returns the held new folder that p lies in, if any.
func heldAbove(held map[string]*HeldChange, p string) *HeldChange {
	if len(held) == 0 {
		return nil
	}
	for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
		if h, ok := held[d]; ok {
			return h
		}
	}
	return nil
}

// plants says why c plants code the person would run later ("" when it
// does not): its path is a persistence place (sanitize.Config.Plants) or
// where a place of the home leads through a link (linked.go), a file git's
// configuration includes (gitinclude.go), a file a start-up file loads
// (sourced.go), an environment file that loads code (envfile.go), a file
// that runs code when the person opens it (sanitize.RunsWhenOpened), it is
// a new .git, it lies in or makes a git folder of another name (gitdir.go), it
// is a regular file that gains an executable bit, or it replaces a program
// with other code without one (program.go). A removal plants when it
// removes a settings file at such a place (removedSettings); a folder
// whose permissions did not change plants nothing.
func (e *Executor) plants(c sandbox.Change, mode fs.FileMode, look *plantLook) string {
	if why := e.shownWhy(c, mode); why != "" {
		return why
	}
	if c.Kind == sandbox.Removed {
		if why := e.unpairsKey(c, look); why != "" {
			return why
		}
		return e.removedSettings(c)
	}
	if metadataNoop(c, mode) {
		return ""
	}
	if strings.EqualFold(filepath.Base(c.Path), ".git") {
		return "a new .git, whose hooks and configuration git runs"
	}
	if z, ok := e.Paths.Plants(c.Path); ok {
		return z.Detail
	}
	if why := look.openedWhy(c, mode); why != "" {
		return why
	}
	if why := envFileWhy(c, mode); why != "" {
		return why
	}
	if why := look.linkedWhy(e, c); why != "" {
		return why
	}
	if why := look.includedWhy(e, c); why != "" {
		return why
	}
	if why := look.sourcedWhy(e, c); why != "" {
		return why
	}
	if why := look.git.why(c, mode); why != "" {
		return why
	}
	if mode.IsRegular() && mode&0o111 != 0 {
		if c.Kind == sandbox.Changed && c.Was.IsRegular() && c.Was&0o111 != 0 {
			// A program rewritten is code the person runs later, as
			// much as a new one: a hook in a folder core.hooksPath
			// names, a deploy script.
			return "rewrites a program (an executable file)"
		}
		return "gains an executable bit"
	}
	return e.unbitsProgram(c, mode)
}

// removedSettings says why the removal c plants ("" when it does not).
// A settings file at a persistence place may be what stops its tool from
// running code: a pip.conf or uv.toml that takes built wheels only (no
// setup.py run), a Cargo config whose wrapper confines the build, a
// .envrc that unsets what a parent's sets. Its removal turns on what it
// turned off at the next install or build, before anyone looks in the
// Trash, so it is held like an edit. Removing a folder, installed or
// compiled code (node_modules, site-packages, __pycache__ …) or git's own
// files (a merge's message, a lock) turns nothing on: those land.
//
// A folder removed takes what it holds with it: the folder .cargo moved
// to another name (mv .cargo old, MOVE_FILE) leaves the project without
// its Cargo config as surely as removing the file does (a red team's
// find, TestRed13FolderMovedTakesItsSettings). So a removed folder is
// judged by the files it held, read where they still are (the lower
// layer; the source of a move not yet made): one such settings file holds
// it, but in git's folders, installed code and virtual environments. A
// folder too large to look through is held too.
func (e *Executor) removedSettings(c sandbox.Change) string {
	if c.Was.IsDir() {
		return e.removedFolderSettings(c.Path)
	}
	if !c.Was.IsRegular() && c.Was&fs.ModeSymlink == 0 {
		return ""
	}
	z, ok := e.Paths.Plants(c.Path)
	if !ok {
		return ""
	}
	for _, el := range strings.Split(c.Path, "/") {
		if installedOrGit(el) {
			return ""
		}
	}
	return "removes " + z.Detail + ": what it turns off runs at the next use"
}

// unpairsKey says why the removal c (a move away, a rename) unhides a
// private key ("" when it does not): ssh-keygen -f NAME writes the key as
// NAME, a name that says nothing, and the sandbox hides it from unasked
// actions because NAME.pub lies beside it (holdsPrivateKey). Taking
// NAME.pub away, and not NAME with it, leaves the key where the next
// unasked command reads it (a red team's find,
// TestRed13PublicKeyTakenFromItsPair).
func (e *Executor) unpairsKey(c sandbox.Change, look *plantLook) string {
	dir, base := filepath.Split(c.Path)
	name, ok := strings.CutSuffix(base, ".pub")
	if !ok || name == "" || !c.Was.IsRegular() {
		return ""
	}
	key := filepath.Join(dir, name)
	for _, o := range look.changes {
		if o.Kind == sandbox.Removed && (o.Path == key || inside(key, o.Path)) {
			return "" // the key goes with it
		}
	}
	if _, named := rate.SecretFile(name); named || !holdsPrivateKey(filepath.Clean(dir), name, true) {
		return ""
	}
	return "it takes " + e.short(c.Path) + " away from the private key beside it, " + e.short(key) +
		", which unasked actions do not see only because its public key lies beside it"
}

// environmentFolder reports whether the folder p is a Python virtual
// environment (pyvenv.cfg) or a conda one (conda-meta): installed code,
// whose activate scripts run only when the person activates it there.
func environmentFolder(p string) bool {
	for _, marker := range []string{"pyvenv.cfg", "conda-meta"} {
		if _, err := os.Lstat(filepath.Join(p, marker)); err == nil {
			return true
		}
	}
	return false
}

// installedOrGit reports whether the path element el is git's own folder,
// compiled code or a folder of installed code, whose removal turns
// nothing on.
func installedOrGit(el string) bool {
	el = strings.ToLower(el)
	return strings.HasSuffix(el, ".git") || strings.HasSuffix(el, ".pyc") || slices.Contains(installedCode, el)
}

// removedFolderSettings says why removing the folder dir, with what it
// holds, plants ("" when it does not): a settings file in it whose own
// removal would (removedSettings). Git's folders and installed code are
// not looked into; past MaxChanges entries it is held unlooked.
func (e *Executor) removedFolderSettings(dir string) string {
	for _, el := range strings.Split(dir, "/") {
		if installedOrGit(el) {
			return ""
		}
	}
	why, n := "", 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > MaxChanges {
			return fmt.Errorf("it holds more than %d files and folders", MaxChanges)
		}
		if d.IsDir() {
			if p != dir && installedOrGit(d.Name()) || environmentFolder(p) {
				return filepath.SkipDir
			}
			return nil
		}
		if w := e.removedSettings(sandbox.Change{Kind: sandbox.Removed, Path: p, Was: d.Type()}); w != "" {
			why = w + " (it lies in " + e.short(dir) + ")"
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "removes a folder that could not be looked through for settings whose removal runs code (" + err.Error() + ")"
	}
	return why
}

// installedCode are the folders of installed and compiled code in the
// persistence table, whose files' removal removes code and turns on none.
var installedCode = []string{"node_modules", "site-packages", "dist-packages", "__pypackages__", "__pycache__"}

// metadataNoop reports whether c is a folder said to have changed whose
// type and permission bits are what they were: nothing to apply.
func metadataNoop(c sandbox.Change, mode fs.FileMode) bool {
	return c.Kind == sandbox.Changed && mode.IsDir() && c.Was.IsDir() && c.Was.Perm() == mode.Perm()
}

// kindOfFile names a file's type for a note.
func kindOfFile(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a link"
	case m.IsRegular():
		return "a file"
	}
	return "an irregular file"
}

// Resolve applies the held changes the person kept (keep[i] for Items[i],
// with what is inside it) by ApplyChanges' rules, at this moment, and
// moves the new versions of the others to the Trash, into one folder named
// "Discarded by Airlock (label)": nothing is lost. Every one is recorded
// with Held set. If ctx ends midway, the changes not yet applied are
// discarded all the same, and the error wraps ctx's. It may be called
// once; it waits for the executor's turn.
func (h *Held) Resolve(ctx context.Context, keep []bool) (Applied, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		return Applied{}, errors.New("these held changes were already resolved")
	}
	if len(keep) != len(h.Items) {
		return Applied{}, fmt.Errorf("resolving held changes: %d answers for %d changes", len(keep), len(h.Items))
	}
	release, err := h.e.turn(ctx)
	if err != nil {
		// Not even started: everything is discarded, in the turn it waits
		// for without ctx.
		release, _ = h.e.turn(context.WithoutCancel(ctx))
		keep = make([]bool, len(keep))
	}
	defer release()
	h.done = true
	out, rerr := h.e.resolve(ctx, h.Items, keep, h.label)
	return out, errors.Join(err, rerr)
}

// resolve is Resolve in the executor's turn.
func (e *Executor) resolve(ctx context.Context, items []HeldChange, keep []bool, label string) (Applied, error) {
	var out Applied
	var discard, failed []pending
	var stopped error
	add := func(c sandbox.Change, note string, status ChangeStatus) int {
		out.Records = append(out.Records, ChangeRecord{Kind: c.Kind, Path: c.Path, Status: status, Held: true, Note: note})
		return len(out.Records) - 1
	}
	for i, it := range items {
		all := append([]sandbox.Change{it.Change}, it.Inside...)
		for _, c := range all {
			if stopped == nil && ctx.Err() != nil {
				stopped = fmt.Errorf("resolving held changes: stopped, the rest discarded: %w", context.Cause(ctx))
			}
			if !keep[i] || stopped != nil {
				note := "held (" + it.Reason + "), discarded"
				discard = append(discard, pending{c, add(c, note, ChangeDiscarded)})
				continue
			}
			rec := e.applyOne(c)
			rec.Held = true
			rec.Note = joinNote("held ("+it.Reason+"), kept", rec.Note)
			out.Records = append(out.Records, rec)
			if rec.Status == ChangeFailed {
				failed = append(failed, pending{c, len(out.Records) - 1})
			}
		}
	}
	e.bundle("Discarded by Airlock", label, discard, out.Records)
	return out, errors.Join(stopped, e.discardFailed(&out, failed, label))
}

// DiscardChanges applies none of changes (those of an action that was
// killed or failed, or left pending): the new versions go to the Trash,
// into one folder named "Discarded by Airlock (label)", and each change is
// recorded as discarded; a removal leaves what it removed in place. It
// does not stop for ctx once its turn has come: what it leaves would be
// lost with the layer. Pass a context the kill switch does not cancel.
func (e *Executor) DiscardChanges(ctx context.Context, changes []sandbox.Change, label string) (Applied, error) {
	release, err := e.turn(ctx)
	if err != nil {
		return Applied{Pending: changes}, fmt.Errorf("discarding the changes: %w", err)
	}
	defer release()
	return e.discardChanges(changes, label)
}

func (e *Executor) discardChanges(changes []sandbox.Change, label string) (Applied, error) {
	if err := e.canReview(); err != nil {
		return Applied{}, err
	}
	if _, err := e.checkChanges(changes, false); err != nil {
		return Applied{}, err
	}
	var out Applied
	items := make([]pending, len(changes))
	for i, c := range changes {
		out.Records = append(out.Records, ChangeRecord{Kind: c.Kind, Path: c.Path, Status: ChangeDiscarded, Note: "discarded"})
		items[i] = pending{c, i}
	}
	if err := e.bundle("Discarded by Airlock", label, items, out.Records); err != nil {
		return out, fmt.Errorf("discarding the changes: %w", err)
	}
	return out, nil
}

func joinNote(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}
