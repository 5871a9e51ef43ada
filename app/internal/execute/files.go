package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// syncFile flushes a written file to its disk before it is renamed into
// place. Tests replace it to make a write fail.
var syncFile = (*os.File).Sync

// tempPrefix starts the name of every temporary file or folder Airlock makes
// beside a target.
const tempPrefix = ".airlock-"

// checkPath applies the sanitiser's rules to raw for op, now, at execution
// time. Its error is the sanitiser's *Refusal (errors.Is sanitize.ErrBlocked).
func (e *Executor) checkPath(raw string, op sanitize.Op) (sanitize.Path, error) {
	if e.Paths == nil {
		return sanitize.Path{}, errors.New("no sandbox is configured: file operations are refused")
	}
	return e.Paths.Path(raw, op)
}

// entry is where the directory entry p names lives: for a symbolic link the
// link itself (in its resolved parent), otherwise the resolved path.
func entry(p sanitize.Path) (string, error) {
	if !p.IsSymlink {
		return p.Resolved, nil
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(p.Lexical))
	if err != nil {
		return "", fmt.Errorf("finding the folder of %s: %w", p.Raw, err)
	}
	return filepath.Join(parent, filepath.Base(p.Lexical)), nil
}

func (e *Executor) trash(ctx context.Context, path string) (string, error) {
	if e.Trash == nil {
		return "", fmt.Errorf("moving %s to the Trash: no Trash is configured, and Airlock never deletes outright", path)
	}
	return e.Trash.Trash(ctx, path)
}

// existing returns the Lstat of path, or nil when nothing is there.
func existing(path string) (fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return fi, err
}

// needFolder checks that the folder a new entry goes into exists.
func needFolder(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the folder %s does not exist (create it first)", dir)
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}

// sameDevice refuses a rename between file systems, before anything moved.
func sameDevice(a, b string) error {
	var sa, sb syscall.Stat_t
	if err := syscall.Lstat(a, &sa); err != nil {
		return fmt.Errorf("examining %s: %w", a, err)
	}
	if err := syscall.Stat(b, &sb); err != nil {
		return fmt.Errorf("examining %s: %w", b, err)
	}
	if sa.Dev != sb.Dev {
		return fmt.Errorf("%s and %s are on different disks; moving across disks is not supported", a, filepath.Dir(b))
	}
	return nil
}

