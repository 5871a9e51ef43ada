package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCrashMarksInterrupted: requests waiting for the person when the gate
// is SIGKILLed are marked interrupted by the next gate, and the audit chain
// still verifies.
func TestCrashMarksInterrupted(t *testing.T) {
	if _, err := exec.LookPath("gnome-keyring-daemon"); err != nil {
		t.Skip("needs gnome-keyring-daemon for the key store")
	}
	w := newWorld(t, `{"autonomy": 0, "approvalTimeout": "10m"}`)
	w.startGate()
	const n = 6
	runs := make([]<-chan clientResult, n)
	for i := range runs {
		runs[i] = w.clientAsync(`NOTIFY "crash test" "waiting"`, "run", "-")
	}
	// Wait until every request waits for approval (its decision recorded).
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, code := w.client("", "status", "--json")
		var st struct{ Pending int }
		if code == 0 && json.Unmarshal([]byte(out), &st) == nil && st.Pending == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never %d approvals pending; status: %s", n, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := w.gate.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	w.gate.Wait()
	w.ptmx.Close()
	w.gate = nil
	for _, r := range runs {
		if res := wait(t, r); res.code == 0 {
			t.Fatalf("a client whose gate was killed succeeded: %s", res.out)
		}
	}
	w.launchGate()
	out, code := w.client("", "history", "--json", "-n", "100")
	if code != 0 {
		t.Fatalf("airlock history: %s", out)
	}
	var recs []historyRecord
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(recs) != n {
		t.Fatalf("history has %d actions, want %d: %s", len(recs), n, out)
	}
	for _, r := range recs {
		if r.Status != "interrupted" || !strings.Contains(r.Error, "gate stopped") {
			t.Errorf("action of %s: status %q, error %q; want interrupted", r.Request, r.Status, r.Error)
		}
	}
	if out, code := w.client("", "audit", "verify"); code != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("airlock audit verify: %d %s", code, out)
	}
	if out, _ := w.client("", "history", "-n", "100"); strings.Count(out, "interrupted") != n {
		t.Errorf("airlock history shows:\n%s", out)
	}
}
