package dashboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The history's record of a change of setting made from the dashboard.
const (
	RecordClient = "Airlock's dashboard"
	RecordKind   = "setting"
)

// applyTimeout bounds making a change the person said yes to.
const applyTimeout = 30 * time.Second

// maxForm bounds a posted form, in bytes.
const maxForm = 4 << 10

// results are what a change came to, as the settings page says it after
// the redirect (?result=…): the text and its colour.
var results = map[string][2]string{
	"changed":     {"Done: the change was made after your yes, and recorded in the history.", "ok"},
	"unchanged":   {"Nothing to change: it was already so.", "ok"},
	"declined":    {"Not changed: you said no in the confirmation popup. Your answer is recorded in the history.", "stopped"},
	"timeout":     {"Not changed: the confirmation popup was not answered in time.", "stopped"},
	"withdrawn":   {"Not changed: the page went away before an answer.", "stopped"},
	"busy":        {"Not changed: another confirmation is open; answer it first.", "stopped"},
	"unavailable": {"Not changed: no confirmation popup can be shown here, so nothing can be changed from the dashboard.", "bad"},
	"failed":      {"Not changed: it failed (the history and the log say why).", "bad"},
	"removed":     {"Done: the rule was taken away, and recorded in the history. That only makes Airlock ask more, so no confirmation was needed.", "ok"},
	"gone":        {"Not changed: that rule is no longer in settings.json as this page showed it: see the rules as they are now.", "stopped"},
}

type settingsData struct {
	page
	Result, ResultClass string
	Wired, Enabled      bool
	CanChange           bool
	Switch              switchView
	List                []automationRow
	HaveSettings        bool
	Apps, Roots         []string
	Rules               []ruleRow
	CanRemove           bool
}

// ruleRow is one of the person's rules on the settings page.
type ruleRow struct {
	Number         int
	Decision       string
	Words, RawWord string // as shown; as the form sends it back
	CSRF           string // for an allow rule a full session may remove; "" otherwise
}

type switchView struct{ CSRF, On, Label string }

type automationRow struct {
	Name       string // as shown
	RawName    string // as the form sends it back
	Enabled    bool
	Schedule   string
	NextRun    string
	LastRun    string
	LastResult string
	CSRF       string
	SetTo      string
	Label      string
}

// settingsPage shows the automations, the allowed apps and the sandbox
// roots; to a full session, with the forms that ask for a change.
func (s *Server) settingsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for name, vals := range q {
		if name != "result" {
			plain(w, http.StatusBadRequest, "400 Bad Request: "+(&ParamError{quote(name), "not a parameter of this page (it takes result)"}).Error()+"\n")
			return
		}
		if _, ok := results[vals[0]]; len(vals) != 1 || !ok {
			plain(w, http.StatusBadRequest, "400 Bad Request: "+(&ParamError{"result", quote(vals[0]) + " is not a result this page shows"}).Error()+"\n")
			return
		}
	}
	d := settingsData{page: s.page(r, "settings", "automations & settings")}
	if res, ok := results[q.Get("result")]; ok {
		d.Result, d.ResultClass = res[0], res[1]
	}
	a := accessOf(r)
	d.CanChange = a == Full && s.cfg.Confirm != nil
	if auto := s.cfg.Automations; auto != nil {
		d.Wired, d.Enabled = true, auto.Enabled()
		on := !d.Enabled
		d.Switch = switchView{CSRF: s.keys.csrfToken(a, switchID(on)), On: strconv.FormatBool(on), Label: "Turn automations " + onOff(on)}
		for _, v := range auto.List() {
			on := !v.Enabled
			d.List = append(d.List, automationRow{
				Name:       shown(v.Name, lineBytes),
				RawName:    v.Name,
				Enabled:    v.Enabled,
				Schedule:   shown(v.Schedule, lineBytes),
				NextRun:    s.when(v.NextRun, "none"),
				LastRun:    s.when(v.LastRun, "never"),
				LastResult: shown(v.LastResult, lineBytes),
				CSRF:       s.keys.csrfToken(a, automationID(v.Name, on)),
				SetTo:      strconv.FormatBool(on),
				Label:      "Turn " + onOff(on),
			})
		}
	}
	if s.cfg.Settings != nil {
		st := s.cfg.Settings()
		d.HaveSettings = true
		for _, app := range st.AllowedApps {
			d.Apps = append(d.Apps, shown(app, lineBytes))
		}
		for _, root := range st.Roots {
			d.Roots = append(d.Roots, shown(root, lineBytes))
		}
		d.CanRemove = a == Full && s.cfg.RemoveRule != nil
		for i, rv := range st.Rules {
			row := ruleRow{Number: i + 1, Decision: rv.Decision, Words: shown(rv.Words, lineBytes), RawWord: rv.Words}
			if d.CanRemove && rv.Decision == "allow" {
				row.CSRF = s.keys.csrfToken(a, ruleID(i+1, rv.Words))
			}
			d.Rules = append(d.Rules, row)
		}
	}
	s.render(w, s.pages.settings, d)
}

