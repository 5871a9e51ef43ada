package execute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Trasher moves a file or folder to the Trash, where the person can get it
// back.
//
// Trash must move path (absolute; a symbolic link is moved as the link, not
// followed) whole, or not at all, and return where it now lies. It must never
// unlink anything and never overwrite something already in the Trash: two
// things trashed under one name both stay there. It honours ctx before it
// starts; a move once started is finished.
type Trasher interface {
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
	return &freedesktop{dir: filepath.Join(dataHome, "Trash"), now: time.Now}
}

type freedesktop struct {
	dir string
	now func() time.Time
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
	if _, err := os.Lstat(path); err != nil {
		return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
	}
	files, info := filepath.Join(t.dir, "files"), filepath.Join(t.dir, "info")
	for _, d := range []string{files, info} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", fmt.Errorf("making the Trash: %w", err)
		}
	}
	record := "[Trash Info]\nPath=" + escapeTrashPath(path) +
		"\nDeletionDate=" + t.now().Format("2006-01-02T15:04:05") + "\n"
	base := filepath.Base(path)
	for n := 1; n <= maxTrashNames; n++ {
		name := trashName(base, n)
		infoPath := filepath.Join(info, name+".trashinfo")
		// Creating the info file exclusively claims the name (the spec's
		// way of making concurrent trashing safe).
		f, err := os.OpenFile(infoPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
		}
		where := filepath.Join(files, name)
		if _, err := os.Lstat(where); err == nil {
			// A stray item without its info file: leave it, take the next name.
			f.Close()
			os.Remove(infoPath)
			continue
		}
		_, werr := f.WriteString(record)
		if err := f.Close(); werr == nil {
			werr = err
		}
		if werr == nil {
			werr = os.Rename(path, where)
		}
		if werr != nil {
			os.Remove(infoPath)
			if errors.Is(werr, syscall.EXDEV) {
				return "", fmt.Errorf("moving %s to the Trash: %w (%s)", path, ErrCrossDevice, t.dir)
			}
			return "", fmt.Errorf("moving %s to the Trash: %w", path, werr)
		}
		return where, nil
	}
	return "", fmt.Errorf("moving %s to the Trash: no free name after %d tries", path, maxTrashNames)
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
