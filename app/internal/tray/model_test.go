package tray_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

var now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func request(id, client, preview string, risk level.Level, items int) approval.Request {
	r := approval.Request{ID: id, Client: client, Tool: "plan"}
	for i := range items {
		r.Items = append(r.Items, approval.Item{Index: i + 1, Preview: preview, Text: preview, Risk: risk})
	}
	return r
}

func entry(client, preview string, risk level.Level, o *history.Outcome, at time.Time) history.Entry {
	return history.Entry{Request: history.Request{ID: "r", Client: client},
		Decision: history.Decision{Preview: preview, Risk: risk, Time: at, Decision: "ask"}, Outcome: o}
}

// find returns the top-level item whose title starts with prefix.
func find(t *testing.T, m tray.Menu, prefix string) tray.Item {
	t.Helper()
	for _, it := range m.Items {
		if strings.HasPrefix(it.Title, prefix) {
			return it
		}
	}
	t.Fatalf("no item starts with %q in %v", prefix, titles(m.Items))
	return tray.Item{}
}

func titles(items []tray.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Title)
	}
	return out
}

func checked(m tray.Menu) []string {
	var out []string
	for _, it := range m.Items {
		if it.Checkable && it.Checked {
			out = append(out, it.Title)
		}
	}
	return out
}

