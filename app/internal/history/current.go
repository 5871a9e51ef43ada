package history

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

// Which database is the history at a path, and how far it got, is kept in
// the key store, where an action that can write the file cannot reach:
//
//   - history-current-<path id> names the database kept at that path (its
//     random id) and, when the history had to start over because the one
//     kept there had gone, the id of the one that went. It is written when
//     a database is created, and on the first Open of a history made
//     before it existed.
//   - history-anchor-<database id> holds the chain's head (seq and link).
//     The writer updates it every anchorEvery rows and Close at the end.
//
// Open refuses a file that is another database than the one named for its
// path; Verify reports that, and a history that started over because its
// predecessor went missing, and VerifyFile reports a missing file the key
// store still names. Moving the history aside, replacing it with another
// or deleting it is therefore never "intact".
//
// Why every anchorEvery rows, and off the write path: a key-store write is
// a D-Bus round trip to the Secret Service (measured here: p50 9.7 ms, p99
// 85 ms under load, gnome-keyring) or a Keychain update, while a decision
// commits in 0.25 ms (p50); anchoring at every row would make every action
// wait forty times longer. The anchorer goroutine writes one anchor per
// anchorEvery rows (an action is three), so no action waits on the key
// store at all, and a rollback of the file to an earlier copy can hide at
// most the rows since the last anchor (Open's check reads the anchor;
// Close writes the last one). The database id needs no such care: it is
// written once, when the database is made, and read at Open and Verify.
const anchorEvery = 32

// currentName is the key-store item that names the database kept at the
// history file abs.
func currentName(abs string) string {
	sum := sha256.Sum256([]byte("airlock-history-path-v1\x00" + abs))
	return "history-current-" + hex.EncodeToString(sum[:16])
}

// canonical is the history file's path as the current item is keyed by:
// absolute, with the links of its folder resolved when it exists.
func canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	return abs, nil
}

// current is what history-current-… says.
type current struct {
	dbID     string // the database kept at the path
	replaced string // "" or the database it replaced when the history started over
}

func (c current) encode() []byte {
	return []byte("v1\n" + c.dbID + "\n" + c.replaced)
}

func decodeCurrent(b []byte) (current, bool) {
	parts := strings.Split(string(b), "\n")
	if len(parts) != 3 || parts[0] != "v1" || !validID(parts[1]) || parts[2] != "" && !validID(parts[2]) {
		return current{}, false
	}
	return current{dbID: parts[1], replaced: parts[2]}, true
}

// validID: a database id is 32 hex digits (randomHex(16)).
func validID(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// readCurrent reads the current item of a history file; ok is false when
// there is none.
func readCurrent(ks secrets.KeyStore, abs string) (current, bool, error) {
	b, err := ks.Get(currentName(abs))
	if errors.Is(err, secrets.ErrNotFound) {
		return current{}, false, nil
	}
	if err != nil {
		return current{}, false, fmt.Errorf("reading which history is kept at %s: %w", abs, err)
	}
	c, ok := decodeCurrent(b)
	if !ok {
		return current{}, false, fmt.Errorf("%w: the key store's record of which history is kept at %s is malformed", ErrTampered, abs)
	}
	return c, true, nil
}

func writeCurrent(ks secrets.KeyStore, abs string, c current) error {
	if err := ks.Set(currentName(abs), c.encode()); err != nil {
		return fmt.Errorf("recording which history is kept at %s: %w", abs, err)
	}
	return nil
}

// anchoredAt describes a database's anchor for a message: "anchored at seq
// 42", or "never anchored".
func anchoredAt(ks secrets.KeyStore, dbID string) string {
	a, ok, err := readAnchor(ks, dbID)
	switch {
	case err != nil:
		return "its anchor unreadable"
	case !ok:
		return "never anchored"
	}
	return fmt.Sprintf("anchored at seq %d", a.seq)
}

// checkCurrent compares a database with what the key store says is kept at
// its path. It returns the problem ("" when none).
func checkCurrent(ks secrets.KeyStore, c current, dbID string) string {
	switch {
	case c.dbID != dbID:
		return fmt.Sprintf("this file is history %s, but the history kept here is %s (%s): the file was replaced", short(dbID), short(c.dbID), anchoredAt(ks, c.dbID))
	case c.replaced != "":
		return fmt.Sprintf("this history started over: the one kept here before it, %s (%s), went missing (moved aside or deleted), and its record is not here", short(c.replaced), anchoredAt(ks, c.replaced))
	}
	return ""
}

// short is a database id as messages show it.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
