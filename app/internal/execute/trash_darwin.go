//go:build darwin

package execute

import (
	"errors"
	"unsafe"

	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

func init() { homeSystemTrash = fileManagerTrash }

// fileManagerTrash moves the item at path to the Trash with NSFileManager's
// trashItemAtURL:resultingItemURL:error:, which a program may call without
// Full Disk Access (the system moves the item, and Finder's Put Back knows
// where it came from). NSFileManager's shared instance may be used from any
// thread. viaSystem checks the path before and the result after.
func fileManagerTrash(path string) (where string, err error) {
	objc.WithAutoreleasePool(func() {
		var result foundation.URL
		var nserr foundation.Error
		ok := foundation.FileManager_DefaultManager().TrashItemAtURLResultingItemURLError(
			foundation.URL_FileURLWithPath(path), unsafe.Pointer(&result), unsafe.Pointer(&nserr))
		switch {
		case !ok && !nserr.IsNil():
			err = errors.New(nserr.LocalizedDescription())
		case !ok:
			err = errors.New("NSFileManager refused to move it to the Trash")
		case result.IsNil():
			// Moved, but it did not say where: viaSystem says the Trash.
		default:
			where = result.Path()
		}
	})
	return where, err
}
