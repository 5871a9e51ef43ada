//go:build linux

package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// netHelper is what a confined program tries on the network, for the
// tests below; ok is false for a mode it does not know.
func netHelper(mode string, args []string) (code int, ok bool) {
	report := func(what string, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
			return
		}
		fmt.Printf("%s: ok\n", what)
	}
	switch mode {
	case "dial":
		// TCP connects, each to HOST:PORT.
		for _, a := range args {
			c, err := net.DialTimeout("tcp", a, 5*time.Second)
			if err == nil {
				c.Close()
			}
			report("dial "+a, unwrapOpError(err))
		}
	case "tricks":
		// The ways around Landlock's TCP rules, each to 127.0.0.1:PORT.
		port, _ := strconv.Atoi(args[0])
		to := &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}
		withSocket := func(what string, domain, typ, proto int, use func(fd int) error) {
			fd, err := unix.Socket(domain, typ|unix.SOCK_CLOEXEC, proto)
			if err == nil {
				err = use(fd)
				unix.Close(fd)
			}
			report(what, err)
		}
		connect := func(fd int) error { return unix.Connect(fd, to) }
		withSocket("mptcp", unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_MPTCP, connect)
		withSocket("tcp fast open", unix.AF_INET, unix.SOCK_STREAM, 0, func(fd int) error {
			return unix.Sendto(fd, []byte("x"), unix.MSG_FASTOPEN, to)
		})
		withSocket("tcp fast open by sendmsg", unix.AF_INET, unix.SOCK_STREAM, 0, func(fd int) error {
			return unix.Sendmsg(fd, []byte("x"), nil, to, unix.MSG_FASTOPEN)
		})
		withSocket("sctp", unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_SCTP, connect)
		withSocket("vsock", unix.AF_VSOCK, unix.SOCK_STREAM, 0, func(fd int) error {
			return unix.Connect(fd, &unix.SockaddrVM{CID: unix.VMADDR_CID_HOST, Port: uint32(port)})
		})
		withSocket("packet", unix.AF_PACKET, unix.SOCK_DGRAM, 0, func(int) error { return nil })
		withSocket("netlink", unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE, func(int) error { return nil })
		withSocket("socket diagnostics", unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_SOCK_DIAG, func(int) error { return nil })
	case "listen":
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err == nil {
			ln.Close()
		}
		report("listen", unwrapOpError(err))
	case "udp":
		// One datagram to HOST:PORT.
		c, err := net.Dial("udp", args[0])
		if err == nil {
			_, err = c.Write([]byte("x"))
			c.Close()
		}
		report("udp", unwrapOpError(err))
	case "ifaces":
		ifs, err := net.Interfaces()
		if err != nil {
			report("interfaces", err)
			return 1, true
		}
		for _, i := range ifs {
			state := "down"
			if i.Flags&net.FlagUp != 0 {
				state = "up"
			}
			fmt.Printf("interface %s %s\n", i.Name, state)
		}
	case "web-check":
		return webCheck(args[0]), true
	default:
		return 0, false
	}
	return 0, true
}

// unwrapOpError drops net's "dial tcp ADDR:" prefix.
func unwrapOpError(err error) error {
	var se syscall.Errno
	if errors.As(err, &se) {
		return se
	}
	return err
}

// listener is a local service the confined program must not reach: a
// stand-in for an X server on TCP, a VNC server or a browser's DevTools
// port.
type listener struct {
	ln   *net.TCPListener
	port int
}

func listen(t *testing.T, addr string) *listener {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return &listener{ln: ln.(*net.TCPListener), port: ln.Addr().(*net.TCPAddr).Port}
}

func (l *listener) addr() string { return l.ln.Addr().String() }

// reached reports whether a connection waits to be accepted: the kernel
// completes a handshake before anyone accepts, so once the program has
// ended every connection it made is there.
func (l *listener) reached(t *testing.T) bool {
	t.Helper()
	rc, err := l.ln.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var nfd int
	var aerr error
	if err := rc.Control(func(fd uintptr) {
		// The listener does not block: EAGAIN says none is waiting.
		nfd, _, aerr = unix.Accept4(int(fd), unix.SOCK_CLOEXEC)
	}); err != nil {
		t.Fatal(err)
	}
	if errors.Is(aerr, unix.EAGAIN) {
		return false
	}
	if aerr != nil {
		t.Fatalf("accept: %v", aerr)
	}
	unix.Close(nfd)
	return true
}

// mustSay fails the test unless out has each line of want.
func mustSay(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains("\n"+out, "\n"+w+"\n") {
			t.Errorf("%s: the output lacks %q:\n%s", what, w, out)
		}
	}
}

