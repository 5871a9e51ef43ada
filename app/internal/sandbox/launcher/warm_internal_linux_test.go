//go:build linux

package launcher

import (
	"errors"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/bridge"
)

// TestWarmBytes: the launcher's copy of the warm socket's protocol is the
// bridge's.
func TestWarmBytes(t *testing.T) {
	if warmReady != bridge.WarmReady || warmGo != bridge.WarmGo || warmAck != bridge.WarmAck || warmEnd != bridge.WarmEnd || bridge.WarmFD != 3 {
		t.Fatalf("launcher %q %q %q %q on 3, bridge %q %q %q %q on %d", warmReady, warmGo, warmAck, warmEnd,
			bridge.WarmReady, bridge.WarmGo, bridge.WarmAck, bridge.WarmEnd, bridge.WarmFD)
	}
}

// warmPair is a socket pair as the bridge makes it for a warm launcher:
// gate's end, launcher's end.
func warmPair(t *testing.T) (gate, ours int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fds[0]) })
	return fds[0], fds[1]
}

// sendFiles sends what the bridge sends: b, with a descriptor of a new
// memfd holding each of contents.
func sendFiles(t *testing.T, sock int, b byte, contents ...string) {
	t.Helper()
	var fds []int
	for _, c := range contents {
		fd, err := unix.MemfdCreate("t", unix.MFD_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := unix.Pwrite(fd, []byte(c), 0); err != nil {
			t.Fatal(err)
		}
		fds = append(fds, fd)
	}
	var oob []byte
	if len(fds) > 0 {
		oob = unix.UnixRights(fds...)
	}
	if err := unix.Sendmsg(sock, []byte{b}, oob, nil, unix.MSG_NOSIGNAL); err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// content reads what fd holds, from its start, and closes it.
func content(t *testing.T, fd int) string {
	t.Helper()
	f := os.NewFile(uintptr(fd), "received")
	defer f.Close()
	b := make([]byte, 100)
	n, err := f.ReadAt(b, 0)
	if err != nil && n == 0 {
		t.Fatal(err)
	}
	return string(b[:n])
}

// TestReceiveOne: the launcher says it is ready, takes its standard input
// and spec, in that order, says it took them, and closes its end: nothing
// sent after reaches it.
func TestReceiveOne(t *testing.T) {
	gate, ours := warmPair(t)
	sendFiles(t, gate, warmGo, "the input", "the spec")
	stdin, spec, err := receive(ours)
	if err != nil {
		t.Fatal(err)
	}
	if got := content(t, stdin); got != "the input" {
		t.Errorf("standard input %q", got)
	}
	if got := content(t, spec); got != "the spec" {
		t.Errorf("spec %q", got)
	}
	for _, want := range []byte{warmReady, warmAck} {
		var b [1]byte
		if n, err := unix.Read(gate, b[:]); n != 1 || b[0] != want {
			t.Errorf("the launcher said %q (%v), want %q", b[:max(n, 0)], err, want)
		}
	}
	if err := unix.Sendmsg(gate, []byte{warmGo}, nil, nil, unix.MSG_NOSIGNAL); !errors.Is(err, unix.EPIPE) {
		t.Errorf("a second action after the first: %v, want EPIPE (the launcher's end is closed)", err)
	}
}

// TestReceiveRefuses: a launcher given two actions runs neither, one whose
// gate went away runs nothing, and a message that is not exactly go with
// two descriptors is refused; each error says what was wrong.
func TestReceiveRefuses(t *testing.T) {
	tests := []struct {
		name string
		send func(t *testing.T, gate int)
		want string
	}{
		{"twice", func(t *testing.T, gate int) {
			sendFiles(t, gate, warmGo, "in", "spec one")
			sendFiles(t, gate, warmGo, "in", "spec two")
		}, "second action"},
		{"gate gone", func(t *testing.T, gate int) { unix.Shutdown(gate, unix.SHUT_RDWR) }, "went away"},
		{"gate done writing", func(t *testing.T, gate int) { unix.Shutdown(gate, unix.SHUT_WR) }, "went away"},
		{"one descriptor", func(t *testing.T, gate int) { sendFiles(t, gate, warmGo, "spec") }, "1 descriptors"},
		{"three descriptors", func(t *testing.T, gate int) { sendFiles(t, gate, warmGo, "in", "spec", "more") }, "3 descriptors"},
		{"more descriptors than room", func(t *testing.T, gate int) { sendFiles(t, gate, warmGo, "1", "2", "3", "4", "5", "6") }, "cut"},
		{"no descriptors", func(t *testing.T, gate int) { sendFiles(t, gate, warmGo) }, "0 descriptors"},
		{"another byte", func(t *testing.T, gate int) { sendFiles(t, gate, 'x', "in", "spec") }, "not an action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gate, ours := warmPair(t)
			tt.send(t, gate)
			stdin, spec, err := receive(ours)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("receive: %d %d %v, want an error saying %q", stdin, spec, err, tt.want)
			}
			if stdin != -1 || spec != -1 {
				t.Errorf("descriptors %d %d returned with the error", stdin, spec)
			}
		})
	}
}
