package history

import (
	"context"
	"fmt"
)

// StatusInterrupted is the outcome MarkInterrupted records for an action
// whose gate stopped (crashed, was killed by the system) before it ended.
const StatusInterrupted = "interrupted"

// InterruptedError is the error MarkInterrupted records: it says what is
// known, and what is not.
const InterruptedError = "the gate stopped before this action ended (it crashed or was killed); " +
	"it may have been waiting for approval, or running, or partly done"

// MarkInterrupted records, for every action that has a decision and no
// outcome, an outcome with status StatusInterrupted, and returns how many
// it marked. Such an action was in flight when the gate that decided it
// stopped without ending it. The marks are new audit rows: the chain is
// extended, nothing is rewritten.
//
// Only the gate calls it, once it holds the gate's lock and before it
// serves anyone: an action another live gate is deciding must never be
// marked.
func (s *Store) MarkInterrupted(ctx context.Context) (int, error) {
	if err := s.live(); err != nil {
		return 0, err
	}
	type key struct {
		request string
		idx     int
	}
	rows, err := s.r.QueryContext(ctx, `SELECT d.request_id, d.idx FROM decisions d
LEFT JOIN outcomes o ON o.request_id = d.request_id AND o.idx = d.idx
WHERE o.seq IS NULL ORDER BY d.seq`)
	if err != nil {
		return 0, fmt.Errorf("finding interrupted actions: %w", err)
	}
	var open []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.request, &k.idx); err != nil {
			rows.Close()
			return 0, fmt.Errorf("finding interrupted actions: %w", err)
		}
		open = append(open, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("finding interrupted actions: %w", err)
	}
	for i, k := range open {
		if err := s.AddOutcome(ctx, Outcome{RequestID: k.request, Index: k.idx,
			Status: StatusInterrupted, Error: InterruptedError}); err != nil {
			return i, fmt.Errorf("marking action %d of request %s interrupted: %w", k.idx+1, k.request, err)
		}
	}
	return len(open), nil
}
