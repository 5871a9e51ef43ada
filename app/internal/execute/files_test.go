package execute_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func TestFileOps(t *testing.T) {
	tests := []struct {
		name        string
		setup       func(t *testing.T, s *sandbox)
		src         string
		wantTrashed []string // original paths (relative to home) of what went to the Trash
		check       func(t *testing.T, s *sandbox)
	}{
		{
			name: "create folder with parents",
			src:  `CREATE_FOLDER "~/Documents/a/b/c"`,
			check: func(t *testing.T, s *sandbox) {
				if fi, err := os.Stat(s.p("Documents/a/b/c")); err != nil || !fi.IsDir() {
					t.Fatalf("no folder: %v", err)
				}
			},
		},
		{
			name:  "create folder that exists",
			setup: func(t *testing.T, s *sandbox) { s.write(t, "Documents/a/keep", "k") },
			src:   `CREATE_FOLDER "~/Documents/a"`,
			check: func(t *testing.T, s *sandbox) {
				if readFile(t, s.p("Documents/a/keep")) != "k" {
					t.Fatal("contents changed")
				}
			},
		},
		{
			name: "write new file",
			src:  `WRITE_FILE "~/Documents/new.txt" "hello"`,
			check: func(t *testing.T, s *sandbox) {
				if got := readFile(t, s.p("Documents/new.txt")); got != "hello" {
					t.Fatalf("content %q", got)
				}
			},
		},
		{
			name: "overwrite keeps the old version in the Trash",
			setup: func(t *testing.T, s *sandbox) {
				s.write(t, "Documents/f.txt", "old")
				os.Chmod(s.p("Documents/f.txt"), 0o600)
			},
			src:         `WRITE_FILE "~/Documents/f.txt" "new"`,
			wantTrashed: []string{"Documents/f.txt"},
			check: func(t *testing.T, s *sandbox) {
				if got := readFile(t, s.p("Documents/f.txt")); got != "new" {
					t.Fatalf("content %q", got)
				}
				if fi, _ := os.Stat(s.p("Documents/f.txt")); fi.Mode().Perm() != 0o600 {
					t.Fatalf("mode %v, want the old file's 0600", fi.Mode().Perm())
				}
				if got := readFile(t, filepath.Join(s.trash, "files", "f.txt")); got != "old" {
					t.Fatalf("trashed content %q", got)
				}
			},
		},
		{
			name:        "write doc over an existing doc",
			setup:       func(t *testing.T, s *sandbox) { s.write(t, "Documents/notes.md", "# v1\n") },
			src:         "WRITE_DOC \"~/Documents/notes.md\" <<END\n# v2\nmore\nEND",
			wantTrashed: []string{"Documents/notes.md"},
			check: func(t *testing.T, s *sandbox) {
				if got := readFile(t, s.p("Documents/notes.md")); got != "# v2\nmore" && got != "# v2\nmore\n" {
					t.Fatalf("content %q", got)
				}
			},
		},
		{
			name:  "append to a file",
			setup: func(t *testing.T, s *sandbox) { s.write(t, "Documents/log.txt", "one\n") },
			src:   `APPEND_FILE "~/Documents/log.txt" "two"`,
			check: func(t *testing.T, s *sandbox) {
				if got := readFile(t, s.p("Documents/log.txt")); got != "one\ntwo" {
					t.Fatalf("content %q", got)
				}
			},
		},
		{
			name: "append creates a file",
			src:  `APPEND_FILE "~/Documents/log.txt" "first"`,
			check: func(t *testing.T, s *sandbox) {
				if got := readFile(t, s.p("Documents/log.txt")); got != "first" {
					t.Fatalf("content %q", got)
				}
			},
		},
		{
			name:  "move a file",
			setup: func(t *testing.T, s *sandbox) { s.write(t, "Documents/a.txt", "a") },
			src:   `MOVE_FILE "~/Documents/a.txt" "~/Documents/b.txt"`,
			check: func(t *testing.T, s *sandbox) {
				gone(t, s.p("Documents/a.txt"))
				if readFile(t, s.p("Documents/b.txt")) != "a" {
					t.Fatal("not moved")
				}
			},
		},
		{
			name: "move onto an existing file",
			setup: func(t *testing.T, s *sandbox) {
				s.write(t, "Documents/a.txt", "a")
				s.write(t, "Documents/b.txt", "b")
			},
			src:         `MOVE_FILE "~/Documents/a.txt" "~/Documents/b.txt"`,
			wantTrashed: []string{"Documents/b.txt"},
			check: func(t *testing.T, s *sandbox) {
				gone(t, s.p("Documents/a.txt"))
				if readFile(t, s.p("Documents/b.txt")) != "a" {
					t.Fatal("not moved")
				}
			},
		},
		{
			name:  "move a folder",
			setup: func(t *testing.T, s *sandbox) { s.write(t, "Documents/dir/x/y.txt", "y") },
			src:   `MOVE_FILE "~/Documents/dir" "~/Documents/moved"`,
			check: func(t *testing.T, s *sandbox) {
				gone(t, s.p("Documents/dir"))
				if readFile(t, s.p("Documents/moved/x/y.txt")) != "y" {
					t.Fatal("not moved")
				}
			},
		},
		{
			name:  "copy a file",
			setup: func(t *testing.T, s *sandbox) { s.write(t, "Documents/a.txt", "a") },
			src:   `COPY_FILE "~/Documents/a.txt" "~/Documents/b.txt"`,
			check: func(t *testing.T, s *sandbox) {
				if readFile(t, s.p("Documents/a.txt")) != "a" || readFile(t, s.p("Documents/b.txt")) != "a" {
					t.Fatal("not copied")
				}
			},
		},
		{
			name: "copy onto an existing file",
			setup: func(t *testing.T, s *sandbox) {
				s.write(t, "Documents/a.txt", "a")
				s.write(t, "Documents/b.txt", "b")
			},
			src:         `COPY_FILE "~/Documents/a.txt" "~/Documents/b.txt"`,
			wantTrashed: []string{"Documents/b.txt"},
			check: func(t *testing.T, s *sandbox) {
				if readFile(t, s.p("Documents/b.txt")) != "a" {
					t.Fatal("not copied")
				}
			},
		},
		{
			name: "copy a folder recursively, links as links",
			setup: func(t *testing.T, s *sandbox) {
				s.write(t, "Documents/dir/x/y.txt", "y")
				s.write(t, "Documents/dir/z.sh", "z")
				os.Chmod(s.p("Documents/dir/z.sh"), 0o755)
				os.Symlink(s.p(".ssh"), s.p("Documents/dir/keys"))
				s.write(t, "Documents/copy/old.txt", "old")
			},
			src:         `COPY_FILE "~/Documents/dir" "~/Documents/copy"`,
			wantTrashed: []string{"Documents/copy"},
			check: func(t *testing.T, s *sandbox) {
				if readFile(t, s.p("Documents/copy/x/y.txt")) != "y" || readFile(t, s.p("Documents/dir/x/y.txt")) != "y" {
					t.Fatal("not copied")
				}
				if fi, _ := os.Stat(s.p("Documents/copy/z.sh")); fi == nil || fi.Mode().Perm() != 0o755 {
					t.Fatal("mode not kept")
				}
				if l, err := os.Readlink(s.p("Documents/copy/keys")); err != nil || l != s.p(".ssh") {
					t.Fatalf("link not copied as a link: %q, %v", l, err)
				}
				gone(t, s.p("Documents/copy/old.txt"))
			},
		},
		{
			name:        "delete a file",
			setup:       func(t *testing.T, s *sandbox) { s.write(t, "Documents/a.txt", "a") },
			src:         `DELETE_FILE "~/Documents/a.txt"`,
			wantTrashed: []string{"Documents/a.txt"},
			check:       func(t *testing.T, s *sandbox) { gone(t, s.p("Documents/a.txt")) },
		},
		{
			name:        "delete a folder",
			setup:       func(t *testing.T, s *sandbox) { s.write(t, "Documents/dir/a.txt", "a") },
			src:         `DELETE_FILE "~/Documents/dir"`,
			wantTrashed: []string{"Documents/dir"},
			check:       func(t *testing.T, s *sandbox) { gone(t, s.p("Documents/dir")) },
		},
		{
			name: "delete a link deletes the link",
			setup: func(t *testing.T, s *sandbox) {
				s.write(t, "Documents/target.txt", "t")
				os.Symlink(s.p("Documents/target.txt"), s.p("Documents/link"))
			},
			src:         `DELETE_FILE "~/Documents/link"`,
			wantTrashed: []string{"Documents/link"},
			check: func(t *testing.T, s *sandbox) {
				gone(t, s.p("Documents/link"))
				if readFile(t, s.p("Documents/target.txt")) != "t" {
					t.Fatal("the target changed")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			if tt.setup != nil {
				tt.setup(t, s)
			}
			res, err := s.run(t, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if res.Output == "" {
				t.Error("no output line")
			}
			if len(res.Trashed) != len(tt.wantTrashed) {
				t.Fatalf("Trashed = %q, want %d items", res.Trashed, len(tt.wantTrashed))
			}
			for i, where := range res.Trashed {
				orig, _ := trashInfo(t, where)
				if want := s.p(tt.wantTrashed[i]); orig != want {
					t.Errorf("trashed %s, want %s", orig, want)
				}
			}
			tt.check(t, s)
			if m := leftovers(t, s.p("Documents")); len(m) != 0 {
				t.Errorf("temporary files left: %q", m)
			}
		})
	}
}

func gone(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s is still there (%v)", path, err)
	}
}

// Paths the sanitiser blocks are refused at execution time, with nothing
// changed.
func TestBlocked(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"write into a credential store", `WRITE_FILE "~/.ssh/authorized_keys" "ssh-ed25519 AAAA"`},
		{"append into a credential store", `APPEND_FILE "~/.ssh/authorized_keys" "ssh-ed25519 AAAA"`},
		{"copy out of a credential store", `COPY_FILE "~/.ssh/id_ed25519" "~/Documents/key"`},
		{"move out of a credential store", `MOVE_FILE "~/.ssh/id_ed25519" "~/Documents/key"`},
		{"move into a credential store", `MOVE_FILE "~/Documents/a.txt" "~/.ssh/a.txt"`},
		{"delete a credential", `DELETE_FILE "~/.ssh/id_ed25519"`},
		{"delete the sandbox root", `DELETE_FILE "~/Documents"`},
		{"write outside the sandbox", `WRITE_FILE "~/elsewhere.txt" "x"`},
		{"create a folder in a system folder", `CREATE_FOLDER "/etc/airlock"`},
		{"traversal", `WRITE_FILE "~/Documents/%2e%2e/.ssh/x" "x"`},
		{"open a credential", `OPEN_FILE "~/.ssh/id_ed25519"`},
		{"file URL into a credential store", `OPEN_URL "file:///nonexistent/../etc/passwd"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, ".ssh/id_ed25519", "secret")
			s.write(t, "Documents/a.txt", "a")
			_, err := s.run(t, tt.src)
			if !errors.Is(err, sanitize.ErrBlocked) {
				t.Fatalf("Run: %v, want an error wrapping ErrBlocked", err)
			}
			if readFile(t, s.p(".ssh/id_ed25519")) != "secret" || readFile(t, s.p("Documents/a.txt")) != "a" {
				t.Fatal("a blocked action changed a file")
			}
			gone(t, s.p(".ssh/authorized_keys"))
			gone(t, s.p("Documents/key"))
			gone(t, s.trash)
		})
	}
}

// A symbolic link that passed the assessment and was then swapped to point
// into a credential store must not redirect the action.
func TestSymlinkSwappedAfterAssessment(t *testing.T) {
	tests := []struct {
		name string
		src  string
		op   sanitize.Op
		path string // the path the gate assessed
	}{
		{"write", `WRITE_FILE "~/Documents/proj/authorized_keys" "ssh-ed25519 AAAA"`, sanitize.OpWrite, "~/Documents/proj/authorized_keys"},
		{"write doc", "WRITE_DOC \"~/Documents/proj/authorized_keys\" <<END\nx\nEND", sanitize.OpWrite, "~/Documents/proj/authorized_keys"},
		{"append", `APPEND_FILE "~/Documents/proj/authorized_keys" "ssh-ed25519 AAAA"`, sanitize.OpWrite, "~/Documents/proj/authorized_keys"},
		{"copy to", `COPY_FILE "~/Documents/a.txt" "~/Documents/proj/authorized_keys"`, sanitize.OpWrite, "~/Documents/proj/authorized_keys"},
		{"move to", `MOVE_FILE "~/Documents/a.txt" "~/Documents/proj/authorized_keys"`, sanitize.OpMoveTo, "~/Documents/proj/authorized_keys"},
		{"create folder", `CREATE_FOLDER "~/Documents/proj/sub"`, sanitize.OpCreateDir, "~/Documents/proj/sub"},
		{"copy from", `COPY_FILE "~/Documents/proj/id_ed25519" "~/Documents/stolen"`, sanitize.OpRead, "~/Documents/proj/id_ed25519"},
		{"delete inside", `DELETE_FILE "~/Documents/proj/id_ed25519"`, sanitize.OpDelete, "~/Documents/proj/id_ed25519"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, ".ssh/id_ed25519", "secret")
			s.write(t, "Documents/a.txt", "a")
			s.write(t, "Documents/real/id_ed25519", "decoy")
			if err := os.Symlink(s.p("Documents/real"), s.p("Documents/proj")); err != nil {
				t.Fatal(err)
			}
			if _, err := s.ex.Paths.Path(tt.path, tt.op); err != nil {
				t.Fatalf("the assessment already refused %s: %v", tt.path, err)
			}
			// The swap.
			if err := os.Remove(s.p("Documents/proj")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(s.p(".ssh"), s.p("Documents/proj")); err != nil {
				t.Fatal(err)
			}
			_, err := s.run(t, tt.src)
			if !errors.Is(err, sanitize.ErrBlocked) {
				t.Fatalf("Run after the swap: %v, want an error wrapping ErrBlocked", err)
			}
			entries, _ := os.ReadDir(s.p(".ssh"))
			if len(entries) != 1 || readFile(t, s.p(".ssh/id_ed25519")) != "secret" {
				t.Fatalf("~/.ssh changed: %v", entries)
			}
			gone(t, s.p("Documents/stolen"))
		})
	}
}

// A write that fails leaves neither a temporary file nor a half file, and an
// overwrite that fails leaves the old version in place.
func TestFailingWrite(t *testing.T) {
	tests := []struct {
		name     string
		existing string // content of ~/Documents/f.txt before, "" for none
		src      string
		want     string // content after, "" for absent
	}{
		{"new file", "", `WRITE_FILE "~/Documents/f.txt" "new"`, ""},
		{"overwrite", "old", `WRITE_FILE "~/Documents/f.txt" "new"`, "old"},
		{"append to a new file", "", `APPEND_FILE "~/Documents/f.txt" "new"`, ""},
		{"append", "old", `APPEND_FILE "~/Documents/f.txt" "new"`, "old"},
		{"copy", "", `COPY_FILE "~/Documents/src.txt" "~/Documents/f.txt"`, ""},
		{"copy over", "old", `COPY_FILE "~/Documents/src.txt" "~/Documents/f.txt"`, "old"},
		{"copy a folder over", "old", `COPY_FILE "~/Documents/dir" "~/Documents/f.txt"`, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, "Documents/src.txt", "src")
			s.write(t, "Documents/dir/a/b.txt", "b")
			if tt.existing != "" {
				s.write(t, "Documents/f.txt", tt.existing)
			}
			defer execute.FailSync(errors.New("no space left on device"))()
			if _, err := s.run(t, tt.src); err == nil || !strings.Contains(err.Error(), "no space left") {
				t.Fatalf("Run: %v, want the write's error", err)
			}
			if tt.want == "" {
				gone(t, s.p("Documents/f.txt"))
			} else if got := readFile(t, s.p("Documents/f.txt")); got != tt.want {
				t.Fatalf("content %q, want %q", got, tt.want)
			}
			if m := leftovers(t, s.p("Documents")); len(m) != 0 {
				t.Fatalf("temporary files left: %q", m)
			}
			gone(t, s.trash)
		})
	}
}

// A folder copy that meets something it must not copy fails whole.
func TestCopyFolderFailsWhole(t *testing.T) {
	s := newSandbox(t)
	s.write(t, "Documents/dir/a.txt", "a")
	if err := syscall.Mkfifo(s.p("Documents/dir/z-fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := s.run(t, `COPY_FILE "~/Documents/dir" "~/Documents/copy"`); err == nil {
		t.Fatal("copying a folder holding a FIFO succeeded")
	}
	gone(t, s.p("Documents/copy"))
	if m := leftovers(t, s.p("Documents")); len(m) != 0 {
		t.Fatalf("temporary files left: %q", m)
	}
}

func TestFileOpRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, s *sandbox)
		src   string
	}{
		{"move a folder into itself", nil, `MOVE_FILE "~/Documents/dir" "~/Documents/dir/in"`},
		{"copy a folder into itself", nil, `COPY_FILE "~/Documents/dir" "~/Documents/dir/in"`},
		{"move onto itself", nil, `MOVE_FILE "~/Documents/keep.txt" "~/Documents/keep.txt"`},
		{"move a missing file", nil, `MOVE_FILE "~/Documents/missing" "~/Documents/x"`},
		{"delete a missing file", nil, `DELETE_FILE "~/Documents/missing"`},
		{"write into a missing folder", nil, `WRITE_FILE "~/Documents/no/such/f.txt" "x"`},
		{"write over a folder", nil, `WRITE_FILE "~/Documents/dir" "x"`},
		{"append to a folder", nil, `APPEND_FILE "~/Documents/dir" "x"`},
		{"create a folder over a file", nil, `CREATE_FOLDER "~/Documents/keep.txt"`},
		{"move onto a hard link of itself", func(t *testing.T, s *sandbox) {
			if err := os.Link(s.p("Documents/keep.txt"), s.p("Documents/twin.txt")); err != nil {
				t.Fatal(err)
			}
		}, `MOVE_FILE "~/Documents/keep.txt" "~/Documents/twin.txt"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, "Documents/dir/a.txt", "a")
			s.write(t, "Documents/keep.txt", "keep")
			if tt.setup != nil {
				tt.setup(t, s)
			}
			if _, err := s.run(t, tt.src); err == nil {
				t.Fatal("Run succeeded")
			}
			if readFile(t, s.p("Documents/keep.txt")) != "keep" || readFile(t, s.p("Documents/dir/a.txt")) != "a" {
				t.Fatal("a refused action changed a file")
			}
			gone(t, s.p("Documents/dir/in"))
			gone(t, s.trash)
		})
	}
}

