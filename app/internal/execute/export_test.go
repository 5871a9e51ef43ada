package execute

import "os"

// EscapeTrashPath is escapeTrashPath, for the tests.
var EscapeTrashPath = escapeTrashPath

// FailSync makes every flush of a written file fail with err until the
// returned function restores it.
func FailSync(err error) (restore func()) {
	old := syncFile
	syncFile = func(*os.File) error { return err }
	return func() { syncFile = old }
}
