package bridge

import (
	"path/filepath"
	"strings"
)

// installedBundle reports a macOS app bundle p inside the folders
// applications are installed in: /Applications, /System/Applications and
// the system's CoreServices (as the analyzers' facts.InstalledApp judges
// a path), compared in any case, judged by where p leads once cleaned
// (/Applications/../Users/me/X.app is in the home).
func installedBundle(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	low := strings.ToLower(filepath.Clean(p))
	for _, dir := range []string{"/applications/", "/system/applications/", "/system/library/coreservices/"} {
		if strings.HasPrefix(low, dir) {
			return true
		}
	}
	return false
}

// strayCopy returns the first of copies, the bundles Launch Services
// knows under one bundle identifier, that lies outside the install
// folders (installedBundle), or "": Launch Services starts the copy of
// the highest version, whichever folder holds it, so a Safari.app an
// action made in a project with Safari's identifier and a higher version
// answers tell application "Safari".
func strayCopy(copies []string) string {
	for _, c := range copies {
		if c != "" && !installedBundle(c) {
			return c
		}
	}
	return ""
}
