package history

import (
	"context"
	"crypto/hmac"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

// A TamperError names one audit row that fails verification. It wraps
// ErrTampered.
type TamperError struct {
	Seq     int64  // the row's sequence number; for missing rows, the first one missing
	Table   string // the row's table; "" when the row is missing, "meta" for the chain head, "file" for the file as a whole
	Column  string // the sealed column that does not open, when that is the problem
	Problem string
}

func (e *TamperError) Error() string {
	switch e.Table {
	case "meta":
		return "audit chain head: " + e.Problem
	case "file":
		return "history file: " + e.Problem
	}
	s := fmt.Sprintf("audit row seq %d", e.Seq)
	if e.Table != "" {
		s += " (" + e.Table + ")"
	}
	if e.Column != "" {
		s += " column " + e.Column
	}
	return s + ": " + e.Problem
}

func (e *TamperError) Unwrap() error { return ErrTampered }

// rows names a run of rows with its verb: "row seq 5 was", "rows seq 5 to 7 were".
func rows(from, to int64) string {
	if from == to {
		return fmt.Sprintf("row seq %d was", from)
	}
	return fmt.Sprintf("rows seq %d to %d were", from, to)
}

// maxProblems bounds how many rows one Verify names.
const maxProblems = 100

// Verify walks the whole audit chain and returns nil if it is intact.
// Otherwise the error joins a *TamperError for each row that fails (up to
// a hundred), in seq order; errors.As finds the first. Errors reading the
// key store (secrets.ErrUnavailable) are returned as they are: they say
// nothing about the file.
func (s *Store) Verify(ctx context.Context) error {
	if err := s.live(); err != nil {
		return err
	}
	return verify(ctx, s.r, s.ks, s.keys, s.path)
}

// VerifyFile verifies the history at path without opening it for writing:
// it creates nothing, migrates nothing, and can run while Airlock has the
// history open. It is what `airlock audit verify` calls.
func VerifyFile(path string, ks secrets.KeyStore) error {
	if ks == nil {
		return fmt.Errorf("verifying history %s: no key store: %w", path, secrets.ErrUnavailable)
	}
	abs, err := canonical(path)
	if err != nil {
		return fmt.Errorf("verifying history: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// Gone: was one kept here?
			c, ok, cerr := readCurrent(ks, abs)
			if cerr != nil {
				return fmt.Errorf("verifying history %s: %w", path, cerr)
			}
			if ok {
				return fmt.Errorf("verifying history %s: %w", path, &TamperError{Table: "file", Problem: fmt.Sprintf(
					"it is missing: the history kept here, %s (%s), was moved aside or deleted", short(c.dbID), anchoredAt(ks, c.dbID))})
			}
		}
		return fmt.Errorf("verifying history: %w", err)
	}
	db, err := sql.Open(driverName, dsn(abs, readParams+"&mode=rw"))
	if err != nil {
		return fmt.Errorf("verifying history %s: %w", path, err)
	}
	defer db.Close()
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("verifying history %s: %w", path, err)
	}
	if version == 0 {
		return fmt.Errorf("verifying history %s: it was never initialised", path)
	}
	if err := verify(context.Background(), db, ks, newKeys(ks), abs); err != nil {
		return fmt.Errorf("verifying history %s: %w", path, err)
	}
	return nil
}

// stored is one row as read back: vals holds t.cols in order, text as
// string, integers as int64, sealed columns as []byte.
type stored struct {
	t     *table
	seq   int64
	keyID string
	link  []byte
	vals  []any
	bad   string // set when a column has the wrong type
}

// cursor reads one table in seq order.
type cursor struct {
	t    *table
	rows *sql.Rows
	cur  stored
	ok   bool
	raw  []any
	dest []any
}

func newCursor(ctx context.Context, q querier, t *table) (*cursor, error) {
	query, err := selectFor(ctx, q, t)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c := &cursor{t: t, rows: rows, raw: make([]any, 3+len(t.cols))}
	c.dest = make([]any, len(c.raw))
	for i := range c.raw {
		c.dest[i] = &c.raw[i]
	}
	return c, c.next()
}

