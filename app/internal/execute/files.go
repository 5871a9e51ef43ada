package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

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

// spot is an entry of the sandbox as execute reaches it: the folder that
// holds it, open, and its name there (at.go says why).
type spot struct {
	dir  *folder
	name string
}

func (s spot) path() string { return s.dir.at(s.name) }

// locate opens the folder that holds p, an absolute path the sanitiser
// resolved (so it has no link in it), beneath the sandbox root p lies in,
// refusing a link in any element. p may not be a sandbox root itself.
func (e *Executor) locate(p string) (spot, error) {
	root, rel, ok := rootOf(e.Paths.Roots, p, foldCase)
	if !ok {
		return spot{}, fmt.Errorf("%s lies in no sandbox root", p)
	}
	if rel == "." {
		return spot{}, fmt.Errorf("%s is a sandbox root itself", p)
	}
	d, err := openFolder(root, path.Dir(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return spot{}, fmt.Errorf("the folder %s does not exist (create it first)", filepath.Dir(p))
	}
	if err != nil {
		return spot{}, err
	}
	return spot{d, path.Base(rel)}, nil
}

// reach opens the folder p itself (a sandbox root, or a folder inside one),
// as locate does.
func (e *Executor) reach(p string) (*folder, error) {
	root, rel, ok := rootOf(e.Paths.Roots, p, foldCase)
	if !ok {
		return nil, fmt.Errorf("%s lies in no sandbox root", p)
	}
	return openFolder(root, rel)
}

// trash moves the entry at s to the Trash.
func (e *Executor) trash(ctx context.Context, s spot) (string, error) {
	if e.Trash == nil {
		return "", fmt.Errorf("moving %s to the Trash: no Trash is configured, and Airlock never deletes outright", s.path())
	}
	return e.Trash.TrashAt(ctx, s.dir.f, s.name, s.path())
}

// inside reports whether path lies strictly inside dir.
func inside(path, dir string) bool {
	return strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// replace puts the finished temporary tmp (a name in to's folder) at to:
// an existing target goes to the Trash first. It returns where the old
// version went ("" if none). If the rename fails after the old version was
// trashed, the error says where that version is.
func (e *Executor) replace(ctx context.Context, from spot, to spot, old *entryInfo) (string, error) {
	where := ""
	if old != nil {
		w, err := e.trash(ctx, to)
		if err != nil {
			return "", err
		}
		where = w
	}
	if err := renameAt(from.dir, from.name, to.dir, to.name); err != nil {
		if where != "" {
			return where, fmt.Errorf("putting the new version in place: %w (the old version is in the Trash at %s)", err, where)
		}
		return "", fmt.Errorf("putting the new version in place: %w", err)
	}
	return where, nil
}

// writeTarget checks a write of content to raw, now: its size, the path, and
// what is there. It returns the target, its folder open, and what exists
// there (nil for nothing); anything but a regular file is refused. verb
// starts its errors: "writing", "appending to". The caller closes the
// spot's folder.
func (e *Executor) writeTarget(raw, content, verb string) (spot, *entryInfo, error) {
	if err := sanitize.WriteSize(int64(len(content))); err != nil {
		return spot{}, nil, err
	}
	p, err := e.checkPath(raw, sanitize.OpWrite)
	if err != nil {
		return spot{}, nil, err
	}
	target := p.Resolved
	s, err := e.locate(target)
	if err != nil {
		return spot{}, nil, fmt.Errorf("%s %s: %w", verb, target, err)
	}
	old, err := s.dir.lstat(s.name)
	switch {
	case err != nil:
		s.dir.Close()
		return spot{}, nil, fmt.Errorf("%s %s: %w", verb, target, err)
	case old != nil && !old.mode.IsRegular():
		s.dir.Close()
		return spot{}, nil, fmt.Errorf("%s %s: it is not a regular file", verb, target)
	}
	return s, old, nil
}

// writeFile replaces or creates target with content, by way of a temporary
// file beside it.
func (e *Executor) writeFile(ctx context.Context, raw, content string) (Result, error) {
	s, old, err := e.writeTarget(raw, content, "writing")
	if err != nil {
		return Result{}, err
	}
	defer s.dir.Close()
	target := s.path()
	perm := fs.FileMode(0o644)
	if old != nil {
		perm = old.mode.Perm()
	}
	tmp, err := writeTemp(s.dir, perm, strings.NewReader(content), nil)
	if err != nil {
		return Result{}, fmt.Errorf("writing %s: %w", target, err)
	}
	where, err := e.replace(ctx, spot{s.dir, tmp}, s, old)
	if err != nil {
		s.dir.remove(tmp)
		return Result{Trashed: nonEmpty(where)}, fmt.Errorf("writing %s: %w", target, err)
	}
	return Result{
		Output:  fmt.Sprintf("wrote %d bytes to %s", len(content), e.short(target)),
		Trashed: nonEmpty(where),
	}, nil
}

// writeTemp copies r into a new temporary file in d with mode perm, with
// the extended attributes of attrs (a copy's source; nil for none: see
// copyXattrs), flushed to disk, and returns its name. On failure nothing
// is left behind.
func writeTemp(d *folder, perm fs.FileMode, r io.Reader, attrs *os.File) (name string, err error) {
	f, tmp, err := d.createTemp(perm)
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			f.Close()
			d.remove(tmp)
		}
	}()
	if _, err := io.Copy(f, r); err != nil {
		return "", err
	}
	if attrs != nil {
		if err := copyXattrs(attrs, f); err != nil {
			return "", err
		}
	}
	if err := syncFile(f); err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return tmp, nil
}

