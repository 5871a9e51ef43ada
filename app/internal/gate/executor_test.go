package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/bridge"
)

// The default executor, through the gate: a real overwrite whose old
// version lands in the freedesktop Trash.
func TestDefaultExecutorOverwritesToTheTrash(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("the macOS Trash is NSFileManager's, which runs only on a Mac")
	}
	env, home := sandbox(t)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	// A desktop with no tools in PATH: desktop actions reach the bridge,
	// which says what it lacks, and nothing runs on this machine's desktop.
	desk, err := bridge.NewDesktop(bridge.Options{Env: []string{"PATH=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := gate.DefaultExecutor(env.Paths, desk, nil)
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(home, "Documents", "a.txt")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: 2})
	if _, err := g.Submit(context.Background(), gate.Submission{Client: "t", Plan: dangerousPlan}, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "hi" {
		t.Fatalf("a.txt holds %q", b)
	}
	old, err := os.ReadFile(filepath.Join(home, ".local", "share", "Trash", "files", "a.txt"))
	if err != nil || string(old) != "old" {
		t.Fatalf("the old version in the Trash: %q, %v", old, err)
	}
	rep, err := g.Submit(context.Background(), gate.Submission{Client: "t", Plan: safePlan}, nil)
	if err == nil || rep.Actions[0].Status != gate.StatusFailed || !strings.Contains(rep.Actions[0].Error, "needs notify-send, which is not in PATH") {
		t.Fatalf("NOTIFY without notify-send: %v %+v", err, rep.Actions[0])
	}
}