// selectFor is t's SELECT for the file as it is: VerifyFile migrates
// nothing, so a file of an older schema may lack columns a later migration
// added (addedTextCol), which read as ”, as the migration would fill them,
// or the whole table (changes), which reads as no rows.
func selectFor(ctx context.Context, q querier, t *table) (string, error) {
	rows, err := q.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", t.name)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return "", err
		}
		have[name] = true
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(have) == 0 {
		// A table a later migration made: none of its rows to read.
		return "SELECT 1 WHERE 0", nil
	}
	names := make([]string, len(t.cols))
	missing := false
	for i, c := range t.cols {
		names[i] = c.name
		if !have[c.name] && c.kind == addedTextCol {
			names[i] = "'' AS " + c.name
			missing = true
		}
	}
	if !missing {
		return t.selectSQL, nil
	}
	return fmt.Sprintf("SELECT seq, key_id, link, %s FROM %s ORDER BY seq", strings.Join(names, ", "), t.name), nil
}

func (c *cursor) next() error {
	if c.ok = c.rows.Next(); !c.ok {
		return c.rows.Err()
	}
	if err := c.rows.Scan(c.dest...); err != nil {
		return err
	}
	r := stored{t: c.t, vals: make([]any, len(c.t.cols))}
	var ok bool
	if r.seq, ok = c.raw[0].(int64); !ok {
		return fmt.Errorf("%w: a row of %s has a seq of type %T", ErrTampered, c.t.name, c.raw[0])
	}
	r.keyID, _ = asText(c.raw[1])
	r.link, _ = c.raw[2].([]byte)
	for i, col := range c.t.cols {
		v := c.raw[3+i]
		switch col.kind {
		case textCol, addedTextCol:
			s, ok := asText(v)
			if !ok {
				r.bad = col.name
			}
			r.vals[i] = s
		case intCol:
			n, ok := v.(int64)
			if !ok {
				r.bad = col.name
			}
			r.vals[i] = n
		case sealedCol:
			b, ok := v.([]byte)
			if !ok {
				r.bad = col.name
			}
			r.vals[i] = b
		}
	}
	c.cur = r
	return nil
}

func asText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

