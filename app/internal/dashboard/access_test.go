package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/dashboard"
)

// wantHeaders are the security headers every response must carry, 403s
// and 400s included.
var wantHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
	"Cache-Control":           "no-store",
	"X-Frame-Options":         "DENY",
}

func checkHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	for k, v := range wantHeaders {
		if got := h.Get(k); got != v {
			t.Errorf("%s: %s = %q, want %q", what, k, got, v)
		}
	}
}

// Without a session every path is 403, and says how to open one: the
// pages, the stylesheet, paths that do not exist, and posts.
func TestNoSessionIs403(t *testing.T) {
	rg := newRig(t, rigOptions{confirm: func(context.Context, string, string, string) (bool, error) { return true, nil }})
	bogus := []*http.Cookie{
		nil,
		{Name: dashboard.CookieName, Value: ""},
		{Name: dashboard.CookieName, Value: "not-a-secret"},
		{Name: dashboard.CookieName, Value: strings.Repeat("A", 43)}, // the right shape, the wrong secret
		{Name: "other", Value: strings.Repeat("A", 43)},
	}
	for _, c := range bogus {
		for _, path := range []string{"/", "/settings", "/style.css", "/nope", "/?risk=safe", "/settings?result=changed"} {
			res := rg.get(path, c)
			if res.status != http.StatusForbidden || !strings.Contains(res.body, "Dashboard…") {
				t.Errorf("GET %s with cookie %v: %d %q, want 403 saying how to open the dashboard", path, c, res.status, res.body)
			}
			if strings.Contains(res.body, "<") {
				t.Errorf("GET %s: a 403 shows no page: %q", path, res.body)
			}
			checkHeaders(t, "403 of "+path, res.header)
		}
		res := rg.post("/settings/automations", c, url.Values{"on": {"false"}, "csrf": {"x"}}, nil)
		if res.status != http.StatusForbidden {
			t.Errorf("POST with cookie %v: %d, want 403", c, res.status)
		}
	}
	if got := rg.auto.changes(); len(got) != 0 {
		t.Errorf("changes made without a session: %q", got)
	}
	// The address alone opens nothing.
	if res := rg.get("/", nil); res.status != http.StatusForbidden {
		t.Errorf("the bare address: %d", res.status)
	}
}

