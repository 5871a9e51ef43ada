package bridge

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// FileHandler resolves the application that opens the file at path: app's
// desktop file when app is named, else the default application for the
// file's MIME type (or a type it falls back to), as the freedesktop
// specifications choose it (xdgmime.go). The first candidate that is
// installed and whose Exec is valid wins.
func (d *Desktop) FileHandler(path, app string) (Handler, error) {
	action := "open " + path
	if app != "" {
		e, err := findDesktopFile(app, d.dataDirs())
		if err != nil {
			if path == "" {
				return Handler{}, fmt.Errorf("open %s: %w", app, err)
			}
			return Handler{}, fmt.Errorf("%s with %s: %w", action, app, err)
		}
		return d.handlerOf(e, "")
	}
	folder, head, err := peek(path)
	if err != nil {
		return Handler{}, fmt.Errorf("%s: %w", action, err)
	}
	dirs := d.xdg()
	typ := mimeOf(path, folder, head, dirs)
	return d.handlerFor(action, typ, dirs)
}

// URLHandler resolves the application that opens u: the default for its
// scheme (x-scheme-handler/SCHEME). A file: URL is the file's.
func (d *Desktop) URLHandler(u string) (Handler, error) {
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme == "" {
		return Handler{}, fmt.Errorf("open %s: not a URL with a scheme", u)
	}
	if strings.EqualFold(pu.Scheme, "file") {
		return d.FileHandler(pu.Path, "")
	}
	return d.handlerFor("open "+u, "x-scheme-handler/"+strings.ToLower(pu.Scheme), d.xdg())
}

// handlerFor returns the handler of the first installed default
// application for typ or a type it falls back to.
func (d *Desktop) handlerFor(action, typ string, dirs xdgDirs) (Handler, error) {
	for _, t := range mimeFamily(typ, dirs.data) {
		for _, id := range defaultApps(t, dirs) {
			e, ok := desktopByID(id, dirs.data)
			if !ok {
				continue
			}
			h, err := d.handlerOf(e, t)
			if err != nil {
				continue // an invalid Exec: the next candidate, as a launcher would
			}
			return h, nil
		}
	}
	return Handler{}, fmt.Errorf("%s: %w (type %s)", action, ErrNoHandler, typ)
}

// handlerOf describes the desktop entry e as a Handler: its Exec split, its
// program found on PATH.
func (d *Desktop) handlerOf(e desktopEntry, typ string) (Handler, error) {
	words, err := splitExec(e.Exec)
	if err != nil {
		return Handler{}, fmt.Errorf("%s: %w", e.Path, err)
	}
	h := Handler{ID: e.ID, Name: e.Name, Path: e.Path, Terminal: e.Terminal, Type: typ, exec: words}
	if p, err := d.tool("open with "+e.Name, words[0]); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		h.Program = p
	}
	home := d.getenv("HOME")
	h.UserOwned = under(e.Path, home) || (h.Program != "" && under(h.Program, home))
	return h, nil
}

// xdg returns the configuration and data folders from the Desktop's
// environment, with the specification's defaults.
func (d *Desktop) xdg() xdgDirs {
	return xdgDirs{configs: d.xdgList("XDG_CONFIG_HOME", ".config", "XDG_CONFIG_DIRS", "/etc/xdg"), data: d.dataDirs()}
}

// peek opens path without following a final symbolic link and returns
// whether it is a folder and its first bytes.
func peek(path string) (folder bool, head []byte, err error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return false, nil, fmt.Errorf("reading it: %w", err)
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, nil, err
	}
	if fi.IsDir() {
		return true, nil, nil
	}
	if !fi.Mode().IsRegular() {
		return false, nil, fmt.Errorf("it is not a regular file or a folder")
	}
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	return false, buf[:n], nil
}

// Launch opens target (a path, a URL, or "" for none) with h, exactly: the
// program h names, with the arguments its Exec line gives, in a session of
// its own. It does not wait for the program, which stays running after the
// action; but it stays Airlock's: what it starts cannot leave Airlock's
// tree (the process is a child subreaper), so the kill switch
// (KillEscaped) kills it and everything it started. An application that
// hands the file to an instance of itself already running (over D-Bus) and
// exits leaves nothing to kill: the person's own window shows the file. A
// handler that runs in a terminal is refused: Airlock opens no terminals.
func (d *Desktop) Launch(ctx context.Context, h Handler, target string) (Launched, error) {
	action := "open " + target + " with " + h.Name
	if target == "" {
		action = "open " + h.Name
	}
	if err := context.Cause(ctx); err != nil {
		return Launched{}, fmt.Errorf("%s: stopped before it started: %w", action, err)
	}
	if err := noDash(action, target); err != nil {
		return Launched{}, err
	}
	if len(h.exec) == 0 || h.Program == "" {
		return Launched{}, fmt.Errorf("%s: the handler's program was not found", action)
	}
	if h.Terminal {
		return Launched{}, &UnavailableError{Action: action, Reason: h.Name + " runs in a terminal, and Airlock opens no terminals for an action"}
	}
	argv, err := expandExec(h.exec, target, h.Name, h.Path)
	if err != nil {
		return Launched{}, fmt.Errorf("%s: %s: %w", action, h.Path, err)
	}
	argv[0] = h.Program
	pid, err := startDetached(argv, d.env)
	if err != nil {
		return Launched{}, fmt.Errorf("%s: %w", action, err)
	}
	return Launched{Program: h.Program, PID: pid}, nil
}
