package ipc

import "net"

// SetPeerUID replaces how s learns a peer's uid, so tests can play another
// user; the rest of the peer is looked up as usual. Call it before Serve.
func SetPeerUID(s *Server, f func(*net.UnixConn) (int, error)) {
	s.peerUID = f
	s.peerOf = func(c *net.UnixConn) (Peer, error) {
		p, _ := peerOf(c)
		uid, err := f(c)
		p.UID = uid
		return p, err
	}
}

// Exported for the tests of the platform-neutral identity decisions.
type (
	CodeSignature = codeSignature
	LinuxExe      = linuxExe
)

var (
	SignedProgram   = signedProgram
	ExeProgram      = exeProgram
	ResolveLauncher = resolveLauncher
)

// ProgramKey returns p's key.
func ProgramKey(p Program) string { return p.key }
