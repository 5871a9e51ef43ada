package policy

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
)

// ErrNotGrantable is wrapped by Allow's error for what can never be
// remembered: destructive and blocked actions, empty text, a negative time,
// a client whose program is not verified.
var ErrNotGrantable = errors.New("cannot remember this approval")

// Grant is one remembered approval: the exact text of an action the person
// approved for one client program, identified by its SHA-256, up to the risk
// it was approved at.
type Grant struct {
	ID      string      // random, for Revoke
	Hash    string      // hex SHA-256 of the exact text
	Text    string      // the text, for the menu's list
	Program string      // the program it belongs to, as the person saw it (Identity.Program)
	Risk    level.Level // the highest risk this grant covers
	Created time.Time   //
	Expires time.Time   // zero: when the session ends (Clear)
}

// Grants holds the session's remembered approvals ("allow again this
// session"). A grant covers the exact text approved — one character
// different is another action — for the program it was approved for — any
// other program, whatever name it gives itself, is asked again — at a risk
// no higher than the one the person saw, never destructive or blocked
// actions, and nothing for a program that is not verified. It is safe for
// concurrent use.
type Grants struct {
	now func() time.Time

	mu     sync.Mutex
	byHash map[[sha256.Size]byte]Grant // by grantKey; guarded by mu
}

// NewGrants returns an empty set of grants reading the time from now
// (time.Now when nil).
func NewGrants(now func() time.Time) *Grants {
	if now == nil {
		now = time.Now
	}
	return &Grants{now: now, byHash: map[[sha256.Size]byte]Grant{}}
}

// Allow remembers the approval of text at risk for owner's program, for ttl,
// or until the session ends when ttl is 0. It replaces an earlier grant for
// the same text and program. It refuses destructive and blocked risks, an
// empty text, a negative ttl and an owner that is not verified with an error
// wrapping ErrNotGrantable.
func (g *Grants) Allow(owner Identity, text string, risk level.Level, ttl time.Duration) (Grant, error) {
	switch {
	case risk >= level.Destructive || risk < level.Safe:
		return Grant{}, fmt.Errorf("%w: a %s action needs its own approval every time", ErrNotGrantable, risk)
	case text == "":
		return Grant{}, fmt.Errorf("%w: the action text is empty", ErrNotGrantable)
	case ttl < 0:
		return Grant{}, fmt.Errorf("%w: negative lifetime %v", ErrNotGrantable, ttl)
	case !owner.Verified():
		return Grant{}, fmt.Errorf("%w: the client's program is not verified, and a grant never belongs to a name", ErrNotGrantable)
	}
	sum := sha256.Sum256([]byte(text))
	key := grantKey(owner, text)
	id, err := newID()
	if err != nil {
		return Grant{}, err
	}
	now := g.now()
	gr := Grant{ID: id, Hash: hex.EncodeToString(sum[:]), Text: text, Program: owner.Program, Risk: risk, Created: now}
	if ttl > 0 {
		gr.Expires = now.Add(ttl)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.byHash[key] = gr
	return gr, nil
}

// Allowed reports whether a live grant covers exactly text at risk for
// owner's program: the same program (Identity.Key) and the same text, the
// grant has not expired, and risk is not above the granted one. Destructive
// and blocked risks, and owners that are not verified, are never allowed.
func (g *Grants) Allowed(owner Identity, text string, risk level.Level) bool {
	if risk >= level.Destructive || risk < level.Safe || !owner.Verified() {
		return false
	}
	key := grantKey(owner, text)
	g.mu.Lock()
	defer g.mu.Unlock()
	gr, ok := g.byHash[key]
	if !ok {
		return false
	}
	if g.expiredLocked(gr) {
		delete(g.byHash, key)
		return false
	}
	return risk <= gr.Risk
}

// grantKey is the SHA-256 of the owner's key and the text, each prefixed
// with its length, so that no other pair of key and text has the same bytes.
func grantKey(owner Identity, text string) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, s := range []string{"airlock-grant-v1", owner.Key, text} {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// List returns the live grants, oldest first.
func (g *Grants) List() []Grant {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]Grant, 0, len(g.byHash))
	for k, gr := range g.byHash {
		if g.expiredLocked(gr) {
			delete(g.byHash, k)
			continue
		}
		out = append(out, gr)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Revoke forgets the grant with this id and reports whether there was one.
func (g *Grants) Revoke(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for k, gr := range g.byHash {
		if gr.ID == id {
			delete(g.byHash, k)
			return true
		}
	}
	return false
}

// Clear forgets every grant: the session ended, or the kill switch tripped.
func (g *Grants) Clear() {
	g.mu.Lock()
	defer g.mu.Unlock()
	clear(g.byHash)
}

func (g *Grants) expiredLocked(gr Grant) bool {
	return !gr.Expires.IsZero() && !g.now().Before(gr.Expires)
}

func newID() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a grant id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
