//go:build linux

package sandbox_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
)

// reviewed returns a box over r's settings with the staging folder staging
// ("" for none) and the roots given (r.docs when none).
func (r *rig) reviewed(t testing.TB, staging string, roots ...string) *sandbox.Box {
	t.Helper()
	s := r.settings
	s.Staging = staging
	if len(roots) > 0 {
		s.Roots = roots
	}
	box, err := sandbox.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close) // no folder made ahead is left behind
	if err := box.Available(); err != nil {
		t.Fatalf("the sandbox does not start: %v", err)
	}
	return box
}

// runReviewed runs argv confined by box with g from r's home and returns
// its output and layers; the layers are removed when the test ends.
func runReviewed(t testing.TB, box *sandbox.Box, dir string, g sandbox.Grant, argv ...string) (string, []sandbox.Layer, error) {
	t.Helper()
	c, layers, done, err := box.ConfineReviewed(bridge.Command{Argv: argv, Dir: dir}, sandbox.KindCommand, g)
	if err != nil {
		t.Fatalf("confining %q: %v", argv, err)
	}
	t.Cleanup(func() { sandbox.RemoveLayers(layers) })
	defer done()
	out, stderr, err := bridge.RunArgv(context.Background(), c)
	return out + stderr, layers, err
}

// snapshot is every path under dir with its type, permission bits and
// content (a file's hash, a link's target), never following a link.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		switch {
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += fmt.Sprintf(" %x", sha256.Sum256(b))
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			v += " -> " + target
		}
		m[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameSnapshot(t testing.TB, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s: %s was %q, is %q", what, p, v, after[p])
		}
	}
	for p, v := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared (%q)", what, p, v)
		}
	}
}

// changeLines renders changes one a line, "kind path mode was", paths
// relative to root.
func changeLines(root string, cs []sandbox.Change) string {
	var b strings.Builder
	for _, c := range cs {
		rel, err := filepath.Rel(root, c.Path)
		if err != nil {
			rel = c.Path
		}
		mode := "-"
		if c.Mode != 0 {
			mode = c.Mode.String()
		}
		was := "-"
		if c.Was != 0 {
			was = c.Was.String()
		}
		fmt.Fprintf(&b, "%s %s %s %s\n", c.Kind, rel, mode, was)
	}
	return b.String()
}

func readAll(t testing.TB, layers []sandbox.Layer) []sandbox.Change {
	t.Helper()
	var all []sandbox.Change
	for _, l := range layers {
		cs, err := sandbox.ReadLayer(l)
		if err != nil {
			t.Fatalf("ReadLayer(%+v): %v", l, err)
		}
		all = append(all, cs...)
	}
	return all
}

// unaskedScript is what an action that runs unasked does to ~/Documents.
const unaskedScript = `cd "$1" || exit 9
rm gone.txt
printf new > over.txt
mv from.txt to.txt
rm -r dir && mkdir dir && printf fresh > dir/fresh
mv olddir movedir
chmod +x tool.sh
printf x > sub/new.txt
printf n > new.txt
mkdir newdir && printf i > newdir/inner.txt
ln -s /etc/passwd link
printf '%s|' "$(cat over.txt)" "$(cat to.txt)" "$(ls dir)" "$(ls movedir)" "$(test -e gone.txt && echo still)"`

