package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// The DSL's MOVE_FILE and COPY_FILE to a new name are Caution, so they run
// unasked, and they run here, in the gate's process: no copy-on-write view
// is reviewed after them. The analyzer knows a persistence place by its
// path, but what the review knows only by looking — a file a start-up
// file sources, an environment file that loads code, a HEAD that makes a
// folder with a config a git folder, a place of the home reached through
// a link, a file git's configuration includes, a program's executable bit
// — it cannot. So a move or a copy that runs unasked is reviewed before it
// is made, by the same rules (plants): its changes are laid out as a layer
// would hold them, in a folder of the root made for that (hard links to
// the new versions, no data copied), and one that plants is refused (a
// red team's find, TestRed12FileOpsPlantPastTheReview). A command (mv, cp)
// does the same with the person's say: its review holds such a change for
// them.
//
// A move or a copy is also a read of its source. The analyzer knows a
// secret file by its name (.env) and rates copying one Dangerous, but the
// sandbox hides more from an unasked action than names say: a private key
// by its armour, a home's credential store copied into a root
// (rootsecrets.go). So the layout is walked as the roots are, and a move
// or copy that would leave such a file where the walk does not hide it
// (prod.pem copied to notes.md) is refused unasked
// (TestRed12FileOpsUnhideSecrets).

// ErrPlantsCode is wrapped by the error of a move or copy that runs unasked
// and would plant code the person runs later; it was not made.
var ErrPlantsCode = errors.New("it would plant code that runs later without the person")

// ErrShowsSecret is wrapped by the error of a move or copy that runs
// unasked and would put a file the sandbox hides from unasked actions
// (rootsecrets.go: a private key known by its armour, a home's credential
// store copied into a root) under a name and in a place where it does
// not: a copy is a read, and the next unasked command would print it.
var ErrShowsSecret = errors.New("it would put a secret where unasked actions read it")

// maxOpReview bounds the entries of a moved or copied folder reviewed
// before the move or copy, as MaxChanges bounds a command's; past it the
// move or copy is refused unasked.
const maxOpReview = MaxChanges

// checkFileOp reviews moving (move) or copying from to to, unless the
// person approved it (WithApproved), before it is made: it fails, wrapping
// ErrPlantsCode, when the change plants code, and wrapping ErrShowsSecret
// when it leaves a file the sandbox hides from unasked actions where it
// does not. src is the new version's content: the source of a move, the
// finished temporary copy of a copy; old is what is at to now.
func (e *Executor) checkFileOp(ctx context.Context, src, to, from string, move bool, old *entryInfo) error {
	if approvedIn(ctx) {
		return nil
	}
	root := outerRoot(e.Paths.Roots, to)
	rel, err := filepath.Rel(root, to)
	if root == "" || err != nil || rel == "." {
		return nil // the operation refuses it itself
	}
	all, _, err := e.links.secretFiles(e.Paths.Roots)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrShowsSecret, err)
	}
	var hidden []string // what of the source the sandbox hides unasked
	for _, f := range all {
		if f == from || inside(f, from) || inside(from, f) {
			hidden = append(hidden, f)
		}
	}
	stage, err := os.MkdirTemp(root, tempPrefix+"review-")
	if err != nil {
		return fmt.Errorf("%w: it could not be reviewed first (%v)", ErrPlantsCode, err)
	}
	defer os.RemoveAll(stage)
	upper := filepath.Join(stage, rel)
	if err := os.MkdirAll(filepath.Dir(upper), 0o700); err != nil {
		return fmt.Errorf("%w: it could not be reviewed first (%v)", ErrPlantsCode, err)
	}
	n := 0
	if err := mirror(ctx, src, upper, &n); err != nil {
		if ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("%w: it could not be reviewed first (%v)", ErrPlantsCode, err)
	}
	if err := e.stillHidden(hidden, from, stage, upper, root); err != nil {
		return err
	}
	var changes []sandbox.Change
	err = filepath.WalkDir(upper, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(stage, p)
		c := sandbox.Change{Kind: sandbox.Created, Path: filepath.Join(root, r), Upper: p, Mode: fi.Mode(), Size: fi.Size()}
		if p == upper && old != nil {
			c.Kind, c.Was = sandbox.Changed, old.mode
		}
		changes = append(changes, c)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: it could not be reviewed first (%v)", ErrPlantsCode, err)
	}
	if move {
		if fi, err := os.Lstat(from); err == nil && outerRoot(e.Paths.Roots, from) != "" {
			changes = append(changes, sandbox.Change{Kind: sandbox.Removed, Path: from, Was: fi.Mode()})
		}
	}
	look := e.plantLook(changes)
	look.movedFrom = sourceOf(from, to)
	for _, c := range changes {
		// A file keeps the bits it had: an executable one is the
		// person's program moved or copied (what an action makes
		// executable is held), not one that gains its bit.
		mode := c.Mode
		if mode.IsRegular() {
			mode &^= 0o111
		}
		if why := e.plants(c, mode, look); why != "" {
			return fmt.Errorf("%w: %s: %s; run it as a command (mv, cp), whose changes are held for you to keep or discard",
				ErrPlantsCode, e.short(c.Path), why)
		}
	}
	return nil
}

// stillHidden fails, wrapping ErrShowsSecret, when a file of hidden (what
// the sandbox hides from unasked actions in from, or from itself, or the
// folder from lies in) would not be hidden where the move or copy puts it:
// the stage (upper, in stage, is the new to) is walked as the roots are
// (rootsecrets.go), and each must be, or lie in, what that walk hides.
func (e *Executor) stillHidden(hidden []string, from, stage, upper, root string) error {
	if len(hidden) == 0 {
		return nil
	}
	var x rootLinks
	found, _, err := x.secretFiles([]string{stage})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrShowsSecret, err)
	}
	covered := func(p string) bool {
		for _, f := range found {
			if p == f || inside(p, f) {
				return true
			}
		}
		return false
	}
	for _, h := range hidden {
		at := upper // from lies in h: the whole of it is secret
		if inside(h, from) {
			r, _ := filepath.Rel(from, h)
			at = filepath.Join(upper, r)
		}
		if !covered(at) {
			r, _ := filepath.Rel(stage, at)
			return fmt.Errorf("%w: %s is hidden from unasked actions (%s), and %s would not be; a copy or move of it asks first",
				ErrShowsSecret, e.short(h), "its name, content or place says it holds a secret", e.short(filepath.Join(root, r)))
		}
	}
	return nil
}

// mirror lays out at dst what src is: a folder with everything in it, a
// file as a hard link to it (a copy when the disks differ), a link as the
// link; anything else is left out (the operation refuses it). n counts
// the entries, at most maxOpReview. It stops when ctx is done (the kill
// switch).
func mirror(ctx context.Context, src, dst string, n *int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if *n++; *n > maxOpReview {
		return fmt.Errorf("it holds more than %d files and folders", maxOpReview)
	}
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	switch {
	case fi.IsDir():
		if err := os.Mkdir(dst, fi.Mode().Perm()|0o700); err != nil {
			return err
		}
		es, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, ent := range es {
			if err := mirror(ctx, filepath.Join(src, ent.Name()), filepath.Join(dst, ent.Name()), n); err != nil {
				return err
			}
		}
		return os.Chmod(dst, fi.Mode().Perm())
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(t, dst)
	case fi.Mode().IsRegular():
		if os.Link(src, dst) == nil {
			return nil
		}
		return copyRegular(src, dst, fi.Mode().Perm())
	}
	return nil
}

// copyRegular copies the regular file src to a new file dst with perm.
func copyRegular(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, perm)
}
