// Package logs owns Airlock's log files: size-rotated files in the log
// directory (~/Library/Logs/Airlock on macOS, the XDG state directory on
// Linux), owner-only, with every message passed through redact.String first.
//
// It must never write a message it has not redacted, never write outside the
// directory it was given, and never let a log grow without bound: a file
// that would pass its size limit is rotated first, and only the newest few
// rotated files are kept.
package logs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/redact"
)

// Defaults for Options.
const (
	DefaultMaxBytes = 1 << 20 // 1 MiB a file
	DefaultKeep     = 3       // rotated files kept beside the current one
)

// Options bound a log. Zero values take the defaults.
type Options struct {
	MaxBytes int64 // the size a file may reach before it is rotated
	Keep     int   // rotated files kept: NAME.1 (newest) … NAME.Keep
}

// File is one rotated log. Each Write is taken as one message: it is
// redacted whole, so a secret split across two writes could pass. The
// standard library's log.Logger writes each message in one call; use it
// (log.New(f, "", log.LstdFlags)) rather than writing piecemeal. It is safe
// for concurrent use.
type File struct {
	path string
	opts Options

	mu   sync.Mutex
	f    *os.File // guarded by mu; nil once closed
	size int64    // guarded by mu
}

// ErrClosed is returned by Write after Close.
var ErrClosed = errors.New("log is closed")

// Open opens (appending) or creates dir/name, making dir owner-only first
// (datadir.Ensure). name must be a plain file name.
func Open(dir, name string, opts Options) (*File, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("opening the log: %q is not a plain file name", name)
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if err := datadir.Ensure(dir); err != nil {
		return nil, fmt.Errorf("opening the log: %w", err)
	}
	l := &File{path: filepath.Join(dir, name), opts: opts}
	if err := l.openLocked(); err != nil {
		return nil, err
	}
	return l, nil
}

// Path returns the current file's path.
func (l *File) Path() string { return l.path }

func (l *File) openLocked() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening the log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("opening the log: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("opening the log: %s is not a regular file", l.path)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("opening the log: %w", err)
	}
	l.f, l.size = f, fi.Size()
	return nil
}

// Write redacts p, rotates the file first if p would take it past
// MaxBytes, and appends it. A message longer than MaxBytes is cut to fit,
// and says so. It returns len(p) when the message was written.
func (l *File) Write(p []byte) (int, error) {
	msg := redact.String(string(p))
	if int64(len(msg)) > l.opts.MaxBytes {
		const cut = " [cut]\n"
		msg = msg[:max(l.opts.MaxBytes-int64(len(cut)), 0)] + cut
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return 0, ErrClosed
	}
	if l.size > 0 && l.size+int64(len(msg)) > l.opts.MaxBytes {
		if err := l.rotateLocked(); err != nil {
			return 0, err
		}
	}
	n, err := io.WriteString(l.f, msg)
	l.size += int64(n)
	if err != nil {
		return 0, fmt.Errorf("writing the log: %w", err)
	}
	return len(p), nil
}

// rotateLocked moves NAME.k to NAME.k+1 (dropping the oldest), NAME to
// NAME.1, and starts a new NAME.
func (l *File) rotateLocked() error {
	l.f.Close()
	l.f = nil
	os.Remove(l.path + "." + strconv.Itoa(l.opts.Keep))
	for k := l.opts.Keep - 1; k >= 1; k-- {
		from := l.path + "." + strconv.Itoa(k)
		if err := os.Rename(from, l.path+"."+strconv.Itoa(k+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("rotating the log: %w", err)
		}
	}
	if err := os.Rename(l.path, l.path+".1"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("rotating the log: %w", err)
	}
	return l.openLocked()
}

// Close closes the file. Later writes fail with ErrClosed.
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// Redacting returns a writer that passes each Write through redact.String
// before handing it to w, for logs that go elsewhere (a terminal). Like File,
// it redacts each write whole.
func Redacting(w io.Writer) io.Writer { return redacting{w} }

type redacting struct{ w io.Writer }

func (r redacting) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, redact.String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
