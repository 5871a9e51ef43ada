package dashboard

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
)

// History is what the dashboard reads and records. *history.Store
// implements it.
type History interface {
	// Groups returns the requests a query selects, newest first.
	Groups(ctx context.Context, q history.Query) ([]history.Group, error)
	// The Add methods record a change of setting and the person's answer.
	AddRequest(ctx context.Context, r history.Request) error
	AddDecision(ctx context.Context, d history.Decision) error
	AddOutcome(ctx context.Context, o history.Outcome) error
}

// Automations is the scheduler as the dashboard shows and switches it.
// SetEnabled and SetAutomation persist the change (the settings file) and
// apply it. The dashboard calls them only after the person's yes in its
// confirmation popup, unless the implementation is a SelfConfirming one,
// which asks the person itself before turning anything on. The methods are
// called from request goroutines, concurrently; ctx ends when the page
// goes away or the person took too long to answer.
type Automations interface {
	// List returns every automation, in the order the settings hold them.
	List() []AutomationView
	// Enabled reports the global switch (settings automationEnabled): off
	// pauses every schedule.
	Enabled() bool
	// SetEnabled turns the global switch on or off.
	SetEnabled(ctx context.Context, on bool) error
	// SetAutomation turns one automation, named as List names it, on or
	// off.
	SetAutomation(ctx context.Context, name string, on bool) error
}

// SelfConfirming is an Automations that asks the person itself, in
// Airlock's own confirmation popup, before every change that turns
// something on (the global switch, or one automation), and makes none
// without their yes, returning an error that wraps ErrNotConfirmed (as
// automation.Book does, whose question shows the plan and its rating). The
// dashboard then leaves those questions to it, so that the person is asked
// once; it still asks itself before a change that turns something off.
type SelfConfirming interface {
	Automations
	// ConfirmsTurningOn marks the implementation; it does nothing.
	ConfirmsTurningOn()
}

// ErrNotConfirmed is wrapped by the error a SelfConfirming implementation
// returns when the person did not say yes.
var ErrNotConfirmed = errors.New("the person did not say yes in Airlock's confirmation popup")

// AutomationView is one automation as the dashboard shows it.
type AutomationView struct {
	Name     string
	Enabled  bool
	Schedule string    // as the settings write it: "weekdays 09:00", "every 2h"
	NextRun  time.Time // zero: none scheduled (off, paused, or "at login" done)
	LastRun  time.Time // zero: it never ran
	// LastResult is how the last run ended, in a few words ("ok", "failed:
	// …", "denied"); "" when it never ran.
	LastResult string
}

// Settings are the settings the dashboard shows and cannot change.
type Settings struct {
	// AllowedApps are the applications OPEN_APP, QUIT_APP and ACTIVATE_APP
	// may touch (settings allowedApps).
	AllowedApps []string
	// Roots are the sandbox roots as the gate uses them (resolved).
	Roots []string
	// Rules are the person's lasting rules for commands (settings rules),
	// in order: rule n is Rules[n-1].
	Rules []RuleView
}

// RuleView is one of the person's rules as the dashboard shows it.
type RuleView struct {
	Decision string // "allow", "ask" or "deny"
	Words    string // what it matches, in one line (and the person's note)
}

// Status is the gate's state as the dashboard shows it.
type Status struct {
	Autonomy int // 0, 1 or 2
	Killed   bool
}

// Config is what a Server is built from. History and Status are required.
type Config struct {
	History History
	// Status reads the gate's state; the autonomy level is also recorded
	// with every change of setting.
	Status func() Status
	// Settings reads the settings shown; nil shows none.
	Settings func() Settings
	// Automations is the scheduler; nil shows "no automations".
	Automations Automations
	// Confirm asks the person a yes/no question in Airlock's own popup
	// (bridge.Confirm, as the menu does for trust-raising changes) and
	// reports their yes. It must not return before the person answered, the
	// popup failed or ctx ended. Nil: no popup can ask here, and no change
	// is made.
	Confirm func(ctx context.Context, title, text, yes string) (bool, error)
	// RemoveRule takes allow rule n (counted from 1) out of the settings
	// file, and out of the running gate, if it still reads words (the page
	// may be older than the file); it returns ErrNoSuchRule when it does
	// not. Taking an allow rule away only makes Airlock ask more, so it is
	// made without a confirmation (from a full session only). Deny and ask
	// rules are not removed here: that would let more run. Nil: rules are
	// only listed.
	RemoveRule func(ctx context.Context, n int, words string) error
	// ConfirmTimeout bounds how long a change waits for the person's answer;
	// then it is not made and is recorded as a timeout. Zero: 2 minutes.
	ConfirmTimeout time.Duration
	// Location is the time zone pages show and filters read times in; nil:
	// time.Local.
	Location *time.Location
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// NewID makes the history id of a change; nil: random.
	NewID func() string
	// Logf logs a message; nil: none.
	Logf func(format string, args ...any)
}

// Server serves the dashboard on 127.0.0.1.
type Server struct {
	cfg    Config
	keys   keys
	ln     net.Listener
	host   string // "127.0.0.1:PORT": the only Host it serves
	origin string // "http://127.0.0.1:PORT"
	srv    *http.Server
	pages  *pages

	confirming sync.Mutex // held while a change is asked about

	mu    sync.Mutex
	codes codes // guarded by mu
}

// Listen makes the per-launch secrets and binds a random port on
// 127.0.0.1. Serve serves it.
func Listen(cfg Config) (*Server, error) {
	if cfg.History == nil || cfg.Status == nil {
		return nil, errors.New("the dashboard: History and Status are required")
	}
	if cfg.ConfirmTimeout <= 0 {
		cfg.ConfirmTimeout = 2 * time.Minute
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewID == nil {
		cfg.NewID = randomID
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	k, err := newKeys()
	if err != nil {
		return nil, fmt.Errorf("the dashboard: %w", err)
	}
	p, err := parsePages()
	if err != nil {
		return nil, fmt.Errorf("the dashboard: %w", err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the dashboard: listening on 127.0.0.1: %w", err)
	}
	s := &Server{cfg: cfg, keys: k, ln: ln, pages: p}
	s.host = ln.Addr().String()
	s.origin = "http://" + s.host
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.historyPage)
	mux.HandleFunc("GET /settings", s.settingsPage)
	mux.HandleFunc("GET /style.css", serveStyle)
	mux.HandleFunc("POST /settings/automations", s.postSwitch)
	mux.HandleFunc("POST /settings/automation", s.postAutomation)
	mux.HandleFunc("POST /settings/rule", s.postRemoveRule)
	s.srv = &http.Server{
		Handler:           s.guard(mux),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		// A change waits for the person's answer before its response.
		WriteTimeout:   cfg.ConfirmTimeout + 30*time.Second,
		IdleTimeout:    time.Minute,
		MaxHeaderBytes: 16 << 10,
		ErrorLog:       nil,
	}
	return s, nil
}

// Address is the dashboard's address, with no secret in it:
// "http://127.0.0.1:PORT/". On its own it opens nothing (403).
func (s *Server) Address() string { return s.origin + "/" }

// Serve serves until Close, then returns nil.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops serving at once: requests in flight are cancelled (a change
// waiting for the person is then not made) and every session ends.
func (s *Server) Close() error {
	err := s.srv.Close()
	s.ln.Close()
	return err
}

func randomID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("dashboard: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
