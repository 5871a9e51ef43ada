package history_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestRoundTrip: what goes in comes back out of Recent and Request,
// decrypted and joined, newest first; and the chain verifies.
func TestRoundTrip(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	req := history.Request{ID: "req-1", Time: t0, Client: "mcp:claude", Kind: "plan", Text: "NOTIFY \"a\" \"0\"\nDELETE_FILE \"~/x\"\n"}
	must(t, s.AddRequest(ctx, req))
	d0 := decision("req-1", 0, "auto")
	d1 := history.Decision{RequestID: "req-1", Index: 1, Time: t0.Add(time.Second), Action: `DELETE_FILE "~/x"`,
		Preview: "Move ~/x to the Trash", Risk: level.Dangerous, Reasons: []string{"deletes a file", "moves it to the Trash"},
		Autonomy: 1, Decision: "ask"}
	must(t, s.AddDecision(ctx, d0))
	must(t, s.AddDecision(ctx, d1))
	o0 := history.Outcome{RequestID: "req-1", Index: 0, Time: t0.Add(2 * time.Second), Status: "ok", Duration: 40 * time.Millisecond, Output: "shown"}
	must(t, s.AddOutcome(ctx, o0))
	must(t, s.AddModelCall(ctx, history.ModelCall{RequestID: "req-1", Time: t0, Endpoint: "http://localhost:11434/api/chat",
		Status: 200, Duration: time.Second, PromptTokens: 812, CompletionTokens: 64}))

	got, err := s.Recent(ctx, 10)
	must(t, err)
	if len(got) != 2 {
		t.Fatalf("Recent returned %d entries, want 2", len(got))
	}
	wantReq := req
	wantReq.Time = t0.Local()
	for _, e := range got {
		e.Request.Time = e.Request.Time.Local()
		if !reflect.DeepEqual(e.Request, wantReq) {
			t.Errorf("request = %+v, want %+v", e.Request, wantReq)
		}
	}
	d1.Time = d1.Time.Local()
	got[0].Decision.Time = got[0].Decision.Time.Local()
	if !reflect.DeepEqual(got[0].Decision, d1) || got[0].Outcome != nil {
		t.Errorf("newest entry = %+v, %+v; want %+v and no outcome", got[0].Decision, got[0].Outcome, d1)
	}
	o0.Time = o0.Time.Local()
	got[1].Outcome.Time = got[1].Outcome.Time.Local()
	if got[1].Decision.Index != 0 || got[1].Outcome == nil || !reflect.DeepEqual(*got[1].Outcome, o0) {
		t.Errorf("older entry outcome = %+v, want %+v", got[1].Outcome, o0)
	}

	r, es, err := s.Request(ctx, "req-1")
	must(t, err)
	if r.Text != req.Text || len(es) != 2 || es[0].Decision.Index != 0 || es[1].Decision.Index != 1 {
		t.Errorf("Request = %+v, %d entries", r, len(es))
	}
	if _, _, err := s.Request(ctx, "nope"); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("Request of an unknown id: %v, want ErrNotFound", err)
	}
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("Verify: %v", err)
	}
}

// TestRedactedBeforeStored: secrets in any text field come back as
// markers, never as themselves.
func TestRedactedBeforeStored(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	const key = "ghp_Zk3d9QmR4tVb7XyP2sLw8NcJ5hGf1aEu6oIq"
	must(t, s.AddRequest(ctx, history.Request{ID: "r", Client: "agent " + key, Kind: "plan", Text: "export GITHUB_TOKEN=" + key}))
	must(t, s.AddDecision(ctx, history.Decision{RequestID: "r", Action: "curl -H 'Authorization: Bearer " + key + "'",
		Preview: key, Reasons: []string{"sends " + key}, Decision: "ask", Risk: level.Dangerous, Autonomy: 1}))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "r", Status: "failed", Output: "token " + key, Error: "bad credentials: " + key}))
	es, err := s.Recent(ctx, 1)
	must(t, err)
	e := es[0]
	for name, v := range map[string]string{
		"client": e.Request.Client, "text": e.Request.Text, "action": e.Decision.Action, "preview": e.Decision.Preview,
		"reasons": strings.Join(e.Decision.Reasons, " "), "output": e.Outcome.Output, "error": e.Outcome.Error,
	} {
		if strings.Contains(v, key) || !strings.Contains(v, "[redacted:") {
			t.Errorf("%s = %q: want the key replaced by a marker", name, v)
		}
	}
}

