package history_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// fixture writes a history whose rows are, by seq:
//
//	1 requests r1   2 decisions r1/0   3 outcomes r1/0
//	4 requests r2   5 decisions r2/0   6 decisions r2/1   7 outcomes r2/0
//	8 model_calls   9 outcomes r2/1
//
// and closes it (anchoring seq 9).
func fixture(t *testing.T) (string, *secrets.Memory) {
	t.Helper()
	s, path, ks := open(t)
	ctx := context.Background()
	action(t, s, "r1")
	must(t, s.AddRequest(ctx, history.Request{ID: "r2", Time: t0, Client: "cli", Kind: "plan", Text: "two actions"}))
	must(t, s.AddDecision(ctx, decision("r2", 0, "auto")))
	must(t, s.AddDecision(ctx, decision("r2", 1, "ask")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "r2", Index: 0, Status: "ok", Output: "done 0"}))
	must(t, s.AddModelCall(ctx, history.ModelCall{RequestID: "r2", Endpoint: "http://localhost:11434/api/chat", Status: 200, Duration: time.Second}))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "r2", Index: 1, Approval: "denied", Status: "refused", Output: "denied by the person"}))
	must(t, s.Close())
	must(t, history.VerifyFile(path, ks))
	return path, ks
}

func edit(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// patch rewrites one cell's bytes; key is the row's seq, or its name in meta.
func patch(t *testing.T, db *sql.DB, table, col string, key any, f func([]byte) []byte) {
	t.Helper()
	where := "seq"
	if table == "meta" {
		where = "name"
	}
	var b []byte
	must(t, db.QueryRow("SELECT "+col+" FROM "+table+" WHERE "+where+" = ?", key).Scan(&b))
	edit := "UPDATE " + table + " SET " + col + " = ? WHERE " + where + " = ?"
	if _, err := db.Exec(edit, f(b), key); err != nil {
		t.Fatalf("%s: %v", edit, err)
	}
}

// TestTamper edits the file with plain SQLite, as someone without the key
// would, and checks that Verify names the right row first, and that Open
// refuses where the end of the chain was touched.
func TestTamper(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, db *sql.DB, path string)
		seq    int64
		table  string
		column string
		says   string // in the first problem's text
		noOpen bool   // Open must refuse with ErrTampered
	}{
		{name: "edit a sealed column",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				patch(t, db, "decisions", "action", 5, func(b []byte) []byte { b[20] ^= 1; return b })
			},
			seq: 5, table: "decisions", column: "action", says: "does not open"},
		{name: "edit a clear column",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "UPDATE decisions SET decision = 'auto' WHERE seq = 6")
			},
			seq: 6, table: "decisions", says: "chain link"},
		{name: "edit a time",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "UPDATE requests SET time = time + 1 WHERE seq = 4")
			},
			seq: 4, table: "requests", says: "chain link"},
		{name: "delete a middle row",
			tamper: func(t *testing.T, db *sql.DB, _ string) { edit(t, db, "DELETE FROM decisions WHERE seq = 5") },
			seq:    5, says: "deleted"},
		{name: "delete a row and renumber the rest",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "DELETE FROM model_calls WHERE seq = 8", "UPDATE outcomes SET seq = 8 WHERE seq = 9")
			},
			seq: 8, table: "outcomes", column: "output", says: "does not open", noOpen: true},
		{name: "swap two rows",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "UPDATE decisions SET seq = -5 WHERE seq = 5", "UPDATE decisions SET seq = 5 WHERE seq = 6",
					"UPDATE decisions SET seq = 6 WHERE seq = -5")
			},
			seq: 5, table: "decisions", column: "action", says: "does not open"},
		{name: "swap sealed values between rows",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "UPDATE outcomes SET output = (SELECT output FROM outcomes o WHERE o.seq = 3) WHERE seq = 7")
			},
			seq: 7, table: "outcomes", column: "output", says: "moved from another row"},
		{name: "swap sealed values between columns",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "UPDATE decisions SET action = preview, preview = action WHERE seq = 2")
			},
			seq: 2, table: "decisions", column: "action", says: "does not open"},
		{name: "delete the last row",
			tamper: func(t *testing.T, db *sql.DB, _ string) { edit(t, db, "DELETE FROM outcomes WHERE seq = 9") },
			seq:    9, says: "cut from the end", noOpen: true},
		{name: "append a forged row",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "INSERT INTO model_calls SELECT 10, request_id, time, endpoint, status, duration, prompt_tokens, completion_tokens, key_id, link FROM model_calls WHERE seq = 8")
			},
			seq: 10, table: "model_calls", says: "chain link", noOpen: true},
		{name: "seq used twice",
			tamper: func(t *testing.T, db *sql.DB, _ string) { edit(t, db, "UPDATE model_calls SET seq = 7 WHERE seq = 8") },
			seq:    7, table: "model_calls", says: "used twice"},
		{name: "unknown key id",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				edit(t, db, "UPDATE requests SET key_id = '0123456789abcdef' WHERE seq = 1")
			},
			seq: 1, table: "requests", says: "not in the key store"},
		{name: "head moved back",
			tamper: func(t *testing.T, db *sql.DB, _ string) {
				var link []byte
				must(t, db.QueryRow("SELECT link FROM model_calls WHERE seq = 8").Scan(&link))
				edit(t, db, "DELETE FROM outcomes WHERE seq = 9")
				patch(t, db, "meta", "value", "head", func(b []byte) []byte { b[7] = 8; copy(b[8:40], link); return b })
			},
			table: "meta", says: "HMAC", noOpen: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, ks := fixture(t)
			db := raw(t, path)
			tt.tamper(t, db, path)
			must(t, db.Close())

			err := history.VerifyFile(path, ks)
			if !errors.Is(err, history.ErrTampered) {
				t.Fatalf("VerifyFile: %v, want ErrTampered", err)
			}
			te := tamperErrors(err)
			if len(te) == 0 {
				t.Fatalf("VerifyFile named no row: %v", err)
			}
			t.Logf("VerifyFile: %v", err)
			first := te[0]
			if first.Seq != tt.seq || first.Table != tt.table || first.Column != tt.column || !strings.Contains(first.Problem, tt.says) {
				t.Errorf("first problem = %q (seq %d, table %q, column %q); want seq %d, table %q, column %q, saying %q\nall: %v",
					first, first.Seq, first.Table, first.Column, tt.seq, tt.table, tt.column, tt.says, err)
			}
			_, err = history.Open(path, ks)
			if tt.noOpen && !errors.Is(err, history.ErrTampered) {
				t.Errorf("Open after tampering: %v, want ErrTampered", err)
			}
		})
	}
}

