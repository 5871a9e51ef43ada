package history

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// migrations[i] takes the schema from version i to i+1 (PRAGMA
// user_version). They are history: never edit one that has shipped, append.
var migrations = []string{
	`CREATE TABLE meta (
	name  TEXT PRIMARY KEY,
	value BLOB NOT NULL
) STRICT;
CREATE TABLE requests (
	seq    INTEGER PRIMARY KEY,
	id     TEXT NOT NULL UNIQUE,
	time   INTEGER NOT NULL,
	client TEXT NOT NULL,
	kind   TEXT NOT NULL,
	text   BLOB NOT NULL,
	key_id TEXT NOT NULL,
	link   BLOB NOT NULL
) STRICT;
CREATE TABLE decisions (
	seq        INTEGER PRIMARY KEY,
	request_id TEXT NOT NULL REFERENCES requests (id),
	idx        INTEGER NOT NULL,
	time       INTEGER NOT NULL,
	risk       TEXT NOT NULL,
	autonomy   INTEGER NOT NULL,
	decision   TEXT NOT NULL,
	action     BLOB NOT NULL,
	preview    BLOB NOT NULL,
	reasons    BLOB NOT NULL,
	key_id     TEXT NOT NULL,
	link       BLOB NOT NULL,
	UNIQUE (request_id, idx)
) STRICT;
CREATE TABLE outcomes (
	seq        INTEGER PRIMARY KEY,
	request_id TEXT NOT NULL,
	idx        INTEGER NOT NULL,
	time       INTEGER NOT NULL,
	approval   TEXT NOT NULL,
	status     TEXT NOT NULL,
	duration   INTEGER NOT NULL,
	output     BLOB NOT NULL,
	error      BLOB NOT NULL,
	key_id     TEXT NOT NULL,
	link       BLOB NOT NULL,
	UNIQUE (request_id, idx),
	FOREIGN KEY (request_id, idx) REFERENCES decisions (request_id, idx)
) STRICT;
CREATE TABLE model_calls (
	seq               INTEGER PRIMARY KEY,
	request_id        TEXT NOT NULL,
	time              INTEGER NOT NULL,
	endpoint          TEXT NOT NULL,
	status            INTEGER NOT NULL,
	duration          INTEGER NOT NULL,
	prompt_tokens     INTEGER NOT NULL,
	completion_tokens INTEGER NOT NULL,
	key_id            TEXT NOT NULL,
	link              BLOB NOT NULL
) STRICT;
CREATE INDEX model_calls_request ON model_calls (request_id);`,
	// The client's verified program, beside the name it gave itself.
	`ALTER TABLE requests ADD COLUMN program TEXT NOT NULL DEFAULT '';`,
	// A plan the person edited in the approval popup: the request it
	// replaced, and who edited it there.
	`ALTER TABLE requests ADD COLUMN edit_of TEXT NOT NULL DEFAULT '';
ALTER TABLE requests ADD COLUMN edited_by TEXT NOT NULL DEFAULT '';`,
	// What an action that ran unasked changed, as the gate applied, held
	// or discarded it: for the person to see and for undo.
	`CREATE TABLE changes (
	seq        INTEGER PRIMARY KEY,
	request_id TEXT NOT NULL,
	idx        INTEGER NOT NULL,
	n          INTEGER NOT NULL,
	time       INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	status     TEXT NOT NULL,
	held       INTEGER NOT NULL,
	placed     INTEGER NOT NULL,
	mode       INTEGER NOT NULL,
	size       INTEGER NOT NULL,
	old_mode   INTEGER NOT NULL,
	path       BLOB NOT NULL,
	hash       BLOB NOT NULL,
	old        BLOB NOT NULL,
	old_hash   BLOB NOT NULL,
	discarded  BLOB NOT NULL,
	note       BLOB NOT NULL,
	key_id     TEXT NOT NULL,
	link       BLOB NOT NULL,
	UNIQUE (request_id, idx, n),
	FOREIGN KEY (request_id, idx) REFERENCES decisions (request_id, idx)
) STRICT;`,
}

// A colKind says how a column is stored and chained.
type colKind uint8

const (
	textCol   colKind = iota // TEXT in clear (redacted or from a fixed set)
	intCol                   // INTEGER
	sealedCol                // BLOB: a sealed value
	// addedTextCol is a textCol a later migration added. Rows chained
	// before it existed hold '', so an empty value is left out of the link;
	// any other value is chained, and blanking it breaks the link.
	addedTextCol
)

type column struct {
	name string
	kind colKind
}

// A table describes one audit table: its columns other than seq, key_id
// and link, in the order they are chained. The same description builds the
// INSERT, the SELECT that Verify reads, and the link; TestSchema checks it
// against the migrations.
type table struct {
	name      string
	cols      []column
	insertSQL string
	selectSQL string
}

func newTable(name string, cols ...column) *table {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	list := strings.Join(names, ", ")
	return &table{
		name: name,
		cols: cols,
		insertSQL: fmt.Sprintf("INSERT INTO %s (seq, key_id, link, %s) VALUES (?, ?, ?%s)",
			name, list, strings.Repeat(", ?", len(cols))),
		selectSQL: fmt.Sprintf("SELECT seq, key_id, link, %s FROM %s ORDER BY seq", list, name),
	}
}

var (
	requestsTable = newTable("requests",
		column{"id", textCol}, column{"time", intCol}, column{"client", textCol},
		column{"kind", textCol}, column{"text", sealedCol}, column{"program", addedTextCol},
		column{"edit_of", addedTextCol}, column{"edited_by", addedTextCol})
	decisionsTable = newTable("decisions",
		column{"request_id", textCol}, column{"idx", intCol}, column{"time", intCol},
		column{"risk", textCol}, column{"autonomy", intCol}, column{"decision", textCol},
		column{"action", sealedCol}, column{"preview", sealedCol}, column{"reasons", sealedCol})
	outcomesTable = newTable("outcomes",
		column{"request_id", textCol}, column{"idx", intCol}, column{"time", intCol},
		column{"approval", textCol}, column{"status", textCol}, column{"duration", intCol},
		column{"output", sealedCol}, column{"error", sealedCol})
	modelCallsTable = newTable("model_calls",
		column{"request_id", textCol}, column{"time", intCol}, column{"endpoint", textCol},
		column{"status", intCol}, column{"duration", intCol},
		column{"prompt_tokens", intCol}, column{"completion_tokens", intCol})

	changesTable = newTable("changes",
		column{"request_id", textCol}, column{"idx", intCol}, column{"n", intCol}, column{"time", intCol},
		column{"kind", textCol}, column{"status", textCol}, column{"held", intCol}, column{"placed", intCol},
		column{"mode", intCol}, column{"size", intCol}, column{"old_mode", intCol},
		column{"path", sealedCol}, column{"hash", sealedCol}, column{"old", sealedCol},
		column{"old_hash", sealedCol}, column{"discarded", sealedCol}, column{"note", sealedCol})

	tables = []*table{requestsTable, decisionsTable, outcomesTable, modelCallsTable, changesTable}
)

// migrate brings the schema up to date, one transaction per step. It
// refuses a file written by a newer Airlock. On a new file, create runs in
// the same transaction as the first step, so a file either has its schema
// and its meta rows or neither.
func migrate(ctx context.Context, db *sql.DB, create func(*sql.Tx) error) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("the history has schema version %d; this Airlock knows up to %d", v, len(migrations))
	}
	for ; v < len(migrations); v++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
		if v == 0 {
			if err := create(tx); err != nil {
				tx.Rollback()
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
	}
	return nil
}
