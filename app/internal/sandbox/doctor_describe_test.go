package sandbox_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestLinuxEnforcement: the words say what the launcher does for each
// grant and kernel: the hidden paths, the namespaces and TCP rules the
// network plan picks, the socket filter without the UI grant, and the
// copy-on-write view of an unasked action.
func TestLinuxEnforcement(t *testing.T) {
	base := func(g sandbox.Grant) sandbox.Profile {
		p, err := sandbox.Derive(settings(), sandbox.KindCommand, g, temp)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		p     sandbox.Profile
		abi   int
		want  []string
		never []string
	}{
		{"unasked, no network", base(sandbox.Grant{}), 7,
			[]string{"network namespaces of its own", "hides " + home + "/.ssh", "no TCP connect or bind", "copy-on-write", "no unix-domain sockets", "no abstract unix sockets"},
			[]string{"ports 80", "not known"}},
		{"unasked, the web", base(sandbox.Grant{Network: sandbox.NetInternet}), 7,
			[]string{"user, mount, PID and IPC namespaces", "connect only to ports 80, 443", "no MPTCP"},
			[]string{"network namespaces"}},
		{"unasked, the web, an old kernel", base(sandbox.Grant{Network: sandbox.NetInternet}), 3,
			[]string{"network namespaces of its own", "network: no network: the kernel's Landlock is ABI 3"}, nil},
		{"approved, the host", base(sandbox.Grant{Approved: true, Network: sandbox.NetHost}), 7,
			[]string{"the host's, unrestricted"}, []string{"copy-on-write", "no MPTCP"}},
		{"approved, the UI", base(sandbox.Grant{Approved: true, UI: true}), 7,
			[]string{"sockets stay reachable"}, []string{"no unix-domain sockets", "hides /tmp/.X11-unix"}},
		{"the kernel unknown", base(sandbox.Grant{}), 0, []string{"not known here"}, nil},
	} {
		got := strings.Join(sandbox.LinuxEnforcement(tc.p, tc.abi), "\n")
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", tc.name, w, got)
			}
		}
		for _, n := range tc.never {
			if strings.Contains(got, n) {
				t.Errorf("%s: says %q:\n%s", tc.name, n, got)
			}
		}
	}
}
