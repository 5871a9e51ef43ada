package history_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// groupRig writes a small history with one request of each shape the
// dashboard shows, at t0 + i minutes for the i-th:
//
//	plan-ok      client "airlock run", two actions (safe ok, caution ok)
//	ask-mixed    client "airlock ask (model m)", a request in words, two model calls, dangerous denied + caution skipped
//	ask-noplan   client "Airlock ask", words only: one model call, no action
//	mcp-running  client "mcp: Claude", one destructive action without outcome
//	rejected     client "mcp: Claude", the whole request refused at blocked, "rejected"
func groupRig(t *testing.T) *history.Store {
	t.Helper()
	s, _, _ := open(t)
	ctx := context.Background()
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Minute) }
	req := func(i int, id, client, kind, text string) {
		must(t, s.AddRequest(ctx, history.Request{ID: id, Time: at(i), Client: client, Kind: kind, Text: text}))
	}
	dec := func(id string, idx int, risk level.Level, d string) {
		must(t, s.AddDecision(ctx, history.Decision{RequestID: id, Index: idx, Time: t0, Action: fmt.Sprintf("ACTION %s %d", id, idx),
			Preview: "preview", Risk: risk, Reasons: []string{"because " + id}, Autonomy: 1, Decision: d}))
	}
	out := func(id string, idx int, approval, status string) {
		must(t, s.AddOutcome(ctx, history.Outcome{RequestID: id, Index: idx, Time: t0, Approval: approval, Status: status}))
	}
	call := func(id string, status, in, outTokens int) {
		must(t, s.AddModelCall(ctx, history.ModelCall{RequestID: id, Time: t0, Endpoint: "http://localhost:11434/api/chat",
			Status: status, Duration: time.Second, PromptTokens: in, CompletionTokens: outTokens}))
	}

	req(0, "plan-ok", "airlock run", "plan", "NOTIFY \"a\" \"b\"\nOPEN_URL \"https://example.com\"\n")
	// Decided out of order on purpose: Groups returns plan order.
	dec("plan-ok", 1, level.Caution, "auto")
	dec("plan-ok", 0, level.Safe, "auto")
	out("plan-ok", 0, "", "ok")
	out("plan-ok", 1, "", "ok")

	req(1, "ask-mixed", "airlock ask (model m)", "ask", "DELETE_FILE \"~/x\"\nNOTIFY \"a\" \"b\"\n-- asked: \"tidy up\"")
	call("ask-mixed", 200, 800, 40)
	call("ask-mixed", 500, 0, 0)
	dec("ask-mixed", 0, level.Dangerous, "ask")
	dec("ask-mixed", 1, level.Caution, "auto")
	out("ask-mixed", 0, "denied", "denied")
	out("ask-mixed", 1, "", "skipped")

	req(2, "ask-noplan", "Airlock ask", "ask", "-- asked: \"do a thing\"\n-- no plan: the model server answered 500")
	call("ask-noplan", 500, 0, 0)

	req(3, "mcp-running", "mcp: Claude", "mcp", "DELETE_FILE \"~/y\"\n")
	dec("mcp-running", 0, level.Destructive, "ask")

	req(4, "rejected", "mcp: Claude", "plan", "NOPE\n")
	dec("rejected", 0, level.Blocked, "refused")
	out("rejected", 0, "", "rejected")

	// A model call for no request, and one for a request not selected,
	// must not leak into others.
	call("", 200, 1, 1)
	return s
}

func ids(gs []history.Group) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Request.ID
	}
	return out
}

