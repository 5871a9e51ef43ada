package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/redact"
)

// entrySQL joins each decision with its request and, when there is one,
// its outcome. Callers add WHERE, ORDER BY and LIMIT.
const entrySQL = `SELECT
	r.seq, r.id, r.time, r.client, r.program, r.kind, r.text, r.key_id, r.edit_of, r.edited_by,
	d.seq, d.idx, d.time, d.risk, d.autonomy, d.decision, d.action, d.preview, d.reasons, d.key_id,
	o.seq, o.time, o.approval, o.status, o.duration, o.output, o.error, o.key_id
FROM decisions d
JOIN requests r ON r.id = d.request_id
LEFT JOIN outcomes o ON o.request_id = d.request_id AND o.idx = d.idx`

// Recent returns the last n actions, newest first, decrypted. A sealed
// value that does not open fails the call with a *TamperError.
func (s *Store) Recent(ctx context.Context, n int) ([]Entry, error) {
	if err := s.live(); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	rows, err := s.r.QueryContext(ctx, entrySQL+" ORDER BY d.seq DESC LIMIT ?", n)
	if err != nil {
		return nil, fmt.Errorf("reading history: %w", err)
	}
	return s.entries(rows, min(n, 1024))
}

// Request returns one request and its actions in plan order, decrypted,
// or an error wrapping ErrNotFound.
func (s *Store) Request(ctx context.Context, id string) (Request, []Entry, error) {
	if err := s.live(); err != nil {
		return Request{}, nil, err
	}
	id = redact.String(id) // ids are stored redacted
	var (
		seq          int64
		when         int64
		sealed       []byte
		keyID        string
		r            = Request{ID: id}
		client, kind string
		program      string
	)
	err := s.r.QueryRowContext(ctx, "SELECT seq, time, client, program, kind, text, key_id, edit_of, edited_by FROM requests WHERE id = ?", id).
		Scan(&seq, &when, &client, &program, &kind, &sealed, &keyID, &r.EditOf, &r.EditedBy)
	if errors.Is(err, sql.ErrNoRows) {
		return Request{}, nil, fmt.Errorf("reading request %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Request{}, nil, fmt.Errorf("reading request %q: %w", id, err)
	}
	r.Time, r.Client, r.Program, r.Kind = time.Unix(0, when), client, program, kind
	if r.Text, err = s.unseal(requestsTable, seq, "text", keyID, sealed); err != nil {
		return Request{}, nil, err
	}
	rows, err := s.r.QueryContext(ctx, entrySQL+" WHERE d.request_id = ? ORDER BY d.idx", id)
	if err != nil {
		return Request{}, nil, fmt.Errorf("reading request %q: %w", id, err)
	}
	es, err := s.entries(rows, 8)
	return r, es, err
}

// unseal opens one sealed cell, naming the row if it does not open.
func (s *Store) unseal(t *table, seq int64, col, keyID string, sealed []byte) (string, error) {
	kr, err := s.keys.get(keyID)
	if errors.Is(err, errUnknownKey) {
		return "", &TamperError{Seq: seq, Table: t.name, Problem: fmt.Sprintf("its key id %q is not in the key store", keyID)}
	}
	if err != nil {
		return "", fmt.Errorf("reading history: %w", err)
	}
	p, err := kr.open(t.name, seq, col, sealed)
	if err != nil {
		return "", &TamperError{Seq: seq, Table: t.name, Column: col,
			Problem: "the sealed value does not open: it was altered, or moved from another row or column"}
	}
	return p, nil
}

func (s *Store) entries(rows *sql.Rows, capacity int) ([]Entry, error) {
	defer rows.Close()
	out := make([]Entry, 0, capacity)
	plans := map[int64]string{} // a request's text, opened once
	for rows.Next() {
		var (
			rSeq, rTime                int64
			rText                      []byte
			rKey                       string
			dSeq, dIdx, dTime, dAuto   int64
			dRisk                      string
			dAction, dPreview, dReason []byte
			dKey                       string
			oSeq, oTime, oDur          sql.NullInt64
			oApproval, oStatus, oKey   sql.NullString
			oOutput, oError            []byte
			e                          Entry
		)
		if err := rows.Scan(
			&rSeq, &e.Request.ID, &rTime, &e.Request.Client, &e.Request.Program, &e.Request.Kind, &rText, &rKey, &e.Request.EditOf, &e.Request.EditedBy,
			&dSeq, &dIdx, &dTime, &dRisk, &dAuto, &e.Decision.Decision, &dAction, &dPreview, &dReason, &dKey,
			&oSeq, &oTime, &oApproval, &oStatus, &oDur, &oOutput, &oError, &oKey,
		); err != nil {
			return nil, fmt.Errorf("reading history: %w", err)
		}
		var err error
		e.Request.Time = time.Unix(0, rTime)
		if text, ok := plans[rSeq]; ok {
			e.Request.Text = text
		} else {
			if e.Request.Text, err = s.unseal(requestsTable, rSeq, "text", rKey, rText); err != nil {
				return nil, err
			}
			plans[rSeq] = e.Request.Text
		}

		d := &e.Decision
		d.RequestID, d.Index, d.Time, d.Autonomy = e.Request.ID, int(dIdx), time.Unix(0, dTime), int(dAuto)
		if d.Risk, err = level.Parse(dRisk); err != nil {
			return nil, &TamperError{Seq: dSeq, Table: decisionsTable.name, Column: "risk", Problem: fmt.Sprintf("%q is not a risk level", dRisk)}
		}
		if d.Action, err = s.unseal(decisionsTable, dSeq, "action", dKey, dAction); err != nil {
			return nil, err
		}
		if d.Preview, err = s.unseal(decisionsTable, dSeq, "preview", dKey, dPreview); err != nil {
			return nil, err
		}
		reasons, err := s.unseal(decisionsTable, dSeq, "reasons", dKey, dReason)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(reasons), &d.Reasons); err != nil {
			return nil, &TamperError{Seq: dSeq, Table: decisionsTable.name, Column: "reasons", Problem: "the reasons are not a JSON list"}
		}

		if oSeq.Valid {
			o := &Outcome{RequestID: e.Request.ID, Index: d.Index, Time: time.Unix(0, oTime.Int64),
				Approval: oApproval.String, Status: oStatus.String, Duration: time.Duration(oDur.Int64)}
			if o.Output, err = s.unseal(outcomesTable, oSeq.Int64, "output", oKey.String, oOutput); err != nil {
				return nil, err
			}
			if o.Error, err = s.unseal(outcomesTable, oSeq.Int64, "error", oKey.String, oError); err != nil {
				return nil, err
			}
			e.Outcome = o
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading history: %w", err)
	}
	return out, nil
}

// FileChanges returns what request id's actions changed (AddFileChanges),
// in the order of the actions and of the changes, decrypted; none for a
// request that changed nothing or is unknown.
func (s *Store) FileChanges(ctx context.Context, id string) ([]FileChange, error) {
	if err := s.live(); err != nil {
		return nil, err
	}
	id = redact.String(id) // ids are stored redacted
	rows, err := s.r.QueryContext(ctx, `SELECT seq, key_id, idx, n, time, kind, status, held, placed, mode, size, old_mode,
	path, hash, old, old_hash, discarded, note FROM changes WHERE request_id = ? ORDER BY idx, n`, id)
	if err != nil {
		return nil, fmt.Errorf("reading the changes of request %q: %w", id, err)
	}
	defer rows.Close()
	var out []FileChange
	for rows.Next() {
		var (
			seq, idx, n, when, held, placed, mode, oldMode int64
			keyID                                          string
			sealed                                         [6][]byte
			c                                              = FileChange{RequestID: id}
		)
		if err := rows.Scan(&seq, &keyID, &idx, &n, &when, &c.Kind, &c.Status, &held, &placed, &mode, &c.Size, &oldMode,
			&sealed[0], &sealed[1], &sealed[2], &sealed[3], &sealed[4], &sealed[5]); err != nil {
			return nil, fmt.Errorf("reading the changes of request %q: %w", id, err)
		}
		c.Index, c.N, c.Time = int(idx), int(n), time.Unix(0, when)
		c.Held, c.Placed, c.Mode, c.OldMode = held != 0, placed != 0, uint32(mode), uint32(oldMode)
		dst := []*string{&c.Path, &c.Hash, &c.Old, &c.OldHash, &c.Discarded, &c.Note}
		for i, col := range []string{"path", "hash", "old", "old_hash", "discarded", "note"} {
			if *dst[i], err = s.unseal(changesTable, seq, col, keyID, sealed[i]); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the changes of request %q: %w", id, err)
	}
	return out, nil
}
