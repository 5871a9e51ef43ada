package execute_test

import (
	"bufio"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// sandbox is a fake home in a temporary folder: ~/Documents is the only
// sandbox root, ~/.ssh a credential store, and the Trash is the home's
// freedesktop trash.
type sandbox struct {
	home  string
	trash string // ~/.local/share/Trash
	ex    *execute.Executor
}

func newSandbox(t testing.TB) *sandbox {
	t.Helper()
	base := tempDir(t)
	home := filepath.Join(base, "home")
	for _, d := range []string{"Documents", ".ssh", ".local/share"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sanitize.NewConfig(home, []string{"~/Documents"})
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(home, ".local/share")
	return &sandbox{
		home:  home,
		trash: filepath.Join(data, "Trash"),
		ex:    &execute.Executor{Paths: cfg, Trash: execute.FreedesktopTrash(data)},
	}
}

// tempDir is t.TempDir, or a folder under /tmp when TMPDIR lies where the
// sanitiser refuses everything (a system folder such as /var/tmp).
func tempDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	probe, err := sanitize.NewConfig("/nonexistent-home", []string{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k := probe.Classify(res).Kind; k == sanitize.ZoneSystem || k == sanitize.ZoneCredential {
		dir, err = os.MkdirTemp("/tmp", "execute-test-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	res, err = filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// p is a path in the fake home.
func (s *sandbox) p(rel string) string { return filepath.Join(s.home, rel) }

func (s *sandbox) write(t testing.TB, rel, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.p(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.p(rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run parses one line of the DSL and runs it.
func (s *sandbox) run(t testing.TB, src string) (execute.Result, error) {
	t.Helper()
	return s.ex.Run(context.Background(), s.parse(t, src))
}

// parse parses one line of the DSL, HOME in it standing for the fake home.
func (s *sandbox) parse(t testing.TB, src string) action.Action {
	t.Helper()
	plan, err := action.Parse(strings.ReplaceAll(src, "HOME", s.home))
	if err != nil {
		t.Fatalf("parsing %q: %v", src, err)
	}
	if len(plan.Actions) != 1 {
		t.Fatalf("%q parsed to %d actions", src, len(plan.Actions))
	}
	return plan.Actions[0]
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// trashInfo reads and checks the .trashinfo of an item in the Trash and
// returns its decoded original path and deletion time.
func trashInfo(t testing.TB, where string) (string, time.Time) {
	t.Helper()
	trash := filepath.Dir(filepath.Dir(where))
	if filepath.Base(filepath.Dir(where)) != "files" {
		t.Fatalf("%s is not in a Trash/files folder", where)
	}
	f, err := os.Open(filepath.Join(trash, "info", filepath.Base(where)+".trashinfo"))
	if err != nil {
		t.Fatalf("the trashed item has no info file: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() || sc.Text() != "[Trash Info]" {
		t.Fatalf("info file does not start with [Trash Info]")
	}
	var path string
	var when time.Time
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			t.Fatalf("info line %q is not key=value", sc.Text())
		}
		switch k {
		case "Path":
			if i := strings.IndexFunc(v, notEscaped); i >= 0 {
				t.Fatalf("Path %q holds %q unescaped", v, v[i])
			}
			path, err = url.PathUnescape(v)
			if err != nil {
				t.Fatalf("Path %q is not percent-encoded: %v", v, err)
			}
		case "DeletionDate":
			when, err = time.ParseInLocation("2006-01-02T15:04:05", v, time.Local)
			if err != nil {
				t.Fatalf("DeletionDate %q: %v", v, err)
			}
		default:
			t.Fatalf("unexpected key %q", k)
		}
	}
	if path == "" || when.IsZero() {
		t.Fatalf("info file lacks Path or DeletionDate")
	}
	return path, when
}

// leftovers lists Airlock's temporary files in dir.
func leftovers(t testing.TB, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".airlock-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// notEscaped reports a character the Path key must percent-encode.
func notEscaped(r rune) bool {
	return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-_.~/%", r))
}
