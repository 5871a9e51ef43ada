package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Each test runs over both transports: the SDK's client against the server
// in memory, and against the built `airlock mcp` as a subprocess on stdio,
// with a real gate behind either.
func forEachTransport(t *testing.T, f func(t *testing.T, connect func(w *world) *mcp.ClientSession)) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f(t, func(w *world) *mcp.ClientSession { return tr.connect(t, w, nil) })
		})
	}
}

func TestApproved(t *testing.T) {
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		w := newWorld(t, gateOpts{autonomy: policy.AskAll})
		w.startGate()
		cs := connect(w)

		rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"echo", "hello from", "the gate"}})
		if res.IsError || rr.Status != gate.StatusOK {
			t.Fatalf("IsError %v, status %q:\n%s", res.IsError, rr.Status, textOf(res))
		}
		asked := w.prompted()
		if want := "mcp: " + agentName; asked.Client != want || rr.Client != want {
			t.Errorf("the popup named the client %q and the result %q, want %q", asked.Client, rr.Client, want)
		}
		if len(asked.Items) != 1 || !strings.Contains(asked.Items[0].Text, "'hello from'") {
			t.Errorf("the person was not shown the exact command: %+v", asked.Items)
		}
		if len(rr.Actions) != 1 {
			t.Fatalf("actions: %+v", rr.Actions)
		}
		a := rr.Actions[0]
		if a.Decision != "ask" || a.Approval != "approved" || a.Status != gate.StatusOK || a.Output != "hello from the gate\n" || a.Risk == "" {
			t.Errorf("action: %+v", a)
		}
		for _, want := range []string{"Done", "approval approved", "hello from the gate", rr.Request} {
			if !strings.Contains(textOf(res), want) {
				t.Errorf("text lacks %q:\n%s", want, textOf(res))
			}
		}
		recs := w.records()
		if len(recs) != 1 || recs[0].Request.Client != "mcp: "+agentName || recs[0].Request.ID != rr.Request ||
			recs[0].Outcome == nil || recs[0].Outcome.Approval != "approved" {
			t.Errorf("history: %+v", recs)
		}
	})
}

func TestDenied(t *testing.T) {
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		w := newWorld(t, gateOpts{autonomy: policy.SmartDefault, answer: denyAll})
		w.startGate()
		cs := connect(w)

		target := filepath.Join(w.home, "Documents", "notes.md")
		plan := "NOTIFY \"Airlock\" \"about to write\"\nWRITE_FILE \"~/Documents/notes.md\" \"hello\"\n"
		rr, res := run(t, cs, airmcp.ToolRunActions, map[string]any{"plan": plan})
		if !res.IsError || rr.Status != gate.StatusDenied {
			t.Fatalf("IsError %v, status %q:\n%s", res.IsError, rr.Status, textOf(res))
		}
		w.prompted()
		if _, err := os.Stat(target); !os.IsNotExist(err) {
			t.Errorf("a denied write happened: %v", err)
		}
		if !strings.HasPrefix(textOf(res), "Denied: the person said no") {
			t.Errorf("text:\n%s", textOf(res))
		}
		if len(rr.Actions) != 2 || rr.Actions[1].Approval != "denied" || rr.Actions[1].Risk != "dangerous" || len(rr.Actions[1].Reasons) == 0 {
			t.Errorf("actions: %+v", rr.Actions)
		}
		for _, a := range rr.Actions {
			if a.Status == gate.StatusOK {
				t.Errorf("action %d ran: %+v", a.Number, a)
			}
		}
	})
}

func TestBlocked(t *testing.T) {
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		w := newWorld(t, gateOpts{autonomy: policy.FullAuto})
		w.startGate()
		cs := connect(w)
		if err := os.WriteFile(filepath.Join(w.home, ".ssh", "id_ed25519"), []byte("key"), 0o600); err != nil {
			t.Fatal(err)
		}

		rr, res := run(t, cs, airmcp.ToolRunActions, map[string]any{"plan": "MOVE_FILE \"~/.ssh/id_ed25519\" \"~/Documents/key\"\n"})
		if !res.IsError || rr.Status != airmcp.StatusBlocked || rr.Risk != "blocked" {
			t.Fatalf("IsError %v, status %q, risk %q:\n%s", res.IsError, rr.Status, rr.Risk, textOf(res))
		}
		w.notPrompted()
		if _, err := os.Stat(filepath.Join(w.home, ".ssh", "id_ed25519")); err != nil {
			t.Errorf("the key moved: %v", err)
		}
		if text := textOf(res); !strings.HasPrefix(text, "Blocked:") || !strings.Contains(text, "credential store") {
			t.Errorf("text:\n%s", text)
		}
	})
}

