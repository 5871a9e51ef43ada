package history

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/redact"
)

// A Request is one piece of work a client submitted: a plan, or a request
// in words that a model turned into a plan.
type Request struct {
	ID     string    // unique; given by the gate
	Time   time.Time // zero means now
	Client string    // the name the client gave itself (stored redacted, in clear)
	// Program is the client's program as the operating system vouched for
	// it ("/usr/bin/foo (pid 123)"), "" when unverified (stored redacted,
	// in clear).
	Program string
	Kind    string // "plan", "ask", "mcp", … (stored redacted, in clear)
	Text    string // the plan text (redacted, then sealed)
	// EditOf is, for a plan the person edited in the approval popup, the
	// id of the request whose plan they edited (its actions' outcomes are
	// "edited"); "" for any other request. Stored in clear.
	EditOf string
	// EditedBy says who edited it and where, as the popup reported it:
	// "the person, in the approval popup (zenity)". Set exactly when EditOf
	// is. Stored redacted, in clear.
	EditedBy string
}

// A Decision is the gate's verdict on one action of a request, recorded
// before the action runs.
type Decision struct {
	RequestID string
	Index     int       // the action's position in the plan, from 0
	Time      time.Time // zero means now
	Action    string    // the exact action text (redacted, then sealed)
	Preview   string    // the one-line preview shown to the person (sealed)
	Risk      level.Level
	Reasons   []string // the assessment's reasons (sealed)
	Autonomy  int      // the autonomy level in force: 0, 1 or 2
	Decision  string   // "auto", "ask" or "refused" (what the policy decided; a dry run records it too)
}

// An Outcome is how one action ended: the approval, if one was asked for,
// and the result.
type Outcome struct {
	RequestID string
	Index     int
	Time      time.Time // zero means now
	Approval  string    // "", "approved", "denied", "timeout", "killed", "withdrawn", "granted" or "edited"
	// Status is "ok", "failed", "skipped", "denied", "timeout", "refused",
	// "killed", "withdrawn", "dry-run", "rejected" (the plan did not parse),
	// "edited" (the person edited the plan in the approval popup: the
	// request whose EditOf names this one ran instead) or "interrupted"
	// (the gate stopped before the action ended; see MarkInterrupted).
	Status   string
	Duration time.Duration
	Output   string // a summary of the output (redacted, then sealed)
	Error    string // the error, if any (redacted, then sealed)
}

// A ModelCall is one request to a language model.
type ModelCall struct {
	RequestID        string // the request it served; may be ""
	Time             time.Time
	Endpoint         string // stored redacted, in clear
	Status           int    // HTTP status; 0 if there was no response
	Duration         time.Duration
	PromptTokens     int
	CompletionTokens int
}

// A FileChange is one path an action that ran unasked changed, as the
// gate applied, held or discarded it (execute.ChangeRecord): what undo
// reads back. The paths and hashes are sealed as they are, unredacted:
// undo needs them exact, and sealed they are not readable in clear.
type FileChange struct {
	RequestID string
	Index     int       // the action's position in the plan, from 0; its decision must be recorded
	N         int       // the change's position among the action's, from 0
	Time      time.Time // zero means now
	Kind      string    // "created", "changed", "removed" or "replaced"
	Status    string    // "applied", "discarded", "skipped" or "failed"
	Held      bool      // held for the person; with "applied", they kept it
	Placed    bool      // a new version was put at Path
	Mode      uint32    // the new version's type and permission bits (fs.FileMode)
	Size      int64
	OldMode   uint32 // what was at Path before (fs.FileMode)
	Path      string // absolute (sealed)
	Hash      string // hex SHA-256 of the new version (sealed)
	Old       string // where the old version lies in the Trash (sealed)
	OldHash   string // hex SHA-256 of the old version (sealed)
	Discarded string // where a new version not applied lies in the Trash (sealed)
	Note      string // why it was held, skipped or not applied (redacted, then sealed)
}

// An Entry is one action as `airlock history` shows it: the request it
// belongs to, the decision, and the outcome once there is one. Everything
// in it is decrypted.
type Entry struct {
	Request  Request
	Decision Decision
	Outcome  *Outcome // nil until the outcome is recorded
}

// The values the enumerated fields may take. Values outside these sets are
// refused with ErrInvalid, so these fields need no redaction.
var (
	decisionValues = []string{"auto", "ask", "refused"}
	approvalValues = []string{"", "approved", "denied", "timeout", "killed", "withdrawn", "granted", "edited"}
	statusValues   = []string{"ok", "failed", "skipped", "denied", "timeout", "refused", "killed", "withdrawn", "dry-run", "rejected", "edited", StatusInterrupted}
	changeKinds    = []string{"created", "changed", "removed", "replaced"}
	changeStatuses = []string{"applied", "discarded", "skipped", "failed"}
)

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UnixNano()
}

func invalid(what string, format string, args ...any) error {
	return fmt.Errorf("recording %s: %w: %s", what, ErrInvalid, redact.String(fmt.Sprintf(format, args...)))
}

func oneOf(what, field, v string, set []string) error {
	if slices.Contains(set, v) {
		return nil
	}
	return invalid(what, "%s %q is not one of %q", field, v, set)
}

// Each record's values, in its table's column order: text redacted, sealed
// columns still plain (the writer seals them once it knows the row's seq).

