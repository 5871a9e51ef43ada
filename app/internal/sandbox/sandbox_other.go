//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"os"

	"github.com/airlockhq/airlock/bridge"
)

func selfExe() string {
	exe, _ := os.Executable()
	return exe
}

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

func (b *Box) platformCommand(c bridge.Command, s spec) (bridge.Command, spec, error) {
	return c, s, nil
}

func (b *Box) probe() (string, error) {
	return "", errors.New("Airlock has no OS sandbox for this platform (only Linux and macOS)")
}
