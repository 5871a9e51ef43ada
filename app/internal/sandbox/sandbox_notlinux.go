//go:build !linux

package sandbox

import "os"

// What the launcher's start needs off Linux, where there is no /proc to
// name an open file by and no file sealing: the same on macOS and on other
// platforms.

// warmStarts says that a Box keeps no launchers started ahead: the
// bridge starts them on Linux only.
const warmStarts = false

func selfExe() string {
	exe, _ := os.Executable()
	return exe
}

// pin is the launcher's path as it stands.
func pin(path string) (string, error) { return path, nil }

// anonymousFile is an unlinked temporary file for the launcher's spec.
func anonymousFile() (*os.File, error) {
	f, err := os.CreateTemp("", "airlock-spec-")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}

// seal does nothing: there is no file sealing here.
func seal(*os.File) error { return nil }