func (s *Server) when(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.In(s.cfg.Location).Format("2006-01-02 15:04")
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// The forms' names for their CSRF values.
func switchID(on bool) string { return formID("automations", strconv.FormatBool(on)) }

func automationID(name string, on bool) string {
	return formID("automation", name, strconv.FormatBool(on))
}

func ruleID(n int, words string) string { return formID("rule", strconv.Itoa(n), words) }

// ErrNoSuchRule is wrapped by Config.RemoveRule's error when the rule is
// no longer in the settings file as the page showed it.
var ErrNoSuchRule = errors.New("no such rule")

// postRemoveRule takes an allow rule away: from a full session, without a
// confirmation (it only makes Airlock ask more), recorded in the history.
func (s *Server) postRemoveRule(w http.ResponseWriter, r *http.Request) {
	if !fullSession(w, r) {
		return
	}
	if s.cfg.RemoveRule == nil {
		plain(w, http.StatusNotFound, "404 Not Found: rules are not changed from this dashboard\n")
		return
	}
	form, err := readForm(r, "csrf", "number", "words")
	if err != nil {
		plain(w, http.StatusBadRequest, "400 Bad Request: "+err.Error()+"\n")
		return
	}
	n, err := strconv.Atoi(form.Get("number"))
	if err != nil || n < 1 {
		plain(w, http.StatusBadRequest, "400 Bad Request: field number: "+quote(form.Get("number"))+" is not a rule's number (1, 2, …)\n")
		return
	}
	words := form.Get("words")
	if strings.ContainsRune(words, 0) || !s.keys.csrfOK(Full, ruleID(n, words), form.Get("csrf")) {
		forbid(w, "the form's CSRF value does not match it: reload the settings page and try again")
		return
	}
	action := fmt.Sprintf("remove allow rule %d: %s", n, words)
	rec := context.WithoutCancel(r.Context())
	id, now := s.cfg.NewID(), s.cfg.Now()
	err = s.cfg.History.AddRequest(rec, history.Request{ID: id, Time: now, Client: RecordClient, Kind: RecordKind, Text: action})
	if err == nil {
		err = s.cfg.History.AddDecision(rec, history.Decision{RequestID: id, Index: 0, Time: now, Action: action,
			Preview: fmt.Sprintf("Take away allow rule %d", n), Risk: level.Safe, Autonomy: s.cfg.Status().Autonomy, Decision: "auto",
			Reasons: []string{"a change of setting asked for in Airlock's dashboard", "it only makes Airlock ask more: no confirmation needed"}})
	}
	if err != nil {
		s.cfg.Logf("dashboard: recording %q: %v", action, err)
		seeResult(w, r, "failed")
		return
	}
	o := history.Outcome{RequestID: id, Index: 0, Approval: "auto"}
	ctx, cancel := context.WithTimeout(rec, applyTimeout)
	rerr := s.cfg.RemoveRule(ctx, n, words)
	cancel()
	result := "removed"
	switch {
	case rerr == nil:
		o.Status, o.Output = "ok", "removed"
	case errors.Is(rerr, ErrNoSuchRule):
		o.Status, o.Error, result = "refused", rerr.Error(), "gone"
	default:
		o.Status, o.Error, result = "failed", rerr.Error(), "failed"
	}
	o.Time = s.cfg.Now()
	if err := s.cfg.History.AddOutcome(rec, o); err != nil {
		s.cfg.Logf("dashboard: recording the outcome of %q: %v", action, err)
	}
	s.cfg.Logf("dashboard: %s: %s", action, o.Status)
	seeResult(w, r, result)
}

// postSwitch asks for the global automation switch to be turned on or off.
func (s *Server) postSwitch(w http.ResponseWriter, r *http.Request) {
	auto, ok := s.mayChange(w, r)
	if !ok {
		return
	}
	form, err := readForm(r, "csrf", "on")
	if err != nil {
		plain(w, http.StatusBadRequest, "400 Bad Request: "+err.Error()+"\n")
		return
	}
	on, err := strconv.ParseBool(form.Get("on"))
	if err != nil {
		plain(w, http.StatusBadRequest, "400 Bad Request: field on: "+quote(form.Get("on"))+" is not true or false\n")
		return
	}
	if !s.keys.csrfOK(Full, switchID(on), form.Get("csrf")) {
		forbid(w, "the form's CSRF value does not match it: reload the settings page and try again")
		return
	}
	if auto.Enabled() == on {
		seeResult(w, r, "unchanged")
		return
	}
	c := change{
		title:   "Airlock — turn automations " + onOff(on) + "?",
		action:  "turn automations " + onOff(on),
		preview: "Turn every automation's schedule " + onOff(on) + " (settings automationEnabled)",
		risk:    level.Safe,
		apply:   func(ctx context.Context) error { return auto.SetEnabled(ctx, on) },
		raises:  on,
	}
	if on {
		c.risk = level.Caution
		c.text = "Airlock's dashboard asks to turn automations on. Each automation then runs on its schedule, " +
			"through the gate like a request of yours: what needs your approval still waits for it."
		c.yes = "Turn on"
	} else {
		c.text = "Airlock's dashboard asks to turn automations off. Every schedule pauses until they are turned on again."
		c.yes = "Turn off"
	}
	seeResult(w, r, s.change(r.Context(), c))
}

// postAutomation asks for one automation to be turned on or off.
func (s *Server) postAutomation(w http.ResponseWriter, r *http.Request) {
	auto, ok := s.mayChange(w, r)
	if !ok {
		return
	}
	form, err := readForm(r, "csrf", "name", "on")
	if err != nil {
		plain(w, http.StatusBadRequest, "400 Bad Request: "+err.Error()+"\n")
		return
	}
	on, err := strconv.ParseBool(form.Get("on"))
	if err != nil {
		plain(w, http.StatusBadRequest, "400 Bad Request: field on: "+quote(form.Get("on"))+" is not true or false\n")
		return
	}
	name := form.Get("name")
	if strings.ContainsRune(name, 0) || !s.keys.csrfOK(Full, automationID(name, on), form.Get("csrf")) {
		forbid(w, "the form's CSRF value does not match it: reload the settings page and try again")
		return
	}
	list := auto.List()
	i := slices.IndexFunc(list, func(v AutomationView) bool { return v.Name == name })
	if i < 0 {
		plain(w, http.StatusBadRequest, "400 Bad Request: field name: there is no automation named "+quote(name)+" (any more?): reload the settings page\n")
		return
	}
	if list[i].Enabled == on {
		seeResult(w, r, "unchanged")
		return
	}
	shownName := sanitize.Display(name)
	c := change{
		title:   fmt.Sprintf("Airlock — turn automation %s %s?", shownName, onOff(on)),
		action:  fmt.Sprintf("turn automation %s %s", strconv.Quote(name), onOff(on)),
		preview: fmt.Sprintf("Turn the automation %s %s", shownName, onOff(on)),
		risk:    level.Safe,
		apply:   func(ctx context.Context) error { return auto.SetAutomation(ctx, name, on) },
		raises:  on,
	}
	if on {
		c.risk = level.Caution
		c.text = fmt.Sprintf("Airlock's dashboard asks to turn the automation %s on. It then runs on its schedule, "+
			"through the gate like a request of yours: what needs your approval still waits for it.", shownName)
		c.yes = "Turn on"
	} else {
		c.text = fmt.Sprintf("Airlock's dashboard asks to turn the automation %s off. It will not run until it is turned on again.", shownName)
		c.yes = "Turn off"
	}
	seeResult(w, r, s.change(r.Context(), c))
}

// mayChange refuses a change from a read-only session, and answers one
// where there are no automations.
func (s *Server) mayChange(w http.ResponseWriter, r *http.Request) (Automations, bool) {
	if !fullSession(w, r) {
		return nil, false
	}
	if s.cfg.Confirm == nil {
		plain(w, http.StatusServiceUnavailable, "503 Service Unavailable: no confirmation popup can be shown here, "+
			"so nothing can be changed from the dashboard\n")
		return nil, false
	}
	if s.cfg.Automations == nil {
		plain(w, http.StatusNotFound, "404 Not Found: there are no automations here to change\n")
		return nil, false
	}
	return s.cfg.Automations, true
}

// fullSession reports whether r comes from a full session, the only kind
// that may change anything; for a read-only one it answers 403 with why.
func fullSession(w http.ResponseWriter, r *http.Request) bool {
	if accessOf(r) == Full {
		return true
	}
	forbid(w, "this is a read-only session (opened with a link printed by `airlock dashboard --print`, which any program "+
		"of yours can ask for): open the dashboard from Airlock's menu (Dashboard…) or with `airlock dashboard` to change a setting")
	return false
}

// readForm reads a posted form that must have exactly the fields named,
// each once.
func readForm(r *http.Request, fields ...string) (url.Values, error) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, fmt.Errorf("the body must be a form (application/x-www-form-urlencoded), not %s", quote(r.Header.Get("Content-Type")))
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxForm+1))
	if err != nil {
		return nil, fmt.Errorf("reading the form: %v", err)
	}
	if len(body) > maxForm {
		return nil, fmt.Errorf("the form is larger than %d bytes", maxForm)
	}
	v, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, fmt.Errorf("the form does not parse: %v", err)
	}
	for name, vals := range v {
		if !slices.Contains(fields, name) {
			return nil, fmt.Errorf("field %s: not a field of this form (it takes %s)", quote(name), strings.Join(fields, ", "))
		}
		if len(vals) != 1 {
			return nil, fmt.Errorf("field %s: given %d times; give it once", name, len(vals))
		}
	}
	for _, f := range fields {
		if !v.Has(f) {
			return nil, fmt.Errorf("field %s: missing", f)
		}
	}
	return v, nil
}

