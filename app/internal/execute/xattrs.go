//go:build linux || darwin

package execute

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// A copy keeps the extended attributes of what it copies (a red team's
// find, TestRed12CopyKeepsWhatMarksADownload). A browser marks what it
// downloads with one — com.apple.quarantine on macOS, which makes
// Gatekeeper check an app, a disk image or a script before it first runs,
// and user.xdg.origin.url on Linux — and the analyzer rates copying
// without it (cp -X, ditto --noqtn) Destructive: a COPY_FILE that wrote
// bare files stripped it unasked. Other attributes go along too (Finder's
// tags and comments, a resource fork), as Finder's and cp's copies keep
// them. On Linux only the user namespace is copied: security labels,
// trusted attributes and ACLs (system.posix_acl_*, which can grant an
// executable bit) stay the new file's own.

// quarantineAttr is the attribute whose loss would let what was downloaded
// skip Gatekeeper: a copy that cannot keep it fails.
const quarantineAttr = "com.apple.quarantine"

// maxXattrs bounds the names and each value of one file's attributes.
const maxXattrs = 64 << 10

// copyXattrs gives dst (open) the extended attributes of src (open). An
// attribute the destination's file system or rights refuse is left out,
// but for the quarantine.
func copyXattrs(src, dst *os.File) error {
	names, err := xattrNames(int(src.Fd()))
	if err != nil {
		return fmt.Errorf("reading the extended attributes of %s: %w", src.Name(), err)
	}
	for _, name := range names {
		if runtime.GOOS == "linux" && !strings.HasPrefix(name, "user.") {
			continue
		}
		buf := make([]byte, maxXattrs)
		n, err := unix.Fgetxattr(int(src.Fd()), name, buf)
		if err != nil {
			return fmt.Errorf("reading the extended attribute %s of %s: %w", name, src.Name(), err)
		}
		err = unix.Fsetxattr(int(dst.Fd()), name, buf[:n], 0)
		switch {
		case err == nil:
		case name != quarantineAttr && (errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES)):
		default:
			return fmt.Errorf("giving %s the extended attribute %s: %w", dst.Name(), name, err)
		}
	}
	return nil
}

// xattrNames lists the extended attributes of the file open as fd.
func xattrNames(fd int) ([]string, error) {
	buf := make([]byte, maxXattrs)
	n, err := unix.Flistxattr(fd, buf)
	if errors.Is(err, unix.ENOTSUP) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range strings.Split(string(buf[:n]), "\x00") {
		if name != "" {
			out = append(out, name)
		}
	}
	return out, nil
}
