//go:build !linux && !darwin

package sandbox

import (
	"errors"

	"github.com/airlockhq/airlock/bridge"
)

func (b *Box) platformCommand(c bridge.Command, s spec, _ []string) (bridge.Command, spec, error) {
	return c, s, nil
}

func (b *Box) probe() (string, error) {
	return "", errors.New("Airlock has no OS sandbox for this platform (only Linux and macOS)")
}
