package ipc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// busyGate's submit holds its connection until its context ends, as a
// submit waiting for the person does; started gets one value per submit.
func busyGate() (*fakeGate, <-chan struct{}) {
	started := make(chan struct{}, 128)
	return &fakeGate{submit: func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}}, started
}

// holdSubmits takes n connections, each with a submit in flight.
func holdSubmits(t *testing.T, dir string, n int, started <-chan struct{}) {
	t.Helper()
	for range n {
		c := dial(t, dir)
		go c.Call(context.Background(), "submit", ipc.SubmitParams{Client: "t", Plan: "x"}, nil)
		<-started
	}
}

func killNow(t *testing.T, dir string) map[string]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	raw, err := ipc.Kill(ctx, dir)
	if err != nil {
		t.Fatalf("Kill: %v", err)
	}
	var res map[string]bool
	if err := json.Unmarshal(raw, &res); err != nil || !res["killed"] {
		t.Fatalf("Kill's result %s: %v", raw, err)
	}
	return res
}

// liveness bounds a wait for something that should happen at once.
const liveness = 10 * time.Second

// Every connection of the gate's socket has a request in flight, so the
// socket refuses one more; the kill socket still reaches the gate.
func TestKillWhenEveryConnectionIsBusy(t *testing.T) {
	g, started := busyGate()
	_, dir := startGate(t, g, func(s *ipc.Server) { s.MaxConns = 4 })
	holdSubmits(t, dir, 4, started)
	rc := dialRaw(t, dir)
	if code, _ := rc.readError(); code != ipc.CodeBusy {
		t.Fatalf("a fifth connection: code %d, want %d (busy)", code, ipc.CodeBusy)
	}
	killNow(t, dir)
	if calls := g.Calls(); !slices.Contains(calls, "kill") {
		t.Fatalf("the gate's Kill was not called: %q", calls)
	}
}

// Many idle connections hold nothing back: not the kill socket, and not a
// new client of the gate's socket, which takes the place of the one that
// has waited longest.
func TestIdleConnectionsMakeRoom(t *testing.T) {
	g := &fakeGate{}
	_, dir := startGate(t, g, func(s *ipc.Server) { s.MaxConns = 8 })
	var idle []*rawConn
	for range 3 * 8 {
		rc := dialRaw(t, dir)
		rc.send(`{"jsonrpc":"2.0","id":1,"method":"status"}` + "\n")
		if f := rc.read(); f.Error != nil { // served, so counted
			t.Fatalf("status: %+v", f.Error)
		}
		idle = append(idle, rc)
	}
	// The oldest have made room for the newest, and were closed.
	for _, rc := range idle[:2*8] {
		rc.expectClosed()
	}
	c := dial(t, dir)
	if _, err := c.Call(context.Background(), "status", nil, nil); err != nil {
		t.Fatalf("a new client among idle ones: %v", err)
	}
	killNow(t, dir)
}

// A client half-way through a frame is waiting, not busy: it gives way too.
func TestStalledFrameMakesRoom(t *testing.T) {
	_, dir := startGate(t, &fakeGate{}, func(s *ipc.Server) { s.MaxConns = 1 })
	stalled := dialRaw(t, dir)
	stalled.send(`{"jsonrpc":"2.0","id":1,"method":"status"}` + "\n")
	if f := stalled.read(); f.Error != nil { // served, so counted
		t.Fatalf("status: %+v", f.Error)
	}
	stalled.send(`{"jsonrpc":"2.0",`)
	if _, err := dial(t, dir).Call(context.Background(), "status", nil, nil); err != nil {
		t.Fatalf("status beside a stalled frame: %v", err)
	}
	stalled.expectClosed()
}

// The kill socket reads nothing: what a client writes there is never a
// request, and the one answer is the kill's.
func TestKillSocketReadsNothing(t *testing.T) {
	g := &fakeGate{}
	_, dir := startGate(t, g, nil)
	nc, err := net.Dial("unix", filepath.Join(dir, ipc.KillSocketName))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(liveness))
	nc.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"x","plan":"NOTIFY \"a\" \"b\""}}` + "\n"))
	rc := &rawConn{t: t, nc: nc, br: bufio.NewReaderSize(nc, ipc.MaxFrame+1)}
	f := rc.read()
	if string(f.ID) != `"kill"` || f.Error != nil {
		t.Fatalf("the kill socket answered %+v", f)
	}
	rc.expectClosed()
	if calls := g.Calls(); !slices.Equal(calls, []string{"kill"}) {
		t.Fatalf("handler calls %q, want only kill", calls)
	}
}

// Only the user the gate runs as can trip the switch.
func TestKillSocketPeerOfAnotherUserRefused(t *testing.T) {
	g := &fakeGate{}
	_, dir := startGate(t, g, func(s *ipc.Server) {
		ipc.SetPeerUID(s, func(*net.UnixConn) (int, error) { return 4242, nil })
	})
	_, err := ipc.Kill(context.Background(), dir)
	var rerr *ipc.RPCError
	if !errors.As(err, &rerr) || rerr.Code != ipc.CodeUnauthorized {
		t.Fatalf("Kill = %v, want code %d", err, ipc.CodeUnauthorized)
	}
	if calls := g.Calls(); len(calls) != 0 {
		t.Fatalf("handler called: %q", calls)
	}
}

// Kills do not wait for one another: one still running (the gate waiting
// for what it stopped) holds up no other.
func TestKillsDoNotQueue(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	g := &fakeGate{kill: func(ctx context.Context) (any, error) {
		first := false
		once.Do(func() { first = true })
		if first {
			close(entered)
			<-release
		}
		return map[string]bool{"killed": true}, nil
	}}
	_, dir := startGate(t, g, nil)
	first := make(chan error, 1)
	go func() { _, err := ipc.Kill(context.Background(), dir); first <- err }()
	<-entered
	killNow(t, dir)
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

func TestKillWithoutGate(t *testing.T) {
	if _, err := ipc.Kill(context.Background(), shortDir(t)); !errors.Is(err, ipc.ErrNotRunning) {
		t.Fatalf("Kill = %v, want ErrNotRunning", err)
	}
}
