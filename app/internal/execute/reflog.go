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
// a .envrc in it) plants it as surely as moving a branch. A commit only
// appends a "commit:" line to HEAD's reflog, so an append without a
// checkout line is applied; a rewrite of what was there, a checkout line,
// or any change to the stash's reflog (its pushes move refs/stash, held
// anyway) is held.

// maxReflog bounds what is read of a reflog; a longer one changed is held.
const maxReflog = 16 << 20

// checkoutLine is what git writes in HEAD's reflog when it switches.
var checkoutLine = []byte("\tcheckout: moving from ")

// reflogWhy says why c, the reflog rel (logs/…) of the git folder d,
// plants ("" when it does not).
func (g *gitFolders) reflogWhy(d, rel string, c sandbox.Change, mode fs.FileMode) string {
	what := ""
	switch rel {
	case "logs/HEAD":
		what = "HEAD's reflog, whose checkout lines git checkout - follows"
	case "logs/refs/stash":
		return "changes the stash's list in " + g.e.short(d) + ": git stash pop applies the commits it names without this review"
	default:
		return ""
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
	if bytes.Contains(after[len(before):], checkoutLine) {
		return "adds a checkout to " + what + ", in " + g.e.short(d) + ": git checkout - then writes the files of the commit it names without this review"
	}
	return ""
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