// TestInvalid: records the history refuses, with ErrInvalid, and nothing
// written for them.
func TestInvalid(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	action(t, s, "r")
	ok := decision("r", 1, "ask")
	tests := []struct {
		name string
		add  func() error
	}{
		{"request without id", func() error { return s.AddRequest(ctx, history.Request{Text: "x"}) }},
		{"unknown decision", func() error { d := ok; d.Decision = "approve-myself"; return s.AddDecision(ctx, d) }},
		{"risk off the scale", func() error { d := ok; d.Risk = level.Blocked + 1; return s.AddDecision(ctx, d) }},
		{"autonomy 3", func() error { d := ok; d.Autonomy = 3; return s.AddDecision(ctx, d) }},
		{"negative index", func() error { d := ok; d.Index = -1; return s.AddDecision(ctx, d) }},
		{"decision without request id", func() error { d := ok; d.RequestID = ""; return s.AddDecision(ctx, d) }},
		{"unknown approval", func() error {
			return s.AddOutcome(ctx, history.Outcome{RequestID: "r", Index: 0, Approval: "self-approved", Status: "ok"})
		}},
		{"unknown status", func() error { return s.AddOutcome(ctx, history.Outcome{RequestID: "r", Index: 0, Status: "great"}) }},
		{"negative duration", func() error {
			return s.AddOutcome(ctx, history.Outcome{RequestID: "r", Index: 0, Status: "ok", Duration: -1})
		}},
		{"model call with negative tokens", func() error { return s.AddModelCall(ctx, history.ModelCall{PromptTokens: -1}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.add(); !errors.Is(err, history.ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
		})
	}
	es, err := s.Recent(ctx, 10)
	must(t, err)
	if len(es) != 1 {
		t.Fatalf("%d entries after refused records, want 1", len(es))
	}
}

// TestBadRecordInBatch: an outcome for an action never decided fails, and
// only its own caller; concurrent good records in the same batch land.
func TestBadRecordInBatch(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	must(t, s.AddRequest(ctx, history.Request{ID: "r"}))
	var wg sync.WaitGroup
	errs := make([]error, 40)
	for i := range errs {
		wg.Go(func() {
			if i%10 == 3 {
				errs[i] = s.AddOutcome(ctx, history.Outcome{RequestID: "r", Index: 1000 + i, Status: "ok"})
			} else {
				errs[i] = s.AddDecision(ctx, decision("r", i, "auto"))
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if (i%10 == 3) != (err != nil) {
			t.Errorf("record %d: err = %v", i, err)
		}
	}
	_, es, err := s.Request(ctx, "r")
	must(t, err)
	if len(es) != 36 {
		t.Errorf("%d decisions stored, want 36", len(es))
	}
	must(t, s.Verify(ctx))
}

// TestConcurrentWriters: many writers, one chain, nothing lost.
func TestConcurrentWriters(t *testing.T) {
	s, path, ks := open(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				action(t, s, fmt.Sprintf("g%d-%d", g, i))
			}
		})
	}
	wg.Wait()
	es, err := s.Recent(context.Background(), 1000)
	must(t, err)
	if len(es) != 200 {
		t.Fatalf("%d entries, want 200", len(es))
	}
	must(t, s.Close())
	must(t, history.VerifyFile(path, ks))
}

// TestReopen: the chain continues across Close and Open.
func TestReopen(t *testing.T) {
	s, path, ks := open(t)
	action(t, s, "a")
	must(t, s.Close())
	s2, err := history.Open(path, ks)
	must(t, err)
	defer s2.Close()
	action(t, s2, "b")
	must(t, s2.Verify(context.Background()))
	es, err := s2.Recent(context.Background(), 10)
	must(t, err)
	if len(es) != 2 || es[0].Request.ID != "b" || es[1].Request.ID != "a" {
		t.Fatalf("entries after reopen: %+v", es)
	}
}

// TestClosed: every method after Close says ErrClosed.
func TestClosed(t *testing.T) {
	s, _, _ := open(t)
	must(t, s.Close())
	ctx := context.Background()
	for name, err := range map[string]error{
		"AddRequest": s.AddRequest(ctx, history.Request{ID: "x"}),
		"Verify":     s.Verify(ctx),
		"Close":      s.Close(),
	} {
		if !errors.Is(err, history.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if _, err := s.Recent(ctx, 1); !errors.Is(err, history.ErrClosed) {
		t.Errorf("Recent after Close: %v", err)
	}
}

// TestLockedKeyStore: with the key store locked, Open fails with
// ErrUnavailable; a new history leaves no file and no key behind, and an
// existing one is not written to.
func TestLockedKeyStore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	ks := secrets.NewMemory()
	ks.Locked = true
	if _, err := history.Open(path, ks); !errors.Is(err, secrets.ErrUnavailable) {
		t.Fatalf("Open with a locked key store: %v, want ErrUnavailable", err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("files left behind: %v", names)
	}

	ks.Locked = false
	s, err := history.Open(path, ks)
	must(t, err)
	action(t, s, "a")
	must(t, s.Close())
	before, err := os.ReadFile(path)
	must(t, err)

	ks.Locked = true
	if _, err := history.Open(path, ks); !errors.Is(err, secrets.ErrUnavailable) {
		t.Fatalf("reopen with a locked key store: %v, want ErrUnavailable", err)
	}
	if err := history.VerifyFile(path, ks); !errors.Is(err, secrets.ErrUnavailable) {
		t.Fatalf("VerifyFile with a locked key store: %v, want ErrUnavailable", err)
	}
	after, err := os.ReadFile(path)
	must(t, err)
	if string(before) != string(after) {
		t.Error("the file changed while the key store was locked")
	}
	if _, err := history.Open(path, nil); !errors.Is(err, secrets.ErrUnavailable) {
		t.Errorf("Open with no key store: %v, want ErrUnavailable", err)
	}
}

// TestFirstOpenLeavesNoKeyOnFailure: when the file cannot be created, the
// key made for it is deleted again.
func TestFirstOpenLeavesNoKeyOnFailure(t *testing.T) {
	ks := &countingKeys{Memory: secrets.NewMemory()}
	_, err := history.Open(filepath.Join(t.TempDir(), "missing-dir", "history.db"), ks)
	if err == nil {
		t.Fatal("Open in a missing directory succeeded")
	}
	if ks.sets == 0 || ks.live() != 0 {
		t.Errorf("after a failed first Open: %d keys set, %d still stored", ks.sets, ks.live())
	}
}

type countingKeys struct {
	*secrets.Memory
	mu    sync.Mutex
	sets  int
	names map[string]bool
}

func (k *countingKeys) Set(name string, b []byte) error {
	k.mu.Lock()
	k.sets++
	if k.names == nil {
		k.names = map[string]bool{}
	}
	k.names[name] = true
	k.mu.Unlock()
	return k.Memory.Set(name, b)
}

func (k *countingKeys) live() int {
	n := 0
	for name := range k.names {
		if _, err := k.Get(name); err == nil {
			n++
		}
	}
	return n
}

// TestRotate: after Rotate new rows use the new key, old rows still open
// with the old one, and both keys are needed.
func TestRotate(t *testing.T) {
	s, path, ks := open(t)
	ctx := context.Background()
	action(t, s, "old")
	id, err := s.Rotate(ctx)
	must(t, err)
	if _, err := ks.Get(history.KeyName(id)); err != nil {
		t.Fatalf("the new key is not in the key store under %s: %v", history.KeyName(id), err)
	}
	action(t, s, "new")
	must(t, s.Close())

	s2, err := history.Open(path, ks)
	must(t, err)
	action(t, s2, "newer")
	es, err := s2.Recent(ctx, 10)
	must(t, err)
	if len(es) != 3 {
		t.Fatalf("%d entries, want 3", len(es))
	}
	must(t, s2.Verify(ctx))
	must(t, s2.Close())

	var ids []string
	rows, err := raw(t, path).Query("SELECT DISTINCT key_id FROM decisions ORDER BY seq")
	must(t, err)
	for rows.Next() {
		var k string
		must(t, rows.Scan(&k))
		ids = append(ids, k)
	}
	rows.Close()
	if len(ids) != 2 || ids[1] != id {
		t.Fatalf("key ids in use: %v, want the old one then %s", ids, id)
	}
	// Without the old key the old rows cannot be read or verified.
	must(t, ks.Delete(history.KeyName(ids[0])))
	err = history.VerifyFile(path, ks)
	if te := tamperErrors(err); len(te) == 0 || te[0].Seq != 1 {
		t.Fatalf("VerifyFile without the old key: %v", err)
	}
}

// TestNewerSchema: a file from a newer Airlock is refused, not rewritten.
func TestNewerSchema(t *testing.T) {
	s, path, ks := open(t)
	must(t, s.Close())
	edit(t, raw(t, path), "PRAGMA user_version = 99")
	if _, err := history.Open(path, ks); err == nil || !strings.Contains(err.Error(), "schema version 99") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
}