// TestRollback: replacing the file with an older copy of itself is caught
// by the anchor Close left in the key store.
func TestRollback(t *testing.T) {
	s, path, ks := open(t)
	action(t, s, "a")
	must(t, s.Close())
	old, err := os.ReadFile(path)
	must(t, err)

	s2, err := history.Open(path, ks)
	must(t, err)
	action(t, s2, "b")
	must(t, s2.Close())
	must(t, history.VerifyFile(path, ks))

	must(t, os.WriteFile(path, old, 0o600))
	err = history.VerifyFile(path, ks)
	te := tamperErrors(err)
	if len(te) != 1 || te[0].Seq != 4 || !strings.Contains(te[0].Problem, "anchored at seq 6") {
		t.Fatalf("VerifyFile of a rolled-back file: %v", err)
	}
	if _, err := history.Open(path, ks); !errors.Is(err, history.ErrTampered) {
		t.Fatalf("Open of a rolled-back file: %v, want ErrTampered", err)
	}
}

// TestVerifyOpenStore: Verify on an open store sees what was written and
// what was changed under it.
func TestVerifyOpenStore(t *testing.T) {
	s, path, _ := open(t)
	ctx := context.Background()
	action(t, s, "a")
	action(t, s, "b")
	must(t, s.Verify(ctx))
	edit(t, raw(t, path), "UPDATE outcomes SET status = 'ok', duration = 0 WHERE seq = 6")
	te := tamperErrors(s.Verify(ctx))
	if len(te) != 1 || te[0].Seq != 6 || te[0].Table != "outcomes" {
		t.Fatalf("Verify after an edit: %v", te)
	}
}