// populate fills dir with what unaskedScript changes.
func populate(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{"dir/b", "olddir", "sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{"gone.txt": "gone", "over.txt": "old", "from.txt": "moved",
		"dir/a": "a", "dir/b/c": "c", "olddir/x": "x", "tool.sh": "#!/bin/sh\n", "keep.txt": "keep", "sub/old.txt": "old"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUnaskedWritesGoToTheLayer: what an action that runs unasked removes,
// overwrites, renames, replaces, chmods and creates in a sandbox root it
// sees done, but the root is byte for byte as it was; its layer says
// exactly what it did; and RemoveLayers leaves nothing behind.
func TestUnaskedWritesGoToTheLayer(t *testing.T) {
	r := newRig(t)
	staging := r.settings.Staging
	box := r.box
	populate(t, r.docs)
	before := snapshot(t, r.docs)
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", unaskedScript, "sh", r.docs)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out != "new|moved|fresh|x||" {
		t.Errorf("the action's own view: %q", out)
	}
	sameSnapshot(t, "the root", before, snapshot(t, r.docs))
	if len(layers) != 1 || layers[0].Root != r.docs || !strings.HasPrefix(layers[0].Upper, staging+"/") || layers[0].Boot == "" {
		t.Fatalf("layers = %+v", layers)
	}
	got := changeLines(r.docs, readAll(t, layers))
	want := `replaced dir drwxr-xr-x drwxr-xr-x
created dir/fresh -rw-r--r-- -
removed from.txt - -rw-r--r--
removed gone.txt - -rw-r--r--
created link Lrwxrwxrwx -
created movedir drwxr-xr-x -
created movedir/x -rw-r--r-- -
created new.txt -rw-r--r-- -
created newdir drwxr-xr-x -
created newdir/inner.txt -rw-r--r-- -
removed olddir - drwxr-xr-x
changed over.txt -rw-r--r-- -rw-r--r--
created sub/new.txt -rw-r--r-- -
created to.txt -rw-r--r-- -
changed tool.sh -rwxr-xr-x -rw-r--r--
`
	if got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range readAll(t, layers) {
		if c.Path == filepath.Join(r.docs, "over.txt") {
			if b, err := os.ReadFile(c.Upper); err != nil || string(b) != "new" || c.Size != 3 {
				t.Errorf("over.txt's new version: %q, %v, size %d", b, err, c.Size)
			}
		}
	}
	if err := sandbox.RemoveLayers(layers); err != nil {
		t.Fatal(err)
	}
	if left, err := os.ReadDir(staging); err != nil || len(left) > 0 {
		t.Errorf("the staging folder holds %v after RemoveLayers (%v)", left, err)
	}
	sameSnapshot(t, "the root after RemoveLayers", before, snapshot(t, r.docs))
}

// TestApprovedWritesForReal: an action the person approved has no layers
// and changes the root itself.
func TestApprovedWritesForReal(t *testing.T) {
	r := newRig(t)
	box := r.box
	write(t, filepath.Join(r.docs, "over.txt"), "old")
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{Approved: true}, "sh", "-c", `printf new > "$1/over.txt"; printf n > "$1/new.txt"`, "sh", r.docs)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if layers != nil {
		t.Errorf("an approved action has layers: %+v", layers)
	}
	for name, want := range map[string]string{"over.txt": "new", "new.txt": "n"} {
		if b, err := os.ReadFile(filepath.Join(r.docs, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q (%v), want %q", name, b, err, want)
		}
	}
}

// TestNestedRoots: a root inside another shares its view; the action may
// write in both, only through the view.
func TestNestedRoots(t *testing.T) {
	r := newRig(t)
	inner := filepath.Join(r.docs, "inner")
	other := filepath.Join(r.home, "Other")
	for _, d := range []string{inner, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(inner, "a.txt"), "a")
	box := r.reviewed(t, filepath.Join(r.data, "layers"), inner, r.docs, other)
	before := snapshot(t, r.docs)
	beforeOther := snapshot(t, other)
	script := `printf b > "$1/a.txt" && printf c > "$1/c.txt" && printf d > "$2/d.txt" && printf e > "$3/e.txt" && cat "$1/a.txt"`
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", script, "sh", inner, r.docs, other)
	if err != nil || out != "b" {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(layers) != 2 || layers[0].Root != r.docs || layers[1].Root != other {
		t.Fatalf("layers = %+v, want one for %s and one for %s", layers, r.docs, other)
	}
	sameSnapshot(t, "~/Documents", before, snapshot(t, r.docs))
	sameSnapshot(t, "~/Other", beforeOther, snapshot(t, other))
	got := changeLines(r.home, readAll(t, layers))
	want := `created Documents/d.txt -rw-r--r-- -
changed Documents/inner/a.txt -rw------- -rw-------
created Documents/inner/c.txt -rw-r--r-- -
created Other/e.txt -rw-r--r-- -
`
	if got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
}

// TestConcurrentViews: two actions that run unasked at once each see their
// own view, not the other's writes.
func TestConcurrentViews(t *testing.T) {
	r := newRig(t)
	box := r.box
	write(t, filepath.Join(r.docs, "shared.txt"), "old")
	script := `printf "$2" > "$1/shared.txt"; : > "$1/mine-$2"; sleep 0.5; printf '%s|' "$(cat "$1/shared.txt")" "$(ls "$1" | tr '\n' ' ')"`
	var wg sync.WaitGroup
	outs := make([]string, 2)
	layers := make([][]sandbox.Layer, 2)
	errs := make([]error, 2)
	for i, name := range []string{"A", "B"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], layers[i], errs[i] = runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", script, "sh", r.docs, name)
		}()
	}
	wg.Wait()
	for i, name := range []string{"A", "B"} {
		if errs[i] != nil {
			t.Fatalf("%s: %v\n%s", name, errs[i], outs[i])
		}
		if want := name + "|mine-" + name + " shared.txt |"; outs[i] != want {
			t.Errorf("action %s saw %q, want %q", name, outs[i], want)
		}
		got := changeLines(r.docs, readAll(t, layers[i]))
		if want := "created mine-" + name + " -rw-r--r-- -\nchanged shared.txt -rw------- -rw-------\n"; got != want {
			t.Errorf("action %s's changes:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(r.docs, "shared.txt")); string(b) != "old" {
		t.Errorf("shared.txt is now %q", b)
	}
}

// TestStagingOutOfReach: the action can neither read, list nor plant
// anything in its layers or the staging folder, kept in the data
// directory or, when the staging folder lies in a root, in a folder of
// its own in the temporary folder.
func TestStagingOutOfReach(t *testing.T) {
	r := newRig(t)
	cases := []struct {
		name, staging string
	}{
		{"data directory", filepath.Join(r.data, "layers")},
		{"temporary folder (staging in a root)", filepath.Join(r.docs, ".layers")},
		{"temporary folder (no staging)", ""},
	}
	// The action learns where its layers are from a file the test writes
	// in the root once they are made, before it starts.
	script := `IFS='|' read -r staging upper work < "$1/paths.txt"
printf secret > "$1/s.txt"
ls -A "$staging" && echo listed-staging
ls -A "$upper" && echo listed-upper
cat "$upper/s.txt" && echo read-upper
printf x > "$upper/planted" && echo planted-upper
printf x > "$work/planted" && echo planted-work
exit 0`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			box := r.reviewed(t, c.staging)
			cmd, layers, done, err := box.ConfineReviewed(bridge.Command{Argv: []string{"sh", "-c", script, "sh", r.docs}, Dir: r.home},
				sandbox.KindCommand, sandbox.Grant{})
			if err != nil {
				t.Fatal(err)
			}
			defer done()
			t.Cleanup(func() { sandbox.RemoveLayers(layers) })
			if len(layers) != 1 {
				t.Fatalf("layers = %+v", layers)
			}
			l := layers[0]
			// The folder of this action's layers, and the staging folder.
			stagingDir := filepath.Dir(filepath.Dir(filepath.Dir(l.Upper)))
			if c.staging == filepath.Join(r.data, "layers") {
				if stagingDir != c.staging {
					t.Fatalf("layers in %s, not the staging folder %s", stagingDir, c.staging)
				}
			} else if strings.HasPrefix(l.Upper, r.docs+"/") || !strings.HasPrefix(l.Upper, os.TempDir()) {
				t.Fatalf("layers in %s, not in the temporary folder", l.Upper)
			}
			if fi, err := os.Stat(filepath.Dir(filepath.Dir(l.Upper))); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("the folder of the action's layers: %v (%v), want mode 0700", fi.Mode(), err)
			}
			write(t, filepath.Join(r.docs, "paths.txt"), stagingDir+"|"+l.Upper+"|"+l.Work+"\n")
			out, stderr, err := bridge.RunArgv(context.Background(), cmd)
			if err != nil {
				t.Fatalf("%v\n%s%s", err, out, stderr)
			}
			for _, bad := range []string{"listed-staging", "listed-upper", "read-upper", "planted-upper", "planted-work", "secret"} {
				if strings.Contains(out, bad) {
					t.Errorf("the action reached its layers (%s):\n%s", bad, out)
				}
			}
			got := changeLines(r.docs, readAll(t, layers))
			if got != "created s.txt -rw-r--r-- -\n" {
				t.Errorf("changes:\n%s", got)
			}
		})
	}
}