// appendFile adds content to the end of a file, creating it if needed.
//
// The old version is not copied to the Trash: appending keeps it intact as
// the start of the file, so truncating to the old size (which the output
// states) undoes it. A failed append truncates back to the old size, or
// removes the file it created.
func (e *Executor) appendFile(ctx context.Context, raw, content string) (Result, error) {
	s, old, err := e.writeTarget(raw, content, "appending to")
	if err != nil {
		return Result{}, err
	}
	defer s.dir.Close()
	target := s.path()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	// O_NOFOLLOW (always, in open): a link that appeared at the end is
	// refused. O_NONBLOCK: a FIFO swapped in is not waited on.
	flags := unix.O_WRONLY | unix.O_APPEND | unix.O_NONBLOCK
	if old == nil {
		flags |= unix.O_CREAT | unix.O_EXCL
	}
	f, err := s.dir.open(s.name, flags, 0o644)
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
			s.dir.remove(s.name)
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
// fine. Each folder is made in, and then opened from, the one before it,
// never following a link.
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
	root, rel, ok := rootOf(e.Paths.Roots, p.Resolved, foldCase)
	if !ok {
		return Result{}, fmt.Errorf("creating folder %s: it lies in no sandbox root", p.Resolved)
	}
	d, err := openFolder(root, ".")
	if errors.Is(err, fs.ErrNotExist) {
		// A sandbox root need not exist until something is put there.
		d, err = makeFolders(root)
	}
	if err != nil {
		return Result{}, fmt.Errorf("creating folder %s: %w", p.Resolved, err)
	}
	if rel != "." {
		for _, name := range strings.Split(rel, "/") {
			next, err := makeSub(d, name)
			d.Close()
			if err != nil {
				return Result{}, fmt.Errorf("creating folder %s: %w", p.Resolved, err)
			}
			d = next
		}
	}
	d.Close()
	return Result{Output: "created folder " + e.short(p.Resolved)}, nil
}

// makeSub opens the folder name in d, making it first if it is missing.
func makeSub(d *folder, name string) (*folder, error) {
	sub, err := d.sub(name)
	if errors.Is(err, fs.ErrNotExist) {
		if err := d.mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		sub, err = d.sub(name)
	}
	return sub, err
}

