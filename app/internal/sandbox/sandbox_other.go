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

func (b *Box) platformCommand(c bridge.Command, s spec) (bridge.Command, spec, error) {
	return c, s, nil
}

func (b *Box) probe() (string, error) {
	return "", errors.New("Airlock has no OS sandbox for this platform (only Linux and macOS)")
}
