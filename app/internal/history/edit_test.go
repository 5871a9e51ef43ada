package history_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
)

// TestEditRecorded: a plan the person edited keeps the request it replaced
// and who edited it; the replaced one's actions end "edited". Both read
// back, and verify.
func TestEditRecorded(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	must(t, s.AddRequest(ctx, history.Request{ID: "orig", Time: t0, Client: "mcp: claude-ai", Program: "/usr/bin/claude (pid 7)", Kind: "dsl", Text: "NOTIFY \"a\" \"0\"\n"}))
	must(t, s.AddDecision(ctx, decision("orig", 0, "ask")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "orig", Index: 0, Time: t0, Approval: "edited", Status: "edited", Error: "the person edited the plan: request edit1 runs instead"}))
	must(t, s.AddRequest(ctx, history.Request{ID: "edit1", Time: t0.Add(time.Second), Client: "mcp: claude-ai (edited by the person)", Kind: "dsl",
		Text: "NOTIFY \"a\" \"1\"\n", EditOf: "orig", EditedBy: "the person, in the approval popup (zenity)"}))
	must(t, s.AddDecision(ctx, decision("edit1", 0, "auto")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "edit1", Index: 0, Time: t0, Status: "ok"}))

	r, es, err := s.Request(ctx, "edit1")
	if err != nil || r.EditOf != "orig" || r.EditedBy != "the person, in the approval popup (zenity)" || r.Text != "NOTIFY \"a\" \"1\"\n" || len(es) != 1 {
		t.Fatalf("the edit: %+v, %d entries, %v", r, len(es), err)
	}
	if es[0].Request.EditOf != "orig" || es[0].Request.EditedBy == "" {
		t.Errorf("an entry of the edit lost its link: %+v", es[0].Request)
	}
	o, es, err := s.Request(ctx, "orig")
	if err != nil || o.EditOf != "" || o.EditedBy != "" || es[0].Outcome == nil || es[0].Outcome.Approval != "edited" || es[0].Outcome.Status != "edited" {
		t.Fatalf("the original: %+v %+v, %v", o, es, err)
	}
	must(t, s.Verify(ctx))
}

func TestEditRefusedHalfRecorded(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	for _, r := range []history.Request{
		{ID: "e1", Client: "c", Kind: "dsl", Text: "x", EditOf: "orig"},
		{ID: "e2", Client: "c", Kind: "dsl", Text: "x", EditedBy: "the person"},
		{ID: "e3", Client: "c", Kind: "dsl", Text: "x", EditOf: "e3", EditedBy: "the person"},
	} {
		if err := s.AddRequest(ctx, r); !errors.Is(err, history.ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", r, err)
		}
	}
}

// TestUpgradeFromSchema2 opens a history written by the Airlock before
// edits were recorded (testdata/v2: made by the code of commit a9abc1d, the
// schema 2 of this package, with its keys; every kind of row, a withdrawn
// outcome and a model call): it verifies before and after the migration,
// its old rows read back with no edit, new edited requests verify beside
// them, and blanking a recorded edit link breaks the chain at that row.
func TestUpgradeFromSchema2(t *testing.T) {
	dir := copyDir(t, "v2")
	path, ks := filepath.Join(dir, "history-v2.db"), fileKeys{filepath.Join(dir, "keys")}
	must(t, history.VerifyFile(path, ks))
	var v int
	db := raw(t, path)
	must(t, db.QueryRow("PRAGMA user_version").Scan(&v))
	db.Close()
	if v != 2 {
		t.Fatalf("testdata/v2 has schema %d", v)
	}

	s, err := history.Open(path, ks)
	if err != nil {
		t.Fatalf("opening a schema 2 history: %v", err)
	}
	ctx := context.Background()
	r, es, err := s.Request(ctx, "v2-a")
	if err != nil || r.Program != "/usr/bin/claude (pid 123)" || r.EditOf != "" || r.EditedBy != "" || len(es) != 2 ||
		es[1].Outcome == nil || es[1].Outcome.Approval != "approved" {
		t.Fatalf("old request = %+v %+v, %v", r, es, err)
	}
	if _, es, err := s.Request(ctx, "v2-b"); err != nil || es[0].Outcome.Status != "withdrawn" {
		t.Fatalf("old withdrawn request: %+v, %v", es, err)
	}
	must(t, s.Verify(ctx))
	must(t, s.AddRequest(ctx, history.Request{ID: "v3-a", Time: t0, Client: "airlock run (edited by the person)", Kind: "dsl", Text: "y",
		EditOf: "v2-b", EditedBy: "the person, in the approval popup (zenity)"}))
	must(t, s.AddDecision(ctx, decision("v3-a", 0, "ask")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "v3-a", Index: 0, Time: t0, Approval: "approved", Status: "ok"}))
	must(t, s.AddFileChanges(ctx, fileChanges("v3-a")))
	must(t, s.Close())
	must(t, history.VerifyFile(path, ks))

	db = raw(t, path)
	must(t, db.QueryRow("PRAGMA user_version").Scan(&v))
	if v != 4 {
		t.Errorf("migrated to schema %d, want 4 (the latest)", v)
	}
	for _, col := range []string{"edited_by", "edit_of"} {
		var seq int64
		must(t, db.QueryRow("SELECT seq FROM requests WHERE id = 'v3-a'").Scan(&seq))
		edit(t, db, "UPDATE requests SET "+col+" = '' WHERE id = 'v3-a'")
		errs := tamperErrors(history.VerifyFile(path, ks))
		if len(errs) == 0 || errs[0].Seq != seq || errs[0].Table != "requests" {
			t.Fatalf("blanking %s: Verify named %v, want requests row seq %d", col, errs, seq)
		}
	}
	db.Close()
}

