//go:build linux

package bridge_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/spawn"
)

// spawnStandIn is the spawner as the sandbox's launcher runs it
// (BRIDGE_STANDIN=spawn): spawn.Serve on bridge.WarmFD.
func spawnStandIn() int { return spawn.Serve(bridge.WarmFD) }

// startSpawner starts the stand-in spawner, closed when the test ends.
func startSpawner(t *testing.T) *bridge.Spawner {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s, err := bridge.StartSpawner([]string{self, bridge.HelperFlag}, []string{"BRIDGE_STANDIN=spawn"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// nsCommand is warmCommand in namespaces of its own, the network's too.
func nsCommand(t *testing.T, file string) bridge.Command {
	c := warmCommand(t, file)
	c.Namespaces = true
	return c
}

// spawnWarm starts a warm stand-in for c through s and waits until it is
// ready.
func spawnWarm(t *testing.T, s *bridge.Spawner, c bridge.Command) *bridge.Warm {
	t.Helper()
	shape := c
	shape.ExtraFiles = nil
	w, err := s.StartWarm(shape, []string{c.Argv[0], bridge.HelperFlag, "warm"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	if err := w.Ready(ctx); err != nil {
		t.Fatalf("the warm process is not ready: %v", err)
	}
	return w
}

// procFacts is what tells how a process was started: its parent, session
// and group, namespaces, user and group maps, capabilities, securebits,
// no_new_privs, seccomp, dumpable state, limits, command line, environment,
// working folder, and the descriptors it holds (what each is, sockets and
// pipes named by kind only).
func procFacts(t *testing.T, pid int) map[string]string {
	t.Helper()
	dir := "/proc/" + strconv.Itoa(pid)
	read := func(name string) string {
		b, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			t.Fatalf("reading %s/%s: %v", dir, name, err)
		}
		return string(b)
	}
	f := map[string]string{}
	stat := read("stat")
	fields := strings.Fields(stat[strings.LastIndexByte(stat, ')')+2:])
	f["ppid"] = fields[1]
	f["session is itself"] = strconv.FormatBool(fields[3] == strconv.Itoa(pid))
	f["group is itself"] = strconv.FormatBool(fields[2] == strconv.Itoa(pid))
	ours := func(ns string) string {
		a, _ := os.Readlink("/proc/self/ns/" + ns)
		b, _ := os.Readlink(dir + "/ns/" + ns)
		return strconv.FormatBool(a == b)
	}
	for _, ns := range []string{"user", "mnt", "pid", "ipc", "net", "uts", "cgroup", "time"} {
		f["ns "+ns+" is ours"] = ours(ns)
	}
	f["uid_map"] = strings.Join(strings.Fields(read("uid_map")), " ")
	f["gid_map"] = strings.Join(strings.Fields(read("gid_map")), " ")
	f["setgroups"] = strings.TrimSpace(read("setgroups"))
	for _, line := range strings.Split(read("status"), "\n") {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp", "Seccomp_filters", "SigBlk", "SigIgn":
			f[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	f["limits"] = read("limits")
	f["cmdline"] = read("cmdline")
	f["environ"] = read("environ")
	f["oom_score_adj"] = read("oom_score_adj")
	f["cgroup"] = read("cgroup")
	cwd, _ := os.Readlink(dir + "/cwd")
	f["cwd"] = cwd
	ents, err := os.ReadDir(dir + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	var fds []string
	for _, e := range ents {
		target, _ := os.Readlink(dir + "/fd/" + e.Name())
		if i := strings.IndexByte(target, '['); i > 0 {
			target = target[:i] // socket:[inode], pipe:[inode]: the kind
		}
		fds = append(fds, e.Name()+"="+target)
	}
	slices.Sort(fds)
	f["fds"] = strings.Join(fds, " ")
	return f
}

// TestSpawnerStartsWhatStartWarmStarts: a warm process the spawner starts
// is the one StartWarm starts: this process's child (not the spawner's),
// in a session of its own, in new user, mount, PID, IPC and (without
// HostNetwork) network namespaces, with the same maps, credentials,
// capabilities, securebits, filters, limits, command line, environment,
// folder and descriptors; and the same with HostNetwork. It then runs a
// command as one started by StartWarm does.
func TestSpawnerStartsWhatStartWarmStarts(t *testing.T) {
	s := startSpawner(t)
	for _, host := range []bool{false, true} {
		t.Run(fmt.Sprintf("hostNetwork=%v", host), func(t *testing.T) {
			c := nsCommand(t, "4 echo")
			c.HostNetwork = host
			shape := c
			shape.ExtraFiles = nil
			cold, err := bridge.StartWarm(shape, []string{c.Argv[0], bridge.HelperFlag, "warm"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cold.Close)
			if err := cold.Ready(context.Background()); err != nil {
				t.Fatal(err)
			}
			w := spawnWarm(t, s, c)
			want, got := procFacts(t, cold.Pid()), procFacts(t, w.Pid())
			if got["ppid"] != strconv.Itoa(os.Getpid()) {
				t.Errorf("the spawned process's parent is %s, want this process (%d); the spawner is %d", got["ppid"], os.Getpid(), s.Pid())
			}
			if got["ns net is ours"] != strconv.FormatBool(host) || got["ns user is ours"] != "false" || got["ns pid is ours"] != "false" {
				t.Errorf("the spawned process's namespaces: %v", got)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: spawned %q, started here %q", k, got[k], v)
				}
			}
			c.Warm = w
			out, _, err := bridge.RunArgv(context.Background(), c)
			var ee *bridge.ExitError
			if !errors.As(err, &ee) || ee.Code != 4 || out != "warm 4 echo \n" {
				t.Fatalf("out %q, err %v; want the stand-in's output and status 4", out, err)
			}
			gone(t, w.Pid())
		})
	}
}

// TestSpawnerStopped: a command in a spawned warm process is stopped as
// any other (its context done): killed, reaped, and said to be stopped.
func TestSpawnerStopped(t *testing.T) {
	s := startSpawner(t)
	c := nsCommand(t, "0 sleep")
	w := spawnWarm(t, s, c)
	c.Warm = w
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := bridge.RunArgv(ctx, c)
	if err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("err = %v, want stopped", err)
	}
	if d := time.Since(start); d > liveness {
		t.Fatalf("stopping took %v", d)
	}
	gone(t, w.Pid())
}

// TestSpawnedNotOrphans: the reaper and the kill switch (KillEscaped),
// which kill and reap our children not started here, leave a spawned warm
// process alone: it is recorded as ours before either can look. One the
// spawner started and nobody recorded (its answer lost) is an orphan.
func TestSpawnedNotOrphans(t *testing.T) {
	s := startSpawner(t)
	// A contained command makes this process the subreaper, with its reaper.
	if _, _, err := bridge.RunArgv(context.Background(), bridge.Command{Argv: []string{"true"}, Contain: true}); err != nil {
		t.Fatal(err)
	}
	w := spawnWarm(t, s, nsCommand(t, "0 echo"))
	bridge.KillEscaped()
	time.Sleep(50 * time.Millisecond) // the reaper's turn
	if err := w.Ready(context.Background()); err != nil || syscall.Kill(w.Pid(), 0) != nil {
		t.Fatalf("the spawned warm process was taken for an orphan: %v", err)
	}
}

// TestSpawnerGone: a spawner that has gone fails the start, and every
// later one, saying so; the process it was asked for never runs.
func TestSpawnerGone(t *testing.T) {
	s := startSpawner(t)
	if err := syscall.Kill(s.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c := nsCommand(t, "0 echo")
	c.ExtraFiles = nil
	for i := range 2 {
		if _, err := s.StartWarm(c, []string{c.Argv[0], bridge.HelperFlag, "warm"}); err == nil {
			t.Fatalf("start %d through a dead spawner worked", i)
		}
	}
}

// TestSpawnerRefuses: the spawner starts only what StartWarm would start
// there: namespaces asked for, no parent-death signal (it would follow
// the spawner's thread), no input or files of the command.
func TestSpawnerRefuses(t *testing.T) {
	s := startSpawner(t)
	base := nsCommand(t, "0 echo")
	base.ExtraFiles = nil
	for name, change := range map[string]func(*bridge.Command){
		"no namespaces":      func(c *bridge.Command) { c.Namespaces = false },
		"parent-death":       func(c *bridge.Command) { c.DieWithParent = true },
		"standard input":     func(c *bridge.Command) { c.Stdin = "x" },
		"extra files":        func(c *bridge.Command) { c.ExtraFiles = []*os.File{os.Stdin} },
		"NUL in environment": func(c *bridge.Command) { c.Env = []string{"A=\x00"} },
	} {
		c := base
		change(&c)
		if w, err := s.StartWarm(c, []string{c.Argv[0], bridge.HelperFlag, "warm"}); err == nil {
			w.Close()
			t.Errorf("%s: started", name)
		}
	}
	// Still usable.
	spawnWarm(t, s, nsCommand(t, "0 echo"))
}

// TestSpawnRequest: a request reads back as it was encoded, and the
// spawner refuses malformed ones, one with too few or too many
// descriptors, or one cut short, saying why, and serves the next.
func TestSpawnRequest(t *testing.T) {
	r := spawn.Request{HostNetwork: true, Dir: "/", Argv: []string{"a", "b c"}, Env: []string{"X=1", "Y="}}
	m, err := spawn.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := spawn.Decode(m)
	if err != nil || got.HostNetwork != r.HostNetwork || got.Dir != r.Dir || !slices.Equal(got.Argv, r.Argv) || !slices.Equal(got.Env, r.Env) {
		t.Fatalf("decoded %+v, %v; want %+v", got, err, r)
	}
	for _, bad := range [][]byte{nil, {2, 0}, {0, '/', 0}, []byte("\x00/\x000\x00"), []byte("\x00/\x005\x00a\x00"), []byte("\x00/\x00x\x00a\x00"), bytes.TrimSuffix(m, []byte{0})} {
		if _, err := spawn.Decode(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// BenchmarkWarmStart is what starting a warm process in namespaces of its
// own costs this process, started here (StartWarm) and through a spawner
// (Spawner.StartWarm), alternating in each iteration so that both see the
// same load: until the call returns ("-call") and until the process says
// it waits ("-ready"; the stand-in is this test binary, whose start takes
// longer than the launcher's). With this process's heap at 0 MB (the test
// binary), and with 100 MB and 400 MB more of it in use (a gate with its
// analyzers, history and UI): a start here forks this process, whose page
// tables it copies; a start through the spawner forks the spawner.
func BenchmarkWarmStart(b *testing.B) {
	for _, mb := range []int{0, 100, 400} {
		b.Run(fmt.Sprintf("heap=%dMB", mb), func(b *testing.B) {
			ballast := make([][]byte, mb)
			for i := range ballast {
				ballast[i] = bytes.Repeat([]byte{1}, 1<<20)
			}
			self, err := os.Executable()
			if err != nil {
				b.Fatal(err)
			}
			s, err := bridge.StartSpawner([]string{self, bridge.HelperFlag}, []string{"BRIDGE_STANDIN=spawn"})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			shape := bridge.Command{Argv: []string{self, bridge.HelperFlag, "cold"}, Env: []string{"BRIDGE_STANDIN=warm"}, Namespaces: true}
			argv := []string{self, bridge.HelperFlag, "warm"}
			var call, ready [2][]time.Duration
			for b.Loop() {
				for i, start := range []func() (*bridge.Warm, error){
					func() (*bridge.Warm, error) { return bridge.StartWarm(shape, argv) },
					func() (*bridge.Warm, error) { return s.StartWarm(shape, argv) },
				} {
					t0 := time.Now()
					w, err := start()
					if err != nil {
						b.Fatal(err)
					}
					call[i] = append(call[i], time.Since(t0))
					if err := w.Ready(context.Background()); err != nil {
						b.Fatal(err)
					}
					ready[i] = append(ready[i], time.Since(t0))
					b.StopTimer()
					w.Close()
					b.StartTimer()
				}
			}
			for i, how := range []string{"here", "spawner"} {
				b.ReportMetric(p50ms(call[i]), how+"-call-p50-ms")
				b.ReportMetric(p50ms(ready[i]), how+"-ready-p50-ms")
			}
			runtime.KeepAlive(ballast)
		})
	}
}

// p50ms is the median of ds in milliseconds.
func p50ms(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}

// TestServeProtocol: the spawner answers a request with too few or too
// many descriptors, or a malformed one, with 'x' and why, starting
// nothing, serves the next, and returns 0 once the gate closes its end.
func TestServeProtocol(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan int, 1)
	go func() { served <- spawn.Serve(fds[1]) }()
	good, err := spawn.Encode(spawn.Request{Dir: "/", Argv: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	n := int(null.Fd())
	for _, tt := range []struct {
		name string
		msg  []byte
		fds  []int
	}{
		{"no descriptors", good, nil},
		{"two descriptors", good, []int{n, n}},
		{"four descriptors", good, []int{n, n, n, n}},
		{"malformed", []byte{9, 0}, []int{n, n, n}},
	} {
		if err := syscall.Sendmsg(fds[0], tt.msg, syscall.UnixRights(tt.fds...), nil, 0); err != nil {
			t.Fatal(err)
		}
		var b [512]byte
		got, err := syscall.Read(fds[0], b[:])
		if err != nil || got < 1 || b[0] != 'x' {
			t.Fatalf("%s: the spawner answered %q, %v; want a refusal", tt.name, b[:max(got, 0)], err)
		}
	}
	syscall.Close(fds[0])
	select {
	case code := <-served:
		if code != 0 {
			t.Fatalf("Serve returned %d once the gate closed its end, want 0", code)
		}
	case <-time.After(liveness):
		t.Fatal("Serve did not return once the gate closed its end")
	}
	syscall.Close(fds[1])
}

// TestSpawnerStuck: a spawner that does not answer (stopped) fails the
// start once its wait has passed, and is closed (killed and reaped): the
// reaper and the kill switch, which wait while a request is under way,
// are not held for longer.
func TestSpawnerStuck(t *testing.T) {
	defer bridge.SetSpawnerWait(200 * time.Millisecond)()
	s := startSpawner(t)
	if err := syscall.Kill(s.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	c := nsCommand(t, "0 echo")
	c.ExtraFiles = nil
	start := time.Now()
	if w, err := s.StartWarm(c, []string{c.Argv[0], bridge.HelperFlag, "warm"}); err == nil {
		w.Close()
		t.Fatal("a stopped spawner started a process")
	}
	if d := time.Since(start); d > liveness {
		t.Fatalf("the start took %v to fail", d)
	}
	gone(t, s.Pid())
	if w, err := s.StartWarm(c, []string{c.Argv[0], bridge.HelperFlag, "warm"}); err == nil {
		w.Close()
		t.Fatal("a closed spawner started a process")
	}
}