// Without a Trash nothing is deleted or replaced; without a sandbox no path
// is used; a write over the size limit is refused; a cancelled context stops
// an action before it starts.
func TestRunFailsClosed(t *testing.T) {
	big, _ := action.Lookup("WRITE_FILE")
	tests := []struct {
		name   string
		change func(s *sandbox) context.Context
		a      func(t *testing.T, s *sandbox) action.Action
		is     error
	}{
		{"delete without a Trash", func(s *sandbox) context.Context { s.ex.Trash = nil; return context.Background() },
			parsed(`DELETE_FILE "~/Documents/keep.txt"`), nil},
		{"overwrite without a Trash", func(s *sandbox) context.Context { s.ex.Trash = nil; return context.Background() },
			parsed(`WRITE_FILE "~/Documents/keep.txt" "x"`), nil},
		{"no sandbox", func(s *sandbox) context.Context { s.ex.Paths = nil; return context.Background() },
			parsed(`WRITE_FILE "~/Documents/new.txt" "x"`), nil},
		{"too large", func(s *sandbox) context.Context { return context.Background() },
			func(t *testing.T, s *sandbox) action.Action {
				return action.Action{Cmd: big, Args: []string{"~/Documents/new.txt", strings.Repeat("x", sanitize.MaxWriteBytes+1)}}
			}, sanitize.ErrBlocked},
		{"cancelled", func(s *sandbox) context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, parsed(`WRITE_FILE "~/Documents/new.txt" "x"`), context.Canceled},
		{"no command", func(s *sandbox) context.Context { return context.Background() },
			func(t *testing.T, s *sandbox) action.Action { return action.Action{} }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, "Documents/keep.txt", "keep")
			ctx := tt.change(s)
			_, err := s.ex.Run(ctx, tt.a(t, s))
			if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Fatalf("Run: %v, want an error (wrapping %v)", err, tt.is)
			}
			if readFile(t, s.p("Documents/keep.txt")) != "keep" {
				t.Fatal("keep.txt changed")
			}
			gone(t, s.p("Documents/new.txt"))
		})
	}
}

