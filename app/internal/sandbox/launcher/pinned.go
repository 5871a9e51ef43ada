package launcher

import (
	"fmt"
	"path/filepath"
)

// MaxPinnedBytes bounds the bytes of all the files one spec pins together:
// they travel in the spec (as base64, within MaxSpecBytes). An action
// whose pinned files hold more does not start (sandbox.ConfineReviewed
// says why).
const MaxPinnedBytes = 16 << 20

// Pinned is one file an approved action runs, as the gate last read it and
// found it to hold what the person approved (policy.Hold): the launcher
// runs the action from these bytes, never from the path read again. On
// Linux it puts a copy of them over Path, read-only, in the action's mount
// namespace (bindPinned).
type Pinned struct {
	// Path is where the action finds the file: absolute and clean.
	Path string `json:"path"`
	// Mode is its permission bits (no set-user-ID, set-group-ID or sticky
	// bit), so that a program held runs and a script held reads.
	Mode uint32 `json:"mode"`
	// ModTime is its modification time in nanoseconds since 1970, so that
	// what caches by it (Python's bytecode) sees the file as it was.
	ModTime int64 `json:"modTime"`
	// Bytes are its content.
	Bytes []byte `json:"bytes"`
}

// CheckPinned returns an error naming the first pinned file whose path is
// not absolute and clean (or is the root), whose mode has bits other than
// the permissions, that is pinned twice, or past MaxPinnedBytes in all.
func CheckPinned(ps []Pinned) error {
	seen := map[string]bool{}
	total := 0
	for i, p := range ps {
		switch {
		case !filepath.IsAbs(p.Path) || filepath.Clean(p.Path) != p.Path || p.Path == "/":
			return fmt.Errorf("pinned file %d: %q is not an absolute, clean path to a file", i, p.Path)
		case p.Mode&^0o777 != 0:
			return fmt.Errorf("pinned file %d (%s): mode %#o has bits other than the permissions", i, p.Path, p.Mode)
		case seen[p.Path]:
			return fmt.Errorf("pinned file %d: %s is pinned twice", i, p.Path)
		}
		seen[p.Path] = true
		if total += len(p.Bytes); total > MaxPinnedBytes {
			return fmt.Errorf("the files the action runs hold more than %d MiB together: at most that can be run from what was checked", MaxPinnedBytes>>20)
		}
	}
	return nil
}
