package history_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// TestMarkerNowhereOnDisk plants a unique marker in every sealed field and
// a secret holding another marker in every field stored in clear, then
// reads the raw bytes of the database, its WAL and its shared-memory file,
// while the history is open and after it is closed: neither marker is
// there. Recent shows the sealed marker came back, so it was really
// written.
func TestMarkerNowhereOnDisk(t *testing.T) {
	s, path, _ := open(t)
	ctx := context.Background()
	marker := "MARKER" + randHex(8)
	// A token whose random part holds a second marker; it lands in fields
	// kept in clear and must be redacted away.
	token := "ghp_" + "CLEAR" + randHex(8)[:15] + "x9Zq7Wv3Ty8Ur5Mn2Lk4"
	clearMarker := token[4:]

	for i := range 50 { // enough rows to span pages and WAL frames
		id := "req-" + randHex(4)
		must(t, s.AddRequest(ctx, history.Request{ID: id, Client: "agent/" + token, Kind: "plan " + token,
			Text: "WRITE_DOC \"~/n.md\" <<END\n" + marker + "\nEND\n"}))
		must(t, s.AddDecision(ctx, history.Decision{RequestID: id, Index: 0, Action: "SPEAK \"" + marker + "\"",
			Preview: "Say " + marker, Reasons: []string{"speaks " + marker}, Risk: level.Caution, Autonomy: i % 3, Decision: "auto"}))
		must(t, s.AddOutcome(ctx, history.Outcome{RequestID: id, Index: 0, Status: "failed", Output: "said " + marker,
			Error: "exit 1: " + marker}))
		must(t, s.AddModelCall(ctx, history.ModelCall{RequestID: id, Endpoint: "https://api.example.com/v1?key=" + token, Status: 200}))
	}

	es, err := s.Recent(ctx, 1)
	must(t, err)
	e := es[0]
	for _, v := range []string{e.Request.Text, e.Decision.Action, e.Decision.Preview, e.Decision.Reasons[0], e.Outcome.Output, e.Outcome.Error} {
		if !strings.Contains(v, marker) {
			t.Fatalf("the marker did not come back: %q", v)
		}
	}
	if strings.Contains(e.Request.Client, clearMarker) || strings.Contains(e.Request.Kind, clearMarker) {
		t.Fatalf("the token was not redacted: %q, %q", e.Request.Client, e.Request.Kind)
	}

	grep := func(when string) {
		t.Helper()
		seen := 0
		for _, suffix := range []string{"", "-wal", "-shm"} {
			b, err := os.ReadFile(path + suffix)
			if os.IsNotExist(err) {
				continue
			}
			must(t, err)
			seen += len(b)
			for _, m := range []string{marker, clearMarker} {
				if bytes.Contains(b, []byte(m)) {
					t.Errorf("%s: %q found in %s%s", when, m, path, suffix)
				}
			}
		}
		if seen == 0 {
			t.Fatalf("%s: no bytes to search", when)
		}
	}
	grep("open")
	must(t, s.Close())
	grep("closed")
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
