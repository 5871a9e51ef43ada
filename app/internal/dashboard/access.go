package dashboard

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Access is what a session may do.
type Access int

const (
	// ReadOnly sessions read the history and the settings. They are given
	// to socket clients (`airlock dashboard --print`): the socket already
	// lets any program of the user read the history.
	ReadOnly Access = iota + 1
	// Full sessions may also ask for a change of setting, which is made
	// only after the person's yes in a confirmation popup.
	Full
)

func (a Access) String() string {
	switch a {
	case ReadOnly:
		return "read-only"
	case Full:
		return "full"
	}
	return fmt.Sprintf("Access(%d)", int(a))
}

// OpenCodeLifetime is how long a link from Server.Link opens a session.
const OpenCodeLifetime = 2 * time.Minute

// Asker is who asked for a link. It sets the link's access, and each
// asker's unused codes are kept apart, at most maxCodes of them: one more
// forgets that asker's oldest, never another's. So a socket client (an
// agent, perhaps) that asks again and again forgets only the codes socket
// clients asked for, never the one the person's click on the menu minted.
type Asker int

const (
	// Menu is the person's own act, the menu's "Dashboard…": only the
	// person can click it. The link, opened by the app in the browser,
	// gives a Full session.
	Menu Asker = iota + 1
	// ClientOpen is a socket client's `airlock dashboard`: any program of
	// the user may ask, an agent included, but the link goes to the app's
	// own browser opener, never to the client. It gives a Full session.
	ClientOpen
	// ClientPrint is a socket client's `airlock dashboard --print`: the
	// link goes to the client, so it gives a ReadOnly session, never more.
	ClientPrint
)

// askers is how many askers there are.
const askers = int(ClientPrint)

// access is the session a link asked for by a opens, or 0.
func (a Asker) access() Access {
	switch a {
	case Menu, ClientOpen:
		return Full
	case ClientPrint:
		return ReadOnly
	}
	return 0
}

func (a Asker) String() string {
	switch a {
	case Menu:
		return "the menu"
	case ClientOpen:
		return "a socket client opening the browser"
	case ClientPrint:
		return "a socket client printing a link"
	}
	return fmt.Sprintf("Asker(%d)", int(a))
}

// maxCodes bounds each asker's links not yet used; minting one more
// forgets that asker's oldest.
const maxCodes = 16

// CookieName is the session cookie's name.
const CookieName = "airlock_dashboard"

// secretLen is the length of every secret: session secrets, opening codes
// and the CSRF key.
const secretLen = 32

type secret [secretLen]byte

func newSecret() (secret, error) {
	var s secret
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("making a secret: %w", err)
	}
	return s, nil
}

func (s secret) String() string { return base64.RawURLEncoding.EncodeToString(s[:]) }

// parseSecret decodes a secret as String writes it; ok is false for
// anything else.
func parseSecret(v string) (s secret, ok bool) {
	if base64.RawURLEncoding.EncodedLen(secretLen) != len(v) {
		return s, false
	}
	n, err := base64.RawURLEncoding.Decode(s[:], []byte(v))
	return s, err == nil && n == secretLen
}

// code is a one-time link's code.
type code struct {
	v       secret
	access  Access
	expires time.Time
}

// codes are the links not yet used, per asker (index Asker-1), each
// oldest first.
type codes [askers][]code

// keys are the per-launch secrets.
type keys struct {
	sessions map[Access]secret
	csrf     secret
}

func newKeys() (keys, error) {
	k := keys{sessions: map[Access]secret{}}
	var err error
	for _, a := range []Access{ReadOnly, Full} {
		if k.sessions[a], err = newSecret(); err != nil {
			return k, err
		}
	}
	k.csrf, err = newSecret()
	return k, err
}

// session returns the access the cookie's value grants, or 0. Each
// session secret is compared in constant time, and all are compared.
func (k keys) session(v string) Access {
	got, ok := parseSecret(v)
	if !ok {
		return 0
	}
	var found Access
	for _, a := range []Access{ReadOnly, Full} {
		want := k.sessions[a]
		if subtle.ConstantTimeCompare(got[:], want[:]) == 1 {
			found = a
		}
	}
	return found
}

