package llm_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/llm"
)

func TestKeyNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"openai", true},
		{"work-gateway_2.prod", true},
		{"", false},
		{"a/b", false},
		{"../history-key-x", false},
		{"key name", false},
		{strings.Repeat("k", 65), false},
	} {
		if got := llm.ValidKeyName(tc.name); got != tc.ok {
			t.Errorf("ValidKeyName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
	// API keys live apart from the history's keys ("history-key-ID").
	if got := llm.KeyStoreName("history-key-abc"); !strings.HasPrefix(got, "llm-api-key-") {
		t.Errorf("KeyStoreName = %q", got)
	}
}
