package dashboard_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// asked is one confirmation popup shown.
type asked struct{ title, text, yes string }

// popup is a confirmation popup whose person answers with answer, and
// which remembers what it showed.
func popup(answer func(ctx context.Context) (bool, error), shown chan<- asked) func(context.Context, string, string, string) (bool, error) {
	return func(ctx context.Context, title, text, yes string) (bool, error) {
		if shown != nil {
			shown <- asked{title, text, yes}
		}
		return answer(ctx)
	}
}

func answerYes(context.Context) (bool, error) { return true, nil }

// settingRecords are the changes of setting the history holds, newest
// first.
func settingRecords(t *testing.T, s *history.Store) []history.Group {
	t.Helper()
	gs, err := s.Groups(context.Background(), history.Query{Client: dashboard.RecordClient, Limit: 100})
	must(t, err)
	return gs
}

// A change posted from the dashboard is made only after the person's yes
// in the confirmation popup, and every answer is recorded: the request,
// its decision ("ask"), and how it ended.
func TestChangeNeedsTheYes(t *testing.T) {
	errPopup := errors.New("zenity died")
	for _, tc := range []struct {
		name     string
		answer   func(ctx context.Context) (bool, error)
		setErr   error
		timeout  time.Duration
		result   string // the settings page's ?result=
		changed  bool
		approval string
		status   string
	}{
		{"yes", answerYes, nil, 0, "changed", true, "approved", "ok"},
		{"no", func(context.Context) (bool, error) { return false, nil }, nil, 0, "declined", false, "denied", "denied"},
		{"the popup fails", func(context.Context) (bool, error) { return false, errPopup }, nil, 0, "failed", false, "", "failed"},
		{"yes, but saving fails", answerYes, errors.New("settings.json: read-only file system"), 0, "failed", false, "approved", "failed"},
		{"no answer in time", func(ctx context.Context) (bool, error) { <-ctx.Done(); return false, ctx.Err() },
			nil, 50 * time.Millisecond, "timeout", false, "timeout", "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shown := make(chan asked, 4)
			rg := newRig(t, rigOptions{confirm: popup(tc.answer, shown), confirmTimeout: tc.timeout})
			rg.auto.err = tc.setErr
			cookie := rg.session(dashboard.Full)
			page := rg.get("/settings", cookie).body
			res := rg.post("/settings/automations", cookie, form(t, page, "/settings/automations", `value="false"`), nil)
			if res.status != http.StatusSeeOther || res.header.Get("Location") != "/settings?result="+tc.result {
				t.Fatalf("POST: %d to %q, want 303 to ?result=%s (%s)", res.status, res.header.Get("Location"), tc.result, res.body)
			}
			select {
			case q := <-shown:
				if q.title != "Airlock — turn automations off?" || q.yes != "Turn off" || !strings.Contains(q.text, "dashboard") ||
					!strings.Contains(q.text, "Say yes only if you chose this") {
					t.Errorf("the popup showed %+v", q)
				}
			default:
				t.Fatal("no confirmation popup was shown")
			}
			if changed := !rg.auto.Enabled(); changed != tc.changed {
				t.Errorf("changed %v, want %v", changed, tc.changed)
			}
			recs := settingRecords(t, rg.store)
			if len(recs) != 1 || len(recs[0].Actions) != 1 {
				t.Fatalf("recorded %+v, want one change with one action", recs)
			}
			r, a := recs[0].Request, recs[0].Actions[0]
			if r.Kind != dashboard.RecordKind || r.Text != "turn automations off" || a.Decision.Decision != "ask" ||
				a.Decision.Risk != level.Safe || a.Decision.Autonomy != 1 {
				t.Errorf("recorded request %+v, decision %+v", r, a.Decision)
			}
			if a.Outcome == nil || a.Outcome.Approval != tc.approval || a.Outcome.Status != tc.status {
				t.Errorf("recorded outcome %+v, want approval %q, status %q", a.Outcome, tc.approval, tc.status)
			}
			if tc.setErr != nil && !strings.Contains(a.Outcome.Error, "read-only file system") {
				t.Errorf("the failure recorded as %q", a.Outcome.Error)
			}
			// The page says what happened.
			if msg := rg.get(res.header.Get("Location"), cookie); msg.status != http.StatusOK || !strings.Contains(msg.body, `class="result`) {
				t.Errorf("the result page: %d", msg.status)
			}
		})
	}
}

