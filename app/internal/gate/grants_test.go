package gate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// agent is a verified client program: grants can belong to it.
var agent = policy.Identity{Key: "exe:/usr/bin/agent", Program: "/usr/bin/agent (pid 42)"}

// approveRemember approves every item and asks to remember it, whether or
// not "allow again" was offered: the gate must not remember what it did
// not offer.
func approveRemember(ctx context.Context, r approval.Request) (approval.Answer, error) {
	a, err := approveAll(ctx, r)
	a.Remember = true
	return a, err
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestGrantCoversWhatRunsNotItsText reproduces issue 20's attack, in a
// home that is the test's own: the person approves `python3
// ~/Documents/build.py` with "allow again"; the agent replaces build.py
// and submits the same command. It must be asked about again, not run as
// granted; the unchanged script is granted.
func TestGrantCoversWhatRunsNotItsText(t *testing.T) {
	r := newRig(t, policy.SmartDefault, approveRemember)
	script := filepath.Join(r.home, "Documents", "build.py")
	writeFile(t, script, "print('build')\n")
	run := func() gate.Report {
		t.Helper()
		rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "mcp: agent", Identity: agent,
			Kind: gate.KindCommand, Argv: []string{"python3", "~/Documents/build.py"}}, nil)
		if err != nil {
			t.Fatalf("%v %+v", err, rep)
		}
		return rep
	}
	if rep := run(); rep.Actions[0].Approval != "approved" || r.ask.count() != 1 {
		t.Fatalf("first run: %+v, asked %d times", rep.Actions[0], r.ask.count())
	}
	if first := r.ask.asked[0]; first.NoRemember || first.NoRememberWhy != "" {
		t.Fatalf("allow again was not offered for a script Airlock can pin: %+v", first)
	}
	if rep := run(); rep.Actions[0].Approval != "granted" || r.ask.count() != 1 {
		t.Fatalf("the unchanged script: %+v, asked %d times; want granted", rep.Actions[0], r.ask.count())
	}

	// The attack: same command, other content.
	writeFile(t, script, "print('replaced by the agent')\n")
	if rep := run(); rep.Actions[0].Approval == "granted" || r.ask.count() != 2 {
		t.Fatalf("the replaced script ran as %q (asked %d times); want asked again", rep.Actions[0].Approval, r.ask.count())
	}
	// The person approved the new content and remembered it: that holds.
	if rep := run(); rep.Actions[0].Approval != "granted" || r.ask.count() != 2 {
		t.Fatalf("the script approved again: %+v, asked %d times; want granted", rep.Actions[0], r.ask.count())
	}

	// Gone: asked again, and nothing can be remembered for a script that
	// is not there (python3 would fail; another file could take its place).
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	if rep := run(); rep.Actions[0].Approval == "granted" || r.ask.count() != 3 {
		t.Fatalf("the removed script ran as granted")
	}
	if last := r.ask.asked[2]; !last.NoRemember || !strings.Contains(last.NoRememberWhy, "does not exist") {
		t.Fatalf("allow again offered for a missing script: %+v", last)
	}
	if got := len(r.exec.names()); got != 5 {
		t.Fatalf("%d commands ran, want 5", got)
	}
}

// TestGrantNotOfferedWhenFilesUnknown: where Airlock cannot name what a
// command runs, "allow again" is not offered, says why, and an answer that
// asks for it anyway remembers nothing.
func TestGrantNotOfferedWhenFilesUnknown(t *testing.T) {
	r := newRig(t, policy.SmartDefault, approveRemember)
	for i, tt := range []struct {
		sub  gate.Submission
		says string
	}{
		{gate.Submission{Kind: gate.KindCommand, Argv: []string{"python3", "-m", "build"}}, "module path"},
		{gate.Submission{Kind: gate.KindCommand, Argv: []string{"node", "-r", "./hook.js", "a.js"}}, "not modelled"},
		{gate.Submission{Kind: gate.KindCommand, Argv: []string{"sh", "-c", "cp ~/Documents/x.py ~/Documents/b.py && python3 ~/Documents/b.py"}}, "other commands"},
		{gate.Submission{Kind: gate.KindCommand, Argv: []string{"make", "CC=./cc"}}, "can change what its recipes run"},
		{gate.Submission{Kind: gate.KindCommand, Argv: []string{"bun", "a.ts"}}, "cannot name"},
		{gate.Submission{Plan: `RUN_SHORTCUT "Build"`}, "Shortcuts app"},
		{gate.Submission{Kind: gate.KindAppleScript, Plan: `do shell script "python3 ~/Documents/b.py"`}, "cannot name"},
		{gate.Submission{Kind: gate.KindCommand, Argv: []string{"xargs", "python3"}}, "destructive action needs its own approval"},
	} {
		tt.sub.Client, tt.sub.Identity = "mcp: agent", agent
		for range 2 {
			if rep, err := r.g.Submit(context.Background(), tt.sub, nil); err != nil || rep.Actions[0].Approval != "approved" {
				t.Fatalf("case %d: %v %+v", i, err, rep)
			}
		}
		asked := r.ask.asked[len(r.ask.asked)-2:]
		if len(r.ask.asked) != 2*(i+1) {
			t.Fatalf("case %d: asked %d times; the second run was granted", i, len(r.ask.asked))
		}
		if !asked[0].NoRemember || !strings.Contains(asked[0].NoRememberWhy, tt.says) {
			t.Errorf("case %d: request %+v: want allow again not offered, saying %q", i, asked[0], tt.says)
		}
	}
}

// TestGrantCheckedWhenItsTurnComes: a granted action is checked again right
// before it starts. Here the page a granted OPEN_FILE opens changes while
// the person is asked about the rest of the plan: the action does not run.
func TestGrantCheckedWhenItsTurnComes(t *testing.T) {
	page := ""
	r := newRig(t, policy.AskAll, func(ctx context.Context, req approval.Request) (approval.Answer, error) {
		if len(req.Items) == 2 {
			writeFile(t, page, "<script>changed while you were asked</script>\n")
		}
		return approveRemember(ctx, req)
	})
	page = filepath.Join(r.home, "Documents", "page.html")
	writeFile(t, page, "<p>report</p>\n")
	open := `OPEN_FILE "~/Documents/page.html"`
	submit := func(plan string) (gate.Report, error) {
		return r.g.Submit(context.Background(), gate.Submission{Client: "mcp: agent", Identity: agent, Plan: plan}, nil)
	}
	if rep, err := submit(open); err != nil || rep.Actions[0].Approval != "approved" {
		t.Fatalf("%v %+v", err, rep)
	}
	rep, err := submit(open + "\n" + `NOTIFY "a" "b"`)
	if !errors.Is(err, policy.ErrLapsed) || rep.Status != gate.StatusRefused {
		t.Fatalf("err = %v, status %s; want refused, the grant lapsed", err, rep.Status)
	}
	if a := rep.Actions[0]; a.Approval != "granted" || a.Status != gate.StatusRefused || !strings.Contains(a.Error, "changed since it was approved") {
		t.Fatalf("the granted action: %+v", a)
	}
	if ran := r.exec.names(); len(ran) != 1 {
		t.Fatalf("ran %q; the changed page was opened", ran)
	}
}
