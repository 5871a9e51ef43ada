package history_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/history"
)

// fileChanges are three changes of request id's action 0, as the gate
// records them.
func fileChanges(id string) []history.FileChange {
	return []history.FileChange{
		{RequestID: id, Index: 0, N: 0, Time: t0, Kind: "changed", Status: "applied", Placed: true, Mode: 0o644, Size: 0,
			OldMode: 0o644, Path: "/home/alice/Documents/thesis-secret-title.docx",
			Hash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
			Old:  "/home/alice/.local/share/Trash/files/thesis-secret-title.docx", OldHash: "ab12"},
		{RequestID: id, Index: 0, N: 1, Time: t0, Kind: "created", Status: "discarded", Held: true, Mode: 0o100755, Size: 20,
			Path: "/home/alice/Documents/proj/.git/hooks/pre-commit", Hash: "cd34",
			Discarded: "/home/alice/.local/share/Trash/files/Discarded by Airlock (r)/Documents/proj/.git/hooks/pre-commit",
			Note:      "held (a git hooks folder), discarded"},
		{RequestID: id, Index: 0, N: 2, Time: t0, Kind: "removed", Status: "applied", OldMode: 0o20000000755,
			Path: "/home/alice/Documents/old", Old: "/home/alice/.local/share/Trash/files/old"},
	}
}

// TestFileChanges: an action's changes read back as recorded, sealed in
// the file (no path in clear), chained, and all or none of them written.
func TestFileChanges(t *testing.T) {
	s, path, ks := open(t)
	ctx := context.Background()
	action(t, s, "r1")
	want := fileChanges("r1")
	must(t, s.AddFileChanges(ctx, want))
	got, err := s.FileChanges(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d changes, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		g.Time, w.Time = g.Time.UTC(), w.Time.UTC()
		if g != w {
			t.Errorf("change %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	if none, err := s.FileChanges(ctx, "no-such"); err != nil || len(none) != 0 {
		t.Errorf("an unknown request's changes: %v, %v", none, err)
	}

	// All or none: a list with one change of an action never decided is
	// refused whole.
	bad := fileChanges("r1")
	for i := range bad {
		bad[i].Index = 0
		bad[i].N += 10
	}
	bad[2].Index = 7
	if err := s.AddFileChanges(ctx, bad); err == nil {
		t.Errorf("changes of an undecided action were recorded")
	}
	if got, _ := s.FileChanges(ctx, "r1"); len(got) != 3 {
		t.Errorf("a refused list left %d changes, want the 3 before", len(got))
	}
	for _, c := range []history.FileChange{
		{RequestID: "r1", Kind: "moved", Status: "applied", Path: "/x"},
		{RequestID: "r1", Kind: "created", Status: "kept", Path: "/x"},
		{RequestID: "r1", Kind: "created", Status: "applied", Path: "relative"},
		{RequestID: "", Kind: "created", Status: "applied", Path: "/x"},
	} {
		if err := s.AddFileChanges(ctx, []history.FileChange{c}); !errors.Is(err, history.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", c, err)
		}
	}
	must(t, s.Verify(ctx))
	must(t, s.Close())
	must(t, history.VerifyFile(path, ks))
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("thesis-secret-title")) || bytes.Contains(b, []byte(".git/hooks")) {
			t.Errorf("%s holds a changed path in clear", filepath.Base(f))
		}
	}
}

// TestFileChangesTamper: a change's sealed path moved to another row no
// longer opens, and Verify names the row.
func TestFileChangesTamper(t *testing.T) {
	s, path, ks := open(t)
	ctx := context.Background()
	action(t, s, "r1")
	must(t, s.AddFileChanges(ctx, fileChanges("r1")))
	must(t, s.Close())
	db := raw(t, path)
	var first, second int64
	must(t, db.QueryRow("SELECT seq FROM changes WHERE n = 0").Scan(&first))
	must(t, db.QueryRow("SELECT seq FROM changes WHERE n = 1").Scan(&second))
	edit(t, db, "UPDATE changes SET path = (SELECT path FROM changes WHERE n = 1) WHERE n = 0")
	db.Close()
	errs := tamperErrors(history.VerifyFile(path, ks))
	if len(errs) == 0 || errs[0].Seq != first || errs[0].Table != "changes" || errs[0].Column != "path" {
		t.Fatalf("Verify named %v, want changes row %d, path", errs, first)
	}
	s2, err := history.Open(path, ks)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var te *history.TamperError
	if _, err := s2.FileChanges(ctx, "r1"); !errors.As(err, &te) || te.Seq != first {
		t.Errorf("reading the moved path: %v, want a TamperError for row %d", err, first)
	}
}
