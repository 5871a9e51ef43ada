package execute_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// scriptDesktop records the scripts it is asked to run.
type scriptDesktop struct {
	execute.Desktop
	kind, src string
	argv      []string
}

func (d *scriptDesktop) RunAppleScript(_ context.Context, src string, argv []string, _ execute.Confine) (string, error) {
	d.kind, d.src, d.argv = "applescript", src, argv
	return "result", nil
}

func (d *scriptDesktop) RunJXA(_ context.Context, src string, argv []string, _ execute.Confine) (string, error) {
	d.kind, d.src, d.argv = "jxa", src, argv
	return "result", nil
}

func TestRunScript(t *testing.T) {
	d := &scriptDesktop{Desktop: execute.Unavailable()}
	e := &execute.Executor{Desktop: d}
	ctx := context.Background()

	res, err := e.RunScript(ctx, execute.KindAppleScript, "on run argv\nreturn item 1 of argv\nend run", []string{`"; do shell script "id`}, "", ossandbox.Grant{})
	if err != nil || res.Output != "result" || d.kind != "applescript" || d.argv[0] != `"; do shell script "id` {
		t.Fatalf("applescript: %v %+v %+v", err, res, d)
	}
	if _, err := e.RunScript(ctx, execute.KindJXA, "function run(argv) { return argv[0] }", []string{"x"}, "", ossandbox.Grant{}); err != nil || d.kind != "jxa" {
		t.Fatalf("jxa: %v %+v", err, d)
	}
	res, err = e.RunScript(ctx, execute.KindCommand, "", []string{"printf", "%s", "$(id); rm -rf ~"}, "", ossandbox.Grant{})
	if err != nil || res.Output != "$(id); rm -rf ~" {
		t.Fatalf("command: %v %q", err, res.Output)
	}
	for _, tc := range []struct {
		name string
		kind string
		src  string
		argv []string
		want string
	}{
		{"control characters in an argument", execute.KindAppleScript, "x", []string{"a\x1b[2Jb"}, "control characters"},
		{"source for a command", execute.KindCommand, "rm -rf ~", nil, "as argv"},
		{"no program", execute.KindCommand, "", nil, "no program"},
		{"unknown kind", "perl", "print 1", nil, "unknown kind"},
		{"too many arguments", execute.KindJXA, "x", make([]string, 101), "at most 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.RunScript(ctx, tc.kind, tc.src, tc.argv, "", ossandbox.Grant{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
	plain := &execute.Executor{}
	if _, err := plain.RunScript(ctx, execute.KindAppleScript, "beep", nil, "", ossandbox.Grant{}); !errors.Is(err, execute.ErrUnavailable) {
		t.Fatalf("no desktop: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.RunScript(cancelled, execute.KindCommand, "", []string{"true"}, "", ossandbox.Grant{}); err == nil {
		t.Fatal("a cancelled script started")
	}
}

// Actions run one at a time: while one runs, the next waits (so no action can
// swap a folder under another's checked path), and a cancelled wait returns
// at once without running anything.
func TestOneActionAtATime(t *testing.T) {
	d := &blockingDesktop{Desktop: execute.Unavailable(), started: make(chan struct{}), release: make(chan struct{})}
	e := &execute.Executor{Desktop: d}
	ctx := context.Background()
	first := make(chan error, 1)
	go func() {
		_, err := e.RunScript(ctx, execute.KindAppleScript, "first", nil, "", ossandbox.Grant{})
		first <- err
	}()
	<-d.started
	waiting, cancel := context.WithCancel(ctx)
	second := make(chan error, 1)
	go func() {
		_, err := e.RunScript(waiting, execute.KindAppleScript, "second", nil, "", ossandbox.Grant{})
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("a second action ran alongside the first: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	if err := <-second; err == nil || !strings.Contains(err.Error(), "stopped before it started") {
		t.Fatalf("cancelled while waiting: %v", err)
	}
	close(d.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if d.runs.Load() != 1 {
		t.Fatalf("%d scripts ran, want 1", d.runs.Load())
	}
}

type blockingDesktop struct {
	execute.Desktop
	started, release chan struct{}
	runs             atomic.Int32
}

func (d *blockingDesktop) RunAppleScript(ctx context.Context, src string, argv []string, _ execute.Confine) (string, error) {
	if d.runs.Add(1) == 1 {
		close(d.started)
	}
	<-d.release
	return "", nil
}

// A folder copy refuses a relative link that climbs out of the folder: in
// the copy it would point somewhere nobody checked.
func TestCopyRefusesEscapingLinks(t *testing.T) {
	home := t.TempDir()
	docs := filepath.Join(home, "Documents")
	for _, d := range []string{"Documents/src/sub", "Documents/deep/a/b"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(docs, "src", "f.txt"), []byte("x"), 0o600)
	if err := os.Symlink("../f.txt", filepath.Join(docs, "src", "sub", "inside")); err != nil {
		t.Fatal(err)
	}
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &execute.Executor{Paths: cfg, Trash: execute.FreedesktopTrash(filepath.Join(home, ".local", "share"))}
	copyPlan := func(from, to string) error {
		p, err := action.Parse(`COPY_FILE "` + from + `" "` + to + `"`)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Run(context.Background(), p.Actions[0])
		return err
	}
	if err := copyPlan("~/Documents/src", "~/Documents/src2"); err != nil {
		t.Fatalf("a link that stays inside: %v", err)
	}
	if err := os.Symlink("../../../src/f.txt", filepath.Join(docs, "src", "sub", "out")); err != nil {
		t.Fatal(err)
	}
	err = copyPlan("~/Documents/src", "~/Documents/deep/a/b/copy")
	if err == nil || !strings.Contains(err.Error(), "outside the folder being copied") {
		t.Fatalf("a link that climbs out: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(docs, "deep", "a", "b", "copy")); !os.IsNotExist(err) {
		t.Fatalf("a refused copy left something behind: %v", err)
	}
}