// Turning one automation on asks about that automation by name, and the
// change recorded is rated caution (it lets something run on a schedule);
// a change to what already is asks nothing and records nothing.
func TestChangeOneAutomation(t *testing.T) {
	shown := make(chan asked, 4)
	rg := newRig(t, rigOptions{confirm: popup(answerYes, shown)})
	cookie := rg.session(dashboard.Full)
	page := rg.get("/settings", cookie).body
	res := rg.post("/settings/automation", cookie, form(t, page, "/settings/automation", `value="tidy downloads"`), nil)
	if res.header.Get("Location") != "/settings?result=changed" {
		t.Fatalf("POST: %d %q", res.status, res.header.Get("Location"))
	}
	q := <-shown
	if !strings.Contains(q.title, "tidy downloads") || q.yes != "Turn on" {
		t.Errorf("the popup showed %+v", q)
	}
	if got := rg.auto.changes(); !slices.Equal(got, []string{"tidy downloads=on"}) {
		t.Errorf("changes %q", got)
	}
	recs := settingRecords(t, rg.store)
	if len(recs) != 1 || recs[0].Actions[0].Decision.Risk != level.Caution || recs[0].Request.Text != `turn automation "tidy downloads" on` {
		t.Errorf("recorded %+v", recs)
	}

	// The old form again: it is already on.
	res = rg.post("/settings/automation", cookie, form(t, page, "/settings/automation", `value="tidy downloads"`), nil)
	if res.header.Get("Location") != "/settings?result=unchanged" || len(shown) != 0 || len(settingRecords(t, rg.store)) != 1 {
		t.Errorf("a change to what already is: %q, %d popups, %d records", res.header.Get("Location"), len(shown), len(settingRecords(t, rg.store)))
	}
}

