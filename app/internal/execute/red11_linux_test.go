//go:build linux

package execute_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// ext4Disk mounts a file system of 1 GiB (ext4, as a person's disk is)
// for the test and returns where.
func ext4Disk(t *testing.T) string {
	t.Helper()
	dir := tempDir(t)
	img, disk := filepath.Join(dir, "disk.img"), filepath.Join(dir, "disk")
	if err := os.Mkdir(disk, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 1<<30); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", img).CombinedOutput(); err != nil {
		t.Skipf("cannot make an ext4 disk for the test: %v %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, disk).CombinedOutput(); err != nil {
		t.Skipf("cannot mount an ext4 disk for the test: %v %s", err, out)
	}
	t.Cleanup(func() { unix.Unmount(disk, unix.MNT_DETACH) })
	return disk
}

// TestRed11FillWithinOneLook: the floor is looked at every 50 ms, and
// fallocate takes a disk's free space in far less (900 MiB of ext4 in
// under a millisecond): on main an action that allocated 4 × 240 MiB on a
// disk of 1 GiB (ext4, as a person's disk is) had all of it, the disk
// full before the watch looked (the person's apps that save then fail).
// Now an unasked action's fallocate is refused (EOPNOTSUPP, as on a file
// system without it: glibc's posix_fallocate then writes the zeros, at
// the pace the watch sees).
func TestRed11FillWithinOneLook(t *testing.T) {
	disk := ext4Disk(t)
	r := rigOnDisk(t, disk)
	before := freeMiB(t, disk)
	name := "fill the disk within one look with fallocate"
	argv := append(payload11(t, name), "240", "4")
	res, _, err := r.runArgv(t, name, argv, "Documents")
	t.Logf("output %q, error %v", res.Output, err)
	if err == nil || !strings.Contains(err.Error(), "the free space on the disk") {
		t.Fatalf("it was not stopped at the disk's floor: error %v", err)
	}
	m := regexp.MustCompile(`fell to (\d+) MiB`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("the error does not say how far the free space fell: %v", err)
	}
	if left, _ := strconv.Atoi(m[1]); left < 64 {
		t.Errorf("it took the disk from %d MiB free to %d MiB before the watch saw it", before, left)
	}
}

// TestRed11FallocateLookalike: a program that preallocates a file with
// posix_fallocate (a download, a database) still gets its file: glibc
// writes the zeros when the kernel says fallocate is not supported.
func TestRed11FallocateLookalike(t *testing.T) {
	r := rigOnDisk(t, ext4Disk(t))
	name := "fill the disk within one look with fallocate"
	argv := append(payload11(t, name), "64", "1")
	res, _, err := r.runArgv(t, name, argv, "Documents")
	if err != nil || !strings.Contains(res.Output, "allocated 64 MiB") {
		t.Fatalf("a preallocation of 64 MiB failed: error %v, output %q", err, res.Output)
	}
	if fi, err := os.Stat(r.p("Documents/fill-fast-0.bin")); err != nil || fi.Size() != 64<<20 {
		t.Errorf("its file did not land whole: %v", err)
	}
}
