package gate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// ChangeKeeper is a Recorder that keeps what actions changed on disk, for
// undo. history.Store implements it.
type ChangeKeeper interface {
	AddFileChanges(ctx context.Context, cs []history.FileChange) error
	FileChanges(ctx context.Context, id string) ([]history.FileChange, error)
}

// Undoer is an Executor that puts back what recorded changes replaced or
// removed. execute.Executor implements it.
type Undoer interface {
	Undo(ctx context.Context, records []execute.ChangeRecord) (execute.UndoReport, error)
}

// Errors of Undo. Each is safe to show to a user.
var (
	// ErrNothingToUndo: the history holds no change of files for the
	// request (it changed none, ran before changes were recorded, or is
	// unknown).
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrUndoUnavailable: this gate's history or executor cannot undo.
	ErrUndoUnavailable = errors.New("undo is not available in this gate")
)

// KindUndo is the kind the history records an undo under.
const KindUndo = "undo"

// FileChangesOf is what the history keeps of one action's reviewed
// changes (execute.Applied.Records, then Held.Resolve's): action index of
// request id, numbered from first (the count the action already recorded).
func FileChangesOf(id string, index, first int, recs []execute.ChangeRecord) []history.FileChange {
	out := make([]history.FileChange, len(recs))
	for i, r := range recs {
		out[i] = history.FileChange{RequestID: id, Index: index, N: first + i, Kind: r.Kind.String(),
			Status: r.Status.String(), Held: r.Held, Placed: r.Placed, Mode: uint32(r.Mode), Size: r.Size,
			OldMode: uint32(r.OldMode), Path: r.Path, Hash: r.Hash, Old: r.Old, OldHash: r.OldHash,
			Discarded: r.Discarded, Note: r.Note}
	}
	return out
}

// ChangeRecordsOf reads back what FileChangesOf made.
func ChangeRecordsOf(cs []history.FileChange) ([]execute.ChangeRecord, error) {
	out := make([]execute.ChangeRecord, len(cs))
	for i, c := range cs {
		kind, err := changeKind(c.Kind)
		if err != nil {
			return nil, err
		}
		status, err := execute.ParseChangeStatus(c.Status)
		if err != nil {
			return nil, err
		}
		out[i] = execute.ChangeRecord{Kind: kind, Path: c.Path, Status: status, Held: c.Held, Placed: c.Placed,
			Mode: fs.FileMode(c.Mode), Size: c.Size, Hash: c.Hash, Old: c.Old, OldMode: fs.FileMode(c.OldMode),
			OldHash: c.OldHash, Discarded: c.Discarded, Note: c.Note}
	}
	return out, nil
}

