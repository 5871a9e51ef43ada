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

func (b *Box) platformCommand(c bridge.Command, s spec) (bridge.Command, spec) { return c, s }

func (b *Box) probe() (string, error) {
	return "", errors.New("Airlock has no OS sandbox for this platform (only Linux and macOS)")
}

func launch(spec) int { return exitSetup }