func TestTimedOut(t *testing.T) {
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		w := newWorld(t, gateOpts{autonomy: policy.AskAll, answer: neverAnswer, timeout: 1})
		w.startGate()
		cs := connect(w)

		rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"touch", filepath.Join(w.home, "Documents", "t")}})
		if !res.IsError || rr.Status != gate.StatusTimeout {
			t.Fatalf("IsError %v, status %q:\n%s", res.IsError, rr.Status, textOf(res))
		}
		if len(rr.Actions) != 1 || rr.Actions[0].Approval != "timeout" {
			t.Errorf("actions: %+v", rr.Actions)
		}
		if _, err := os.Stat(filepath.Join(w.home, "Documents", "t")); !os.IsNotExist(err) {
			t.Errorf("a timed-out command ran: %v", err)
		}
		if !strings.HasPrefix(textOf(res), "Timed out:") {
			t.Errorf("text:\n%s", textOf(res))
		}
	})
}

func TestKilledWhileWaitingForApproval(t *testing.T) {
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		w := newWorld(t, gateOpts{autonomy: policy.AskAll, answer: neverAnswer})
		w.startGate()
		cs := connect(w)

		go func() {
			w.prompted()
			w.gate.Kill() // the person's hotkey
		}()
		rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"true"}})
		if !res.IsError || rr.Status != gate.StatusKilled {
			t.Fatalf("IsError %v, status %q:\n%s", res.IsError, rr.Status, textOf(res))
		}
		if !strings.HasPrefix(textOf(res), "Killed:") {
			t.Errorf("text:\n%s", textOf(res))
		}

		// The switch stays on: the next call is refused unasked, and status
		// says so.
		rr, res = run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"true"}})
		if !res.IsError || rr.Status != gate.StatusKilled {
			t.Errorf("after the kill: IsError %v, status %q", res.IsError, rr.Status)
		}
		w.notPrompted()
		var st airmcp.Status
		decode(t, call(t, cs, airmcp.ToolStatus, nil), &st)
		if !st.Running || !st.Killed || !strings.Contains(st.Message, "KILLED") {
			t.Errorf("status: %+v", st)
		}
	})
}

func TestKilledWhileRunning(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.FullAuto})
	w.startGate()
	cs := connectMemory(t, w, nil)
	finished := make(chan struct{})
	go func() {
		// Trip the switch once the gate says the command is executing.
		for w.gate.Status().Executing == 0 {
			select {
			case <-finished:
				return
			case <-time.After(time.Millisecond):
			}
		}
		w.gate.Kill()
	}()
	rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"sleep", "600"}})
	close(finished)
	if !res.IsError || rr.Status != gate.StatusKilled || len(rr.Actions) != 1 || rr.Actions[0].Status != gate.StatusKilled {
		t.Fatalf("IsError %v, status %q, actions %+v:\n%s", res.IsError, rr.Status, rr.Actions, textOf(res))
	}
}

func TestFailed(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.AskAll})
	w.startGate()
	cs := connectMemory(t, w, nil)
	rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"ls", filepath.Join(w.home, "Documents", "missing")}})
	if !res.IsError || rr.Status != gate.StatusFailed || rr.Actions[0].Error == "" {
		t.Fatalf("IsError %v, status %q, actions %+v:\n%s", res.IsError, rr.Status, rr.Actions, textOf(res))
	}
	if !strings.HasPrefix(textOf(res), "Failed:") {
		t.Errorf("text:\n%s", textOf(res))
	}
}

// TestScriptsReachTheGate checks that the script tools send their kind,
// source and argv: the person sees the source and the arguments.
func TestScriptsReachTheGate(t *testing.T) {
	for _, tc := range []struct {
		tool, source string
	}{
		{airmcp.ToolRunAppleScript, "on run argv\n  display dialog (item 1 of argv)\nend run"},
		{airmcp.ToolRunJXA, "function run(argv) { return argv[0] }"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			w := newWorld(t, gateOpts{autonomy: policy.AskAll})
			w.startGate()
			cs := connectMemory(t, w, nil)
			rr, res := run(t, cs, tc.tool, map[string]any{"source": tc.source, "argv": []string{"an argument"}})
			asked := w.prompted()
			if text := asked.Items[0].Text; !strings.Contains(text, tc.source) || !strings.Contains(text, "'an argument'") {
				t.Errorf("the person was shown:\n%s", text)
			}
			// Linux has no osascript: the approved script fails rather
			// than pretending to run.
			if !res.IsError || rr.Status != gate.StatusFailed {
				t.Errorf("IsError %v, status %q:\n%s", res.IsError, rr.Status, textOf(res))
			}
		})
	}
}

