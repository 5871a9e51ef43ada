package history_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
)

// TestRed9OutputKeptBounded: every action an agent submits unasked stored
// its whole output (up to 1 MiB of stdout and of stderr) in the history,
// which is never pruned: a loop of `head -c 1000000 /dev/urandom | base64`,
// rated safe, grew the history by about a MiB an action until the disk
// was full (on main: 40 outcomes of a MiB of output and a MiB of error
// grew the file by 84 MiB). An
// outcome's output and error now keep their first and last 32 KiB, with a
// line saying how much was left out; the agent still got the whole.
func TestRed9OutputKeptBounded(t *testing.T) {
	s, path, _ := open(t)
	ctx := context.Background()
	head, tail := "FIRST LINE\n", "\nLAST LINE"
	big := head + strings.Repeat("0123456789abcdef", 1<<16) + tail // 1 MiB
	before := fileSize(t, path)
	for i := range 40 {
		id := "req" + string(rune('A'+i))
		must(t, s.AddRequest(ctx, history.Request{ID: id, Time: t0, Client: "cli", Kind: "plan", Text: "NOTIFY \"a\" \"b\"\n"}))
		must(t, s.AddDecision(ctx, decision(id, 0, "auto")))
		must(t, s.AddOutcome(ctx, history.Outcome{RequestID: id, Index: 0, Time: t0, Status: "failed", Duration: time.Millisecond, Output: big, Error: big}))
	}
	if grew := fileSize(t, path) - before; grew > 8<<20 {
		t.Errorf("40 outcomes of 1 MiB grew the history by %d MiB", grew>>20)
	}
	es, err := s.Recent(ctx, 1)
	if err != nil || len(es) != 1 || es[0].Outcome == nil {
		t.Fatalf("Recent: %v %v", es, err)
	}
	for name, v := range map[string]string{"output": es[0].Outcome.Output, "error": es[0].Outcome.Error} {
		if len(v) > 65<<10 {
			t.Errorf("the %s kept is %d bytes", name, len(v))
		}
		if !strings.HasPrefix(v, head) || !strings.HasSuffix(v, tail) || !strings.Contains(v, "bytes left out of the history") {
			t.Errorf("the %s kept lost its start, its end or the note: %q … %q", name, v[:min(len(v), 40)], v[max(0, len(v)-40):])
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}
