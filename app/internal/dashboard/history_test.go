package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// record writes requests into the rig's history, each at t0 + i minutes.
type record struct {
	t  *testing.T
	s  *history.Store
	at int
}

func (r *record) request(id, client, kind, text string) {
	r.t.Helper()
	must(r.t, r.s.AddRequest(context.Background(), history.Request{ID: id, Time: t0.Add(time.Duration(r.at) * time.Minute),
		Client: client, Kind: kind, Text: text}))
	r.at++
}

func (r *record) action(id string, idx int, text, preview string, risk level.Level, decision string, reasons ...string) {
	r.t.Helper()
	must(r.t, r.s.AddDecision(context.Background(), history.Decision{RequestID: id, Index: idx, Time: t0, Action: text,
		Preview: preview, Risk: risk, Reasons: reasons, Autonomy: 1, Decision: decision}))
}

func (r *record) outcome(id string, idx int, approval, status, output, errText string) {
	r.t.Helper()
	must(r.t, r.s.AddOutcome(context.Background(), history.Outcome{RequestID: id, Index: idx, Time: t0, Approval: approval,
		Status: status, Duration: 1500 * time.Millisecond, Output: output, Error: errText}))
}

func (r *record) call(id string, status, in, out int) {
	r.t.Helper()
	must(r.t, r.s.AddModelCall(context.Background(), history.ModelCall{RequestID: id, Time: t0, Endpoint: "http://localhost:11434/api/chat",
		Status: status, Duration: 2 * time.Second, PromptTokens: in, CompletionTokens: out}))
}

// sample records one request of each shape: an ask whose plan ran in part,
// a rejected plan, an ask with no plan, a plan interrupted by a crash.
func sample(t *testing.T, s *history.Store) {
	r := &record{t: t, s: s}
	r.request("ask1", "airlock ask (model llama3.2)", "ask",
		"WRITE_FILE \"~/Documents/notes.txt\" \"hi\"\nNOTIFY \"done\" \"notes written\"\n"+
			"-- asked: \"write my notes and tell me\"\n-- model: llama3.2 at http://localhost:11434 (2 attempts)")
	r.call("ask1", 200, 812, 64)
	r.call("ask1", 0, 0, 0)
	r.action("ask1", 1, `NOTIFY "done" "notes written"`, "Show a notification: done", level.Caution, "auto", "shows a notification")
	r.action("ask1", 0, `WRITE_FILE "~/Documents/notes.txt" "hi"`, "Write ~/Documents/notes.txt", level.Dangerous, "ask", "writes a file")
	r.outcome("ask1", 0, "approved", "ok", "wrote 2 bytes", "")
	r.outcome("ask1", 1, "", "failed", "", "notify-send: not found")

	r.request("rej1", "mcp: Claude", "plan", "DELETE_EVERYTHING\n")
	r.action("rej1", 0, "", "Whole request rejected (its error says why); nothing ran", level.Blocked, "refused", "line 1: unknown command DELETE_EVERYTHING")
	r.outcome("rej1", 0, "", "rejected", "", "line 1: unknown command DELETE_EVERYTHING")

	r.request("noplan1", "airlock ask", "ask", "-- asked: \"sort my photos\"\n-- no plan: the model server answered 500\nInternal Server Error")
	r.call("noplan1", 500, 0, 0)

	r.request("crash1", "airlock run", "plan", "RUN_SHORTCUT \"Backup\"\n")
	r.action("crash1", 0, `RUN_SHORTCUT "Backup"`, "Run the shortcut Backup", level.Dangerous, "ask", "runs a shortcut")
	r.outcome("crash1", 0, "approved", history.StatusInterrupted, "", history.InterruptedError)
}

// before reports whether a occurs in s, and b after it.
func before(s, a, b string) bool {
	i := strings.Index(s, a)
	return i >= 0 && strings.Contains(s[i+len(a):], b)
}

