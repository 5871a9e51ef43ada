package bridge

// The protocol between the bridge and a warm process (StartWarm), on the
// warm process's file descriptor 3: a unix socket of kind SOCK_SEQPACKET
// whose other end only the bridge holds. The process writes WarmReady once
// it waits; the bridge writes at most one message, WarmGo, with the
// command's standard input and then its ExtraFiles attached as SCM_RIGHTS,
// and shuts its end; the process writes WarmAck once it has taken them,
// before it does anything with them, and must run nothing if it cannot. A
// process that reads end of file instead (the gate closed the warm
// process, or died) must exit without running anything. A command is the
// process's only once the bridge has read WarmAck: until then the bridge
// may kill it and start the command cold. Once the command has ended the
// process may write WarmEnd and the exit status (one byte, 0 to 255), in
// one message, before it exits: the command's Wait then returns without
// waiting for the process's exit. It must say so only once nothing the
// command started can still run and it holds the command's standard
// output and error no more (their end is waited for).
// The sandbox's launcher speaks it (package launcher, which cannot import
// the bridge and so holds its own copy of the two bytes; a test of package
// sandbox checks they agree).
const (
	WarmReady byte = 'r'
	WarmGo    byte = 'g'
	WarmAck   byte = 'a'
	WarmEnd   byte = 'e'
)

// WarmFD is the descriptor the warm process finds the socket on.
const WarmFD = 3
