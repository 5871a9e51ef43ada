package dashboard_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// automations is a scheduler whose switches are a map.
type automations struct {
	mu   sync.Mutex
	on   bool
	list []dashboard.AutomationView
	err  error    // what a Set fails with
	sets []string // the changes made, in order
}

func (a *automations) List() []dashboard.AutomationView {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]dashboard.AutomationView(nil), a.list...)
}

func (a *automations) Enabled() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.on
}

func (a *automations) SetEnabled(_ context.Context, on bool) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	a.on = on
	a.sets = append(a.sets, "all="+onOff(on))
	return nil
}

func (a *automations) SetAutomation(_ context.Context, name string, on bool) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	for i := range a.list {
		if a.list[i].Name == name {
			a.list[i].Enabled = on
			a.sets = append(a.sets, name+"="+onOff(on))
			return nil
		}
	}
	return errors.New("no such automation")
}

func (a *automations) changes() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.sets...)
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// selfConfirming is a scheduler that asks the person itself before turning
// anything on, as automation.Book does: ask is its popup.
type selfConfirming struct {
	*automations
	ask func(ctx context.Context, what string) (bool, error)
}

func (selfConfirming) ConfirmsTurningOn() {}

func (s selfConfirming) confirm(ctx context.Context, what string) error {
	yes, err := s.ask(ctx, what)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %v", dashboard.ErrNotConfirmed, err)
	case !yes:
		return dashboard.ErrNotConfirmed
	}
	return nil
}

func (s selfConfirming) SetEnabled(ctx context.Context, on bool) error {
	if on {
		if err := s.confirm(ctx, "all"); err != nil {
			return err
		}
	}
	return s.automations.SetEnabled(ctx, on)
}

func (s selfConfirming) SetAutomation(ctx context.Context, name string, on bool) error {
	if on {
		if err := s.confirm(ctx, name); err != nil {
			return err
		}
	}
	return s.automations.SetAutomation(ctx, name, on)
}

type rigOptions struct {
	// selfConfirm, when set, makes the scheduler a SelfConfirming one that
	// asks with it.
	selfConfirm    func(ctx context.Context, what string) (bool, error)
	confirm        func(ctx context.Context, title, text, yes string) (bool, error)
	noAutomations  bool
	history        dashboard.History // nil: a real history in a temp dir
	confirmTimeout time.Duration
	// rules are the settings' rules the page shows; removeRule is
	// Config.RemoveRule.
	rules      []dashboard.RuleView
	removeRule func(ctx context.Context, n int, words string) error
}

// rig is a dashboard served on 127.0.0.1 over a real history, with a
// scheduler of two automations and a clock that starts at t0.
type rig struct {
	t     *testing.T
	srv   *dashboard.Server
	store *history.Store
	auto  *automations
	clock *clock
	base  string // http://127.0.0.1:PORT
	http  *http.Client
	// outcomes receives every outcome the dashboard recorded, once it is
	// recorded (real history only).
	outcomes chan history.Outcome
}

// notifying is a history that reports each outcome once it is recorded.
type notifying struct {
	*history.Store
	outcomes chan<- history.Outcome
}

func (n notifying) AddOutcome(ctx context.Context, o history.Outcome) error {
	err := n.Store.AddOutcome(ctx, o)
	n.outcomes <- o
	return err
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	rg := &rig{t: t, clock: &clock{now: t0}, http: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       time.Minute,
	}}
	h := o.history
	if h == nil {
		s, err := history.Open(filepath.Join(t.TempDir(), "history.db"), secrets.NewMemory())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		rg.outcomes = make(chan history.Outcome, 64)
		rg.store, h = s, notifying{s, rg.outcomes}
	}
	cfg := dashboard.Config{
		History: h,
		Status:  func() dashboard.Status { return dashboard.Status{Autonomy: 1} },
		Settings: func() dashboard.Settings {
			return dashboard.Settings{AllowedApps: []string{"Safari", "Notes"}, Roots: []string{"/home/p/Documents"}, Rules: o.rules}
		},
		RemoveRule:     o.removeRule,
		Confirm:        o.confirm,
		ConfirmTimeout: o.confirmTimeout,
		Location:       time.UTC,
		Now:            rg.clock.Now,
		Logf:           t.Logf,
	}
	if !o.noAutomations {
		rg.auto = &automations{on: true, list: []dashboard.AutomationView{
			{Name: "morning notes", Enabled: true, Schedule: "weekdays 09:00", NextRun: t0.Add(time.Hour), LastRun: t0.Add(-23 * time.Hour), LastResult: "ok"},
			{Name: "tidy downloads", Enabled: false, Schedule: "every 2h"},
		}}
		cfg.Automations = rg.auto
		if o.selfConfirm != nil {
			cfg.Automations = selfConfirming{rg.auto, o.selfConfirm}
		}
	}
	srv, err := dashboard.Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	rg.srv = srv
	rg.base = strings.TrimSuffix(srv.Address(), "/")
	return rg
}

