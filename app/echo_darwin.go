//go:build darwin

package main

import "golang.org/x/sys/unix"

// echoOff turns off echo on the terminal fd (keeping line editing) and
// returns what restores it. macOS names the termios ioctls TIOCGETA and
// TIOCSETA.
func echoOff(fd int) (func(), error) {
	old, err := unix.IoctlGetTermios(fd, unix.TIOCGETA)
	if err != nil {
		return nil, err
	}
	t := *old
	t.Lflag &^= unix.ECHO | unix.ECHOE | unix.ECHOK | unix.ECHONL
	t.Lflag |= unix.ICANON
	if err := unix.IoctlSetTermios(fd, unix.TIOCSETA, &t); err != nil {
		return nil, err
	}
	return func() { unix.IoctlSetTermios(fd, unix.TIOCSETA, old) }, nil
}
