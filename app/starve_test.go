package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/airlockhq/airlock/bridge"
)

// startLocalGate serves a gate in this process, with the real executor and
// socket, in a home of the test's own (HOME, XDG_* and AIRLOCK_DATA_DIR
// point into it, for the gate, its actions and the client commands alike).
// It returns the data directory.
func startLocalGate(t *testing.T, autonomy policy.Autonomy) string {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{"Documents", "Downloads", "Desktop", ".local/share", ".config", "run"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(home, "data")
	t.Setenv("HOME", home)
	t.Chdir(home) // commands run where `airlock run` is typed
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local/share"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(home, "run"))
	t.Setenv("AIRLOCK_DATA_DIR", data)

	paths, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	desk, err := bridge.NewDesktop(bridge.Options{Env: []string{"PATH=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	// No sandbox (nil box): the payload must reach the gate's socket, as any
	// program of the agent's outside Airlock could; a confined action cannot.
	ex, err := gate.DefaultExecutor(paths, desk, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(filepath.Join(data, historyFile), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	g := gate.New(gate.Config{Env: &risk.Env{Paths: paths}, Exec: ex, History: store, Autonomy: autonomy})
	srv, err := ipc.Listen(data, gateHandler{g: g, store: store})
	if err != nil {
		store.Close()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background()) }()
	t.Cleanup(func() {
		srv.Close()
		<-served
		store.Close()
	})
	return data
}

// liveness bounds a wait for something that should happen at once;
// reaching it is a failure, not a measurement.
const liveness = 10 * time.Second

// An auto-run action holds the gate's socket with more connections than it
// serves at once, idle or each with a request in flight, and runs on.
// `airlock kill`, through the client command itself, still reaches the
// gate, and the action stops.
func TestKillSwitchCannotBeStarved(t *testing.T) {
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("perl is not installed")
	}
	script, err := filepath.Abs("testdata/starve.pl")
	if err != nil {
		t.Fatal(err)
	}
	const held = ipc.DefaultMaxConns + 16
	for _, mode := range []string{"idle", "busy"} {
		t.Run(mode, func(t *testing.T) {
			// Level 2: the interpreter running a file is dangerous, which
			// this level runs unasked.
			data := startLocalGate(t, policy.Autonomy(2))
			fifo := filepath.Join(t.TempDir(), "ready")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()

			var runOut strings.Builder
			ran := make(chan error, 1)
			ended := make(chan struct{})
			go func() {
				ran <- callCLI(ctx, []string{"run", "--kind", "command", "--", perl, script,
					filepath.Join(data, ipc.SocketName), fifo, mode, strconv.Itoa(held)}, nil, &runOut, io.Discard)
				close(ended)
			}()
			go func() { // a run that ends before it is ready must not hang the test
				<-ended
				if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			}()
			f, err := os.Open(fifo)
			if err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(f).ReadString('\n')
			f.Close()
			var pid, served int
			if f := strings.Fields(line); len(f) == 3 && f[0] == "ready" {
				pid, _ = strconv.Atoi(f[1])
				served, _ = strconv.Atoi(f[2])
			}
			if pid == 0 {
				<-ended
				t.Fatalf("the action did not take its connections: %v\n%s", <-ran, runOut.String())
			}
			// The gate served as many as it serves at once, less the run's
			// own: the attack is real.
			if served < ipc.DefaultMaxConns-1 {
				t.Fatalf("the gate served %d of the action's %d connections; the test proves nothing", served, held)
			}

			var out strings.Builder
			start := time.Now()
			if err := callCLI(ctx, []string{"kill"}, nil, &out, io.Discard); err != nil {
				t.Fatalf("airlock kill with %d %s connections held: %v", held, mode, err)
			}
			if !strings.Contains(out.String(), "killed") {
				t.Errorf("airlock kill printed %q", out.String())
			}
			select {
			case err := <-ran:
				var oe outcomeError
				if !errors.As(err, &oe) || oe.status != gate.StatusKilled {
					t.Errorf("the run ended with %v, want %q\n%s", err, gate.StatusKilled, runOut.String())
				}
			case <-time.After(liveness):
				t.Fatalf("the action still runs %v after the kill", liveness)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("the kill took %v to stop the action", took)
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("the action's process %d is still there: %v", pid, err)
			}
		})
	}
}
