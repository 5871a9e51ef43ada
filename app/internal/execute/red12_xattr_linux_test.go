//go:build linux

package execute_test

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRed12CopyKeepsWhatMarksADownload: a browser marks what it downloads
// with an extended attribute — macOS's com.apple.quarantine, which makes
// Gatekeeper check an app, a disk image or a script before it first runs;
// on Linux user.xdg.origin.url. The analyzer rates cp -X and ditto
// --noqtn Destructive for stripping it, but the DSL's COPY_FILE, Caution,
// wrote new files without any attribute: an unasked copy of a downloaded
// app was one Gatekeeper never checks when the person opens it. A copy
// keeps every extended attribute of what it copies, a file's and a
// folder's (an app bundle's quarantine is on its folder) and those of
// the files inside; a file without one gets none.
func TestRed12CopyKeepsWhatMarksADownload(t *testing.T) {
	s := newSandbox(t)
	const attr, origin = "user.xdg.origin.url", "https://example.com/Tool.zip"
	s.write(t, "Documents/Downloads/tool.sh", "echo hi\n")
	s.write(t, "Documents/Downloads/Tool.app/Contents/MacOS/Tool", "binary\n")
	s.write(t, "Documents/plain.txt", "plain\n")
	for _, rel := range []string{"Documents/Downloads/tool.sh", "Documents/Downloads/Tool.app", "Documents/Downloads/Tool.app/Contents/MacOS/Tool"} {
		if err := unix.Setxattr(s.p(rel), attr, []byte(origin), 0); err != nil {
			t.Skipf("this file system keeps no user attributes: %v", err)
		}
	}
	for _, src := range []string{
		`COPY_FILE "HOME/Documents/Downloads/tool.sh" "HOME/Documents/tool.sh"`,
		`COPY_FILE "HOME/Documents/Downloads/Tool.app" "HOME/Documents/Tool.app"`,
		`COPY_FILE "HOME/Documents/plain.txt" "HOME/Documents/plain-copy.txt"`,
	} {
		if _, err := s.run(t, src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	for _, rel := range []string{"Documents/tool.sh", "Documents/Tool.app", "Documents/Tool.app/Contents/MacOS/Tool"} {
		buf := make([]byte, 256)
		n, err := unix.Getxattr(s.p(rel), attr, buf)
		if err != nil || string(buf[:n]) != origin {
			t.Errorf("HOLE: the copy %s lost %s (%v): what marked it downloaded is gone", rel, attr, err)
		}
	}
	if n, err := unix.Listxattr(s.p("Documents/plain-copy.txt"), make([]byte, 256)); err != nil || n != 0 {
		t.Errorf("the copy of a file without attributes has some (%d bytes, %v)", n, err)
	}
	if _, err := os.Stat(s.p("Documents/Tool.app/Contents/MacOS/Tool")); err != nil {
		t.Fatal(err)
	}
}
