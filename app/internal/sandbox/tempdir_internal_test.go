package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	got, err := ta.take(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != ahead || filepath.Dir(got) != actionsIn(tmp) {
		t.Fatalf("took %s, made ahead %s (TMPDIR %s)", got, ahead, tmp)
	}
	fi, err := os.Stat(got)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the folder taken: %v, %v", fi, err)
	}
	// None made ahead: one is made at once.
	again, err := ta.take(nil)
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
			got, err := ta.take(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(got)
			if got == ahead {
				t.Fatalf("the folder made ahead was handed out after %s", c.name)
			}
			if filepath.Dir(got) != actionsIn(os.TempDir()) {
				t.Errorf("the new folder %s is not in TMPDIR's folder of actions' folders %s", got, actionsIn(os.TempDir()))
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
	got, err := ta.take([]string{root})
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
	if names, err := os.ReadDir(actionsIn(os.TempDir())); err != nil || len(names) > 0 {
		t.Errorf("made ahead after close: %v (%v)", names, err)
	}
}

// actionsIn is the folder of this user's actions' folders in tmp.
func actionsIn(tmp string) string {
	return filepath.Join(filepath.Clean(tmp), actionsFolderPrefix+strconv.Itoa(os.Getuid()))
}

// TestActionsFolder: every action's temporary folder lies in one folder of
// this user's alone (mode 0700), which a profile can refuse whole
// (OtherTemps) but for the action's own. One that is there but is a link,
// of another mode or a file is refused, with what it is and what to do,
// and nothing is made in it.
func TestActionsFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var ta tempAhead
	t.Cleanup(ta.close)
	got, err := ta.take(nil)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(actionsIn(tmp))
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the actions' folder: %v, %v", fi, err)
	}
	if filepath.Dir(got) != actionsIn(tmp) {
		t.Errorf("the action's folder %s is not in %s", got, actionsIn(tmp))
	}
	p, err := Derive(Settings{Home: t.TempDir()}, KindCommand, Grant{}, got)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.OtherTemps, []string{actionsIn(tmp)}) {
		t.Errorf("OtherTemps %q, want the actions' folder %s", p.OtherTemps, actionsIn(tmp))
	}
	if p, err := Derive(Settings{Home: t.TempDir()}, KindCommand, Grant{}, t.TempDir()); err != nil || p.OtherTemps != nil {
		t.Errorf("a temporary folder of no actions' folder: OtherTemps %q, %v", p.OtherTemps, err)
	}

	outside := t.TempDir()
	for name, plant := range map[string]func(dir string) error{
		"a link":    func(dir string) error { return os.Symlink(outside, dir) },
		"mode 0755": func(dir string) error { return os.Mkdir(dir, 0o755) },
		"mode 0777": func(dir string) error { return os.Mkdir(dir, 0o777) },
		"a file":    func(dir string) error { return os.WriteFile(dir, nil, 0o600) },
		"a link to ours": func(dir string) error {
			real := filepath.Join(filepath.Dir(dir), "real")
			if err := os.Mkdir(real, 0o700); err != nil {
				return err
			}
			return os.Symlink(real, dir)
		},
	} {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			if err := plant(actionsIn(tmp)); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(actionsIn(tmp), 0o777); err != nil && name == "mode 0777" {
				t.Fatal(err) // past the umask
			}
			var ta tempAhead
			t.Cleanup(ta.close)
			got, err := ta.take(nil)
			if err == nil {
				os.RemoveAll(got)
				t.Fatalf("an action's folder was made in %s: %s", name, got)
			}
			if !strings.Contains(err.Error(), actionsIn(tmp)) || !strings.Contains(err.Error(), "set TMPDIR") {
				t.Errorf("the error does not say which folder and what to do: %v", err)
			}
			ta.fill(nil)
			settled(t, &ta)
			ta.mu.Lock()
			ahead := ta.dir
			ta.mu.Unlock()
			if ahead != "" {
				t.Errorf("a folder was made ahead in %s: %s", name, ahead)
			}
			if names, _ := os.ReadDir(outside); len(names) > 0 {
				t.Errorf("made in what the link leads to: %v", names)
			}
		})
	}
}
