package sandbox

import (
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// LinuxEnforcement says in words what the Linux launcher does to confine
// an action with profile p on a kernel whose Landlock is ABI abi (0 when it
// is not known: the network plan is then the one of a kernel with TCP
// rules), in the order it does it: what `airlock sandbox-profile --os
// linux` prints beside the profile. It follows launch in sandbox_linux.go
// and the network plan (planNetwork), which decide the same things.
func LinuxEnforcement(p Profile, abi int) []string {
	assumed := abi
	if assumed == 0 {
		assumed = launcher.NetABI
	}
	plan := launcher.PlanNetwork(p, assumed)
	namespaces := "user, mount, PID and IPC namespaces of its own"
	if plan.OwnNamespace {
		namespaces = "user, mount, PID, IPC and network namespaces of its own (an unconfigured loopback only)"
	}
	out := []string{
		"starts as PID 1 of " + namespaces + ", in a session of its own (no controlling terminal)",
		"mounts a /proc of its PID namespace and a private /dev/shm",
	}
	for _, h := range p.Hide {
		out = append(out, "hides "+h+": an empty read-only folder over it if it is a folder, /dev/null if a file or socket (nothing to do if it does not exist)")
	}
	if p.Unasked {
		out = append(out, "sees each sandbox root through a copy-on-write view whose changes the gate reviews after the action ends (Profile.Unasked)")
	}
	out = append(out,
		"gives up every capability (securebits locked, no ambient set) and sets no_new_privs",
		"Landlock, reading and running only in: "+strings.Join(p.Read, ", "),
		"Landlock, also writing, creating and removing only in: "+strings.Join(p.Write, ", "),
		"Landlock, devices: /dev/null, /dev/zero, /dev/full read and written; /dev/random, /dev/urandom read; /dev/shm (its own)",
	)
	if p.UI {
		out = append(out, "Landlock scope: no signals outside the sandbox; the display's and the bus's sockets stay reachable (the UI grant)")
	} else {
		out = append(out, "Landlock scope: no signals outside the sandbox, no abstract unix sockets")
	}
	out = append(out, linuxNetworkWords(p, plan, abi)...)
	if !p.UI {
		out = append(out, "seccomp: no unix-domain sockets of its own making (no session bus, agent or daemon socket), no io_uring")
	}
	return append(out, fmt.Sprintf("runs the program with %d environment variables (the profile's env), standard input, output and error only", len(p.Env)))
}

// linuxNetworkWords says how the network plan holds the profile's network.
func linuxNetworkWords(p Profile, plan launcher.NetPlan, abi int) []string {
	var out []string
	switch {
	case p.Network == NetHost:
		return []string{"network: the host's, unrestricted (the person approved it)"}
	case plan.TCP && len(plan.Connect) > 0:
		var ports []string
		for _, port := range plan.Connect {
			ports = append(ports, fmt.Sprint(port))
		}
		out = append(out, "Landlock TCP rules: connect only to ports "+strings.Join(ports, ", ")+", bind nowhere")
	case plan.TCP:
		out = append(out, "Landlock TCP rules: no TCP connect or bind")
	}
	if plan.Filter {
		out = append(out, "seccomp: no MPTCP, no TCP Fast Open, no socket families but inet, inet6, unix and netlink's routing family")
	}
	if plan.Note != "" {
		out = append(out, "network: "+plan.Note)
	}
	if abi == 0 {
		out = append(out, fmt.Sprintf("(the kernel's Landlock ABI is not known here: this plan is the one of ABI %d or newer)", launcher.NetABI))
	}
	return out
}
