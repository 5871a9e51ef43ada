package history

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

var (
	// ErrTampered is wrapped by every error that means the file was
	// changed behind the history's back. Verify's errors name the row.
	ErrTampered = errors.New("history has been tampered with")
	// ErrInvalid is wrapped by the error an Add method returns for a
	// record it refuses (an empty id, an unknown decision, …).
	ErrInvalid = errors.New("invalid history record")
	// ErrNotFound is returned by Store.Request for an unknown request id.
	ErrNotFound = errors.New("no such request in the history")
	// ErrClosed is returned by every method called after Close.
	ErrClosed = errors.New("history is closed")
)

const (
	// The writer: WAL, every commit fsynced, IMMEDIATE transactions so the
	// write lock is taken up front, deleted content overwritten.
	writeParams = "_journal_mode=WAL&_synchronous=FULL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate&_secure_delete=on"
	// Readers never write and never take the write lock.
	readParams = "_busy_timeout=5000&_txlock=deferred&_query_only=true"
	// maxBatch bounds how many records one transaction holds.
	maxBatch = 512
)

// A Store is an open history. Its methods are safe for concurrent use.
type Store struct {
	ks   secrets.KeyStore
	keys *keys
	path string // the file, canonical (current.go)
	dbID string
	w, r *sql.DB
	ins  map[*table]*sql.Stmt // inserts, prepared on w

	jobs chan *job
	done chan struct{} // closed when the writer goroutine has finished

	anchors     chan head     // heads for the anchorer to write to the key store
	anchorsDone chan struct{} // closed when the anchorer has finished

	mu     sync.RWMutex
	closed bool // guarded by mu; jobs is closed once it is set

	// The writer goroutine's state. Open sets it before the writer starts;
	// after that only the writer touches it, and Close reads it once the
	// writer is done.
	head     head
	headBlob []byte // the meta "head" value last written or read
	cur      *keyring
	anchored int64 // the seq last handed to the anchorer (or found at Open)
}

// A job is one record for the writer, or a switch to a new key.
type job struct {
	t      *table
	vals   []any    // t.cols in order; sealed columns still plain strings
	more   [][]any  // further rows of t, written in the same transaction
	rotate *keyring // instead of a row: seal new rows with this key
	res    chan error
}

func dsn(path, params string) string {
	return (&url.URL{Scheme: "file", Path: path, RawQuery: params}).String()
}

// Open opens the history at path, creating it (owner-only) and its key on
// first use and migrating an older schema. The key comes from ks; if ks is
// locked or missing the error wraps secrets.ErrUnavailable and nothing is
// written: a new history's key is stored before its file is created.
// Open also checks that the chain's head matches the file's last row and
// the head last anchored in the key store, and that the file is the
// database the key store says is kept at path; if not, the error wraps
// ErrTampered and the history stays closed (VerifyFile says which rows). A
// missing file makes a new history, so the gate can go on recording; but
// where the key store named another one for path, Verify reports that the
// history started over and which one went missing.
func Open(path string, ks secrets.KeyStore) (*Store, error) {
	s, err := open(context.Background(), path, ks)
	if err != nil {
		return nil, fmt.Errorf("opening history %s: %w", path, err)
	}
	return s, nil
}

