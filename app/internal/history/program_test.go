package history_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/history"
)

// copyDir copies the files of testdata/name (one level of subdirectories)
// into a temporary directory, so a test can open and migrate them.
func copyDir(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(filepath.Join("testdata", name), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join("testdata", name), path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestProgramRecorded: the client's verified program is kept beside the name
// it gave itself, and read back by Recent and Request.
func TestProgramRecorded(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	must(t, s.AddRequest(ctx, history.Request{ID: "p1", Time: t0, Client: "mcp: claude-ai", Program: "/usr/bin/claude (pid 123)", Kind: "dsl", Text: "x"}))
	must(t, s.AddDecision(ctx, decision("p1", 0, "ask")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "p1", Index: 0, Time: t0, Approval: "withdrawn", Status: "withdrawn", Error: "withdrawn by its client"}))
	r, es, err := s.Request(ctx, "p1")
	if err != nil || r.Client != "mcp: claude-ai" || r.Program != "/usr/bin/claude (pid 123)" || len(es) != 1 {
		t.Fatalf("Request = %+v, %d entries, %v", r, len(es), err)
	}
	if o := es[0].Outcome; o == nil || o.Approval != "withdrawn" || o.Status != "withdrawn" {
		t.Fatalf("outcome %+v, want withdrawn", es[0].Outcome)
	}
	recent, err := s.Recent(ctx, 1)
	if err != nil || len(recent) != 1 || recent[0].Request.Program != "/usr/bin/claude (pid 123)" {
		t.Fatalf("Recent = %+v, %v", recent, err)
	}
	must(t, s.Verify(ctx))
}

// TestUpgradeFromSchema1 opens a history written by the Airlock before the
// program column (testdata/v1, made by that version's code, with its keys):
// it migrates, its old rows still verify and read back with no program, and
// new rows with a program verify too. Blanking a program that was recorded
// breaks the chain at that row.
func TestUpgradeFromSchema1(t *testing.T) {
	dir := copyDir(t, "v1")
	path, ks := filepath.Join(dir, "history-v1.db"), fileKeys{filepath.Join(dir, "keys")}
	must(t, history.VerifyFile(path, ks))
	s, err := history.Open(path, ks)
	if err != nil {
		t.Fatalf("opening a schema 1 history: %v", err)
	}
	ctx := context.Background()
	r, es, err := s.Request(ctx, "v1-a")
	if err != nil || r.Client != "mcp: claude-ai" || r.Program != "" || len(es) != 1 || es[0].Outcome.Approval != "approved" {
		t.Fatalf("old request = %+v %+v, %v", r, es, err)
	}
	must(t, s.AddRequest(ctx, history.Request{ID: "v2-a", Time: t0, Client: "mcp: claude-ai", Program: "/usr/bin/claude (pid 9)", Kind: "dsl", Text: "y"}))
	must(t, s.AddDecision(ctx, decision("v2-a", 0, "ask")))
	must(t, s.Close())
	must(t, history.VerifyFile(path, ks))

	db := raw(t, path)
	var seq int64
	must(t, db.QueryRow("SELECT seq FROM requests WHERE id = 'v2-a'").Scan(&seq))
	edit(t, db, "UPDATE requests SET program = '' WHERE id = 'v2-a'")
	db.Close()
	errs := tamperErrors(history.VerifyFile(path, ks))
	if len(errs) == 0 || errs[0].Seq != seq || errs[0].Table != "requests" {
		t.Fatalf("blanking a recorded program: Verify named %v, want requests row seq %d", errs, seq)
	}
}
