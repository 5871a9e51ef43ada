package tray

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The longest lists a submenu shows. A longer list ends with a line saying
// how many more there are.
const (
	MaxPending = 10
	MaxRecent  = 10
	MaxGrants  = 10
)

// maxChildren is the most items a submenu can hold: a list and its "more"
// line.
const maxChildren = max(MaxPending, MaxRecent, MaxGrants) + 1

// titleRunes bounds the text of a request shown in a menu title.
const titleRunes = 60

// State is everything the menu shows.
type State struct {
	Autonomy policy.Autonomy
	Killed   bool
	Pending  []approval.Request // oldest first
	Recent   []history.Entry    // newest first
	// RecentErr says why Recent could not be read, if it could not.
	RecentErr string
	Grants    []policy.Grant
	// Hotkey is the kill switch's key combination as the menu shows it
	// ("⌃⌥⌘K"); "" when there is none.
	Hotkey string
	// CanShowApprovals is whether clicking a pending approval can show its
	// popup.
	CanShowApprovals bool
	// Notice is a message for the person, such as why a level change did
	// not happen; "" for none.
	Notice string
	// Now is the time the menu is built at, for the activity's times.
	Now time.Time
	// Automation is the menu's own request in words, if one is under way.
	Automation Automation
	// Automations are the person's scheduled automations; HasAutomations
	// is false where the app has none to show (no scheduler).
	Automations    automation.Overview
	HasAutomations bool
	// CanOpenDashboard is whether "Dashboard…" can open the dashboard.
	CanOpenDashboard bool
}

// Automation is the state of the request in words that "Automate…" started.
// Only one runs at a time.
type Automation struct {
	// Running is set from the click until the gate's Ask has returned.
	Running bool
	// Typing is set while the popup asking for the request is open.
	Typing bool
	// Model is the Status of the latest gate.EventModel of the run ("" before
	// the first); Tokens and Attempt are that event's count of the reply so
	// far and which reply it is (1, or 2 for the retry).
	Model   string
	Tokens  int
	Attempt int
}

// Icon is the state the menu-bar icon shows.
type Icon int

const (
	IconLevel0  Icon = iota // Level 0, ask for everything
	IconLevel1              // Level 1, smart default
	IconLevel2              // Level 2, full auto
	IconPending             // approvals are waiting
	IconKilled              // the kill switch is on
)

func (i Icon) String() string {
	switch i {
	case IconLevel0:
		return "level0"
	case IconLevel1:
		return "level1"
	case IconLevel2:
		return "level2"
	case IconPending:
		return "pending"
	case IconKilled:
		return "killed"
	}
	return fmt.Sprintf("Icon(%d)", int(i))
}

// Kind is what clicking an item does.
type Kind int

const (
	DoNothing      Kind = iota // information only
	SetLevel                   // switch to Action.Level (Level 2 asks first)
	ShowApproval               // show the popup of pending request Action.ID
	RevokeGrant                // forget grant Action.ID
	Kill                       // trip the kill switch
	Resume                     // turn the kill switch off
	OpenHistory                // write the history report and open it
	Quit                       // quit the app
	Automate                   // ask for a request in words and have the gate's model plan it
	SetAutomations             // turn the automations' global switch to Action.On
	SetAutomation              // turn automation Action.ID to Action.On
	RunAutomation              // run automation Action.ID now
	OpenDashboard              // open the dashboard in the browser
)

// Action is what an item does when clicked.
type Action struct {
	Kind  Kind
	Level policy.Autonomy // for SetLevel
	ID    string          // for ShowApproval and RevokeGrant; the automation's name
	On    bool            // for SetAutomations and SetAutomation
}

// Item is one line of the menu. An item with Children is a submenu; it
// always has at least one child.
type Item struct {
	Separator bool
	Title     string
	Enabled   bool
	Checkable bool // shows a check mark when Checked (the levels)
	Checked   bool
	Action    Action
	Children  []Item
	// Groups, on a submenu, makes each of its children after the first a
	// submenu itself, of at most MaxGroupItems items (Automations: the
	// switch, then one submenu per automation).
	Groups bool
}

// Menu is the whole menu-bar item: icon, title, tooltip and menu.
type Menu struct {
	Icon Icon
	// Title is the text beside the icon: the model's progress while
	// "Automate…" waits for it, "" otherwise.
	Title   string
	Tooltip string
	Items   []Item
}

