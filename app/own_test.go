package main

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/bundle"
	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestOwnFileNames: the names datadir lists as Airlock's own files are the
// names their owners use, so the rules that keep actions away from them
// name the real files.
func TestOwnFileNames(t *testing.T) {
	for _, tt := range []struct{ listed, used string }{
		{datadir.SettingsFile, policy.SettingsFile},
		{datadir.HistoryFile, historyFile},
		{datadir.SocketFile, ipc.SocketName},
		{datadir.LockFile, ipc.LockName},
		{strings.ToLower(bundle.DefaultBundleID), strings.ToLower(secrets.Service)},
	} {
		if tt.listed != tt.used {
			t.Errorf("datadir lists %q, but the file is %q", tt.listed, tt.used)
		}
	}
}
