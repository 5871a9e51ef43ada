// Package spawn starts processes in new namespaces for a gate whose own
// start of one costs much more: Go starts a process in a new user
// namespace with fork, not vfork (the parent writes the child's user and
// group maps while the child waits, which vfork cannot wait for), and
// fork copies the page tables of the whole gate, whose memory is large
// (the analyzers, the history, the UI). A spawner is a small process (the
// sandbox's launcher, started once with no namespaces, which Go starts
// with vfork) that starts them instead: the same attributes (Attr), the
// same program, and with CLONE_PARENT, so that each is the gate's child as
// if the gate had started it (the gate waits for it, kills its group, and
// its subreaper's bookkeeping holds), and none is the spawner's.
//
// The protocol, on a unix socket of kind SOCK_SEQPACKET whose other end
// only the gate holds: the gate sends one request (Encode) with three
// descriptors attached, the process's standard output, standard error and
// the descriptor it finds as 3; the spawner starts its own executable
// (/proc/self/exe: the file the gate started it from) with the request's
// arguments, environment and folder, in new user, mount, PID and IPC
// namespaces and, unless the request keeps the host's, a network
// namespace, in a session of its own, with /dev/null as standard input;
// and answers with one message: 'p' and the process id (4 bytes, little
// endian), or 'x' and why it could not. It serves one request at a time
// and exits when the gate closes its end. It runs nothing but its own
// executable, and gives the process nothing of its own (its descriptors
// are close-on-exec, the socket's included).
package spawn
