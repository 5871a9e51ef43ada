package gate_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

const (
	safePlan      = `NOTIFY "Airlock" "hello"`
	cautionPlan   = `CREATE_FOLDER "~/Documents/new"`
	dangerousPlan = `WRITE_FILE "~/Documents/a.txt" "hi"`
)

// bulkEmail is destructive: more recipients than the bulk limit.
func bulkEmail() string {
	var to []string
	for i := 0; i < 30; i++ {
		to = append(to, "p"+string(rune('a'+i%26))+string(rune('a'+i/26))+"@example.com")
	}
	return `SEND_EMAIL "` + strings.Join(to, ",") + `" "hi" "body"`
}

func TestMatrixDecidesWhoIsAsked(t *testing.T) {
	for _, tc := range []struct {
		name     string
		autonomy policy.Autonomy
		plan     string
		asked    bool
	}{
		{"level 0 asks even for safe", 0, safePlan, true},
		{"level 1 runs safe", 1, safePlan, false},
		{"level 1 runs caution", 1, cautionPlan, false},
		{"level 1 asks for dangerous", 1, dangerousPlan, true},
		{"level 2 runs dangerous", 2, dangerousPlan, false},
		{"level 2 still asks for destructive", 2, bulkEmail(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.autonomy, approveAll)
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: tc.plan}, nil)
			if err != nil {
				t.Fatalf("Submit: %v (%+v)", err, rep)
			}
			if got := r.ask.count() > 0; got != tc.asked {
				t.Errorf("asked = %v, want %v", got, tc.asked)
			}
			if len(r.exec.names()) != 1 || rep.Status != gate.StatusOK {
				t.Errorf("ran %v, status %s; want the one action run", r.exec.names(), rep.Status)
			}
		})
	}
}

// Seed 001: a dangerous action with no approver fails, and says approval
// was required.
func TestNoApproverMeansApprovalRequired(t *testing.T) {
	r := newRig(t, 1, nil)
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: safePlan + "\n" + dangerousPlan}, nil)
	if !errors.Is(err, gate.ErrApprovalRequired) || !strings.Contains(strings.ToLower(err.Error()), "approval") {
		t.Fatalf("err = %v, want ErrApprovalRequired", err)
	}
	if ran := r.exec.names(); len(ran) != 0 {
		t.Fatalf("ran %v with no approver: nothing of the plan may run", ran)
	}
	if rep.Actions[1].Status != gate.StatusRefused || !strings.Contains(rep.Actions[1].Error, "approval") {
		t.Errorf("action 2: %+v", rep.Actions[1])
	}
}

func TestBlockedIsNeverOffered(t *testing.T) {
	r := newRig(t, 0, approveAll)
	plan := safePlan + "\n" + `WRITE_FILE "~/.ssh/authorized_keys" "ssh-ed25519 AAAA"`
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: plan}, nil)
	if !errors.Is(err, gate.ErrBlocked) || !strings.Contains(err.Error(), "credential store") {
		t.Fatalf("err = %v, want ErrBlocked naming the rule", err)
	}
	if r.ask.count() != 0 || len(r.exec.names()) != 0 {
		t.Fatalf("asked %d times, ran %v: a blocked plan is neither offered nor run", r.ask.count(), r.exec.names())
	}
	if rep.Status != gate.StatusRefused || rep.Actions[1].Status != gate.StatusRefused || rep.Actions[0].Status != gate.StatusSkipped {
		t.Errorf("report: %+v", rep)
	}
	if got := r.hist.outcomeStatuses(); !reflect.DeepEqual(got, []string{"refused", "skipped"}) && !reflect.DeepEqual(got, []string{"skipped", "refused"}) {
		t.Errorf("recorded outcomes %v", got)
	}
}

