package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// TestPinnedArgv: where there is no private view of a path (macOS), a
// pinned file runs as checked only when a word of the command line names
// it: the word is rewritten to a copy with the same name; a file no word
// names refuses the action, naming it.
func TestPinnedArgv(t *testing.T) {
	const dir, tmp = "/home/u/proj", "/tmp/airlock-action-1"
	pin := func(p string) Pinned { return Pinned{Path: p} }
	for _, tc := range []struct {
		name   string
		argv   []string
		pinned []Pinned
		want   []string // nil: refused
		says   string
	}{
		{"a script, relative", []string{"python3", "build.py"}, []Pinned{pin(dir + "/build.py")},
			[]string{"python3", tmp + "/pinned-0/build.py"}, ""},
		{"a script, absolute and unclean", []string{"bash", "/home/u/proj/./x/../deploy.sh", "--prod"}, []Pinned{pin(dir + "/deploy.sh")},
			[]string{"bash", tmp + "/pinned-0/deploy.sh", "--prod"}, ""},
		{"a program by its path", []string{"./tool", "-v"}, []Pinned{pin(dir + "/tool")},
			[]string{tmp + "/pinned-0/tool", "-v"}, ""},
		{"two files", []string{"make", "-f", "../build.mk", "all.mk"}, []Pinned{pin("/home/u/build.mk"), pin(dir + "/all.mk")},
			[]string{"make", "-f", tmp + "/pinned-0/build.mk", tmp + "/pinned-1/all.mk"}, ""},
		{"nothing pinned", []string{"ls"}, nil, []string{"ls"}, ""},
		{"a module beside the script", []string{"python3", "build.py"}, []Pinned{pin(dir + "/build.py"), pin(dir + "/helpers.py")},
			nil, dir + "/helpers.py, which the action runs, is not named"},
		{"a makefile", []string{"make"}, []Pinned{pin(dir + "/Makefile")}, nil, "Makefile, which the action runs"},
		{"a program looked up on PATH", []string{"tool"}, []Pinned{pin(dir + "/tool")}, nil, "tool, which the action runs"},
		{"in an option's word", []string{"make", "--file=build.mk"}, []Pinned{pin(dir + "/build.mk")}, nil, "build.mk, which the action runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := slices.Clone(tc.argv)
			got, copies, err := PinnedArgv(tc.argv, dir, tc.pinned, tmp)
			if !slices.Equal(tc.argv, orig) {
				t.Fatalf("argv was changed: %q", tc.argv)
			}
			if tc.want == nil {
				if err == nil || !strings.Contains(err.Error(), tc.says) {
					t.Fatalf("got %q, err %v; want refused saying %q", got, err, tc.says)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) || len(copies) != len(tc.pinned) {
				t.Fatalf("got %q (%d copies), err %v; want %q", got, len(copies), err, tc.want)
			}
		})
	}
}

// TestPinnedCopies: the spec that reaches the launcher names copies that
// hold the checked bytes, mode and time, whatever the files hold, and
// pins nothing; a copy is never written through what is already there.
func TestPinnedCopies(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	script := filepath.Join(dir, "build.sh")
	if err := os.WriteFile(script, []byte("echo on disk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2022, 3, 4, 5, 6, 7, 0, time.UTC)
	s := spec{Argv: []string{"sh", "build.sh"}, Dir: dir, Profile: launcher.Profile{TempDir: tmp},
		Pinned: []Pinned{{Path: script, Mode: 0o750, ModTime: when.UnixNano(), Bytes: []byte("echo checked\n")}}}
	out, err := pinnedCopies(s)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(tmp, "pinned-0", "build.sh")
	if out.Pinned != nil || !slices.Equal(out.Argv, []string{"sh", copyPath}) {
		t.Fatalf("spec: %+v", out)
	}
	fi, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(copyPath); string(b) != "echo checked\n" || fi.Mode().Perm() != 0o750 || !fi.ModTime().Equal(when) {
		t.Fatalf("the copy: %q %v %v", b, fi.Mode(), fi.ModTime())
	}
	if b, _ := os.ReadFile(script); string(b) != "echo on disk\n" {
		t.Fatalf("the file itself was changed: %q", b)
	}
	// Made again in the same folder (the copy is there): refused.
	if _, err := pinnedCopies(s); err == nil {
		t.Fatal("a copy was written over what was there")
	}
}
