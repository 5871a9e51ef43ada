package execute

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// A project's .envrc, .vscode or hook may be a link to a file or folder
// elsewhere in a sandbox root (work/.envrc → ../shared/envrc), which direnv,
// the editor or git follow. An action that rewrites shared/envrc rewrites
// the .envrc, and the persistence table does not know shared/envrc by its
// name. So the gate keeps an index of the links in the roots, and a change
// a link leads to is judged at every path it is reached by: held when one
// of them is a place of the table (linkedWhy).
//
// Walking a root at every review would cost a second for a large
// Documents folder, so the index keeps, for each folder, its stamp (times
// and inode) and the names of its links, sub-folders and secret files
// (rootsecrets.go); a walk after the first reads again only the folders
// whose stamp changed (an entry made, removed or replaced changes its
// folder's times), one lstat for the others.

// maxIndexed bounds the entries one walk of the roots looks at. Past it
// the index is incomplete and the review fails closed: a change to a file
// that existed is held, since a link the walk did not reach may lead to it.
const maxIndexed = 2_000_000

// maxIndexDepth bounds how deep the walk goes below a root; a folder below
// it makes the walk incomplete, as the entry bound does. A path deeper
// than this is not one a person keeps a project at (Linux's PATH_MAX
// allows about 2,000 one-letter folders).
const maxIndexDepth = 256

// racyWindow is how recent a folder's change may be for its listing not to
// be trusted at the next walk. A folder's times come from a clock coarser
// than the walk's (a jiffy on Linux, a second on HFS+), so an entry made
// in the same tick as the listing, just after it, leaves the folder's
// times as they were listed; such a folder is listed again until its last
// change is older than this (git's "racily clean" entries).
const racyWindow = 2 * time.Second

// rootLinks is the index, kept by the Executor across reviews and actions.
type rootLinks struct {
	mu       sync.Mutex
	folders  map[string]indexedFolder
	complete bool
	limit    int              // entries one walk looks at; 0 means maxIndexed
	secrets  int              // secret files one action may have hidden; 0 means maxSecretFiles
	now      func() time.Time // the clock racyWindow is measured with; nil means time.Now
	listed   int              // folders read so far (their entries listed): what a walk cost
	// skip, when set, names folders the walk does not enter (the sandbox
	// roots inside a folder of the home: homesecrets.go); nil enters all.
	skip func(dir string) bool
}

// indexedFolder is what the index knows of one folder.
type indexedFolder struct {
	stamp   folderStamp // what the folder's inode said when it was listed
	racy    bool        // listed too soon after its last change: list it again
	links   []string    // names of the links in it
	folders []string    // names of the folders in it
	secrets []string    // names of the regular files in it that rate.SecretFile knows (or holding a private key), and of its folders rate.SecretFolder knows
	git     gitMarks    // what of a git folder it holds (gitstore.go)
	checked []keyCheck  // the regular files whose content holdsPrivateKey read
	data    []string    // names of the regular files holding git's objects outside a store (gitbundle.go)
}

// keyCheck is a file of a folder whose content holdsPrivateKey read when
// the folder was listed, with what its inode said then. A file edited in
// place (most editors save by truncating and writing the same inode: a
// TLS key pasted into values.yaml) changes, and its folder does not: at
// every walk of a folder not listed again, such files whose stamp changed
// are read again (recheckKeys).
type keyCheck struct {
	name  string
	pub   bool        // its NAME.pub was beside it (pairedWithPub)
	stamp folderStamp // zero when read too soon after its last change: read it again
}

// gitMarks are the entries of a folder that make it a git folder, or
// lead to one: what the object stores' check looks for (gitstore.go).
type gitMarks uint8

const (
	markHEAD      gitMarks = 1 << iota // an entry HEAD
	markObjects                        // a folder objects, or a link
	markCommondir                      // an entry commondir
	markGitFile                        // a .git that is a file or a link
	markPack                           // a folder pack: in a folder objects, an object store
)

// mark returns what the entry name, of type t, adds to a folder's marks.
func mark(name string, t fs.FileMode) gitMarks {
	switch {
	case name == "HEAD":
		return markHEAD
	case name == "objects" && (t.IsDir() || t&fs.ModeSymlink != 0):
		return markObjects
	case name == "pack" && t.IsDir():
		return markPack
	case name == "commondir":
		return markCommondir
	case name == ".git" && !t.IsDir():
		return markGitFile
	}
	return 0
}