func TestUnparseablePlanIsRejected(t *testing.T) {
	r := newRig(t, 2, approveAll)
	_, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: "NOTIFY \"a\" \"b\"\nFROB \"x\""}, nil)
	if !errors.Is(err, gate.ErrBlocked) || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("err = %v, want a blocked plan naming line 2", err)
	}
	if len(r.exec.names()) != 0 {
		t.Fatal("ran part of a plan that does not parse")
	}
	if len(r.hist.requests) != 1 {
		t.Errorf("the rejected request was not recorded")
	}
}

func TestDenyTimeoutKillOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(context.Context, approval.Request) (approval.Answer, error)
		want   error
		status string
	}{
		{"denied", denyAll, gate.ErrDenied, gate.StatusDenied},
		{"timeout", func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Outcome: approval.Timeout}, approval.ErrTimeout
		}, approval.ErrTimeout, gate.StatusTimeout},
		{"killed", func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Outcome: approval.Killed}, approval.ErrKilled
		}, gate.ErrKilled, gate.StatusKilled},
		{"prompter error is a deny", func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Outcome: approval.Approved}, errBoom
		}, gate.ErrDenied, gate.StatusDenied},
		{"approved without items is a deny", func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Outcome: approval.Approved}, nil
		}, gate.ErrDenied, gate.StatusDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, 1, tc.answer)
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: dangerousPlan}, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if rep.Status != tc.status || len(r.exec.names()) != 0 {
				t.Fatalf("status %s, ran %v", rep.Status, r.exec.names())
			}
		})
	}
}

// Destructive items of a plan approved as a whole still need their own yes.
func TestDestructiveNeedsItsOwnYes(t *testing.T) {
	plan := dangerousPlan + "\n" + bulkEmail() + "\n" + safePlan
	r := newRig(t, 1, func(_ context.Context, req approval.Request) (approval.Answer, error) {
		return approval.Answer{Outcome: approval.Approved, Items: []bool{true, false, true}}, nil
	})
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: plan}, nil)
	if !errors.Is(err, gate.ErrDenied) {
		t.Fatalf("err = %v, want ErrDenied", err)
	}
	if got := r.exec.names(); !reflect.DeepEqual(got, []string{"WRITE_FILE"}) {
		t.Fatalf("ran %v, want only the first action", got)
	}
	want := []string{gate.StatusOK, gate.StatusDenied, gate.StatusSkipped}
	for i, w := range want {
		if rep.Actions[i].Status != w {
			t.Errorf("action %d: %s, want %s", i+1, rep.Actions[i].Status, w)
		}
	}
	req := r.ask.asked[0]
	if len(req.Items) != 3 || req.Items[1].Risk.String() != "destructive" || req.Client != "test" {
		t.Errorf("the prompt did not list every action with its level: %+v", req)
	}
}

func TestStopsAtFirstFailure(t *testing.T) {
	r := newRig(t, 2, approveAll)
	r.exec.run = func(_ context.Context, a action.Action) (execute.Result, error) {
		if a.Cmd.Name == "CREATE_FOLDER" {
			return execute.Result{}, errBoom
		}
		return execute.Result{}, nil
	}
	plan := safePlan + "\n" + cautionPlan + "\n" + safePlan
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: plan}, nil)
	if err == nil || !strings.Contains(err.Error(), "action 2") {
		t.Fatalf("err = %v", err)
	}
	if got := []string{rep.Actions[0].Status, rep.Actions[1].Status, rep.Actions[2].Status}; !reflect.DeepEqual(got, []string{"ok", "failed", "skipped"}) {
		t.Fatalf("statuses %v", got)
	}
	if len(r.hist.outcomes) != 3 {
		t.Errorf("recorded %d outcomes, want one per action", len(r.hist.outcomes))
	}
}

func TestDryRunExecutesNothing(t *testing.T) {
	r := newRig(t, 0, approveAll)
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: dangerousPlan + "\n" + safePlan, DryRun: true}, nil)
	if err != nil || rep.Status != gate.StatusDryRun {
		t.Fatalf("%v %+v", err, rep)
	}
	if r.ask.count() != 0 || len(r.exec.names()) != 0 {
		t.Fatal("a dry run asked or ran")
	}
	if rep.Actions[0].Decision != "ask" || rep.Actions[1].Decision != "ask" {
		t.Errorf("decisions %+v", rep.Actions)
	}
}

