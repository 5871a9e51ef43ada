package secrets_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

func TestMemory(t *testing.T) {
	m := secrets.NewMemory()
	if _, err := m.Get("k"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("Get of a missing name: %v, want ErrNotFound", err)
	}
	if err := m.Set("k", []byte("v1")); err != nil {
		t.Fatal(err)
	}
	got, err := m.Get("k")
	if err != nil || !bytes.Equal(got, []byte("v1")) {
		t.Fatalf("Get = %q, %v", got, err)
	}
	got[0] = 'x' // callers own what they get
	if again, _ := m.Get("k"); !bytes.Equal(again, []byte("v1")) {
		t.Fatalf("store shared its bytes: %q", again)
	}
	m.Locked = true
	if _, err := m.Get("k"); !errors.Is(err, secrets.ErrUnavailable) {
		t.Fatalf("Get while locked: %v, want ErrUnavailable", err)
	}
	if err := m.Set("k", nil); !errors.Is(err, secrets.ErrUnavailable) {
		t.Fatalf("Set while locked: %v, want ErrUnavailable", err)
	}
	m.Locked = false
	if err := m.Delete("k"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Get("k"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("Get after Delete: %v", err)
	}
}