// A change is refused unless it comes from the dashboard's own page of a
// full session: the right Origin and Sec-Fetch-Site, the form's own CSRF
// value (a value from another form, or for the other answer, does
// nothing), and a well-formed form. None of them reaches the popup.
func TestChangeRefused(t *testing.T) {
	var popups atomic.Int32
	rg := newRig(t, rigOptions{confirm: func(context.Context, string, string, string) (bool, error) {
		popups.Add(1)
		return true, nil
	}})
	full := rg.session(dashboard.Full)
	page := rg.get("/settings", full).body
	off := form(t, page, "/settings/automations", `value="false"`)
	one := form(t, page, "/settings/automation", `value="morning notes"`)
	with := func(v url.Values, k, val string) url.Values {
		w := url.Values{}
		for key, vals := range v {
			w[key] = append([]string(nil), vals...)
		}
		if val == "\x00delete" {
			w.Del(k)
		} else {
			w.Set(k, val)
		}
		return w
	}
	for _, tc := range []struct {
		name   string
		path   string
		form   url.Values
		edit   func(*http.Request)
		status int
		says   string
	}{
		{"no Origin", "/settings/automations", off, func(r *http.Request) { r.Header.Del("Origin") }, 403, "Origin"},
		{"another Origin", "/settings/automations", off, func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }, 403, "Origin"},
		{"Origin null", "/settings/automations", off, func(r *http.Request) { r.Header.Set("Origin", "null") }, 403, "Origin"},
		{"Origin of another port", "/settings/automations", off, func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:1") }, 403, "Origin"},
		{"cross-site fetch", "/settings/automations", off, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, 403, "Sec-Fetch-Site"},
		{"same-site fetch", "/settings/automations", off, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "same-site") }, 403, "Sec-Fetch-Site"},
		{"no CSRF value", "/settings/automations", with(off, "csrf", "\x00delete"), nil, 400, "field csrf: missing"},
		{"a wrong CSRF value", "/settings/automations", with(off, "csrf", "AAAA"), nil, 403, "CSRF"},
		{"the CSRF value of the other answer", "/settings/automations", with(off, "on", "true"), nil, 403, "CSRF"},
		{"the CSRF value of another form", "/settings/automations", with(off, "csrf", one.Get("csrf")), nil, 403, "CSRF"},
		{"the CSRF value of another automation", "/settings/automation", with(one, "name", "tidy downloads"), nil, 403, "CSRF"},
		{"an automation that is not there", "/settings/automation", with(one, "name", "nope"), nil, 403, "CSRF"},
		{"a field too many", "/settings/automations", with(off, "name", "x"), nil, 400, `field "name": not a field`},
		{"on is not a boolean", "/settings/automations", with(off, "on", "maybe"), nil, 400, "field on"},
		{"not a form", "/settings/automations", off, func(r *http.Request) { r.Header.Set("Content-Type", "application/json") }, 400, "must be a form"},
		{"a GET", "/settings/automations", nil, func(r *http.Request) { r.Method = http.MethodGet }, 405, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := rg.post(tc.path, full, tc.form, tc.edit)
			if res.status != tc.status || !strings.Contains(res.body, tc.says) {
				t.Errorf("%d %q, want %d saying %q", res.status, res.body, tc.status, tc.says)
			}
		})
	}
	if n := popups.Load(); n != 0 {
		t.Errorf("%d popups shown for refused changes", n)
	}
	if got := rg.auto.changes(); len(got) != 0 {
		t.Errorf("changes made: %q", got)
	}
	if recs := settingRecords(t, rg.store); len(recs) != 0 {
		t.Errorf("refused changes recorded: %+v", recs)
	}
	// And the real form still works.
	if res := rg.post("/settings/automations", full, off, nil); res.header.Get("Location") != "/settings?result=changed" {
		t.Errorf("the real form: %d %q", res.status, res.header.Get("Location"))
	}
}

// A read-only session (a link printed for a socket client) shows no form
// and cannot change anything, even with a full session's form values.
func TestReadOnlyCannotChange(t *testing.T) {
	var popups atomic.Int32
	rg := newRig(t, rigOptions{confirm: func(context.Context, string, string, string) (bool, error) {
		popups.Add(1)
		return true, nil
	}})
	full := rg.get("/settings", rg.session(dashboard.Full)).body
	off := form(t, full, "/settings/automations", `value="false"`)

	ro := rg.session(dashboard.ReadOnly)
	page := rg.get("/settings", ro)
	if page.status != http.StatusOK || strings.Contains(page.body, "<form") || !strings.Contains(page.body, "Read-only") {
		t.Errorf("the read-only settings page: %d, forms %v, says read-only %v", page.status,
			strings.Contains(page.body, "<form"), strings.Contains(page.body, "Read-only"))
	}
	if !strings.Contains(page.body, "morning notes") || !strings.Contains(page.body, "Safari") {
		t.Error("the read-only page does not show the automations and settings")
	}
	res := rg.post("/settings/automations", ro, off, nil)
	if res.status != http.StatusForbidden || !strings.Contains(res.body, "read-only") {
		t.Errorf("a change from a read-only session: %d %q", res.status, res.body)
	}
	if popups.Load() != 0 || len(rg.auto.changes()) != 0 {
		t.Error("a read-only session reached the popup or made a change")
	}
}

