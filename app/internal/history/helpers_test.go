package history_test

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

var _ = sqlite3.SQLiteDriver{} // registers "sqlite3" for raw access to the file

// open opens a history in a fresh directory with a fresh memory key store.
func open(t testing.TB) (*history.Store, string, *secrets.Memory) {
	t.Helper()
	ks := secrets.NewMemory()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := history.Open(path, ks)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path, ks
}

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// action writes one request with one action: request, decision, outcome.
func action(t testing.TB, s *history.Store, id string) {
	t.Helper()
	ctx := context.Background()
	must(t, s.AddRequest(ctx, history.Request{ID: id, Time: t0, Client: "cli", Kind: "plan", Text: "NOTIFY \"a\" \"b\"\n"}))
	must(t, s.AddDecision(ctx, decision(id, 0, "auto")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: id, Index: 0, Time: t0, Status: "ok", Duration: 3 * time.Millisecond, Output: "shown"}))
}

func decision(id string, idx int, d string) history.Decision {
	return history.Decision{RequestID: id, Index: idx, Time: t0, Action: fmt.Sprintf("NOTIFY \"a\" \"%d\"", idx),
		Preview: "Show a notification", Risk: level.Caution, Reasons: []string{"shows a notification"}, Autonomy: 1, Decision: d}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// raw opens the file with plain SQLite, as someone editing it would.
func raw(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// tamperErrors lists the rows Verify named, in order.
func tamperErrors(err error) []*history.TamperError {
	var out []*history.TamperError
	var walk func(error)
	walk = func(err error) {
		var te *history.TamperError
		switch e := err.(type) {
		case nil:
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		default:
			if errors.As(err, &te) {
				out = append(out, te)
			}
		}
	}
	walk(err)
	return out
}

// fileKeys is a key store in a directory, for the crash test: the child
// process and the parent must share keys. Writes are atomic (rename), so a
// SIGKILL never leaves half a key. Tests only.
type fileKeys struct{ dir string }

func (k fileKeys) file(name string) string {
	return filepath.Join(k.dir, hex.EncodeToString([]byte(name)))
}

func (k fileKeys) Get(name string) ([]byte, error) {
	b, err := os.ReadFile(k.file(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, secrets.ErrNotFound
	}
	return b, err
}

func (k fileKeys) Set(name string, secret []byte) error {
	tmp, err := os.CreateTemp(k.dir, "tmp-")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(secret); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), k.file(name))
}

func (k fileKeys) Delete(name string) error {
	err := os.Remove(k.file(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
