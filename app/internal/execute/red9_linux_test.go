//go:build linux

package execute_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// smallDiskRig is a redRig whose action's layers and temporary folders lie
// on a file system of 1 GiB of its own (a tmpfs the test mounts, standing
// for the person's disk; more tmpfs options in opts), so that filling it
// fills nothing else.
func smallDiskRig(t *testing.T, opts string) (r *redRig, disk string) {
	t.Helper()
	disk = tempDir(t)
	if err := unix.Mount("tmpfs", disk, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1g,mode=0755"+opts); err != nil {
		t.Skipf("cannot mount a small file system for the test: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(disk, unix.MNT_DETACH) })
	return rigOnDisk(t, disk), disk
}

// rigOnDisk is smallDiskRig on disk, a file system the test mounted.
func rigOnDisk(t *testing.T, disk string) *redRig {
	t.Helper()
	tmp := filepath.Join(disk, "tmp")
	if err := os.Mkdir(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp) // the action's temporary folder is made there
	r := newRedRig(t, []string{"~/Documents"}, nil)
	cfg, err := sanitize.NewConfig(r.home, []string{"~/Documents"})
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(r.home, ".local", "share", "airlock")
	box, err := ossandbox.New(ossandbox.Settings{Home: r.home, Roots: cfg.Roots, Own: []string{data},
		Env:     []string{"HOME=" + r.home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"},
		Staging: filepath.Join(disk, "changes")}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close)
	if err := box.Available(); err != nil {
		t.Skipf("the sandbox cannot run here: %v", err)
	}
	r.ex = &execute.Executor{Paths: cfg, Trash: execute.FreedesktopTrash(filepath.Join(r.home, ".local", "share")), Sandbox: box}
	return r
}

// freeMiB returns the MiB free on the file system of path.
func freeMiB(t *testing.T, path string) uint64 {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		t.Fatal(err)
	}
	return st.Bavail * uint64(st.Bsize) >> 20
}

// freeInodes returns the inodes free on the file system of path.
func freeInodes(t *testing.T, path string) uint64 {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		t.Fatal(err)
	}
	return st.Ffree
}

// filled lists the files named fill-*.bin in the home's Documents and
// its Trash.
func (r *redRig) filled(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, d := range []string{r.p("Documents"), filepath.Join(r.trash, "files")} {
		filepath.WalkDir(d, func(p string, _ os.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(filepath.Base(p), "fill-") {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

// TestRed9FillTheDisk: an unasked action that writes file after file
// (each within RLIMIT_FSIZE) through its view of the working folder, or
// in its own temporary folder, would fill the disk those lie on: the
// person's apps would fail to save, and on main it ran to the end (960
// MiB of a 1 GiB disk, or ENOSPC), its files then landed in ~/Documents.
// It is stopped at the floor (at most half of what was free when it
// started), with an error that says so, and nothing it wrote is kept: not
// in Documents, not in the Trash, not in its layers.
func TestRed9FillTheDisk(t *testing.T) {
	for _, name := range []string{"fill the disk through the working folder's view", "fill the disk through its temporary folder"} {
		t.Run(name, func(t *testing.T) {
			r, disk := smallDiskRig(t, "")
			before := freeMiB(t, disk)
			res, _, err := r.runArgv(t, name, payload9(t, name), "Documents")
			t.Logf("output %q, error %v", res.Output, err)
			if err == nil || !strings.Contains(err.Error(), "the free space on the disk") {
				t.Errorf("it was not stopped at the disk's floor: error %v, output %q", err, res.Output)
			}
			if f := r.filled(t); len(f) > 0 {
				t.Errorf("%d of its files were kept, the first %s", len(f), f[0])
			}
			if after := freeMiB(t, disk); after+8 < before {
				t.Errorf("%d MiB free on the disk after it, %d before: what it wrote was left there", after, before)
			}
		})
	}
}

// TestRed9FillTheDiskLookalike: a build that writes 64 MiB in the
// working folder and 64 MiB in its temporary folder of the same 1 GiB
// disk stays well above the floor: it runs to the end and its output
// lands.
func TestRed9FillTheDiskLookalike(t *testing.T) {
	r, _ := smallDiskRig(t, "")
	name := "look-alike: a build's output well within the room"
	res, _, err := r.runArgv(t, name, payload9(t, name), "Documents")
	if err != nil {
		t.Fatalf("the build failed: %v (output %q)", err, res.Output)
	}
	if fi, err := os.Stat(r.p("Documents/build-output.bin")); err != nil || fi.Size() != 64<<20 {
		t.Errorf("its output did not land: %v", err)
	}
}

// TestRed9UseUpInodes: an unasked action that makes empty files, one
// after another, takes no bytes but the disk's inodes, and once they are
// gone no app can make a file there. On main it ran to the end (19,000 of
// a disk's 20,000) and its files landed. It is stopped at the floor of
// inodes as at the floor of bytes, and nothing it made is kept.
func TestRed9UseUpInodes(t *testing.T) {
	for _, name := range []string{"use up the disk's inodes with empty files", "use up the disk's inodes in its temporary folder"} {
		t.Run(name, func(t *testing.T) {
			r, disk := smallDiskRig(t, ",nr_inodes=20000")
			before := freeInodes(t, disk)
			res, _, err := r.runArgv(t, name, payload9(t, name), "Documents")
			t.Logf("output %q, error %v", res.Output, err)
			if err == nil || !strings.Contains(err.Error(), "inodes") {
				t.Errorf("it was not stopped at the disk's floor of inodes: error %v, output %q", err, res.Output)
			}
			if f := r.filled(t); len(f) > 0 {
				t.Errorf("%d of its files were kept, the first %s", len(f), f[0])
			}
			if after := freeInodes(t, disk); after+64 < before {
				t.Errorf("%d inodes free on the disk after it, %d before: what it made was left there", after, before)
			}
		})
	}
}

// TestRed9ManyProcessesTakeTheMemory: each process's heap is bounded, not
// the action's sum: 48 processes holding 64 MiB each take 3 GiB, and with
// enough of them the OOM killer kills the person's largest app, not one
// of the action's. Here the floor is set 512 MiB below what is available
// at the start; on main the payload held all 3 GiB and ended well. It is
// stopped (all its processes killed) with an error that says so.
func TestRed9ManyProcessesTakeTheMemory(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	t.Cleanup(execute.SetMemoryReserve(func(_, available uint64) uint64 { return available - min(available, 512<<20) }))
	name := "take the memory in many small processes"
	res, _, err := r.runArgv(t, name, append(payload9(t, name), "48"), "Documents")
	t.Logf("output %q, error %v", res.Output, err)
	if err == nil || !strings.Contains(err.Error(), "memory") {
		t.Errorf("it was not stopped at the memory's floor: error %v, output %q", err, res.Output)
	}
}

// TestRed9ManyProcessesLookalike: a test runner's 8 workers of 64 MiB
// each, under the real floor, run to the end.
func TestRed9ManyProcessesLookalike(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	name := "take the memory in many small processes"
	res, _, err := r.runArgv(t, name, append(payload9(t, name), "8"), "Documents")
	if err != nil || !strings.Contains(res.Output, "held 512 MiB in 8 processes") {
		t.Errorf("the workers did not run to the end: error %v, output %q", err, res.Output)
	}
}
