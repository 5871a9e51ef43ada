package history

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestSchema checks the Go description of each table, which builds the
// INSERTs, Verify's SELECTs and the chain links, against the tables the
// migrations create: same columns, and sealed columns are BLOBs.
func TestSchema(t *testing.T) {
	db, err := sql.Open(driverName, dsn(filepath.Join(t.TempDir(), "h.db"), writeParams))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := migrate(ctx, db, func(*sql.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for _, tab := range tables {
		rows, err := db.QueryContext(ctx, "SELECT name, type FROM pragma_table_info(?)", tab.name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		types := map[string]string{}
		for rows.Next() {
			var name, typ string
			if err := rows.Scan(&name, &typ); err != nil {
				t.Fatal(err)
			}
			got = append(got, name)
			types[name] = typ
		}
		rows.Close()
		want := []string{"seq", "key_id", "link"}
		for _, c := range tab.cols {
			want = append(want, c.name)
			wantType := map[colKind]string{textCol: "TEXT", addedTextCol: "TEXT", intCol: "INTEGER", sealedCol: "BLOB"}[c.kind]
			if types[c.name] != wantType {
				t.Errorf("%s.%s is %s in SQL, %s in Go", tab.name, c.name, types[c.name], wantType)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: SQL has columns %v, Go describes %v", tab.name, got, want)
		}
	}
}

// TestPragmas: the writer connection really runs with WAL, synchronous=FULL,
// foreign keys, secure delete and a busy timeout, and readers cannot write.
func TestPragmas(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "h.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, p := range []struct {
		db   *sql.DB
		name string
		want string
	}{
		{s.w, "journal_mode", "wal"},
		{s.w, "synchronous", "2"},
		{s.w, "foreign_keys", "1"},
		{s.w, "secure_delete", "1"},
		{s.w, "busy_timeout", "5000"},
		{s.r, "query_only", "1"},
		{s.r, "busy_timeout", "5000"},
	} {
		var got string
		if err := p.db.QueryRowContext(ctx, "PRAGMA "+p.name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != p.want {
			t.Errorf("PRAGMA %s = %s, want %s", p.name, got, p.want)
		}
	}
}
