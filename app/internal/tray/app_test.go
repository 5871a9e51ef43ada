package tray_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/llm/llmtest"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// recorder is a Renderer that keeps every menu it is given.
type recorder struct {
	mu    sync.Mutex
	menus []tray.Menu
	ch    chan struct{}
}

func newRecorder() *recorder { return &recorder{ch: make(chan struct{}, 1)} }

func (r *recorder) Render(m tray.Menu) {
	r.mu.Lock()
	r.menus = append(r.menus, m)
	r.mu.Unlock()
	select {
	case r.ch <- struct{}{}:
	default:
	}
}

// await waits until a rendered menu satisfies ok and returns it.
func (r *recorder) await(t *testing.T, what string, ok func(tray.Menu) bool) tray.Menu {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		if n := len(r.menus); n > 0 && ok(r.menus[n-1]) {
			m := r.menus[n-1]
			r.mu.Unlock()
			return m
		}
		r.mu.Unlock()
		select {
		case <-r.ch:
		case <-deadline:
			t.Fatalf("the menu never showed %s", what)
		}
	}
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.menus)
}

// rig is a real gate, broker, grants and history behind an App.
type rig struct {
	g        *gate.Gate
	broker   *approval.Broker
	grants   *policy.Grants
	store    *history.Store
	settings string
	home     string
	app      *tray.App
	r        *recorder
	data     string
	cancel   context.CancelFunc
	viewed   chan string // the texts ShowText was given
	shown    chan approval.Request
}

type rigOptions struct {
	autonomy policy.Autonomy
	prompter approval.Prompter
	confirm  func(ctx context.Context, title, text, yes string) (bool, error)
	save     func(policy.Autonomy) error
	askText  func(ctx context.Context, title, prompt string) (string, bool, error)
	auth     func(ctx context.Context, reason string) error
	showText func(ctx context.Context, title, text string) error // nil: one that reports the text and returns
	model    *llmtest.Server                                     // the gate's model server, if any
	// trust and automations, when set, are the App's Config.Trust and
	// Config.Automations.
	trust       *tray.Trust
	automations tray.Automations
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(home, "Documents"), 0o700); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	paths, err := sanitize.NewConfig(home, []string{"~/Documents"})
	if err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(filepath.Join(data, "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	exec, err := gate.DefaultExecutor(paths, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	rg := &rig{store: store, home: home, data: data, settings: filepath.Join(data, policy.SettingsFile), r: newRecorder(),
		grants: policy.NewGrants(nil), viewed: make(chan string, 4), shown: make(chan approval.Request, 4)}
	rg.broker = approval.NewBroker(o.prompter, approval.Options{Timeout: time.Minute})
	var fan gate.Fanout
	gc := gate.Config{Env: &risk.Env{Paths: paths}, Exec: exec, History: store, Approver: rg.broker,
		Grants: rg.grants, Autonomy: o.autonomy, Events: fan.Emit}
	if srv := o.model; srv != nil {
		gc.LLM = func(context.Context) (llm.Config, error) {
			return llm.Config{Endpoint: srv.URL, API: llm.APIOllama}, nil
		}
	}
	rg.g = gate.New(gc)
	save := o.save
	if save == nil {
		save = func(a policy.Autonomy) error {
			s := policy.DefaultSettings()
			s.Autonomy = a
			return policy.SaveSettings(rg.settings, s)
		}
	}
	showText := o.showText
	if showText == nil {
		showText = func(_ context.Context, title, text string) error {
			if title != tray.HistoryTitle {
				t.Errorf("a text window titled %q", title)
			}
			rg.viewed <- text
			return nil
		}
	}
	rg.app = tray.New(tray.Config{Gate: rg.g, Events: fan.Subscribe, Approvals: rg.broker, Grants: rg.grants,
		History: store, SaveAutonomy: save, Confirm: o.confirm, Authenticate: o.auth, AskText: o.askText, Hotkey: "⌃⌥⌘K",
		ShowApproval: func(_ context.Context, r approval.Request) { rg.shown <- r },
		ShowText:     showText,
		Trust:        o.trust,
		Automations:  o.automations,
		Logf:         t.Logf})
	ctx, cancel := context.WithCancel(context.Background())
	rg.cancel = cancel
	ready := make(chan struct{})
	done := make(chan struct{})
	go func() { rg.app.Run(ctx, rg.r, func() { close(ready) }); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	<-ready
	return rg
}

func levelChecked(lvl policy.Autonomy) func(tray.Menu) bool {
	return func(m tray.Menu) bool {
		for _, it := range m.Items {
			if it.Checkable && it.Checked {
				return it.Action.Level == lvl
			}
		}
		return false
	}
}

func savedLevel(t *testing.T, path string) (policy.Autonomy, bool) {
	t.Helper()
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return 0, false
	}
	s, err := policy.LoadSettings(path)
	if err != nil {
		t.Fatal(err)
	}
	return s.Autonomy, true
}

