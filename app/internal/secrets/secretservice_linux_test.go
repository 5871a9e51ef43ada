//go:build linux

package secrets_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	dbus "github.com/keybase/dbus"
	"github.com/keybase/go-keychain/secretservice"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

// childEnv marks the test process that runs inside a private D-Bus session
// with its own gnome-keyring.
const childEnv = "AIRLOCK_TEST_SECRET_SERVICE_CHILD"

func TestOpenWithoutSessionBus(t *testing.T) {
	tests := []struct {
		name, addr, want string
	}{
		{"unset", "", "DBUS_SESSION_BUS_ADDRESS"},
		{"autolaunch", "autolaunch:", "DBUS_SESSION_BUS_ADDRESS"},
		{"nothing there", "unix:path=" + filepath.Join(t.TempDir(), "no-bus"), "no Secret Service"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", tt.addr)
			ks, err := secrets.Open()
			if !errors.Is(err, secrets.ErrUnavailable) || ks != nil {
				t.Fatalf("Open() = %v, %v; want an error wrapping ErrUnavailable", ks, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

// TestSecretService runs itself again inside dbus-run-session with a fresh
// gnome-keyring (in a temporary home) unlocked by a password, and there
// stores, reads, replaces and deletes secrets through two Open()s.
func TestSecretService(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		runInKeyringSession(t, "TestSecretService")
		return
	}
	ks1, err := secrets.Open()
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	ks2, err := secrets.Open()
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"missing", func() error { return wantGet(ks1, "key", nil, secrets.ErrNotFound) }},
		{"set", func() error { return ks1.Set("key", []byte("v1")) }},
		{"get from the other", func() error { return wantGet(ks2, "key", []byte("v1"), nil) }},
		{"overwrite", func() error { return ks2.Set("key", []byte("v2")) }},
		{"get the new value", func() error { return wantGet(ks1, "key", []byte("v2"), nil) }},
		{"one item after overwrite", func() error { return wantItems("key", 1) }},
		{"another name", func() error { return ks1.Set("other", every) }},
		{"binary value", func() error { return wantGet(ks2, "other", every, nil) }},
		{"names are separate", func() error { return wantGet(ks2, "key", []byte("v2"), nil) }},
		{"empty value", func() error { return ks1.Set("empty", nil) }},
		{"get empty value", func() error { return wantGet(ks2, "empty", []byte{}, nil) }},
		{"delete", func() error { return ks2.Delete("key") }},
		{"gone", func() error { return wantGet(ks1, "key", nil, secrets.ErrNotFound) }},
		{"gone for the other", func() error { return wantGet(ks2, "key", nil, secrets.ErrNotFound) }},
		{"delete again", func() error { return ks1.Delete("key") }},
		{"other kept", func() error { return wantGet(ks1, "other", every, nil) }},
		{"concurrent", func() error { return concurrent(ks1, ks2) }},
		{"many sessions", manySessions},
		{"lock the keyring", lockDefault},
		{"get while locked", func() error { return wantGet(ks1, "other", nil, secrets.ErrUnavailable) }},
		{"set while locked", func() error { return wantErr(ks2.Set("other", []byte("x")), secrets.ErrUnavailable) }},
		{"open while locked", func() error { _, err := secrets.Open(); return wantErr(err, secrets.ErrUnavailable) }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	_, err = ks1.Get("other")
	t.Logf("while locked: %v", err)
}

func wantGet(ks secrets.KeyStore, name string, want []byte, wantErrIs error) error {
	got, err := ks.Get(name)
	if wantErrIs != nil {
		return wantErr(err, wantErrIs)
	}
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) || got == nil {
		return fmt.Errorf("Get(%q) = %q, want %q", name, got, want)
	}
	return nil
}

func wantErr(err, is error) error {
	if !errors.Is(err, is) {
		return fmt.Errorf("got %v, want an error wrapping %v", err, is)
	}
	return nil
}

// wantItems counts the items stored for name, straight from the service.
func wantItems(name string, n int) error {
	svc, err := secretservice.NewService()
	if err != nil {
		return err
	}
	items, err := svc.SearchCollection(secretservice.DefaultCollection,
		secretservice.Attributes{"service": secrets.Service, "account": name})
	if err != nil {
		return err
	}
	if len(items) != n {
		return fmt.Errorf("%d items for %q, want %d", len(items), name, n)
	}
	return nil
}

func lockDefault() error {
	svc, err := secretservice.NewService()
	if err != nil {
		return err
	}
	return svc.LockItems([]dbus.ObjectPath{secretservice.DefaultCollection})
}

func concurrent(stores ...secrets.KeyStore) error {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		ks := stores[i%len(stores)]
		wg.Go(func() {
			name := fmt.Sprintf("c%d", i)
			if err := ks.Set(name, []byte(name)); err != nil {
				errs <- err
				return
			}
			errs <- wantGet(ks, name, []byte(name), nil)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// runInKeyringSession runs the test named test in a new process inside
// dbus-run-session, after starting gnome-keyring-daemon there with a
// password, in a temporary home. It skips when the tools are missing.
func runInKeyringSession(t *testing.T, test string) {
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install dbus gnome-keyring): %v", tool, err)
		}
	}
	home := t.TempDir()
	runtime := filepath.Join(home, "run")
	if err := os.Mkdir(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const script = `printf %s airlock-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 97
exec "$0" -test.run="^$1\$" -test.v -test.count=1`
	cmd := exec.CommandContext(ctx, "dbus-run-session", "--", "sh", "-c", script, os.Args[0], test)
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "DBUS_SESSION_BUS_ADDRESS" && !strings.HasPrefix(k, "XDG_") && k != "HOME" {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, childEnv+"=1", "HOME="+home,
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_RUNTIME_DIR="+runtime,
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+test) {
		t.Fatalf("in a private keyring session: %v\n%s", err, out)
	}
	t.Logf("in a private keyring session:\n%s", out)
}

// manySessions opens enough stores (each with its own session and keys)
// that some sessions hit go-keychain's key-derivation bug (about one in
// 256; see sessionAttempts): every write and read must still succeed. Each
// round opens four or five sessions (a write is read back, a read is read
// twice), so 80 rounds make about 350: more than one bad one a run. More
// would find gnome-keyring 42's own fault: about one session open in 30,000
// makes the daemon drop off the bus ("Message recipient disconnected"; 4 of
// 72 runs of 1,100 to 4,500 sessions), which no retry here can mend.
func manySessions() error {
	for i := 0; i < 80; i++ {
		ks, err := secrets.Open()
		if err != nil {
			return fmt.Errorf("open %d: %w", i, err)
		}
		v := []byte(fmt.Sprintf("value %d", i))
		if err := ks.Set("many", v); err != nil {
			return fmt.Errorf("set %d: %w", i, err)
		}
		if err := wantGet(ks, "many", v, nil); err != nil {
			return fmt.Errorf("get %d: %w", i, err)
		}
		secrets.CloseSession(ks)
	}
	return nil
}
