//go:build !linux && !darwin

package main

import (
	"fmt"
	"runtime"
)

// echoOff fails: Airlock does not know how to hide typing on this system,
// and reads no key it cannot hide.
func echoOff(int) (func(), error) {
	return nil, fmt.Errorf("hiding typed keys is not supported on %s", runtime.GOOS)
}