func open(ctx context.Context, path string, ks secrets.KeyStore) (_ *Store, err error) {
	if ks == nil {
		return nil, fmt.Errorf("no key store: %w", secrets.ErrUnavailable)
	}
	abs, err := canonical(path)
	if err != nil {
		return nil, err
	}
	// Which database the key store says is kept here (current.go).
	kept, haveKept, err := readCurrent(ks, abs)
	if err != nil {
		return nil, err
	}
	s := &Store{ks: ks, keys: newKeys(ks), path: abs}

	// A new history: make its key first, so a locked key store leaves no
	// file behind.
	var fresh *keyring
	created, initialised := false, false
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		if fresh, err = s.keys.create(); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			s.keys.forget(fresh.id)
			return nil, err
		}
		f.Close()
		created = true
	} else if err != nil {
		return nil, err
	}
	defer func() {
		if err == nil {
			return
		}
		s.closeDBs()
		if created {
			for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
				os.Remove(abs + suffix)
			}
		}
		if fresh != nil && (created || !initialised) {
			s.keys.forget(fresh.id)
		}
	}()

	if s.w, err = sql.Open(driverName, dsn(abs, writeParams)); err != nil {
		return nil, err
	}
	s.w.SetMaxOpenConns(1) // the one writer
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	if s.r, err = sql.Open(driverName, dsn(abs, readParams)); err != nil {
		return nil, err
	}
	s.r.SetMaxOpenConns(4)

	var version int
	if err := s.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return nil, err
	}
	if version == 0 {
		// New, or a file whose first Open never committed.
		if fresh == nil {
			if fresh, err = s.keys.create(); err != nil {
				return nil, err
			}
		}
		dbID := randomHex(16)
		err = migrate(ctx, s.w, func(tx *sql.Tx) error {
			blob := fresh.encodeHead(dbID, head{seq: 0, link: genesis(dbID)})
			_, err := tx.ExecContext(ctx, "INSERT INTO meta (name, value) VALUES ('db_id', ?), ('key_id', ?), ('head', ?)",
				[]byte(dbID), []byte(fresh.id), blob)
			return err
		})
		if err != nil {
			return nil, err
		}
		// A new history where another was kept: it starts over, and says
		// so until the person looks (Verify).
		c := current{dbID: dbID}
		if haveKept {
			c.replaced = kept.dbID
		}
		if err := writeCurrent(ks, abs, c); err != nil {
			return nil, err
		}
		kept, haveKept = c, true
		initialised = true
	} else if err := migrate(ctx, s.w, nil); err != nil {
		return nil, err
	}

	st, err := readState(ctx, s.w, s.keys)
	if err != nil {
		return nil, err
	}
	if err := s.checkEnd(ctx, st); err != nil {
		return nil, err
	}
	switch {
	case !haveKept:
		// A history made before the key store named it: adopt it.
		if err := writeCurrent(ks, abs, current{dbID: st.dbID}); err != nil {
			return nil, err
		}
	case kept.dbID != st.dbID:
		return nil, fmt.Errorf("%w: %s; put the history kept here back, or move this file aside to start a new one (airlock audit verify says more)",
			ErrTampered, checkCurrent(ks, kept, st.dbID))
	}
	s.dbID, s.head, s.headBlob, s.cur = st.dbID, st.head, st.headBlob, st.cur
	s.anchored = st.head.seq

	s.ins = make(map[*table]*sql.Stmt, len(tables))
	for _, t := range tables {
		if s.ins[t], err = s.w.PrepareContext(ctx, t.insertSQL); err != nil {
			return nil, err
		}
	}
	s.jobs = make(chan *job, 4*maxBatch)
	s.done = make(chan struct{})
	s.anchors = make(chan head, 1)
	s.anchorsDone = make(chan struct{})
	go s.run()
	go s.anchorer()
	return s, nil
}

// state is what the meta table says, checked.
type state struct {
	dbID     string
	cur      *keyring // the key for new rows
	head     head
	headBlob []byte
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func meta(ctx context.Context, q querier, name string) ([]byte, error) {
	var v []byte
	err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE name = ?", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: the meta row %q is missing", ErrTampered, name)
	}
	return v, err
}

// readState reads the database id, the current key and the head, and
// checks the head's HMAC. Key store errors are returned as they are
// (wrapping secrets.ErrUnavailable when it is locked).
func readState(ctx context.Context, q querier, k *keys) (state, error) {
	var st state
	id, err := meta(ctx, q, "db_id")
	if err != nil {
		return st, err
	}
	st.dbID = string(id)
	keyID, err := meta(ctx, q, "key_id")
	if err != nil {
		return st, err
	}
	if st.cur, err = k.get(string(keyID)); err != nil {
		if errors.Is(err, errUnknownKey) {
			return st, fmt.Errorf("%w: the current key id %q is not in the key store", ErrTampered, keyID)
		}
		return st, err
	}
	if st.headBlob, err = meta(ctx, q, "head"); err != nil {
		return st, err
	}
	st.head, err = checkedHead(st.dbID, st.headBlob, k)
	return st, err
}

func checkedHead(dbID string, blob []byte, k *keys) (head, error) {
	h, keyID, body, mac, err := splitHead(blob)
	if err != nil {
		return head{}, fmt.Errorf("%w: the chain head is malformed", ErrTampered)
	}
	kr, err := k.get(keyID)
	if errors.Is(err, errUnknownKey) {
		return head{}, fmt.Errorf("%w: the chain head names key id %q, which is not in the key store", ErrTampered, keyID)
	}
	if err != nil {
		return head{}, err
	}
	if !kr.checkHead(dbID, body, mac) {
		return head{}, fmt.Errorf("%w: the chain head's HMAC does not match", ErrTampered)
	}
	return h, nil
}

