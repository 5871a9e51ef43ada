package history

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
)

// AddRequest records a request. Like every Add method it returns once the
// record is durable (committed with synchronous=FULL), or with the error
// that kept it out. If ctx ends first it returns ctx's error, and the
// record may or may not have been written. A request is refused while the
// disk that holds the history is nearly full (roomFor).
func (s *Store) AddRequest(ctx context.Context, r Request) error {
	if err := roomFor(s.path); err != nil {
		return fmt.Errorf("recording a request: %w", err)
	}
	return s.add(ctx, requestsTable, r.values)
}

// AddDecision records the gate's decision on one action. The gate calls it
// before the action runs. The request must have been recorded.
func (s *Store) AddDecision(ctx context.Context, d Decision) error {
	return s.add(ctx, decisionsTable, d.values)
}

// AddOutcome records how an action ended. Its decision must have been
// recorded, and an action has one outcome.
func (s *Store) AddOutcome(ctx context.Context, o Outcome) error {
	return s.add(ctx, outcomesTable, o.values)
}

// AddModelCall records one call to a language model.
func (s *Store) AddModelCall(ctx context.Context, m ModelCall) error {
	return s.add(ctx, modelCallsTable, m.values)
}

// AddFileChanges records what one action changed, all of it in one
// transaction: the records are written together or not at all. The
// action's decision must have been recorded.
func (s *Store) AddFileChanges(ctx context.Context, cs []FileChange) error {
	if len(cs) == 0 {
		return nil
	}
	rows := make([][]any, len(cs))
	for i, c := range cs {
		vals, err := c.values()
		if err != nil {
			return fmt.Errorf("change %d: %w", i+1, err)
		}
		rows[i] = vals
	}
	return s.submit(ctx, &job{t: changesTable, vals: rows[0], more: rows[1:]})
}

// Rotate makes a new key, stores it in the key store and seals every
// later row with it. Earlier rows keep their key id and still open: old
// keys stay in the key store. It returns the new key's id.
func (s *Store) Rotate(ctx context.Context) (string, error) {
	if err := s.live(); err != nil {
		return "", err
	}
	kr, err := s.keys.create()
	if err != nil {
		return "", fmt.Errorf("rotating the history key: %w", err)
	}
	if err := s.submit(ctx, &job{rotate: kr}); err != nil {
		return "", fmt.Errorf("rotating the history key: %w", err)
	}
	return kr.id, nil
}

func (s *Store) live() error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	return nil
}

// add redacts and checks the record in the caller's goroutine, so that
// work runs in parallel, then hands it to the writer.
func (s *Store) add(ctx context.Context, t *table, values func() ([]any, error)) error {
	vals, err := values()
	if err != nil {
		return err
	}
	return s.submit(ctx, &job{t: t, vals: vals})
}

func (s *Store) submit(ctx context.Context, j *job) error {
	return s.queue(ctx, j).Wait(ctx)
}

// A Pending is a record handed to the writer (QueueRequest,
// QueueDecision) that its caller has not waited for yet.
type Pending struct {
	res <-chan error
	err error // the record was never handed over
}