// gitFound returns the repositories the folder dir, indexed as f, is or
// leads to: itself when it holds HEAD and objects or a commondir, its
// .git when that is a file or link; and itself when it is a folder objects
// holding a folder pack, an object store whatever holds it (git reads one
// through GIT_OBJECT_DIRECTORY: a copy kept without its HEAD).
func gitFound(dir string, f *indexedFolder) []string {
	var out []string
	if f.git&markHEAD != 0 && f.git&(markObjects|markCommondir) != 0 {
		out = append(out, dir)
	}
	if f.git&markPack != 0 && filepath.Base(dir) == "objects" {
		out = append(out, dir)
	}
	if f.git&markGitFile != 0 {
		out = append(out, filepath.Join(dir, ".git"))
	}
	return out
}

// folderStamp is what says a folder changed: an entry made, removed or
// renamed in it changes its modification and change times; a folder
// replaced by another (renamed over it, or made again) has another inode
// or change time even when its modification time was set back (touch -d,
// cp -p, tar). The change time cannot be set by its owner.
type folderStamp struct {
	mtime, ctime time.Time
	dev, ino     uint64
}

// reachedLink is a link in a root and where it leads (resolved).
type reachedLink struct{ link, target string }

// stampOf is the stamp of a folder lstat described.
func stampOf(st *unix.Stat_t) folderStamp {
	return folderStamp{mtime: time.Unix(st.Mtim.Unix()), ctime: time.Unix(st.Ctim.Unix()), dev: uint64(st.Dev), ino: uint64(st.Ino)}
}

// walkStop says why a walk of the roots did not see everything ("" when it
// did), naming the root it stopped in.
type walkStop string

// walkLocked brings the index up to date with the roots, reading again only the
// folders whose stamp changed, and calls visit with each folder in them
// and what the index knows of it, parents first. It does not follow links.
// Call it with x.mu held.
func (x *rootLinks) walkLocked(roots []string, visit func(dir string, f *indexedFolder)) walkStop {
	if x.folders == nil {
		x.folders = map[string]indexedFolder{}
	}
	now := time.Now
	if x.now != nil {
		now = x.now
	}
	seen := map[string]bool{}
	count, limit := 0, x.limit
	if limit == 0 {
		limit = maxIndexed
	}
	var stop walkStop
	var walk func(root, dir string, depth int) bool
	walk = func(root, dir string, depth int) bool {
		var lst unix.Stat_t
		if err := unix.Lstat(dir, &lst); err != nil || lst.Mode&unix.S_IFMT != unix.S_IFDIR {
			delete(x.folders, dir)
			return true
		}
		if depth > maxIndexDepth {
			stop = walkStop(fmt.Sprintf("%s holds folders nested more than %d deep", root, maxIndexDepth))
			return false
		}
		seen[dir] = true
		st := stampOf(&lst)
		f, ok := x.folders[dir]
		if !ok || f.racy || f.stamp != st {
			listed := now()
			f = indexedFolder{stamp: st, racy: listed.Sub(st.mtime) < racyWindow || listed.Sub(st.ctime) < racyWindow}
			es, err := os.ReadDir(dir)
			if err != nil {
				return true // unreadable to the gate: nothing to follow there
			}
			x.listed++
			count += len(es)
			for _, e := range es {
				f.git |= mark(e.Name(), e.Type())
				switch t := e.Type(); {
				case t&fs.ModeSymlink != 0:
					f.links = append(f.links, e.Name())
				case t.IsDir():
					if secretFolder(dir, e.Name()) {
						f.secrets = append(f.secrets, e.Name()) // hidden whole, not walked
					} else {
						f.folders = append(f.folders, e.Name())
					}
				case t.IsRegular():
					listFile(&f, dir, e.Name(), pairedWithPub(es, e.Name()), listed)
				}
			}
			x.folders[dir] = f
		} else if len(f.checked) > 0 {
			f = recheckKeys(dir, f, now())
			x.folders[dir] = f
		}
		count++
		if count > limit {
			stop = walkStop(fmt.Sprintf("%s holds more than %d files and folders", root, limit))
			return false
		}
		visit(dir, &f)
		for _, s := range f.folders {
			if sub := filepath.Join(dir, s); x.skip == nil || !x.skip(sub) {
				if !walk(root, sub, depth+1) {
					return false
				}
			}
		}
		return true
	}
	for _, r := range roots {
		if !walk(r, r, 0) {
			break
		}
	}
	if stop == "" {
		for d := range x.folders {
			if !seen[d] {
				delete(x.folders, d) // gone since the last walk
			}
		}
	}
	x.complete = stop == ""
	return stop
}

