package gate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// undoRig is a gate with the real executor and history, in a temporary
// home whose thesis an unasked action emptied: request r1's changes were
// applied and recorded as the gate records them.
type undoRig struct {
	g     *gate.Gate
	store *history.Store
	home  string
}

func newUndoRig(t *testing.T) *undoRig {
	t.Helper()
	env, home := sandbox(t)
	store, err := history.Open(filepath.Join(t.TempDir(), "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	ex := &execute.Executor{Paths: env.Paths, Trash: execute.FreedesktopTrash(filepath.Join(home, ".local/share"))}
	n := 0
	g := gate.New(gate.Config{Env: env, Exec: ex, History: store, Autonomy: policy.SmartDefault,
		NewID: func() string { n++; return "u" + string(rune('0'+n)) }})
	ctx := context.Background()
	thesis := filepath.Join(home, "Documents/thesis.docx")
	if err := os.WriteFile(thesis, []byte("my thesis"), 0o644); err != nil {
		t.Fatal(err)
	}
	upper := filepath.Join(t.TempDir(), "upper")
	if err := os.MkdirAll(upper, 0o700); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(upper, "thesis.docx")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(store.AddRequest(ctx, history.Request{ID: "r1", Client: "agent", Kind: gate.KindCommand, Text: "mv empty thesis.docx"}))
	must(store.AddDecision(ctx, history.Decision{RequestID: "r1", Risk: level.Caution, Autonomy: 1, Decision: "auto"}))
	a, held, err := ex.ApplyChanges(ctx, []ossandbox.Change{{Kind: ossandbox.Changed, Path: thesis, Upper: empty, Mode: 0o644, Was: 0o644}}, "request r1, action 1")
	must(err)
	if held != nil {
		t.Fatalf("held %+v", held.Items)
	}
	must(g.RecordChanges(ctx, "r1", 0, 0, a.Records))
	return &undoRig{g: g, store: store, home: home}
}

func (r *undoRig) thesis(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.home, "Documents/thesis.docx"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUndo: the person is asked first, with what will be put back; a no
// changes nothing; a yes puts the thesis back, and the undo is recorded.
func TestUndo(t *testing.T) {
	r := newUndoRig(t)
	ctx := context.Background()
	no := errors.New("the person said no")
	var asked gate.UndoQuestion
	_, err := r.g.Undo(ctx, "r1", func(_ context.Context, q gate.UndoQuestion) error { asked = q; return no })
	if !errors.Is(err, no) {
		t.Fatalf("err = %v, want the confirmation's", err)
	}
	if !strings.Contains(asked.Text, "Put back from the Trash (1):\n  ~/Documents/thesis.docx") || asked.Yes != "Undo" || !strings.Contains(asked.Title, "r1") {
		t.Errorf("asked %+v", asked)
	}
	if got := r.thesis(t); got != "" {
		t.Fatalf("the thesis changed before the person said yes: %q", got)
	}
	rep, err := r.g.Undo(ctx, "r1", func(context.Context, gate.UndoQuestion) error { return nil })
	if err != nil {
		t.Fatalf("undo: %v (%+v)", err, rep)
	}
	if got := r.thesis(t); got != "my thesis" {
		t.Errorf("after undo the thesis is %q", got)
	}
	if len(rep.Undone) != 1 || rep.Undone[0].Trashed == "" || len(rep.NotUndone) != 0 || rep.Undo == "" {
		t.Errorf("report %+v", rep)
	}
	req, es, err := r.store.Request(ctx, rep.Undo)
	if err != nil || req.Kind != gate.KindUndo || req.Text != "undo r1" || len(es) != 1 || es[0].Outcome == nil ||
		es[0].Outcome.Status != gate.StatusOK || es[0].Outcome.Approval != "approved" {
		t.Errorf("the undo's record: %+v %+v, %v", req, es, err)
	}

	// A second undo finds nothing as the action left it: nothing changes,
	// and the report says why.
	rep, err = r.g.Undo(ctx, "r1", func(context.Context, gate.UndoQuestion) error { return nil })
	if !errors.Is(err, execute.ErrNotUndone) || len(rep.NotUndone) != 1 {
		t.Errorf("a second undo: %v, %+v", err, rep)
	}
	if got := r.thesis(t); got != "my thesis" {
		t.Errorf("a second undo changed the thesis: %q", got)
	}
	if _, err := r.g.Undo(ctx, "no-such", func(context.Context, gate.UndoQuestion) error { return nil }); !errors.Is(err, gate.ErrNothingToUndo) {
		t.Errorf("an unknown request: %v", err)
	}
}

// TestUndoKilled: while the kill switch is on, no undo starts, and the
// person is not even asked.
func TestUndoKilled(t *testing.T) {
	r := newUndoRig(t)
	r.g.Kill()
	asked := false
	_, err := r.g.Undo(context.Background(), "r1", func(context.Context, gate.UndoQuestion) error { asked = true; return nil })
	if !errors.Is(err, gate.ErrKilled) || asked {
		t.Errorf("err = %v, asked = %v; want refused as killed, unasked", err, asked)
	}
	if got := r.thesis(t); got != "" {
		t.Errorf("the thesis changed: %q", got)
	}
}

// TestUndoKillWhileAsking: the kill switch tripped while the person is
// asked stops the undo before anything is undone.
func TestUndoKillWhileAsking(t *testing.T) {
	r := newUndoRig(t)
	_, err := r.g.Undo(context.Background(), "r1", func(ctx context.Context, _ gate.UndoQuestion) error {
		go r.g.Kill()
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Error("the kill switch did not cancel the confirmation")
		}
		return nil // as if the person said yes just then
	})
	if err == nil {
		t.Fatal("the undo ran after the kill switch")
	}
	if got := r.thesis(t); got != "" {
		t.Errorf("the thesis changed: %q", got)
	}
}
