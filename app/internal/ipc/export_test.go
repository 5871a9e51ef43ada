package ipc

import "net"

// SetPeerUID replaces how s learns a peer's uid, so tests can play another
// user. Call it before Serve.
func SetPeerUID(s *Server, f func(*net.UnixConn) (int, error)) { s.peerUID = f }