func TestLevelChangePersistsAndSwitches(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault})
	rg.r.await(t, "level 1", levelChecked(policy.SmartDefault))
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.SetLevel, Level: policy.AskAll}); err != nil {
		t.Fatal(err)
	}
	if got := rg.g.Status().Autonomy; got != 0 {
		t.Errorf("gate at level %d, want 0", got)
	}
	if lvl, ok := savedLevel(t, rg.settings); !ok || lvl != policy.AskAll {
		t.Errorf("settings hold %v (saved %v), want 0", lvl, ok)
	}
	m := rg.r.await(t, "level 0 checked", levelChecked(policy.AskAll))
	if m.Icon != tray.IconLevel0 {
		t.Errorf("icon %v", m.Icon)
	}
	// At Level 0 even a safe action is asked about; with no prompter the
	// broker refuses: approval required, nothing runs.
	rep, err := rg.g.Submit(context.Background(), gate.Submission{Client: "t", Plan: `NOTIFY "a" "b"`}, nil)
	if !errors.Is(err, gate.ErrApprovalRequired) {
		t.Errorf("a safe plan at level 0 with nobody to ask: %v (%s)", err, rep.Status)
	}
}

func TestLevel2NeedsTheCheckedYes(t *testing.T) {
	errPopup := errors.New("popup failed")
	for _, tc := range []struct {
		name    string
		confirm func(ctx context.Context, title, text, yes string) (bool, error)
		want    policy.Autonomy
	}{
		{"no popup to ask", nil, policy.SmartDefault},
		{"the person says no", func(context.Context, string, string, string) (bool, error) { return false, nil }, policy.SmartDefault},
		{"the popup fails", func(context.Context, string, string, string) (bool, error) { return true, errPopup }, policy.SmartDefault},
		{"the person says yes", func(_ context.Context, title, text, yes string) (bool, error) {
			return strings.Contains(title, "Level 2") && strings.Contains(text, "Destructive actions are still asked") && yes != "", nil
		}, policy.FullAuto},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, confirm: tc.confirm})
			err := rg.app.Do(context.Background(), tray.Action{Kind: tray.SetLevel, Level: policy.FullAuto})
			if got := policy.Autonomy(rg.g.Status().Autonomy); got != tc.want {
				t.Fatalf("gate at %v, want %v (err %v)", got, tc.want, err)
			}
			lvl, saved := savedLevel(t, rg.settings)
			if tc.want == policy.FullAuto {
				if err != nil || !saved || lvl != policy.FullAuto {
					t.Errorf("err %v, saved %v %v", err, saved, lvl)
				}
				rg.r.await(t, "level 2 checked", levelChecked(policy.FullAuto))
				return
			}
			if !errors.Is(err, tray.ErrNotConfirmed) || saved {
				t.Errorf("err %v, saved %v: an unconfirmed switch must change nothing", err, saved)
			}
			rg.r.await(t, "a notice and level 1 still checked", func(m tray.Menu) bool {
				return levelChecked(policy.SmartDefault)(m) && strings.Contains(m.Items[0].Title, "not confirmed")
			})
		})
	}
}

func TestUnsavedLevelDoesNotSwitch(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, save: func(policy.Autonomy) error { return errors.New("disk full") }})
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.SetLevel, Level: policy.AskAll}); err == nil {
		t.Fatal("a failed save reported success")
	}
	if got := rg.g.Status().Autonomy; got != 1 {
		t.Errorf("gate at %d after a failed save, want 1", got)
	}
}