func TestOutputIsRedactedAndBounded(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.FullAuto})
	w.startGate()
	cs := connectMemory(t, w, nil)

	token := "ghp_" + strings.Repeat("A1b2C3d4E5", 4)[:36]
	rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"echo", "token=" + token}})
	if res.IsError {
		t.Fatalf("%s", textOf(res))
	}
	if strings.Contains(textOf(res), token) || strings.Contains(rr.Actions[0].Output, token) {
		t.Errorf("the token reached the agent:\n%s", textOf(res))
	}

	rr, res = run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"seq", "1", "100000"}})
	if res.IsError {
		t.Fatalf("%s", textOf(res))
	}
	out := rr.Actions[0].Output
	if !rr.Truncated || len(out) > airmcp.DefaultMaxOutput+100 || !strings.HasPrefix(out, "1\n2\n3\n") || !strings.Contains(out, "more bytes cut") {
		t.Errorf("truncated %v, %d bytes of output, ending %q", rr.Truncated, len(out), out[max(0, len(out)-80):])
	}
}

func TestProgress(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.AskAll})
	w.startGate()
	msgs := make(chan string, 64)
	cs := connectMemory(t, w, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		msgs <- r.Params.Message
	}})
	params := &mcp.CallToolParams{Name: airmcp.ToolRunCommand, Arguments: map[string]any{"argv": []string{"true"}}}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, textOf(res))
	}
	var got []string
	for len(got) < 5 {
		got = append(got, <-msgs)
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"needs the person's approval", "waiting for the person", "approval: approved", "running"} {
		if !strings.Contains(joined, want) {
			t.Errorf("progress lacks %q:\n%s", want, joined)
		}
	}
}

// TestCancelWithdrawsTheRequest checks that an agent that gives up on a call
// takes its approval request out of the popup with it.
func TestCancelWithdrawsTheRequest(t *testing.T) {
	withdrawn := make(chan struct{})
	w := newWorld(t, gateOpts{autonomy: policy.AskAll, answer: func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		<-ctx.Done()
		close(withdrawn)
		return approval.Answer{}, ctx.Err()
	}})
	w.startGate()
	cs := connectMemory(t, w, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		w.prompted()
		cancel()
	}()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: airmcp.ToolRunCommand, Arguments: map[string]any{"argv": []string{"true"}}})
	if err == nil {
		t.Fatal("a cancelled call succeeded")
	}
	<-withdrawn
}

// TestRedial checks that a gate restarted between two calls is found again:
// nothing holds on to a connection the gate has closed.
func TestRedial(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.FullAuto})
	w.startGate()
	cs := connectMemory(t, w, nil)
	if rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"true"}}); res.IsError {
		t.Fatalf("%s %+v", textOf(res), rr)
	}
	w.stopGate()
	res := call(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"true"}})
	if !res.IsError || !strings.Contains(textOf(res), "not running") {
		t.Errorf("with the gate stopped: %s", textOf(res))
	}
	w.startGate()
	if rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"true"}}); res.IsError || rr.Status != gate.StatusOK {
		t.Errorf("after the restart: %s", textOf(res))
	}
}

// TestCallsDoNotWaitForEachOther checks that a call waiting for the person
// holds up neither status nor other work: each call has its own connection
// to the gate.
func TestCallsDoNotWaitForEachOther(t *testing.T) {
	release := make(chan struct{})
	w := newWorld(t, gateOpts{autonomy: policy.SmartDefault, answer: func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		<-release
		return approveAll(ctx, r)
	}})
	w.startGate()
	cs := connectMemory(t, w, nil)

	first := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: airmcp.ToolRunActions,
			Arguments: map[string]any{"plan": "WRITE_FILE \"~/Documents/first.txt\" \"first\""}})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		first <- res
	}()
	w.prompted()

	var st airmcp.Status
	decode(t, call(t, cs, airmcp.ToolStatus, nil), &st)
	if st.Pending != 1 {
		t.Errorf("status while the first call waits: %+v", st)
	}
	if rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"true"}}); res.IsError || rr.Status != gate.StatusOK {
		t.Errorf("the second call: %s", textOf(res))
	}
	close(release)
	if res := <-first; res.IsError {
		t.Errorf("the first call: %s", textOf(res))
	}
	if b, err := os.ReadFile(filepath.Join(w.home, "Documents", "first.txt")); err != nil || string(b) != "first" {
		t.Errorf("first.txt: %q, %v", b, err)
	}
}

