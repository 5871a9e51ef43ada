package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// madeAhead waits until t has a folder made ahead, and returns it.
func madeAhead(tb testing.TB, t *tempAhead) string {
	tb.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		t.mu.Lock()
		dir, making := t.dir, t.making
		t.mu.Unlock()
		if dir != "" && !making {
			return dir
		}
	}
	tb.Fatal("no folder was made ahead")
	return ""
}

// settled waits until no folder is being made.
func settled(tb testing.TB, t *tempAhead) {
	tb.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		t.mu.Lock()
		making := t.making
		t.mu.Unlock()
		if !making {
			return
		}
	}
	tb.Fatal("a folder is still being made")
}

// TestTempAheadTaken: the folder made ahead is the next action's: in the
// system's temporary folder, empty, mode 0700; an action after it gets
// another one, never the same.
func TestTempAheadTaken(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var ta tempAhead
	t.Cleanup(ta.close)
	ta.fill(nil)
	ahead := madeAhead(t, &ta)
	got, err := ta.take()
	if err != nil {
		t.Fatal(err)
	}
	if got != ahead || filepath.Dir(got) != tmp {
		t.Fatalf("took %s, made ahead %s (TMPDIR %s)", got, ahead, tmp)
	}
	fi, err := os.Stat(got)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the folder taken: %v, %v", fi, err)
	}
	// None made ahead: one is made at once.
	again, err := ta.take()
	if err != nil {
		t.Fatal(err)
	}
	if again == got {
		t.Fatal("the same folder was handed out twice")
	}
	os.RemoveAll(got)
	os.RemoveAll(again)
	ta.fill(nil)
	if next := madeAhead(t, &ta); next == got || next == again {
		t.Fatalf("a folder was made again under a name handed out before (%s)", next)
	}
}

// TestTempAheadTouched: a folder made ahead that is no longer as it was
// made (something put in it, its mode changed, moved away with another
// folder or a link put in its place, removed) or that lies in another
// temporary folder than the one the system names now is not handed out:
// the action gets a new, empty one.
func TestTempAheadTouched(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, dir string)
	}{
		{"a file in it", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "planted"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"mode 0755", func(t *testing.T, dir string) {
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"another folder in its place", func(t *testing.T, dir string) {
			if err := os.Rename(dir, dir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"a link in its place", func(t *testing.T, dir string) {
			if err := os.Rename(dir, dir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(dir+".old", dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"removed", func(t *testing.T, dir string) {
			if err := os.Remove(dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"TMPDIR changed", func(t *testing.T, dir string) {
			t.Setenv("TMPDIR", t.TempDir())
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			var ta tempAhead
			t.Cleanup(ta.close)
			ta.fill(nil)
			ahead := madeAhead(t, &ta)
			c.change(t, ahead)
			got, err := ta.take()
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(got)
			if got == ahead {
				t.Fatalf("the folder made ahead was handed out after %s", c.name)
			}
			if filepath.Dir(got) != filepath.Clean(os.TempDir()) {
				t.Errorf("the new folder %s is not in TMPDIR %s", got, os.TempDir())
			}
			if names, err := os.ReadDir(got); err != nil || len(names) > 0 {
				t.Errorf("the new folder holds %v (%v)", names, err)
			}
		})
	}
}

// TestTempAheadNotInRoot: where the system's temporary folder lies in a
// sandbox root, nothing is made ahead (nothing is left waiting among the
// person's files); the action's folder is made when it comes.
func TestTempAheadNotInRoot(t *testing.T) {
	root := t.TempDir()
	tmp := filepath.Join(root, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	var ta tempAhead
	t.Cleanup(ta.close)
	ta.fill([]string{root})
	settled(t, &ta)
	if names, err := os.ReadDir(tmp); err != nil || len(names) > 0 {
		t.Fatalf("made ahead in a root: %v (%v)", names, err)
	}
	got, err := ta.take()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(got) != tmp {
		t.Errorf("the action's folder %s is not in TMPDIR %s", got, tmp)
	}
}

// TestTempAheadClosed: close removes the folder made ahead, and none is
// made again.
func TestTempAheadClosed(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var ta tempAhead
	ta.fill(nil)
	ahead := madeAhead(t, &ta)
	ta.close()
	if _, err := os.Lstat(ahead); !os.IsNotExist(err) {
		t.Errorf("the folder made ahead is still there after close (%v)", err)
	}
	ta.fill(nil)
	settled(t, &ta)
	if names, err := os.ReadDir(os.TempDir()); err != nil || len(names) > 0 {
		t.Errorf("made ahead after close: %v (%v)", names, err)
	}
}
