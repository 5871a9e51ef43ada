//go:build linux

package launcher

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/bridge/spawn"
)

// serveSpawn is the spawner (SpawnFlag): spawn.Serve on sock. Nothing
// traces or reads its memory.
func serveSpawn(sock int) int {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "%s%v\n", Prefix, err)
		return ExitSetup
	}
	return spawn.Serve(sock)
}

// awaitSpec is the warm launcher's wait (WaitFlag): it receives its action
// on sock (receive), puts the action's standard input in place of its own
// and returns the action's spec. With filtered (WaitFilteredFlag) it
// installs the socket filters ahead too. Everything else the launcher does comes
// after, as for a launcher started cold: the namespaces, the check that
// it is in them (ownNamespaces, whose read of /proc also starts the Go
// runtime's poller) and what prepareAhead does are all that is done
// ahead of it.
func awaitSpec(sock int, filtered bool) (*os.File, error) {
	// Nothing traces or reads this process's memory while it waits (launch
	// says it again, for a launcher started cold).
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return nil, err
	}
	if err := ownNamespaces(); err != nil {
		unix.Close(sock)
		return nil, err
	}
	if err := prepareAhead(filtered); err != nil {
		unix.Close(sock)
		return nil, err
	}
	warmUp()
	stdin, spec, err := receive(sock)
	if err != nil {
		return nil, err
	}
	err = unix.Dup3(stdin, 0, 0)
	unix.Close(stdin)
	if err != nil {
		unix.Close(spec)
		unix.Close(sock)
		return nil, fmt.Errorf("taking the action's standard input: %w", err)
	}
	return os.NewFile(uintptr(spec), "profile"), nil
}

// prepareAhead does, while a warm launcher waits, the part of confining an
// action that does not depend on the action: it mounts the /proc of its
// PID namespace and a private /dev/shm, makes the empty folder hide puts
// over each hidden folder (emptyFolder), then locks the securebits
// (lockCapabilities), which stops and signals every thread of the
// launcher: about 50 µs on an idle machine, more on a busy one (the
// caller spins until every thread has run). /proc comes first: a
// launcher built with cgo stops its threads through libpsx, which finds
// them in /proc/PID/task, and in the host's
// /proc PID 1 is not this process (it would look for them for ever). The
// mounts are made slaves of the host's first (in a user namespace of their
// own they already are), so that nothing mounted here reaches the
// namespaces the gate runs in, while what the person mounts and unmounts
// still reaches this one until the action comes (launch then makes them
// private, as for a launcher started cold). Where /proc cannot be
// mounted, nothing of that is done ahead. With filtered it then installs
// the two socket filters (WaitFilteredFlag): they refuse making sockets
// and fast-open sends, which the launcher does not do, and io_uring, which
// it does not use; installing them takes the capability it holds in its
// user namespace until launch drops it. Then it reads its network
// namespace (netNSAhead), sets no_new_privs on every thread (which keeps
// nothing the launcher does from working: it runs no program before the
// action's; not through TSYNC from one thread, which would need
// runtime.LockOSThread, whose first call starts a thread of the runtime's
// for good: one more for every later call on every thread to stop), and,
// with filtered, builds the part of the action's Landlock ruleset that
// does not depend on the action (prepareRuleset); where it cannot, launch
// builds all of it.
func prepareAhead(filtered bool) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("making the mounts slaves: %w", err)
	}
	if !mountProc() {
		return nil
	}
	procAhead = true
	shmAhead = mountShm() == nil // else launch mounts it, or fails saying why
	if m, err := makeEmptyFolder(); err == nil {
		emptyFolder = m // else hide makes it, or fails saying why
	}
	if err := lockCapabilities(); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	if filtered {
		if err := installFilters(); err != nil {
			return err
		}
	}
	netNSAhead = NetNamespace()
	if err := setNoNewPrivs(); err != nil {
		return fmt.Errorf("applying Landlock: %w", err)
	}
	if abi, err := landlockABI(); err == nil && filtered {
		// Else launch builds all of it, or fails saying why.
		_ = prepareRuleset(abi)
	}
	return nil
}

// filteredAhead is set once a warm launcher has installed both socket
// filters while it waited (prepareAhead, WaitFilteredFlag).
var filteredAhead bool

// installFilters installs the network filter and the one against local
// sockets, in the order launch installs them for an action that has both
// (the later one's refusal is the one a program sees where both refuse).
func installFilters() error {
	if err := installFilter(netFilter); err != nil {
		return fmt.Errorf("applying the network filter: %w", err)
	}
	if err := installFilter(socketFilter); err != nil {
		return fmt.Errorf("applying the socket filter: %w", err)
	}
	filteredAhead = true
	return nil
}

// endWait bounds how long a warm launcher waits, once its program has
// exited, for the rest of its namespace to die before it says so: past it
// the launcher exits without a word, and the kernel kills what is left as
// the launcher's end (the gate then waits for that end, as for a launcher
// started cold).
const endWait = time.Second