// overlayHelper is what a confined program tries against its view:
//   - forge DIR FILE: forge overlayfs's records through the view, a
//     whiteout device, an opaque folder DIR, a whiteout attribute on FILE;
//   - remove-layers JSON: RemoveLayers of the layers in JSON (run as
//     another user by TestRemoveLayers).
func overlayHelper(mode string, args []string) (code int, ok bool) {
	report := func(what string, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
			return
		}
		fmt.Printf("%s: ok\n", what)
	}
	switch mode {
	case "forge":
		report("mknod whiteout", unix.Mknod(filepath.Join(args[0], "wh"), unix.S_IFCHR|0o600, 0))
		report("opaque", unix.Setxattr(args[0], "user.overlay.opaque", []byte("y"), 0))
		report("whiteout attribute", unix.Setxattr(args[1], "user.overlay.whiteout", []byte("y"), 0))
	case "remove-layers":
		var ls []sandbox.Layer
		if err := json.Unmarshal([]byte(args[0]), &ls); err != nil {
			report("decode", err)
			return 1, true
		}
		report("remove", sandbox.RemoveLayers(ls))
	default:
		return 0, false
	}
	return 0, true
}

// TestForgedRecords: overlayfs's whiteouts and opaque folders cannot be
// forged through the view, so that what ReadLayer reports is what the
// action did: a device 0/0 cannot be made, and overlayfs attributes set
// through the view are kept as the action's own.
func TestForgedRecords(t *testing.T) {
	r := newRig(t)
	box := r.box
	dir := filepath.Join(r.docs, "dir")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "old.txt"), "old")
	empty := filepath.Join(r.docs, "empty")
	write(t, empty, "")
	before := snapshot(t, r.docs)
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, r.helper, "forge", dir, empty)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "mknod whiteout: operation not permitted") {
		t.Errorf("a whiteout device was made through the view:\n%s", out)
	}
	sameSnapshot(t, "the root", before, snapshot(t, r.docs))
	got := changeLines(r.docs, readAll(t, layers))
	// Linux 6.7 and newer keep the attributes, escaped, on a copy up of
	// each (the folder's shows no change: its mode is the same); earlier
	// kernels refuse them. Either way no removal, no replacement.
	if got != "changed empty -rw------- -rw-------\n" && got != "" {
		t.Errorf("forged records were believed:\n%s\nthe action:\n%s", got, out)
	}
}