// LevelTitles are the autonomy levels as the menu names them.
var LevelTitles = [3]string{
	"Level 0 — Ask for everything",
	"Level 1 — Smart default",
	"Level 2 — Full auto",
}

// Build turns a state into the menu. The menu's shape does not depend on the
// state: the same items and separators at the top level, in the same order,
// with submenus whose lists are at most their Max… long plus a "more" line;
// only titles, check marks, enabled states and the submenus' lists change.
func Build(s State) Menu {
	m := Menu{Icon: iconOf(s), Title: titleOf(s), Tooltip: tooltipOf(s)}
	status := Item{Title: statusLine(s)}
	m.Items = append(m.Items, status, Item{Separator: true})
	for lvl := policy.AskAll; lvl <= policy.FullAuto; lvl++ {
		m.Items = append(m.Items, Item{Title: LevelTitles[lvl], Enabled: true, Checkable: true,
			Checked: s.Autonomy == lvl, Action: Action{Kind: SetLevel, Level: lvl}})
	}
	m.Items = append(m.Items, Item{Separator: true}, automateItem(s), automationsMenu(s),
		pendingMenu(s), recentMenu(s), grantsMenu(s), Item{Separator: true})
	if s.Killed {
		m.Items = append(m.Items, Item{Title: "Resume (the kill switch is on)", Enabled: true, Action: Action{Kind: Resume}})
	} else {
		title := "Kill switch — stop everything"
		if s.Hotkey != "" {
			title += " (" + s.Hotkey + ")"
		}
		m.Items = append(m.Items, Item{Title: title, Enabled: true, Action: Action{Kind: Kill}})
	}
	m.Items = append(m.Items,
		Item{Title: "Open history…", Enabled: true, Action: Action{Kind: OpenHistory}},
		Item{Title: DashboardTitle, Enabled: s.CanOpenDashboard, Action: Action{Kind: OpenDashboard}},
		Item{Separator: true},
		Item{Title: "Quit Airlock", Enabled: true, Action: Action{Kind: Quit}})
	return m
}

func iconOf(s State) Icon {
	switch {
	case s.Killed:
		return IconKilled
	case len(s.Pending) > 0:
		return IconPending
	case s.Autonomy == policy.AskAll:
		return IconLevel0
	case s.Autonomy == policy.FullAuto:
		return IconLevel2
	}
	return IconLevel1
}

func tooltipOf(s State) string {
	switch {
	case s.Killed:
		return "Airlock — KILLED: nothing runs until you resume"
	case len(s.Pending) == 1:
		return "Airlock — 1 approval waiting"
	case len(s.Pending) > 1:
		return fmt.Sprintf("Airlock — %d approvals waiting", len(s.Pending))
	case s.Automation.Running && !s.Automation.Typing:
		return "Airlock — " + progressText(s.Automation)
	}
	return "Airlock — " + levelName(s.Autonomy)
}

// titleOf is the text beside the icon: the model's progress, while the gate
// works on the menu's request.
func titleOf(s State) string {
	if s.Killed || !s.Automation.Running || s.Automation.Typing {
		return ""
	}
	return progressText(s.Automation)
}

// DashboardTitle is the title of the item that opens the dashboard.
const DashboardTitle = "Dashboard…"

// AutomateTitle is the title of the "Automate…" item when it can be clicked.
const AutomateTitle = "Automate…"

// automateItem is "Automate…": clickable unless the kill switch is on or a
// request is already under way, in which case its title says which.
func automateItem(s State) Item {
	switch {
	case s.Killed:
		return Item{Title: AutomateTitle + " (off while the kill switch is on)"}
	case s.Automation.Typing:
		return Item{Title: AutomateTitle + " (waiting for your request)"}
	case s.Automation.Running:
		return Item{Title: progressText(s.Automation)}
	}
	return Item{Title: AutomateTitle, Enabled: true, Action: Action{Kind: Automate}}
}

// progressText says what the model is doing with the menu's request.
func progressText(a Automation) string {
	switch a.Model {
	case gate.ModelAnswered:
		return "Running the model's plan…"
	case gate.ModelFailed:
		return "The model gave no plan"
	}
	text := "Asking model…"
	if a.Attempt > 1 || a.Model == gate.ModelRetrying {
		text = "Asking model again…"
	}
	if a.Model == gate.ModelStreaming && a.Tokens > 0 {
		text += " (" + tokens(a.Tokens) + ")"
	}
	return text
}

