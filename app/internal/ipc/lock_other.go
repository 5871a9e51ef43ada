//go:build !linux && !darwin

package ipc

import (
	"errors"
	"os"
)

// lock refuses: the gate's socket protocol is written for macOS and Linux.
func lock(path string) (*os.File, error) {
	return nil, errors.New("the gate cannot run on this platform: it needs macOS or Linux")
}
