package execute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Trasher moves a file or folder to the Trash, where the person can get it
// back.
//
// TrashAt must move the entry name of the open folder dir (a symbolic link
// is moved as the link, not followed) whole, or not at all, by name in dir:
// never by a path, which something could redirect between the executor's
// checks and the move (at.go). path is where the entry is, for the Trash's
// record and messages. It returns where the entry now lies. It must never
// unlink anything and never overwrite something already in the Trash: two
// things trashed under one name both stay there. It honours ctx before it
// starts; a move once started is finished.
//
// Trash is the same for an absolute path, whose folder is opened by path
// (following links): for callers that checked nothing.
type Trasher interface {
	TrashAt(ctx context.Context, dir *os.File, name, path string) (where string, err error)
	Trash(ctx context.Context, path string) (where string, err error)
}

// ErrCrossDevice is wrapped by the error of Trash when path lies on another
// file system than the Trash.
var ErrCrossDevice = errors.New("on another disk than the Trash")

// FreedesktopTrash returns the Trash of the freedesktop.org Trash
// specification (1.0) in dataHome, which is $XDG_DATA_HOME (normally
// ~/.local/share): a trashed item goes to dataHome/Trash/files, and beside it
// dataHome/Trash/info holds NAME.trashinfo with its original Path
// (percent-encoded) and DeletionDate. When the name is taken, the item is
// stored as "NAME.2" up to "NAME.9", then under a random number
// ("NAME.5f3a09c1"), keeping the extension last ("a.2.txt"), so trashing
// a name for the thousandth time costs no more than for the tenth.
//
// Only the home trash is implemented. An item on another file system than
// dataHome is refused with an error wrapping ErrCrossDevice rather than
// copied and removed: a copy across disks can fail half way, and a delete
// must be whole or not at all. The folders are made (0700) on first use.
func FreedesktopTrash(dataHome string) Trasher {
	return &freedesktop{base: dataHome, files: filepath.Join(dataHome, "Trash", "files"), info: filepath.Join(dataHome, "Trash", "info"), now: time.Now}
}

// HomeTrash returns the Trash of macOS: the folder trash (~/.Trash), where
// a trashed item goes as it is, named as FreedesktopTrash names it when its
// name is taken. It is moved there by name in its open folder, as every
// Trasher must; NSFileManager's trashItemAtURL would take a path, which
// something could redirect after the executor's checks. The cost: Finder's
// Put Back does not know where such an item came from (the output of the
// action says it). An item on another volume is refused with an error
// wrapping ErrCrossDevice. Where the system refuses to open the Trash's
// folder (macOS's privacy protections, without Full Disk Access), the item
// is moved through the system instead, its path checked first (viaSystem).
func HomeTrash(trash string) Trasher {
	return &freedesktop{base: filepath.Dir(trash), files: trash, now: time.Now, system: homeSystemTrash}
}

type freedesktop struct {
	// base holds the Trash's folders: the data home, or the home on macOS.
	// It is opened by path; the Trash's own folders below it never are
	// (openTrashDir), for where the home is a sandbox root an action that
	// ran unasked may have put a link there.
	base   string
	files  string // where trashed items go
	info   string // where their .trashinfo records go; "" for none
	now    func() time.Time
	system systemTrasher // when not nil, used where files cannot be opened (viaSystem)
}

// Names tried: the item's own, then numbered up to seqTrashNames, then
// random, up to maxTrashNames in all.
const (
	seqTrashNames = 9
	maxTrashNames = 100
)

func (t *freedesktop) Trash(ctx context.Context, path string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("moving %s to the Trash: the path is not absolute", path)
	}
	path = filepath.Clean(path)
	if path == "/" {
		return "", fmt.Errorf("moving / to the Trash: refused")
	}
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
	}
	defer dir.Close()
	return t.TrashAt(ctx, dir, filepath.Base(path), path)
}

