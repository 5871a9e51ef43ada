//go:build linux

package sandbox

import llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

// LandlockABI is the kernel's Landlock ABI, or 0 when it has none.
func LandlockABI() int {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return abi
}
