package policy

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// ErrNotGrantable is wrapped by Allow's and Grantable's error for what can
// never be remembered: destructive and blocked actions, empty text, a
// negative time, a client whose program is not verified, an action whose
// files Airlock cannot name (risk.Runs not Known), a file it runs that
// cannot be pinned (missing, not a regular file, larger than MaxPinBytes),
// and a script's folder past the bounds of a folder pin (maxFolderFiles …).
var ErrNotGrantable = errors.New("cannot remember this approval")

// ErrLapsed is wrapped by Check's error when a grant for the action exists
// but a file it pinned is no longer what it was when the person approved
// it: the action must be asked about again.
var ErrLapsed = errors.New("the remembered approval no longer holds")

// errNotCovered is Check's error when no live grant covers the action.
var errNotCovered = errors.New("no remembered approval covers this action")

// MaxPinBytes bounds a file a grant pins: it is read whole, and hashed
// again every time the grant is checked. A larger file cannot be pinned.
const MaxPinBytes = 16 << 20

// maxPins bounds the files one grant pins.
const maxPins = 16

// Grant is one remembered approval: the exact text of an action the person
// approved for one client program, identified by its SHA-256, up to the risk
// it was approved at, with the content of every file the action runs.
type Grant struct {
	ID      string      // random, for Revoke
	Hash    string      // hex SHA-256 of the exact text
	Text    string      // the text, for the menu's list
	Program string      // the program it belongs to, as the person saw it (Identity.Program)
	Risk    level.Level // the highest risk this grant covers
	Pins    []Pin       // the files the action runs (risk.Runs), as they were when it was granted
	Created time.Time   //
	Expires time.Time   // zero: when the session ends (Clear)
}

// Pin is one file a grant covers: its path and what it held.
type Pin struct {
	Path string // absolute
	Sum  string // hex SHA-256 of its content; "" when it was absent (an optional file)
	// Loads, for the folder an interpreter loads code from beside a
	// script (Path is the script's folder), says which of its files:
	// Sum is then folderSum's digest of them.
	Loads *risk.Folder
}

// Grants holds the session's remembered approvals ("allow again this
// session"). A grant covers what runs, not only the words that start it:
// the exact text approved — one character different is another action —
// and the content of every file that text runs (risk.RunFiles names them:
// the script of `python3 build.py`, a makefile, package.json) and the code
// files its interpreter can load beside a script (the modules and packages
// in build.py's folder: risk.Runs.Folders), each read again when the grant
// is checked, so a file changed, removed or put in place since is asked
// about again. It holds for the program it was
// approved for — any other program, whatever name it gives itself, is
// asked again — at a risk no higher than the one the person saw. It is
// never given for destructive or blocked actions, for a program that is not
// verified, or for an action whose files Airlock cannot name. It is safe for
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

// Grantable returns nil when an approval of an action that runs runs, at
// risk lvl, for owner's program, could be remembered now, and otherwise an
// error wrapping ErrNotGrantable that says why, for the person: the gate
// offers "allow again" only when it returns nil. It reads the files runs
// names, as Allow does.
func (g *Grants) Grantable(owner Identity, runs risk.Runs, lvl level.Level) error {
	_, err := grantable(owner, runs, lvl)
	return err
}

func grantable(owner Identity, runs risk.Runs, lvl level.Level) ([]Pin, error) {
	switch {
	case lvl >= level.Destructive || lvl < level.Safe:
		return nil, fmt.Errorf("%w: a %s action needs its own approval every time", ErrNotGrantable, lvl)
	case !owner.Verified():
		return nil, fmt.Errorf("%w: the client's program is not verified, and a grant never belongs to a name", ErrNotGrantable)
	case !runs.Known:
		why := runs.Why
		if why == "" {
			why = "Airlock cannot name the files it runs"
		}
		return nil, fmt.Errorf("%w: %s", ErrNotGrantable, why)
	case len(runs.Files)+len(runs.Optional)+len(runs.Folders) > maxPins:
		return nil, fmt.Errorf("%w: it runs %d files and folders; at most %d can be pinned", ErrNotGrantable, len(runs.Files)+len(runs.Optional)+len(runs.Folders), maxPins)
	}
	pins, err := pinRuns(runs)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotGrantable, err)
	}
	return pins, nil
}