// One change is asked about at a time: a post while a popup is open is
// refused as busy at once, shows no second popup and records nothing; a
// popup open elsewhere makes it busy too.
func TestOneChangeAtATime(t *testing.T) {
	open := make(chan struct{})
	answer := make(chan bool)
	var popups atomic.Int32
	rg := newRig(t, rigOptions{confirm: func(ctx context.Context, _, _, _ string) (bool, error) {
		popups.Add(1)
		close(open)
		select {
		case ok := <-answer:
			return ok, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}})
	cookie := rg.session(dashboard.Full)
	page := rg.get("/settings", cookie).body
	first := make(chan response, 1)
	go func() {
		first <- rg.post("/settings/automations", cookie, form(t, page, "/settings/automations", `value="false"`), nil)
	}()
	<-open
	res := rg.post("/settings/automation", cookie, form(t, page, "/settings/automation", `value="tidy downloads"`), nil)
	if res.header.Get("Location") != "/settings?result=busy" {
		t.Errorf("a second change while a popup is open: %d %q", res.status, res.header.Get("Location"))
	}
	answer <- true
	if res := <-first; res.header.Get("Location") != "/settings?result=changed" {
		t.Errorf("the first change: %q", res.header.Get("Location"))
	}
	if n := popups.Load(); n != 1 {
		t.Errorf("%d popups, want 1", n)
	}
	if got := rg.auto.changes(); !slices.Equal(got, []string{"all=off"}) {
		t.Errorf("changes %q", got)
	}
	if n := len(settingRecords(t, rg.store)); n != 1 {
		t.Errorf("%d changes recorded, want 1", n)
	}

	// A popup open elsewhere (the menu's, the socket's: Confirm says
	// ErrConfirmationOpen) is busy too, and the refusal is recorded.
	rg = newRig(t, rigOptions{confirm: func(context.Context, string, string, string) (bool, error) {
		return false, fmt.Errorf("asking: %w", dashboard.ErrConfirmationOpen)
	}})
	cookie = rg.session(dashboard.Full)
	page = rg.get("/settings", cookie).body
	if res := rg.post("/settings/automations", cookie, form(t, page, "/settings/automations", `value="false"`), nil); res.header.Get("Location") != "/settings?result=busy" {
		t.Errorf("a change while another confirmation is open: %d %q", res.status, res.header.Get("Location"))
	}
	if got := rg.auto.changes(); len(got) != 0 {
		t.Errorf("changes %q", got)
	}
	if recs := settingRecords(t, rg.store); len(recs) != 1 || len(recs[0].Actions) != 1 || recs[0].Actions[0].Outcome == nil || recs[0].Actions[0].Outcome.Status != "refused" {
		t.Errorf("recorded %+v, want one refused", recs)
	}
}

// A page that goes away while its popup is open withdraws the change: the
// popup is closed, nothing changes, and the history says so.
func TestChangeWithdrawnWhenThePageGoes(t *testing.T) {
	open := make(chan struct{})
	closed := make(chan struct{})
	rg := newRig(t, rigOptions{confirm: func(ctx context.Context, _, _, _ string) (bool, error) {
		close(open)
		<-ctx.Done()
		close(closed)
		return false, ctx.Err()
	}})
	cookie := rg.session(dashboard.Full)
	page := rg.get("/settings", cookie).body
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rg.base+"/settings/automations",
			strings.NewReader(form(t, page, "/settings/automations", `value="false"`).Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", rg.base)
		req.AddCookie(cookie)
		if res, err := rg.http.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	<-open
	cancel()
	<-closed
	// The outcome is recorded after the popup closes.
	if o := <-rg.outcomes; o.Status != "withdrawn" || o.Approval != "withdrawn" {
		t.Errorf("recorded %+v, want withdrawn", o)
	}
	if !rg.auto.Enabled() {
		t.Error("changed although the page went away")
	}
}

// Without a popup nothing can be changed: the page has no forms, and a
// post says so without recording anything.
func TestNoPopupNoChange(t *testing.T) {
	rg := newRig(t, rigOptions{})
	cookie := rg.session(dashboard.Full)
	if page := rg.get("/settings", cookie).body; strings.Contains(page, "<form") {
		t.Error("forms shown where no popup can confirm them")
	}
	res := rg.post("/settings/automations", cookie, url.Values{"on": {"false"}, "csrf": {"x"}}, nil)
	if res.status != http.StatusServiceUnavailable || !strings.Contains(res.body, "no confirmation popup") {
		t.Errorf("a post where no popup can ask: %d %q", res.status, res.body)
	}
	if got := rg.auto.changes(); len(got) != 0 || len(settingRecords(t, rg.store)) != 0 {
		t.Errorf("changed %q without a popup", got)
	}
}

// No scheduler wired: the page says "No automations", and posts find
// nothing to change.
func TestNoAutomations(t *testing.T) {
	rg := newRig(t, rigOptions{noAutomations: true, confirm: popup(answerYes, nil)})
	cookie := rg.session(dashboard.Full)
	page := rg.get("/settings", cookie)
	if page.status != http.StatusOK || !strings.Contains(page.body, "No automations.") || strings.Contains(page.body, "<form") {
		t.Errorf("the settings page without automations: %d %q", page.status, page.body)
	}
	if res := rg.post("/settings/automations", cookie, url.Values{"on": {"false"}, "csrf": {"x"}}, nil); res.status != http.StatusNotFound {
		t.Errorf("a post without automations: %d %q", res.status, res.body)
	}
}

// The settings page takes only ?result= with a result it knows.
func TestSettingsPageParams(t *testing.T) {
	rg := newRig(t, rigOptions{})
	cookie := rg.session(dashboard.ReadOnly)
	for _, q := range []string{"?result=pwned", "?x=1", "?result=changed&result=failed"} {
		res := rg.get("/settings"+q, cookie)
		if res.status != http.StatusBadRequest || !strings.Contains(res.body, "parameter") {
			t.Errorf("/settings%s: %d %q", q, res.status, res.body)
		}
	}
	res := rg.get("/settings?result=declined", cookie)
	if res.status != http.StatusOK || !strings.Contains(res.body, "you said no") {
		t.Errorf("/settings?result=declined: %d", res.status)
	}
}

// A scheduler that asks the person itself before turning anything on (as
// automation.Book does) is left to ask, so the person is asked once; the
// answer is recorded all the same. Turning something off is still asked
// about by the dashboard.
func TestSelfConfirmingScheduler(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answer   func(ctx context.Context) (bool, error)
		timeout  time.Duration
		result   string
		on       bool
		approval string
		status   string
	}{
		{"yes", answerYes, 0, "changed", true, "approved", "ok"},
		{"no", func(context.Context) (bool, error) { return false, nil }, 0, "declined", false, "denied", "denied"},
		{"no answer in time", func(ctx context.Context) (bool, error) { <-ctx.Done(); return false, ctx.Err() },
			50 * time.Millisecond, "timeout", false, "timeout", "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := make(chan string, 4)
			var dashPopups atomic.Int32
			rg := newRig(t, rigOptions{
				confirm: func(context.Context, string, string, string) (bool, error) { dashPopups.Add(1); return true, nil },
				selfConfirm: func(ctx context.Context, what string) (bool, error) {
					asked <- what
					return tc.answer(ctx)
				},
				confirmTimeout: tc.timeout,
			})
			cookie := rg.session(dashboard.Full)
			page := rg.get("/settings", cookie).body
			res := rg.post("/settings/automation", cookie, form(t, page, "/settings/automation", `value="tidy downloads"`), nil)
			if res.header.Get("Location") != "/settings?result="+tc.result {
				t.Fatalf("turning on: %d %q, want ?result=%s", res.status, res.header.Get("Location"), tc.result)
			}
			what := ""
			select {
			case what = <-asked: // asked before the response came
			default:
			}
			if what != "tidy downloads" || len(asked) != 0 || dashPopups.Load() != 0 {
				t.Errorf("asked by the scheduler about %q (%d more), by the dashboard %d times; want the scheduler once",
					what, len(asked), dashPopups.Load())
			}
			on := slices.Contains(rg.auto.changes(), "tidy downloads=on")
			if on != tc.on {
				t.Errorf("turned on %v, want %v", on, tc.on)
			}
			if o := <-rg.outcomes; o.Approval != tc.approval || o.Status != tc.status {
				t.Errorf("recorded %+v, want approval %q, status %q", o, tc.approval, tc.status)
			}
		})
	}

	// Off: the scheduler does not ask; the dashboard does.
	var dashPopups atomic.Int32
	rg := newRig(t, rigOptions{
		confirm: func(context.Context, string, string, string) (bool, error) { dashPopups.Add(1); return true, nil },
		selfConfirm: func(context.Context, string) (bool, error) {
			t.Error("the scheduler asked about turning something off")
			return true, nil
		},
	})
	cookie := rg.session(dashboard.Full)
	page := rg.get("/settings", cookie).body
	if res := rg.post("/settings/automations", cookie, form(t, page, "/settings/automations", `value="false"`), nil); res.header.Get("Location") != "/settings?result=changed" {
		t.Fatalf("turning off: %q", res.header.Get("Location"))
	}
	if dashPopups.Load() != 1 || rg.auto.Enabled() {
		t.Errorf("the dashboard asked %d times; automations on %v", dashPopups.Load(), rg.auto.Enabled())
	}
}

