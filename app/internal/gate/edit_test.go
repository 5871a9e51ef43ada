package gate_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// person answers each request the broker shows with the next of its steps
// and keeps every request it was shown.
type person struct {
	mu    sync.Mutex
	steps []func(r approval.Request) approval.Answer
	shown []approval.Request
	// waiting, when set, is closed when the person runs out of answers
	// and leaves a request on screen unanswered.
	waiting chan struct{}
}

func (p *person) answer(ctx context.Context, r approval.Request) (approval.Answer, error) {
	p.mu.Lock()
	p.shown = append(p.shown, r)
	var step func(approval.Request) approval.Answer
	if len(p.steps) > 0 {
		step, p.steps = p.steps[0], p.steps[1:]
	}
	p.mu.Unlock()
	if step == nil {
		if p.waiting != nil {
			close(p.waiting)
		}
		<-ctx.Done() // a person who never answers
		return approval.Answer{}, ctx.Err()
	}
	return step(r), nil
}

func (p *person) requests() []approval.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]approval.Request(nil), p.shown...)
}

const by = "the person, in a scripted popup"

func edits(text string) func(approval.Request) approval.Answer {
	return func(approval.Request) approval.Answer {
		return approval.Answer{Outcome: approval.Edited, Text: text, By: by}
	}
}

func approves(r approval.Request) approval.Answer { return approval.Answer{Outcome: approval.Approved} }

func denies(approval.Request) approval.Answer { return approval.Answer{Outcome: approval.Denied} }

// editRig is a gate whose approver is the real broker, asking p; its
// executor records each action's exact text.
func editRig(t *testing.T, autonomy policy.Autonomy, p *person) (*rig, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var ran []string
	ids := 0
	r := newRig(t, autonomy, nil, func(c *gate.Config) {
		c.Approver = approval.NewBroker(approval.ScriptedFunc(p.answer), approval.Options{})
		c.NewID = func() string { ids++; return "req" + string(rune('0'+ids)) }
	})
	r.exec.run = func(_ context.Context, a action.Action) (execute.Result, error) {
		mu.Lock()
		ran = append(ran, a.String())
		mu.Unlock()
		return execute.Result{Output: "done"}, nil
	}
	return r, &ran
}

// The person edits a dangerous plan; the edit is judged from scratch, asked
// about again (with Edit still offered) and runs once approved. The history
// keeps the original, ended "edited", and the edit, naming it and who
// edited.
func TestEditThenApprove(t *testing.T) {
	p := &person{steps: []func(approval.Request) approval.Answer{edits(`WRITE_FILE "~/Documents/b.txt" "mine"`), approves}}
	r, ran := editRig(t, policy.SmartDefault, p)
	var events []gate.Event
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Identity: policy.Identity{Key: "k", Program: "/usr/bin/agent (pid 1)"},
		Plan: `WRITE_FILE "~/Documents/a.txt" "theirs"`}, func(e gate.Event) { events = append(events, e) })
	if err != nil || rep.Status != gate.StatusOK {
		t.Fatalf("Submit: %v, %+v", err, rep)
	}
	if !slices.Equal(*ran, []string{`WRITE_FILE "~/Documents/b.txt" "mine"`}) {
		t.Fatalf("ran %q; want only the edit", *ran)
	}
	if rep.Request != "req2" || rep.EditOf != "req1" || rep.EditedBy != by || rep.Client != "agent (edited by the person)" {
		t.Errorf("report: request %s, edit of %s by %q, client %q", rep.Request, rep.EditOf, rep.EditedBy, rep.Client)
	}
	shown := p.requests()
	if len(shown) != 2 {
		t.Fatalf("asked %d times, want 2", len(shown))
	}
	first, second := shown[0], shown[1]
	if first.Edit == nil || first.Edit.Kind != "dsl" || first.Edit.Text != `WRITE_FILE "~/Documents/a.txt" "theirs"` || first.NoRemember {
		t.Errorf("first request offers %+v (no remember %v)", first.Edit, first.NoRemember)
	}
	if second.Edit == nil || second.Edit.Text != `WRITE_FILE "~/Documents/b.txt" "mine"` || second.EditedBy != by ||
		!second.NoRemember || second.Program != "/usr/bin/agent (pid 1)" || second.Items[0].Text != `WRITE_FILE "~/Documents/b.txt" "mine"` {
		t.Errorf("the edit was asked about as %+v", second)
	}

	h := r.hist
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.requests) != 2 || h.requests[0].EditOf != "" || h.requests[1].EditOf != "req1" || h.requests[1].EditedBy != by ||
		h.requests[1].Text != `WRITE_FILE "~/Documents/b.txt" "mine"` || h.requests[0].Text != `WRITE_FILE "~/Documents/a.txt" "theirs"` {
		t.Errorf("requests recorded: %+v", h.requests)
	}
	got := map[string]string{}
	for _, o := range h.outcomes {
		got[o.RequestID] = o.Approval + "/" + o.Status
		if o.RequestID == "req1" && !strings.Contains(o.Error, "req2") {
			t.Errorf("the original's outcome does not name the edit: %q", o.Error)
		}
	}
	if got["req1"] != "edited/edited" || got["req2"] != "approved/ok" {
		t.Errorf("outcomes %v", got)
	}
	var approvals []string
	for _, e := range events {
		if e.Type == gate.EventApproval {
			approvals = append(approvals, e.Request+":"+e.Approval)
		}
	}
	if !slices.Equal(approvals, []string{"req1:edited", "req2:approved"}) {
		t.Errorf("approval events %q", approvals)
	}
}