// pinRuns reads each file runs names and returns what it holds now: every
// one of Files must be a regular file, each of Optional one or absent ("");
// each of Folders is pinned by the code files in it (folderSum). Grants and
// the person's allow rules (Rule.Pins) pin files so.
func pinRuns(runs risk.Runs) ([]Pin, error) {
	pins := make([]Pin, 0, len(runs.Files)+len(runs.Optional)+len(runs.Folders))
	for _, p := range runs.Files {
		sum, err := hashFile(p)
		switch {
		case err != nil:
			return nil, err
		case sum == "":
			return nil, fmt.Errorf("%s, which it runs, does not exist", p)
		}
		pins = append(pins, Pin{Path: p, Sum: sum})
	}
	for _, p := range runs.Optional {
		sum, err := hashFile(p)
		if err != nil {
			return nil, err
		}
		pins = append(pins, Pin{Path: p, Sum: sum})
	}
	for _, f := range runs.Folders {
		p, err := folderPin(f)
		if err != nil {
			return nil, err
		}
		pins = append(pins, p)
	}
	return pins, nil
}

// Allow remembers the approval of text, which runs runs, at risk lvl for
// owner's program, for ttl, or until the session ends when ttl is 0: it
// reads each file runs names and pins what it holds (or that an optional
// one is absent). It replaces an earlier grant for the same text, files
// and program. It refuses what Grantable refuses, an empty text and a
// negative ttl with an error wrapping ErrNotGrantable.
func (g *Grants) Allow(owner Identity, text string, runs risk.Runs, lvl level.Level, ttl time.Duration) (Grant, error) {
	switch {
	case text == "":
		return Grant{}, fmt.Errorf("%w: the action text is empty", ErrNotGrantable)
	case ttl < 0:
		return Grant{}, fmt.Errorf("%w: negative lifetime %v", ErrNotGrantable, ttl)
	}
	pins, err := grantable(owner, runs, lvl)
	if err != nil {
		return Grant{}, err
	}
	sum := sha256.Sum256([]byte(text))
	key := grantKey(owner, text, runs)
	id, err := newID()
	if err != nil {
		return Grant{}, err
	}
	now := g.now()
	gr := Grant{ID: id, Hash: hex.EncodeToString(sum[:]), Text: text, Program: owner.Program, Risk: lvl, Pins: pins, Created: now}
	if ttl > 0 {
		gr.Expires = now.Add(ttl)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.byHash[key] = gr
	return gr, nil
}

// Allowed reports whether a live grant covers exactly text, which runs
// runs, at risk lvl for owner's program (Check returns nil).
func (g *Grants) Allowed(owner Identity, text string, runs risk.Runs, lvl level.Level) bool {
	return g.Check(owner, text, runs, lvl) == nil
}

// Check returns nil when a live grant covers exactly text, which runs runs,
// at risk lvl for owner's program: the same program (Identity.Key), the
// same text and files, the grant has not expired, lvl is not above the
// granted risk, and every pinned file holds now what it held then (read
// again here: call it right before deciding, and again right before the
// action starts). When a grant exists but a file changed, the error wraps
// ErrLapsed and names the file; the grant stays, and covers the action
// again should the file be restored. Destructive and blocked risks, owners
// that are not verified and runs that are not Known are never covered.
func (g *Grants) Check(owner Identity, text string, runs risk.Runs, lvl level.Level) error {
	if lvl >= level.Destructive || lvl < level.Safe || !owner.Verified() || !runs.Known {
		return errNotCovered
	}
	key := grantKey(owner, text, runs)
	g.mu.Lock()
	gr, ok := g.byHash[key]
	if ok && g.expiredLocked(gr) {
		delete(g.byHash, key)
		ok = false
	}
	g.mu.Unlock()
	if !ok || lvl > gr.Risk {
		return errNotCovered
	}
	for _, p := range gr.Pins {
		if err := p.check("it was approved"); err != nil {
			return err
		}
	}
	return nil
}

// PinNow returns what the files runs names hold now, for CheckPins to
// read again right before an action the person approved starts: what
// runs must be what they were shown. Its error says why they cannot be
// pinned (Airlock cannot name them, one is not a regular file or too
// large).
func PinNow(runs risk.Runs) ([]Pin, error) {
	if !runs.Known {
		why := runs.Why
		if why == "" {
			why = "Airlock cannot name the files it runs"
		}
		return nil, errors.New(why)
	}
	return pinRuns(runs)
}

// CheckPins reads each pinned file (and folder of loaded code) again and
// returns an error wrapping ErrLapsed, naming the first that no longer
// holds what it held; since says since when ("the approval popup showed
// it").
func CheckPins(pins []Pin, since string) error {
	for _, p := range pins {
		if err := p.check(since); err != nil {
			return err
		}
	}
	return nil
}

// check reads the pinned file again and returns an error wrapping
// ErrLapsed, naming the file, when it no longer holds what it held (since
// says since when: "it was approved").
func (p Pin) check(since string) error {
	if p.Loads != nil {
		return p.checkFolder(since)
	}
	sum, err := hashFile(p.Path)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %w", ErrLapsed, err)
	case sum == "" && p.Sum != "":
		return fmt.Errorf("%w: %s was removed since %s", ErrLapsed, p.Path, since)
	case sum != "" && p.Sum == "":
		return fmt.Errorf("%w: %s was put in place since %s", ErrLapsed, p.Path, since)
	case sum != p.Sum:
		return fmt.Errorf("%w: %s changed since %s", ErrLapsed, p.Path, since)
	}
	return nil
}

