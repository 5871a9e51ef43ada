package shell

import (
	"os"
	"path/filepath"
	"strings"
)

// scratchRoots are the system's temporary folders, scratch by name.
var scratchRoots = []string{"/tmp", "/private/tmp", "/var/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders"}

// scratchOnDisk reports whether p, a scratch path by its words, is one on
// the disk as well: no link lies between its temporary folder and the
// longest part of it that exists (the system's own /tmp → /private/tmp
// excepted). A link there, made by an earlier action, may lead anywhere
// (/tmp/docs → ~/Documents): what is written or removed through it is the
// person's.
func scratchOnDisk(p string) bool {
	p = filepath.Clean(p)
	root := ""
	for _, t := range scratchRoots {
		if p == t || strings.HasPrefix(p, t+"/") {
			root = t
			break
		}
	}
	if root == "" {
		return false
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return true // no such folder here: nothing on the disk to follow
	}
	for dir := p; len(dir) >= len(root); dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(dir)
		return err == nil && real == rootReal+dir[len(root):]
	}
	return true
}
