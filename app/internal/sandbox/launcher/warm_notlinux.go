//go:build !linux

package launcher

import (
	"errors"
	"fmt"
	"os"
)

// awaitSpec fails: a warm launcher (WaitFlag) is Linux only.
func awaitSpec(int, bool) (*os.File, error) {
	return nil, errors.New("a warm launcher is Linux only")
}

// serveSpawn fails: a spawner (SpawnFlag) is Linux only.
func serveSpawn(int) int {
	fmt.Fprintf(os.Stderr, "%sa spawner is Linux only\n", Prefix)
	return ExitSetup
}

// reportEnd does nothing: there is no warm launcher.
func reportEnd(int, int) {}
