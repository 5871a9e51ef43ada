//go:build linux

package secrets

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"time"

	dbus "github.com/keybase/dbus"
	"github.com/keybase/go-keychain/secretservice"
)

// sessionTimeout bounds opening a session with the Secret Service.
const sessionTimeout = 5 * time.Second

// Open connects to the Secret Service (gnome-keyring, KeePassXC…) on the
// D-Bus session bus and opens an encrypted session (DH + AES). Items live in
// the default collection with the attributes service=Service and
// account=NAME.
//
// There is no fallback: without DBUS_SESSION_BUS_ADDRESS (no dbus-launch is
// started), without a Secret Service on the bus, or without a default
// collection, Open returns an error wrapping ErrUnavailable. A locked
// collection is unlocked only when that needs no prompt; otherwise each call
// fails with ErrUnavailable, since Airlock must not hang on, or be the one
// to show, a password dialog.
func Open() (KeyStore, error) {
	addr := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	if addr == "" || addr == "autolaunch:" {
		return nil, unavailable("no Secret Service: DBUS_SESSION_BUS_ADDRESS is not set, so there is no D-Bus session bus to reach one on")
	}
	svc, err := secretservice.NewService()
	if err != nil {
		return nil, unavailable("no Secret Service: cannot connect to the D-Bus session bus: %v", err)
	}
	svc.SetSessionOpenTimeout(sessionTimeout)
	session, err := svc.OpenSession(secretservice.AuthenticationDHAES)
	if err != nil {
		return nil, unavailable("no Secret Service on the D-Bus session bus: %v", err)
	}
	s := &secretService{svc: svc, session: session}
	if err := s.unlock(); err != nil {
		return nil, err
	}
	return s, nil
}

// secretService is a KeyStore in the default collection of the Secret
// Service. mu serialises the calls: the library's prompt handling is not safe
// for concurrent use.
type secretService struct {
	mu      sync.Mutex
	svc     *secretservice.SecretService
	session *secretservice.Session
}

const collection = secretservice.DefaultCollection

func (s *secretService) attributes(name string) secretservice.Attributes {
	return secretservice.Attributes{"service": Service, "account": name}
}

func (s *secretService) Get(name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.unlock(); err != nil {
		return nil, err
	}
	items, err := s.svc.SearchCollection(collection, s.attributes(name))
	if err != nil {
		return nil, unavailable("searching the keyring: %v", err)
	}
	if len(items) == 0 {
		return nil, ErrNotFound
	}
	return s.read(name, items[0])
}

// read returns the item's secret as two sessions agree on it. A session whose
// key the service does not share (see sessionAttempts) mostly fails to
// decrypt, reported by the library as (nil, nil), but about one time in 256
// its garbage passes the padding check and comes back as a secret. Two
// sessions with different keys never decrypt to the same garbage, so a value
// two sessions read alike is the stored one.
func (s *secretService) read(name string, item dbus.ObjectPath) ([]byte, error) {
	var seen []byte
	var lastErr error
	for attempt := 1; attempt <= 2*sessionAttempts; attempt++ {
		if attempt > 1 {
			if err := s.renewSession(); err != nil {
				return nil, err
			}
		}
		secret, err := s.svc.GetSecret(item, *s.session)
		switch {
		case err != nil:
			lastErr = err
		case secret == nil:
			lastErr = fmt.Errorf("the secret could not be decrypted")
		case seen != nil && bytes.Equal(seen, secret):
			return secret, nil
		default:
			seen = secret
		}
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("no two sessions read the same secret")
	}
	return nil, unavailable("reading %q from the keyring: %v", name, lastErr)
}

func (s *secretService) Set(name string, secret []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.unlock(); err != nil {
		return err
	}
	props := secretservice.NewSecretProperties("Airlock: "+name, s.attributes(name))
	// What a session with a wrong key sends can reach the service as
	// garbage that still decrypts (see read), so every write is read back.
	var lastErr error
	for attempt := 1; attempt <= sessionAttempts; attempt++ {
		if attempt > 1 {
			if err := s.renewSession(); err != nil {
				return err
			}
		}
		value, err := s.session.NewSecret(append([]byte(nil), secret...))
		if err != nil {
			return fmt.Errorf("storing %q in the keyring: %w", name, err)
		}
		item, err := s.svc.CreateItem(collection, props, value, secretservice.ReplaceBehaviorReplace)
		if err != nil {
			lastErr = err
			continue
		}
		got, err := s.read(name, item)
		if err != nil {
			return err
		}
		if bytes.Equal(got, secret) {
			return nil
		}
		lastErr = fmt.Errorf("the service stored something else than was sent")
	}
	return unavailable("storing %q in the keyring: %v", name, lastErr)
}

// sessionAttempts bounds how often one read or write is tried, each time on
// a fresh session. go-keychain v0.0.1 derives a session's AES key from the
// Diffie-Hellman secret with its leading zero bytes dropped (big.Int.Bytes),
// where gnome-keyring keeps the full 128 bytes; so about one session in 256
// gets a key the service does not share, and every secret sent or received
// in it fails to decrypt ("The secret was transferred or encrypted in an
// invalid way") — or, one time in 256 of those, decrypts to garbage (see
// read). Four sessions all failing is a chance of about 1 in 4·10⁹.
const sessionAttempts = 4

// renewSession replaces the session with a fresh one (new keys) and closes
// the old one.
func (s *secretService) renewSession() error {
	session, err := s.svc.OpenSession(secretservice.AuthenticationDHAES)
	if err != nil {
		return unavailable("no Secret Service session: %v", err)
	}
	s.svc.CloseSession(s.session)
	s.session = session
	return nil
}

func (s *secretService) Delete(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.unlock(); err != nil {
		return err
	}
	items, err := s.svc.SearchCollection(collection, s.attributes(name))
	if err != nil {
		return unavailable("searching the keyring: %v", err)
	}
	for _, item := range items {
		if err := s.svc.DeleteItem(item); err != nil {
			return unavailable("deleting %q from the keyring: %v", name, err)
		}
	}
	return nil
}

// unlock makes sure the default collection is unlocked, asking the service
// to unlock it only when that needs no prompt. A prompt the service offers
// is dismissed, never shown.
func (s *secretService) unlock() error {
	locked, err := s.svc.Obj(collection).GetProperty("org.freedesktop.Secret.Collection.Locked")
	if err != nil {
		return unavailable("the Secret Service has no default keyring: %v", err)
	}
	if l, ok := locked.Value().(bool); ok && !l {
		return nil
	}
	var unlocked []dbus.ObjectPath
	var prompt dbus.ObjectPath
	err = s.svc.ServiceObj().
		Call("org.freedesktop.Secret.Service.Unlock", 0, []dbus.ObjectPath{collection}).
		Store(&unlocked, &prompt)
	if err != nil {
		return unavailable("unlocking the default keyring: %v", err)
	}
	if prompt != secretservice.NullPrompt && prompt != "" {
		s.svc.Obj(prompt).Call("org.freedesktop.Secret.Prompt.Dismiss", 0)
	}
	if len(unlocked) == 0 {
		return unavailable("the default keyring is locked and unlocking it needs a password; unlock it (log in to the desktop, or open Passwords and Keys) and try again")
	}
	return nil
}
