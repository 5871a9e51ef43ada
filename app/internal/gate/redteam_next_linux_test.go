//go:build linux

package gate_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// A fourth red team's launches, in the rig of redteam_launch_linux_test.go
// (a home in a temporary folder, stand-ins for the desktop's programs).

// Attack 9. The next spellings of a PostScript program a viewer runs.
// shared-mime-info knows PostScript by "%!" and by "\x04%!" (a leading
// Ctrl-D, as old spoolers wrote it); and Evince, when the type the name
// says fails to load (report.pdf is no PDF), reads the type from the
// content alone, and unpacks gzip, bzip2 and xz files first to read what
// is inside. So a PostScript program behind a Ctrl-D, or compressed, under
// a document's name or as .ps.gz, runs in Ghostscript like the plain one
// attack 8 found. None is inert: each launch asks.
func TestRedLaunchViewerGivenAHiddenProgram(t *testing.T) {
	for _, tc := range []struct{ name, testdata string }{
		{"report.pdf", "red-postscript-eot.ps"},
		{"figures.ps", "red-postscript-eot.ps"},
		{"summary.pdf", "red-postscript.ps.gz"},
		{"scan.pdf", "red-postscript.ps.bz2"},
		{"figures.ps.gz", "red-postscript.ps.gz"},
		{"figures.ps.bz2", "red-postscript.ps.bz2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := baseRed()
			d.desktop["org.gnome.Evince.desktop"] = "[Desktop Entry]\nType=Application\nName=Document Viewer\nExec=evince %U\n" +
				"MimeType=application/pdf;application/postscript;application/x-gzpostscript;application/x-bzpostscript;\n"
			d.mimeapps += "application/postscript=org.gnome.Evince.desktop;\napplication/x-gzpostscript=org.gnome.Evince.desktop;\n" +
				"application/x-bzpostscript=org.gnome.Evince.desktop;\n"
			r := newRedRig(t, 1, d)
			r.write(t, "Documents/"+tc.name, tc.testdata, 0o644)
			rep, _ := r.submit(`OPEN_FILE "~/Documents/` + tc.name + `"`)
			t.Logf("%s: %s %v", rep.Status, rep.Risk, rep.Actions)
			if r.waitFor("evince", 300*time.Millisecond) || rep.Status == gate.StatusOK {
				t.Fatalf("HOLE: a PostScript program (%s, %s) opened in the viewer unasked at Level 1 (rated %s): %+v", tc.name, tc.testdata, rep.Risk, rep)
			}
		})
	}
}

// Attack 10. A folder is inert to a file manager, which "opens nothing by
// itself": but it shows the folder's files with thumbnails, and its
// thumbnailers read them as the viewers do. Evince's thumbnailer (Files)
// and KDE's Ghostscript thumbnailer (Dolphin, without a sandbox) run a
// PostScript file, under its own name or a document's, when the folder
// is shown. A folder that holds one is no inert folder; one of documents
// still opens unasked.
func TestRedLaunchFolderOfPrograms(t *testing.T) {
	for _, tc := range []struct {
		name, file, testdata string
		opens                bool
	}{
		{"figures", "chart.pdf", "red-postscript.ps", false},
		{"print", "figures.eps", "red-postscript.ps", false},
		{"old", "scan.pdf", "red-postscript-eot.ps", false},
		{"notes", "notes.txt", "viewer.sh", true}, // text with no bit: inert
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := baseRed()
			d.bins["nautilus"] = "viewer.sh"
			d.desktop["org.gnome.Nautilus.desktop"] = "[Desktop Entry]\nType=Application\nName=Files\nExec=nautilus %U\nMimeType=inode/directory;\n"
			d.mimeapps += "inode/directory=org.gnome.Nautilus.desktop;\n"
			r := newRedRig(t, 1, d)
			if err := os.MkdirAll(filepath.Join(r.home, "Documents", tc.name), 0o755); err != nil {
				t.Fatal(err)
			}
			r.write(t, "Documents/"+tc.name+"/"+tc.file, tc.testdata, 0o644)
			rep, _ := r.submit(`OPEN_FILE "~/Documents/` + tc.name + `"`)
			t.Logf("%s: %s %v", rep.Status, rep.Risk, rep.Actions)
			started := r.waitFor("nautilus", 300*time.Millisecond)
			if !tc.opens && (started || rep.Status == gate.StatusOK) {
				t.Fatalf("HOLE: a folder holding a PostScript program (%s) opened in the file manager unasked at Level 1 (rated %s)", tc.file, rep.Risk)
			}
			if tc.opens && (!started || rep.Status != gate.StatusOK) {
				t.Errorf("a folder of notes did not open unasked (rated %s): %+v", rep.Risk, rep)
			}
		})
	}
}