// A link opens one session, once: the code becomes an HttpOnly,
// SameSite=Strict cookie that is not the code, the browser is sent on to a
// URL without it, and the code is then spent. Expired, altered and
// forgotten codes open nothing.
func TestLinkOpensOnce(t *testing.T) {
	rg := newRig(t, rigOptions{})
	link, err := rg.srv.Link(dashboard.Menu)
	must(t, err)
	u, err := url.Parse(link)
	must(t, err)
	if u.Scheme != "http" || u.Host != strings.TrimPrefix(rg.base, "http://") || u.Path != "/open" || !strings.HasPrefix(u.Host, "127.0.0.1:") {
		t.Fatalf("link %q: want http://127.0.0.1:PORT/open?code=…", link)
	}
	code := u.Query().Get("code")
	if len(code) != 43 {
		t.Errorf("code %q: want 32 bytes, base64url", code)
	}
	res := rg.get(u.RequestURI(), nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/" {
		t.Fatalf("following the link: %d to %q", res.status, res.header.Get("Location"))
	}
	checkHeaders(t, "the link's redirect", res.header)
	set := res.header.Get("Set-Cookie")
	for _, want := range []string{dashboard.CookieName + "=", "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(set, want) {
			t.Errorf("Set-Cookie %q lacks %q", set, want)
		}
	}
	if strings.Contains(set, code) || strings.Contains(strings.ToLower(set), "expires") || strings.Contains(strings.ToLower(set), "domain") {
		t.Errorf("Set-Cookie %q: want a session cookie for this host only, not the code", set)
	}
	cookie := (&http.Response{Header: res.header}).Cookies()[0]
	if res := rg.get("/", cookie); res.status != http.StatusOK {
		t.Fatalf("the session: %d %s", res.status, res.body)
	}

	// Spent: the same link again opens nothing for a browser without the
	// session, and sends one with it on.
	if res := rg.get(u.RequestURI(), nil); res.status != http.StatusForbidden || !strings.Contains(res.body, "used already") {
		t.Errorf("the link again: %d %q, want 403", res.status, res.body)
	}
	if res := rg.get(u.RequestURI(), cookie); res.status != http.StatusSeeOther || res.header.Get("Set-Cookie") != "" {
		t.Errorf("the link again, with the session: %d, Set-Cookie %q", res.status, res.header.Get("Set-Cookie"))
	}

	// Expired.
	link, err = rg.srv.Link(dashboard.Menu)
	must(t, err)
	rg.clock.Add(dashboard.OpenCodeLifetime)
	u, _ = url.Parse(link)
	if res := rg.get(u.RequestURI(), nil); res.status != http.StatusForbidden {
		t.Errorf("an expired link: %d", res.status)
	}

	// Altered, or not a code at all.
	link, err = rg.srv.Link(dashboard.Menu)
	must(t, err)
	u, _ = url.Parse(link)
	good := u.Query().Get("code")
	flipped := []byte(good)
	flipped[10] ^= 1
	for _, c := range []string{"", string(flipped), good[:42], good + "A", "%00", strings.Repeat("A", 43)} {
		if res := rg.get("/open?code="+url.QueryEscape(c), nil); res.status != http.StatusForbidden {
			t.Errorf("code %q: %d, want 403", c, res.status)
		}
	}
	if res := rg.do(http.MethodPost, u.RequestURI(), nil, nil, nil); res.status != http.StatusMethodNotAllowed {
		t.Errorf("POST to the link: %d, want 405", res.status)
	}
	// The altered ones did not spend the good one.
	if res := rg.get(u.RequestURI(), nil); res.status != http.StatusSeeOther {
		t.Errorf("the good code after bad tries: %d", res.status)
	}

	// ?next= names a page of the dashboard, and nothing else: a bad one is
	// refused before the code is spent.
	link, err = rg.srv.Link(dashboard.Menu)
	must(t, err)
	for _, next := range []string{"//evil.example/", "https://evil.example/", "/settings/automations", "/%2F/evil.example"} {
		if res := rg.get(link[len(rg.base):]+"&next="+url.QueryEscape(next), nil); res.status != http.StatusBadRequest ||
			!strings.Contains(res.body, "parameter next") || res.header.Get("Location") != "" {
			t.Errorf("next=%s: %d %q to %q", next, res.status, res.body, res.header.Get("Location"))
		}
	}
	if res := rg.get(link[len(rg.base):]+"&next=/settings", nil); res.status != http.StatusSeeOther || res.header.Get("Location") != "/settings" {
		t.Errorf("next=/settings: %d to %q", res.status, res.header.Get("Location"))
	}

	// Only the newest links are kept.
	first, err := rg.srv.Link(dashboard.ClientPrint)
	must(t, err)
	for range 16 {
		_, err := rg.srv.Link(dashboard.ClientPrint)
		must(t, err)
	}
	u, _ = url.Parse(first)
	if res := rg.get(u.RequestURI(), nil); res.status != http.StatusForbidden {
		t.Errorf("the 17th-newest link still opens: %d", res.status)
	}
	if _, err := rg.srv.Link(0); err == nil {
		t.Error("Link(0) made a link")
	}
}

// The Host header must be the dashboard's own address: a page whose name
// was pointed at 127.0.0.1 (DNS rebinding) sends its own name, and gets
// nothing, session or not.
func TestHostHeader(t *testing.T) {
	rg := newRig(t, rigOptions{})
	cookie := rg.session(dashboard.Full)
	port := strings.TrimPrefix(rg.base, "http://127.0.0.1:")
	for _, host := range []string{"evil.example", "evil.example:" + port, "localhost:" + port, "127.0.0.1", "127.0.0.1:1", "[::1]:" + port, "127.0.0.2:" + port} {
		res := rg.do(http.MethodGet, "/", cookie, nil, func(r *http.Request) { r.Host = host })
		if res.status != http.StatusForbidden || !strings.Contains(res.body, "Host") {
			t.Errorf("Host %q: %d %q, want 403 naming the Host", host, res.status, res.body)
		}
		link, _ := rg.srv.Link(dashboard.Menu)
		u, _ := url.Parse(link)
		res = rg.do(http.MethodGet, u.RequestURI(), nil, nil, func(r *http.Request) { r.Host = host })
		if res.status != http.StatusForbidden || res.header.Get("Set-Cookie") != "" {
			t.Errorf("a link through Host %q: %d, Set-Cookie %q", host, res.status, res.header.Get("Set-Cookie"))
		}
	}
}

// Every response carries the strict headers; the stylesheet is served as
// CSS, the pages as HTML.
func TestSecurityHeaders(t *testing.T) {
	rg := newRig(t, rigOptions{})
	cookie := rg.session(dashboard.ReadOnly)
	for path, ctype := range map[string]string{"/": "text/html", "/settings": "text/html", "/style.css": "text/css", "/?risk=nope": "text/plain", "/nope": "text/plain"} {
		res := rg.get(path, cookie)
		checkHeaders(t, path, res.header)
		if !strings.HasPrefix(res.header.Get("Content-Type"), ctype) {
			t.Errorf("%s: Content-Type %q, want %s", path, res.header.Get("Content-Type"), ctype)
		}
	}
	res := rg.get("/", cookie)
	for _, bad := range []string{"<script", " style=", "<style", "http://", "https://"} {
		if strings.Contains(res.body, bad) {
			t.Errorf("the page holds %q: no script, no inline style, nothing fetched from elsewhere", bad)
		}
	}
}

