package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestStatusSaysHowToStartTheGate checks what the clients say when no gate
// runs: how to start one where `airlock serve` can, and why not where it
// cannot (no key store for the history's key), never a command that fails.
func TestStatusSaysHowToStartTheGate(t *testing.T) {
	tempUser(t)
	old := openKeyStore
	t.Cleanup(func() { openKeyStore = old })

	openKeyStore = func() (secrets.KeyStore, error) { return secrets.NewMemory(), nil }
	code, _, errOut := runCLI(t, "", "status")
	if code != 1 || !strings.Contains(errOut, "start it with `airlock serve` or open Airlock") {
		t.Errorf("with a key store: exit %d, %q", code, errOut)
	}

	openKeyStore = func() (secrets.KeyStore, error) {
		return nil, errors.New("key store unavailable: no Secret Service: DBUS_SESSION_BUS_ADDRESS is not set")
	}
	for _, cmd := range [][]string{{"status"}, {"history"}, {"kill"}} {
		code, _, errOut = runCLI(t, "", cmd...)
		if code != 1 || strings.Contains(errOut, "start it with `airlock serve`") ||
			!strings.Contains(errOut, "`airlock serve` cannot start one here: key store unavailable") || !strings.Contains(errOut, "desktop session") {
			t.Errorf("%s without a key store: exit %d, %q", cmd[0], code, errOut)
		}
	}
}
