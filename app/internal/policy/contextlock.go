package policy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// App identifies a running application. Its fields mirror bridge.App, so a
// bridge value converts with policy.App(a).
type App struct {
	BundleID string // "com.apple.Safari"
	Name     string // the localized name, for messages only
	PID      int
}

// String names the app for a message: "Safari (com.apple.Safari, pid 412)".
func (a App) String() string {
	name := a.Name
	if name == "" {
		name = a.BundleID
	}
	return fmt.Sprintf("%q (%s, pid %d)", name, a.BundleID, a.PID)
}

// same reports whether a and b are the same running application: the bundle
// id and the process both match. The name is not compared.
func (a App) same(b App) bool { return a.BundleID == b.BundleID && a.PID == b.PID }

// Frontmost reports the application that receives synthesised input.
//
// The bridge implements it. Frontmost must return an error, never a zero
// App, when it cannot tell (no window server, no permission); it must honour
// ctx and be safe for concurrent use.
type Frontmost interface {
	Frontmost(ctx context.Context) (App, error)
}

// Errors of the context lock. Each refuses the input action it guards.
var (
	// ErrContextChanged: the frontmost app is not the one locked.
	ErrContextChanged = errors.New("frontmost application changed")
	// ErrNotLocked: no app is locked, so input has no agreed target.
	ErrNotLocked = errors.New("no application is locked")
	// ErrNoFrontmost: the frontmost app could not be read.
	ErrNoFrontmost = errors.New("cannot tell the frontmost application")
)

// ContextLock is seed 003's context lock. The gate calls Lock when a plan
// starts (so the lock resets per plan), Check before every
// input-synthesising action, and, when the plan releases the lock to switch
// apps on purpose (RELEASE_LOCK "app"), Release, then LockOn that app before
// its next input-synthesising action.
//
// It fails closed: Check refuses when no lock is held (after Release, or
// when Lock failed) rather than taking one silently, so input after a release
// needs a new explicit Lock on the app it is meant for. A failed Lock drops
// the previous lock. It is safe for concurrent use.
type ContextLock struct {
	front Frontmost

	mu     sync.Mutex
	locked App  // guarded by mu
	held   bool // guarded by mu
}

// NewContextLock returns a lock that reads the frontmost app from f. No app is
// locked yet.
func NewContextLock(f Frontmost) *ContextLock { return &ContextLock{front: f} }

// Lock records the frontmost app, replacing any earlier lock. When the app
// cannot be read, no lock is held afterwards and the error wraps
// ErrNoFrontmost.
func (l *ContextLock) Lock(ctx context.Context) error {
	app, err := l.read(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.locked, l.held = app, err == nil
	if err != nil {
		return fmt.Errorf("context lock: %w", err)
	}
	return nil
}

// Check verifies that the locked app is still frontmost. It returns an error
// wrapping ErrContextChanged that names both apps when another app (or
// another process of the same app) is frontmost, ErrNotLocked when no lock
// is held, and ErrNoFrontmost when the frontmost app cannot be read.
func (l *ContextLock) Check(ctx context.Context) error {
	l.mu.Lock()
	want, held := l.locked, l.held
	l.mu.Unlock()
	if !held {
		return fmt.Errorf("context lock: %w: input is refused until an application is locked", ErrNotLocked)
	}
	now, err := l.read(ctx)
	if err != nil {
		return fmt.Errorf("context lock: %w: input is refused", err)
	}
	if !now.same(want) {
		return fmt.Errorf("context lock: %w from %s to %s: input is refused", ErrContextChanged, want, now)
	}
	return nil
}

// LockOn locks the frontmost app if it is the one named: what a plan that
// released the lock to switch to that app expects to find in front. The
// name matches an app's name or bundle id, ignoring case. When another app
// is in front, no lock is held afterwards and the error wraps
// ErrContextChanged, naming both; when the app cannot be read, it wraps
// ErrNoFrontmost.
func (l *ContextLock) LockOn(ctx context.Context, name string) error {
	app, err := l.read(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.locked, l.held = App{}, false
	if err != nil {
		return fmt.Errorf("context lock: %w", err)
	}
	if name == "" || !strings.EqualFold(app.Name, name) && !strings.EqualFold(app.BundleID, name) {
		return fmt.Errorf("context lock: %w: the plan switched to %q, but %s is in front: input is refused", ErrContextChanged, name, app)
	}
	l.locked, l.held = app, true
	return nil
}

// Release drops the lock; Check refuses until the next Lock.
func (l *ContextLock) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.locked, l.held = App{}, false
}

// Locked returns the locked app, if any, for status displays.
func (l *ContextLock) Locked() (App, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.locked, l.held
}

func (l *ContextLock) read(ctx context.Context) (App, error) {
	if l.front == nil {
		return App{}, fmt.Errorf("%w: no frontmost-app reader", ErrNoFrontmost)
	}
	app, err := l.front.Frontmost(ctx)
	if err != nil {
		return App{}, fmt.Errorf("%w: %w", ErrNoFrontmost, err)
	}
	if app.BundleID == "" || app.PID <= 0 {
		return App{}, fmt.Errorf("%w: the bridge reported %s", ErrNoFrontmost, app)
	}
	return app, nil
}