// The settings page lists the person's rules; a full session removes an
// allow rule without a popup (it only makes Airlock ask more), and the
// removal is recorded; a deny rule has no form, a read-only session cannot
// remove, a forged number is refused by its CSRF value, and a rule that
// changed in the file since the page was shown is not removed.
func TestRemoveRule(t *testing.T) {
	var removed []string
	gone := false
	var popups atomic.Int32
	rg := newRig(t, rigOptions{
		confirm: func(context.Context, string, string, string) (bool, error) { popups.Add(1); return true, nil },
		rules: []dashboard.RuleView{
			{Decision: "deny", Words: `git push: "I push myself"`},
			{Decision: "allow", Words: `/usr/bin/git status in ~/proj`},
		},
		removeRule: func(_ context.Context, n int, words string) error {
			if gone {
				return fmt.Errorf("rule %d is not %q any more: %w", n, words, dashboard.ErrNoSuchRule)
			}
			removed = append(removed, fmt.Sprintf("%d %s", n, words))
			return nil
		},
	})
	full := rg.session(dashboard.Full)
	page := rg.get("/settings", full).body
	if !strings.Contains(page, "git push") || !strings.Contains(page, "/usr/bin/git status in ~/proj") {
		t.Fatalf("the rules are not listed:\n%s", page)
	}
	if strings.Count(page, `action="/settings/rule"`) != 1 {
		t.Fatalf("want one remove form (the allow rule's), got %d", strings.Count(page, `action="/settings/rule"`))
	}
	f := form(t, page, "/settings/rule", `value="2"`)

	ro := rg.session(dashboard.ReadOnly)
	if strings.Contains(rg.get("/settings", ro).body, `action="/settings/rule"`) {
		t.Error("a read-only page offers to remove a rule")
	}
	if res := rg.post("/settings/rule", ro, f, nil); res.status != http.StatusForbidden {
		t.Errorf("a removal from a read-only session: %d %q", res.status, res.body)
	}
	forged := url.Values{"csrf": {f.Get("csrf")}, "number": {"1"}, "words": {f.Get("words")}}
	if res := rg.post("/settings/rule", full, forged, nil); res.status != http.StatusForbidden {
		t.Errorf("a removal of another rule with this rule's CSRF value: %d %q", res.status, res.body)
	}
	if len(removed) != 0 {
		t.Fatalf("removed %q before a good post", removed)
	}

	res := rg.post("/settings/rule", full, f, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/settings?result=removed" {
		t.Fatalf("the removal: %d %q %q", res.status, res.header.Get("Location"), res.body)
	}
	if len(removed) != 1 || removed[0] != "2 /usr/bin/git status in ~/proj" || popups.Load() != 0 {
		t.Fatalf("removed %q with %d popups; want rule 2 and none", removed, popups.Load())
	}
	if o := <-rg.outcomes; o.Status != "ok" {
		t.Fatalf("recorded %+v", o)
	}
	gone = true
	if res := rg.post("/settings/rule", full, f, nil); res.header.Get("Location") != "/settings?result=gone" {
		t.Fatalf("a removal of a rule changed since: %d %q", res.status, res.header.Get("Location"))
	}
	if o := <-rg.outcomes; o.Status != "refused" {
		t.Fatalf("recorded %+v", o)
	}
}
