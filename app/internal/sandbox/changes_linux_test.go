//go:build linux

package sandbox_test

import (
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// A layer made by hand, as overlayfs would leave it or as a hostile
// action might try to: ReadLayer's input is untrusted.

type handLayer struct {
	t testing.TB
	l sandbox.Layer
}

func newHandLayer(t testing.TB) *handLayer {
	t.Helper()
	d := t.TempDir()
	h := &handLayer{t: t, l: sandbox.Layer{Root: filepath.Join(d, "root"), Upper: filepath.Join(d, "upper"), Work: filepath.Join(d, "work")}}
	for _, p := range []string{h.l.Root, h.l.Upper, h.l.Work} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h *handLayer) path(upper bool, rel string) string {
	if upper {
		return filepath.Join(h.l.Upper, rel)
	}
	return filepath.Join(h.l.Root, rel)
}

func (h *handLayer) mkdir(upper bool, rel string, mode fs.FileMode) {
	h.t.Helper()
	p := h.path(upper, rel)
	if err := os.Mkdir(p, 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		h.t.Fatal(err)
	}
}

func (h *handLayer) file(upper bool, rel, content string) {
	h.t.Helper()
	if err := os.WriteFile(h.path(upper, rel), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func (h *handLayer) symlink(upper bool, rel, target string) {
	h.t.Helper()
	if err := os.Symlink(target, h.path(upper, rel)); err != nil {
		h.t.Fatal(err)
	}
}

// whiteout makes overlayfs's whiteout device (allowed without privileges
// since Linux 5.8).
func (h *handLayer) whiteout(rel string) {
	h.t.Helper()
	if err := unix.Mknod(h.path(true, rel), unix.S_IFCHR, 0); err != nil {
		h.t.Skipf("cannot make a whiteout device here: %v", err)
	}
}

func (h *handLayer) xattr(rel, name, value string) {
	h.t.Helper()
	if err := unix.Lsetxattr(h.path(true, rel), name, []byte(value), 0); err != nil {
		h.t.Skipf("no user extended attributes here: %v", err)
	}
}

// TestReadLayer: each record overlayfs leaves in an upper layer, and what
// else an action can leave there, read as the change it is.
func TestReadLayer(t *testing.T) {
	h := newHandLayer(t)
	outside := t.TempDir()
	// A whiteout, of either form, over a file: removed; over nothing: no
	// change.
	h.file(false, "f", "f")
	h.whiteout("f")
	h.file(false, "g", "g")
	h.file(true, "g", "")
	h.xattr("g", "user.overlay.whiteout", "y")
	h.whiteout("ghost")
	// An opaque folder over a folder: replaced, its entries created (the
	// old ones not mentioned).
	h.mkdir(false, "d", 0o755)
	h.file(false, "d/old", "old")
	h.mkdir(true, "d", 0o755)
	h.xattr("d", "user.overlay.opaque", "y")
	h.file(true, "d/new", "new")
	h.file(true, "d/old", "new old")
	// A folder over a folder with other bits: changed; its entries
	// compared.
	h.mkdir(false, "e", 0o755)
	h.file(false, "e/x", "x")
	h.mkdir(true, "e", 0o700)
	h.file(true, "e/x", "x2")
	// The escaped attribute an action sets through its view: no change.
	h.mkdir(false, "esc", 0o755)
	h.mkdir(true, "esc", 0o755)
	h.xattr("esc", "user.overlay.overlay.opaque", "y")
	// A folder over a file, and a link over a folder: changed; nothing
	// below the file is compared.
	h.file(false, "file2", "f2")
	h.mkdir(true, "file2", 0o755)
	h.file(true, "file2/c", "c")
	h.mkdir(false, "dirl", 0o755)
	h.file(false, "dirl/z", "z")
	h.symlink(true, "dirl", outside)
	// A link in the root, a folder over it: the link is never followed.
	write(t, filepath.Join(outside, "keep"), "keep")
	h.symlink(false, "sl", outside)
	h.mkdir(true, "sl", 0o755)
	h.file(true, "sl/keep", "x")
	// Links anywhere, odd names, and what cannot be applied.
	h.symlink(true, "link", "/etc/passwd")
	h.file(true, "new\nline", "n")
	long := strings.Repeat("a", 255)
	h.file(true, long, "l")
	if err := unix.Mkfifo(h.path(true, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: h.path(true, "sock"), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	h.file(false, "over-fifo", "o")
	if err := unix.Mkfifo(h.path(true, "over-fifo"), 0o600); err != nil {
		t.Fatal(err)
	}

	cs, err := sandbox.ReadLayer(h.l)
	if err != nil {
		t.Fatal(err)
	}
	got := changeLines(h.l.Root, cs)
	want := strings.Join([]string{
		"created " + long + " -rw-r--r-- -",
		"replaced d drwxr-xr-x drwxr-xr-x",
		"created d/new -rw-r--r-- -",
		"created d/old -rw-r--r-- -",
		"changed dirl Lrwxrwxrwx drwxr-xr-x",
		"changed e drwx------ drwxr-xr-x",
		"changed e/x -rw-r--r-- -rw-r--r--",
		"removed f - -rw-r--r--",
		"not applied (not a file, link or folder) fifo prw------- -",
		"changed file2 drwxr-xr-x -rw-r--r--",
		"created file2/c -rw-r--r-- -",
		"removed g - -rw-r--r--",
		"created link Lrwxrwxrwx -",
		"created new\nline -rw-r--r-- -",
		"not applied (not a file, link or folder) over-fifo prw------- -rw-r--r--",
		"changed sl drwxr-xr-x Lrwxrwxrwx",
		"created sl/keep -rw-r--r-- -",
		"not applied (not a file, link or folder) sock Srwxr-xr-x -",
	}, "\n") + "\n"
	if got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range cs {
		switch {
		case c.Kind == sandbox.Removed && c.Upper != "":
			t.Errorf("%s: a removal with a new version %s", c.Path, c.Upper)
		case c.Kind != sandbox.Removed && c.Upper != filepath.Join(h.l.Upper, strings.TrimPrefix(c.Path, h.l.Root)):
			t.Errorf("%s: new version at %s", c.Path, c.Upper)
		case c.Kind != sandbox.Removed && c.Mode.IsRegular() && c.Size != int64(len(mustRead(t, c.Upper))):
			t.Errorf("%s: size %d", c.Path, c.Size)
		}
	}
	if b, err := os.ReadFile(filepath.Join(outside, "keep")); err != nil || string(b) != "keep" {
		t.Errorf("a file a link led to: %q, %v", b, err)
	}
}

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadLayerBounds: a layer too large or too deep to review is refused
// with an error that says so, as is one with bad paths.
func TestReadLayerBounds(t *testing.T) {
	h := newHandLayer(t)
	for i := range 20 {
		h.file(true, "f"+strings.Repeat("x", i), "")
	}
	if _, err := sandbox.ReadLayerWithin(h.l, 10, 100); err == nil || !strings.Contains(err.Error(), "more than 10 entries") {
		t.Errorf("20 entries, at most 10: %v", err)
	}
	if _, err := sandbox.ReadLayerWithin(h.l, 20, 100); err != nil {
		t.Errorf("20 entries, at most 20: %v", err)
	}

	deep := newHandLayer(t)
	rel := ""
	for range 300 {
		rel = filepath.Join(rel, "d")
		deep.mkdir(true, rel, 0o755)
	}
	if _, err := sandbox.ReadLayer(deep.l); err == nil || !strings.Contains(err.Error(), "more than 256 levels") {
		t.Errorf("300 levels: %v", err)
	}
	if cs, err := sandbox.ReadLayerWithin(deep.l, 1000, 300); err != nil || len(cs) != 300 {
		t.Errorf("300 levels, at most 300: %d changes, %v", len(cs), err)
	}

	// Past PATH_MAX by way of long names, within the depth bound.
	long := newHandLayer(t)
	fd, err := unix.Open(long.l.Upper, unix.O_DIRECTORY|unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 { // 20 × 251 bytes, made relative to each folder
		name := strings.Repeat("n", 250)
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_DIRECTORY|unix.O_RDONLY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	unix.Close(fd)
	if _, err := sandbox.ReadLayer(long.l); err == nil || !strings.Contains(err.Error(), "longer than 4095 bytes") {
		t.Errorf("a path past PATH_MAX: %v", err)
	}

	for _, l := range []sandbox.Layer{
		{Root: "relative", Upper: h.l.Upper},
		{Root: h.l.Root, Upper: ""},
		{Root: h.l.Root, Upper: filepath.Join(h.l.Upper, "missing")},
		{Root: filepath.Join(h.l.Root, "missing"), Upper: h.l.Upper},
		{Root: h.l.Root, Upper: h.l.Upper, Boot: "a boot before this one"},
	} {
		if _, err := sandbox.ReadLayer(l); err == nil {
			t.Errorf("ReadLayer(%+v) read it", l)
		}
	}
}

// FuzzReadLayer builds a root and an upper layer from the input (folders,
// files, links anywhere, whiteouts, opaque and escaped attributes, pipes,
// odd names) and checks what ReadLayer says of them: it fails only past
// its bounds, never changes either tree, and reports each path once,
// parents first, inside the root, each change consistent with the trees.
func FuzzReadLayer(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 1, 1, 3, 0, 1})
	f.Add([]byte{0, 2, 0, 0, 2, 1, 4, 2, 1, 1, 3, 1, 7, 0, 0})
	f.Add([]byte{0, 1, 1, 2, 1, 0, 5, 1, 1, 6, 0, 1, 0, 4, 9, 0, 4, 9, 3, 4, 9})
	names := []string{"a", "b", "x y", "new\nline", ".hidden", strings.Repeat("l", 200), "c"}
	targets := []string{"/", "..", "../../..", "a", "/etc/passwd", "b/../a"}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 300 {
			return
		}
		h := newHandLayer(t)
		dirs := map[bool][]string{true: {"."}, false: {"."}}
		for i := 0; i+2 < len(data); i += 3 {
			upper := data[i+2]&1 == 1
			parent := dirs[upper][int(data[i+2]>>1)%len(dirs[upper])]
			rel := filepath.Join(parent, names[int(data[i+1])%len(names)])
			p := h.path(upper, rel)
			if _, err := os.Lstat(p); err == nil {
				continue
			}
			switch data[i] % 9 {
			case 0:
				if os.Mkdir(p, 0o755) == nil {
					dirs[upper] = append(dirs[upper], rel)
				}
			case 1:
				os.WriteFile(p, []byte(rel), 0o644)
			case 2:
				os.Symlink(targets[int(data[i+1])%len(targets)], p)
			case 3:
				if upper {
					unix.Mknod(p, unix.S_IFCHR, 0)
				}
			case 4:
				if upper && os.Mkdir(p, 0o700) == nil {
					unix.Setxattr(p, "user.overlay.opaque", []byte("y"), 0)
					dirs[upper] = append(dirs[upper], rel)
				}
			case 5:
				if upper && os.Mkdir(p, 0o755) == nil {
					unix.Setxattr(p, "user.overlay.overlay.opaque", []byte("y"), 0)
					dirs[upper] = append(dirs[upper], rel)
				}
			case 6:
				unix.Mkfifo(p, 0o600)
			case 7:
				if upper && os.WriteFile(p, nil, 0o644) == nil {
					unix.Setxattr(p, "user.overlay.whiteout", []byte("y"), 0)
				}
			case 8:
				os.Chmod(h.path(upper, parent), fs.FileMode(0o700|int(data[i+1])&0o77))
			}
		}
		beforeRoot, beforeUpper := snapshot(t, h.l.Root), snapshot(t, h.l.Upper)
		cs, err := sandbox.ReadLayerWithin(h.l, 40, 4)
		if err != nil {
			if !strings.Contains(err.Error(), "entries") && !strings.Contains(err.Error(), "levels") {
				t.Fatalf("ReadLayer: %v", err)
			}
			return
		}
		sameSnapshot(t, "the root", beforeRoot, snapshot(t, h.l.Root))
		sameSnapshot(t, "the upper layer", beforeUpper, snapshot(t, h.l.Upper))
		checkChanges(t, h.l, cs)
	})
}

// checkChanges checks what ReadLayer reported of l against the trees.
func checkChanges(t *testing.T, l sandbox.Layer, cs []sandbox.Change) {
	t.Helper()
	seen := map[string]sandbox.ChangeKind{}
	for i, c := range cs {
		if !filepath.IsAbs(c.Path) || filepath.Clean(c.Path) != c.Path || (c.Path != l.Root && !strings.HasPrefix(c.Path, l.Root+"/")) {
			t.Fatalf("change %d: path %q is not in the root", i, c.Path)
		}
		if _, dup := seen[c.Path]; dup {
			t.Fatalf("change %d: %s reported twice", i, c.Path)
		}
		seen[c.Path] = c.Kind
		rel := strings.TrimPrefix(strings.TrimPrefix(c.Path, l.Root), "/")
		// Parents first: no later change is an ancestor.
		for _, later := range cs[i+1:] {
			if strings.HasPrefix(c.Path, later.Path+"/") {
				t.Fatalf("%s comes before its parent %s", c.Path, later.Path)
			}
		}
		below, belowErr := os.Lstat(c.Path)
		switch c.Kind {
		case sandbox.Removed:
			if c.Upper != "" || c.Mode != 0 || belowErr != nil || below.Mode() != c.Was {
				t.Fatalf("removed %s: %+v (below: %v)", rel, c, belowErr)
			}
			continue
		case sandbox.Created, sandbox.Changed, sandbox.Replaced, sandbox.Unsupported:
		default:
			t.Fatalf("%s: unknown kind %d", rel, c.Kind)
		}
		if c.Upper != filepath.Join(l.Upper, rel) {
			t.Fatalf("%s: new version at %s", rel, c.Upper)
		}
		fi, err := os.Lstat(c.Upper)
		if err != nil || fi.Mode() != c.Mode {
			t.Fatalf("%s: mode %v, the layer has %v (%v)", rel, c.Mode, fi.Mode(), err)
		}
		unsupported := !fi.Mode().IsRegular() && !fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0
		if unsupported != (c.Kind == sandbox.Unsupported) {
			t.Fatalf("%s: %v is %v", rel, c.Mode, c.Kind)
		}
		if c.Kind == sandbox.Created && belowErr == nil {
			// Only inside a folder that took the place of the old one.
			ok := false
			for p, k := range seen {
				if strings.HasPrefix(c.Path, p+"/") && (k == sandbox.Replaced || k == sandbox.Changed || k == sandbox.Created) {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("%s created where something is", rel)
			}
		}
	}
}
