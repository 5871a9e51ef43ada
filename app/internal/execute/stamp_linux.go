//go:build linux

package execute

import (
	"io/fs"
	"syscall"
	"time"
)

// stampOf is the stamp of a folder lstat described.
func stampOf(fi fs.FileInfo) folderStamp {
	st := folderStamp{mtime: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ctime = time.Unix(sys.Ctim.Sec, sys.Ctim.Nsec)
		st.dev, st.ino = sys.Dev, sys.Ino
	}
	return st
}
