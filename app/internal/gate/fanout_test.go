package gate_test

import (
	"reflect"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// The UI's own changes (kill, resume, autonomy) reach every subscriber of
// the fan-out, in order, so the menu can follow them without polling.
func TestFanoutCarriesTheSwitchAndTheLevel(t *testing.T) {
	env, _ := sandbox(t)
	var f gate.Fanout
	a, stopA := f.Subscribe(8)
	b, stopB := f.Subscribe(8)
	defer stopA()
	g := gate.New(gate.Config{Env: env, Exec: &fakeExec{}, History: &memHistory{}, Events: f.Emit})
	g.Kill()
	g.Resume()
	g.SetAutonomy(policy.FullAuto)
	want := []string{gate.EventKilled, gate.EventResumed, gate.EventAutonomy}
	for name, ch := range map[string]<-chan gate.Event{"a": a, "b": b} {
		var got []string
		for range want {
			got = append(got, (<-ch).Type)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("subscriber %s got %v, want %v", name, got, want)
		}
	}
	if st := g.Status(); st.Autonomy != int(policy.FullAuto) {
		t.Errorf("autonomy %d after SetAutonomy(2)", st.Autonomy)
	}
	stopB()
	if _, open := <-b; open {
		t.Error("an ended subscription's channel is still open")
	}
	stopB() // a second call is harmless
	g.Kill()
	if e := <-a; e.Type != gate.EventKilled {
		t.Errorf("after the other subscriber left: %q", e.Type)
	}
}

// A subscriber that does not read never holds the gate up: its events are
// dropped and counted.
func TestFanoutNeverBlocks(t *testing.T) {
	var f gate.Fanout
	ch, stop := f.Subscribe(2)
	defer stop()
	for range 5 {
		f.Emit(gate.Event{Type: gate.EventDone})
	}
	if len(ch) != 2 || f.Dropped() != 3 {
		t.Fatalf("buffered %d, dropped %d; want 2 and 3", len(ch), f.Dropped())
	}
	var zero gate.Fanout
	zero.Emit(gate.Event{Type: gate.EventDone}) // no subscribers: nothing to do
	if zero.Dropped() != 0 {
		t.Errorf("dropped %d with no subscribers", zero.Dropped())
	}
}
