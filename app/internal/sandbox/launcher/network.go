package launcher

import (
	"fmt"
	"strconv"
	"strings"
)

// Network is what an action may reach over the network. The zero value is
// NetNone: an action reaches nothing unless the gate grants more.
//
// How each platform holds it, and what it leaves open:
//
//   - Linux, NetNone: a network namespace of its own (CLONE_NEWNET), with
//     an unconfigured loopback only. Nothing listening on this machine (an
//     X server on TCP, a VNC server, a browser's DevTools port, other
//     agents' HTTP APIs, abstract unix sockets) or beyond it can be
//     reached, and /proc/net lists the namespace's own (empty) tables. An
//     approved UI action, whose display or bus may listen on an abstract
//     socket of the host, stays in the host's namespace instead, with
//     Landlock refusing every TCP connect but the display's X11 port (UDP
//     stays open to it).
//   - Linux, NetInternet: the host's namespace, with Landlock (ABI 4,
//     Linux 6.7) allowing TCP connect to ports 80 and 443 only and no TCP
//     bind. Without ABI 4 the action gets NetNone instead, and says so.
//     Left open: ports 80 and 443 of this machine and the LAN; UDP, which
//     Landlock (before ABI 10) does not cover: DNS works, and so would UDP
//     to a local service; a listen without bind, which takes a port the
//     kernel picks and which Landlock does not see; and /proc/net lists
//     the host's sockets.
//   - Linux, NetHost: the host's namespace, unrestricted.
//   - Linux, every value but NetHost: a seccomp filter refuses what
//     Landlock's TCP rules do not see: MPTCP sockets (they fall back to
//     plain TCP, through no connect hook), TCP Fast Open (sendto with
//     MSG_FASTOPEN connects without connect), every address family but
//     inet, inet6, netlink and unix (vsock reaches the hypervisor from any
//     namespace), netlink but its routing family (socket diagnostics list
//     the host's sockets), and io_uring.
//   - macOS (Seatbelt): NetNone allows no network rule at all;
//     NetInternet allows outbound TCP to ports 80 and 443 and the name
//     resolver's socket, then refuses every localhost address; NetHost
//     allows all outbound and inbound traffic. Left open by NetInternet:
//     ports 80 and 443 of the LAN, and UDP through the name resolver only.
type Network uint8

const (
	// NetNone reaches nothing, not even this machine's own services.
	NetNone Network = iota
	// NetInternet reaches the web: TCP to ports 80 and 443, and names.
	NetInternet
	// NetHost reaches what the person's own programs reach: only for an
	// action the person approved.
	NetHost
)

var networkNames = [...]string{NetNone: "none", NetInternet: "internet", NetHost: "host"}

func (n Network) String() string {
	if int(n) < len(networkNames) {
		return networkNames[n]
	}
	return "Network(" + strconv.Itoa(int(n)) + ")"
}

// Valid returns an error for a value that is none of the three.
func (n Network) Valid() error {
	if int(n) >= len(networkNames) {
		return fmt.Errorf("sandbox: unknown network grant %d", n)
	}
	return nil
}

// MarshalText writes the network's name.
func (n Network) MarshalText() ([]byte, error) {
	if err := n.Valid(); err != nil {
		return nil, err
	}
	return []byte(n.String()), nil
}

// UnmarshalText reads a name MarshalText wrote.
func (n *Network) UnmarshalText(b []byte) error {
	for i, name := range networkNames {
		if string(b) == name {
			*n = Network(i)
			return nil
		}
	}
	return fmt.Errorf("sandbox: unknown network grant %q: want none, internet or host", b)
}

// WebPorts are the TCP ports NetInternet may connect to.
var WebPorts = []uint16{80, 443}

// NetABI is the first Landlock ABI with TCP rules (Linux 6.7).
const NetABI = 4

// NetPlan is how the Linux launcher holds a profile's network. The gate
// and the launcher each derive it from the profile and the kernel's ABI
// (PlanNetwork): the gate to start the launcher in a network namespace of
// its own or not, the launcher to apply the rest, so that no spec can ask
// the launcher for less than its profile says.
type NetPlan struct {
	// OwnNamespace starts the launcher in a network namespace of its own.
	OwnNamespace bool
	// TCP has Landlock refuse every TCP bind, and every TCP connect but
	// to Connect.
	TCP     bool
	Connect []uint16
	// Filter has seccomp refuse the sockets and calls Landlock's TCP
	// rules do not see (Network's doc lists them).
	Filter bool
	// Note says what was given instead of what was asked, and why.
	Note string
}

// PlanNetwork returns how a profile's network is held on Linux, where the
// kernel's Landlock is ABI abi.
func PlanNetwork(p Profile, abi int) NetPlan {
	if p.Network == NetHost {
		return NetPlan{}
	}
	plan := NetPlan{Filter: true}
	var display []uint16
	if p.UI {
		if port, ok := displayPort(EnvMap(p.Env)["DISPLAY"]); ok {
			display = []uint16{port}
		}
	}
	switch {
	case abi < NetABI && p.Network == NetInternet:
		plan.OwnNamespace = true
		plan.Note = fmt.Sprintf("no network: the kernel's Landlock is ABI %d, and limiting TCP to the web's ports needs ABI %d (Linux 6.7)", abi, NetABI)
	case abi < NetABI && p.UI:
		plan.OwnNamespace = true
		plan.Note = fmt.Sprintf("a network namespace of its own: the kernel's Landlock is ABI %d, and refusing TCP needs ABI %d (Linux 6.7), so a display or bus on an abstract socket or TCP is out of reach", abi, NetABI)
	case abi < NetABI:
		plan.OwnNamespace = true
	case p.Network == NetInternet:
		plan.TCP = true
		plan.Connect = append(append(plan.Connect, WebPorts...), display...)
	case p.UI:
		// The host's namespace (the display or bus may listen on an
		// abstract socket there), no TCP but the display's.
		plan.TCP = true
		plan.Connect = display
	default:
		plan.OwnNamespace, plan.TCP = true, true
	}
	return plan
}

// Filtered reports whether an action of profile p, on a kernel of Landlock
// ABI abi, gets both seccomp filters: the network filter of its plan and
// the one against local sockets (no UI grant). A warm launcher started
// with WaitFilteredFlag has installed them ahead, and runs only such an
// action.
func Filtered(p Profile, abi int) bool { return PlanNetwork(p, abi).Filter && !p.UI }

// displayPort returns the TCP port of an X11 display name that names a
// host ("localhost:10.0" is port 6010); ":0" and "unix:0" are local
// sockets, and ok is false.
func displayPort(display string) (uint16, bool) {
	host, rest, ok := strings.Cut(display, ":")
	if !ok || host == "" || host == "unix" || strings.HasPrefix(host, "/") || strings.HasPrefix(rest, ":") {
		return 0, false // a local socket, or DECnet (host::n)
	}
	num, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n > 65535-6000 {
		return 0, false
	}
	return uint16(6000 + n), true
}