// TestGroupsLinkEdits: Groups reads an edited plan's link and who edited
// it, and links the two requests both ways, across pages; an edit whose
// original the history does not hold keeps its id with no place, and the
// outcome filter finds the edited original.
func TestGroupsLinkEdits(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	must(t, s.AddRequest(ctx, history.Request{ID: "orig", Time: t0, Client: "mcp: claude-ai", Kind: "dsl", Text: "NOTIFY \"a\" \"0\"\n"}))
	must(t, s.AddDecision(ctx, decision("orig", 0, "ask")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "orig", Index: 0, Time: t0, Approval: "edited", Status: "edited"}))
	must(t, s.AddRequest(ctx, history.Request{ID: "other", Time: t0.Add(time.Second), Client: "c", Kind: "dsl", Text: "x"}))
	must(t, s.AddRequest(ctx, history.Request{ID: "edit1", Time: t0.Add(2 * time.Second), Client: "mcp: claude-ai (edited by the person)", Kind: "dsl",
		Text: "NOTIFY \"a\" \"1\"\n", EditOf: "orig", EditedBy: "the person, in the approval popup (zenity)"}))
	must(t, s.AddRequest(ctx, history.Request{ID: "stray", Time: t0.Add(3 * time.Second), Client: "c", Kind: "dsl",
		Text: "x", EditOf: "gone", EditedBy: "the person"}))

	gs, err := s.Groups(ctx, history.Query{Limit: 10})
	must(t, err)
	by := map[string]history.Group{}
	for _, g := range gs {
		by[g.Request.ID] = g
	}
	orig, edit := by["orig"], by["edit1"]
	if edit.Request.EditOf != "orig" || edit.Request.EditedBy != "the person, in the approval popup (zenity)" {
		t.Errorf("the edit's request = %+v", edit.Request)
	}
	if edit.Original != (history.Ref{ID: "orig", Seq: orig.Seq}) || orig.Seq == 0 {
		t.Errorf("the edit's Original = %+v, want orig at %d", edit.Original, orig.Seq)
	}
	if orig.EditedAs != (history.Ref{ID: "edit1", Seq: edit.Seq}) {
		t.Errorf("the original's EditedAs = %+v, want edit1 at %d", orig.EditedAs, edit.Seq)
	}
	if g := by["stray"]; g.Original != (history.Ref{ID: "gone"}) {
		t.Errorf("an edit of a request not held: Original = %+v", g.Original)
	}
	if g := by["other"]; g.Original != (history.Ref{}) || g.EditedAs != (history.Ref{}) {
		t.Errorf("an unrelated request is linked: %+v %+v", g.Original, g.EditedAs)
	}

	// Page by page: each side finds the other off its page.
	page, err := s.Groups(ctx, history.Query{Limit: 1, Before: orig.Seq + 1})
	must(t, err)
	if len(page) != 1 || page[0].EditedAs.ID != "edit1" {
		t.Errorf("the original alone on its page: %+v", page)
	}
	page, err = s.Groups(ctx, history.Query{Limit: 1, Before: edit.Seq + 1})
	must(t, err)
	if len(page) != 1 || page[0].Original.Seq != orig.Seq {
		t.Errorf("the edit alone on its page: %+v", page)
	}
	page, err = s.Groups(ctx, history.Query{Limit: 10, Outcome: "edited"})
	must(t, err)
	if len(page) != 1 || page[0].Request.ID != "orig" {
		t.Errorf("outcome edited selects %q, want orig", ids(page))
	}
}
