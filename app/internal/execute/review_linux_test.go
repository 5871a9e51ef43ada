//go:build linux

package execute_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// oneLiner is a case of testdata/review/oneliners.json: a command run
// unasked in ~/Documents, and what must become of the person's files.
type oneLiner struct {
	Name    string            `json:"name"`
	Argv    []string          `json:"argv"`
	Trashed map[string]string `json:"trashed"` // in the Trash afterwards (by path relative to the item trashed), with this content
	Now     map[string]string `json:"now"`     // in ~/Documents afterwards, with this content
	Gone    []string          `json:"gone"`    // not in ~/Documents afterwards
	Held    []string          `json:"held"`    // held for the person, not applied
	Tar     map[string]string `json:"tar"`     // ~/Documents/tools.tar to make first: executable members and their content
}

// reviewRig is a home with a thesis, notes, a folder and a repository in
// its one sandbox root (~/Documents), and an executor that confines
// commands with the real sandbox, layers staged in Airlock's data folder.
type reviewRig struct {
	home, docs, trash string
	ex                *execute.Executor
}

func newReviewRig(t *testing.T) *reviewRig {
	t.Helper()
	home := filepath.Join(tempDir(t), "home")
	docs := filepath.Join(home, "Documents")
	data := filepath.Join(home, ".local", "share", "airlock")
	for _, d := range []string{filepath.Join(docs, "report"), filepath.Join(docs, "work", ".git", "hooks"), data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for rel, content := range map[string]string{"thesis.docx": "four years of work", "notes.txt": "notes",
		"report/summary.txt": "figures", "work/.git/config": "[core]\n\tbare = false\n"} {
		if err := os.WriteFile(filepath.Join(docs, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ex := reviewingExecutor(t, home, data, []string{"~/Documents"})
	return &reviewRig{home: home, docs: ex.Paths.Roots[0], trash: filepath.Join(home, ".local", "share", "Trash", "files"), ex: ex}
}

// reviewingExecutor is an executor for home with the sandbox roots roots
// that confines commands with the real sandbox, layers staged in data
// (Airlock's data folder), and trashes into the home's freedesktop Trash.
// The test is skipped where the sandbox cannot run.
func reviewingExecutor(t testing.TB, home, data string, roots []string) *execute.Executor {
	t.Helper()
	cfg, err := sanitize.NewConfig(home, roots)
	if err != nil {
		t.Fatal(err)
	}
	box, err := ossandbox.New(ossandbox.Settings{Home: home, Roots: cfg.Roots, Own: []string{data},
		Env: []string{"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}, Staging: filepath.Join(data, "changes")}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close) // no folder made ahead is left behind
	if err := box.Available(); err != nil {
		t.Skipf("the sandbox cannot run here: %v", err)
	}
	dataHome := filepath.Join(home, ".local", "share")
	return &execute.Executor{Paths: cfg, Trash: execute.FreedesktopTrash(dataHome), Sandbox: box}
}

// TestUnaskedOneLinersAreReviewed runs the one-liners of issue 21 unasked
// through the real sandbox, whatever their verdict: each deletion and
// overwrite leaves the person's old version in the Trash, and what plants
// code is held, not applied, until the person keeps it (here: nobody
// does). Nothing is left staged afterwards.
func TestUnaskedOneLinersAreReviewed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "review", "oneliners.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []oneLiner
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		if _, err := os.Stat(tc.Argv[0]); err != nil {
			t.Logf("%s: skipped, %s is not installed", tc.Name, tc.Argv[0])
			continue
		}
		t.Run(tc.Name, func(t *testing.T) {
			r := newReviewRig(t)
			if tc.Tar != nil {
				writeTar(t, filepath.Join(r.docs, "tools.tar"), tc.Tar)
			}
			res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "", tc.Argv, r.docs, ossandbox.Grant{})
			if err != nil {
				t.Fatalf("RunScript: %v (output %q)", err, res.Output)
			}
			var held []string
			if res.Held != nil {
				for _, it := range res.Held.Items {
					rel, _ := filepath.Rel(r.docs, it.Change.Path)
					held = append(held, rel)
				}
				if _, err := res.Held.Resolve(context.Background(), make([]bool, len(res.Held.Items))); err != nil {
					t.Fatalf("Resolve: %v", err)
				}
			}
			if res.Release != nil {
				res.Release()
			}
			if strings.Join(held, ",") != strings.Join(tc.Held, ",") {
				t.Errorf("held %q, want %q", held, tc.Held)
			}
			for rel, want := range tc.Trashed {
				if got, err := os.ReadFile(filepath.Join(r.trash, rel)); err != nil || string(got) != want {
					t.Errorf("the Trash's %s: %q, %v; want %q", rel, got, err, want)
				}
			}
			for rel, want := range tc.Now {
				if got, err := os.ReadFile(filepath.Join(r.docs, rel)); err != nil || string(got) != want {
					t.Errorf("~/Documents/%s: %q, %v; want %q", rel, got, err, want)
				}
			}
			for _, rel := range tc.Gone {
				if _, err := os.Lstat(filepath.Join(r.docs, rel)); err == nil {
					t.Errorf("~/Documents/%s is there", rel)
				}
			}
			if left, _ := os.ReadDir(filepath.Join(r.home, ".local", "share", "airlock", "changes")); len(left) > 0 {
				t.Errorf("layers left staged: %d", len(left))
			}
		})
	}
}

// writeTar makes a tar archive at path of executable files.
func writeTar(t *testing.T, path string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, content := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKilledUnaskedActionLandsNothing checks the kill switch's case: an
// unasked command killed while it runs lands none of its changes (the
// person's thesis stays as it was, its new file does not appear), and
// what it wrote is in the Trash, in one folder, recorded as discarded.
func TestKilledUnaskedActionLandsNothing(t *testing.T) {
	r := newReviewRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	marker := filepath.Join(r.home, ".local", "share", "airlock")
	argv := []string{"/bin/sh", "-c", ": > thesis.docx && echo half > half-done.txt && touch ../.local/share/airlock/never; sleep 30"}
	done := make(chan struct{})
	var res execute.Result
	var err error
	go func() {
		defer close(done)
		res, err = r.ex.RunScript(ctx, execute.KindCommand, "", argv, r.docs, ossandbox.Grant{})
	}()
	// Wait until the command has written, as seen in its layer's staging
	// folder (the real root must not show it).
	staging := filepath.Join(marker, "changes")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if found, _ := filepath.Glob(filepath.Join(staging, "*", "*", "upper", "half-done.txt")); len(found) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			<-done
			t.Fatalf("the command never wrote its file: %v, %q", err, res.Output)
		}
	}
	cancel()
	<-done
	if err == nil {
		t.Fatal("a killed command reported success")
	}
	if b, _ := os.ReadFile(filepath.Join(r.docs, "thesis.docx")); string(b) != "four years of work" {
		t.Errorf("the thesis after the kill: %q", b)
	}
	if _, err := os.Stat(filepath.Join(r.docs, "half-done.txt")); err == nil {
		t.Error("the killed command's new file landed")
	}
	if _, err := os.Stat(filepath.Join(marker, "never")); err == nil {
		t.Error("the command wrote outside the roots")
	}
	discarded := 0
	for _, rec := range res.Changes {
		if rec.Status == execute.ChangeDiscarded {
			discarded++
		}
	}
	if discarded == 0 {
		t.Errorf("no change recorded as discarded: %+v", res.Changes)
	}
	var found []string
	filepath.WalkDir(r.trash, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "half-done.txt" {
			found = append(found, p)
		}
		return nil
	})
	if len(found) != 1 || filepath.Dir(found[0]) == r.trash {
		entries, _ := os.ReadDir(r.trash)
		t.Errorf("the killed command's new file is not in a folder of the Trash: %v", entries)
	}
	if left, _ := os.ReadDir(staging); len(left) > 0 {
		t.Errorf("layers left staged: %d", len(left))
	}
}