// TestNoNetwork: an action that runs unasked and does not use the network
// reaches nothing on this machine, by TCP over IPv4 or IPv6 or around
// Landlock, sees none of its sockets in /proc/net, and has only a loopback
// that is down.
func TestNoNetwork(t *testing.T) {
	r := newRig(t)
	devtools := listen(t, "127.0.0.1:0")
	targets := []string{devtools.addr()}
	var devtools6 *listener
	if ln, err := net.Listen("tcp", "[::1]:0"); err == nil {
		ln.Close()
		devtools6 = listen(t, "[::1]:0")
		targets = append(targets, devtools6.addr())
	}
	bus := filepath.Join(t.TempDir(), fmt.Sprintf("airlock-marker-%d.sock", os.Getpid()))
	uln, err := net.Listen("unix", bus)
	if err != nil {
		t.Fatal(err)
	}
	defer uln.Close()

	out, _, err := r.run(t, sandbox.Grant{}, append([]string{r.helper, "dial"}, targets...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, a := range targets {
		if !strings.Contains(out, "dial "+a+": ") || strings.Contains(out, "dial "+a+": ok") {
			t.Errorf("%s was reached:\n%s", a, out)
		}
	}
	out, _, _ = r.run(t, sandbox.Grant{}, r.helper, "tricks", strconv.Itoa(devtools.port))
	mustSay(t, "tricks", out, "mptcp: protocol not supported", "tcp fast open: permission denied",
		"tcp fast open by sendmsg: permission denied", "vsock: address family not supported by protocol",
		"packet: address family not supported by protocol", "netlink: ok", "socket diagnostics: permission denied")
	if devtools.reached(t) || devtools6 != nil && devtools6.reached(t) {
		t.Fatal("a connection reached the local listener")
	}

	// /proc/net lists this machine's sockets outside; inside, none.
	tcp := fmt.Sprintf("0100007F:%04X", devtools.port)
	host := ""
	for _, f := range []string{"/proc/net/tcp", "/proc/net/unix"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		host += string(b)
	}
	if !strings.Contains(host, tcp) || !strings.Contains(host, bus) {
		t.Fatalf("outside the sandbox, /proc/net does not list the test's sockets (%s, %s), so this test proves nothing", tcp, bus)
	}
	out, _, err = r.run(t, sandbox.Grant{}, "cat", "/proc/net/tcp", "/proc/net/tcp6", "/proc/net/unix")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(out, tcp) || strings.Contains(out, bus) {
		t.Errorf("inside, /proc/net lists the host's sockets:\n%s", out)
	}
	if lines := strings.Count(out, "\n"); lines != 3 { // the three headers
		t.Errorf("inside, /proc/net lists sockets:\n%s", out)
	}

	out, _, err = r.run(t, sandbox.Grant{}, r.helper, "ifaces")
	if err != nil || out != "interface lo down\n" {
		t.Errorf("interfaces inside: %q (%v)", out, err)
	}
}

// TestInternetNetwork: an action whose verdict says it uses the network,
// run unasked, stays in the host's network namespace but connects by TCP
// only to ports 80 and 443: a local service on another port is out of
// reach, by TCP or around Landlock, and it can listen on none. Approved, it
// reaches the service (so the refusals above are the sandbox's).
func TestInternetNetwork(t *testing.T) {
	r := newRig(t)
	web := sandbox.Grant{Network: sandbox.NetInternet}
	devtools := listen(t, "127.0.0.1:0")
	out, _, err := r.run(t, web, r.helper, "dial", devtools.addr())
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	mustSay(t, "dial", out, "dial "+devtools.addr()+": permission denied")
	out, _, _ = r.run(t, web, r.helper, "tricks", strconv.Itoa(devtools.port))
	mustSay(t, "tricks", out, "mptcp: protocol not supported", "tcp fast open: permission denied",
		"tcp fast open by sendmsg: permission denied", "sctp: protocol not supported",
		"vsock: address family not supported by protocol", "packet: address family not supported by protocol", "netlink: ok",
		"socket diagnostics: permission denied")
	out, _, _ = r.run(t, web, r.helper, "listen")
	mustSay(t, "listen", out, "listen: permission denied")
	if devtools.reached(t) {
		t.Fatal("a connection reached the local listener")
	}

	// The residual the README names: UDP is not covered.
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	out, _, _ = r.run(t, web, r.helper, "udp", udp.LocalAddr().String())
	mustSay(t, "udp", out, "udp: ok")

	out, _, _ = r.run(t, sandbox.Grant{Approved: true, Network: sandbox.NetHost}, r.helper, "dial", devtools.addr())
	mustSay(t, "approved", out, "dial "+devtools.addr()+": ok")
	if !devtools.reached(t) {
		t.Error("approved, the connection did not arrive")
	}
}

// TestUIKeepsOnlyTheDisplay: an approved UI action that does not use the
// network stays in the host's namespace (its display or bus may listen on
// an abstract socket there) and reaches, by TCP, only an X display named by
// host and number (DISPLAY=localhost:N is port 6000+N).
func TestUIKeepsOnlyTheDisplay(t *testing.T) {
	x11 := listen(t, "127.0.0.1:0")
	if x11.port <= 6000 {
		t.Skipf("the port given, %d, is no X display's", x11.port)
	}
	other := listen(t, "127.0.0.1:0")
	r := newRig(t, fmt.Sprintf("DISPLAY=localhost:%d.0", x11.port-6000))
	ui := sandbox.Grant{Approved: true, UI: true}
	out, _, err := r.run(t, ui, r.helper, "dial", x11.addr(), other.addr())
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	mustSay(t, "dial", out, "dial "+x11.addr()+": ok", "dial "+other.addr()+": permission denied")
	if other.reached(t) {
		t.Fatal("a connection reached the other listener")
	}
}

// TestInternetReachesTheWeb: in a network namespace the test makes (so
// that it may listen on ports 80 and 443 of a loopback of its own), an
// action granted the internet connects to ports 80 and 443 and to no other;
// one granted none reaches neither.
func TestInternetReachesTheWeb(t *testing.T) {
	r := newRig(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "web-check", r.home)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + r.home, helperEnv + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	web, none, ok := strings.Cut(out, "== none\n")
	if !ok {
		t.Fatalf("the check did not finish:\n%s", out)
	}
	mustSay(t, "internet", web, "dial 127.0.0.1:80: ok", "dial 127.0.0.1:443: ok", "dial 127.0.0.1:8443: permission denied")
	if n := strings.Count(none, "dial "); n != 3 || strings.Contains(none, ": ok") {
		t.Errorf("with no network, a port was reached:\n%s", none)
	}
}

// webCheck runs in a user and network namespace of its own: it brings its
// loopback up, listens on ports 80, 443 and 8443 there, and dials them from
// actions confined with the internet and with no network.
func webCheck(home string) int {
	fail := func(err error) int { fmt.Println(err); return 1 }
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fail(err)
	}
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fail(err)
	}
	ifr.SetUint16(unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fail(fmt.Errorf("bringing lo up: %w", err))
	}
	unix.Close(fd)
	var addrs []string
	for _, port := range []string{"80", "443", "8443"} {
		ln, err := net.Listen("tcp", "127.0.0.1:"+port)
		if err != nil {
			return fail(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		addrs = append(addrs, ln.Addr().String())
	}
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, helperEnv + "=1"}
	box, err := sandbox.New(sandbox.Settings{Home: home, Roots: []string{filepath.Join(home, "Documents")}, Env: env}, "")
	if err != nil {
		return fail(err)
	}
	helper := filepath.Join(home, "bin", "helper")
	for _, g := range []sandbox.Grant{{Network: sandbox.NetInternet}, {}} {
		fmt.Printf("== %v\n", g.Network)
		c, done, err := box.Confine(bridge.Command{Argv: append([]string{helper, "dial"}, addrs...)}, sandbox.KindCommand, g)
		if err != nil {
			return fail(err)
		}
		out, _, err := bridge.RunArgv(context.Background(), c)
		done()
		fmt.Print(out)
		if err != nil {
			return fail(err)
		}
	}
	return 0
}

// TestLauncherNeedsItsNetworkNamespace: a launcher whose profile grants no
// network but that was started in the gate's network namespace, or without
// being told which namespace that is, refuses rather than run anything.
func TestLauncherNeedsItsNetworkNamespace(t *testing.T) {
	r := newRig(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/net", &st); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		hostNS uint64
		host   bool // started in the host's network namespace
		want   string
	}{
		{"in the gate's namespace", st.Ino, true, "network namespace of its own"},
		{"not told the gate's namespace", 0, false, "network namespace of its own"},
		{"in one of its own", st.Ino, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.CreateTemp(t.TempDir(), "spec")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.Write(launcher.EncodeSpec(launcher.Spec{Version: launcher.SpecVersion, Argv: []string{"true"}, Dir: r.home, HostNetNS: tc.hostNS,
				Profile: sandbox.Profile{Kind: "command", Read: []string{"/"}, Env: []string{"PATH=/usr/bin:/bin"}}}))
			f.Seek(0, 0)
			_, _, err = bridge.RunArgv(context.Background(), bridge.Command{Argv: []string{self, sandbox.LaunchFlag},
				Env: []string{"PATH=/usr/bin:/bin"}, Dir: "/", ExtraFiles: []*os.File{f}, Namespaces: true, HostNetwork: tc.host})
			var ee *bridge.ExitError
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("the launcher refused: %v", err)
			case tc.want != "" && (!errors.As(err, &ee) || ee.Code != 125 || !strings.Contains(ee.LastLine, tc.want)):
				t.Fatalf("err = %v, want exit 125 saying %q", err, tc.want)
			}
		})
	}
}