// checkEnd is Open's quick check: the head names the last row and the
// anchor, if any, is still in the chain. Verify does the full walk.
func (s *Store) checkEnd(ctx context.Context, st state) error {
	last, where, err := lastRow(ctx, s.w)
	if err != nil {
		return err
	}
	switch {
	case last.seq > st.head.seq:
		return fmt.Errorf("%w: rows after seq %d (the last is seq %d in %s) were added outside Airlock; run airlock audit verify",
			ErrTampered, st.head.seq, last.seq, where)
	case last.seq < st.head.seq:
		return fmt.Errorf("%w: the chain head is at seq %d but the last row is seq %d: rows were cut from the end; run airlock audit verify",
			ErrTampered, st.head.seq, last.seq)
	case last.seq > 0 && !bytes.Equal(last.link, st.head.link):
		return fmt.Errorf("%w: the last row (seq %d in %s) is not the one the chain head records; run airlock audit verify",
			ErrTampered, last.seq, where)
	}
	a, ok, err := readAnchor(s.ks, st.dbID)
	if err != nil || !ok {
		return err
	}
	if a.seq > st.head.seq {
		return fmt.Errorf("%w: the history ends at seq %d but was anchored at seq %d when last closed: it was cut short or rolled back",
			ErrTampered, st.head.seq, a.seq)
	}
	link, where, err := linkAt(ctx, s.w, a.seq)
	if err != nil {
		return err
	}
	if !bytes.Equal(link, a.link) {
		return fmt.Errorf("%w: row seq %d (%s) is not the one anchored when the history was last closed; run airlock audit verify",
			ErrTampered, a.seq, where)
	}
	return nil
}

// readAnchor reads the head anchored in the key store by the last Close.
func readAnchor(ks secrets.KeyStore, dbID string) (head, bool, error) {
	b, err := ks.Get(anchorName(dbID))
	if errors.Is(err, secrets.ErrNotFound) {
		return head{}, false, nil
	}
	if err != nil {
		return head{}, false, fmt.Errorf("reading the chain anchor: %w", err)
	}
	a, ok := decodeAnchor(b)
	if !ok {
		return head{}, false, fmt.Errorf("the chain anchor in the key store is malformed (%d bytes)", len(b))
	}
	return a, true, nil
}

// lastRow returns the row with the highest seq in any table (seq 0 when
// there is none) and the table it is in.
func lastRow(ctx context.Context, q querier) (head, string, error) {
	var last head
	where := ""
	for _, t := range tables {
		if ok, err := present(ctx, q, t); err != nil || !ok {
			if err != nil {
				return head{}, "", err
			}
			continue
		}
		var h head
		err := q.QueryRowContext(ctx, "SELECT seq, link FROM "+t.name+" ORDER BY seq DESC LIMIT 1").Scan(&h.seq, &h.link)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return head{}, "", err
		}
		if h.seq > last.seq {
			last, where = h, t.name
		}
	}
	return last, where, nil
}

// present reports whether the file has table t: one of an older schema,
// which VerifyFile reads without migrating it, lacks those a later
// migration made.
func present(ctx context.Context, q querier, t *table) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", t.name).Scan(&n)
	return n > 0, err
}

// linkAt returns the stored link of the row with the given seq, or nil.
func linkAt(ctx context.Context, q querier, seq int64) ([]byte, string, error) {
	for _, t := range tables {
		if ok, err := present(ctx, q, t); err != nil || !ok {
			if err != nil {
				return nil, "", err
			}
			continue
		}
		var link []byte
		err := q.QueryRowContext(ctx, "SELECT link FROM "+t.name+" WHERE seq = ?", seq).Scan(&link)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		return link, t.name, err
	}
	return nil, "no table", nil
}

// Close waits for pending writes, anchors the chain's head in the key
// store and closes the file. Methods called after Close return ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.closed = true
	close(s.jobs)
	s.mu.Unlock()
	<-s.done
	close(s.anchors) // the writer is done: nothing sends any more
	<-s.anchorsDone

	var errs []error
	if s.head.seq > 0 {
		if err := s.ks.Set(anchorName(s.dbID), encodeAnchor(s.head)); err != nil {
			errs = append(errs, fmt.Errorf("closing history: anchoring the chain: %w", err))
		}
	}
	if err := s.closeDBs(); err != nil {
		errs = append(errs, fmt.Errorf("closing history: %w", err))
	}
	return errors.Join(errs...)
}

func (s *Store) closeDBs() error {
	var errs []error
	for _, st := range s.ins {
		errs = append(errs, st.Close())
	}
	if s.w != nil {
		errs = append(errs, s.w.Close())
	}
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	return errors.Join(errs...)
}