// checkFolder is check for a folder pin: the code the interpreter loads
// beside the script must be what it was, file for file.
func (p Pin) checkFolder(since string) error {
	sum, err := folderSum(*p.Loads)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %w", ErrLapsed, err)
	case sum != p.Sum:
		return fmt.Errorf("%w: a %s file %s could load beside %s was changed, added or removed since %s",
			ErrLapsed, p.Loads.Lang, filepath.Base(p.Loads.Script), p.Path, since)
	}
	return nil
}

// hashFile returns the hex SHA-256 of the regular file at p, following
// symbolic links, or "" when nothing is there. It never blocks on a FIFO
// or a device (opened without blocking, refused as not a regular file) and
// reads at most MaxPinBytes.
func hashFile(p string) (string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return "", fmt.Errorf("reading %s: %w", p, err)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file", p)
	case fi.Size() > MaxPinBytes:
		return "", fmt.Errorf("%s is larger than %d MiB", p, MaxPinBytes>>20)
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, MaxPinBytes+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("reading %s: %w", p, err)
	case n > MaxPinBytes:
		return "", fmt.Errorf("%s is larger than %d MiB", p, MaxPinBytes>>20)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// grantKey is the SHA-256 of the owner's key, the text and the paths of
// the files it runs, each prefixed with its length (and the lists with
// theirs), so that no other combination has the same bytes.
func grantKey(owner Identity, text string, runs risk.Runs) [sha256.Size]byte {
	h := framedHash{sha256.New()}
	h.str("airlock-grant-v3")
	h.str(owner.Key)
	h.str(text)
	for _, list := range [][]string{runs.Files, runs.Optional} {
		h.count(len(list))
		for _, p := range list {
			h.str(p)
		}
	}
	h.count(len(runs.Folders))
	for _, f := range runs.Folders {
		h.str(f.Script)
		h.str(f.Lang)
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// framedHash writes each string after its length and each list after its
// count, so that no other sequence of strings and lists has the same bytes.
type framedHash struct{ hash.Hash }

// count writes n, 8 bytes big-endian.
func (h framedHash) count(n int) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
}

// str writes s after its length.
func (h framedHash) str(s string) {
	h.count(len(s))
	h.Write([]byte(s))
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
