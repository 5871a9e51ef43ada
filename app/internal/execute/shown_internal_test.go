package execute

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestShownFiles: a file a launch opened counts as shown at its path and
// below every folder on its way, not beside it nor inside it; a folder's
// entries (not deeper) lie in it; while its program runs, or for
// shownAtLeast in any case; once both are over it is forgotten.
func TestShownFiles(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	running := cmd.Process.Pid
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	gone := ended.Process.Pid

	var s shownFiles
	s.add("/h/Documents/a/report.txt", false, running)
	for p, want := range map[string]string{
		"/h/Documents/a/report.txt":     "/h/Documents/a/report.txt",
		"/h/Documents/a":                "/h/Documents/a/report.txt",
		"/h/Documents":                  "/h/Documents/a/report.txt",
		"/h/Documents/a/report.txt.old": "",
		"/h/Documents/a/next.txt":       "",
		"/h/Documents/a/report.txt/x":   "",
		"/h/Documents/ab":               "",
	} {
		if got, _ := s.at(p); got != want {
			t.Errorf("at(%s) = %q, want %q", p, got, want)
		}
	}

	s.add("/h/Documents/shown", true, running)
	for p, want := range map[string]bool{"/h/Documents/shown/new.ps": true, "/h/Documents/shown/sub/new.ps": false,
		"/h/Documents/a/next.txt": false, "/h/Documents/shownx/new.ps": false} {
		if _, in := s.at(p); in != want {
			t.Errorf("at(%s): in a shown folder %v, want %v", p, in, want)
		}
	}

	past := time.Now().Add(-time.Second)
	s = shownFiles{files: []shownFile{
		{path: "/h/Documents/runs.txt", pid: running, until: past},
		{path: "/h/Documents/ended.txt", pid: gone, until: past},
		{path: "/h/Documents/unknown.txt", until: past},
		{path: "/h/Documents/recent.txt", pid: gone, until: time.Now().Add(time.Minute)},
	}}
	for p, want := range map[string]bool{"/h/Documents/runs.txt": true, "/h/Documents/ended.txt": false,
		"/h/Documents/unknown.txt": false, "/h/Documents/recent.txt": true} {
		if got, _ := s.at(p); (got != "") != want {
			t.Errorf("%s shown: %v, want %v", p, got, want)
		}
	}
	if len(s.files) != 2 {
		t.Errorf("%d entries kept, want the 2 still shown", len(s.files))
	}
	for range maxShown + 3 {
		s.add("/h/Documents/many.txt", false, os.Getpid())
	}
	if len(s.files) != maxShown {
		t.Errorf("%d entries, want at most %d", len(s.files), maxShown)
	}
}