// listFile adds what the regular file name of dir, listed at the time
// listed, makes of the folder f: a secret when its name says so
// (rate.SecretFile) or its content holds a private key (holdsPrivateKey,
// pub saying its NAME.pub is beside it), the second remembered in
// f.checked; or git's objects kept outside a store, a bundle or a pack
// (gitDataKind), in f.data.
//
// The file is opened once for both, its first bytes read once.
func listFile(f *indexedFolder, dir, name string, pub bool, listed time.Time) {
	if secretFile(dir, name) && !deckNamed(dir, name) {
		f.secrets = append(f.secrets, name)
		return
	}
	head, git := keyHead(dir, name, pub), looksForGitData(dir, name)
	if head == 0 {
		// most files: three calls (open, read, close)
		if git && gitDataKind(dir, name) != notGitData {
			f.data = append(f.data, name)
		}
		return
	}
	st, b, ok := fileHead(dir, name, max(head, gitDataHead))
	stamp := settledStamp(st, listed)
	if !ok {
		stamp = fileStamp(dir, name, listed)
	}
	f.checked = append(f.checked, keyCheck{name: name, pub: pub, stamp: stamp})
	switch {
	case keyIn(dir, name, b, ok):
		f.secrets = append(f.secrets, name)
	case git && kindOfHead(b) != notGitData:
		f.data = append(f.data, name)
	}
}

// fileStamp is the stamp of the file name of dir, taken before its
// content is read: zero when it cannot be taken or the file changed
// within racyWindow of now (a write in the same tick of the file system's
// clock would leave it as it is).
func fileStamp(dir, name string, now time.Time) folderStamp {
	var st unix.Stat_t
	if unix.Lstat(filepath.Join(dir, name), &st) != nil {
		return folderStamp{}
	}
	return settledStamp(stampOf(&st), now)
}

// settledStamp is the stamp s of a file, or zero when the file changed within
// racyWindow of now.
func settledStamp(s folderStamp, now time.Time) folderStamp {
	if now.Sub(s.mtime) < racyWindow || now.Sub(s.ctime) < racyWindow {
		return folderStamp{}
	}
	return s
}

// recheckKeys returns f, the index of the folder dir, which was not
// listed again, with the files of f.checked whose stamp changed read
// again: added to f.secrets when they now hold a private key, taken out
// when they no longer do. The slices of f are the index's: changed on
// copies.
func recheckKeys(dir string, f indexedFolder, now time.Time) indexedFolder {
	copied := false
	for i, c := range f.checked {
		st := fileStamp(dir, c.name, now)
		if st == c.stamp && st != (folderStamp{}) {
			continue
		}
		if !copied {
			f.checked, f.secrets, copied = slices.Clone(f.checked), slices.Clone(f.secrets), true
		}
		f.checked[i].stamp = st
		f.secrets = slices.DeleteFunc(f.secrets, func(s string) bool { return s == c.name })
		if holdsPrivateKey(dir, c.name, c.pub) {
			f.secrets = append(f.secrets, c.name)
		}
	}
	return f
}

// pairedWithPub reports whether the listing es (sorted by name, as
// os.ReadDir returns it) holds name+".pub": ssh-keygen's public key beside
// a private key named without an extension (holdsPrivateKey).
func pairedWithPub(es []fs.DirEntry, name string) bool {
	_, found := slices.BinarySearchFunc(es, name+".pub", func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	return found
}

// links walks the roots (reading only what changed since the last walk)
// and returns the links in them that matter, with where they lead, and
// whether the walk saw everything. A link matters when it leads to a
// folder (whatever lies below it is reached through it too), leads nowhere
// yet, or is itself a place (named says so): a link to a file at a path no
// place names (node_modules/.bin/…) makes nothing reachable by a place's
// name.
func (x *rootLinks) links(roots []string, named func(string) bool) ([]reachedLink, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []reachedLink
	var files []string // links to files whose own paths no place names
	stop := x.walkLocked(roots, func(dir string, f *indexedFolder) {
		for _, l := range f.links {
			p := filepath.Join(dir, l)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && !named(p) {
				files = append(files, p)
				continue
			}
			if r, ok := resolveExisting(p, 0); ok && r != p {
				out = append(out, reachedLink{link: p, target: r})
			}
		}
	})
	out = append(out, reachedFiles(out, files, named)...)
	return out, stop == ""
}

// reachedFiles returns, of the links to files whose own paths no place
// names, those a place names once reached through the links to folders
// (work/.vscode → cfg, cfg/tasks.json → ../shared/t.json: a rewrite of
// shared/t.json is one of work/.vscode/tasks.json), with where they lead.
func reachedFiles(links []reachedLink, files []string, named func(string) bool) []reachedLink {
	if len(links) == 0 {
		return nil
	}
	x := indexLinks(links)
	var out []reachedLink
	for _, p := range files {
		reached, all := x.reachedAll(p)
		if all && !slices.ContainsFunc(reached, named) {
			continue
		}
		if r, ok := resolveExisting(p, 0); ok && r != p {
			out = append(out, reachedLink{link: p, target: r})
		}
	}
	return out
}