func (t *freedesktop) TrashAt(ctx context.Context, dir *os.File, name, path string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	from := &folder{f: dir, path: filepath.Dir(path)}
	if info, err := from.lstat(name); err != nil || info == nil {
		if err == nil {
			err = fs.ErrNotExist
		}
		return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
	}
	// The Trash's own folders are opened by path: they lie outside the
	// sandbox roots, where no action can put a link.
	files, err := t.openTrashDir(t.files)
	if err != nil && t.system != nil && trashDirRefused(err) {
		return t.viaSystem(ctx, from, name, path)
	}
	if err != nil {
		return "", err
	}
	defer files.Close()
	var info *folder
	if t.info != "" {
		if info, err = t.openTrashDir(t.info); err != nil {
			return "", err
		}
		defer info.Close()
	}
	record := "[Trash Info]\nPath=" + escapeTrashPath(path) +
		"\nDeletionDate=" + t.now().Format("2006-01-02T15:04:05") + "\n"
	for n := 1; n <= maxTrashNames; n++ {
		tname := trashName(name, n)
		var rec *os.File
		if info != nil {
			// Creating the info file exclusively claims the name (the
			// spec's way of making concurrent trashing safe).
			rec, err = info.open(tname+".trashinfo", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
			}
		}
		unclaim := func() {
			if rec != nil {
				rec.Close()
				info.remove(tname + ".trashinfo")
			}
		}
		if there, err := files.lstat(tname); err != nil || there != nil {
			// A stray item without its info file: leave it, take the next name.
			unclaim()
			continue
		}
		var werr error
		if rec != nil {
			_, werr = rec.WriteString(record)
			if err := rec.Close(); werr == nil {
				werr = err
			}
			rec = nil
		}
		if werr == nil {
			werr = renameNoReplace(from, name, files, tname)
		}
		if errors.Is(werr, fs.ErrExist) {
			if info != nil {
				info.remove(tname + ".trashinfo")
			}
			continue // taken since it was looked at
		}
		if werr != nil {
			if info != nil {
				info.remove(tname + ".trashinfo")
			}
			if errors.Is(werr, syscall.EXDEV) {
				return "", fmt.Errorf("moving %s to the Trash: %w (%s)", path, ErrCrossDevice, t.files)
			}
			return "", fmt.Errorf("moving %s to the Trash: %w", path, werr)
		}
		return files.at(tname), nil
	}
	return "", fmt.Errorf("moving %s to the Trash: no free name after %d tries", path, maxTrashNames)
}

// openTrashDir opens the folder dir of the Trash, making (0700) what is
// missing of it: t.base by path (following links, as the person set their
// home up), each folder below it by name in the one above, never following
// a link. A link there would send what is trashed, and the Trash's
// records, wherever it points (the autostart folder, another disk), and
// Undo would take things back from there: it is refused, and nothing goes
// to the Trash until it is a folder again.
func (t *freedesktop) openTrashDir(dir string) (*folder, error) {
	rel, err := filepath.Rel(t.base, dir)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("opening the Trash: %s is not a folder in %s", dir, t.base)
	}
	if err := os.MkdirAll(t.base, 0o700); err != nil {
		return nil, fmt.Errorf("making the Trash: %w", err)
	}
	f, err := os.Open(t.base)
	if err != nil {
		return nil, fmt.Errorf("opening the Trash: %w", err)
	}
	d := &folder{f: f, path: t.base}
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		if err := d.mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			d.Close()
			return nil, fmt.Errorf("making the Trash: %w", err)
		}
		next, err := d.sub(name)
		d.Close()
		if errors.Is(err, ErrSwapped) {
			return nil, fmt.Errorf("opening the Trash: %s is a link or not a folder, and the Trash is only used through its own folders: "+
				"nothing goes to the Trash until it is a folder again", d.at(name))
		}
		if err != nil {
			return nil, fmt.Errorf("opening the Trash: %w", err)
		}
		d = next
	}
	return d, nil
}

// folders returns the Trash's own folders, where no change an action made
// may be applied: the one trashed items go to, the one their records go
// to, and their parent below the base (Trash), each as the path spells it
// and resolved through links.
func (t *freedesktop) folders() []string {
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	resolved, err := filepath.EvalSymlinks(t.base)
	for _, d := range []string{t.files, t.info, filepath.Dir(t.files)} {
		if d == "" || d == t.base {
			continue
		}
		add(d)
		if err == nil {
			if rel, rerr := filepath.Rel(t.base, d); rerr == nil {
				add(filepath.Join(resolved, rel))
			}
		}
	}
	return out
}

// trashName is the n-th name to try for base: base itself, then base with
// ".n" before its extension, then with a random number there. A name that
// starts with its only dot (".profile") has no extension.
func trashName(base string, n int) string {
	if n == 1 {
		return base
	}
	tag := strconv.Itoa(n)
	if n > seqTrashNames {
		tag = fmt.Sprintf("%08x", rand.Uint32())
	}
	ext := filepath.Ext(base)
	if ext == base {
		ext = ""
	}
	return strings.TrimSuffix(base, ext) + "." + tag + ext
}

// escapeTrashPath percent-encodes every byte of p but the unreserved
// characters of RFC 3986 and the slash, as the spec's Path key asks.
func escapeTrashPath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '_', c == '.', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
