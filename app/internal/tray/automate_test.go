package tray_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/llm/llmtest"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

const folderPlan = "CREATE_FOLDER \"~/Documents/Invoices\"\n"

// typed is an AskText that answers text and ok, and counts its popups.
func typed(text string, ok bool, n *atomic.Int32) func(context.Context, string, string) (string, bool, error) {
	return func(_ context.Context, title, prompt string) (string, bool, error) {
		n.Add(1)
		if title != "Automate…" || prompt == "" {
			return "", false, errors.New("unexpected popup " + title)
		}
		return text, ok, nil
	}
}

func modelServer(t *testing.T, replies ...llmtest.Reply) *llmtest.Server {
	srv := llmtest.New(t, llmtest.Options{API: llm.APIOllama, Models: []string{"planner:3b"}})
	srv.Reply(replies...)
	return srv
}

func automateItem(t *testing.T, m tray.Menu) tray.Item {
	t.Helper()
	for _, it := range m.Items {
		if it.Action.Kind == tray.Automate || strings.HasPrefix(it.Title, "Automate…") || strings.Contains(it.Title, "model") {
			return it
		}
	}
	t.Fatalf("no Automate… item in %v", titles(m.Items))
	return tray.Item{}
}

// idle is a menu back to normal after an automation: Automate… clickable,
// no title beside the icon.
func idle(m tray.Menu) bool {
	for _, it := range m.Items {
		if it.Action.Kind == tray.Automate {
			return it.Enabled && it.Title == "Automate…" && m.Title == "" && !strings.Contains(m.Tooltip, "model")
		}
	}
	return false
}

// TestAutomateMakesAFolder: the words typed go to the model, and its plan
// goes through the gate as the menu's: at Level 1 a caution action runs
// without asking; at Level 0 it waits for the person's approval, shown
// with the menu's client name, and runs once approved. The menu is back to
// normal afterwards.
func TestAutomateMakesAFolder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level policy.Autonomy
		asked int32
	}{
		{"level 1 runs it", policy.SmartDefault, 0},
		{"level 0 asks first", policy.AskAll, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var prompts atomic.Int32
			p := approval.ScriptedFunc(func(_ context.Context, r approval.Request) (approval.Answer, error) {
				prompts.Add(1)
				if !strings.HasPrefix(r.Client, tray.AutomateClient+" (model planner:3b)") {
					return approval.Answer{}, nil
				}
				return approval.Answer{Outcome: approval.Approved}, nil
			})
			srv := modelServer(t, llmtest.Plain(folderPlan))
			var popups atomic.Int32
			rg := newRig(t, rigOptions{autonomy: tc.level, prompter: p, model: srv,
				askText: typed("make a folder Invoices in my Documents", true, &popups)})
			if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.Automate}); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(filepath.Join(rg.home, "Documents", "Invoices")); err != nil || !fi.IsDir() {
				t.Errorf("the folder was not made: %v", err)
			}
			if popups.Load() != 1 || prompts.Load() != tc.asked {
				t.Errorf("%d text popups and %d approval prompts; want 1 and %d", popups.Load(), prompts.Load(), tc.asked)
			}
			chats := srv.Chats()
			if len(chats) != 1 || !strings.Contains(chats[0].Messages[len(chats[0].Messages)-1].Content, "make a folder Invoices in my Documents") {
				t.Errorf("the model was asked %+v", chats)
			}
			recent, err := rg.store.Recent(context.Background(), 1)
			if err != nil || len(recent) != 1 || !strings.HasPrefix(recent[0].Request.Client, tray.AutomateClient) ||
				recent[0].Outcome == nil || recent[0].Outcome.Status != gate.StatusOK {
				t.Errorf("history %+v, %v", recent, err)
			}
			rg.r.await(t, "the menu back to normal", idle)
		})
	}
}

// TestAutomateNothingAsked: cancelling, an empty request or a failed popup
// reach no model; with no popup at all nothing is asked and Do says why.
func TestAutomateNothingAsked(t *testing.T) {
	errPopup := errors.New("zenity died")
	for _, tc := range []struct {
		name    string
		askText func(*atomic.Int32) func(context.Context, string, string) (string, bool, error)
		err     bool
	}{
		{"cancelled", func(n *atomic.Int32) func(context.Context, string, string) (string, bool, error) {
			return typed("make a folder", false, n)
		}, false},
		{"empty", func(n *atomic.Int32) func(context.Context, string, string) (string, bool, error) {
			return typed(" \t ", true, n)
		}, false},
		{"the popup fails", func(n *atomic.Int32) func(context.Context, string, string) (string, bool, error) {
			return func(context.Context, string, string) (string, bool, error) {
				n.Add(1)
				return "make a folder", true, errPopup
			}
		}, true},
		{"no popup", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := modelServer(t, llmtest.Plain(folderPlan))
			var popups atomic.Int32
			o := rigOptions{autonomy: policy.SmartDefault, model: srv}
			if tc.askText != nil {
				o.askText = tc.askText(&popups)
			}
			rg := newRig(t, o)
			err := rg.app.Do(context.Background(), tray.Action{Kind: tray.Automate})
			if (err != nil) != tc.err {
				t.Errorf("Do = %v, want an error %v", err, tc.err)
			}
			if n := len(srv.Chats()) + srv.Lists(); n != 0 {
				t.Errorf("%d requests reached the model server", n)
			}
			if _, err := os.Stat(filepath.Join(rg.home, "Documents", "Invoices")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("something ran: %v", err)
			}
			if tc.askText != nil && popups.Load() != 1 {
				t.Errorf("%d popups", popups.Load())
			}
			rg.r.await(t, "the menu back to normal", idle)
		})
	}
}

