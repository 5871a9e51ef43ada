//go:build !linux

package sandbox

import (
	"io/fs"
	"os"
)

// copyOnWrite says that actions that run unasked here write for real:
// there is no copy-on-write view of the sandbox roots (macOS's Seatbelt
// refuses what could not be reviewed instead).
const copyOnWrite = false

func charWhiteout(fs.FileInfo) bool { return false }

func xattrWhiteout(*os.Root, string) bool { return false }

func opaqueDir(*os.Root) (bool, error) { return false, nil }

func mountID(string) uint64 { return 0 }

func bootID() string { return "" }
