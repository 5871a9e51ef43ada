package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/llm/llmtest"
)

func planClient(t *testing.T, api llm.API, replies ...llmtest.Reply) (*llm.Client, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t, llmtest.Options{API: api, Models: []string{"planner:3b"}})
	srv.Reply(replies...)
	c, _ := newClient(t, llm.Config{Endpoint: srv.URL})
	return c, srv
}

const goodPlan = "CREATE_FOLDER \"~/Documents/Invoices\"\nMOVE_FILE \"~/Downloads/invoice.pdf\" \"~/Documents/Invoices/invoice.pdf\"\n"

func TestPlan(t *testing.T) {
	for _, api := range apis {
		for _, tc := range []struct {
			name     string
			replies  []llmtest.Reply
			want     string
			actions  int
			attempts int
		}{
			{"good plan", []llmtest.Reply{llmtest.Plain(goodPlan)}, goodPlan, 2, 1},
			{"chatter around a plan", []llmtest.Reply{llmtest.Plain("Sure! I'll file it:\n```\n" + goodPlan + "```\nAnything else?")}, goodPlan, 2, 1},
			{"nothing to do", []llmtest.Reply{llmtest.Plain("# No action needed")}, llm.NoAction + "\n", 0, 1},
			{"invalid, then fixed", []llmtest.Reply{llmtest.Plain("MAKE_FOLDER \"~/Documents/Invoices\"\n"), llmtest.Plain(goodPlan)}, goodPlan, 2, 2},
			{"empty, then fixed", []llmtest.Reply{llmtest.Plain("  "), llmtest.Plain(goodPlan)}, goodPlan, 2, 2},
		} {
			t.Run(string(api)+"/"+tc.name, func(t *testing.T) {
				c, srv := planClient(t, api, tc.replies...)
				var steps int
				res, err := c.Plan(context.Background(), llm.PromptContext{Request: "file the invoice"}, func(llm.Progress) { steps++ })
				if err != nil {
					t.Fatalf("Plan: %v", err)
				}
				if res.Plan != tc.want || res.Parsed == nil || len(res.Parsed.Actions) != tc.actions || res.Attempts != tc.attempts {
					t.Errorf("Plan = %+v, want plan %q with %d actions after %d attempts", res, tc.want, tc.actions, tc.attempts)
				}
				if res.NoAction() != (tc.actions == 0) || res.Model != "planner:3b" {
					t.Errorf("NoAction %v, model %q", res.NoAction(), res.Model)
				}
				if steps == 0 && strings.TrimSpace(tc.want) != "" {
					t.Error("no progress was reported")
				}
				if n := len(srv.Chats()); n != tc.attempts {
					t.Errorf("%d chats, want %d", n, tc.attempts)
				}
			})
		}
	}
}

// TestRetryQuotesErrors: the second request carries the first reply as
// the assistant's and the line-numbered errors, quoted.
func TestRetryQuotesErrors(t *testing.T) {
	bad := "NOTIFY \"ok\" \"fine\"\nMAKE_FOLDER \"~/x\"\n"
	c, srv := planClient(t, llm.APIOllama, llmtest.Plain(bad), llmtest.Plain(goodPlan))
	if _, err := c.Plan(context.Background(), llm.PromptContext{Request: "r"}, nil); err != nil {
		t.Fatal(err)
	}
	chats := srv.Chats()
	if len(chats) != 2 {
		t.Fatalf("%d chats", len(chats))
	}
	m := chats[1].Messages
	if len(m) != 4 || m[2].Role != llm.RoleAssistant || m[2].Content != bad || m[3].Role != llm.RoleUser {
		t.Fatalf("retry messages %+v", m)
	}
	for _, want := range []string{llm.Quote(`   2  MAKE_FOLDER "~/x"`), `"line 2: `} {
		if !strings.Contains(m[3].Content, want) {
			t.Errorf("the retry lacks %s:\n%s", want, m[3].Content)
		}
	}
}

// TestBadTwice: a plan that does not parse after the retry is ErrBadPlan,
// with what the model proposed kept for the record; no third request.
func TestBadTwice(t *testing.T) {
	c, srv := planClient(t, llm.APIOpenAI, llmtest.Plain("rm -rf ~\n"))
	res, err := c.Plan(context.Background(), llm.PromptContext{Request: "clean up"}, nil)
	if !errors.Is(err, llm.ErrBadPlan) || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("Plan = %v, want ErrBadPlan naming the line", err)
	}
	if res.Plan != "rm -rf ~\n" || res.Parsed != nil || res.Attempts != 2 || len(srv.Chats()) != 2 {
		t.Errorf("result %+v after %d chats", res, len(srv.Chats()))
	}
}

func TestPlanRefusesRequests(t *testing.T) {
	c, srv := planClient(t, llm.APIOllama)
	for _, pc := range []llm.PromptContext{
		{Request: " \n"},
		{Request: strings.Repeat("a", llm.MaxRequestBytes+1)},
		{Request: "ok", Caller: strings.Repeat("c", llm.MaxContextBytes+1)},
	} {
		if _, err := c.Plan(context.Background(), pc, nil); err == nil {
			t.Errorf("Plan accepted a request of %d bytes with %d of context", len(pc.Request), len(pc.Caller))
		}
	}
	if len(srv.Chats()) != 0 {
		t.Error("a refused request reached the model")
	}
}