// response is what a request got back.
type response struct {
	status int
	header http.Header
	body   string
}

// do sends a request to the dashboard, with the cookie if not nil, and
// edit's changes.
func (rg *rig) do(method, path string, cookie *http.Cookie, body io.Reader, edit func(*http.Request)) response {
	rg.t.Helper()
	req, err := http.NewRequest(method, rg.base+path, body)
	if err != nil {
		rg.t.Fatal(err)
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	if edit != nil {
		edit(req)
	}
	res, err := rg.http.Do(req)
	if err != nil {
		rg.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		rg.t.Fatal(err)
	}
	return response{res.StatusCode, res.Header, string(b)}
}

func (rg *rig) get(path string, cookie *http.Cookie) response {
	rg.t.Helper()
	return rg.do(http.MethodGet, path, cookie, nil, nil)
}

// post posts form as the dashboard's own page would: with its Origin.
func (rg *rig) post(path string, cookie *http.Cookie, form url.Values, edit func(*http.Request)) response {
	rg.t.Helper()
	return rg.do(http.MethodPost, path, cookie, strings.NewReader(form.Encode()), func(r *http.Request) {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", rg.base)
		r.Header.Set("Sec-Fetch-Site", "same-origin")
		if edit != nil {
			edit(r)
		}
	})
}

// session opens a session with access a, as a browser following the link
// would, and returns its cookie: a Full one from a link the menu asked for,
// a ReadOnly one from a link a socket client asked to print.
func (rg *rig) session(a dashboard.Access) *http.Cookie {
	rg.t.Helper()
	asker := map[dashboard.Access]dashboard.Asker{dashboard.Full: dashboard.Menu, dashboard.ReadOnly: dashboard.ClientPrint}[a]
	link, err := rg.srv.Link(asker)
	if err != nil {
		rg.t.Fatal(err)
	}
	u, err := url.Parse(link)
	if err != nil {
		rg.t.Fatal(err)
	}
	res := rg.get(u.RequestURI(), nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/" {
		rg.t.Fatalf("following the link: %d to %q: %s", res.status, res.header.Get("Location"), res.body)
	}
	for _, c := range (&http.Response{Header: res.header}).Cookies() {
		if c.Name == dashboard.CookieName {
			return c
		}
	}
	rg.t.Fatalf("the link set no session cookie: %q", res.header.Values("Set-Cookie"))
	return nil
}

// form reads the hidden fields of the form that posts to action and holds
// a hidden input with the given name=value, from a settings page.
func form(t *testing.T, page, action, match string) url.Values {
	t.Helper()
	for _, chunk := range strings.Split(page, "<form ")[1:] {
		chunk, _, _ = strings.Cut(chunk, "</form>")
		if !strings.Contains(chunk, `action="`+action+`"`) || !strings.Contains(chunk, match) {
			continue
		}
		v := url.Values{}
		for _, in := range strings.Split(chunk, "<input ")[1:] {
			name := attr(in, "name")
			v.Set(name, htmlUnescape(attr(in, "value")))
		}
		return v
	}
	t.Fatalf("no form posting to %s with %s in the page", action, match)
	return nil
}

func attr(tag, name string) string {
	_, rest, ok := strings.Cut(tag, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&#43;", "+", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&quot;", `"`).Replace(s)
}

// hostile reads testdata/hostile.json: strings a client or a model could
// get into the history.
func hostile(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hostile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "comment")
	return m
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
