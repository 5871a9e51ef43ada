package policy

// Identity is a client's program as the operating system vouches for it:
// what the gate binds grants to, never the name a client gives itself.
type Identity struct {
	// Key identifies the program: on Linux its executable file (path,
	// device, inode and change time, as the kernel reports for the process
	// at the other end of the socket); on macOS its path and verified code
	// signature; for Airlock's own menu a fixed key. Two clients share a
	// key only if they run the same program. Empty means the program could
	// not be verified: nothing is granted to it, and no grant covers it.
	Key string
	// Program describes the program for the person: "/usr/bin/foo (pid
	// 123)", with its signer on macOS. It is shown, never matched.
	Program string
}

// Verified reports whether grants can belong to the identity.
func (id Identity) Verified() bool { return id.Key != "" }