// follow follows a link as a browser without a session would, and returns
// the session it opened: "full" (the settings page holds forms),
// "read-only", or "none" (the link opened nothing).
func follow(rg *rig, link string) string {
	rg.t.Helper()
	u, err := url.Parse(link)
	must(rg.t, err)
	res := rg.get(u.RequestURI()+"&next=/settings", nil)
	if res.status != http.StatusSeeOther {
		return "none"
	}
	cookies := (&http.Response{Header: res.header}).Cookies()
	if len(cookies) != 1 {
		rg.t.Fatalf("the link set %d cookies", len(cookies))
	}
	page := rg.get("/settings", cookies[0])
	switch {
	case page.status != http.StatusOK:
		rg.t.Fatalf("the session's settings page: %d %s", page.status, page.body)
	case strings.Contains(page.body, "<form") && !strings.Contains(page.body, "Read-only"):
		return "full"
	case !strings.Contains(page.body, "<form") && strings.Contains(page.body, "Read-only"):
		return "read-only"
	}
	rg.t.Fatalf("the settings page is neither full nor read-only: %s", page.body)
	return ""
}

// A socket client (an agent, perhaps) asking for link after link forgets
// only links socket clients asked for: the person's link from the menu,
// not yet followed, still opens a full session. Each asker keeps at most
// 16 codes, and a printed link never opens more than a read-only session.
func TestAskersKeepTheirOwnLinks(t *testing.T) {
	rg := newRig(t, rigOptions{confirm: func(context.Context, string, string, string) (bool, error) { return false, nil }})
	person, err := rg.srv.Link(dashboard.Menu)
	must(t, err)
	var printed, opened []string
	for range 100 {
		l, err := rg.srv.Link(dashboard.ClientPrint)
		must(t, err)
		printed = append(printed, l)
		l, err = rg.srv.Link(dashboard.ClientOpen)
		must(t, err)
		opened = append(opened, l)
	}
	for _, a := range []dashboard.Asker{dashboard.Menu, dashboard.ClientOpen, dashboard.ClientPrint} {
		if n := rg.srv.CodesHeld(a); n > 16 {
			t.Errorf("%v holds %d codes, want at most 16", a, n)
		}
	}
	if got := follow(rg, person); got != "full" {
		t.Fatalf("the person's link after 200 asked for by socket clients opens %s, want full", got)
	}
	if got := follow(rg, person); got != "none" {
		t.Errorf("the person's link again opens %s, want none", got)
	}

	// Socket clients' links forget each other, oldest first, and each
	// opens what its asker may have.
	for i, want := range map[int]string{0: "none", 83: "none", 84: "read-only", 99: "read-only"} {
		if got := follow(rg, printed[i]); got != want {
			t.Errorf("printed link %d opens %s, want %s", i, got, want)
		}
	}
	for i, want := range map[int]string{0: "none", 83: "none", 84: "full", 99: "full"} {
		if got := follow(rg, opened[i]); got != want {
			t.Errorf("opened link %d opens %s, want %s", i, got, want)
		}
	}

	// The person's own links forget each other, too.
	first, err := rg.srv.Link(dashboard.Menu)
	must(t, err)
	for range 16 {
		_, err := rg.srv.Link(dashboard.Menu)
		must(t, err)
	}
	if n := rg.srv.CodesHeld(dashboard.Menu); n != 16 {
		t.Errorf("the menu holds %d codes, want 16", n)
	}
	if got := follow(rg, first); got != "none" {
		t.Errorf("the menu's 17th-newest link opens %s", got)
	}

	// Expired codes are dropped, each asker's.
	rg.clock.Add(dashboard.OpenCodeLifetime)
	if _, err := rg.srv.Link(dashboard.ClientPrint); err != nil {
		t.Fatal(err)
	}
	for a, want := range map[dashboard.Asker]int{dashboard.Menu: 0, dashboard.ClientOpen: 0, dashboard.ClientPrint: 1} {
		if n := rg.srv.CodesHeld(a); n != want {
			t.Errorf("after expiry %v holds %d codes, want %d", a, n, want)
		}
	}
	for _, a := range []dashboard.Asker{0, dashboard.ClientPrint + 1, -1} {
		if _, err := rg.srv.Link(a); err == nil {
			t.Errorf("Link(%v) made a link", a)
		}
	}
}