// The history page groups by request, newest first: the request in words,
// the model calls, the plan, and each action in plan order with its risk,
// reasons, decision, approval and result; rejected plans, requests with no
// plan and interrupted actions included.
func TestHistoryGrouped(t *testing.T) {
	rg := newRig(t, rigOptions{})
	sample(t, rg.store)
	res := rg.get("/", rg.session(dashboard.ReadOnly))
	if res.status != http.StatusOK {
		t.Fatalf("%d %s", res.status, res.body)
	}
	page := res.body
	if !before(page, "RUN_SHORTCUT", "sort my photos") || !before(page, "sort my photos", "DELETE_EVERYTHING") ||
		!before(page, "DELETE_EVERYTHING", "write my notes") {
		t.Error("requests are not newest first")
	}
	_, ask, _ := strings.Cut(page, "write my notes")
	for _, want := range []string{
		"Asked in words:", "write my notes and tell me", "airlock ask (model llama3.2)",
		"Model calls", "http://localhost:11434/api/chat", "<td>200</td>", "812 in, 64 out", "no response", "2s",
		"model</dt><dd>llama3.2 at http://localhost:11434 (2 attempts)",
		"approved by the person in Airlock&#39;s popup", "not asked: Level 1 runs caution actions without asking",
		"writes a file", "wrote 2 bytes", "notify-send: not found", "in 1.5s",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if !before(ask, "Write ~/Documents/notes.txt", "Show a notification: done") {
		t.Error("the actions are not in plan order")
	}
	if !strings.Contains(page, "1 ok · 1 failed") {
		t.Error("the ask's outcome is not summed up")
	}
	for _, want := range []string{"blocked: never offered for approval", "rejected", "line 1: unknown command DELETE_EVERYTHING",
		"no plan", "the model server answered 500\nInternal Server Error", history.StatusInterrupted} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if !strings.Contains(page, "4 requests, newest first.") {
		t.Error("the count is missing")
	}
}

// Filters are GET parameters; a bad one is a 400 that names the parameter
// and says why; good ones select.
func TestHistoryFilters(t *testing.T) {
	rg := newRig(t, rigOptions{})
	sample(t, rg.store)
	cookie := rg.session(dashboard.ReadOnly)
	for _, tc := range []struct {
		query string
		says  string
	}{
		{"risk=high", "parameter risk: \"high\" is not a risk level"},
		{"risk=<script>", `parameter risk: "<script>" is not a risk level`},
		{"outcome=exploded", "parameter outcome: \"exploded\" is not an outcome"},
		{"since=yesterday", "parameter since: \"yesterday\" is not a time"},
		{"until=2025-13-01", "parameter until"},
		{"since=2025-03-15&until=2025-03-14", "parameter until: \"2025-03-14\" is not after since"},
		{"n=0", "parameter n: \"0\" is not a number from 1 to 500"},
		{"n=501", "parameter n"},
		{"n=ten", "parameter n"},
		{"before=-3", "parameter before"},
		{"client=" + url.QueryEscape(strings.Repeat("x", 65)), "parameter client: 65 bytes"},
		{"client=%E2%80%AEevil", "parameter client"},
		{"client=%ff", "parameter client"},
		{"risk=safe&risk=blocked", "parameter risk: given 2 times"},
		{"sort=client", "parameter \"sort\": not a parameter of this page"},
	} {
		res := rg.get("/?"+tc.query, cookie)
		if res.status != http.StatusBadRequest || !strings.Contains(res.body, tc.says) {
			t.Errorf("?%s: %d %q, want 400 saying %q", tc.query, res.status, res.body, tc.says)
		}
		if !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain") {
			t.Errorf("?%s: a 400 as %q", tc.query, res.header.Get("Content-Type"))
		}
	}
	clients := map[string]string{"ask1": "write my notes", "rej1": "DELETE_EVERYTHING", "noplan1": "sort my photos", "crash1": "RUN_SHORTCUT"}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{"ask1", "rej1", "noplan1", "crash1"}},
		{"client=&risk=&outcome=&since=&until=&n=", []string{"ask1", "rej1", "noplan1", "crash1"}}, // an empty form
		{"client=CLAUDE", []string{"rej1"}},
		{"risk=dangerous", []string{"ask1", "rej1", "crash1"}},
		{"risk=blocked", []string{"rej1"}},
		{"outcome=failed", []string{"ask1"}},
		{"outcome=no-plan", []string{"noplan1"}},
		{"outcome=interrupted", []string{"crash1"}},
		{"since=2025-03-14T09:27", []string{"rej1", "noplan1", "crash1"}}, // t0 is 09:26:53 UTC
		{"until=2025-03-14T09:28", []string{"ask1", "rej1"}},
		{"since=" + url.QueryEscape(t0.Add(2*time.Minute).Format(time.RFC3339)), []string{"noplan1", "crash1"}},
		{"until=2025-03-13", nil},
		{"until=2025-03-14", []string{"ask1", "rej1", "noplan1", "crash1"}}, // the whole day
		{"risk=blocked&outcome=ok", nil},
	} {
		res := rg.get("/?"+tc.query, cookie)
		if res.status != http.StatusOK {
			t.Errorf("?%s: %d %q", tc.query, res.status, res.body)
			continue
		}
		for id, marker := range clients {
			want := strings.Contains(strings.Join(tc.want, " "), id)
			if got := strings.Contains(res.body, marker); got != want {
				t.Errorf("?%s: shows %s %v, want %v", tc.query, id, got, want)
			}
		}
	}
	// The form shows the filter back.
	res := rg.get("/?client=Claude&risk=blocked", cookie)
	if !strings.Contains(res.body, `value="Claude"`) || !strings.Contains(res.body, `<option value="blocked" selected>`) {
		t.Error("the form does not show the filter it applied")
	}
	if !strings.Contains(rg.get("/?client=nobody", cookie).body, "No request matches these filters.") {
		t.Error("an empty result does not say the filters matched nothing")
	}
}

