//go:build !linux && !darwin

package execute

import "io/fs"

// stampOf is the stamp of a folder lstat described: its modification time
// only, where the change time and inode are not read (a folder replaced
// by one with the same modification time goes unseen there).
func stampOf(fi fs.FileInfo) folderStamp { return folderStamp{mtime: fi.ModTime()} }
