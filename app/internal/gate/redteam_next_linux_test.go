//go:build linux

package gate_test

import (
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
