//go:build linux

package secrets

import (
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"time"

	dbus "github.com/keybase/dbus"
	"github.com/keybase/go-keychain/secretservice"
)

// oakleyGroup2 is the prime of the 1024-bit MODP group (RFC 2409, second
// Oakley group) with generator 2, which the Secret Service's
// dh-ietf1024-sha256-aes128-cbc-pkcs7 algorithm uses.
var oakleyGroup2, _ = new(big.Int).SetString("FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD1"+
	"29024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6D"+
	"F25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"+
	"EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", 16)

// groupBytes is the length of the group's numbers in bytes.
const groupBytes = 128

// openSession opens an encrypted session with the Secret Service on svc's
// connection (a session belongs to the connection that opened it).
//
// It does what go-keychain's OpenSession does, but derives the session's
// AES key from the shared secret at its full length: go-keychain v0.0.1
// drops the secret's leading zero bytes (big.Int.Bytes) where the service
// keeps all 128, so about one session in 256 gets a key the service does
// not share. Most reads and writes in such a session fail to decrypt, but
// one in 256 of those passes the padding check and yields garbage: a wrong
// history key read back, or a wrong one stored.
func openSession(svc *secretservice.SecretService, timeout time.Duration) (*secretservice.Session, error) {
	// A private key in [1, p-2].
	priv, err := rand.Int(rand.Reader, new(big.Int).Sub(oakleyGroup2, big.NewInt(2)))
	if err != nil {
		return nil, err
	}
	priv.Add(priv, big.NewInt(1))
	pub := new(big.Int).Exp(big.NewInt(2), priv, oakleyGroup2)

	call := svc.ServiceObj().Go("org.freedesktop.Secret.Service.OpenSession", 0, make(chan *dbus.Call, 1),
		string(secretservice.AuthenticationDHAES), dbus.MakeVariant(pub.FillBytes(make([]byte, groupBytes))))
	var reply *dbus.Call
	select {
	case reply = <-call.Done:
	case <-time.After(timeout):
		return nil, fmt.Errorf("opening a session: no answer within %v", timeout)
	}
	var out dbus.Variant
	var path dbus.ObjectPath
	if err := reply.Store(&out, &path); err != nil {
		return nil, fmt.Errorf("opening a session: %w", err)
	}
	theirs, ok := out.Value().([]byte)
	if !ok {
		return nil, errors.New("opening a session: the service's public key is not bytes")
	}
	key, err := sessionKey(new(big.Int).SetBytes(theirs), priv)
	if err != nil {
		return nil, err
	}
	return &secretservice.Session{Mode: secretservice.AuthenticationDHAES, Path: path, Public: pub, Private: priv, AESKey: key}, nil
}

// sessionKey is the AES-128 key of a session: HKDF-SHA256, with no salt or
// info, of the Diffie-Hellman secret of theirs and priv as 128 big-endian
// bytes, leading zeros kept.
func sessionKey(theirs, priv *big.Int) ([]byte, error) {
	if theirs.Cmp(big.NewInt(1)) <= 0 || theirs.Cmp(new(big.Int).Sub(oakleyGroup2, big.NewInt(1))) >= 0 {
		return nil, errors.New("opening a session: the service's public key is out of range")
	}
	shared := new(big.Int).Exp(theirs, priv, oakleyGroup2)
	return hkdf.Key(sha256.New, shared.FillBytes(make([]byte, groupBytes)), nil, "", 16)
}
