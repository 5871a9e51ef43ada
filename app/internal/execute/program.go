package execute

import (
	"bytes"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// A program rewritten is held (plants), and the bit the new version has
// must not decide it: a script replaced by a file without the executable
// bit, or by a link to a file the action wrote, still runs wherever it is
// run by an interpreter (bash tools/deploy.sh in a package.json, a
// Makefile, a hook runner), and ./deploy.sh's "permission denied" is fixed
// by the chmod +x it prompts (a fourth red team's find,
// TestRedNextProgramRewrittenWithoutItsBit). Dropping the bit alone, the
// content as it was, plants nothing.

// unbitsProgram says why c replaces a program (a regular file with an
// executable bit) with other code the person still runs, and loses the
// bit doing so: a link, or a regular file whose content differs. "" when
// it does not.
func (e *Executor) unbitsProgram(c sandbox.Change, mode fs.FileMode) string {
	if c.Kind != sandbox.Changed || !c.Was.IsRegular() || c.Was&0o111 == 0 || mode&0o111 != 0 && mode.IsRegular() {
		return ""
	}
	switch {
	case mode&fs.ModeSymlink != 0:
		return "replaces a program (an executable file) with a link"
	case mode.IsRegular() && !e.sameAsBefore(c):
		return "rewrites a program (an executable file) and takes its executable bit away"
	}
	return ""
}

// sameAsBefore reports whether the regular file c's new version (in its
// layer) holds what the file at c.Path holds now. The old one is reached
// from its root as every change is (no link followed), the new one
// without following a link; anything that cannot be read is different.
func (e *Executor) sameAsBefore(c sandbox.Change) bool {
	s, err := e.locate(c.Path)
	if err != nil {
		return false
	}
	defer s.dir.Close()
	old, err := openRegular(s.dir, s.name)
	if err != nil {
		return false
	}
	defer old.Close()
	fd, err := unix.Open(c.Upper, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	upper := os.NewFile(uintptr(fd), c.Upper)
	defer upper.Close()
	a, errA := old.Stat()
	b, errB := upper.Stat()
	if errA != nil || errB != nil || !b.Mode().IsRegular() || a.Size() != b.Size() {
		return false
	}
	return sameStream(old, upper)
}

// sameStream reports whether a and b hold the same bytes to their ends.
func sameStream(a, b io.Reader) bool {
	bufA, bufB := make([]byte, 32<<10), make([]byte, 32<<10)
	for {
		na, errA := io.ReadFull(a, bufA)
		nb, errB := io.ReadFull(b, bufB)
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		if endA || endB {
			return endA && endB
		}
		if errA != nil || errB != nil {
			return false
		}
	}
}