func verify(ctx context.Context, db *sql.DB, ks secrets.KeyStore, k *keys, abs string) error {
	tx, err := db.BeginTx(ctx, nil) // one snapshot for the whole walk
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var problems []error
	report := func(e *TamperError) {
		if len(problems) < maxProblems {
			problems = append(problems, e)
		} else if len(problems) == maxProblems {
			problems = append(problems, fmt.Errorf("%w: more problems not listed", ErrTampered))
		}
	}

	id, err := meta(ctx, tx, "db_id")
	if err != nil {
		return err
	}
	dbID := string(id)
	// Is this the history kept here (current.go)?
	if c, ok, err := readCurrent(ks, abs); err != nil && !errors.Is(err, ErrTampered) {
		return err
	} else if err != nil {
		report(&TamperError{Table: "file", Problem: strings.TrimPrefix(err.Error(), ErrTampered.Error()+": ")})
	} else if ok {
		if p := checkCurrent(ks, c, dbID); p != "" {
			report(&TamperError{Table: "file", Problem: p})
		}
	}
	headOK := true
	var recorded head
	if blob, err := meta(ctx, tx, "head"); err != nil {
		return err
	} else if recorded, err = checkedHead(dbID, blob, k); errors.Is(err, ErrTampered) {
		report(&TamperError{Table: "meta", Problem: strings.TrimPrefix(err.Error(), ErrTampered.Error()+": ")})
		headOK = false
	} else if err != nil {
		return err
	}

	var cursors []*cursor
	for _, t := range tables {
		c, err := newCursor(ctx, tx, t)
		if err != nil {
			return err
		}
		defer c.rows.Close()
		cursors = append(cursors, c)
	}

	prev, prevTable := head{seq: 0, link: genesis(dbID)}, "the start"
	for {
		var c *cursor
		for _, x := range cursors {
			if x.ok && (c == nil || x.cur.seq < c.cur.seq) {
				c = x
			}
		}
		if c == nil {
			break
		}
		r := c.cur
		if err := c.next(); err != nil {
			return err
		}
		name := r.t.name
		gap := false
		switch {
		case r.seq <= 0:
			report(&TamperError{Seq: r.seq, Table: name, Problem: "seq is not positive"})
			continue
		case r.seq == prev.seq:
			report(&TamperError{Seq: r.seq, Table: name, Problem: "seq is used twice (also in " + prevTable + ")"})
			continue
		case r.seq > prev.seq+1:
			report(&TamperError{Seq: prev.seq + 1, Problem: fmt.Sprintf(
				"missing: %s deleted (between seq %d in %s and seq %d in %s)",
				rows(prev.seq+1, r.seq-1), prev.seq, prevTable, r.seq, name)})
			gap = true // this row's link cannot match; the gap is the news
		}
		prevLink := prev.link
		prev, prevTable = head{seq: r.seq, link: r.link}, name
		if r.bad != "" {
			report(&TamperError{Seq: r.seq, Table: name, Column: r.bad, Problem: "the column has the wrong type"})
			continue
		}
		kr, err := k.get(r.keyID)
		if errors.Is(err, errUnknownKey) {
			report(&TamperError{Seq: r.seq, Table: name, Problem: fmt.Sprintf("its key id %q is not in the key store", r.keyID)})
			continue
		}
		if err != nil {
			return err
		}
		for i, col := range r.t.cols {
			if col.kind != sealedCol {
				continue
			}
			if _, err := kr.open(name, r.seq, col.name, r.vals[i].([]byte)); err != nil {
				report(&TamperError{Seq: r.seq, Table: name, Column: col.name,
					Problem: "the sealed value does not open: it was altered, or moved from another row or column"})
			}
		}
		if !gap && !hmac.Equal(kr.link(prevLink, r.t, r.seq, r.vals), r.link) {
			report(&TamperError{Seq: r.seq, Table: name,
				Problem: "the chain link does not match: the row was edited, or rows were inserted or reordered here"})
		}
	}

	// The end: the recorded head and the anchor from the last Close.
	if headOK {
		switch {
		case recorded.seq > prev.seq:
			report(&TamperError{Seq: prev.seq + 1, Problem: fmt.Sprintf(
				"missing: the chain head records seq %d, so %s cut from the end",
				recorded.seq, rows(prev.seq+1, recorded.seq))})
		case recorded.seq < prev.seq:
			_, where, err := linkAt(ctx, tx, recorded.seq+1)
			if err != nil {
				return err
			}
			report(&TamperError{Seq: recorded.seq + 1, Table: where, Problem: fmt.Sprintf(
				"%s written past the chain head, outside Airlock", rows(recorded.seq+1, prev.seq))})
		case !hmac.Equal(recorded.link, prev.link):
			report(&TamperError{Seq: prev.seq, Table: prevTable, Problem: "the last row is not the one the chain head records"})
		}
	}
	a, ok, err := readAnchor(ks, dbID)
	if err != nil {
		return err
	}
	if ok {
		if a.seq > prev.seq {
			report(&TamperError{Seq: prev.seq + 1, Problem: fmt.Sprintf(
				"missing: the history was anchored at seq %d when last closed, so %s cut or rolled back",
				a.seq, rows(prev.seq+1, a.seq))})
		} else if link, where, err := linkAt(ctx, tx, a.seq); err != nil {
			return err
		} else if !hmac.Equal(link, a.link) {
			report(&TamperError{Seq: a.seq, Table: where, Problem: "the row differs from the one anchored when the history was last closed"})
		}
	}
	return errors.Join(problems...)
}
