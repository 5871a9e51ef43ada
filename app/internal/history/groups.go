package history

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
)

// MaxGroups bounds Query.Limit: the most requests one Groups call returns.
const MaxGroups = 500

// The outcomes Query.Outcome may name besides the statuses an action ends
// with (Outcome.Status).
const (
	// OutcomeRunning selects requests with an action that has no outcome
	// yet: it is waiting for approval or running.
	OutcomeRunning = "running"
	// OutcomeNoPlan selects requests with no action at all: a request in
	// words for which the model gave no plan.
	OutcomeNoPlan = "no-plan"
)

// Outcomes are the values Query.Outcome may take besides "": every status
// an action can end with, then OutcomeRunning and OutcomeNoPlan.
func Outcomes() []string {
	return append(slices.Clone(statusValues), OutcomeRunning, OutcomeNoPlan)
}

// A Query selects requests for Groups. Its zero value (with a Limit)
// selects the newest requests.
type Query struct {
	// Client selects requests whose client's name contains it, with ASCII
	// letters matched in either case; "" selects every client.
	Client string
	// Risks selects requests with an action rated one of these levels;
	// empty selects every request, those with no action included.
	Risks []level.Level
	// Outcome selects requests with an action that ended so (a status:
	// "ok", "failed", "denied", …), or OutcomeRunning, or OutcomeNoPlan;
	// "" selects every request.
	Outcome string
	// Since and Until select requests made at or after Since and before
	// Until; the zero time leaves that end open.
	Since, Until time.Time
	// Before selects requests older than the one whose Group.Seq it is, for
	// the next page; 0 starts from the newest.
	Before int64
	// Limit is how many requests to return, newest first: 1 to MaxGroups.
	Limit int
}

// A Group is one request with everything recorded about it: the request
// (its plan, or its words), the model calls made for it, and its actions
// in plan order with their decisions and outcomes.
type Group struct {
	// Seq is the request's place in the history; Query.Before pages on it.
	Seq        int64
	Request    Request
	ModelCalls []ModelCall // oldest first
	Actions    []Entry     // in plan order; empty when no action was decided
	// Original is, for a plan the person edited in the approval popup
	// (Request.EditOf set), the request whose plan they edited; its Seq is
	// 0 if the history does not hold it.
	Original Ref
	// EditedAs is, for a request whose plan the person edited (its actions
	// ended "edited"), the request that ran the edited plan instead; zero
	// when there is none.
	EditedAs Ref
}

// A Ref names a request and its place in the history.
type Ref struct {
	ID  string
	Seq int64
}

func (q Query) check() error {
	const what = "a history query"
	switch {
	case q.Limit < 1 || q.Limit > MaxGroups:
		return fmt.Errorf("reading %s: %w: limit %d is not between 1 and %d", what, ErrInvalid, q.Limit, MaxGroups)
	case q.Before < 0:
		return fmt.Errorf("reading %s: %w: before %d is negative", what, ErrInvalid, q.Before)
	case !q.Since.IsZero() && !q.Until.IsZero() && !q.Until.After(q.Since):
		return fmt.Errorf("reading %s: %w: until (%s) is not after since (%s)", what, ErrInvalid,
			q.Until.Format(time.RFC3339), q.Since.Format(time.RFC3339))
	}
	for _, l := range q.Risks {
		if l < level.Safe || l > level.Blocked {
			return fmt.Errorf("reading %s: %w: risk %d is not a level", what, ErrInvalid, int(l))
		}
	}
	if q.Outcome != "" && !slices.Contains(Outcomes(), q.Outcome) {
		return fmt.Errorf("reading %s: %w: outcome %q is not one of %q", what, ErrInvalid, q.Outcome, Outcomes())
	}
	return nil
}

