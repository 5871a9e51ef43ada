//go:build linux

package execute_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestUnaskedActionStopsAtItsTimeLimit: an action that runs unasked and
// waits forever held every later action (they run one at a time) until the
// kill switch. It is stopped at its time limit, what it wrote is dropped
// rather than reviewed, the error says why, and the next action runs.
func TestUnaskedActionStopsAtItsTimeLimit(t *testing.T) {
	restore := execute.SetUnaskedTime(500 * time.Millisecond)
	defer func() { restore() }()
	r := newRedRig(t, []string{"~/Documents"}, nil)

	start := time.Now()
	res, held, err := r.runArgv(t, "wait forever", []string{"/bin/sh", "-c", "echo half > half.txt; exec sleep 600"}, "Documents")
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "the longest an action that runs unasked may run") {
		t.Fatalf("err = %v, want the time limit's", err)
	}
	if !strings.Contains(err.Error(), "nothing it wrote was kept") {
		t.Errorf("err = %v, want it to say what it wrote was dropped", err)
	}
	if took > 20*time.Second {
		t.Errorf("it was stopped after %v, want about the limit", took)
	}
	if len(held) != 0 || res.Held != nil {
		t.Errorf("held %v for review, want what it wrote dropped", held)
	}
	if got := r.read("Documents/half.txt"); got != "<missing>" {
		t.Errorf("Documents/half.txt = %q, want it dropped", got)
	}

	// The next action is not held up, and one within the limit (a long
	// one here: a loaded machine under -race starts actions slowly) lands.
	restore()
	restore = execute.SetUnaskedTime(time.Minute)
	res, _, err = r.runArgv(t, "next", []string{"/bin/sh", "-c", "echo done > done.txt; echo ran"}, "Documents")
	if err != nil || !strings.Contains(res.Output, "ran") {
		t.Fatalf("the next action: %v (output %q)", err, res.Output)
	}
	if got := r.read("Documents/done.txt"); got != "done\n" {
		t.Errorf("Documents/done.txt = %q, want the next action's file landed", got)
	}
}

// TestApprovedActionHasNoTimeLimit: the limit is for what runs unasked; an
// action the person approved runs as long as it takes.
func TestApprovedActionHasNoTimeLimit(t *testing.T) {
	defer execute.SetUnaskedTime(200 * time.Millisecond)()
	r := newRedRig(t, []string{"~/Documents"}, nil)
	res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "",
		[]string{"/bin/sh", "-c", "sleep 1; echo finished"}, filepath.Join(r.home, "Documents"), ossandbox.Grant{Approved: true})
	if err != nil || !strings.Contains(res.Output, "finished") {
		t.Fatalf("approved: %v (output %q), want it to run past the unasked limit", err, res.Output)
	}
}
