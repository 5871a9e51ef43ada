//go:build linux

package execute_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func payload11(t *testing.T, name string) []string { return payloadIn(t, "red11.json", name) }

// TestRed11ReviewFillsTheRootsDisk: the floors were watched only while an
// unasked action ran, when it writes into its layers; the review that
// lands what it wrote in the roots ran after the watch had stopped. Where
// the layers lie on another disk than the roots (the data folder or the
// temporary folder on one disk, the working folder on another), nothing
// the action does takes the roots' disk below its floor while it runs,
// and the review then fills it: sparse files (which take no room in the
// layer at all) are written out whole when they land. On main the payload's
// three sparse files of 100 MiB landed in a working folder on a disk of
// 512 MiB, leaving 212 MiB, below the floor of 256 MiB (half of what was
// free). Now the review counts what landing will write on each disk first,
// and lands nothing when that takes one below its floor.
func TestRed11ReviewFillsTheRootsDisk(t *testing.T) {
	r, _ := smallDiskRig(t, "")
	docs := r.p("Documents")
	if err := unix.Mount("tmpfs", docs, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=512m,mode=0755"); err != nil {
		t.Skipf("cannot mount a small file system for the working folder: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(docs, unix.MNT_DETACH) })
	before := freeMiB(t, docs)
	name := "sparse files that grow when the review lands them"
	argv := append(payload11(t, name), "100", "3")
	res, _, err := r.runArgv(t, name, argv, "Documents")
	t.Logf("output %q, error %v", res.Output, err)
	if err == nil || !strings.Contains(err.Error(), "free space") {
		t.Errorf("landing what it wrote was not refused at the floor: error %v", err)
	}
	if f := r.filled(t); len(f) > 0 {
		t.Errorf("%d of its files were kept, the first %s", len(f), filepath.Base(f[0]))
	}
	if after := freeMiB(t, docs); after+8 < before {
		t.Errorf("%d MiB free on the working folder's disk after it, %d before", after, before)
	}
}
