package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agreeSettings give sandbox roots that are not the defaults.
const agreeSettings = `{"roots": ["~/Work", "~/Documents/Shared"]}`

// TestAssessAgreesWithTheGate rates every plan and script of
// testdata/agree three ways — `airlock assess`, MCP assess, and a dry run
// through a running gate — under settings with sandbox roots of their own,
// and checks that the three give the same risk. The corpus holds inputs the
// default roots rate differently, so a verdict that ignored the settings
// fails here.
func TestAssessAgreesWithTheGate(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "agree", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{".plan": "dsl", ".applescript": "applescript", ".jxa": "jxa"}
	w := newWorld(t, agreeSettings)
	for _, d := range []string{"Work", "Documents/Shared"} {
		if err := os.MkdirAll(filepath.Join(w.home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.startGate()

	// MCP assess, in this process, reading the same settings.
	t.Setenv("HOME", w.home)
	t.Setenv("AIRLOCK_DATA_DIR", filepath.Join(w.home, "airlock-data"))
	st, ct := mcp.NewInMemoryTransports()
	ss, err := airmcp.NewServer(airmcp.Config{}).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agree", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })

	defaults, err := sanitize.NewConfig(w.home, nil)
	if err != nil {
		t.Fatal(err)
	}
	rated, differ := 0, 0
	for _, f := range files {
		// The clients run in the home: they are given the file by its
		// full path.
		if f, err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
		kind, ok := kinds[filepath.Ext(f)]
		if !ok {
			continue
		}
		rated++
		name := filepath.Base(f)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}

		out, code := w.client("", "assess", "--kind", kind, "--json", f)
		var v struct {
			Risk string `json:"risk"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
			t.Fatalf("%s: assess: exit %d, %v\n%s", name, code, err, out)
		}

		out, _ = w.client("", "run", "--dry-run", "--json", "--kind", kind, f)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var rep gate.Report
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rep); err != nil || rep.Request == "" {
			t.Fatalf("%s: run --dry-run: %v\n%s", name, err, out)
		}
		if rep.Status != gate.StatusDryRun && rep.Status != gate.StatusRefused && rep.Status != gate.StatusRejected {
			t.Errorf("%s: the dry run ended %q: %s", name, rep.Status, out)
		}

		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: airmcp.ToolAssess,
			Arguments: map[string]any{"kind": kind, "input": string(src)}})
		if err != nil || res.IsError {
			t.Fatalf("%s: MCP assess: %v %+v", name, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var mv airmcp.Verdict
		if err := json.Unmarshal(b, &mv); err != nil {
			t.Fatal(err)
		}

		if v.Risk != rep.Risk || mv.Risk != rep.Risk {
			t.Errorf("%s: airlock assess says %s, MCP assess %s, the gate %s", name, v.Risk, mv.Risk, rep.Risk)
		}
		k, _ := risk.ParseKind(kind)
		if def := risk.Assess(k, string(src), &risk.Env{Paths: defaults}).Level.String(); def != rep.Risk {
			differ++
			t.Logf("%s: %s under these settings, %s under the default roots", name, rep.Risk, def)
		}
	}
	if rated < 10 {
		t.Errorf("only %d inputs rated", rated)
	}
	if differ < 3 {
		t.Errorf("only %d inputs are rated differently under the default roots: the corpus cannot tell settings read from settings ignored", differ)
	}
}
