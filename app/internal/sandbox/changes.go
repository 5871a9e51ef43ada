package sandbox

import "io/fs"

// A Layer is one sandbox root as an action that ran unasked saw it: a
// copy-on-write view whose changes lie in Upper, a folder only the gate
// reaches, until the gate reviews and applies them (package execute). Root
// itself is untouched while the action runs.
type Layer struct {
	// Root is the sandbox root: absolute and resolved.
	Root string `json:"root"`
	// Upper holds what the action changed under Root, as the platform's
	// copy-on-write view recorded it (Linux: overlayfs's upper layer).
	Upper string `json:"upper"`
	// Work is the view's scratch folder (overlayfs's workdir), beside
	// Upper on the same file system; the gate removes it with Upper.
	Work string `json:"work"`
}

// ChangeKind says what an action did to one path of a sandbox root.
type ChangeKind uint8

// The kinds of change. A folder that only holds changes is not one itself.
const (
	// Created is a file, link or folder where there was nothing.
	Created ChangeKind = iota + 1
	// Changed is a new version of something that was there: new content
	// or mode of a file, or a file, link or folder put where another
	// thing was. What was there is in Was.
	Changed
	// Removed is something that was there and is gone.
	Removed
	// Replaced is a folder that was there and was removed and made
	// again: none of its old content is in the new one, whose entries
	// are reported as Created after it.
	Replaced
)

func (k ChangeKind) String() string {
	switch k {
	case Created:
		return "created"
	case Changed:
		return "changed"
	case Removed:
		return "removed"
	case Replaced:
		return "replaced"
	}
	return "unknown change"
}

// A Change is one path an action changed under a sandbox root, read from
// its Layer after it ended. Changes come parents first.
type Change struct {
	Kind ChangeKind
	// Path is where it is in the real root: absolute and clean.
	Path string
	// Upper is the new version in the layer ("" for Removed): a regular
	// file, a symbolic link or a folder.
	Upper string
	// Mode is the new version's type and permission bits (0 for Removed).
	Mode fs.FileMode
	// Size is the new version's size in bytes (a regular file's).
	Size int64
	// Was is the type and permission bits of what was at Path before (0
	// for Created).
	Was fs.FileMode
}
