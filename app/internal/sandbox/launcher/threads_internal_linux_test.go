//go:build linux

package launcher

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/airlockhq/airlock/bridge/spawn"
)

// threadsEnv, set for this test binary started again in namespaces of its
// own as the spawner starts a launcher, makes it a process that prepares
// as a warm launcher does (prepareAhead; "filtered" or "plain" says with
// which flag), drops its capabilities as launch does, and says after each
// what every one of its threads holds (threadsHelper).
const threadsEnv = "AIRLOCK_TEST_THREADS"

func init() {
	if c := os.Getenv(threadsEnv); c != "" {
		if err := threadsHelper(c == "filtered"); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// extraThreads is how many threads the helper holds beside the Go
// runtime's own before it prepares; it holds four times as many more
// after (some of them may be idle threads of the runtime's, taken: the
// test wants at least one new).
const extraThreads = 4

// lockedThreads starts n goroutines that each hold a thread of their own
// (runtime.LockOSThread) until the process exits.
func lockedThreads(n int) {
	ready := make(chan struct{})
	for range n {
		go func() {
			runtime.LockOSThread()
			ready <- struct{}{}
			select {}
		}()
	}
	for range n {
		<-ready
	}
}

// printThreads prints, under the heading when, one line per thread of this
// process: what /proc/self/task/TID/status says of its capabilities,
// no_new_privs and seccomp.
func printThreads(when string) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/status")
		if err != nil {
			return err
		}
		var fields []string
		for _, l := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(l, ":")
			switch k {
			case "CapInh", "CapPrm", "CapEff", "CapAmb", "NoNewPrivs", "Seccomp":
				if ok {
					fields = append(fields, k+"="+strings.TrimSpace(v))
				}
			}
		}
		fmt.Printf("%s %s %s\n", when, task.Name(), strings.Join(fields, " "))
	}
	return nil
}

// threadsHelper is the helper: threads of its own beside the runtime's,
// then what a warm launcher does while it waits, then what launch does to
// the capabilities, with more threads started between.
func threadsHelper(filtered bool) error {
	lockedThreads(extraThreads)
	if err := printThreads("start"); err != nil {
		return err
	}
	if err := ownNamespaces(); err != nil {
		return err
	}
	if err := prepareAhead(filtered); err != nil {
		return err
	}
	if !procAhead {
		return fmt.Errorf("no /proc of its own was mounted: the threads read would not be this process's")
	}
	lockedThreads(4 * extraThreads) // started while it waits: they inherit
	if err := printThreads("ahead"); err != nil {
		return err
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	return printThreads("dropped")
}

// TestEveryThreadConfined: what the launcher sets on every thread is on
// every thread, however it gets there. A warm launcher (a process started
// as the spawner starts one, with CAP_SYS_ADMIN and CAP_SETPCAP ambient,
// and more threads than the Go runtime's own) has, once prepared,
// no_new_privs on each thread, and with WaitFilteredFlag the socket
// filters on each too; once launch has dropped its capabilities, no
// thread holds any, the ambient set included (emptied with the permitted
// and inheritable sets, not by a call of its own). Threads started while
// it waits hold the same.
func TestEveryThreadConfined(t *testing.T) {
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < MinABI {
		t.Skipf("the kernel has no Landlock ABI %d or newer (ABI %d, %v)", MinABI, abi, err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const none = "0000000000000000"
	for _, c := range []string{"filtered", "plain"} {
		t.Run(c, func(t *testing.T) {
			cmd := exec.Command(self, "-test.run=^$")
			cmd.Env = append(os.Environ(), threadsEnv+"="+c, "GOMAXPROCS=1")
			cmd.SysProcAttr = spawn.Attr(false)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the helper: %v\n%s", err, out)
			}
			count := map[string]int{}
			started := map[string]bool{} // the threads there were at the start
			later := 0                   // threads started once it was prepared
			ambient := false
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				f := strings.Fields(l)
				if len(f) < 2 {
					t.Fatalf("a line that is not a thread's: %q\n%s", l, out)
				}
				when, st := f[0], map[string]string{}
				for _, kv := range f[2:] {
					k, v, _ := strings.Cut(kv, "=")
					st[k] = v
				}
				count[when]++
				switch when {
				case "start":
					started[f[1]] = true
					ambient = ambient || st["CapAmb"] != none
				case "ahead", "dropped":
					if when == "ahead" && !started[f[1]] {
						later++
					}
					if st["NoNewPrivs"] != "1" {
						t.Errorf("%s: thread %s has no no_new_privs: %s", when, f[1], l)
					}
					if want := map[string]string{"filtered": "2", "plain": "0"}[c]; st["Seccomp"] != want {
						t.Errorf("%s: thread %s has seccomp mode %s, want %s: %s", when, f[1], st["Seccomp"], want, l)
					}
					if when == "dropped" {
						for _, k := range []string{"CapInh", "CapPrm", "CapEff", "CapAmb"} {
							if st[k] != none {
								t.Errorf("dropped: thread %s still has %s %s: %s", f[1], k, st[k], l)
							}
						}
					}
				}
			}
			if !ambient {
				t.Fatalf("no thread started with an ambient capability, so the test shows nothing of its end:\n%s", out)
			}
			// The runtime may start a thread of its own at any time: the
			// counts only grow.
			if count["start"] <= extraThreads || later == 0 || count["dropped"] < count["ahead"] {
				t.Fatalf("threads: %v, %d started once prepared; want more than %d at the start and some started once prepared:\n%s",
					count, later, extraThreads, out)
			}
		})
	}
}