// reportEnd tells the gate, on sock, that the action has ended with code,
// before the launcher's own exit and its namespaces' teardown, so that the
// gate need not wait for those: only once nothing of the action is left
// (the launcher, PID 1 of its PID namespace, has killed every other
// process in it and reaped every child, whatever its exit signal, until
// it has none) and the launcher holds its standard output and error no
// more (their readers see the end). It closes sock. A launcher that is
// not PID 1 (which could not tell that nothing is left) says nothing.
func reportEnd(sock, code int) {
	defer unix.Close(sock)
	if os.Getpid() != 1 {
		return
	}
	watchdog := time.AfterFunc(endWait, func() { os.Exit(code) })
	// Every process of this PID namespace but this one (and those of the
	// namespaces below it): none can block or ignore SIGKILL.
	_ = unix.Kill(-1, unix.SIGKILL)
	for {
		var ws unix.WaitStatus
		_, err := unix.Wait4(-1, &ws, unix.WALL, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if !errors.Is(err, unix.ECHILD) {
			return // cannot tell: let the kernel's end of the namespace do it
		}
		break
	}
	if !watchdog.Stop() {
		return
	}
	null, err := unix.Open(os.DevNull, unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(null)
	for _, fd := range []int{1, 2} {
		if unix.Dup3(null, fd, 0) != nil {
			return
		}
	}
	_ = unix.Sendto(sock, []byte{warmEnd, byte(code)}, unix.MSG_NOSIGNAL, nil)
}

// receive says on sock (a unix socket whose other end only the gate holds)
// that the launcher is ready, then reads one message: warmGo with two
// descriptors, the action's standard input and its spec, and says it took
// them (warmAck). Before it returns it shuts sock for reading, so that
// nothing more can reach this launcher (it confines one action, ever, and
// a second one already waiting behind the first makes it refuse both);
// the launcher keeps it only to say when the action has ended
// (reportEnd). On an error it closes sock. The gate closing its end
// instead (it discarded this launcher, or died) is an error: the launcher
// then exits having run nothing.
func receive(sock int) (stdin, spec int, err error) {
	defer func() {
		if err != nil {
			unix.Close(sock)
		} else if serr := unix.Shutdown(sock, unix.SHUT_RD); serr != nil {
			unix.Close(stdin)
			unix.Close(spec)
			unix.Close(sock)
			stdin, spec, err = -1, -1, fmt.Errorf("closing the way to the launcher: %w", serr)
		}
	}()
	// Unheard when the gate has sent the action and closed its end already
	// (EPIPE): the action waits in the socket all the same.
	for errors.Is(unix.Sendto(sock, []byte{warmReady}, unix.MSG_NOSIGNAL, nil), unix.EINTR) {
	}
	var b [2]byte
	oob := make([]byte, unix.CmsgSpace(3*4)) // room for one more than sent, so that one too many is seen
	var n, oobn, flags int
	for {
		n, oobn, flags, _, err = unix.Recvmsg(sock, b[:], oob, unix.MSG_CMSG_CLOEXEC)
		// ECONNRESET: the gate closed its end with the ready byte unread
		// in it. It is said once, ahead of what is queued: read on.
		if !errors.Is(err, unix.EINTR) && !errors.Is(err, unix.ECONNRESET) {
			break
		}
	}
	if err != nil {
		return -1, -1, fmt.Errorf("waiting for the action: %w", err)
	}
	fds, others := spawn.Rights(oob[:oobn])
	fail := func(e error) (int, int, error) {
		for _, fd := range fds {
			unix.Close(fd)
		}
		return -1, -1, e
	}
	switch {
	case n == 0 && oobn == 0:
		return fail(errors.New("the gate went away before it sent an action"))
	case flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || others > 0:
		return fail(fmt.Errorf("the gate's message was cut or carries what is not a descriptor (flags %#x, %d other parts)", flags, others))
	case n != 1 || b[0] != warmGo || len(fds) != 2:
		return fail(fmt.Errorf("the gate's message is not an action (%d bytes, %d descriptors)", n, len(fds)))
	}
	if m, _, err := unix.Recvfrom(sock, b[:], unix.MSG_DONTWAIT|unix.MSG_PEEK); err == nil && m > 0 {
		return fail(errors.New("the gate sent a second action: a launcher confines one, so it runs neither"))
	}
	// The gate counts the action as this launcher's only once it hears
	// this; until then it may start it elsewhere, so nothing runs here
	// unless it is heard.
	if err := unix.Sendto(sock, []byte{warmAck}, unix.MSG_NOSIGNAL, nil); err != nil {
		return fail(fmt.Errorf("the gate went away as the action came (%v)", err))
	}
	return fds[0], fds[1], nil
}