// The kill switch tripped elsewhere (the socket, the hotkey) turns the menu
// to Resume through the gate's events; Resume from the menu turns it back.
func TestKillAndResumeFollowEvents(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, confirm: yes})
	rg.g.Kill()
	m := rg.r.await(t, "Resume", func(m tray.Menu) bool { return m.Icon == tray.IconKilled })
	var resume tray.Action
	for _, it := range m.Items {
		if strings.HasPrefix(it.Title, "Resume") {
			resume = it.Action
		}
	}
	if resume.Kind != tray.Resume {
		t.Fatalf("killed menu %v", titles(m.Items))
	}
	rg.app.Click(context.Background(), resume)
	rg.r.await(t, "the kill switch again", func(m tray.Menu) bool { return m.Icon == tray.IconLevel1 })
	if rg.g.Status().Killed {
		t.Error("still killed after Resume")
	}
	rg.app.Click(context.Background(), tray.Action{Kind: tray.Kill})
	rg.r.await(t, "killed from the menu", func(m tray.Menu) bool { return m.Icon == tray.IconKilled })
	if !rg.g.Status().Killed {
		t.Error("the menu's kill did not trip the switch")
	}
}

// Nothing renders while nothing happens: the menu follows events only.
func TestNoEventNoRender(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault})
	n := rg.r.count()
	rg.g.SetAutonomy(policy.SmartDefault) // an event that changes nothing renders nothing
	rg.g.Kill()
	rg.r.await(t, "killed", func(m tray.Menu) bool { return m.Icon == tray.IconKilled })
	if got := rg.r.count(); got != n+1 {
		t.Errorf("%d renders for one change", got-n)
	}
}

func TestPendingApprovalsFollowTheBroker(t *testing.T) {
	prompted := make(chan struct{}, 1)
	p := approval.ScriptedFunc(func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		prompted <- struct{}{}
		<-ctx.Done()
		return approval.Answer{}, ctx.Err()
	})
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, prompter: p})
	done := make(chan gate.Report, 1)
	go func() {
		rep, _ := rg.g.Submit(context.Background(), gate.Submission{Client: "airlock run",
			Plan: `WRITE_FILE "~/Documents/x.txt" "hi"`}, nil)
		done <- rep
	}()
	<-prompted
	m := rg.r.await(t, "a pending approval", func(m tray.Menu) bool { return m.Icon == tray.IconPending })
	var item tray.Item
	for _, it := range m.Items {
		if it.Title == "Pending approvals (1)" {
			item = it.Children[0]
		}
	}
	if item.Action.Kind != tray.ShowApproval || !strings.Contains(item.Title, "airlock run: ") {
		t.Fatalf("pending item %+v in %v", item, titles(m.Items))
	}
	if err := rg.app.Do(context.Background(), item.Action); err != nil {
		t.Fatal(err)
	}
	if r := <-rg.shown; r.ID != item.Action.ID || len(r.Items) != 1 || r.Items[0].Risk != level.Dangerous {
		t.Errorf("showed %+v", r)
	}
	if err := rg.broker.Resolve(item.Action.ID, approval.Answer{Outcome: approval.Denied}); err != nil {
		t.Fatal(err)
	}
	if rep := <-done; rep.Status != gate.StatusDenied {
		t.Errorf("report %s", rep.Status)
	}
	rg.r.await(t, "no pending approval, and the denial in recent activity", func(m tray.Menu) bool {
		for _, it := range m.Items {
			if it.Title == "Recent activity" {
				return m.Icon == tray.IconLevel1 && strings.Contains(it.Children[0].Title, "denied")
			}
		}
		return false
	})
}

func TestRevokeGrant(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault})
	g, err := rg.grants.Allow(policy.Identity{Key: "exe:/usr/bin/agent", Program: "/usr/bin/agent (pid 42)"}, `OPEN_URL "https://example.com"`, risk.Runs{Known: true}, level.Caution, 0)
	if err != nil {
		t.Fatal(err)
	}
	rg.app.Click(context.Background(), tray.Action{Kind: tray.OpenHistory}) // any click refreshes
	<-rg.viewed
	m := rg.r.await(t, "the grant", func(m tray.Menu) bool { return find(t, m, "Remembered grants").Title == "Remembered grants (1)" })
	act := find(t, m, "Remembered grants").Children[0].Action
	if act != (tray.Action{Kind: tray.RevokeGrant, ID: g.ID}) {
		t.Fatalf("grant item %+v", find(t, m, "Remembered grants"))
	}
	if err := rg.app.Do(context.Background(), act); err != nil {
		t.Fatal(err)
	}
	if len(rg.grants.List()) != 0 {
		t.Error("the grant is still there")
	}
	rg.r.await(t, "no grants", func(m tray.Menu) bool { return find(t, m, "Remembered grants").Title == "Remembered grants (0)" })
	if err := rg.app.Do(context.Background(), act); err == nil {
		t.Error("revoking it twice reported success")
	}
}
