// Package secrets keeps Airlock's keys in the platform's key store: the
// login Keychain on macOS, the Secret Service (gnome-keyring and friends) on
// Linux. It never falls back to environment variables, files or logs (seed
// 003): when the key store is locked or missing, callers get ErrUnavailable
// and must refuse to go on rather than work in clear.
//
// The memory store in this package exists for tests only.
package secrets

import (
	"errors"
	"fmt"
	"sync"
)

// Service is the name Airlock's items are stored under in every key store.
const Service = "dev.airlock.Airlock"

// ErrNotFound is returned by Get when no secret is stored under the name.
var ErrNotFound = errors.New("secret not found")

// ErrUnavailable is wrapped by every error that means the key store cannot be
// used right now: locked, missing, or refusing access. Callers must not fall
// back to anything else.
var ErrUnavailable = errors.New("key store unavailable")

// A KeyStore holds small secrets (keys, tokens) by name.
//
// Implementations must be safe for concurrent use. Get returns an error
// wrapping ErrNotFound when nothing is stored under name and one wrapping
// ErrUnavailable when the store is locked or unreachable; it never returns
// (nil, nil). Set replaces any secret stored under name. Items must stay on
// this device: never synchronised, readable only while the user is logged
// in and the store unlocked.
type KeyStore interface {
	Get(name string) ([]byte, error)
	Set(name string, secret []byte) error
	Delete(name string) error
}

// Memory is a KeyStore in process memory, for tests only: its secrets die
// with the process. Locked makes every call fail with ErrUnavailable, to test
// that callers refuse to work without their keys.
type Memory struct {
	mu     sync.Mutex
	items  map[string][]byte
	Locked bool
}

// NewMemory returns an empty memory store. For tests only.
func NewMemory() *Memory { return &Memory{items: map[string][]byte{}} }

func (m *Memory) Get(name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Locked {
		return nil, lockedErr()
	}
	s, ok := m.items[name]
	if !ok {
		return nil, ErrNotFound
	}
	return append([]byte(nil), s...), nil
}

func (m *Memory) Set(name string, secret []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Locked {
		return lockedErr()
	}
	m.items[name] = append([]byte(nil), secret...)
	return nil
}

func (m *Memory) Delete(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Locked {
		return lockedErr()
	}
	delete(m.items, name)
	return nil
}

type unavailableError struct{ why string }

func (e *unavailableError) Error() string { return "key store unavailable: " + e.why }
func (e *unavailableError) Unwrap() error { return ErrUnavailable }

// unavailable is an error wrapping ErrUnavailable that says why.
func unavailable(format string, a ...any) error {
	return &unavailableError{fmt.Sprintf(format, a...)}
}

func lockedErr() error { return &unavailableError{"the memory store is locked"} }
