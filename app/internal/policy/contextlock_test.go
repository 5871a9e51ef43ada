package policy_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge"
)

// fakeFront is a Frontmost whose answer the test sets.
type fakeFront struct {
	mu  sync.Mutex
	app policy.App
	err error
}

func (f *fakeFront) set(a policy.App, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.app, f.err = a, err
}

func (f *fakeFront) Frontmost(ctx context.Context) (policy.App, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.app, f.err
}

var (
	safari   = policy.App{BundleID: "com.apple.Safari", Name: "Safari", PID: 412}
	terminal = policy.App{BundleID: "com.apple.Terminal", Name: "Terminal", PID: 977}
)

func TestContextLock(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		lockOn  policy.App
		now     policy.App
		nowErr  error
		wantErr error
		names   []string // what the message must name
	}{
		{"same app", safari, safari, nil, nil, nil},
		{"name change alone is the same app", safari, policy.App{BundleID: safari.BundleID, Name: "Safari Technology", PID: safari.PID}, nil, nil, nil},
		{"other app", safari, terminal, nil, policy.ErrContextChanged, []string{"com.apple.Safari", "com.apple.Terminal", "412", "977"}},
		{"pid change (app relaunched)", safari, policy.App{BundleID: safari.BundleID, Name: "Safari", PID: 413}, nil, policy.ErrContextChanged, []string{"pid 412", "pid 413"}},
		{"bundle change, same pid", safari, policy.App{BundleID: "com.evil.Safari", Name: "Safari", PID: 412}, nil, policy.ErrContextChanged, []string{"com.evil.Safari"}},
		{"frontmost unreadable", safari, policy.App{}, errors.New("no window server"), policy.ErrNoFrontmost, []string{"no window server"}},
		{"frontmost reported empty", safari, policy.App{}, nil, policy.ErrNoFrontmost, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeFront{app: tt.lockOn}
			l := policy.NewContextLock(f)
			if err := l.Lock(ctx); err != nil {
				t.Fatal(err)
			}
			f.set(tt.now, tt.nowErr)
			err := l.Check(ctx)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr != nil) != (err != nil) {
				t.Fatalf("Check = %v, want %v", err, tt.wantErr)
			}
			for _, n := range tt.names {
				if !strings.Contains(err.Error(), n) {
					t.Errorf("%q does not name %q", err, n)
				}
			}
		})
	}
}

func TestContextLockReleaseAndReset(t *testing.T) {
	ctx := context.Background()
	f := &fakeFront{app: safari}
	l := policy.NewContextLock(f)

	if err := l.Check(ctx); !errors.Is(err, policy.ErrNotLocked) {
		t.Fatalf("Check before any Lock = %v, want ErrNotLocked", err)
	}
	if err := l.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	l.Release()
	if _, held := l.Locked(); held {
		t.Fatal("Locked reports a lock after Release")
	}
	f.set(terminal, nil)
	if err := l.Check(ctx); !errors.Is(err, policy.ErrNotLocked) {
		t.Fatalf("Check after Release = %v, want ErrNotLocked (fail closed)", err)
	}

	// A new plan starts with Terminal in front: the lock moves to it.
	if err := l.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.Locked(); got != terminal {
		t.Fatalf("Locked = %v, want %v", got, terminal)
	}
	if err := l.Check(ctx); err != nil {
		t.Fatalf("Check on the new plan's app: %v", err)
	}
	f.set(safari, nil)
	if err := l.Check(ctx); !errors.Is(err, policy.ErrContextChanged) {
		t.Fatalf("the previous plan's app passed the new plan's lock: %v", err)
	}

	// A plan whose Lock fails must not inherit the previous plan's lock.
	f.set(policy.App{}, errors.New("no window server"))
	if err := l.Lock(ctx); !errors.Is(err, policy.ErrNoFrontmost) {
		t.Fatalf("Lock = %v, want ErrNoFrontmost", err)
	}
	f.set(terminal, nil)
	if err := l.Check(ctx); !errors.Is(err, policy.ErrNotLocked) {
		t.Fatalf("Check after a failed Lock = %v, want ErrNotLocked", err)
	}
}

func TestContextLockWithoutReader(t *testing.T) {
	l := policy.NewContextLock(nil)
	if err := l.Lock(context.Background()); !errors.Is(err, policy.ErrNoFrontmost) {
		t.Fatalf("Lock = %v", err)
	}
}

// TestAppMirrorsBridge keeps policy.App convertible from bridge.App, field
// for field, so the bridge's adapter stays a conversion.
func TestAppMirrorsBridge(t *testing.T) {
	b := bridge.App{BundleID: "com.apple.Notes", Name: "Notes", PID: 7}
	if p := policy.App(b); p.BundleID != b.BundleID || p.Name != b.Name || p.PID != b.PID {
		t.Fatalf("converted %+v to %+v", b, p)
	}
}

// TestContextLockOn checks the lock a plan takes again after switching apps
// on purpose: only the app it named, found in front, is locked; anything
// else leaves no lock, so input stays refused.
func TestContextLockOn(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		front   policy.App
		err     error
		on      string
		wantErr error
	}{
		{"the named app, by name", safari, nil, "safari", nil},
		{"the named app, by bundle id", safari, nil, "COM.APPLE.SAFARI", nil},
		{"another app", terminal, nil, "Safari", policy.ErrContextChanged},
		{"a name that is part of another's", policy.App{BundleID: "com.evil.SafariHelper", Name: "Safari Helper", PID: 5}, nil, "Safari", policy.ErrContextChanged},
		{"no name", safari, nil, "", policy.ErrContextChanged},
		{"frontmost unreadable", policy.App{}, errors.New("no window server"), "Safari", policy.ErrNoFrontmost},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeFront{app: terminal}
			l := policy.NewContextLock(f)
			if err := l.Lock(ctx); err != nil {
				t.Fatal(err)
			}
			l.Release()
			f.set(tt.front, tt.err)
			err := l.LockOn(ctx, tt.on)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr != nil) != (err != nil) {
				t.Fatalf("LockOn(%q) = %v, want %v", tt.on, err, tt.wantErr)
			}
			locked, held := l.Locked()
			if held != (tt.wantErr == nil) || held && locked != tt.front {
				t.Errorf("after LockOn: locked %v, held %v", locked, held)
			}
			if cerr := l.Check(ctx); (cerr == nil) != (tt.wantErr == nil) {
				t.Errorf("Check after LockOn = %v", cerr)
			}
			if tt.wantErr == nil {
				// Input then goes only to that app.
				f.set(terminal, nil)
				if err := l.Check(ctx); !errors.Is(err, policy.ErrContextChanged) {
					t.Errorf("Check with another app in front = %v", err)
				}
			}
		})
	}
}
