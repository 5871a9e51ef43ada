package ipc_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

func TestListenPermissions(t *testing.T) {
	for _, pre := range []os.FileMode{0, 0o755} { // 0: Listen creates the directory
		t.Run(fmt.Sprintf("dir %#o", pre), func(t *testing.T) {
			dir := shortDir(t)
			if pre != 0 {
				if err := os.Mkdir(dir, pre); err != nil {
					t.Fatal(err)
				}
				os.Chmod(dir, pre)
			}
			s, err := ipc.Listen(dir, &fakeGate{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, f := range []struct {
				path string
				typ  os.FileMode
				perm os.FileMode
			}{
				{dir, os.ModeDir, 0o700},
				{filepath.Join(dir, ipc.SocketName), os.ModeSocket, 0o600},
				{filepath.Join(dir, ipc.KillSocketName), os.ModeSocket, 0o600},
				{filepath.Join(dir, ipc.LockName), 0, 0o600},
			} {
				fi, err := os.Lstat(f.path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Type() != f.typ || fi.Mode().Perm() != f.perm {
					t.Errorf("%s: mode %v, want %v", f.path, fi.Mode(), f.typ|f.perm)
				}
			}
			if s.Path() != filepath.Join(dir, ipc.SocketName) {
				t.Errorf("Path() = %s", s.Path())
			}
			// Nothing left of how the socket was made.
			ents, _ := os.ReadDir(dir)
			if len(ents) != 3 {
				t.Errorf("data directory holds %v, want only the two sockets and the lock", ents)
			}
		})
	}
}

// staleSocket leaves socket files at dir/gate.sock and dir/kill.sock that
// nobody listens on, as a gate that crashed does.
func staleSocket(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ipc.SocketName, ipc.KillSocketName} {
		ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, name), Net: "unix"})
		if err != nil {
			t.Fatal(err)
		}
		ln.SetUnlinkOnClose(false)
		ln.Close()
	}
}

func TestListenRemovesStaleSocket(t *testing.T) {
	dir := shortDir(t)
	staleSocket(t, dir)
	if _, err := ipc.Dial(dir); !errors.Is(err, ipc.ErrNotRunning) {
		t.Fatalf("Dial on a stale socket = %v, want ErrNotRunning", err)
	}
	s, err := ipc.Listen(dir, &fakeGate{})
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	defer s.Close()
	go s.Serve(context.Background())
	if _, err := dial(t, dir).Call(context.Background(), "status", nil, nil); err != nil {
		t.Errorf("status: %v", err)
	}
}

func TestListenRefuses(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		running bool // the error must wrap ErrAlreadyRunning
	}{
		{"a file where the socket goes", func(t *testing.T, dir string) {
			os.MkdirAll(dir, 0o700)
			os.WriteFile(filepath.Join(dir, ipc.SocketName), []byte("keep me"), 0o600)
		}, false},
		{"a listener that holds no lock", func(t *testing.T, dir string) {
			os.MkdirAll(dir, 0o700)
			ln, err := net.Listen("unix", filepath.Join(dir, ipc.SocketName))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
		}, true},
		{"a file where the kill socket goes", func(t *testing.T, dir string) {
			os.MkdirAll(dir, 0o700)
			os.WriteFile(filepath.Join(dir, ipc.KillSocketName), []byte("keep me"), 0o600)
		}, false},
		{"a symlink where the lock goes", func(t *testing.T, dir string) {
			os.MkdirAll(dir, 0o700)
			os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, ipc.LockName))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := shortDir(t)
			tt.prepare(t, dir)
			before := listing(t, dir)
			s, err := ipc.Listen(dir, &fakeGate{})
			if err == nil {
				s.Close()
				t.Fatal("Listen succeeded")
			}
			if errors.Is(err, ipc.ErrAlreadyRunning) != tt.running {
				t.Errorf("Listen = %v; wraps ErrAlreadyRunning: %v, want %v", err, !tt.running, tt.running)
			}
			after := listing(t, dir)
			delete(after, ipc.LockName) // the lock file may have been made
			delete(before, ipc.LockName)
			if fmt.Sprint(before) != fmt.Sprint(after) {
				t.Errorf("Listen changed the directory: %v → %v", before, after)
			}
		})
	}
}

func TestSecondGateRefused(t *testing.T) {
	_, dir := startGate(t, &fakeGate{}, nil)
	_, err := ipc.Listen(dir, &fakeGate{})
	if !errors.Is(err, ipc.ErrAlreadyRunning) {
		t.Fatalf("second Listen = %v, want ErrAlreadyRunning", err)
	}
	if want := fmt.Sprintf("pid %d", os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
	// The first gate is untouched by the attempt.
	if _, err := dial(t, dir).Call(context.Background(), "status", nil, nil); err != nil {
		t.Errorf("first gate: %v", err)
	}
}

func TestListenAgainAfterClose(t *testing.T) {
	dir := shortDir(t)
	for i := range 2 {
		s, err := ipc.Listen(dir, &fakeGate{})
		if err != nil {
			t.Fatalf("Listen #%d: %v", i+1, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{ipc.SocketName, ipc.KillSocketName} {
			if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left after Close: %v", name, err)
			}
		}
	}
}

func TestDialWithoutGate(t *testing.T) {
	dir := shortDir(t)
	_, err := ipc.Dial(dir)
	if !errors.Is(err, ipc.ErrNotRunning) || !strings.Contains(err.Error(), "airlock serve") {
		t.Errorf("Dial = %v, want ErrNotRunning saying how to start a gate", err)
	}
}

func TestServeStopsWithContext(t *testing.T) {
	dir := shortDir(t)
	s, err := ipc.Listen(dir, &fakeGate{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	if _, err := dial(t, dir).Call(context.Background(), "status", nil, nil); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	if _, err := ipc.Dial(dir); !errors.Is(err, ipc.ErrNotRunning) {
		t.Errorf("Dial after Serve's ctx ended = %v, want ErrNotRunning", err)
	}
	if err := s.Serve(context.Background()); err == nil {
		t.Error("Serve on a closed server succeeded")
	}
}

// listing maps the names in dir to their types.
func listing(t *testing.T, dir string) map[string]os.FileMode {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]os.FileMode)
	for _, e := range ents {
		m[e.Name()] = e.Type()
	}
	return m
}
