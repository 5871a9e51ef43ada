package tray_test

import (
	"fmt"
	"testing"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// BenchmarkBuild builds a full menu: every list at its longest, as the App
// does on each event.
func BenchmarkBuild(b *testing.B) {
	s := tray.State{Autonomy: policy.SmartDefault, Now: now, Hotkey: "⌃⌥⌘K", CanShowApprovals: true}
	for i := range 32 {
		s.Pending = append(s.Pending, request(fmt.Sprint(i), "mcp: client", "Write ~/Documents/report-final.txt", level.Dangerous, 3))
		s.Grants = append(s.Grants, policy.Grant{ID: fmt.Sprint(i), Text: `OPEN_URL "https://example.com/a/long/path"`, Risk: level.Caution})
	}
	for range tray.MaxRecent {
		s.Recent = append(s.Recent, entry("airlock run", "Send an email to a@example.com", level.Dangerous,
			&history.Outcome{Approval: "approved", Status: "ok"}, now))
	}
	b.ReportAllocs()
	for b.Loop() {
		tray.Build(s)
	}
}