// Judged from scratch: an edit that needs no approval at the current level
// runs without another question; one the sanitiser blocks is refused and
// never offered; a denial of the edit runs nothing.
func TestEditJudgedFromScratch(t *testing.T) {
	const theirs = `WRITE_FILE "~/Documents/a.txt" "theirs"`
	for _, tc := range []struct {
		name   string
		steps  []func(approval.Request) approval.Answer
		status string
		err    error
		asked  int
		ran    []string
	}{
		{"an edit down to a caution runs unasked", []func(approval.Request) approval.Answer{edits(`CREATE_FOLDER "~/Documents/new"`)},
			gate.StatusOK, nil, 1, []string{`CREATE_FOLDER "~/Documents/new"`}},
		{"an edit that is blocked is refused", []func(approval.Request) approval.Answer{edits(`WRITE_FILE "~/.ssh/authorized_keys" "x"`)},
			gate.StatusRefused, gate.ErrBlocked, 1, nil},
		{"an edit that writes outside the sandbox is refused", []func(approval.Request) approval.Answer{edits(`DELETE_FILE "/etc/hosts"`)},
			gate.StatusRefused, gate.ErrBlocked, 1, nil},
		{"an edit denied", []func(approval.Request) approval.Answer{edits(`WRITE_FILE "~/Documents/b.txt" "mine"`), denies},
			gate.StatusDenied, gate.ErrDenied, 2, nil},
		{"an edit edited again", []func(approval.Request) approval.Answer{edits(`WRITE_FILE "~/Documents/b.txt" "1"`), edits(`WRITE_FILE "~/Documents/c.txt" "2"`), approves},
			gate.StatusOK, nil, 3, []string{`WRITE_FILE "~/Documents/c.txt" "2"`}},
		{"an edit to nothing", []func(approval.Request) approval.Answer{edits("# nothing to do\n")},
			gate.StatusOK, nil, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &person{steps: tc.steps}
			r, ran := editRig(t, policy.SmartDefault, p)
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Plan: theirs}, nil)
			if rep.Status != tc.status || (tc.err == nil) != (err == nil) || (tc.err != nil && !errors.Is(err, tc.err)) {
				t.Fatalf("Submit: %v, %+v; want %s, %v", err, rep, tc.status, tc.err)
			}
			if n := len(p.requests()); n != tc.asked {
				t.Errorf("asked %d times, want %d", n, tc.asked)
			}
			for _, req := range p.requests() {
				for _, it := range req.Items {
					if it.Risk == level.Blocked {
						t.Errorf("a blocked action was offered: %+v", it)
					}
				}
			}
			if !slices.Equal(*ran, tc.ran) {
				t.Errorf("ran %q, want %q", *ran, tc.ran)
			}
			if rep.EditOf == "" {
				t.Errorf("the report does not say it is an edit: %+v", rep)
			}
		})
	}
}