// TestGroups: each request comes back whole — its text, its model calls in
// order, its actions in plan order with their outcomes — newest first,
// including requests with no action and actions with no outcome yet.
func TestGroups(t *testing.T) {
	s := groupRig(t)
	gs, err := s.Groups(context.Background(), history.Query{Limit: 100})
	must(t, err)
	if want := []string{"rejected", "mcp-running", "ask-noplan", "ask-mixed", "plan-ok"}; !slices.Equal(ids(gs), want) {
		t.Fatalf("Groups = %q, want %q", ids(gs), want)
	}
	for i := 1; i < len(gs); i++ {
		if gs[i].Seq >= gs[i-1].Seq {
			t.Errorf("seq %d after %d: not newest first", gs[i].Seq, gs[i-1].Seq)
		}
	}
	byID := map[string]history.Group{}
	for _, g := range gs {
		byID[g.Request.ID] = g
	}

	ok := byID["plan-ok"]
	if ok.Request.Client != "airlock run" || ok.Request.Kind != "plan" || ok.Request.Text != "NOTIFY \"a\" \"b\"\nOPEN_URL \"https://example.com\"\n" ||
		!ok.Request.Time.Equal(t0) {
		t.Errorf("plan-ok request = %+v", ok.Request)
	}
	if len(ok.Actions) != 2 || ok.Actions[0].Decision.Index != 0 || ok.Actions[1].Decision.Index != 1 {
		t.Fatalf("plan-ok actions = %+v, want indexes 0 then 1", ok.Actions)
	}
	if a := ok.Actions[1]; a.Decision.Action != "ACTION plan-ok 1" || a.Decision.Risk != level.Caution ||
		!slices.Equal(a.Decision.Reasons, []string{"because plan-ok"}) || a.Outcome == nil || a.Outcome.Status != "ok" {
		t.Errorf("plan-ok action 1 = %+v / %+v", a.Decision, a.Outcome)
	}
	if len(ok.ModelCalls) != 0 {
		t.Errorf("plan-ok has model calls %+v", ok.ModelCalls)
	}

	mixed := byID["ask-mixed"]
	if len(mixed.ModelCalls) != 2 || mixed.ModelCalls[0].Status != 200 || mixed.ModelCalls[0].PromptTokens != 800 ||
		mixed.ModelCalls[0].CompletionTokens != 40 || mixed.ModelCalls[0].Duration != time.Second ||
		mixed.ModelCalls[0].Endpoint != "http://localhost:11434/api/chat" || mixed.ModelCalls[1].Status != 500 {
		t.Errorf("ask-mixed model calls = %+v", mixed.ModelCalls)
	}
	if a := mixed.Actions[0]; a.Outcome == nil || a.Outcome.Approval != "denied" || a.Outcome.Status != "denied" {
		t.Errorf("ask-mixed action 0 outcome = %+v", a.Outcome)
	}

	noplan := byID["ask-noplan"]
	if len(noplan.Actions) != 0 || len(noplan.ModelCalls) != 1 {
		t.Errorf("ask-noplan: %d actions, %d model calls; want 0 and 1", len(noplan.Actions), len(noplan.ModelCalls))
	}
	if a := byID["mcp-running"].Actions; len(a) != 1 || a[0].Outcome != nil {
		t.Errorf("mcp-running actions = %+v, want one without outcome", a)
	}
}