// Wait returns once the record is durable, or with the error that kept it
// out, as the Add methods do. If ctx ends first it returns ctx's error, and
// the record may or may not have been written. Wait once.
func (p Pending) Wait(ctx context.Context) error {
	if p.err != nil {
		return p.err
	}
	select {
	case err := <-p.res:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// QueueRequest is AddRequest without the wait: it hands the request to the
// writer and returns, and Wait says when it is durable. Records one
// goroutine queues, or adds, are written in the order it gave them, so a
// caller may queue a request and then its decisions, and the writer may
// commit them together; a decision whose request did not commit fails. A
// request is refused while the disk is nearly full, as AddRequest's is.
func (s *Store) QueueRequest(ctx context.Context, r Request) Pending {
	if err := roomFor(s.path); err != nil {
		return Pending{err: err}
	}
	return s.queueRecord(ctx, requestsTable, r.values)
}

// QueueDecision is AddDecision without the wait (see QueueRequest).
func (s *Store) QueueDecision(ctx context.Context, d Decision) Pending {
	return s.queueRecord(ctx, decisionsTable, d.values)
}

func (s *Store) queueRecord(ctx context.Context, t *table, values func() ([]any, error)) Pending {
	vals, err := values()
	if err != nil {
		return Pending{err: err}
	}
	return s.queue(ctx, &job{t: t, vals: vals})
}

// queue hands j to the writer: jobs is a FIFO the writer takes in order,
// and it writes a batch in that order.
func (s *Store) queue(ctx context.Context, j *job) Pending {
	res := make(chan error, 1)
	j.res = res
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return Pending{err: ErrClosed}
	}
	select {
	case s.jobs <- j:
		return Pending{res: res}
	case <-ctx.Done():
		return Pending{err: ctx.Err()}
	}
}

// run is the writer: it takes every pending job, commits them in one
// transaction, answers each, and repeats until jobs is closed.
func (s *Store) run() {
	defer close(s.done)
	batch := make([]*job, 0, maxBatch)
	for j := range s.jobs {
		batch = append(batch[:0], j)
	fill:
		for len(batch) < maxBatch {
			select {
			case j, ok := <-s.jobs:
				if !ok {
					break fill
				}
				batch = append(batch, j)
			default:
				break fill
			}
		}
		s.write(batch)
	}
}

// write commits a batch. If the batch fails, each job is retried alone, so
// a bad record (say, an outcome for an unknown action) fails only its own
// caller.
func (s *Store) write(batch []*job) {
	err := s.commit(batch)
	if err == nil || len(batch) == 1 {
		for _, j := range batch {
			j.res <- err
		}
		return
	}
	for _, j := range batch {
		j.res <- s.commit([]*job{j})
	}
}

func (s *Store) commit(batch []*job) (err error) {
	ctx := context.Background() // a batch is not cancelled for one caller
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	h, cur, err := s.sync(ctx, tx)
	if err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	stmts := make(map[*table]*sql.Stmt, len(tables))
	for _, j := range batch {
		if j.rotate != nil {
			if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = ? WHERE name = 'key_id'", []byte(j.rotate.id)); err != nil {
				return fmt.Errorf("writing history: %w", err)
			}
			cur = j.rotate
			continue
		}
		st := stmts[j.t]
		if st == nil {
			st = tx.StmtContext(ctx, s.ins[j.t])
			stmts[j.t] = st
		}
		for _, row := range append([][]any{j.vals}, j.more...) {
			seq := h.seq + 1
			args := make([]any, 3+len(j.t.cols))
			vals := args[3:]
			for i, c := range j.t.cols {
				vals[i] = row[i]
				if c.kind == sealedCol {
					vals[i] = cur.seal(j.t.name, seq, c.name, row[i].(string))
				}
			}
			link := cur.link(h.link, j.t, seq, vals)
			args[0], args[1], args[2] = seq, cur.id, link
			if _, err := st.ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("writing history: %s: %w", j.t.name, err)
			}
			h = head{seq: seq, link: link}
		}
	}
	blob := cur.encodeHead(s.dbID, h)
	if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = ? WHERE name = 'head'", blob); err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("writing history: %w", err)
	}
	s.head, s.headBlob, s.cur = h, blob, cur
	s.anchor()
	return nil
}

// anchor keeps the key store's anchor of the chain within anchorEvery rows
// of the head (current.go says why not at every row). The anchorer writes
// it, so no caller waits on the key store; while it is busy the head is
// handed over at a later commit. Close anchors the end.
func (s *Store) anchor() {
	if s.head.seq-s.anchored < anchorEvery {
		return
	}
	select {
	case s.anchors <- s.head:
		s.anchored = s.head.seq
	default:
	}
}

// anchorer writes the heads anchor hands it to the key store, until Close.
// A write the key store refuses is not retried: the next one, or Close's,
// covers it.
func (s *Store) anchorer() {
	defer close(s.anchorsDone)
	for h := range s.anchors {
		s.ks.Set(anchorName(s.dbID), encodeAnchor(h))
	}
}

// sync returns the head and current key as the file has them now. They are
// the writer's own unless another process wrote since: then they are
// reread and checked, so two writers take turns instead of forking the
// chain.
func (s *Store) sync(ctx context.Context, tx *sql.Tx) (head, *keyring, error) {
	blob, err := meta(ctx, tx, "head")
	if err != nil {
		return head{}, nil, err
	}
	if bytes.Equal(blob, s.headBlob) {
		return s.head, s.cur, nil
	}
	st, err := readState(ctx, tx, s.keys)
	if err != nil {
		return head{}, nil, err
	}
	s.head, s.headBlob, s.cur = st.head, st.headBlob, st.cur
	return st.head, st.cur, nil
}
