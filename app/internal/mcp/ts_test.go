package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// tsDir holds the TypeScript client and, once installed, its SDK:
// npm ci --prefix app/internal/mcp/testdata/ts
const tsDir = "testdata/ts"

// TestTypeScriptClient runs the TypeScript SDK's client, as agents built on
// it (Claude Desktop, Claude Code …) do, against `airlock mcp` while the
// person takes longer to answer than the client's time limit: with
// resetTimeoutOnProgress the progress notifications keep the call alive to
// the answer; without it the client gives up, and its request is withdrawn.
// By default the times are shortened (progress every 100 ms, a 1 s limit,
// a 3 s wait); AIRLOCK_TEST_LONG=1 runs them as they are in use (every
// 10 s, the SDK's 60 s default, a 2-minute wait).
func TestTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program and runs node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if _, err := os.Stat(filepath.Join(tsDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skip("the TypeScript SDK is not installed: npm ci --prefix app/internal/mcp/testdata/ts")
	}
	every, limit, hold := 100*time.Millisecond, time.Second, 3*time.Second
	if os.Getenv("AIRLOCK_TEST_LONG") == "1" {
		every, limit, hold = 10*time.Second, 60*time.Second, 2*time.Minute
	}
	bin, err := buildAirlock()
	if err != nil {
		t.Fatal(err)
	}
	client, err := filepath.Abs(filepath.Join(tsDir, "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}

	for _, reset := range []bool{true, false} {
		t.Run(fmt.Sprintf("resetTimeoutOnProgress=%v", reset), func(t *testing.T) {
			withdrawn := make(chan struct{})
			w := newWorld(t, gateOpts{autonomy: policy.AskAll, answer: func(ctx context.Context, r approval.Request) (approval.Answer, error) {
				// The person reads for longer than the client's limit.
				select {
				case <-time.After(hold):
					return approveAll(ctx, r)
				case <-ctx.Done():
					close(withdrawn)
					return approval.Answer{}, ctx.Err()
				}
			}})
			w.startGate()
			cmd := exec.Command(node, client)
			cmd.Env = append(os.Environ(), "HOME="+w.home, "AIRLOCK_DATA_DIR="+w.dir, "AIRLOCK_BIN="+bin,
				"PROGRESS_EVERY="+every.String(), fmt.Sprintf("TIMEOUT_MS=%d", limit.Milliseconds()),
				fmt.Sprintf("RESET=%v", reset), `ARGV=["echo","approved after the wait"]`)
			cmd.Stderr = testWriter{t}
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			start := time.Now()
			if err := cmd.Run(); err != nil {
				t.Fatalf("node: %v; stdout %s", err, stdout.String())
			}
			took := time.Since(start)
			var out struct {
				Progress int      `json:"progress"`
				Messages []string `json:"messages"`
				IsError  bool     `json:"isError"`
				Status   string   `json:"status"`
				Text     string   `json:"text"`
				Error    *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("%v: %s", err, stdout.String())
			}
			t.Logf("after %v: %d progress notifications, first %q", took.Round(time.Millisecond), out.Progress, out.Messages)
			if reset {
				if out.Error != nil || out.IsError || out.Status != gate.StatusOK || !strings.Contains(out.Text, "approved after the wait") {
					t.Fatalf("the call did not last to the person's answer: %+v", out)
				}
				if took < hold {
					t.Errorf("the call ended after %v, before the person answered (%v)", took, hold)
				}
				if min := int(hold / every / 2); out.Progress < min {
					t.Errorf("%d progress notifications over %v, want at least %d", out.Progress, hold, min)
				}
				return
			}
			if out.Error == nil || out.Error.Code != -32001 {
				t.Fatalf("without resetTimeoutOnProgress the call should time out after %v: %+v", limit, out)
			}
			select {
			case <-withdrawn:
			case <-time.After(wait):
				t.Error("the client gave up, but its request still waits for the person")
			}
		})
	}
}
