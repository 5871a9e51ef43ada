//go:build !linux

package launcher

import (
	"errors"
	"os"
)

// awaitSpec fails: a warm launcher (WaitFlag) is Linux only.
func awaitSpec(int, bool) (*os.File, error) {
	return nil, errors.New("a warm launcher is Linux only")
}

// reportEnd does nothing: there is no warm launcher.
func reportEnd(int, int) {}