// TestGroupsFilters: every filter selects exactly the requests it names,
// and filters combine.
func TestGroupsFilters(t *testing.T) {
	s := groupRig(t)
	all, err := s.Groups(context.Background(), history.Query{Limit: 100})
	must(t, err)
	seqOf := map[string]int64{}
	for _, g := range all {
		seqOf[g.Request.ID] = g.Seq
	}
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Minute) }
	for _, tc := range []struct {
		name string
		q    history.Query
		want []string
	}{
		{"client, any case", history.Query{Client: "AIRLOCK ASK"}, []string{"ask-noplan", "ask-mixed"}},
		{"client, part of the name", history.Query{Client: "claude"}, []string{"rejected", "mcp-running"}},
		{"client nobody has", history.Query{Client: "cursor"}, nil},
		{"client with LIKE's wildcards is literal", history.Query{Client: "%"}, nil},
		{"risk dangerous or more", history.Query{Risks: []level.Level{level.Dangerous, level.Destructive, level.Blocked}},
			[]string{"rejected", "mcp-running", "ask-mixed"}},
		{"risk exactly safe", history.Query{Risks: []level.Level{level.Safe}}, []string{"plan-ok"}},
		{"outcome ok", history.Query{Outcome: "ok"}, []string{"plan-ok"}},
		{"outcome denied", history.Query{Outcome: "denied"}, []string{"ask-mixed"}},
		{"outcome skipped", history.Query{Outcome: "skipped"}, []string{"ask-mixed"}},
		{"outcome rejected", history.Query{Outcome: "rejected"}, []string{"rejected"}},
		{"outcome running", history.Query{Outcome: history.OutcomeRunning}, []string{"mcp-running"}},
		{"outcome no plan", history.Query{Outcome: history.OutcomeNoPlan}, []string{"ask-noplan"}},
		{"outcome nobody had", history.Query{Outcome: "killed"}, nil},
		{"since, inclusive", history.Query{Since: at(3)}, []string{"rejected", "mcp-running"}},
		{"until, exclusive", history.Query{Until: at(1)}, []string{"plan-ok"}},
		{"since and until", history.Query{Since: at(1), Until: at(3)}, []string{"ask-noplan", "ask-mixed"}},
		{"before pages", history.Query{Before: seqOf["ask-noplan"]}, []string{"ask-mixed", "plan-ok"}},
		{"limit keeps the newest", history.Query{Limit: 2}, []string{"rejected", "mcp-running"}},
		{"combined", history.Query{Client: "ask", Risks: []level.Level{level.Caution}, Outcome: "skipped", Since: at(1)},
			[]string{"ask-mixed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.q.Limit == 0 {
				tc.q.Limit = history.MaxGroups
			}
			gs, err := s.Groups(context.Background(), tc.q)
			must(t, err)
			if got := ids(gs); !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("Groups(%+v) = %q, want %q", tc.q, got, tc.want)
			}
			for _, g := range gs {
				// A filter selects requests; it never cuts their actions.
				if full := all[slices.IndexFunc(all, func(a history.Group) bool { return a.Request.ID == g.Request.ID })]; len(full.Actions) != len(g.Actions) ||
					len(full.ModelCalls) != len(g.ModelCalls) {
					t.Errorf("%s came back with %d actions and %d model calls, want %d and %d",
						g.Request.ID, len(g.Actions), len(g.ModelCalls), len(full.Actions), len(full.ModelCalls))
				}
			}
		})
	}
}

// TestGroupsRefusesBadQueries: a query out of bounds is refused with
// ErrInvalid and a message naming what is wrong, never run.
func TestGroupsRefusesBadQueries(t *testing.T) {
	s := groupRig(t)
	for _, tc := range []struct {
		q    history.Query
		says string
	}{
		{history.Query{}, "limit 0"},
		{history.Query{Limit: history.MaxGroups + 1}, "limit 501"},
		{history.Query{Limit: 1, Before: -1}, "before -1"},
		{history.Query{Limit: 1, Risks: []level.Level{level.Blocked + 1}}, "risk 5"},
		{history.Query{Limit: 1, Outcome: "exploded"}, `outcome "exploded"`},
		{history.Query{Limit: 1, Since: t0, Until: t0}, "until"},
	} {
		_, err := s.Groups(context.Background(), tc.q)
		if !errors.Is(err, history.ErrInvalid) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Groups(%+v) = %v, want ErrInvalid saying %q", tc.q, err, tc.says)
		}
	}
}

// TestGroupsTampered: a request text that does not open fails the read
// with a TamperError naming the row, rather than showing something else.
func TestGroupsTampered(t *testing.T) {
	s, path, _ := open(t)
	action(t, s, "r1")
	action(t, s, "r2")
	db := raw(t, path)
	if _, err := db.Exec("UPDATE requests SET text = (SELECT text FROM requests WHERE id = 'r1') WHERE id = 'r2'"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Groups(context.Background(), history.Query{Limit: 10})
	var te *history.TamperError
	if !errors.As(err, &te) || te.Table != "requests" || te.Column != "text" {
		t.Fatalf("Groups over a moved sealed value: %v, want a TamperError on requests.text", err)
	}
}