// csrfToken is the value a form of a session with access a carries to make
// the change named by form (its action and its arguments): an HMAC, so a
// value taken from one form does nothing in another.
func (k keys) csrfToken(a Access, form string) string {
	m := hmac.New(sha256.New, k.csrf[:])
	fmt.Fprintf(m, "%d\x00%s", a, form)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (k keys) csrfOK(a Access, form, got string) bool {
	return hmac.Equal([]byte(k.csrfToken(a, form)), []byte(got))
}

// formID names a change for its CSRF value: the parts joined with NUL,
// which no part can hold (names are checked).
func formID(parts ...string) string { return strings.Join(parts, "\x00") }

// Link returns a one-time link that opens a session with the access asker
// a is given (Asker): the address and a code good for OpenCodeLifetime. The
// code is spent by its first use, and minting more than maxCodes for one
// asker forgets that asker's oldest unused.
func (s *Server) Link(a Asker) (string, error) {
	if a.access() == 0 {
		return "", fmt.Errorf("a dashboard link: %v is not who may ask for one", a)
	}
	v, err := newSecret()
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropExpiredLocked()
	mine := s.codes[a-1]
	if len(mine) == maxCodes {
		mine = slices.Delete(mine, 0, 1)
	}
	s.codes[a-1] = append(mine, code{v: v, access: a.access(), expires: s.cfg.Now().Add(OpenCodeLifetime)})
	return s.origin + "/open?code=" + v.String(), nil
}

func (s *Server) dropExpiredLocked() {
	now := s.cfg.Now()
	for i, cs := range s.codes {
		kept := cs[:0]
		for _, c := range cs {
			if now.Before(c.expires) {
				kept = append(kept, c)
			}
		}
		clear(cs[len(kept):])
		s.codes[i] = kept
	}
}

// redeem spends a code, returning the access it opens, or 0. Every live
// code is compared, each in constant time.
func (s *Server) redeem(v string) Access {
	got, ok := parseSecret(v)
	if !ok {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropExpiredLocked()
	asker, match := -1, -1
	for i, cs := range s.codes {
		for j, c := range cs {
			if subtle.ConstantTimeCompare(got[:], c.v[:]) == 1 {
				asker, match = i, j
			}
		}
	}
	if match < 0 {
		return 0
	}
	cs := s.codes[asker]
	a := cs[match].access
	s.codes[asker] = slices.Delete(cs, match, match+1)
	return a
}

// The security headers every response carries. The pages have no script
// and no inline style: the policy allows none.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; " +
		"frame-ancestors 'none'; base-uri 'none'",
	"X-Content-Type-Options":       "nosniff",
	"X-Frame-Options":              "DENY",
	"Referrer-Policy":              "no-referrer",
	"Cache-Control":                "no-store",
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
}

type accessKey struct{}

// accessOf is the access guard found for r.
func accessOf(r *http.Request) Access {
	a, _ := r.Context().Value(accessKey{}).(Access)
	return a
}

// forbid answers 403 with why, as text.
func forbid(w http.ResponseWriter, why string) {
	plain(w, http.StatusForbidden, "403 Forbidden: "+why+"\n")
}

func plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprint(w, text)
}

// guard is the door every request passes: the headers, the Host, the
// session (or, for /open, the code), and for a POST its Origin and
// Sec-Fetch-Site.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		if r.Host != s.host {
			// A page elsewhere whose name now points here (DNS
			// rebinding) sends its own name.
			forbid(w, fmt.Sprintf("the Host header %q is not this dashboard's address %s", r.Host, s.host))
			return
		}
		if r.URL.Path == "/open" {
			s.open(w, r)
			return
		}
		c, err := r.Cookie(CookieName)
		if err != nil {
			forbid(w, "no dashboard session: open the dashboard from Airlock's menu (Dashboard…) or with `airlock dashboard`")
			return
		}
		a := s.keys.session(c.Value)
		if a == 0 {
			forbid(w, "this dashboard session is not valid (Airlock was restarted?): open the dashboard again "+
				"from Airlock's menu (Dashboard…) or with `airlock dashboard`")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if o := r.Header.Get("Origin"); o != s.origin {
				forbid(w, fmt.Sprintf("a change must come from the dashboard's own page (Origin %q, want %q)", o, s.origin))
				return
			}
			if f := r.Header.Get("Sec-Fetch-Site"); f != "" && f != "same-origin" {
				forbid(w, fmt.Sprintf("a change must come from the dashboard's own page (Sec-Fetch-Site %q)", f))
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), accessKey{}, a)))
	})
}

// open swaps a link's code for the session cookie and sends the browser on
// to a URL without the code: the history, or the page ?next= names. A browser that already has a session and
// follows a spent link is sent on too: it needs no code.
func (s *Server) open(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		plain(w, http.StatusMethodNotAllowed, "405 Method Not Allowed\n")
		return
	}
	q := r.URL.Query()
	next := q.Get("next")
	if next == "" {
		next = "/"
	}
	if !slices.Contains(openTargets, next) {
		// Checked before the code is spent: the link stays good.
		plain(w, http.StatusBadRequest, "400 Bad Request: parameter next: "+quote(next)+" is not a page of the dashboard (want / or /settings)\n")
		return
	}
	a := s.redeem(q.Get("code"))
	if a == 0 {
		if c, err := r.Cookie(CookieName); err == nil && s.keys.session(c.Value) != 0 {
			http.Redirect(w, r, next, http.StatusSeeOther)
			return
		}
		forbid(w, "this dashboard link was used already, has expired, or is not one: open the dashboard again "+
			"from Airlock's menu (Dashboard…) or with `airlock dashboard`")
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     CookieName,
		Value:    s.keys.sessions[a].String(),
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
	})
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// openTargets are the pages a link may send the browser on to (?next=);
// nothing else, so a link cannot redirect anywhere else.
var openTargets = []string{"/", "/settings"}
