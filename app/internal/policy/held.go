package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/airlockhq/airlock/app/internal/risk"
)

// Held is one file an approved action runs as Hold read it: the bytes
// whose SHA-256 its pin holds. The sandbox runs the action from these
// bytes (sandbox.Pinned), not from what the path holds by the time the
// interpreter opens it: a file swapped after its last read (by the agent's
// own tools, outside Airlock) is not what runs.
type Held struct {
	Path    string // absolute, as pinned
	Bytes   []byte
	Mode    fs.FileMode // its permissions, so that a program held runs
	ModTime time.Time   // so that what caches by it (Python's bytecode) sees the file as it was
}

// Hold reads, once, each file pins names (and the code files of each
// folder pin) and returns what it read when every one holds what its pin
// holds; otherwise an error wrapping ErrLapsed, naming the first that does
// not (since says since when: "the approval popup showed it"). An
// optional file pinned absent must still be absent; nothing of it is
// held. A path pinned twice (a script and the folder it lies in) is held
// once. The bytes returned are those compared: the caller hands them to
// the action, never the path to be read again.
func Hold(pins []Pin, since string) ([]Held, error) {
	var out []Held
	seen := map[string]int{}
	add := func(h Held) error {
		if i, ok := seen[h.Path]; ok {
			if !bytes.Equal(out[i].Bytes, h.Bytes) {
				return fmt.Errorf("%w: %s changed while it was read since %s", ErrLapsed, h.Path, since)
			}
			return nil
		}
		seen[h.Path] = len(out)
		out = append(out, h)
		return nil
	}
	for _, p := range pins {
		if p.Loads != nil {
			sum, files, err := folderHold(*p.Loads)
			switch {
			case err != nil:
				return nil, fmt.Errorf("%w: %w", ErrLapsed, err)
			case sum != p.Sum:
				return nil, fmt.Errorf("%w: a %s file %s could load beside %s was changed, added or removed since %s",
					ErrLapsed, p.Loads.Lang, filepath.Base(p.Loads.Script), p.Path, since)
			}
			for _, h := range files {
				if err := add(h); err != nil {
					return nil, err
				}
			}
			continue
		}
		h, found, err := readHeld(p.Path)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%w: %w", ErrLapsed, err)
		case !found && p.Sum != "":
			return nil, fmt.Errorf("%w: %s was removed since %s", ErrLapsed, p.Path, since)
		case found && p.Sum == "":
			return nil, fmt.Errorf("%w: %s was put in place since %s", ErrLapsed, p.Path, since)
		case !found:
			continue
		case sumOf(h.Bytes) != p.Sum:
			return nil, fmt.Errorf("%w: %s changed since %s", ErrLapsed, p.Path, since)
		}
		if err := add(h); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readHeld reads the regular file at p whole, following symbolic links,
// as hashFile does (never blocking on a FIFO or a device, at most
// MaxPinBytes); found is false when nothing is there.
func readHeld(p string) (h Held, found bool, err error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return Held{}, false, nil
	}
	if err != nil {
		return Held{}, false, fmt.Errorf("reading %s: %w", p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return Held{}, false, fmt.Errorf("reading %s: %w", p, err)
	case !fi.Mode().IsRegular():
		return Held{}, false, fmt.Errorf("%s is not a regular file", p)
	case fi.Size() > MaxPinBytes:
		return Held{}, false, fmt.Errorf("%s is larger than %d MiB", p, MaxPinBytes>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxPinBytes+1))
	switch {
	case err != nil:
		return Held{}, false, fmt.Errorf("reading %s: %w", p, err)
	case len(b) > MaxPinBytes:
		return Held{}, false, fmt.Errorf("%s is larger than %d MiB", p, MaxPinBytes>>20)
	}
	return Held{Path: p, Bytes: b, Mode: fi.Mode().Perm(), ModTime: fi.ModTime()}, true, nil
}

// sumOf is the hex SHA-256 of b, as a pin holds it.
func sumOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// PinsOf returns the pins of the grant that covers exactly text, which
// runs runs, for owner's program (nil when none does): what Check compares
// the files with, for Hold to hold them by.
func (g *Grants) PinsOf(owner Identity, text string, runs risk.Runs) []Pin {
	key := grantKey(owner, text, runs)
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.byHash[key].Pins
}

// PinsOf returns what r pins of the files runs names, as pins for Hold:
// those r does not pin are left out (Covers refuses a command that runs
// one).
func (r Rule) PinsOf(runs risk.Runs) []Pin {
	var out []Pin
	for _, p := range append(append([]string(nil), runs.Files...), runs.Optional...) {
		if sum, ok := r.Pins[p]; ok {
			out = append(out, Pin{Path: p, Sum: sum})
		}
	}
	for _, f := range runs.Folders {
		dir := filepath.Dir(f.Script)
		if sum, ok := r.Pins[dir]; ok && sum != "" {
			loads := f
			out = append(out, Pin{Path: dir, Sum: sum, Loads: &loads})
		}
	}
	return out
}