func TestRememberedGrantCoversExactTextOnly(t *testing.T) {
	r := newRig(t, 1, func(ctx context.Context, req approval.Request) (approval.Answer, error) {
		a, _ := approveAll(ctx, req)
		a.Remember = true
		return a, nil
	})
	agent := policy.Identity{Key: "exe:/usr/bin/agent", Program: "/usr/bin/agent (pid 42)"}
	submit := func(client string, id policy.Identity, plan string) {
		t.Helper()
		if _, err := r.g.Submit(context.Background(), gate.Submission{Client: client, Identity: id, Plan: plan}, nil); err != nil {
			t.Fatal(err)
		}
	}
	submit("mcp: claude-ai", agent, dangerousPlan)
	submit("mcp: claude-ai", agent, dangerousPlan)
	if r.ask.count() != 1 {
		t.Fatalf("asked %d times; the grant should cover the same text", r.ask.count())
	}
	// The name is the client's own: the grant holds under another one too.
	submit("renamed", agent, dangerousPlan)
	if r.ask.count() != 1 {
		t.Fatalf("asked %d times; a grant belongs to the program, not to its name", r.ask.count())
	}
	submit("mcp: claude-ai", agent, strings.Replace(dangerousPlan, "hi", "ho", 1))
	if r.ask.count() != 2 {
		t.Fatalf("a different text rode on the grant")
	}
	// Another program taking the first one's name and text is asked again,
	// and so is one whose program is not verified.
	submit("mcp: claude-ai", policy.Identity{Key: "exe:/tmp/impostor", Program: "/tmp/impostor (pid 66)"}, dangerousPlan)
	if r.ask.count() != 3 {
		t.Fatalf("another program rode on the grant under the same name")
	}
	submit("mcp: claude-ai", policy.Identity{}, dangerousPlan)
	submit("mcp: claude-ai", policy.Identity{}, dangerousPlan)
	if r.ask.count() != 5 {
		t.Fatalf("an unverified client rode on a grant or was granted one")
	}
	if asked := r.ask.asked[4]; !asked.NoRemember || asked.Program != "" || r.ask.asked[0].NoRemember || r.ask.asked[0].Program != agent.Program {
		t.Errorf("requests %+v / %+v: the approval does not say whose program asked and whether it can be remembered", r.ask.asked[0], asked)
	}
	submit("mcp: claude-ai", agent, bulkEmail())
	submit("mcp: claude-ai", agent, bulkEmail())
	if r.ask.count() != 7 {
		t.Fatalf("destructive actions were remembered")
	}
}

func TestHistoryFailureRunsNothing(t *testing.T) {
	r := newRig(t, 2, approveAll)
	r.hist.fail = errBoom
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: safePlan}, nil); !errors.Is(err, errBoom) {
		t.Fatalf("err = %v", err)
	}
	if len(r.exec.names()) != 0 {
		t.Fatal("ran an action that could not be recorded")
	}
}

