//go:build linux

package sandbox_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestLauncherProgramInherits: the program the launcher starts
// (syscall.ForkExec since the launcher stopped using os.StartProcess)
// inherits only what an action should: standard input, output and error
// and no other descriptor of the launcher's, no blocked signal, the
// ignored signals of the process that started the gate and no others,
// exactly the sandbox's environment, and the launcher's session, which it
// does not lead, with no controlling terminal.
func TestLauncherProgramInherits(t *testing.T) {
	r := newRig(t)
	ign := statusField(t, readFile(t, "/proc/self/status"), "SigIgn")
	for _, tc := range []struct {
		name string
		warm bool
		g    sandbox.Grant
	}{
		{"warm unasked", true, sandbox.Grant{}},
		{"warm approved", true, sandbox.Grant{Approved: true}},
		{"cold unasked", false, sandbox.Grant{}},
		{"cold approved", false, sandbox.Grant{Approved: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.warm {
				r.waitWarm(t)
			} else {
				r.box.Discard()
			}
			out, stderr, err := r.run(t, tc.g, "sh", "-c",
				`echo FDS; ls /proc/$$/fd; echo END; while read -r l; do echo "$l"; done < /proc/$$/status; read -r stat < /proc/$$/stat; echo "STAT $stat"; echo ENV; tr '\0' '\n' < /proc/$$/environ`)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			status, env, ok := strings.Cut(out, "ENV\n")
			if !ok {
				t.Fatalf("the action printed %q", out)
			}
			_, fdList, _ := strings.Cut(status, "FDS\n")
			fdList, _, _ = strings.Cut(fdList, "END\n")
			if fds := strings.Fields(fdList); !slices.Equal(fds, []string{"0", "1", "2"}) {
				t.Errorf("the program holds descriptors %v, want 0 1 2 only", fds)
			}
			// Read by the shell itself (cat would read it while the shell
			// waits for cat, when dash blocks every signal).
			if blk := statusField(t, status, "SigBlk"); strings.Trim(blk, "0") != "" {
				t.Errorf("the program starts with signals blocked: SigBlk %s", blk)
			}
			if got := statusField(t, status, "SigIgn"); got != ign {
				t.Errorf("the program ignores signals %s, the test %s", got, ign)
			}
			// stat: pid (comm) state ppid pgrp session tty_nr …
			stat := strings.Fields(lineAfter(t, status, "STAT"))
			if len(stat) < 7 {
				t.Fatalf("stat %q", stat)
			}
			if stat[5] == stat[0] {
				t.Errorf("the program leads its own session %s", stat[5])
			}
			if stat[3] != "1" || stat[5] != "1" {
				t.Errorf("the program's parent %s and session %s, want the launcher's, 1", stat[3], stat[5])
			}
			if stat[6] != "0" {
				t.Errorf("the program has a controlling terminal %s", stat[6])
			}
			// The gate's settings, less what the sandbox drops, and the
			// action's own TMPDIR: nothing of the launcher's.
			for _, kv := range strings.Split(strings.TrimSuffix(env, "\n"), "\n") {
				if !slices.Contains(r.settings.Env, kv) && !strings.HasPrefix(kv, "TMPDIR=/tmp/airlock-actions-") {
					t.Errorf("the program's environment holds %q, not the sandbox's", kv)
				}
			}
			if !strings.Contains(env, "HOME="+r.home+"\n") {
				t.Errorf("the program's environment is\n%s", env)
			}
		})
	}
}

// lineAfter returns the rest of the line of out that begins with key and
// a blank.
func lineAfter(t *testing.T, out, key string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, key+" "); ok {
			return v
		}
	}
	t.Fatalf("no %s line in %q", key, out)
	return ""
}

// statusField returns a field of /proc/PID/status text.
func statusField(t *testing.T, status, key string) string {
	t.Helper()
	for _, l := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %s in %q", key, status)
	return ""
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
