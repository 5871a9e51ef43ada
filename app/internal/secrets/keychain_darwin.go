//go:build darwin

package secrets

import (
	"errors"
	"sync"

	"github.com/keybase/go-keychain"
)

// Open returns the login Keychain: generic passwords under service Service,
// account NAME, never synchronised. What protects them is the login
// keychain's: it is encrypted with the login password and unlocked while the
// person is logged in, and each item's access list lets the app that made it
// (by its code signature) read it without asking; any other program, or a
// rebuild with another signature, makes macOS ask the person. The item
// accessibility classes ("when unlocked, this device only") are not claimed:
// on macOS they apply only to the data-protection keychain or to
// synchronised items (Apple's kSecAttrAccessible documentation), and the
// data-protection keychain needs a provisioning profile that an ad-hoc or
// plain Developer ID build does not have. A locked or missing keychain
// makes each call fail with an error wrapping ErrUnavailable.
func Open() (KeyStore, error) { return &keychainStore{}, nil }

// keychainStore serialises its calls, so that Set's add-then-update is not
// raced by another Set.
type keychainStore struct{ mu sync.Mutex }

func (k *keychainStore) Get(name string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	data, err := keychain.GetGenericPassword(Service, name, "", "")
	if err != nil {
		return nil, keychainErr("reading "+name, err)
	}
	if data == nil {
		return nil, ErrNotFound
	}
	return data, nil
}

func (k *keychainStore) Set(name string, secret []byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	item := keychain.NewGenericPassword(Service, name, "Airlock: "+name, secret, "")
	item.SetSynchronizable(keychain.SynchronizableNo)
	err := keychain.AddItem(item)
	if errors.Is(err, keychain.ErrorDuplicateItem) {
		query := keychain.NewItem()
		query.SetSecClass(keychain.SecClassGenericPassword)
		query.SetService(Service)
		query.SetAccount(name)
		update := keychain.NewItem()
		update.SetData(secret)
		err = keychain.UpdateItem(query, update)
	}
	if err != nil {
		return keychainErr("storing "+name, err)
	}
	return nil
}

func (k *keychainStore) Delete(name string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	err := keychain.DeleteGenericPasswordItem(Service, name)
	if err != nil && !errors.Is(err, keychain.ErrorItemNotFound) {
		return keychainErr("deleting "+name, err)
	}
	return nil
}

// keychainErr wraps ErrUnavailable around every Keychain failure: locked,
// missing, access denied or otherwise, the caller must not go on without
// its keys.
func keychainErr(what string, err error) error {
	switch {
	case errors.Is(err, keychain.ErrorInteractionNotAllowed):
		return unavailable("%s: the Keychain is locked", what)
	case errors.Is(err, keychain.ErrorNoSuchKeychain), errors.Is(err, keychain.ErrorNotAvailable):
		return unavailable("%s: there is no Keychain to use", what)
	}
	return unavailable("%s: %v", what, err)
}
