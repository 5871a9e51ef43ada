//go:build unix && !linux && !darwin

package execute

import (
	"io/fs"
	"os"
)

// openRoot opens the folder at the absolute path root, refusing a symbolic
// link in any element of it: one element at a time, with O_NOFOLLOW.
func openRoot(root string) (*os.File, error) { return walkFromSlash(root) }

// openBeneath opens the folder rel beneath dir, refusing a symbolic link
// in any element: one element at a time, with O_NOFOLLOW.
func openBeneath(dir *os.File, rel string) (*os.File, error) {
	return walkBeneath(dir, rel)
}

// renameNoReplace renames as renameAt does where nothing is at toName
// (looked at first: this system has no way to ask the rename itself).
func renameNoReplace(from *folder, fromName string, to *folder, toName string) error {
	if there, err := to.lstat(toName); err != nil {
		return err
	} else if there != nil {
		return &os.LinkError{Op: "rename", Old: from.at(fromName), New: to.at(toName), Err: fs.ErrExist}
	}
	return renameAt(from, fromName, to, toName)
}
