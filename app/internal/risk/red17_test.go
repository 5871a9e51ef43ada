package risk_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// TestRed17ScratchThroughALink: a path in /tmp is scratch by its words
// (a new tar archive there is Caution, rm of it Dangerous), but a link
// in /tmp that an earlier action made into the home (/tmp/docs →
// ~/Documents) makes /tmp/docs/report.txt the person's report: the
// archive written over it, or rm of it, is what it is in the home. A
// new file beside the link, in /tmp itself, stays scratch.
func TestRed17ScratchThroughALink(t *testing.T) {
	env := fixtureEnv(t)
	scratch, err := os.MkdirTemp("/tmp", "red17-")
	if err != nil {
		t.Skipf("no /tmp here: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(scratch) })
	link := filepath.Join(scratch, "docs")
	if err := os.Symlink(filepath.Join(env.Paths.Home, "Documents"), link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		input    string
		min, max level.Level
	}{
		{"tar -cf " + link + "/report.txt ~/Documents/Projects", level.Destructive, level.Blocked},
		{"rm " + link + "/report.txt", level.Destructive, level.Blocked},
		{"ffmpeg -i in.mov -f mp4 " + link + "/report.txt", level.Destructive, level.Blocked},
		// Look-alikes: scratch files beside the link.
		{"tar -cf " + scratch + "/backup.tar ~/Documents/Projects", level.Safe, level.Caution},
		{"rm " + scratch + "/old.tar", level.Safe, level.Dangerous},
	} {
		v := risk.Assess(risk.KindShell, c.input, env)
		if v.Level < c.min || v.Level > c.max {
			t.Errorf("%s: got %v, want %v..%v (%v)", c.input, v.Level, c.min, c.max, v.Texts())
		}
	}
}

// TestRed17OpenBundleFolder: open of a plain folder is the Finder showing
// it (Caution), but a folder with no extension laid out as an application
// bundle (Contents/Info.plist, Contents/MacOS) is one Launch Services runs
// once its bundle bit is set, which an earlier action may have done: it is
// rated as open of an application, as Tool.app is. A folder that only
// holds files stays plain.
func TestRed17OpenBundleFolder(t *testing.T) {
	env := fixtureEnv(t)
	tool := filepath.Join(env.Paths.Home, "Documents", "Tool")
	for _, d := range []string{"Contents/MacOS", "Contents/Resources"} {
		if err := os.MkdirAll(filepath.Join(tool, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(tool, "Contents", "Info.plist"), []byte("<plist/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tool, "Contents", "MacOS", "Tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A folder that is only a folder, holding an ordinary file.
	photos := filepath.Join(env.Paths.Home, "Documents", "Photos")
	if err := os.MkdirAll(photos, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(photos, "Contents.txt"), []byte("list\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		input    string
		min, max level.Level
	}{
		{"open ~/Documents/Tool", level.Dangerous, level.Blocked},
		{"open ~/Documents/Tool/", level.Dangerous, level.Blocked},
		{"open ~/Documents/Photos", level.Safe, level.Caution},
		{"open ~/Documents/Projects", level.Safe, level.Caution},
	} {
		v := risk.Assess(risk.KindShell, c.input, env)
		if v.Level < c.min || v.Level > c.max {
			t.Errorf("%s: got %v, want %v..%v (%v)", c.input, v.Level, c.min, c.max, v.Texts())
		}
	}
}
