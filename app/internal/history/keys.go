package history

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

// KeyName is the name the key with the given id is kept under in the key
// store (the Keychain item's account on macOS).
func KeyName(keyID string) string { return "history-key-" + keyID }

// anchorName is where Close anchors the chain's head for the database
// with the given id.
func anchorName(dbID string) string { return "history-anchor-" + dbID }

const (
	keySize    = 32
	sealFormat = 1 // first byte of every sealed value
)

// errUnknownKey means a row names a key id the key store does not hold.
var errUnknownKey = errors.New("key not in the key store")

// A keyring is one key id's derived keys: AES-256-GCM for sealing and
// HMAC-SHA256 for the chain.
type keyring struct {
	id    string
	aead  cipher.AEAD
	chain []byte
}

func newKeyring(id string, master []byte) (*keyring, error) {
	if len(master) != keySize {
		return nil, fmt.Errorf("key %s is %d bytes, want %d", id, len(master), keySize)
	}
	sk, err := hkdf.Key(sha256.New, master, nil, "airlock history seal v1", keySize)
	if err != nil {
		return nil, err
	}
	ck, err := hkdf.Key(sha256.New, master, nil, "airlock history chain v1", keySize)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(sk)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &keyring{id: id, aead: aead, chain: ck}, nil
}

// ad is the associated data of a sealed value: it binds the value to its
// table, row, column and key.
func ad(table string, seq int64, col, keyID string) []byte {
	b := make([]byte, 0, 64)
	b = append(b, "airlock-history-seal-v1\x00"...)
	b = append(b, table...)
	b = append(b, 0)
	b = binary.BigEndian.AppendUint64(b, uint64(seq))
	b = append(b, col...)
	b = append(b, 0)
	b = append(b, keyID...)
	return b
}

// seal encrypts plaintext for one cell: format byte, random nonce,
// ciphertext and tag.
func (k *keyring) seal(table string, seq int64, col, plaintext string) []byte {
	ns := k.aead.NonceSize()
	out := make([]byte, 1+ns, 1+ns+len(plaintext)+k.aead.Overhead())
	out[0] = sealFormat
	rand.Read(out[1 : 1+ns]) // never fails (crypto/rand)
	return k.aead.Seal(out, out[1:1+ns], []byte(plaintext), ad(table, seq, col, k.id))
}

// open decrypts one cell sealed by seal for the same table, row, column
// and key; anything else fails.
func (k *keyring) open(table string, seq int64, col string, sealed []byte) (string, error) {
	ns := k.aead.NonceSize()
	if len(sealed) < 1+ns+k.aead.Overhead() || sealed[0] != sealFormat {
		return "", errors.New("not a sealed value")
	}
	p, err := k.aead.Open(nil, sealed[1:1+ns], sealed[1+ns:], ad(table, seq, col, k.id))
	if err != nil {
		return "", err
	}
	return string(p), nil
}

func (k *keyring) mac() *hmacWriter {
	return &hmacWriter{h: hmac.New(sha256.New, k.chain)}
}

// keys loads keyrings from the key store on first use and keeps them.
type keys struct {
	ks secrets.KeyStore
	mu sync.Mutex
	m  map[string]*keyring // guarded by mu
}

func newKeys(ks secrets.KeyStore) *keys { return &keys{ks: ks, m: map[string]*keyring{}} }

// get returns the keyring for id. Errors wrap secrets.ErrUnavailable when
// the store is locked or missing, and errUnknownKey when it does not hold
// the key.
func (k *keys) get(id string) (*keyring, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if kr := k.m[id]; kr != nil {
		return kr, nil
	}
	master, err := k.ks.Get(KeyName(id))
	if errors.Is(err, secrets.ErrNotFound) {
		return nil, fmt.Errorf("reading key %s: %w", id, errUnknownKey)
	}
	if err != nil {
		return nil, fmt.Errorf("reading key %s: %w", id, err)
	}
	kr, err := newKeyring(id, master)
	clear(master)
	if err != nil {
		return nil, err
	}
	k.m[id] = kr
	return kr, nil
}

// create makes a new random key, stores it in the key store and returns
// its keyring. Nothing is kept if the store refuses.
func (k *keys) create() (*keyring, error) {
	id := randomHex(8)
	master := make([]byte, keySize)
	rand.Read(master)
	defer clear(master)
	if err := k.ks.Set(KeyName(id), master); err != nil {
		return nil, fmt.Errorf("storing a new key: %w", err)
	}
	kr, err := newKeyring(id, master)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	k.m[id] = kr
	k.mu.Unlock()
	return kr, nil
}

// forget deletes a key this process created but could not use, so a
// failed first Open leaves nothing behind.
func (k *keys) forget(id string) {
	k.mu.Lock()
	delete(k.m, id)
	k.mu.Unlock()
	k.ks.Delete(KeyName(id))
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