// An edit that does not parse is shown with its line-numbered errors, with
// nothing else to approve, and may be edited again; cancelling there denies
// the original, and nothing is recorded of the edit that never parsed.
func TestEditThatDoesNotParse(t *testing.T) {
	bad := "NOTIFY \"a\" \"b\"\nWRITE_FIEL \"~/Documents/b.txt\" \"x\"\n"
	fixed := "NOTIFY \"a\" \"b\"\nWRITE_FILE \"~/Documents/b.txt\" \"x\"\n"
	p := &person{steps: []func(approval.Request) approval.Answer{edits(bad), edits(fixed), approves}}
	r, ran := editRig(t, policy.SmartDefault, p)
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Plan: dangerousPlan}, nil)
	if err != nil || rep.Status != gate.StatusOK || len(*ran) != 2 {
		t.Fatalf("Submit: %v, %+v, ran %q", err, rep, *ran)
	}
	again := p.requests()[1]
	if len(again.Items) != 0 || again.Edit == nil || again.Edit.Text != bad || len(again.Edit.Errors) != 1 ||
		!strings.HasPrefix(again.Edit.Errors[0], "line 2: ") || !strings.Contains(again.Edit.Errors[0], "WRITE_FIEL") {
		t.Fatalf("the edit that did not parse was shown as %+v", again)
	}
	if third := p.requests()[2]; third.Edit == nil || third.Edit.Text != fixed || len(third.Items) != 2 {
		t.Errorf("the fixed edit was asked about as %+v", third)
	}

	p = &person{steps: []func(approval.Request) approval.Answer{edits(bad), denies}}
	r, ran = editRig(t, policy.SmartDefault, p)
	rep, err = r.g.Submit(context.Background(), gate.Submission{Client: "agent", Plan: dangerousPlan}, nil)
	if !errors.Is(err, gate.ErrDenied) || rep.Status != gate.StatusDenied || len(*ran) != 0 || rep.EditOf != "" {
		t.Fatalf("cancelled after a parse error: %v, %+v, ran %q", err, rep, *ran)
	}
	r.hist.mu.Lock()
	defer r.hist.mu.Unlock()
	if len(r.hist.requests) != 1 || r.hist.outcomes[0].Approval != "denied" {
		t.Errorf("recorded %+v, %+v", r.hist.requests, r.hist.outcomes)
	}
}

// The kill switch, tripped while the person fixes an edit, kills the plan:
// nothing of it or of the edit runs.
func TestKillWhileEditing(t *testing.T) {
	p := &person{steps: []func(approval.Request) approval.Answer{edits("FOO\n")}, waiting: make(chan struct{})}
	r, ran := editRig(t, policy.SmartDefault, p)
	done := make(chan error, 1)
	go func() {
		_, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Plan: dangerousPlan}, nil)
		done <- err
	}()
	<-p.waiting // the edit that did not parse is on screen, unanswered
	if n := len(p.requests()); n != 2 || len(p.requests()[1].Edit.Errors) == 0 {
		t.Fatalf("on screen: %+v", p.requests())
	}
	r.g.Kill()
	if err := <-done; !errors.Is(err, gate.ErrKilled) {
		t.Fatalf("Submit: %v, want ErrKilled", err)
	}
	if len(*ran) != 0 {
		t.Errorf("ran %q", *ran)
	}
}

// Only plans and scripts are editable: a command's argv is never parsed
// from text.
func TestEditOffered(t *testing.T) {
	for _, tc := range []struct {
		s    gate.Submission
		kind string // "" for no Edit
	}{
		{gate.Submission{Client: "c", Plan: dangerousPlan}, "dsl"},
		{gate.Submission{Client: "c", Kind: gate.KindAppleScript, Plan: `display dialog "hi"`}, "applescript"},
		{gate.Submission{Client: "c", Kind: gate.KindJXA, Plan: `Application("Finder").activate()`}, "jxa"},
		{gate.Submission{Client: "c", Kind: gate.KindCommand, Argv: []string{"touch", "x"}}, ""},
	} {
		p := &person{steps: []func(approval.Request) approval.Answer{denies}}
		r, _ := editRig(t, policy.AskAll, p)
		r.g.Submit(context.Background(), tc.s, nil)
		shown := p.requests()
		if len(shown) != 1 {
			t.Fatalf("%s: asked %d times", tc.s.Kind, len(shown))
		}
		switch e := shown[0].Edit; {
		case tc.kind == "" && e != nil:
			t.Errorf("%s: Edit offered: %+v", tc.s.Kind, e)
		case tc.kind != "" && (e == nil || e.Kind != tc.kind || e.Text != tc.s.Plan):
			t.Errorf("%s: Edit %+v, want kind %s", tc.s.Kind, e, tc.kind)
		}
	}
}

// A script edited is judged as its kind, with its arguments as they were.
func TestEditScript(t *testing.T) {
	p := &person{steps: []func(approval.Request) approval.Answer{edits(`display notification "mine"`), approves}}
	r, _ := editRig(t, policy.AskAll, p)
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "c", Kind: gate.KindAppleScript,
		Plan: "on run argv\ndisplay dialog (item 1 of argv)\nend run", Argv: []string{"hello"}}, nil)
	if err != nil || rep.Status != gate.StatusOK || rep.EditOf == "" {
		t.Fatalf("Submit: %v, %+v", err, rep)
	}
	second := p.requests()[1]
	if second.Tool != "AppleScript" || !strings.HasPrefix(second.Items[0].Text, `display notification "mine"`) ||
		!strings.Contains(second.Items[0].Text, "hello") {
		t.Errorf("the edited script was asked about as %+v", second.Items)
	}
	if ran := r.exec.names(); !slices.Equal(ran, []string{gate.KindAppleScript}) {
		t.Errorf("ran %q", ran)
	}
}