func (r Request) values() ([]any, error) {
	switch {
	case r.ID == "":
		return nil, invalid("a request", "the id is empty")
	case (r.EditOf == "") != (r.EditedBy == ""):
		return nil, invalid("a request", "an edited plan needs both the request it edits and who edited it (edit of %q, edited by %q)", r.EditOf, r.EditedBy)
	case r.EditOf == r.ID:
		return nil, invalid("a request", "request %q cannot be an edit of itself", r.ID)
	}
	return []any{redact.String(r.ID), unixNano(r.Time), redact.String(r.Client),
		redact.String(r.Kind), redact.String(r.Text), redact.String(r.Program),
		redact.String(r.EditOf), redact.String(r.EditedBy)}, nil
}

func (d Decision) values() ([]any, error) {
	const what = "a decision"
	switch {
	case d.RequestID == "":
		return nil, invalid(what, "the request id is empty")
	case d.Index < 0:
		return nil, invalid(what, "index %d is negative", d.Index)
	case d.Risk < level.Safe || d.Risk > level.Blocked:
		return nil, invalid(what, "risk %d is not a level", int(d.Risk))
	case d.Autonomy < 0 || d.Autonomy > 2:
		return nil, invalid(what, "autonomy level %d is not 0, 1 or 2", d.Autonomy)
	}
	if err := oneOf(what, "decision", d.Decision, decisionValues); err != nil {
		return nil, err
	}
	reasons := make([]string, len(d.Reasons))
	for i, r := range d.Reasons {
		reasons[i] = redact.String(r)
	}
	js, err := json.Marshal(reasons)
	if err != nil {
		return nil, invalid(what, "reasons: %v", err)
	}
	return []any{redact.String(d.RequestID), int64(d.Index), unixNano(d.Time), d.Risk.String(),
		int64(d.Autonomy), d.Decision, redact.String(d.Action), redact.String(d.Preview), string(js)}, nil
}

func (o Outcome) values() ([]any, error) {
	const what = "an outcome"
	switch {
	case o.RequestID == "":
		return nil, invalid(what, "the request id is empty")
	case o.Index < 0:
		return nil, invalid(what, "index %d is negative", o.Index)
	case o.Duration < 0:
		return nil, invalid(what, "duration %v is negative", o.Duration)
	}
	if err := oneOf(what, "approval", o.Approval, approvalValues); err != nil {
		return nil, err
	}
	if err := oneOf(what, "status", o.Status, statusValues); err != nil {
		return nil, err
	}
	return []any{redact.String(o.RequestID), int64(o.Index), unixNano(o.Time), o.Approval, o.Status,
		int64(o.Duration), kept(redact.String(o.Output)), kept(redact.String(o.Error))}, nil
}

// keptEnds is how much of each end of an action's output or error the
// history keeps. What an action prints is the agent's to choose, up to a
// MiB of each stream an action, and the history is never pruned (its
// chain would break): kept whole, a loop of actions that print a MiB
// each, rated safe, would fill the disk through the history. The start
// and the end say what the action did and how it ended; the agent got the
// whole.
const keptEnds = 32 << 10

// kept returns s, or its first and last keptEnds bytes (cut between
// characters) with a line between them saying how much was left out.
func kept(s string) string {
	if len(s) <= 2*keptEnds+256 {
		return s
	}
	i := keptEnds
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	j := len(s) - keptEnds
	for j < len(s) && !utf8.RuneStart(s[j]) {
		j++
	}
	return fmt.Sprintf("%s\n… %d bytes left out of the history …\n%s", s[:i], j-i, s[j:])
}

func (m ModelCall) values() ([]any, error) {
	const what = "a model call"
	switch {
	case m.Status < 0 || m.Status > 999:
		return nil, invalid(what, "status %d is not an HTTP status", m.Status)
	case m.Duration < 0:
		return nil, invalid(what, "duration %v is negative", m.Duration)
	case m.PromptTokens < 0 || m.CompletionTokens < 0:
		return nil, invalid(what, "token counts %d, %d are negative", m.PromptTokens, m.CompletionTokens)
	}
	return []any{redact.String(m.RequestID), unixNano(m.Time), redact.String(m.Endpoint),
		int64(m.Status), int64(m.Duration), int64(m.PromptTokens), int64(m.CompletionTokens)}, nil
}

func (c FileChange) values() ([]any, error) {
	const what = "a file change"
	switch {
	case c.RequestID == "":
		return nil, invalid(what, "the request id is empty")
	case c.Index < 0 || c.N < 0:
		return nil, invalid(what, "index %d or position %d is negative", c.Index, c.N)
	case c.Size < 0:
		return nil, invalid(what, "size %d is negative", c.Size)
	case !strings.HasPrefix(c.Path, "/"):
		return nil, invalid(what, "the path is not absolute")
	}
	if err := oneOf(what, "kind", c.Kind, changeKinds); err != nil {
		return nil, err
	}
	if err := oneOf(what, "status", c.Status, changeStatuses); err != nil {
		return nil, err
	}
	return []any{redact.String(c.RequestID), int64(c.Index), int64(c.N), unixNano(c.Time), c.Kind, c.Status,
		boolInt(c.Held), boolInt(c.Placed), int64(c.Mode), c.Size, int64(c.OldMode),
		c.Path, c.Hash, c.Old, c.OldHash, c.Discarded, redact.String(c.Note)}, nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
