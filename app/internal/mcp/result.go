package mcp

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/redact"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// StatusBlocked is the status of a run that Airlock's rules forbid outright:
// the gate's "refused" for a plan or script rated blocked. It was never
// offered for approval.
const StatusBlocked = "blocked"

// RunResult is the structured answer of a run_* tool: the gate's report, with
// every text redacted and the outputs bounded.
type RunResult struct {
	Request string         `json:"request"` // the gate's id for the request, as its history shows it
	Client  string         `json:"client"`  // the name the gate shows and records for this client
	Status  string         `json:"status"`  // ok, failed, denied, timeout, withdrawn, blocked, refused, killed or rejected
	Risk    string         `json:"risk,omitempty"`
	Reasons []string       `json:"reasons,omitempty"` // what only the whole plan shows
	Actions []ActionResult `json:"actions"`
	Error   string         `json:"error,omitempty"`
	// Truncated says some output was cut to fit the result's bound.
	Truncated bool `json:"truncated,omitempty"`
	// EditOf is set when the person edited the plan in the approval popup:
	// the result is of their edit (Request), and EditOf is the request
	// whose plan they edited.
	EditOf string `json:"editOf,omitempty"`
}

// ActionResult is what happened to one action of a run.
type ActionResult struct {
	Number   int      `json:"number"` // from 1
	Line     int      `json:"line"`   // in the plan
	Preview  string   `json:"preview"`
	Risk     string   `json:"risk"`
	Reasons  []string `json:"reasons"`
	Decision string   `json:"decision"`           // auto, ask or refused
	Approval string   `json:"approval,omitempty"` // approved, denied, timeout, killed, withdrawn or granted
	Status   string   `json:"status"`             // ok, failed, skipped, denied, timeout, withdrawn, refused or killed
	Output   string   `json:"output,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// maxError bounds one error text, in bytes.
const maxError = 4 << 10

// resultOf redacts and bounds a report. The outputs share maxOutput bytes,
// in order; each error text has its own bound.
func resultOf(rep gate.Report, maxOutput int) RunResult {
	res := RunResult{
		Request: rep.Request,
		Client:  rep.Client,
		Status:  rep.Status,
		Risk:    rep.Risk,
		Reasons: redactAll(rep.Reasons),
		Actions: make([]ActionResult, len(rep.Actions)),
		EditOf:  rep.EditOf,
	}
	if rep.Status == gate.StatusRefused && rep.Risk == level.Blocked.String() {
		res.Status = StatusBlocked
	}
	res.Error, _ = bound(rep.Error, maxError)
	left := maxOutput
	for i, a := range rep.Actions {
		out, cut := bound(a.Output, max(left, 0))
		left -= len(out)
		res.Truncated = res.Truncated || cut
		errText, _ := bound(a.Error, maxError)
		res.Actions[i] = ActionResult{
			Number: a.Index + 1, Line: a.Line, Preview: redact.String(a.Preview), Risk: a.Risk,
			Reasons: redactAll(a.Reasons), Decision: a.Decision, Approval: a.Approval, Status: a.Status,
			Output: out, Error: errText,
		}
	}
	return res
}

func redactAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = redact.String(s)
	}
	return out
}

// bound redacts s and cuts it to at most n bytes at a character boundary,
// with a note saying how much was cut (the note may take the result past n
// by its own length). It redacts first, so a cut never leaves part of a
// secret that whole would have been recognised.
func bound(s string, n int) (string, bool) {
	s = redact.String(s)
	if len(s) <= n {
		return s, false
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… [%d more bytes cut by airlock mcp]", len(s)-cut), true
}

// headline says in words what a run's status means for the agent.
func headline(status string) string {
	switch status {
	case gate.StatusOK:
		return "Done: Airlock's gate ran it and it succeeded."
	case gate.StatusFailed:
		return "Failed: it was allowed and ran, but did not succeed (see the error)."
	case gate.StatusDenied:
		return "Denied: the person said no in Airlock's approval popup. What they did not approve did not run. " +
			"Do not retry it unchanged or try another way to do the same; ask the person what they want instead."
	case gate.StatusTimeout:
		return "Timed out: nobody answered Airlock's approval popup in time, so it was denied and did not run."
	case gate.StatusWithdrawn:
		return "Withdrawn: the call was cancelled (or its connection lost) before the person answered, so nothing of it ran. " +
			"The person did not deny it; call again if it is still wanted."
	case StatusBlocked:
		return "Blocked: Airlock's rules forbid this (see the reasons). It was not offered for approval, " +
			"cannot be approved, and nothing of it ran."
	case gate.StatusRefused:
		return "Refused: the gate would not run this (see the error); nothing of it ran."
	case gate.StatusKilled:
		return "Killed: the person tripped Airlock's kill switch. Everything stopped, and the gate refuses all work " +
			"until the person resumes it from Airlock's menu."
	case gate.StatusRejected:
		return "Rejected: the plan does not parse, so none of it ran. list_actions gives the commands and their syntax."
	}
	return "Ended with status " + status + "."
}

func decisionWords(d string) string {
	switch d {
	case "auto":
		return "allowed without asking"
	case "ask":
		return "needs the person's approval"
	case "refused":
		return "refused"
	}
	return d
}

// Text renders the result for the model to read: the headline, then each
// action with its risk, decision, approval, status, reasons and output.
func (r RunResult) Text() string {
	var b strings.Builder
	b.WriteString(headline(r.Status))
	if r.EditOf != "" {
		fmt.Fprintf(&b, "\nThe person edited your plan in Airlock's approval popup (your request %s); what follows is their edit, "+
			"judged and run in its place. Do not submit your original again.", r.EditOf)
	}
	fmt.Fprintf(&b, "\n\nrequest %s from %q: status %s", r.Request, r.Client, r.Status)
	if r.Risk != "" {
		fmt.Fprintf(&b, ", risk %s", r.Risk)
	}
	b.WriteString("\n")
	for _, reason := range r.Reasons {
		fmt.Fprintf(&b, "plan: %s\n", reason)
	}
	for _, a := range r.Actions {
		fmt.Fprintf(&b, "%d. %s\n   risk %s, %s", a.Number, a.Preview, a.Risk, decisionWords(a.Decision))
		if a.Approval != "" {
			fmt.Fprintf(&b, ", approval %s", a.Approval)
		}
		fmt.Fprintf(&b, ", status %s\n", a.Status)
		for _, reason := range a.Reasons {
			fmt.Fprintf(&b, "   - %s\n", reason)
		}
		if a.Error != "" {
			fmt.Fprintf(&b, "   error: %s\n", a.Error)
		}
		if out := strings.TrimRight(a.Output, "\n"); out != "" {
			fmt.Fprintf(&b, "   output:\n     %s\n", strings.ReplaceAll(out, "\n", "\n     "))
		}
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", r.Error)
	}
	if r.Truncated {
		fmt.Fprintf(&b, "(output cut to fit the result)\n")
	}
	return b.String()
}

// Status is the structured answer of the status tool.
type Status struct {
	Running     bool   `json:"running"`            // a gate answered on the socket
	Killed      bool   `json:"killed"`             // the kill switch is on: the gate refuses all work
	Autonomy    string `json:"autonomy,omitempty"` // the autonomy level in force
	Submissions int    `json:"submissions"`        // work in progress
	Executing   int    `json:"executing"`          // actions executing now
	Pending     int    `json:"pending"`            // approvals waiting for the person
	Message     string `json:"message"`
}

func statusOf(gs gate.Status) Status {
	st := Status{Running: true, Killed: gs.Killed, Autonomy: gs.Level, Submissions: gs.Running,
		Executing: gs.Executing, Pending: gs.Pending}
	state := "accepting work"
	if gs.Killed {
		state = "KILLED: the kill switch is on, and it refuses all work until the person resumes it from Airlock's menu"
	}
	st.Message = fmt.Sprintf("Airlock's gate is running, %s. Autonomy: %s. %d submissions in progress, %d actions executing, %d approvals waiting for the person.",
		state, gs.Level, gs.Running, gs.Executing, gs.Pending)
	return st
}

func textResult(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}