func parsed(src string) func(t *testing.T, s *sandbox) action.Action {
	return func(t *testing.T, s *sandbox) action.Action {
		p, err := action.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		return p.Actions[0]
	}
}

// stopAfter is a context that reports itself cancelled from its n-th
// check on: a kill switch tripped in the middle of an action, without timing.
type stopAfter struct {
	context.Context
	mu sync.Mutex
	n  int
}

func (c *stopAfter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n <= 0 {
		return context.Canceled
	}
	return nil
}

// A copy stopped at any point is whole or absent: never a half copy, never
// a temporary file left.
func TestCopyStoppedHalfWay(t *testing.T) {
	for _, src := range []string{`COPY_FILE "~/Documents/dir" "~/Documents/copy"`, `COPY_FILE "~/Documents/dir/f5" "~/Documents/copy"`} {
		stopped := 0
		for n := 1; n <= 40; n += 3 {
			t.Run(fmt.Sprintf("%s after %d checks", src, n), func(t *testing.T) {
				s := newSandbox(t)
				for i := range 10 {
					s.write(t, fmt.Sprintf("Documents/dir/f%d", i), strings.Repeat("x", 100_000))
				}
				p, err := action.Parse(src)
				if err != nil {
					t.Fatal(err)
				}
				_, err = s.ex.Run(&stopAfter{Context: context.Background(), n: n}, p.Actions[0])
				switch {
				case err == nil:
					if _, err := os.Stat(s.p("Documents/copy")); err != nil {
						t.Fatalf("Run succeeded without a copy: %v", err)
					}
				case errors.Is(err, context.Canceled):
					stopped++
					gone(t, s.p("Documents/copy"))
				default:
					t.Fatal(err)
				}
				if m := leftovers(t, s.p("Documents")); len(m) != 0 {
					t.Fatalf("temporary files left: %q", m)
				}
			})
		}
		if stopped < 2 {
			t.Errorf("%s: stopped only %d times; the test does not reach the copy", src, stopped)
		}
	}
}