// where turns q into a WHERE clause on requests r and its arguments.
func (q Query) where() (string, []any) {
	var conds []string
	var args []any
	if q.Client != "" {
		conds = append(conds, "instr(lower(r.client), lower(?)) > 0")
		args = append(args, q.Client)
	}
	if len(q.Risks) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(q.Risks)), ", ")
		conds = append(conds, "EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id AND d.risk IN ("+marks+"))")
		for _, l := range q.Risks {
			args = append(args, l.String())
		}
	}
	switch q.Outcome {
	case "":
	case OutcomeNoPlan:
		conds = append(conds, "NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)")
	case OutcomeRunning:
		conds = append(conds, `EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id AND NOT EXISTS
			(SELECT 1 FROM outcomes o WHERE o.request_id = d.request_id AND o.idx = d.idx))`)
	default:
		conds = append(conds, "EXISTS (SELECT 1 FROM outcomes o WHERE o.request_id = r.id AND o.status = ?)")
		args = append(args, q.Outcome)
	}
	if !q.Since.IsZero() {
		conds = append(conds, "r.time >= ?")
		args = append(args, q.Since.UnixNano())
	}
	if !q.Until.IsZero() {
		conds = append(conds, "r.time < ?")
		args = append(args, q.Until.UnixNano())
	}
	if q.Before > 0 {
		conds = append(conds, "r.seq < ?")
		args = append(args, q.Before)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Groups returns the requests q selects, newest first, each with its model
// calls and its actions, decrypted. A sealed value that does not open fails
// the call with a *TamperError; a query out of bounds fails it with an
// error wrapping ErrInvalid.
func (s *Store) Groups(ctx context.Context, q Query) ([]Group, error) {
	if err := s.live(); err != nil {
		return nil, err
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	where, args := q.where()
	rows, err := s.r.QueryContext(ctx, "SELECT r.seq, r.id, r.time, r.client, r.program, r.kind, r.text, r.key_id, r.edit_of, r.edited_by FROM requests r"+
		where+" ORDER BY r.seq DESC LIMIT ?", append(args, q.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("reading history: %w", err)
	}
	groups, err := s.requestRows(rows, q.Limit)
	if err != nil || len(groups) == 0 {
		return groups, err
	}
	byID := make(map[string]*Group, len(groups))
	ids := make([]any, len(groups))
	for i := range groups {
		byID[groups[i].Request.ID] = &groups[i]
		ids[i] = groups[i].Request.ID
	}
	in := " IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"

	rows, err = s.r.QueryContext(ctx, entrySQL+" WHERE d.request_id"+in+" ORDER BY d.request_id, d.idx", ids...)
	if err != nil {
		return nil, fmt.Errorf("reading history: %w", err)
	}
	entries, err := s.entries(rows, 4*len(groups))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if g := byID[e.Request.ID]; g != nil {
			g.Actions = append(g.Actions, e)
		}
	}

	rows, err = s.r.QueryContext(ctx, `SELECT request_id, time, endpoint, status, duration, prompt_tokens, completion_tokens
		FROM model_calls WHERE request_id`+in+" ORDER BY seq", ids...)
	if err != nil {
		return nil, fmt.Errorf("reading history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m ModelCall
		var when, dur int64
		if err := rows.Scan(&m.RequestID, &when, &m.Endpoint, &m.Status, &dur, &m.PromptTokens, &m.CompletionTokens); err != nil {
			return nil, fmt.Errorf("reading history: %w", err)
		}
		m.Time, m.Duration = time.Unix(0, when), time.Duration(dur)
		if g := byID[m.RequestID]; g != nil {
			g.ModelCalls = append(g.ModelCalls, m)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading history: %w", err)
	}
	if err := s.linkEdits(ctx, groups); err != nil {
		return nil, err
	}
	return groups, nil
}

// linkEdits fills in each group's Original and EditedAs: an edited plan
// and the request whose plan the person edited name each other.
func (s *Store) linkEdits(ctx context.Context, groups []Group) error {
	var originals, edited []any
	var oldest int64
	for _, g := range groups {
		if g.Request.EditOf != "" {
			originals = append(originals, g.Request.EditOf)
		}
		if slices.ContainsFunc(g.Actions, func(e Entry) bool { return e.Outcome != nil && e.Outcome.Status == "edited" }) {
			edited = append(edited, g.Request.ID)
			if oldest == 0 || g.Seq < oldest {
				oldest = g.Seq
			}
		}
	}
	refs := func(query string, args []any, link func(ref Ref, editOf string)) error {
		if len(args) == 0 {
			return nil
		}
		rows, err := s.r.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("reading history: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var ref Ref
			var editOf string
			if err := rows.Scan(&ref.Seq, &ref.ID, &editOf); err != nil {
				return fmt.Errorf("reading history: %w", err)
			}
			link(ref, editOf)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reading history: %w", err)
		}
		return nil
	}
	in := func(n int) string { return " IN (" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")" }
	for i := range groups {
		if id := groups[i].Request.EditOf; id != "" {
			groups[i].Original = Ref{ID: id}
		}
	}
	err := refs("SELECT seq, id, edit_of FROM requests WHERE id"+in(len(originals)), originals, func(ref Ref, _ string) {
		for i := range groups {
			if groups[i].Request.EditOf == ref.ID {
				groups[i].Original = ref
			}
		}
	})
	if err != nil {
		return err
	}
	// An edit is recorded after the request it edits: only newer rows
	// are read.
	return refs("SELECT seq, id, edit_of FROM requests WHERE seq > ? AND edit_of"+in(len(edited)), append([]any{oldest}, edited...),
		func(ref Ref, editOf string) {
			for i := range groups {
				if groups[i].Request.ID == editOf {
					groups[i].EditedAs = ref
				}
			}
		})
}

// requestRows reads rows of (seq, id, time, client, program, kind, text,
// key_id, edit_of, edited_by) from requests, opening each text.
func (s *Store) requestRows(rows *sql.Rows, capacity int) ([]Group, error) {
	defer rows.Close()
	out := make([]Group, 0, min(capacity, 64))
	for rows.Next() {
		var (
			g      Group
			when   int64
			sealed []byte
			keyID  string
		)
		r := &g.Request
		if err := rows.Scan(&g.Seq, &r.ID, &when, &r.Client, &r.Program, &r.Kind, &sealed, &keyID, &r.EditOf, &r.EditedBy); err != nil {
			return nil, fmt.Errorf("reading history: %w", err)
		}
		r.Time = time.Unix(0, when)
		var err error
		if r.Text, err = s.unseal(requestsTable, g.Seq, "text", keyID, sealed); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading history: %w", err)
	}
	return out, nil
}
