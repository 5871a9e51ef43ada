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
// links, as macOS's /var → /private/var does for a temporary home.)
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
	return true
}