// TestRefusedWithoutApprover checks seed 001's invariant through MCP: with
// nobody to ask, what needs approval fails and says approval was required.
func TestRefusedWithoutApprover(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.SmartDefault, noApprover: true})
	w.startGate()
	cs := connectMemory(t, w, nil)
	keep := filepath.Join(w.home, "Documents", "keep.txt")
	if err := os.WriteFile(keep, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	rr, res := run(t, cs, airmcp.ToolRunActions, map[string]any{"plan": "DELETE_FILE \"~/Documents/keep.txt\""})
	if !res.IsError || rr.Status != gate.StatusRefused || !strings.Contains(rr.Error, "approval required") {
		t.Fatalf("IsError %v, status %q, error %q", res.IsError, rr.Status, rr.Error)
	}
	if !strings.HasPrefix(textOf(res), "Refused:") {
		t.Errorf("text:\n%s", textOf(res))
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("keep.txt: %v", err)
	}
}

// TestWithdrawnByTheClient: an MCP client that gives up on a call while the
// person has not answered (it cancels the call) withdraws the request: the
// popup goes away, and the history says withdrawn, not denied.
func TestWithdrawnByTheClient(t *testing.T) {
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		taken := make(chan struct{}, 1)
		w := newWorld(t, gateOpts{autonomy: policy.AskAll, answer: func(ctx context.Context, r approval.Request) (approval.Answer, error) {
			<-ctx.Done()
			taken <- struct{}{}
			return approval.Answer{}, ctx.Err()
		}})
		w.startGate()
		cs := connect(w)
		ctx, cancel := context.WithCancel(context.Background())
		called := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: airmcp.ToolRunCommand,
				Arguments: map[string]any{"argv": []string{"touch", filepath.Join(w.home, "Documents", "w")}}})
			called <- err
		}()
		w.prompted()
		cancel() // the agent gives up
		if err := <-called; err == nil {
			t.Fatal("a cancelled call returned a result")
		}
		<-taken // the popup was taken down
		select {
		case e := <-w.ended:
			if e.Status != gate.StatusWithdrawn || !strings.Contains(e.Error, "the client disconnected") {
				t.Fatalf("the request ended %q (%s), want withdrawn, the client having disconnected", e.Status, e.Error)
			}
		case <-time.After(wait):
			t.Fatal("the request never ended")
		}
		entries := w.records()
		if len(entries) != 1 || entries[0].Outcome == nil {
			t.Fatalf("history: %+v", entries)
		}
		if o := entries[0].Outcome; o.Approval != "withdrawn" || o.Status != "withdrawn" {
			t.Fatalf("history says approval %q, status %q; want withdrawn", o.Approval, o.Status)
		}
		if _, err := os.Stat(filepath.Join(w.home, "Documents", "w")); !os.IsNotExist(err) {
			t.Errorf("a withdrawn command ran: %v", err)
		}
	})
}

// TestEditedByThePerson: the person edits the agent's plan in the popup;
// the agent is told that what ran is the person's edit, and of which
// request.
func TestEditedByThePerson(t *testing.T) {
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		answered := 0
		w := newWorld(t, gateOpts{autonomy: policy.SmartDefault, answer: func(_ context.Context, r approval.Request) (approval.Answer, error) {
			answered++
			if answered == 1 {
				return approval.Answer{Outcome: approval.Edited, Text: `CREATE_FOLDER "~/Documents/mine"`, By: "the person, in a test"}, nil
			}
			return approval.Answer{Outcome: approval.Denied}, nil
		}})
		w.startGate()
		cs := connect(w)
		rr, res := run(t, cs, airmcp.ToolRunActions, map[string]any{"plan": `WRITE_FILE "~/Documents/theirs.md" "x"`})
		if res.IsError || rr.Status != gate.StatusOK || rr.EditOf == "" || rr.EditOf == rr.Request {
			t.Fatalf("IsError %v, status %q, edit of %q:\n%s", res.IsError, rr.Status, rr.EditOf, textOf(res))
		}
		if !strings.Contains(textOf(res), "The person edited your plan in Airlock's approval popup (your request "+rr.EditOf+")") {
			t.Errorf("text:\n%s", textOf(res))
		}
		if fi, err := os.Stat(filepath.Join(w.home, "Documents", "mine")); err != nil || !fi.IsDir() {
			t.Errorf("the edit did not run: %v", err)
		}
		if _, err := os.Stat(filepath.Join(w.home, "Documents", "theirs.md")); !os.IsNotExist(err) {
			t.Errorf("the agent's plan ran: %v", err)
		}
	})
}
