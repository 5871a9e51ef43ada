package rate

import (
	"errors"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Presence is what a path names on the disk now, as far as an analyzer can
// tell: a command that puts a file where one exists destroys that file (an
// overwrite, not to the Trash), one that makes a new file does not.
type Presence uint8

// What a path names.
const (
	PresenceUnknown Presence = iota // cannot tell: no paths configured, or not a plain path
	Absent                          // nothing there
	PresentFile                     // a file, a link or anything else that is not a folder
	PresentFolder                   // a folder (or a link to one)
)

// Presence looks p up on the disk: a plain absolute path or one under the
// home (~/…, $HOME/…), another account's home mapped to the configured one
// as ClassifyPath does. It is the analyzers' one look at the file system
// besides the sanitiser's symbolic-link resolution, and it answers for the
// moment of the assessment only: what is there then is what a command run
// right after would replace. An Env without paths knows nothing of the
// machine, and a path with a ".." element is not judged: both are
// PresenceUnknown.
func (e *Env) Presence(p string) Presence {
	abs, ok := e.judged(p)
	if !ok {
		return PresenceUnknown
	}
	fi, err := os.Lstat(abs)
	switch {
	case os.IsNotExist(err) || errors.Is(err, syscall.ENOTDIR):
		return Absent
	case err != nil:
		return PresenceUnknown
	case fi.IsDir():
		return PresentFolder
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if t, err := os.Stat(abs); err == nil && t.IsDir() {
			return PresentFolder
		}
	}
	return PresentFile
}

// judged returns the absolute path on this machine of p, an action's path
// (~ expanded, another user's home mapped to this one), and whether it is
// one the environment judges: paths configured, p absolute once expanded,
// nothing computed at run time in it, no ".." element.
func (e *Env) judged(p string) (string, bool) {
	if e == nil || e.Paths == nil || p == "" {
		return "", false
	}
	abs, err := sanitize.ExpandHome(p, e.Paths.Home)
	if err != nil || !strings.HasPrefix(abs, "/") || strings.Contains(abs, HoleMark) {
		return "", false
	}
	for _, el := range strings.Split(abs, "/") {
		if el == ".." {
			return "", false
		}
	}
	return OtherHome(path.Clean(abs), e.Paths.Home), true
}
