package dashboard

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/redact"
	"github.com/airlockhq/airlock/bridge"
)

// Bounds on what one value shows. The page is read, not searched:
// `airlock history --json` has every byte.
const (
	planBytes   = 16 << 10
	actionBytes = 8 << 10
	outputBytes = 4 << 10
	lineBytes   = 1 << 10 // a client's name, a reason, an endpoint
)

// shown makes a recorded value safe to show: redacted (again: the history
// redacted it before recording, and redacting is idempotent), cut to n
// bytes, and with every character that could hide, reorder or fake text
// made visible as the approval popup shows it. The template escapes it for
// HTML.
func shown(s string, n int) string {
	return bridge.EscapeBlock(cut(redact.String(s), n))
}

// cut shortens s to about n bytes, on a character boundary, saying how much
// it left out.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return fmt.Sprintf("%s\n… (%d more bytes: `airlock history --json` has them)", s[:i], len(s)-i)
}

// groupView is one request as the history page shows it.
type groupView struct {
	Seq      int64
	ID       string
	Time     string
	ISOTime  string
	Client   string
	Program  string
	Kind     string
	Asked    string // the request in words; "" when it was not one
	Plan     string
	Notes    []noteView
	Calls    []callView
	Actions  []actionView
	Risk     string // the highest risk of its actions; "" with none
	Outcome  string
	OutClass string
	// An edited plan names the request whose plan the person edited, and
	// who edited it; that request names the one that ran instead. The
	// links go to the request on this page, or to a page that starts with
	// it; "" when the history does not hold it.
	EditOf, EditOfHref, EditedBy string
	EditedAs, EditedAsHref       string
}

type noteView struct{ Key, Value string }

type callView struct {
	Time     string
	Endpoint string
	Status   string
	Tokens   string
	Duration string
}

// actionView is one action of a plan.
type actionView struct {
	Number   int
	Preview  string
	Text     string
	Risk     string
	Reasons  []string
	Decision string
	Approval string // who or what let it run or stopped it, in words
	Status   string // "" while it has no outcome
	Class    string
	Duration string
	Output   string
	Error    string
}

// viewGroup turns a recorded request into what the page shows.
// onPage reports whether the request at a seq is on the same page.
func viewGroup(g history.Group, loc *time.Location, onPage func(int64) bool) groupView {
	r := g.Request
	v := groupView{
		Seq:     g.Seq,
		ID:      shown(r.ID, lineBytes),
		Time:    r.Time.In(loc).Format("2006-01-02 15:04:05"),
		ISOTime: r.Time.In(loc).Format(time.RFC3339),
		Client:  shown(r.Client, lineBytes),
		Program: shown(r.Program, lineBytes),
		Kind:    shown(r.Kind, lineBytes),
	}
	asked, plan, notes := splitText(r.Kind, r.Text)
	v.Asked, v.Plan = shown(asked, planBytes), shown(plan, planBytes)
	for _, n := range notes {
		v.Notes = append(v.Notes, noteView{Key: shown(n.Key, lineBytes), Value: shown(n.Value, outputBytes)})
	}
	for _, c := range g.ModelCalls {
		v.Calls = append(v.Calls, viewCall(c, loc))
	}
	top := level.Level(-1)
	for _, e := range g.Actions {
		v.Actions = append(v.Actions, viewAction(e))
		top = level.Max(top, e.Decision.Risk)
	}
	if top >= level.Safe {
		v.Risk = top.String()
	}
	v.Outcome, v.OutClass = summary(g)
	if r.EditOf != "" {
		v.EditOf, v.EditedBy = shown(g.Original.ID, lineBytes), shown(r.EditedBy, lineBytes)
		v.EditOfHref = requestHref(g.Original.Seq, onPage)
	}
	if g.EditedAs.ID != "" {
		v.EditedAs, v.EditedAsHref = shown(g.EditedAs.ID, lineBytes), requestHref(g.EditedAs.Seq, onPage)
	}
	return v
}

// requestHref is the link to the request at seq: its card on this page
// (onPage), or a page that starts with it; "" for none (seq 0: the history
// does not hold it).
func requestHref(seq int64, onPage func(int64) bool) string {
	switch {
	case seq <= 0:
		return ""
	case onPage(seq):
		return fmt.Sprintf("#r%d", seq)
	}
	return fmt.Sprintf("/?before=%d#r%d", seq+1, seq)
}

func viewCall(c history.ModelCall, loc *time.Location) callView {
	status := "no response"
	if c.Status != 0 {
		status = strconv.Itoa(c.Status)
	}
	return callView{
		Time:     c.Time.In(loc).Format("15:04:05"),
		Endpoint: shown(c.Endpoint, lineBytes),
		Status:   status,
		Tokens:   fmt.Sprintf("%d in, %d out", c.PromptTokens, c.CompletionTokens),
		Duration: duration(c.Duration),
	}
}