// makeFolders makes the folder at the absolute path p and its missing
// parents from /, never following a link, and returns it open.
func makeFolders(p string) (*folder, error) {
	slash, err := os.Open("/")
	if err != nil {
		return nil, err
	}
	d := &folder{f: slash, path: "/"}
	for _, name := range split(p) {
		next, err := makeSub(d, name)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
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
	s, err := e.locate(from)
	if err != nil {
		return Result{}, fmt.Errorf("deleting %s: %w", from, err)
	}
	defer s.dir.Close()
	if info, err := s.dir.lstat(s.name); err != nil || info == nil {
		if err == nil {
			err = errors.New("it is no longer there")
		}
		return Result{}, fmt.Errorf("deleting %s: %w", from, err)
	}
	where, err := e.trash(ctx, s)
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
	if from == to {
		return Result{}, fmt.Errorf("moving %s: it is already there", from)
	}
	fsrc, err := e.locate(from)
	if err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	defer fsrc.dir.Close()
	fi, err := fsrc.dir.lstat(fsrc.name)
	if err == nil && fi == nil {
		err = errors.New("it is no longer there")
	}
	if err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	if fi.mode.IsDir() && inside(to, from) {
		return Result{}, fmt.Errorf("moving %s: a folder cannot go inside itself", from)
	}
	ts, err := e.locate(to)
	if err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	defer ts.dir.Close()
	old, err := ts.dir.lstat(ts.name)
	if err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	if old != nil && fi.same(old) {
		if !strings.EqualFold(from, to) {
			return Result{}, fmt.Errorf("moving %s: %s is the same file", from, to)
		}
		old = nil // a change of case on a case-insensitive disk: nothing to replace
	}
	if d, err := ts.dir.stat(); err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	} else if d.dev != fi.dev {
		return Result{}, fmt.Errorf("moving %s: %s and %s are on different disks; moving across disks is not supported", from, from, filepath.Dir(to))
	}
	if err := e.checkFileOp(ctx, from, to, from, true, old); err != nil {
		return Result{}, fmt.Errorf("moving %s: %w", from, err)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	where, err := e.replace(ctx, fsrc, ts, old)
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
	if from == to || inside(to, from) {
		return Result{}, fmt.Errorf("copying %s: a copy cannot go onto or inside its source", from)
	}
	srcDir, srcFile, fi, err := e.openSource(from)
	if err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	if srcDir != nil {
		defer srcDir.Close()
	} else {
		defer srcFile.Close()
	}
	ts, err := e.locate(to)
	if err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	defer ts.dir.Close()
	old, err := ts.dir.lstat(ts.name)
	if err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	if old != nil && fi.same(old) {
		return Result{}, fmt.Errorf("copying %s: %s is the same file", from, to)
	}
	var tmp string
	if srcDir != nil {
		tmp, err = ts.dir.mkdirTemp()
		if err == nil {
			var t *folder
			var ti *entryInfo
			t, err = ts.dir.sub(tmp)
			if err == nil {
				if ti, err = t.stat(); err == nil {
					err = copyTree(ctx, srcDir, t, ".", ti)
				}
				if err == nil {
					err = copyXattrs(srcDir.f, t.f)
				}
				if err == nil {
					err = t.f.Chmod(fi.mode.Perm())
				}
				t.Close()
			}
			if err != nil {
				ts.dir.removeTemp(tmp)
			}
		}
	} else {
		tmp, err = writeTemp(ts.dir, fi.mode.Perm(), ctxReader{ctx, srcFile}, srcFile)
	}
	if err != nil {
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	if err := e.checkFileOp(ctx, ts.dir.at(tmp), to, from, false, old); err != nil {
		ts.dir.removeTemp(tmp)
		return Result{}, fmt.Errorf("copying %s: %w", from, err)
	}
	if err := ctx.Err(); err != nil {
		ts.dir.removeTemp(tmp)
		return Result{}, err
	}
	where, err := e.replace(ctx, spot{ts.dir, tmp}, ts, old)
	if err != nil {
		ts.dir.removeTemp(tmp)
		return Result{Trashed: nonEmpty(where)}, fmt.Errorf("copying %s: %w", from, err)
	}
	return Result{Output: "copied " + e.short(from) + " to " + e.short(to), Trashed: nonEmpty(where)}, nil
}

// openSource opens what a copy copies from: a folder itself (it may be a
// sandbox root), or a regular file, refusing a link at its end as along
// its path; fi describes it.
func (e *Executor) openSource(from string) (dir *folder, file *os.File, fi *entryInfo, err error) {
	if _, rel, ok := rootOf(e.Paths.Roots, from, foldCase); ok && rel == "." {
		dir, err = e.reach(from)
		if err == nil {
			if fi, err = dir.stat(); err != nil {
				dir.Close()
			}
		}
		return dir, nil, fi, err
	}
	s, err := e.locate(from)
	if err != nil {
		return nil, nil, nil, err
	}
	defer s.dir.Close()
	fi, err = s.dir.lstat(s.name)
	switch {
	case err != nil:
		return nil, nil, nil, err
	case fi == nil:
		return nil, nil, nil, errors.New("it is no longer there")
	case fi.mode.IsDir():
		dir, err = s.dir.sub(s.name)
		return dir, nil, fi, err
	}
	file, err = openRegular(s.dir, s.name)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, nil, nil, err
	}
	if sys, ok := st.Sys().(*unix.Stat_t); ok {
		fi = infoOf(sys) // what was opened, should it differ from what was examined
	}
	return nil, file, fi, nil
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

// openRegular opens the entry name in d for reading, refusing a link or
// anything but a regular file (without blocking on a FIFO).
func openRegular(d *folder, name string) (*os.File, error) {
	f, err := d.open(name, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", d.at(name))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// copyTree copies the contents of the folder src into the folder dst. It
// stops when ctx is done. rel is src's place in the tree being copied
// ("." at its top): a relative link that climbs out of the tree is refused,
// since in the copy it would point somewhere nobody checked. copy is the
// folder the copy is made in: meeting it in the source (a swap made the
// copy go inside its source) is refused rather than copied without end.
func copyTree(ctx context.Context, src, dst *folder, rel string, copy *entryInfo) error {
	names, err := src.f.Readdirnames(-1)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		fi, err := src.lstat(name)
		if err != nil {
			return err
		}
		if fi == nil {
			return fmt.Errorf("%s vanished during the copy", src.at(name))
		}
		switch mode := fi.mode; {
		case mode.IsDir():
			if fi.same(copy) {
				return fmt.Errorf("copying %s: a copy cannot go inside its source", src.at(name))
			}
			if err := dst.mkdir(name, 0o700); err != nil {
				return err
			}
			s, err := src.sub(name)
			if err != nil {
				return err
			}
			d, err := dst.sub(name)
			if err != nil {
				s.Close()
				return err
			}
			err = copyTree(ctx, s, d, path.Join(rel, name), copy)
			if err == nil {
				err = copyXattrs(s.f, d.f)
			}
			if err == nil {
				err = d.f.Chmod(mode.Perm())
			}
			s.Close()
			d.Close()
			if err != nil {
				return err
			}
		case mode.IsRegular():
			if err := copyOne(ctx, src, dst, name, mode.Perm()); err != nil {
				return err
			}
		case mode&fs.ModeSymlink != 0:
			var link string
			err := src.do(func(fd int) error {
				buf := make([]byte, unix.PathMax)
				n, err := unix.Readlinkat(fd, name, buf)
				link = string(buf[:max(n, 0)])
				return err
			})
			if err != nil {
				return pathErr("reading", src.at(name), err)
			}
			if !filepath.IsAbs(link) && !filepath.IsLocal(filepath.Join(rel, link)) {
				return fmt.Errorf("%s is a link to %s, outside the folder being copied: in the copy it would point somewhere else", src.at(name), link)
			}
			if err := dst.do(func(fd int) error { return unix.Symlinkat(link, fd, name) }); err != nil {
				return pathErr("linking", dst.at(name), err)
			}
		default:
			return fmt.Errorf("%s is not a regular file, folder or link", src.at(name))
		}
	}
	return nil
}

// copyOne copies the regular file name in src to a new file of that name
// in dst. It stops when ctx is done.
func copyOne(ctx context.Context, src, dst *folder, name string, perm fs.FileMode) error {
	in, err := openRegular(src, name)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := dst.open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, ctxReader{ctx, in}); err != nil {
		out.Close()
		return err
	}
	if err := copyXattrs(in, out); err != nil {
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
