package policy_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// clock is a fake time source the test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// me is the program the grants are for.
var me = policy.Identity{Key: "exe:/usr/bin/agent", Program: "/usr/bin/agent (pid 42)"}

// textOnly is what a plan that opens no file runs: its text, nothing more.
var textOnly = risk.Runs{Known: true}

const moveText = `MOVE_FILE "~/Downloads/report.pdf" "~/Documents/report.pdf"`

func TestGrantsExactText(t *testing.T) {
	g := policy.NewGrants(newClock().Now)
	if _, err := g.Allow(me, moveText, textOnly, level.Dangerous, 0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		text string
		risk level.Level
		want bool
	}{
		{"same text, same risk", moveText, level.Dangerous, true},
		{"same text, lower risk", moveText, level.Caution, true},
		{"risk escalated to destructive", moveText, level.Destructive, false},
		{"blocked", moveText, level.Blocked, false},
		{"one character changed", `MOVE_FILE "~/Downloads/report.pdf" "~/Documents/report.pdF"`, level.Dangerous, false},
		{"trailing space", moveText + " ", level.Dangerous, false},
		{"trailing newline", moveText + "\n", level.Dangerous, false},
		{"prefix only", moveText[:len(moveText)-1], level.Dangerous, false},
		{"empty", "", level.Safe, false},
	}
	for _, tt := range tests {
		if got := g.Allowed(me, tt.text, textOnly, tt.risk); got != tt.want {
			t.Errorf("%s: Allowed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestGrantsRiskEscalation(t *testing.T) {
	g := policy.NewGrants(nil)
	if _, err := g.Allow(me, "NOTIFY \"a\" \"b\"", textOnly, level.Caution, time.Hour); err != nil {
		t.Fatal(err)
	}
	// The same text assessed higher later (new analyzer rules, a changed
	// file system) is not covered by what the person saw.
	if g.Allowed(me, "NOTIFY \"a\" \"b\"", textOnly, level.Dangerous) {
		t.Fatal("a caution grant covered a dangerous assessment")
	}
}

func TestGrantsRefused(t *testing.T) {
	g := policy.NewGrants(nil)
	for _, tt := range []struct {
		name string
		text string
		risk level.Level
		ttl  time.Duration
	}{
		{"destructive", "EMPTY_TRASH", level.Destructive, 0},
		{"blocked", `READ_FILE "~/.ssh/id_rsa"`, level.Blocked, 0},
		{"out of scale", "x", level.Level(-1), 0},
		{"empty text", "", level.Safe, 0},
		{"negative ttl", "x", level.Safe, -time.Second},
	} {
		if _, err := g.Allow(me, tt.text, textOnly, tt.risk, tt.ttl); !errors.Is(err, policy.ErrNotGrantable) {
			t.Errorf("%s: Allow = %v, want ErrNotGrantable", tt.name, err)
		}
		if g.Allowed(me, tt.text, textOnly, tt.risk) {
			t.Errorf("%s: allowed after a refused grant", tt.name)
		}
	}
	if n := len(g.List()); n != 0 {
		t.Errorf("refused grants are listed: %d", n)
	}
}

func TestGrantsExpiry(t *testing.T) {
	c := newClock()
	g := policy.NewGrants(c.Now)
	timed, err := g.Allow(me, "A", textOnly, level.Caution, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Allow(me, "B", textOnly, level.Caution, 0); err != nil {
		t.Fatal(err)
	}
	if !timed.Expires.Equal(c.Now().Add(10 * time.Minute)) {
		t.Errorf("Expires = %v", timed.Expires)
	}
	c.Advance(10*time.Minute - time.Nanosecond)
	if !g.Allowed(me, "A", textOnly, level.Caution) {
		t.Fatal("expired early")
	}
	c.Advance(time.Nanosecond)
	if g.Allowed(me, "A", textOnly, level.Caution) {
		t.Fatal("allowed at its expiry time")
	}
	c.Advance(1000 * time.Hour)
	if !g.Allowed(me, "B", textOnly, level.Caution) {
		t.Fatal("a session grant expired by time")
	}
	if l := g.List(); len(l) != 1 || l[0].Text != "B" || !l[0].Expires.IsZero() {
		t.Fatalf("List = %+v, want only the session grant", l)
	}
	g.Clear()
	if g.Allowed(me, "B", textOnly, level.Caution) || len(g.List()) != 0 {
		t.Fatal("Clear left a grant")
	}
}

func TestGrantsListAndRevoke(t *testing.T) {
	c := newClock()
	g := policy.NewGrants(c.Now)
	var ids []string
	for _, text := range []string{"first", "second", "third"} {
		gr, err := g.Allow(me, text, textOnly, level.Dangerous, 0)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, gr.ID)
		c.Advance(time.Second)
	}
	l := g.List()
	if len(l) != 3 || l[0].Text != "first" || l[2].Text != "third" {
		t.Fatalf("List = %+v", l)
	}
	if l[0].Hash != "a7937b64b8caa58f03721bb6bacf5c78cb235febe0e70b1b84cd99541461a08e" {
		t.Errorf("Hash = %s, want the SHA-256 of %q", l[0].Hash, "first")
	}
	if !g.Revoke(ids[1]) {
		t.Fatal("Revoke of a live grant returned false")
	}
	if g.Revoke(ids[1]) || g.Revoke("nope") {
		t.Fatal("Revoke of a missing grant returned true")
	}
	if g.Allowed(me, "second", textOnly, level.Dangerous) {
		t.Fatal("revoked grant still allows")
	}
	if !g.Allowed(me, "first", textOnly, level.Dangerous) || !g.Allowed(me, "third", textOnly, level.Dangerous) {
		t.Fatal("Revoke removed another grant")
	}
	// Allowing the same text again replaces its grant rather than adding one.
	if _, err := g.Allow(me, "first", textOnly, level.Caution, 0); err != nil {
		t.Fatal(err)
	}
	if n := len(g.List()); n != 2 {
		t.Fatalf("%d grants after re-allowing, want 2", n)
	}
	if g.Allowed(me, "first", textOnly, level.Dangerous) {
		t.Fatal("the replaced grant's higher risk survived")
	}
}

// TestGrantsBelongToAProgram: a grant covers its text for the program it was
// approved for only. Another program — whatever it calls itself, and even
// with a key that is a prefix or extension of the owner's — is not covered,
// and an unverified program gets and matches nothing.
func TestGrantsBelongToAProgram(t *testing.T) {
	g := policy.NewGrants(nil)
	gr, err := g.Allow(me, moveText, textOnly, level.Dangerous, 0)
	if err != nil {
		t.Fatal(err)
	}
	if gr.Program != me.Program || gr.Text != moveText {
		t.Errorf("grant %+v does not say whose it is", gr)
	}
	for _, tt := range []struct {
		name  string
		owner policy.Identity
		text  string
		want  bool
	}{
		{"the owner", me, moveText, true},
		{"the owner, described differently", policy.Identity{Key: me.Key, Program: "pid 99"}, moveText, true},
		{"another program with the same description", policy.Identity{Key: "exe:/tmp/agent", Program: me.Program}, moveText, false},
		{"unverified", policy.Identity{Program: me.Program}, moveText, false},
		{"key extended", policy.Identity{Key: me.Key + "x"}, moveText, false},
		{"key and text shifted", policy.Identity{Key: me.Key + moveText[:1]}, moveText[1:], false},
	} {
		if got := g.Allowed(tt.owner, tt.text, textOnly, level.Dangerous); got != tt.want {
			t.Errorf("%s: Allowed = %v, want %v", tt.name, got, tt.want)
		}
	}
	if _, err := g.Allow(policy.Identity{Program: "unverified"}, moveText, textOnly, level.Caution, 0); !errors.Is(err, policy.ErrNotGrantable) {
		t.Errorf("Allow for an unverified program = %v, want ErrNotGrantable", err)
	}
}