func viewAction(e history.Entry) actionView {
	d := e.Decision
	a := actionView{
		Number:   d.Index + 1,
		Preview:  shown(d.Preview, lineBytes),
		Text:     shown(d.Action, actionBytes),
		Risk:     d.Risk.String(),
		Decision: shown(d.Decision, lineBytes),
	}
	for _, r := range d.Reasons {
		a.Reasons = append(a.Reasons, shown(r, lineBytes))
	}
	approval := ""
	if o := e.Outcome; o != nil {
		approval = o.Approval
		a.Status = shown(o.Status, lineBytes)
		a.Class = statusClass(o.Status)
		a.Duration = duration(o.Duration)
		a.Output = shown(o.Output, outputBytes)
		a.Error = shown(o.Error, outputBytes)
	}
	a.Approval = shown(approvalText(d, e.Outcome != nil, approval), lineBytes)
	return a
}

// approvalText says who or what let an action run, or stopped it.
func approvalText(d history.Decision, ended bool, approval string) string {
	switch approval {
	case "approved":
		return "approved by the person in Airlock's popup"
	case "granted":
		return "allowed by a grant the person made this session (\"allow again\")"
	case "denied":
		return "denied by the person"
	case "timeout":
		return "not answered in time: denied"
	case "killed":
		return "stopped by the kill switch"
	case "withdrawn":
		return "withdrawn by its client before an answer"
	case "edited":
		return "edited by the person in Airlock's popup: the edited plan ran instead"
	case "":
	default:
		return approval
	}
	switch d.Decision {
	case "refused":
		if d.Risk == level.Blocked {
			return "blocked: never offered for approval"
		}
		return "refused: approval was needed and nobody could give it"
	case "auto":
		return fmt.Sprintf("not asked: Level %d runs %s actions without asking", d.Autonomy, d.Risk)
	case "ask":
		if !ended {
			return "waiting for the person's answer"
		}
		return "not asked: the plan stopped before it"
	}
	return d.Decision
}

// statusClass groups the statuses for the page's colours.
func statusClass(status string) string {
	switch status {
	case "ok":
		return "ok"
	case "failed", "rejected", "interrupted", "killed":
		return "bad"
	case "dry-run", "edited":
		return "info"
	}
	return "stopped" // denied, timeout, refused, withdrawn, skipped, and what comes later
}

// summary is a request's outcome in a few words: its actions' statuses
// counted, or "running", or "no plan".
func summary(g history.Group) (text, class string) {
	if len(g.Actions) == 0 {
		if g.Request.Kind == "ask" {
			return "no plan", "bad"
		}
		return "nothing decided", "stopped"
	}
	var order []string
	count := map[string]int{}
	for _, e := range g.Actions {
		s := history.OutcomeRunning
		if e.Outcome != nil {
			s = e.Outcome.Status
		}
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
	}
	if count[history.OutcomeRunning] > 0 {
		return "running", "info"
	}
	class = "ok"
	rank := map[string]int{"ok": 0, "info": 1, "stopped": 2, "bad": 3}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%d %s", count[s], s)
		if c := statusClass(s); rank[c] > rank[class] {
			class = c
		}
	}
	if len(order) == 1 {
		return shown(order[0], lineBytes), class
	}
	return shown(strings.Join(parts, " · "), lineBytes), class
}

func duration(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Millisecond:
		return "<1ms"
	}
	return d.Round(time.Millisecond).String()
}

// A note is a line the gate adds to a request's text after its plan:
// "-- asked: …", "-- context: …", "-- model: …", "-- no plan: …",
// "-- argv: …".
type note struct{ Key, Value string }

// splitText takes a recorded request's text apart: the request in words
// (for kind "ask"), the plan, and the gate's notes. The gate writes the
// notes last, and a quoted value holds no newline, so the last line that
// starts "-- asked: " is the gate's (a plan or a request may hold such a
// line too; it stays in the plan). A request in words refused before the
// model was asked is recorded as its words alone.
func splitText(kind, text string) (asked, plan string, notes []note) {
	t := "\n" + text
	if kind == "ask" {
		i := strings.LastIndex(t, "\n-- asked: ")
		if i < 0 {
			return text, "", nil
		}
		plan = t[1:max(i, 1)]
		for _, line := range strings.Split(t[i+1:], "\n") {
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "-- "), ": ")
			if !strings.HasPrefix(line, "-- ") || !ok || len(notes) > 0 && !knownNote(k) {
				if len(notes) > 0 { // a multi-line reason
					notes[len(notes)-1].Value += "\n" + line
				}
				continue
			}
			if k == "asked" || k == "context" {
				if u, err := strconv.Unquote(v); err == nil {
					v = u
				}
			}
			notes = append(notes, note{Key: k, Value: v})
		}
		asked = notes[0].Value
		return asked, plan, notes[1:]
	}
	if i := strings.LastIndex(t, "\n-- argv: "); i >= 0 && !strings.Contains(t[i+1:], "\n") {
		return "", t[1:max(i, 1)], []note{{Key: "argv", Value: strings.TrimPrefix(t[i+1:], "-- argv: ")}}
	}
	return "", text, nil
}

func knownNote(k string) bool {
	return slices.Contains([]string{"context", "model", "no plan", "cut"}, k)
}