func TestBuild(t *testing.T) {
	many := make([]approval.Request, 12)
	for i := range many {
		many[i] = request(fmt.Sprint("id", i), "mcp", "Write ~/Documents/f.txt", level.Dangerous, 1)
	}
	grants := make([]policy.Grant, 11)
	for i := range grants {
		grants[i] = policy.Grant{ID: fmt.Sprint("g", i), Text: `OPEN_URL "https://example.com"`, Risk: level.Caution}
	}
	ok := &history.Outcome{Approval: "approved", Status: "ok"}
	denied := &history.Outcome{Approval: "denied", Status: "denied"}
	for _, tc := range []struct {
		name    string
		state   tray.State
		icon    tray.Icon
		tooltip string
		check   func(t *testing.T, m tray.Menu)
	}{
		{"level 1, nothing going on", tray.State{Autonomy: policy.SmartDefault, Hotkey: "⌃⌥⌘K"}, tray.IconLevel1, "Airlock — Level 1 — Smart default",
			func(t *testing.T, m tray.Menu) {
				if c := checked(m); len(c) != 1 || c[0] != tray.LevelTitles[1] {
					t.Errorf("checked %v", c)
				}
				kill := find(t, m, "Kill switch")
				if kill.Title != "Kill switch — stop everything (⌃⌥⌘K)" || kill.Action.Kind != tray.Kill || !kill.Enabled {
					t.Errorf("kill item %+v", kill)
				}
				p := find(t, m, "Pending approvals")
				if p.Title != "Pending approvals (0)" || len(p.Children) != 1 || p.Children[0].Enabled {
					t.Errorf("pending %+v", p)
				}
				if g := find(t, m, "Remembered grants"); g.Children[0].Title != "None this session" || g.Children[0].Enabled {
					t.Errorf("grants %+v", g)
				}
				if r := find(t, m, "Recent activity"); r.Children[0].Title != "Nothing yet" {
					t.Errorf("recent %+v", r)
				}
			}},
		{"level 0", tray.State{Autonomy: policy.AskAll}, tray.IconLevel0, "Airlock — Level 0 — Ask for everything",
			func(t *testing.T, m tray.Menu) {
				if c := checked(m); len(c) != 1 || c[0] != tray.LevelTitles[0] {
					t.Errorf("checked %v", c)
				}
				if kill := find(t, m, "Kill switch"); kill.Title != "Kill switch — stop everything" {
					t.Errorf("with no hotkey the kill item says %q", kill.Title)
				}
			}},
		{"level 2", tray.State{Autonomy: policy.FullAuto}, tray.IconLevel2, "Airlock — Level 2 — Full auto",
			func(t *testing.T, m tray.Menu) {
				if c := checked(m); len(c) != 1 || c[0] != tray.LevelTitles[2] {
					t.Errorf("checked %v", c)
				}
				l2 := find(t, m, "Level 2")
				if l2.Action != (tray.Action{Kind: tray.SetLevel, Level: policy.FullAuto}) {
					t.Errorf("level 2 action %+v", l2.Action)
				}
			}},
		{"killed wins over pending", tray.State{Autonomy: policy.SmartDefault, Killed: true, Pending: many[:1]}, tray.IconKilled,
			"Airlock — KILLED: nothing runs until you resume",
			func(t *testing.T, m tray.Menu) {
				r := find(t, m, "Resume")
				if r.Action.Kind != tray.Resume || !r.Enabled {
					t.Errorf("resume %+v", r)
				}
				for _, it := range m.Items {
					if it.Action.Kind == tray.Kill {
						t.Error("a killed menu still offers the kill switch instead of Resume")
					}
				}
				if m.Items[0].Title != "Kill switch ON — nothing runs" {
					t.Errorf("status line %q", m.Items[0].Title)
				}
			}},
		{"one pending, popups available", tray.State{Autonomy: policy.SmartDefault, CanShowApprovals: true,
			Pending: []approval.Request{request("abc", "airlock run", "Write ~/Documents/x.txt", level.Dangerous, 3)}},
			tray.IconPending, "Airlock — 1 approval waiting",
			func(t *testing.T, m tray.Menu) {
				p := find(t, m, "Pending approvals")
				c := p.Children[0]
				if p.Title != "Pending approvals (1)" || len(p.Children) != 1 ||
					c.Title != "airlock run: Write ~/Documents/x.txt — dangerous (+2 more)" || !c.Enabled ||
					c.Action != (tray.Action{Kind: tray.ShowApproval, ID: "abc"}) {
					t.Errorf("pending %+v", p)
				}
			}},
		{"pending without popups cannot be clicked", tray.State{Pending: many[:2]}, tray.IconPending, "Airlock — 2 approvals waiting",
			func(t *testing.T, m tray.Menu) {
				for _, c := range find(t, m, "Pending").Children {
					if c.Enabled {
						t.Errorf("%q is enabled with no popup to show", c.Title)
					}
				}
			}},
		{"twelve pending: ten and a line", tray.State{Pending: many, CanShowApprovals: true}, tray.IconPending, "Airlock — 12 approvals waiting",
			func(t *testing.T, m tray.Menu) {
				p := find(t, m, "Pending")
				if p.Title != "Pending approvals (12)" || len(p.Children) != tray.MaxPending+1 ||
					p.Children[tray.MaxPending].Title != "… and 2 more" || p.Children[tray.MaxPending].Enabled {
					t.Errorf("pending %v", titles(p.Children))
				}
			}},
		{"recent activity with outcomes", tray.State{Autonomy: policy.SmartDefault, Now: now, Recent: []history.Entry{
			entry("airlock run", "Write ~/Documents/a.txt", level.Dangerous, ok, now.Add(-time.Minute)),
			entry("mcp: claude", "Send an email to bob@example.com", level.Dangerous, denied, now.Add(-48*time.Hour)),
			entry("airlock run", "Show a notification", level.Safe, nil, now),
		}}, tray.IconLevel1, "Airlock — Level 1 — Smart default",
			func(t *testing.T, m tray.Menu) {
				r := find(t, m, "Recent activity")
				want := []string{
					now.Add(-time.Minute).Local().Format("15:04") + "  approved, ok · Write ~/Documents/a.txt — dangerous (airlock run)",
					now.Add(-48*time.Hour).Local().Format("Jan 2") + "  denied · Send an email to bob@example.com — dangerous (mcp: claude)",
					now.Local().Format("15:04") + "  running · Show a notification — safe (airlock run)",
				}
				if got := titles(r.Children); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("recent:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if r.Children[0].Action.Kind != tray.OpenHistory {
					t.Errorf("a recent line does %v, want OpenHistory", r.Children[0].Action.Kind)
				}
			}},
		{"the history cannot be read", tray.State{RecentErr: "locked"}, tray.IconLevel0, "Airlock — Level 0 — Ask for everything",
			func(t *testing.T, m tray.Menu) {
				if r := find(t, m, "Recent"); r.Children[0].Title != "Cannot read the history: locked" {
					t.Errorf("recent %v", titles(r.Children))
				}
			}},
		{"grants: ten revocable and a line", tray.State{Grants: grants}, tray.IconLevel0, "Airlock — Level 0 — Ask for everything",
			func(t *testing.T, m tray.Menu) {
				g := find(t, m, "Remembered grants")
				if g.Title != "Remembered grants (11)" || len(g.Children) != tray.MaxGrants+1 {
					t.Fatalf("grants %v", titles(g.Children))
				}
				c := g.Children[0]
				if c.Title != `Revoke: OPEN_URL "https://example.com" — caution` ||
					c.Action != (tray.Action{Kind: tray.RevokeGrant, ID: "g0"}) || !c.Enabled {
					t.Errorf("first grant %+v", c)
				}
			}},
		{"a notice replaces the status line", tray.State{Autonomy: policy.SmartDefault, Notice: "Level 2 was not confirmed"}, tray.IconLevel1,
			"Airlock — Level 1 — Smart default",
			func(t *testing.T, m tray.Menu) {
				if m.Items[0].Title != "Level 2 was not confirmed" || m.Items[0].Enabled {
					t.Errorf("status %+v", m.Items[0])
				}
			}},
		{"text from a request is one visible line", tray.State{CanShowApprovals: true, Pending: []approval.Request{
			request("x", "evil\nclient", "Write \u202eexe.txt\n"+strings.Repeat("long ", 40), level.Dangerous, 1)}},
			tray.IconPending, "Airlock — 1 approval waiting",
			func(t *testing.T, m tray.Menu) {
				c := find(t, m, "Pending").Children[0].Title
				if strings.ContainsAny(c, "\n\u202e") || !strings.Contains(c, `\u202e`) || !strings.Contains(c, `"evil\nclient"`) {
					t.Errorf("title %q", c)
				}
				if n := len([]rune(c)); n > 24+2+60+20 {
					t.Errorf("title is %d characters: %q", n, c)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tray.Build(tc.state)
			if m.Icon != tc.icon || m.Tooltip != tc.tooltip {
				t.Errorf("icon %v tooltip %q; want %v %q", m.Icon, m.Tooltip, tc.icon, tc.tooltip)
			}
			tc.check(t, m)
		})
	}
}

// The renderer relies on a fixed shape: the same top-level items in the same
// places whatever the state, and submenus that never outgrow their slots.
func TestBuildShapeIsFixed(t *testing.T) {
	many := make([]approval.Request, 40)
	var recent []history.Entry
	var grants []policy.Grant
	for i := range many {
		many[i] = request(fmt.Sprint(i), "c", "p", level.Caution, 1)
		recent = append(recent, entry("c", "p", level.Safe, nil, now))
		grants = append(grants, policy.Grant{ID: fmt.Sprint(i), Text: "t", Risk: level.Safe})
	}
	states := []tray.State{{}, {Killed: true}, {Autonomy: policy.FullAuto, Pending: many, Recent: recent, Grants: grants},
		{Pending: many[:1], RecentErr: "x", Recent: recent}, {Notice: "n", Hotkey: "⌃⌥⌘K"},
		{Automation: tray.Automation{Running: true, Model: gate.ModelStreaming, Tokens: 9}}}
	base := tray.Build(states[0])
	for _, s := range states {
		m := tray.Build(s)
		if len(m.Items) != len(base.Items) {
			t.Fatalf("%d items, want %d", len(m.Items), len(base.Items))
		}
		for i, it := range m.Items {
			if it.Separator != base.Items[i].Separator || it.Checkable != base.Items[i].Checkable ||
				(it.Children == nil) != (base.Items[i].Children == nil) {
				t.Errorf("item %d (%q) changed its kind", i, it.Title)
			}
			if it.Children != nil && (len(it.Children) < 1 || len(it.Children) > 11) {
				t.Errorf("submenu %q has %d children", it.Title, len(it.Children))
			}
		}
	}
}

// "Automate…" is clickable only when nothing stops it; while the menu's
// request is under way its title, the menu-bar title and the tooltip say
// what the model is doing, and the kill switch and pending approvals win.
func TestBuildAutomate(t *testing.T) {
	idle := "Airlock — " + tray.LevelTitles[policy.SmartDefault]
	run := func(status string, tokens, attempt int) tray.Automation {
		return tray.Automation{Running: true, Model: status, Tokens: tokens, Attempt: attempt}
	}
	for _, tc := range []struct {
		name    string
		state   tray.State
		item    string
		enabled bool
		title   string // beside the icon
		tooltip string
	}{
		{"idle", tray.State{Autonomy: policy.SmartDefault}, "Automate…", true, "", idle},
		{"killed", tray.State{Autonomy: policy.SmartDefault, Killed: true},
			"Automate… (off while the kill switch is on)", false, "", "Airlock — KILLED: nothing runs until you resume"},
		{"killed mid-stream", tray.State{Killed: true, Automation: run(gate.ModelStreaming, 42, 1)},
			"Automate… (off while the kill switch is on)", false, "", "Airlock — KILLED: nothing runs until you resume"},
		{"typing the request", tray.State{Autonomy: policy.SmartDefault, Automation: tray.Automation{Running: true, Typing: true}},
			"Automate… (waiting for your request)", false, "", idle},
		{"before the first event", tray.State{Autonomy: policy.SmartDefault, Automation: run("", 0, 0)},
			"Asking model…", false, "Asking model…", "Airlock — Asking model…"},
		{"asking", tray.State{Automation: run(gate.ModelAsking, 0, 1)},
			"Asking model…", false, "Asking model…", "Airlock — Asking model…"},
		{"streaming", tray.State{Automation: run(gate.ModelStreaming, 42, 1)},
			"Asking model… (42 tokens)", false, "Asking model… (42 tokens)", "Airlock — Asking model… (42 tokens)"},
		{"one token", tray.State{Automation: run(gate.ModelStreaming, 1, 1)},
			"Asking model… (1 token)", false, "Asking model… (1 token)", "Airlock — Asking model… (1 token)"},
		{"retrying", tray.State{Automation: run(gate.ModelRetrying, 0, 2)},
			"Asking model again…", false, "Asking model again…", "Airlock — Asking model again…"},
		{"streaming the retry", tray.State{Automation: run(gate.ModelStreaming, 7, 2)},
			"Asking model again… (7 tokens)", false, "Asking model again… (7 tokens)", "Airlock — Asking model again… (7 tokens)"},
		{"answered", tray.State{Automation: run(gate.ModelAnswered, 0, 1)},
			"Running the model's plan…", false, "Running the model's plan…", "Airlock — Running the model's plan…"},
		{"failed", tray.State{Automation: run(gate.ModelFailed, 0, 1)},
			"The model gave no plan", false, "The model gave no plan", "Airlock — The model gave no plan"},
		{"the plan waits for approval", tray.State{Automation: run(gate.ModelAnswered, 0, 1),
			Pending: []approval.Request{request("p", tray.AutomateClient, "Write ~/Documents/x.txt", level.Dangerous, 1)}},
			"Running the model's plan…", false, "Running the model's plan…", "Airlock — 1 approval waiting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tray.Build(tc.state)
			var it tray.Item
			for _, x := range m.Items {
				if x.Action.Kind == tray.Automate || strings.HasPrefix(x.Title, "Automate…") || strings.Contains(x.Title, "model") {
					it = x
				}
			}
			if it.Title != tc.item || it.Enabled != tc.enabled {
				t.Errorf("item %q enabled %v; want %q %v", it.Title, it.Enabled, tc.item, tc.enabled)
			}
			if tc.enabled != (it.Action.Kind == tray.Automate) {
				t.Errorf("item action %+v", it.Action)
			}
			if m.Title != tc.title || m.Tooltip != tc.tooltip {
				t.Errorf("title %q tooltip %q; want %q %q", m.Title, m.Tooltip, tc.title, tc.tooltip)
			}
		})
	}
}
