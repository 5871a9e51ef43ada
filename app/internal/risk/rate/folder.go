package rate

import (
	"os"
	"path"
	"strings"
)

// PlainFolder reports whether p, a path Presence judges, names a folder on
// the disk now, inside the home, that is reached through no symbolic link
// below the home: the folder itself and every folder between it and the
// home are what their names say. A link to a folder (~/Documents/keys →
// ~/.ssh) is not a plain folder: what it shows is elsewhere, and the link
// may be changed to point at a file. (The home's own path may pass through
// links, as macOS's /var → /private/var does for a temporary home.) Nor
// is a folder laid out as a bundle (bundleLayout).
func (e *Env) PlainFolder(p string) bool {
	abs, ok := e.judged(p)
	if !ok {
		return false
	}
	home := path.Clean(e.Paths.Home)
	rest, ok := strings.CutPrefix(abs, home+"/")
	if !ok || rest == "" {
		return false
	}
	dir := home
	for _, el := range strings.Split(rest, "/") {
		dir = path.Join(dir, el)
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			return false // missing, a file, or a link
		}
	}
	return !bundleLayout(dir)
}

// BundleFolder reports whether p, a path Presence judges, names a folder
// on the disk now (its links followed) laid out as a bundle.
func (e *Env) BundleFolder(p string) bool {
	abs, ok := e.judged(p)
	if !ok {
		return false
	}
	fi, err := os.Stat(abs)
	return err == nil && fi.IsDir() && bundleLayout(abs)
}

// bundleLayout reports a folder laid out as a bundle (Contents/Info.plist,
// Contents/MacOS): with the Finder's bundle bit set, which an earlier
// action may have set, Launch Services takes it for an application and
// open runs it, extension or none.
func bundleLayout(dir string) bool {
	for _, p := range []string{"Contents/Info.plist", "Contents/MacOS", "Contents/PkgInfo"} {
		if _, err := os.Lstat(path.Join(dir, p)); err == nil {
			return true
		}
	}
	return false
}
