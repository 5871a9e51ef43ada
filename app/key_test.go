package main

import (
	"errors"
	"testing"

	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

func TestRunKeySet(t *testing.T) {
	ks := secrets.NewMemory()
	if err := runKeySet(ks, "gw", []byte("  sk-abc123\r")); err != nil {
		t.Fatal(err)
	}
	if got, err := ks.Get(llm.KeyStoreName("gw")); err != nil || string(got) != "sk-abc123" {
		t.Errorf("stored %q, %v", got, err)
	}
	if _, err := ks.Get("gw"); !errors.Is(err, secrets.ErrNotFound) {
		t.Error("the key was stored under its bare name, where Airlock's own keys live")
	}
	for _, bad := range []string{"", "  ", "sk abc", "sk\x1babc", "sk\xffabc"} {
		if err := runKeySet(ks, "x", []byte(bad)); err == nil {
			t.Errorf("runKeySet(%q) stored it", bad)
		}
	}
	ks.Locked = true
	if err := runKeySet(ks, "gw", []byte("k")); !errors.Is(err, secrets.ErrUnavailable) {
		t.Errorf("locked store: %v", err)
	}
}