// The page pages: with n requests shown and more left, an "Older requests"
// link keeps the filters and starts after the last one shown.
func TestHistoryPages(t *testing.T) {
	rg := newRig(t, rigOptions{})
	sample(t, rg.store)
	cookie := rg.session(dashboard.ReadOnly)
	first := rg.get("/?n=2&risk=dangerous", cookie).body
	_, rest, ok := strings.Cut(first, `<p class="older"><a href="`)
	if !ok {
		t.Fatal("no link to older requests")
	}
	link, _, _ := strings.Cut(rest, `"`)
	link = htmlUnescape(link)
	if !strings.Contains(link, "risk=dangerous") || !strings.Contains(link, "n=2") || !strings.Contains(link, "before=") {
		t.Errorf("older link %q does not keep the filters", link)
	}
	second := rg.get(link, cookie)
	if second.status != http.StatusOK || !strings.Contains(second.body, "write my notes") || strings.Contains(second.body, "RUN_SHORTCUT") {
		t.Errorf("the older page: %d; want only the oldest dangerous request", second.status)
	}
	if strings.Contains(second.body, `class="older"`) {
		t.Error("the last page links to an older one")
	}
}

// Hostile strings from the history (a client's name, a model's words and
// plan, reasons, output, errors, an endpoint) are shown as text: none of
// them becomes markup, and characters that disguise text are made visible.
func TestHistoryEscapesHostile(t *testing.T) {
	h := hostile(t)
	rg := newRig(t, rigOptions{})
	rg.auto.list = append(rg.auto.list, dashboard.AutomationView{Name: h["automation"], Schedule: h["bidi"], LastResult: h["error"]})
	r := &record{t: t, s: rg.store}
	r.request("evil", h["client"], "ask", h["action"]+"\n-- asked: "+strconv.Quote(h["words"])+"\n-- no plan: "+h["bidi"])
	must(t, rg.store.AddModelCall(context.Background(), history.ModelCall{RequestID: "evil", Time: t0, Endpoint: h["endpoint"], Status: 200}))
	r.action("evil", 0, h["action"], h["preview"], level.Dangerous, "ask", h["reason"], h["bidi"])
	r.outcome("evil", 0, "denied", "denied", h["output"], h["error"])

	cookie := rg.session(dashboard.Full)
	pages := rg.get("/", cookie).body + rg.get("/settings", cookie).body
	for _, markup := range []string{"<script", "<img", "<iframe", "<svg", "<b ", "<style>", "<!--", "\u202e"} {
		if strings.Contains(pages, markup) {
			t.Errorf("the pages hold %q raw", markup)
		}
	}
	for _, want := range []string{"&lt;script&gt;document.body.setAttribute(&#39;data-pwned&#39;,&#39;client&#39;)&lt;/script&gt;",
		"&lt;/pre&gt;&lt;script&gt;", "&lt;img src=x onerror=", "&lt;svg onload=", "invoice⟨U&#43;202E⟩gpj.exe"} {
		if !strings.Contains(pages, want) {
			t.Errorf("the pages lack the escaped %q", want)
		}
	}
}

// fakeHistory returns fixed groups: a history that did not redact (it
// always does; the dashboard redacts again on the way out).
type fakeHistory struct{ groups []history.Group }