func changeKind(s string) (sandbox.ChangeKind, error) {
	for k := sandbox.Created; k <= sandbox.Replaced; k++ {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%q is not a kind of change", s)
}

// RecordChanges records what action index of request id changed on disk
// (the records of ApplyChanges, then of Held.Resolve, in that order,
// numbered from first), in one write.
func (g *Gate) RecordChanges(ctx context.Context, id string, index, first int, recs []execute.ChangeRecord) error {
	k, ok := g.cfg.History.(ChangeKeeper)
	if !ok {
		return fmt.Errorf("recording the changes: %w: the history keeps none", ErrUndoUnavailable)
	}
	if err := k.AddFileChanges(ctx, FileChangesOf(id, index, first, recs)); err != nil {
		return fmt.Errorf("recording the changes: %w", err)
	}
	return nil
}

// UndoQuestion is what the person is asked before an undo: a popup's
// title, text and yes button.
type UndoQuestion struct {
	Title, Text, Yes string
}

// UndoPath is one path of an undo, as its report says it.
type UndoPath struct {
	Path    string `json:"path"`
	What    string `json:"what"`
	Trashed string `json:"trashed,omitempty"` // where the action's version went in the Trash
}

// UndoReport is what an undo did.
type UndoReport struct {
	Request   string     `json:"request"` // the request undone
	Undo      string     `json:"undo"`    // the undo's own request in the history
	Undone    []UndoPath `json:"undone"`
	NotUndone []UndoPath `json:"notUndone,omitempty"`
	Error     string     `json:"error,omitempty"`
}

// Undo puts back what request id's actions replaced or removed on disk,
// and moves what they created or changed to the Trash (execute.Executor.
// Undo, from the changes the history recorded). It is the person's act:
// nothing is done until confirm, which must ask them in Airlock's own
// popup (the menu's confirmation), returns nil. It is refused while the
// kill switch is on, and the kill switch stops it between two paths. The
// undo is recorded in the history as a request of kind "undo" naming id,
// with the outcome. The report says which paths were and were not undone;
// the error is non-nil when any was not.
func (g *Gate) Undo(ctx context.Context, id string, confirm func(context.Context, UndoQuestion) error) (UndoReport, error) {
	rep := UndoReport{Request: id}
	keeper, ok := g.cfg.History.(ChangeKeeper)
	undoer, ok2 := g.cfg.Exec.(Undoer)
	if !ok || !ok2 {
		return rep, ErrUndoUnavailable
	}
	tctx, done, err := g.Track(ctx)
	if err != nil {
		return rep, err
	}
	defer done()
	cs, err := keeper.FileChanges(tctx, id)
	if err != nil {
		return rep, fmt.Errorf("reading what request %s changed: %w", id, err)
	}
	recs, err := ChangeRecordsOf(cs)
	if err != nil {
		return rep, fmt.Errorf("reading what request %s changed: %w", id, err)
	}
	q, n := g.undoQuestion(id, recs)
	if n == 0 {
		return rep, fmt.Errorf("%w: request %s changed no file that is still recorded as applied", ErrNothingToUndo, id)
	}
	if err := confirm(tctx, q); err != nil {
		return rep, err
	}
	if err := g.begin(tctx, false); err != nil {
		return rep, err
	}
	defer g.end(false)
	rep.Undo = g.cfg.NewID()
	if err := g.recordUndoStart(tctx, rep.Undo, id); err != nil {
		return rep, err
	}
	er, uerr := undoer.Undo(tctx, recs)
	for _, it := range er.Items {
		p := UndoPath{Path: it.Path, What: it.What, Trashed: it.Trashed}
		if it.Done {
			rep.Undone = append(rep.Undone, p)
		} else {
			rep.NotUndone = append(rep.NotUndone, p)
		}
	}
	if uerr != nil {
		rep.Error = uerr.Error()
	}
	if err := g.recordUndoEnd(context.WithoutCancel(tctx), rep, uerr); err != nil {
		return rep, errors.Join(uerr, err)
	}
	return rep, uerr
}

// undoQuestion words the confirmation of an undo, and counts the changes
// it would undo.
func (g *Gate) undoQuestion(id string, recs []execute.ChangeRecord) (UndoQuestion, int) {
	var back, away, perms []string
	for _, r := range recs {
		switch {
		case r.Old != "":
			back = append(back, g.short(r.Path))
			if r.Status == execute.ChangeApplied && r.Placed {
				away = append(away, g.short(r.Path))
			}
		case r.Status == execute.ChangeApplied && r.Placed:
			away = append(away, g.short(r.Path))
		case r.Status == execute.ChangeApplied && r.Kind == sandbox.Changed && r.Mode.IsDir() && r.OldMode.IsDir() && r.Mode.Perm() != r.OldMode.Perm():
			perms = append(perms, g.short(r.Path))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Undo what request %s changed on disk?", id)
	list := func(what string, paths []string) {
		if len(paths) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n\n%s (%d):", what, len(paths))
		for _, p := range paths[:min(len(paths), 8)] {
			b.WriteString("\n  " + oneLine(p))
		}
		if len(paths) > 8 {
			fmt.Fprintf(&b, "\n  … and %d more", len(paths)-8)
		}
	}
	list("Put back from the Trash", back)
	list("Moved to the Trash (what the action made)", away)
	list("Permissions put back", perms)
	b.WriteString("\n\nNothing is deleted: what undo takes away goes to the Trash. What changed since the action is left as it is.")
	return UndoQuestion{Title: "Airlock — undo request " + id + "?", Text: b.String(), Yes: "Undo"}, len(back) + len(away) + len(perms)
}

// short writes a path in its ~/ form.
func (g *Gate) short(p string) string {
	env := g.current().env
	if env == nil || env.Paths == nil {
		return p
	}
	return env.Paths.ShortPath(p)
}

// recordUndoStart records the undo as a request of its own, decided by the
// person (they confirmed it), before anything is undone: nothing runs
// unrecorded.
func (g *Gate) recordUndoStart(ctx context.Context, undoID, id string) error {
	h := g.cfg.History
	err := h.AddRequest(ctx, history.Request{ID: undoID, Time: g.cfg.Now(), Client: "the person (airlock undo)",
		Kind: KindUndo, Text: "undo " + id})
	if err == nil {
		err = h.AddDecision(ctx, history.Decision{RequestID: undoID, Index: 0, Time: g.cfg.Now(),
			Action: "undo " + id, Preview: "Undo what request " + id + " changed on disk", Risk: level.Caution,
			Reasons:  []string{"the person confirmed the undo in Airlock's popup; nothing is deleted: what it takes away goes to the Trash"},
			Autonomy: int(g.level()), Decision: "ask"})
	}
	if err != nil {
		return fmt.Errorf("recording the undo: %w", err)
	}
	return nil
}

// recordUndoEnd records how the undo ended.
func (g *Gate) recordUndoEnd(ctx context.Context, rep UndoReport, uerr error) error {
	o := history.Outcome{RequestID: rep.Undo, Index: 0, Time: g.cfg.Now(), Approval: "approved", Status: StatusOK,
		Output: fmt.Sprintf("%d paths undone, %d not", len(rep.Undone), len(rep.NotUndone))}
	if uerr != nil {
		o.Status, o.Error = StatusFailed, uerr.Error()
	}
	if err := g.cfg.History.AddOutcome(ctx, o); err != nil {
		return fmt.Errorf("recording the undo's outcome: %w", err)
	}
	return nil
}
