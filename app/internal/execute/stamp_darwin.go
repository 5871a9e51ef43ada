//go:build darwin

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
		st.ctime = time.Unix(sys.Ctimespec.Sec, sys.Ctimespec.Nsec)
		st.dev, st.ino = uint64(sys.Dev), sys.Ino
	}
	return st
}
