package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/policy"
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

func TestModelConfig(t *testing.T) {
	s := policy.DefaultSettings()
	s.LLMModel, s.LLMAPI = "m:1b", "ollama"
	ks := secrets.NewMemory()
	cfg, err := modelConfig(s, ks)
	if err != nil || cfg.Endpoint != llm.DefaultEndpoint || cfg.Model != "m:1b" || cfg.API != llm.APIOllama || cfg.APIKey != "" {
		t.Errorf("no key: %+v, %v", cfg, err)
	}
	s.LLMKeyName = "gw"
	if _, err := modelConfig(s, ks); err == nil || !strings.Contains(err.Error(), "airlock key set gw") {
		t.Errorf("missing key: %v", err)
	}
	if err := runKeySet(ks, "gw", []byte("sk-123")); err != nil {
		t.Fatal(err)
	}
	if cfg, err := modelConfig(s, ks); err != nil || cfg.APIKey != "sk-123" {
		t.Errorf("with the key: %v", err)
	}
	ks.Locked = true
	if _, err := modelConfig(s, ks); !errors.Is(err, secrets.ErrUnavailable) {
		t.Errorf("locked store: %v", err)
	}
}