func seeResult(w http.ResponseWriter, r *http.Request, result string) {
	http.Redirect(w, r, "/settings?result="+result, http.StatusSeeOther)
}

// change is a change of setting the person is asked about.
type change struct {
	title, text, yes string
	action           string // what the history records as the action
	preview          string
	risk             level.Level // safe for what only pauses, caution for what lets automations run
	apply            func(ctx context.Context) error
	raises           bool // it turns something on
}

// ErrConfirmationOpen is wrapped by the error Config.Confirm (or a
// SelfConfirming Automations) returns while another confirmation is open
// elsewhere: one is open at a time for the menu, the socket and the
// dashboard.
var ErrConfirmationOpen = errors.New("another confirmation is open")

// change asks the person about c in the confirmation popup, applies it
// after their yes, and records the question and the answer in the history
// (the request and its decision before asking, the outcome after). A
// change that turns something on, made through a SelfConfirming
// Automations, is asked about by it instead, once. It returns the result
// the settings page shows. One change is asked about at a time; one asked
// meanwhile is refused as "busy" and not recorded, so that clicks cannot
// queue popups or flood the history.
func (s *Server) change(ctx context.Context, c change) string {
	if s.cfg.Confirm == nil {
		return "unavailable"
	}
	if !s.confirming.TryLock() {
		return "busy"
	}
	defer s.confirming.Unlock()
	_, asksItself := s.cfg.Automations.(SelfConfirming)
	asksItself = asksItself && c.raises
	rec := context.WithoutCancel(ctx) // the answer is recorded even if the page went away
	id := s.cfg.NewID()
	now := s.cfg.Now()
	st := s.cfg.Status()
	c.text += "\n\nSay yes only if you chose this in Airlock's dashboard yourself: a program of yours that got hold of " +
		"the dashboard's link could have asked."
	err := s.cfg.History.AddRequest(rec, history.Request{ID: id, Time: now, Client: RecordClient, Kind: RecordKind, Text: c.action})
	if err == nil {
		err = s.cfg.History.AddDecision(rec, history.Decision{RequestID: id, Index: 0, Time: now, Action: c.action,
			Preview: c.preview, Risk: c.risk, Autonomy: st.Autonomy, Decision: "ask",
			Reasons: []string{"a change of setting asked for in Airlock's dashboard", "made only after the person's yes in Airlock's confirmation popup"}})
	}
	if err != nil {
		// A change that cannot be recorded is not made.
		s.cfg.Logf("dashboard: recording %q: %v", c.action, err)
		return "failed"
	}

	o := history.Outcome{RequestID: id, Index: 0}
	result := ""
	cctx, cancel := context.WithTimeout(ctx, s.cfg.ConfirmTimeout)
	defer cancel()
	start := time.Now()
	var yes bool
	var askErr, applyErr error
	if asksItself {
		// The implementation asks, and changes only after a yes.
		switch applyErr = c.apply(cctx); {
		case applyErr == nil:
			yes = true
		case errors.Is(applyErr, ErrNotConfirmed):
			askErr, applyErr = applyErr, nil
		}
	} else {
		yes, askErr = s.cfg.Confirm(cctx, c.title, c.text, c.yes)
		if yes && askErr == nil {
			// The person said yes: made even if the page has gone since.
			actx, cancel := context.WithTimeout(rec, applyTimeout)
			applyErr = c.apply(actx)
			cancel()
		}
	}
	switch {
	case yes && askErr == nil && applyErr == nil:
		o.Approval, o.Status, o.Output, result = "approved", "ok", "changed", "changed"
	case applyErr != nil:
		if !asksItself {
			o.Approval = "approved" // it failed after the yes
		}
		o.Status, o.Error, result = "failed", applyErr.Error(), "failed"
	case ctx.Err() != nil:
		o.Approval, o.Status, o.Error, result = "withdrawn", "withdrawn", "the dashboard's page went away before an answer", "withdrawn"
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		o.Approval, o.Status, o.Error, result = "timeout", "timeout", "the confirmation popup was not answered in time", "timeout"
	case errors.Is(askErr, ErrConfirmationOpen):
		o.Status, o.Error, result = "refused", "another confirmation was open", "busy"
	case askErr != nil && !asksItself:
		o.Status, o.Error, result = "failed", "the confirmation popup failed: "+askErr.Error(), "failed"
	default:
		o.Approval, o.Status, result = "denied", "denied", "declined"
	}
	o.Time, o.Duration = s.cfg.Now(), time.Since(start)
	if err := s.cfg.History.AddOutcome(rec, o); err != nil {
		s.cfg.Logf("dashboard: recording the answer to %q: %v", c.action, err)
	}
	s.cfg.Logf("dashboard: %s: %s", c.action, o.Status)
	return result
}
