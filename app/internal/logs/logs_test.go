package logs_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/logs"
)

// A key that redact recognises (a GitHub token's shape), built at run time
// so the source holds no secret-looking literal.
var secret = "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]

func TestSecretsNeverReachTheFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	f, err := logs.Open(dir, "airlock.log", logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lg := log.New(f, "", 0)
	lg.Printf("calling the model with token %s", secret)
	lg.Printf("url https://user:hunter2@example.com/x")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{secret, "hunter2"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("the log holds %q:\n%s", leak, b)
		}
	}
	if !strings.Contains(string(b), "[redacted:") || !strings.Contains(string(b), "calling the model") {
		t.Errorf("the log lost its message or its marker:\n%s", b)
	}
	for _, p := range []string{dir, f.Path()} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has mode %v: others may read it", p, perm)
		}
	}
	if _, err := f.Write([]byte("late\n")); !errors.Is(err, logs.ErrClosed) {
		t.Errorf("write after Close: %v", err)
	}
}

func TestRedactingWriter(t *testing.T) {
	var b bytes.Buffer
	w := logs.Redacting(&b)
	msg := "Authorization: Bearer " + secret + "\n"
	if n, err := w.Write([]byte(msg)); err != nil || n != len(msg) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if strings.Contains(b.String(), secret) || !strings.Contains(b.String(), "Authorization") {
		t.Errorf("wrote %q", b.String())
	}
}

func TestRotation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		max      int64
		keep     int
		messages int
		wantFile []string // files that must exist
		gone     []string // files that must not
	}{
		{"under the limit: one file", 1000, 2, 5, []string{"a.log"}, []string{"a.log.1"}},
		{"rotates once", 100, 2, 6, []string{"a.log", "a.log.1"}, []string{"a.log.2"}},
		{"keeps only Keep rotated files", 50, 2, 20, []string{"a.log", "a.log.1", "a.log.2"}, []string{"a.log.3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f, err := logs.Open(dir, "a.log", logs.Options{MaxBytes: tc.max, Keep: tc.keep})
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.messages {
				fmt.Fprintf(f, "message number %04d\n", i) // 20 bytes
			}
			f.Close()
			for _, name := range tc.wantFile {
				fi, err := os.Stat(filepath.Join(dir, name))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if fi.Size() > tc.max {
					t.Errorf("%s is %d bytes, over the limit of %d", name, fi.Size(), tc.max)
				}
			}
			for _, name := range tc.gone {
				if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s exists: %v", name, err)
				}
			}
			// The newest message is in the current file, the one before
			// it no later than NAME.1.
			cur, _ := os.ReadFile(filepath.Join(dir, "a.log"))
			if last := fmt.Sprintf("message number %04d\n", tc.messages-1); !strings.HasSuffix(string(cur), last) {
				t.Errorf("the current file does not end with the newest message:\n%s", cur)
			}
		})
	}
}

func TestReopenAppendsAndCountsWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	f, _ := logs.Open(dir, "a.log", logs.Options{MaxBytes: 60, Keep: 1})
	fmt.Fprint(f, "first run, forty bytes of log text....\n")
	f.Close()
	f, err := logs.Open(dir, "a.log", logs.Options{MaxBytes: 60, Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "second run, also forty bytes of text..\n") // 40 + 40 > 60: rotate first
	f.Close()
	old, _ := os.ReadFile(filepath.Join(dir, "a.log.1"))
	cur, _ := os.ReadFile(filepath.Join(dir, "a.log"))
	if !strings.HasPrefix(string(old), "first run") || !strings.HasPrefix(string(cur), "second run") {
		t.Errorf("a.log.1 = %q, a.log = %q", old, cur)
	}
}

func TestOversizedMessageIsCut(t *testing.T) {
	dir := t.TempDir()
	f, _ := logs.Open(dir, "a.log", logs.Options{MaxBytes: 64})
	if _, err := f.Write(bytes.Repeat([]byte("x"), 1000)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, _ := os.ReadFile(filepath.Join(dir, "a.log"))
	if len(b) > 64 || !strings.HasSuffix(string(b), "[cut]\n") {
		t.Errorf("%d bytes: %q", len(b), b)
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"", "../x.log", "sub/x.log", ".hidden"} {
		if _, err := logs.Open(dir, name, logs.Options{}); err == nil {
			t.Errorf("Open(%q) succeeded", name)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "d.log"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := logs.Open(dir, "d.log", logs.Options{}); err == nil {
		t.Error("opened a directory as the log")
	}
}

func TestConcurrentWritersRotateSafely(t *testing.T) {
	dir := t.TempDir()
	f, _ := logs.Open(dir, "a.log", logs.Options{MaxBytes: 500, Keep: 50})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				fmt.Fprintf(f, "writer %d line %03d\n", g, i)
			}
		})
	}
	wg.Wait()
	f.Close()
	entries, _ := os.ReadDir(dir)
	lines := 0
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		lines += strings.Count(string(b), "\n")
	}
	if lines != 400 {
		t.Errorf("%d lines across %d files, want 400", lines, len(entries))
	}
}