// inside reports whether path lies strictly inside dir.
func inside(path, dir string) bool {
	return strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// replace puts the finished temporary tmp at target: an existing target goes
// to the Trash first. It returns where the old version went ("" if none).
// If the rename fails after the old version was trashed, the error says
// where that version is.
func (e *Executor) replace(ctx context.Context, tmp, target string, old fs.FileInfo) (string, error) {
	where := ""
	if old != nil {
		w, err := e.trash(ctx, target)
		if err != nil {
			return "", err
		}
		where = w
	}
	if err := os.Rename(tmp, target); err != nil {
		if where != "" {
			return where, fmt.Errorf("putting the new version in place: %w (the old version is in the Trash at %s)", err, where)
		}
		return "", fmt.Errorf("putting the new version in place: %w", err)
	}
	return where, nil
}

// writeTarget checks a write of content to raw, now: its size, the path, and
// what is there. It returns the resolved target and what exists there (nil
// for nothing, in which case its folder must exist); anything but a regular
// file is refused. verb starts its errors: "writing", "appending to".
func (e *Executor) writeTarget(raw, content, verb string) (string, fs.FileInfo, error) {
	if err := sanitize.WriteSize(int64(len(content))); err != nil {
		return "", nil, err
	}
	p, err := e.checkPath(raw, sanitize.OpWrite)
	if err != nil {
		return "", nil, err
	}
	target := p.Resolved
	old, err := existing(target)
	switch {
	case err != nil:
		return "", nil, fmt.Errorf("%s %s: %w", verb, target, err)
	case old != nil && !old.Mode().IsRegular():
		return "", nil, fmt.Errorf("%s %s: it is not a regular file", verb, target)
	case old == nil:
		if err := needFolder(target); err != nil {
			return "", nil, fmt.Errorf("%s %s: %w", verb, target, err)
		}
	}
	return target, old, nil
}

// writeFile replaces or creates target with content, by way of a temporary
// file beside it.
func (e *Executor) writeFile(ctx context.Context, raw, content string) (Result, error) {
	target, old, err := e.writeTarget(raw, content, "writing")
	if err != nil {
		return Result{}, err
	}
	perm := fs.FileMode(0o644)
	if old != nil {
		perm = old.Mode().Perm()
	}
	tmp, err := writeTemp(filepath.Dir(target), perm, strings.NewReader(content))
	if err != nil {
		return Result{}, fmt.Errorf("writing %s: %w", target, err)
	}
	where, err := e.replace(ctx, tmp, target, old)
	if err != nil {
		os.Remove(tmp)
		return Result{Trashed: nonEmpty(where)}, fmt.Errorf("writing %s: %w", target, err)
	}
	return Result{
		Output:  fmt.Sprintf("wrote %d bytes to %s", len(content), e.short(target)),
		Trashed: nonEmpty(where),
	}, nil
}

// writeTemp copies r into a new temporary file in dir with mode perm,
// flushed to disk, and returns its name. On failure nothing is left behind.
func writeTemp(dir string, perm fs.FileMode, r io.Reader) (name string, err error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*.tmp")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		return "", err
	}
	if err := syncFile(f); err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// appendFile adds content to the end of a file, creating it if needed.
//
// The old version is not copied to the Trash: appending keeps it intact as
// the start of the file, so truncating to the old size (which the output
// states) undoes it. A failed append truncates back to the old size, or
// removes the file it created.
func (e *Executor) appendFile(ctx context.Context, raw, content string) (Result, error) {
	target, old, err := e.writeTarget(raw, content, "appending to")
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	// O_NOFOLLOW: the resolved path has no link at its end; one that
	// appeared since is refused. O_NONBLOCK: a FIFO swapped in is not
	// waited on.
	flags := os.O_WRONLY | os.O_APPEND | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	if old == nil {
		flags |= os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(target, flags, 0o644)
	if err != nil {
		return Result{}, fmt.Errorf("appending to %s: %w", target, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = errors.New("it is not a regular file")
	}
	if err != nil {
		f.Close()
		return Result{}, fmt.Errorf("appending to %s: %w", target, err)
	}
	size := st.Size()
	_, err = f.WriteString(content)
	if err == nil {
		err = syncFile(f)
	}
	if err != nil {
		if old == nil {
			f.Close()
			os.Remove(target)
		} else {
			f.Truncate(size)
			f.Close()
		}
		return Result{}, fmt.Errorf("appending to %s: %w", target, err)
	}
	if err := f.Close(); err != nil {
		return Result{}, fmt.Errorf("appending to %s: %w", target, err)
	}
	return Result{Output: fmt.Sprintf("appended %d bytes to %s (it had %d bytes before)", len(content), e.short(target), size)}, nil
}

// createFolder makes a folder and its missing parents; one already there is
// fine.
func (e *Executor) createFolder(ctx context.Context, raw string) (Result, error) {
	p, err := e.checkPath(raw, sanitize.OpCreateDir)
	if err != nil {
		return Result{}, err
	}
	if p.Exists && !p.IsDir {
		return Result{}, fmt.Errorf("creating folder %s: something that is not a folder is there", p.Resolved)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(p.Resolved, 0o755); err != nil {
		return Result{}, fmt.Errorf("creating folder %s: %w", p.Resolved, err)
	}
	return Result{Output: "created folder " + e.short(p.Resolved)}, nil
}

// deleteFile moves a file or folder (a link: the link itself) to the Trash.
func (e *Executor) deleteFile(ctx context.Context, raw string) (Result, error) {
	p, err := e.checkPath(raw, sanitize.OpDelete)
	if err != nil {
		return Result{}, err
	}
	if !p.Exists {
		return Result{}, fmt.Errorf("deleting %s: it does not exist", p.Lexical)
	}
	from, err := entry(p)
	if err != nil {
		return Result{}, err
	}
	where, err := e.trash(ctx, from)
	if err != nil {
		return Result{}, err
	}
	return Result{Output: "moved " + e.short(from) + " to the Trash", Trashed: []string{where}}, nil
}

// moveFile renames a file or folder (a link: the link itself). An existing
// destination goes to the Trash first.
func (e *Executor) moveFile(ctx context.Context, rawFrom, rawTo string) (Result, error) {
	src, err := e.checkPath(rawFrom, sanitize.OpMoveFrom)
	if err != nil {
		return Result{}, err
	}
	dst, err := e.checkPath(rawTo, sanitize.OpMoveTo)
	if err != nil {
		return Result{}, err
	}
	if !src.Exists {
		return Result{}, fmt.Errorf("moving %s: it does not exist", src.Lexical)
	}
	from, err := entry(src)
	if err != nil {
		return Result{}, err
	}
	to := dst.Resolved
	fi, err := os.Lstat(from)
	if err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	if from == to {
		return Result{}, fmt.Errorf("moving %s: it is already there", from)
	}
	if fi.IsDir() && inside(to, from) {
		return Result{}, fmt.Errorf("moving %s: a folder cannot go inside itself", from)
	}
	old, err := existing(to)
	if err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	if old != nil && os.SameFile(fi, old) {
		if !strings.EqualFold(from, to) {
			return Result{}, fmt.Errorf("moving %s: %s is the same file", from, to)
		}
		old = nil // a change of case on a case-insensitive disk: nothing to replace
	}
	if err := needFolder(to); err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	if err := sameDevice(from, filepath.Dir(to)); err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	where, err := e.replace(ctx, from, to, old)
	if err != nil {
		return Result{Trashed: nonEmpty(where)}, fmt.Errorf("moving %s: %w", from, err)
	}
	return Result{Output: "moved " + e.short(from) + " to " + e.short(to), Trashed: nonEmpty(where)}, nil
}

// copyFile copies a file, or a folder with everything in it, by way of a
// temporary name beside the destination. An existing destination goes to
// the Trash first. Inside a folder, symbolic links are copied as links
// (never followed) and anything that is not a file, folder or link makes
// the copy fail.
func (e *Executor) copyFile(ctx context.Context, rawFrom, rawTo string) (Result, error) {
	src, err := e.checkPath(rawFrom, sanitize.OpRead)
	if err != nil {
		return Result{}, err
	}
	dst, err := e.checkPath(rawTo, sanitize.OpWrite)
	if err != nil {
		return Result{}, err
	}
	if !src.Exists {
		return Result{}, fmt.Errorf("copying %s: it does not exist", src.Lexical)
	}
	from, to := src.Resolved, dst.Resolved
	fi, err := os.Lstat(from)
	if err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	if from == to || (fi.IsDir() && inside(to, from)) {
		return Result{}, fmt.Errorf("copying %s: a copy cannot go onto or inside its source", from)
	}
	old, err := existing(to)
	if err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	if old != nil && os.SameFile(fi, old) {
		return Result{}, fmt.Errorf("copying %s: %s is the same file", from, to)
	}
	if err := needFolder(to); err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	var tmp string
	switch {
	case fi.IsDir():
		tmp, err = os.MkdirTemp(filepath.Dir(to), tempPrefix+"copy-*")
		if err == nil {
			err = copyTree(ctx, from, tmp, ".")
			if err == nil {
				err = os.Chmod(tmp, fi.Mode().Perm())
			}
			if err != nil {
				os.RemoveAll(tmp)
			}
		}
	case fi.Mode().IsRegular():
		tmp, err = copyToTemp(ctx, from, filepath.Dir(to), fi.Mode().Perm())
	default:
		err = errors.New("it is not a regular file or a folder")
	}
	if err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	if err := ctx.Err(); err != nil {
		os.RemoveAll(tmp)
		return Result{}, err
	}
	where, err := e.replace(ctx, tmp, to, old)
	if err != nil {
		os.RemoveAll(tmp)
		return Result{Trashed: nonEmpty(where)}, fmt.Errorf("copying %s: %w", from, err)
	}
	return Result{Output: "copied " + e.short(from) + " to " + e.short(to), Trashed: nonEmpty(where)}, nil
}

// copyToTemp copies the regular file src into a new temporary file in dir.
// It stops when ctx is done.
func copyToTemp(ctx context.Context, src, dir string, perm fs.FileMode) (string, error) {
	f, err := openRegular(src)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return writeTemp(dir, perm, ctxReader{ctx, f})
}

// ctxReader fails its reads once ctx is done, so the kill switch stops a
// long copy between two reads.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// openRegular opens src for reading, refusing a link or anything but a
// regular file (without blocking on a FIFO).
func openRegular(src string) (*os.File, error) {
	f, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", src)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// copyTree copies the contents of folder src into the existing folder dst.
// It stops when ctx is done. rel is src's place in the tree being copied
// ("." at its top): a relative link that climbs out of the tree is refused,
// since in the copy it would point somewhere nobody checked.
func copyTree(ctx context.Context, src, dst, rel string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, d := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, t := filepath.Join(src, d.Name()), filepath.Join(dst, d.Name())
		fi, err := os.Lstat(s)
		if err != nil {
			return err
		}
		switch mode := fi.Mode(); {
		case mode.IsDir():
			if err := os.Mkdir(t, 0o700); err != nil {
				return err
			}
			if err := copyTree(ctx, s, t, filepath.Join(rel, d.Name())); err != nil {
				return err
			}
			if err := os.Chmod(t, mode.Perm()); err != nil {
				return err
			}
		case mode.IsRegular():
			if err := copyOne(ctx, s, t, mode.Perm()); err != nil {
				return err
			}
		case mode&fs.ModeSymlink != 0:
			link, err := os.Readlink(s)
			if err != nil {
				return err
			}
			if !filepath.IsAbs(link) && !filepath.IsLocal(filepath.Join(rel, link)) {
				return fmt.Errorf("%s is a link to %s, outside the folder being copied: in the copy it would point somewhere else", s, link)
			}
			if err := os.Symlink(link, t); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s is not a regular file, folder or link", s)
		}
	}
	return nil
}

// copyOne copies the regular file src to the new file dst. It stops when
// ctx is done.
func copyOne(ctx context.Context, src, dst string, perm fs.FileMode) error {
	in, err := openRegular(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, ctxReader{ctx, in}); err != nil {
		out.Close()
		return err
	}
	if err := out.Chmod(perm); err != nil {
		out.Close()
		return err
	}
	if err := syncFile(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func nonEmpty(where string) []string {
	if where == "" {
		return nil
	}
	return []string{where}
}

func (e *Executor) short(path string) string {
	if e.Paths == nil {
		return path
	}
	return e.Paths.ShortPath(path)
}
