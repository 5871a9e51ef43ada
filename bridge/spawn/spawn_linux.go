//go:build linux

package spawn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Attr is how a process is started in namespaces of its own: new user,
// mount, PID and IPC namespaces, and a new network namespace unless
// hostNetwork; one user and one group mapped, to the starter's own, with
// setgroups refused; in a session of its own; holding CAP_SYS_ADMIN and
// CAP_SETPCAP in its namespaces only (what the sandbox's launcher needs
// to set them up, and drops before it starts anything).
func Attr(hostNetwork bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setsid: true}
	a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC
	if !hostNetwork {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP}
	return a
}

// Request is what the gate asks a spawner to start.
type Request struct {
	HostNetwork bool     // keep the host's network namespace
	Dir         string   // the working folder
	Argv        []string // the arguments (Argv[0] is what the process is called; it runs the spawner's executable)
	Env         []string // the environment
}

// Files is how many descriptors a request carries: standard output,
// standard error and the process's descriptor 3.
const Files = 3

// maxRequest bounds a request's bytes.
const maxRequest = 64 << 10

// Encode returns r as one message: a byte of flags (1: HostNetwork),
// then the folder, the count of arguments, the arguments and the
// environment, each ended by a NUL byte.
func Encode(r Request) ([]byte, error) {
	var b bytes.Buffer
	flags := byte(0)
	if r.HostNetwork {
		flags |= 1
	}
	b.WriteByte(flags)
	fields := append([]string{r.Dir, strconv.Itoa(len(r.Argv))}, r.Argv...)
	for _, f := range append(fields, r.Env...) {
		if bytes.IndexByte([]byte(f), 0) >= 0 {
			return nil, fmt.Errorf("a spawn request's field %q holds a NUL byte", f)
		}
		b.WriteString(f)
		b.WriteByte(0)
	}
	if b.Len() > maxRequest {
		return nil, fmt.Errorf("a spawn request takes %d bytes: at most %d", b.Len(), maxRequest)
	}
	return b.Bytes(), nil
}

// Decode is Encode's inverse, refusing what Encode does not make.
func Decode(m []byte) (Request, error) {
	var r Request
	if len(m) < 1 || m[0]&^1 != 0 || m[len(m)-1] != 0 {
		return r, errors.New("a spawn request is malformed")
	}
	r.HostNetwork = m[0]&1 != 0
	fields := bytes.Split(m[1:len(m)-1], []byte{0})
	if len(fields) < 2 {
		return r, errors.New("a spawn request names no folder or arguments")
	}
	n, err := strconv.Atoi(string(fields[1]))
	if err != nil || n < 1 || n > len(fields)-2 {
		return r, errors.New("a spawn request's count of arguments is wrong")
	}
	r.Dir = string(fields[0])
	for _, f := range fields[2 : 2+n] {
		r.Argv = append(r.Argv, string(f))
	}
	for _, f := range fields[2+n:] {
		r.Env = append(r.Env, string(f))
	}
	return r, nil
}

// Serve is the spawner: it serves the requests that come on sock until
// the gate closes its end (then it returns 0), or returns 1 when the
// socket fails or a message breaks the protocol (the gate then starts
// processes itself).
func Serve(sock int) int {
	if err := unix.SetNonblock(sock, false); err != nil {
		return 1
	}
	unix.CloseOnExec(sock) // what it starts gets the descriptors it was sent, not this
	buf := make([]byte, maxRequest+1)
	oob := make([]byte, unix.CmsgSpace((Files+1)*4)) // room for one more than sent, so that one too many is seen
	for {
		n, oobn, flags, _, err := unix.Recvmsg(sock, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 1
		}
		fds, others := Rights(oob[:oobn])
		if n == 0 && oobn == 0 {
			return 0 // the gate closed its end
		}
		pid, serr := start(buf[:n], flags, fds, others)
		for _, fd := range fds {
			unix.Close(fd)
		}
		reply := []byte{'x'}
		if serr != nil {
			reply = append(reply, serr.Error()...)
		} else {
			reply = binary.LittleEndian.AppendUint32([]byte{'p'}, uint32(pid))
		}
		for {
			err := unix.Sendto(sock, reply, unix.MSG_NOSIGNAL, nil)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil {
				return 1
			}
			break
		}
	}
}

// start starts the process one request asks for, and returns its id.
func start(m []byte, flags int, fds []int, others int) (int, error) {
	if flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || others > 0 || len(fds) != Files {
		return 0, fmt.Errorf("a spawn request must carry %d descriptors and nothing else, whole", Files)
	}
	r, err := Decode(m)
	if err != nil {
		return 0, err
	}
	null, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("opening %s: %w", os.DevNull, err)
	}
	defer unix.Close(null)
	a := Attr(r.HostNetwork)
	a.Cloneflags |= syscall.CLONE_PARENT
	pid, err := syscall.ForkExec("/proc/self/exe", r.Argv, &syscall.ProcAttr{Dir: r.Dir, Env: r.Env,
		Files: []uintptr{uintptr(null), uintptr(fds[0]), uintptr(fds[1]), uintptr(fds[2])}, Sys: a})
	if err != nil {
		return 0, fmt.Errorf("starting %s: %w", r.Argv[0], err)
	}
	return pid, nil
}

// Rights returns the descriptors a message's control data carries, and
// how many of its parts are something else (the launcher's warm socket
// reads its one message with it too).
func Rights(oob []byte) (fds []int, others int) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, 1
	}
	for i := range msgs {
		got, err := unix.ParseUnixRights(&msgs[i])
		if err != nil {
			others++
			continue
		}
		fds = append(fds, got...)
	}
	return fds, others
}