// TestKilledAction: an action killed mid-run (the kill switch) leaves the
// root as it was, and its layer readable.
func TestKilledAction(t *testing.T) {
	r := newRig(t)
	box := r.box
	write(t, filepath.Join(r.docs, "over.txt"), "old")
	write(t, filepath.Join(r.docs, "gone.txt"), "gone")
	before := snapshot(t, r.docs)
	script := `cd "$1" && printf new > over.txt && rm gone.txt && : > marker && exec sleep 1000`
	c, layers, done, err := box.ConfineReviewed(bridge.Command{Argv: []string{"sh", "-c", script, "sh", r.docs}}, sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	defer sandbox.RemoveLayers(layers)
	p, err := bridge.StartArgv(c)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Lstat(filepath.Join(layers[0].Upper, "marker")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the action never wrote its marker")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := p.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait: %v", err)
	}
	sameSnapshot(t, "the root", before, snapshot(t, r.docs))
	got := changeLines(r.docs, readAll(t, layers))
	want := "removed gone.txt - -rw-------\ncreated marker -rw-r--r-- -\nchanged over.txt -rw------- -rw-------\n"
	if got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
}

// TestUnmappedOwner: a file whose owner has no user in the action's user
// namespace cannot be copied up, so the action fails to change it, and
// the root keeps it.
func TestUnmappedOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("making a file of another user needs root")
	}
	r := newRig(t)
	box := r.box
	owned := filepath.Join(r.docs, "owned.txt")
	write(t, owned, "theirs")
	if err := os.Chmod(owned, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(owned, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, r.docs)
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", `printf x >> "$1" && echo appended; cat "$1"`, "sh", owned)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(out, "appended") || !strings.Contains(out, "theirs") {
		t.Errorf("output:\n%s", out)
	}
	sameSnapshot(t, "the root", before, snapshot(t, r.docs))
	if got := changeLines(r.docs, readAll(t, layers)); got != "" {
		t.Errorf("changes:\n%s", got)
	}
}

// TestOddRootNames: a root whose name holds what overlayfs's options
// treat specially (colons, commas, backslashes) gets its view.
func TestOddRootNames(t *testing.T) {
	r := newRig(t)
	odd := filepath.Join(r.home, `odd:name,with\back slash`)
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(odd, "a.txt"), "a")
	box := r.reviewed(t, filepath.Join(r.data, `lay:ers,\x`), odd)
	before := snapshot(t, odd)
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", `printf b > "$1/a.txt" && cat "$1/a.txt"`, "sh", odd)
	if err != nil || out != "b" {
		t.Fatalf("%v\n%s", err, out)
	}
	sameSnapshot(t, "the root", before, snapshot(t, odd))
	if got := changeLines(odd, readAll(t, layers)); got != "changed a.txt -rw------- -rw-------\n" {
		t.Errorf("changes:\n%s", got)
	}
}