func TestKillStopsEverythingAndRefusesNewWork(t *testing.T) {
	r := newRig(t, 1, func(ctx context.Context, _ approval.Request) (approval.Answer, error) {
		<-ctx.Done() // wait for an answer that never comes
		return approval.Answer{Outcome: approval.Denied}, ctx.Err()
	})
	started := make(chan struct{})
	r.exec.run = func(ctx context.Context, a action.Action) (execute.Result, error) {
		close(started)
		<-ctx.Done()
		return execute.Result{}, ctx.Err()
	}
	running := make(chan error, 1)
	go func() {
		_, err := r.g.Submit(context.Background(), gate.Submission{Client: "a", Plan: safePlan}, nil)
		running <- err
	}()
	waiting := make(chan error, 1)
	go func() {
		_, err := r.g.Submit(context.Background(), gate.Submission{Client: "b", Plan: dangerousPlan}, nil)
		waiting <- err
	}()
	<-started
	for r.ask.count() == 0 {
		time.Sleep(time.Millisecond)
	}
	rep := r.g.Kill()
	if rep.Cancelled != 2 || rep.Stragglers != 0 {
		t.Errorf("kill report %+v", rep)
	}
	// When Kill returns, every operation it cancelled has ended: the gate
	// tracks none, and no action is executing. (Each Submit's result then
	// reaches its caller a moment later, on the caller's own goroutine.)
	if st := r.g.Status(); st.Running != 0 || st.Executing != 0 {
		t.Fatalf("Kill returned while work was still running: %+v", st)
	}
	for _, ch := range []chan error{running, waiting} {
		select {
		case err := <-ch:
			if !errors.Is(err, gate.ErrKilled) {
				t.Errorf("submission ended with %v, want ErrKilled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a cancelled submission never returned")
		}
	}
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "c", Plan: safePlan}, nil); !errors.Is(err, gate.ErrKilled) {
		t.Fatalf("after Kill: %v, want ErrKilled", err)
	}
	if !r.g.Status().Killed {
		t.Error("status does not say killed")
	}
	r.g.Resume()
	r.exec.run = nil
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "c", Plan: safePlan}, nil); err != nil {
		t.Fatalf("after Resume: %v", err)
	}
}

func TestEventsFollowTheSubmission(t *testing.T) {
	r := newRig(t, 1, approveAll)
	var types []string
	_, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Plan: dangerousPlan}, func(e gate.Event) {
		types = append(types, e.Type)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"assessed", "awaiting_approval", "approval", "started", "result", "done"}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("events %v, want %v", types, want)
	}
}

// What only the whole plan shows is asked about even where no single action
// would be: at level 2, a dozen deletes are a bulk delete.
func TestPlanLevelRiskIsAsked(t *testing.T) {
	var lines []string
	for i := 0; i < 12; i++ {
		lines = append(lines, `DELETE_FILE "~/Documents/f`+string(rune('a'+i))+`.txt"`)
	}
	r := newRig(t, 2, denyAll)
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Plan: strings.Join(lines, "\n")}, nil)
	if !errors.Is(err, gate.ErrDenied) || r.ask.count() != 1 {
		t.Fatalf("err = %v, asked %d times; want one question, denied", err, r.ask.count())
	}
	if rep.Risk != "destructive" || len(rep.Reasons) == 0 || !strings.Contains(rep.Reasons[0], "BULK DELETE") {
		t.Errorf("plan risk %s, reasons %v", rep.Risk, rep.Reasons)
	}
	if len(r.exec.names()) != 0 {
		t.Errorf("ran %v", r.exec.names())
	}
}

// TestApprovalSaysWhatCarriesTheActions: "plan" only for a plan; a script
// or command says what it is.
func TestApprovalSaysWhatCarriesTheActions(t *testing.T) {
	r := newRig(t, 0, denyAll)
	for _, tt := range []struct {
		s    gate.Submission
		tool string
	}{
		{gate.Submission{Client: "c", Plan: safePlan}, "plan"},
		{gate.Submission{Client: "c", Kind: gate.KindAppleScript, Plan: `display dialog "hi"`}, "AppleScript"},
		{gate.Submission{Client: "c", Kind: gate.KindJXA, Plan: `Application("Finder").name()`}, "JavaScript for Automation"},
		{gate.Submission{Client: "c", Kind: gate.KindCommand, Argv: []string{"ls"}}, "command"},
	} {
		before := r.ask.count()
		r.g.Submit(context.Background(), tt.s, nil)
		if r.ask.count() != before+1 {
			t.Fatalf("%s: not asked", tt.tool)
		}
		if got := r.ask.asked[before]; got.Tool != tt.tool || got.Asked != "" {
			t.Errorf("%+v: Tool %q, Asked %q; want %q", tt.s, got.Tool, got.Asked, tt.tool)
		}
	}
}