func tokens(n int) string {
	if n == 1 {
		return "1 token"
	}
	return fmt.Sprintf("%d tokens", n)
}

func statusLine(s State) string {
	if s.Notice != "" {
		return oneLine(s.Notice, 80)
	}
	if s.Killed {
		return "Kill switch ON — nothing runs"
	}
	return "Airlock — " + levelName(s.Autonomy)
}

func levelName(a policy.Autonomy) string {
	if a.Valid() {
		return LevelTitles[a]
	}
	return fmt.Sprintf("unknown level %d", int(a))
}

func pendingMenu(s State) Item {
	it := Item{Title: fmt.Sprintf("Pending approvals (%d)", len(s.Pending)), Enabled: true}
	for i, r := range s.Pending {
		if i == MaxPending {
			it.Children = append(it.Children, more(len(s.Pending)-MaxPending))
			break
		}
		title := oneLine(r.Client, 24) + ": " + requestSummary(r)
		it.Children = append(it.Children, Item{Title: title, Enabled: s.CanShowApprovals,
			Action: Action{Kind: ShowApproval, ID: r.ID}})
	}
	if len(it.Children) == 0 {
		it.Children = []Item{{Title: "Nothing is waiting"}}
	}
	return it
}

// requestSummary is the first item's preview and risk, and how many more
// items the request holds.
func requestSummary(r approval.Request) string {
	if len(r.Items) == 0 {
		return "(no actions)"
	}
	first := r.Items[0]
	text := oneLine(first.Preview, titleRunes) + " — " + first.Risk.String()
	if n := len(r.Items) - 1; n > 0 {
		text += fmt.Sprintf(" (+%d more)", n)
	}
	return text
}

func recentMenu(s State) Item {
	it := Item{Title: "Recent activity", Enabled: true}
	for i, e := range s.Recent {
		if i == MaxRecent {
			break // the report has the rest
		}
		it.Children = append(it.Children, Item{Title: activityLine(e, s.Now), Enabled: true,
			Action: Action{Kind: OpenHistory}})
	}
	switch {
	case s.RecentErr != "":
		it.Children = append(it.Children, Item{Title: "Cannot read the history: " + oneLine(s.RecentErr, titleRunes)})
	case len(it.Children) == 0:
		it.Children = []Item{{Title: "Nothing yet"}}
	}
	return it
}

// activityLine is one action of the history: when, its outcome, what, and
// who asked.
func activityLine(e history.Entry, now time.Time) string {
	outcome := "running"
	if o := e.Outcome; o != nil {
		outcome = o.Status
		if o.Approval != "" && o.Approval != o.Status && o.Status == "ok" {
			outcome = o.Approval + ", " + o.Status
		}
	}
	when := e.Decision.Time.Local().Format("15:04")
	if !now.IsZero() && now.Sub(e.Decision.Time) > 24*time.Hour {
		when = e.Decision.Time.Local().Format("Jan 2")
	}
	return fmt.Sprintf("%s  %s · %s — %s (%s)", when, outcome, oneLine(e.Decision.Preview, titleRunes),
		e.Decision.Risk, oneLine(e.Request.Client, 24))
}

func grantsMenu(s State) Item {
	it := Item{Title: fmt.Sprintf("Remembered grants (%d)", len(s.Grants)), Enabled: true}
	for i, g := range s.Grants {
		if i == MaxGrants {
			it.Children = append(it.Children, more(len(s.Grants)-MaxGrants))
			break
		}
		it.Children = append(it.Children, Item{Title: "Revoke: " + oneLine(g.Text, titleRunes) + " — " + g.Risk.String(),
			Enabled: true, Action: Action{Kind: RevokeGrant, ID: g.ID}})
	}
	if len(it.Children) == 0 {
		it.Children = []Item{{Title: "None this session"}}
	}
	return it
}

func more(n int) Item { return Item{Title: fmt.Sprintf("… and %d more", n)} }

// oneLine makes text from a request safe for a menu title: one line, every
// invisible, control or bidi character escaped (sanitize.Display), at most
// n characters.
func oneLine(s string, n int) string {
	s = sanitize.Display(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}
