//go:build linux

package secrets

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"math/big"
	"testing"
)

// TestSessionKeyKeepsLeadingZeros: the session key comes from the shared
// secret as 128 bytes, leading zeros and all, as the Secret Service derives
// it. Private keys are searched for whose shared secret with a fixed public
// key starts with a zero byte (one in 256), the case go-keychain got wrong.
func TestSessionKeyKeepsLeadingZeros(t *testing.T) {
	theirs := new(big.Int).Exp(big.NewInt(2), big.NewInt(123456789), oakleyGroup2)
	found := 0
	for i := int64(2); found < 3 && i < 1_000_000; i++ {
		priv := big.NewInt(i)
		shared := new(big.Int).Exp(theirs, priv, oakleyGroup2)
		full := shared.FillBytes(make([]byte, groupBytes))
		if full[0] != 0 {
			continue
		}
		found++
		got, err := sessionKey(theirs, priv)
		if err != nil {
			t.Fatal(err)
		}
		want, err := hkdf.Key(sha256.New, full, nil, "", 16)
		if err != nil {
			t.Fatal(err)
		}
		short, err := hkdf.Key(sha256.New, shared.Bytes(), nil, "", 16)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || bytes.Equal(got, short) {
			t.Fatalf("private key %d: session key %x, want %x (not %x, the key without the leading zeros)", i, got, want, short)
		}
	}
	if found == 0 {
		t.Fatal("no private key gave a shared secret with a leading zero byte")
	}
	for _, bad := range []*big.Int{big.NewInt(0), big.NewInt(1), new(big.Int).Sub(oakleyGroup2, big.NewInt(1)), oakleyGroup2} {
		if _, err := sessionKey(bad, big.NewInt(5)); err == nil {
			t.Errorf("public key %v accepted", bad)
		}
	}
}
