package bridge

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNoSuchApp is wrapped by the error of an action naming an application
// that is not installed (no bundle on macOS, no desktop file on Linux).
var ErrNoSuchApp = errors.New("no such application")

// checkAppName refuses an application name that could name a path.
func checkAppName(app string) error {
	if app == "" || strings.ContainsAny(app, "/\x00") || strings.HasPrefix(app, ".") || strings.HasPrefix(app, "-") {
		return fmt.Errorf("%q is not an application name", app)
	}
	return nil
}

// findAppBundle looks for the bundle NAME.app (or NAME when it ends in
// .app) directly in each of dirs, in order, matching the name without
// regard to case, and returns its path.
func findAppBundle(app string, dirs []string) (string, error) {
	if err := checkAppName(app); err != nil {
		return "", err
	}
	want := app
	if !strings.HasSuffix(strings.ToLower(want), ".app") {
		want += ".app"
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if strings.EqualFold(e.Name(), want) {
				p := filepath.Join(dir, e.Name())
				if fi, err := os.Stat(p); err == nil && fi.IsDir() {
					return p, nil
				}
			}
		}
	}
	return "", fmt.Errorf("%w: %s.app is in none of %s", ErrNoSuchApp, strings.TrimSuffix(want, ".app"), strings.Join(dirs, ", "))
}

// desktopEntry is what the bridge reads from a freedesktop desktop file.
type desktopEntry struct {
	ID              string // "org.gnome.Nautilus" for org.gnome.Nautilus.desktop
	Path            string
	Name            string // the unlocalised Name
	Exec            string
	DBusActivatable bool
	Terminal        bool
}

// findDesktopFile finds the application named app in the applications
// folders under dataDirs (in order of precedence, as XDG_DATA_HOME then
// XDG_DATA_DIRS give them). app is a desktop file id ("firefox",
// "org.gnome.Nautilus", with or without ".desktop"), matched first, in
// every folder; then the entry's Name ("Firefox", "Files"). Case does not
// matter. A file in an earlier folder hides one with its id in a later one,
// and an entry that is Hidden, or not of Type Application, counts as absent.
func findDesktopFile(app string, dataDirs []string) (desktopEntry, error) {
	if err := checkAppName(app); err != nil {
		return desktopEntry{}, err
	}
	want := strings.TrimSuffix(app, ".desktop")
	entries := desktopEntries(dataDirs)
	for _, match := range []func(desktopEntry) bool{
		func(e desktopEntry) bool { return strings.EqualFold(e.ID, want) },
		func(e desktopEntry) bool { return strings.EqualFold(e.Name, app) },
	} {
		for _, e := range entries {
			if match(e) {
				return e, nil
			}
		}
	}
	return desktopEntry{}, fmt.Errorf("%w: no desktop file for %q in the applications folders of %s", ErrNoSuchApp, app, strings.Join(dataDirs, ", "))
}

// desktopEntries reads the visible application entries of the
// applications folders under dataDirs, in order of precedence: a file in an
// earlier folder hides one with its id in a later one.
func desktopEntries(dataDirs []string) []desktopEntry {
	seen := map[string]bool{}
	var entries []desktopEntry
	for _, dd := range dataDirs {
		root := filepath.Join(dd, "applications")
		filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() || !strings.HasSuffix(p, ".desktop") {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			id := strings.ReplaceAll(strings.TrimSuffix(rel, ".desktop"), string(filepath.Separator), "-")
			if seen[id] {
				return nil
			}
			seen[id] = true
			if e, ok := readDesktopFile(p); ok {
				e.ID = id
				entries = append(entries, e)
			}
			return nil
		})
	}
	return entries
}

// desktopByID finds the entry whose desktop file id is id (with or without
// ".desktop"), exactly.
func desktopByID(id string, dataDirs []string) (desktopEntry, bool) {
	id = strings.TrimSuffix(id, ".desktop")
	for _, e := range desktopEntries(dataDirs) {
		if e.ID == id {
			return e, true
		}
	}
	return desktopEntry{}, false
}

// readDesktopFile reads the [Desktop Entry] group of a desktop file. ok is
// false for an entry that is not a visible application.
func readDesktopFile(p string) (e desktopEntry, ok bool) {
	f, err := os.Open(p)
	if err != nil {
		return e, false
	}
	defer f.Close()
	e.Path = p
	typ, hidden := "", false
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = line == "[Desktop Entry]"
			continue
		}
		k, v, found := strings.Cut(line, "=")
		if !in || !found {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "Type":
			typ = v
		case "Name":
			e.Name = v
		case "Exec":
			e.Exec = v
		case "Hidden":
			hidden = v == "true"
		case "DBusActivatable":
			e.DBusActivatable = v == "true"
		case "Terminal":
			e.Terminal = v == "true"
		}
	}
	return e, sc.Err() == nil && typ == "Application" && !hidden
}
