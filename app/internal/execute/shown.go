package execute

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// A file opened in a viewer (launchFile) is rated as it is right before
// the launch, and the viewer is given its path. The viewer reads it when
// it has started, a moment later, and again whenever it changes (Evince
// and Okular reload a file that changes): what it reads then is whatever
// lies at that path. Two Caution moves after the launch — the file, or a
// folder on its way, moved to a free name, and another moved into its
// place — put a program there (PostScript, which those viewers run in
// Ghostscript), and the viewer ran it outside the sandbox (a red team's
// find, TestRed13SwappedAfterTheLaunchCheck). So while the program it was
// opened with runs, and for some minutes in any case, what was opened is
// shown: a change that would put something else at its path — it or a
// folder it lies in moved away, removed, replaced, or something made in
// its place — is held for the person by the review of an unasked action,
// and an unasked MOVE_FILE or COPY_FILE that would make one is refused
// (both through plants). Inside a folder a file manager shows, only a
// file its thumbnailers run (PostScript, by name or first bytes) is: a
// folder opens unasked only when it holds none (facts.LookAt), and one
// put in afterwards is thumbnailed as it appears (a red team's find,
// TestRed13ProgramIntoShownFolder); every other new file lands.

// shownFile is one thing a launch opened: its path, the process of the
// program it was opened with (0 when none is known) and until when it
// counts as shown whatever that process does (a program that hands the
// file to its instance already running and exits: that one shows it).
type shownFile struct {
	path   string
	folder bool
	pid    int
	until  time.Time
}

// shownFiles are the files and folders opened by launches whose program
// still runs.
type shownFiles struct {
	mu    sync.Mutex
	files []shownFile
}

// maxShown bounds the list: past it the oldest is dropped.
const maxShown = 256

// shownAtLeast is how long a launch counts as showing what it opened,
// however soon its process ends.
const shownAtLeast = 10 * time.Minute

// add records that path (a folder when folder) was opened with the
// program of process pid (0 for none known).
func (s *shownFiles) add(path string, folder bool, pid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.files) >= maxShown {
		s.files = s.files[1:]
	}
	s.files = append(s.files, shownFile{path: path, folder: folder, pid: pid, until: time.Now().Add(shownAtLeast)})
}

// at returns what a running program shows that p is or holds ("" for
// nothing), and whether a folder it shows holds p directly (in), forgetting
// what no program shows any more.
func (s *shownFiles) at(p string) (found string, in bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := s.files[:0]
	for _, f := range s.files {
		if !f.live() {
			continue
		}
		keep = append(keep, f)
		if found == "" && (f.path == p || inside(f.path, p)) {
			found = f.path
		}
		in = in || f.folder && filepath.Dir(p) == f.path
	}
	clear(s.files[len(keep):])
	s.files = keep
	return found, in
}

// live reports whether f's time is not up, or the program it was opened
// with still runs (a process of another user's counts).
func (f shownFile) live() bool {
	if time.Now().Before(f.until) {
		return true
	}
	if f.pid <= 0 {
		return false
	}
	err := unix.Kill(f.pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// shownWhy says why the change c (its new mode mode) changes what a
// running program was opened with ("" when it does not).
func (e *Executor) shownWhy(c sandbox.Change, mode fs.FileMode) string {
	if c.Kind != sandbox.Removed && metadataNoop(c, mode) {
		return ""
	}
	p, in := e.shown.at(c.Path)
	if p != "" {
		return "it changes what lies at " + e.short(p) + ", which a program an action opened it in shows and reads again; what it would read now was not checked"
	}
	if in && c.Kind != sandbox.Removed && (mode.IsRegular() || mode&fs.ModeSymlink != 0) && facts.ShownProgram(c.Path, upperTarget(c)) {
		return "it puts a file a file manager's thumbnailer runs when it shows it (PostScript) in " + e.short(filepath.Dir(c.Path)) + ", which a file manager an action opened shows"
	}
	return ""
}

// upperTarget is where c's new content is read: its new version, or for a
// link what it leads to from where it will lie.
func upperTarget(c sandbox.Change) string {
	if t, err := os.Readlink(c.Upper); err == nil {
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(c.Path), t)
		}
		return t
	}
	return c.Upper
}