// TestHomeAsRoot: with the whole home a root, Airlock's data directory,
// where the staging folder is, lies in it: the layers go to the temporary
// folder, and what is hidden (the data directory, the SSH key) stays
// hidden in the view.
func TestHomeAsRoot(t *testing.T) {
	r := newRig(t)
	box := r.reviewed(t, filepath.Join(r.data, "layers"), r.home)
	before := snapshot(t, r.home)
	script := `cat "$HOME/.local/share/airlock/settings.json" && echo read-settings
cat "$HOME/.ssh/id_rsa" && echo read-key
printf x > "$HOME/.local/share/airlock/settings.json" && echo wrote-settings
printf x > "$HOME/new.txt" && echo wrote-home
exit 0`
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", script)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, bad := range []string{"read-settings", "read-key", "wrote-settings", "autonomy", "OPENSSH"} {
		if strings.Contains(out, bad) {
			t.Errorf("the view shows what is hidden (%s):\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "wrote-home") {
		t.Errorf("the action cannot write in its root:\n%s", out)
	}
	if len(layers) != 1 || strings.HasPrefix(layers[0].Upper, r.home+"/") {
		t.Fatalf("layers = %+v", layers)
	}
	sameSnapshot(t, "the home", before, snapshot(t, r.home))
	if got := changeLines(r.home, readAll(t, layers)); got != "created new.txt -rw-r--r-- -\n" {
		t.Errorf("changes:\n%s", got)
	}
}

// TestTempDirInRoot: where the action's temporary folder lies in a root,
// it is the real folder, not the view: what the action keeps there is not
// in its layer.
func TestTempDirInRoot(t *testing.T) {
	r := newRig(t)
	tmp := filepath.Join(r.docs, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	box := r.reviewed(t, r.settings.Staging) // probed with this TMPDIR
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", `printf t > "$TMPDIR/t" && printf x > "$1/x" && cat "$TMPDIR/t" && echo "|$TMPDIR"`, "sh", r.docs)
	if err != nil || !strings.HasPrefix(out, "t|"+tmp+"/") {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := changeLines(r.docs, readAll(t, layers)); got != "created x -rw-r--r-- -\n" {
		t.Errorf("changes:\n%s", got)
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) > 0 {
		t.Errorf("the temporary folder holds %v after the action (%v)", left, err)
	}
}

// TestRemoveLayers: RemoveLayers removes what overlayfs and the action
// left (work/work of mode 000, whiteouts, folders the action made 000),
// as the gate's own user, not root; follows no link out; and refuses
// folders that are not a layer's.
func TestRemoveLayers(t *testing.T) {
	r := newRig(t)
	staging := filepath.Join(t.TempDir(), "layers")
	box := r.reviewed(t, staging)
	outside := t.TempDir()
	write(t, filepath.Join(outside, "keep.txt"), "keep")
	write(t, filepath.Join(r.docs, "gone.txt"), "gone")
	script := `cd "$1" && rm gone.txt && mkdir -p a/b && : > a/b/f && chmod 000 a/b a && ln -s "$2" out && ln -s "$2/keep.txt" file`
	out, layers, err := runReviewed(t, box, r.home, sandbox.Grant{}, "sh", "-c", script, "sh", r.docs, outside)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := sandbox.RemoveLayers([]sandbox.Layer{{Root: r.docs, Upper: r.docs, Work: r.home}}); err == nil {
		t.Error("RemoveLayers took folders that are not a layer's")
	}
	fake := sandbox.Layer{Root: r.docs, Upper: filepath.Join(r.home, "x", "0", "upper"), Work: filepath.Join(r.home, "x", "0", "work")}
	if err := sandbox.RemoveLayers([]sandbox.Layer{fake}); err == nil {
		t.Error("RemoveLayers took folders outside a folder of layers")
	}
	if _, err := os.Stat(filepath.Join(r.docs, "gone.txt")); err != nil {
		t.Fatalf("the root lost a file: %v", err)
	}
	if os.Getuid() == 0 {
		// As an ordinary user, for whom mode 000 means no entry.
		if err := filepath.WalkDir(filepath.Dir(staging), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 65534, 65534)
		}); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(t.TempDir(), "helper")
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		copyFile(t, self, exe, 0o755)
		for _, d := range []string{filepath.Dir(exe), filepath.Dir(filepath.Dir(exe))} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := json.Marshal(layers)
		cmd := exec.Command(exe, "remove-layers", string(b))
		cmd.Env = []string{helperEnv + "=1"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "remove: ok") {
			t.Fatalf("as user 65534: %v\n%s", err, out)
		}
	} else if err := sandbox.RemoveLayers(layers); err != nil {
		t.Fatal(err)
	}
	if left, err := os.ReadDir(staging); err != nil || len(left) > 0 {
		t.Errorf("the staging folder holds %v after RemoveLayers (%v)", left, err)
	}
	if b, err := os.ReadFile(filepath.Join(outside, "keep.txt")); err != nil || string(b) != "keep" {
		t.Errorf("a file a link in the layer led to: %q, %v", b, err)
	}
}
