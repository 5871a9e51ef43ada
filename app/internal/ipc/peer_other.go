//go:build !linux && !darwin

package ipc

import (
	"errors"
	"net"
)

// peerUID refuses every peer: this platform has no way wired up to learn
// who is at the other end, and the gate does not serve strangers.
func peerUID(c *net.UnixConn) (int, error) {
	return -1, errors.New("identifying the peer: not supported on this platform")
}

// peerOf refuses every peer, as peerUID does.
func peerOf(c *net.UnixConn) (Peer, error) {
	_, err := peerUID(c)
	return Peer{UID: -1}, err
}
