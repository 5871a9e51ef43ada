package execute

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// A reflog is git data too, but two of them choose what git checks out:
// git checkout - (and @{-1}) checks out the commit or branch the newest
// "checkout: moving from X to Y" line of HEAD's reflog names as X, and git
// stash pop stash@{n} applies the commit line n of the stash's reflog
// names. An action that adds such a line naming a commit of its own (with
// a .envrc in it) plants it as surely as moving a branch, and so does a
// line naming one as HEAD@{1}, where git reset --hard HEAD@{1}, the usual
// undo, goes. A commit only appends to HEAD's reflog and its branch's a
// line from the branch's commit before to the one after, so such an append
// is applied when the branch's move is (gitstate.go); a rewrite of what
// was there, a checkout line, any other line, or any change to the
// stash's reflog (its pushes move refs/stash, held anyway) is held.

// maxReflog bounds what is read of a reflog; a longer one changed is held.
const maxReflog = 16 << 20

// checkoutLine is what git writes in HEAD's reflog when it switches.
var checkoutLine = []byte("\tcheckout: moving from ")

// reflogWhy says why c, the reflog rel (logs/…) of the git folder d,
// plants ("" when it does not). Only HEAD's and the checked-out branch's
// may change without the person: the moves of every other ref are held,
// and so are their reflogs (git reset --hard dev@{1} writes what one
// names).
func (g *gitFolders) reflogWhy(d, rel string, c sandbox.Change, mode fs.FileMode) string {
	what := ""
	head, _ := g.headRef(d, "HEAD")
	switch {
	case rel == "logs/HEAD":
		what = "HEAD's reflog, whose checkout lines git checkout - follows"
	case rel == "logs/refs/stash":
		return "changes the stash's list in " + g.e.short(d) + ": git stash pop applies the commits it names without this review"
	case head != "" && rel == "logs/"+head:
		what = head + "'s reflog"
	default:
		return "changes " + rel + " in " + g.e.short(d) + ", the reflog of a ref whose moves are held: git reset --hard to a commit it names writes its files without this review"
	}
	rewrites := "rewrites " + what + ", in " + g.e.short(d)
	if !mode.IsRegular() {
		return rewrites
	}
	after, ok := readReflog(os.OpenFile(c.Upper, os.O_RDONLY|syscall.O_NOFOLLOW, 0))
	if !ok {
		return rewrites
	}
	var before []byte
	if c.Kind != sandbox.Created {
		if before, ok = readReflog(g.openReal(d, rel)); !ok {
			return rewrites
		}
	}
	if !bytes.HasPrefix(after, before) {
		return rewrites
	}
	added := after[len(before):]
	if bytes.Contains(added, checkoutLine) {
		return "adds a checkout to " + what + ", in " + g.e.short(d) + ": git checkout - then writes the files of the commit it names without this review"
	}
	if len(added) > 0 && !g.reflogMovesOK(d, rel, head, added) {
		return "adds to " + what + ", in " + g.e.short(d) + ", a move other than the checked-out branch's own: git reset --hard HEAD@{1} then writes the files of a commit it names without this review"
	}
	return ""
}

// reflogMovesOK reports whether every line added to the reflog rel of
// HEAD or of head, the branch HEAD named before the action, records the
// branch's move from its commit before to its commit after (or a line
// that stays on either, as git reset --hard HEAD writes), and that move is
// one the review applies: then HEAD@{n} names only those two commits.
func (g *gitFolders) reflogMovesOK(d, rel, head string, added []byte) bool {
	r := g.repo(d)
	if head == "" || r.herr != nil || g.branchMoveWhy(d, head) != "" || rel == "logs/HEAD" && g.headMoved(d) {
		return false
	}
	before, berr := g.refBefore(d, head, r.h)
	after, aerr := g.refAfter(d, head, r.h)
	if berr != nil || aerr != nil || after == nil {
		return false
	}
	if before == nil {
		before = make([]byte, r.h.size) // git's zero id: the branch was unborn
	}
	for line := range bytes.SplitSeq(bytes.TrimSuffix(added, []byte("\n")), []byte("\n")) {
		ids := bytes.SplitN(line, []byte(" "), 3)
		if len(ids) < 3 {
			return false
		}
		o, ok1 := r.h.hexID(string(ids[0]))
		n, ok2 := r.h.hexID(string(ids[1]))
		if !ok1 || !ok2 || !bytes.Equal(n, after) || !bytes.Equal(o, before) && !bytes.Equal(o, after) {
			return false
		}
	}
	return true
}

// readReflog reads the whole of f, at most maxReflog bytes, and closes it;
// false when it cannot be opened or read whole.
func readReflog(f *os.File, err error) ([]byte, bool) {
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxReflog+1))
	if err != nil || len(b) > maxReflog {
		return nil, false
	}
	return b, true
}