func (f fakeHistory) Groups(context.Context, history.Query) ([]history.Group, error) {
	return f.groups, nil
}
func (fakeHistory) AddRequest(context.Context, history.Request) error   { return nil }
func (fakeHistory) AddDecision(context.Context, history.Decision) error { return nil }
func (fakeHistory) AddOutcome(context.Context, history.Outcome) error   { return nil }

// Everything shown passes through redact once more.
func TestHistoryRedactsAgain(t *testing.T) {
	const token = "ghp_Zq3ZKpY8rW2vN6mT4xB1cD7eF9gH0jL5sA2u"
	g := history.Group{Seq: 1, Request: history.Request{ID: "r", Time: t0, Client: "c " + token, Kind: "plan", Text: "OPEN_URL \"https://x/?t=" + token + "\""},
		ModelCalls: []history.ModelCall{{RequestID: "r", Time: t0, Endpoint: "https://api.example/" + token, Status: 200}},
		Actions: []history.Entry{{Decision: history.Decision{RequestID: "r", Action: "A " + token, Preview: "P " + token,
			Reasons: []string{"R " + token}, Decision: "auto"}, Outcome: &history.Outcome{Status: "ok", Output: "O " + token, Error: "E " + token}}}}
	rg := newRig(t, rigOptions{history: fakeHistory{[]history.Group{g}}})
	page := rg.get("/", rg.session(dashboard.ReadOnly)).body
	if strings.Contains(page, token) || strings.Contains(page, token[4:20]) {
		t.Error("a secret reached the page")
	}
	if !strings.Contains(page, "[redacted:") {
		t.Error("no redaction marker on the page")
	}
}

// An edited plan links to the request whose plan the person edited and says
// who edited it; that request says the person edited it and links to the
// edit: on the same page by its card, across pages by a page that starts
// with it.
func TestHistoryEdits(t *testing.T) {
	rg := newRig(t, rigOptions{})
	r := &record{t: t, s: rg.store}
	r.request("orig1", "mcp: Claude", "dsl", "DELETE_FILE \"~/a\"\n")
	r.action("orig1", 0, `DELETE_FILE "~/a"`, "Delete ~/a", level.Dangerous, "ask", "deletes a file")
	r.outcome("orig1", 0, "edited", "edited", "", "the person edited the plan: request edit1 runs instead")
	r.request("mid1", "airlock run", "plan", "NOTIFY \"x\" \"y\"\n")
	must(t, rg.store.AddRequest(context.Background(), history.Request{ID: "edit1", Time: t0.Add(9 * time.Minute),
		Client: "mcp: Claude (edited by the person)", Kind: "dsl", Text: "TRASH_FILE \"~/a\"\n",
		EditOf: "orig1", EditedBy: "the person, in the approval popup (zenity)"}))
	cookie := rg.session(dashboard.ReadOnly)

	page := rg.get("/", cookie).body
	gs, err := rg.store.Groups(context.Background(), history.Query{Limit: 3})
	must(t, err)
	seq := map[string]int64{}
	for _, g := range gs {
		seq[g.Request.ID] = g.Seq
	}
	for _, want := range []string{
		`ran instead of request <a href="#r` + strconv.FormatInt(seq["orig1"], 10) + `">orig1</a>, edited by the person, in the approval popup (zenity).`,
		`the edited plan ran as request <a href="#r` + strconv.FormatInt(seq["edit1"], 10) + `">edit1</a>.`,
		"edited by the person in Airlock&#39;s popup: the edited plan ran instead",
		`<option value="edited">edited</option>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	// One request a page: each links to the page that starts with the other.
	page = rg.get("/?n=1", cookie).body
	if want := `<a href="/?before=` + strconv.FormatInt(seq["orig1"]+1, 10) + `#r` + strconv.FormatInt(seq["orig1"], 10) + `">orig1</a>`; !strings.Contains(page, want) {
		t.Errorf("the edit alone on its page lacks %q", want)
	}
	page = rg.get("/?n=1&before="+strconv.FormatInt(seq["orig1"]+1, 10), cookie).body
	if want := `<a href="/?before=` + strconv.FormatInt(seq["edit1"]+1, 10) + `#r` + strconv.FormatInt(seq["edit1"], 10) + `">edit1</a>`; !strings.Contains(page, want) {
		t.Errorf("the original alone on its page lacks %q", want)
	}
	if !strings.Contains(page, `id="r`+strconv.FormatInt(seq["orig1"], 10)+`"`) {
		t.Error("the page a link goes to has no card with the link's anchor")
	}
}