// TestAutomateKilled: while the kill switch is on, Automate… is disabled
// and a click that races the menu asks nothing.
func TestAutomateKilled(t *testing.T) {
	var popups atomic.Int32
	srv := modelServer(t, llmtest.Plain(folderPlan))
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, model: srv, askText: typed("make a folder", true, &popups)})
	rg.g.Kill()
	m := rg.r.await(t, "killed", func(m tray.Menu) bool { return m.Icon == tray.IconKilled })
	if it := automateItem(t, m); it.Enabled || it.Action.Kind == tray.Automate {
		t.Errorf("Automate… while killed: %+v", it)
	}
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.Automate}); !errors.Is(err, gate.ErrKilled) {
		t.Errorf("Do while killed = %v", err)
	}
	if popups.Load() != 0 || len(srv.Chats()) != 0 {
		t.Errorf("%d popups, %d chats while killed", popups.Load(), len(srv.Chats()))
	}
}

var streaming = regexp.MustCompile(`^Asking model… \([0-9]+ tokens?\)$`)

// TestAutomateProgressAndKill: while the model streams, the item, the
// title beside the icon and the tooltip count its tokens; a second click
// meanwhile does nothing; the kill switch aborts the stream and the menu
// returns to normal (Automate… again once resumed).
func TestAutomateProgressAndKill(t *testing.T) {
	srv := modelServer(t, llmtest.Reply{Text: "CREATE_FOLDER \"~/Documents/Slow\" ", Hold: true})
	var popups atomic.Int32
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, model: srv, askText: typed("make a folder slowly", true, &popups), confirm: yes})
	done := make(chan error, 1)
	go func() { done <- rg.app.Do(context.Background(), tray.Action{Kind: tray.Automate}) }()
	m := rg.r.await(t, "the model's progress", func(m tray.Menu) bool { return streaming.MatchString(m.Title) })
	if it := automateItem(t, m); it.Title != m.Title || it.Enabled || m.Tooltip != "Airlock — "+m.Title {
		t.Errorf("item %+v, tooltip %q while streaming %q", it, m.Tooltip, m.Title)
	}
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.Automate}); !errors.Is(err, tray.ErrBusy) {
		t.Errorf("a second Automate… while one runs = %v", err)
	}
	if popups.Load() != 1 {
		t.Errorf("%d popups", popups.Load())
	}
	rg.app.Click(context.Background(), tray.Action{Kind: tray.Kill})
	if err := <-done; !errors.Is(err, gate.ErrKilled) {
		t.Errorf("Automate… after the kill = %v", err)
	}
	m = rg.r.await(t, "killed, with no progress left", func(m tray.Menu) bool {
		return m.Icon == tray.IconKilled && m.Title == "" && automateItem(t, m).Title == "Automate… (off while the kill switch is on)"
	})
	if strings.Contains(m.Items[0].Title, "Automate") {
		t.Errorf("a kill left a notice: %q", m.Items[0].Title)
	}
	// The server sees its client go a moment after the client closes the
	// connection, so the test waits for it (bounded).
	select {
	case <-srv.Aborted():
	case <-time.After(10 * time.Second):
		t.Error("the stream was not aborted")
	}
	rg.app.Click(context.Background(), tray.Action{Kind: tray.Resume})
	rg.r.await(t, "Automate… after Resume", idle)
	if _, err := os.Stat(filepath.Join(rg.home, "Documents", "Slow")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed plan ran: %v", err)
	}
}

// TestAutomateModelFails: a model server that answers with an error
// leaves a notice saying so, and the menu otherwise back to normal.
func TestAutomateModelFails(t *testing.T) {
	srv := modelServer(t, llmtest.Reply{Status: 500, Text: "out of memory"})
	var popups atomic.Int32
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, model: srv, askText: typed("make a folder", true, &popups)})
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.Automate}); err == nil {
		t.Fatal("a failed model reported success")
	}
	rg.r.await(t, "a notice", func(m tray.Menu) bool {
		return idle(m) && strings.HasPrefix(m.Items[0].Title, "Automate… failed: ")
	})
}
