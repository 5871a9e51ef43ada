package bridge_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/bridge"
)

func TestOwnerAuthError(t *testing.T) {
	for _, tc := range []struct {
		code      int
		msg       string
		want      string
		cancelled bool
	}{
		{-2, "Canceled by user.", "owner authentication: cancelled (Canceled by user.)", true},
		{-4, "", "owner authentication: cancelled by macOS (another app came to the front)", true},
		{-9, "", "owner authentication: withdrawn", true},
		{-1, "Application retry limit exceeded.", "owner authentication: the owner could not be verified (Application retry limit exceeded.)", false},
		{-5, "", "owner authentication: this Mac has no login password, so its owner cannot be verified", false},
		{-77, "odd\u202e", "owner authentication: LocalAuthentication error -77 (odd⟨U+202E⟩)", false},
	} {
		e := &bridge.OwnerAuthError{Code: tc.code, Message: tc.msg}
		if got := e.Error(); got != tc.want {
			t.Errorf("code %d: %q, want %q", tc.code, got, tc.want)
		}
		if e.Cancelled() != tc.cancelled {
			t.Errorf("code %d: Cancelled() = %v", tc.code, e.Cancelled())
		}
	}
}

// Outside macOS there is no owner authentication: Authenticate refuses,
// and says so, rather than letting anything through.
func TestAuthenticateElsewhere(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("asks the real LocalAuthentication")
	}
	if bridge.OwnerAuthAvailable() {
		t.Error("owner authentication claimed available")
	}
	if err := bridge.Authenticate(context.Background(), "switch to Level 2"); !errors.Is(err, bridge.ErrNoOwnerAuth) {
		t.Errorf("Authenticate = %v, want ErrNoOwnerAuth", err)
	}
	if err := bridge.Authenticate(context.Background(), " \t "); err == nil || !strings.Contains(err.Error(), "no reason") {
		t.Errorf("Authenticate with no reason = %v", err)
	}
}
