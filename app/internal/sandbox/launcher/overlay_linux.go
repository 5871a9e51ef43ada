//go:build linux

package launcher

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// overlayOptions are the options of every copy-on-write view beside its
// layers, each with its reason. (Mounted by the launcher, root only in its
// own user namespace: overlayfs allows that since Linux 5.11.)
var overlayOptions = []struct{ key, value, why string }{
	{"userxattr", "", "overlayfs keeps its attributes (whiteouts, opaque folders) as user.overlay.*, the only ones a user namespace may write"},
	{"redirect_dir", "nofollow", "renaming a folder that was in the root fails with EXDEV, and programs copy it instead: " +
		"the upper layer holds whole folders and no redirect, and none is followed"},
	{"metacopy", "off", "a file copied up holds its whole content, not only its metadata"},
	{"index", "off", "no index of inodes in the work folder, which would tie the layer to the root's file handles"},
	{"volatile", "", "no sync of the upper layer: overlayfs would otherwise sync every file it copies up (milliseconds " +
		"each), and the layer only has to last until the gate has read it, in this boot (Layer.Boot)"},
}

// NeedOverlay is what the kernel needs for the views, said when it
// refuses one.
const NeedOverlay = "actions that run unasked need a copy-on-write view of the sandbox roots: " +
	"overlayfs mounted in a user namespace with userxattr (Linux 5.11 or newer), and a staging folder " +
	"on a file system with user extended attributes"

// mountLayers mounts each layer's copy-on-write view on its root, outer
// roots first, and returns the roots it mounted on. A root that no longer
// exists is skipped (the action may not write there). keep is the
// action's temporary folder: where it lies in a root, the real folder is
// mounted back over the view, so that what the action keeps there is not
// in its layer. Every view is set up (its folders looked up) before any is
// mounted, so that a root inside another, on a mount of its own, gets the
// real root below its view, not the outer view.
func mountLayers(layers []Layer, keep string) ([]string, error) {
	layers = slices.Clone(layers)
	slices.SortFunc(layers, func(a, b Layer) int { return strings.Compare(a.Root, b.Root) })
	type pending struct {
		fd     int
		target string
	}
	var todo []pending
	defer func() {
		for _, p := range todo {
			unix.Close(p.fd)
		}
	}()
	var roots []string
	for _, l := range layers {
		if fi, err := os.Stat(l.Root); errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.IsDir()) {
			continue
		}
		fd, err := overlayMount(l)
		if err != nil {
			return nil, err
		}
		todo = append(todo, pending{fd, l.Root})
		roots = append(roots, l.Root)
	}
	if keep != "" && slices.ContainsFunc(roots, func(r string) bool { return Within(keep, r) }) {
		fd, err := unix.OpenTree(unix.AT_FDCWD, keep, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
		if err != nil {
			return nil, fmt.Errorf("keeping the temporary folder %s out of the view: %w", keep, err)
		}
		todo = append(todo, pending{fd, keep})
	}
	for _, p := range todo {
		if err := unix.MoveMount(p.fd, "", unix.AT_FDCWD, p.target, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return nil, fmt.Errorf("mounting the view of %s: %w", p.target, err)
		}
	}
	return roots, nil
}

// overlayMount sets up the view of one layer and returns it, not yet
// mounted anywhere. When the kernel refuses, the error holds what it said.
func overlayMount(l Layer) (int, error) {
	fsfd, err := unix.Fsopen("overlay", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("the kernel has no overlayfs for this user namespace (%w); %s", err, NeedOverlay)
	}
	defer unix.Close(fsfd)
	refused := func(what string, err error) error {
		if msg := kernelSays(fsfd); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return fmt.Errorf("overlayfs refused %s for %s (%w); %s", what, l.Root, err, NeedOverlay)
	}
	// The kernel splits lowerdir at colons and unescapes backslashes in
	// every folder it is given.
	for _, kv := range [][2]string{
		{"lowerdir", escapeLayer(l.Root, true)},
		{"upperdir", escapeLayer(l.Upper, false)},
		{"workdir", escapeLayer(l.Work, false)},
	} {
		if err := unix.FsconfigSetString(fsfd, kv[0], kv[1]); err != nil {
			return -1, refused(kv[0]+" "+kv[1], err)
		}
	}
	for _, o := range overlayOptions {
		if o.value == "" {
			err = unix.FsconfigSetFlag(fsfd, o.key)
		} else {
			err = unix.FsconfigSetString(fsfd, o.key, o.value)
		}
		if err != nil {
			return -1, refused("the option "+o.key, err)
		}
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return -1, refused("the view", err)
	}
	fd, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOSUID)
	if err != nil {
		return -1, refused("mounting the view", err)
	}
	return fd, nil
}

// escapeLayer escapes a folder as overlayfs's options are read: a
// backslash before each backslash, and for lowerdir (a list split at
// colons) before each colon.
func escapeLayer(path string, lower bool) string {
	var b strings.Builder
	for _, r := range path {
		if r == '\\' || (lower && r == ':') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// kernelSays returns the messages the kernel logged on a file system
// context (fsopen), its errors and warnings, joined.
func kernelSays(fsfd int) string {
	var msgs []string
	buf := make([]byte, 1024)
	for len(msgs) < 8 {
		n, err := unix.Read(fsfd, buf)
		if err != nil || n <= 0 {
			break
		}
		m := string(bytes.TrimSpace(buf[:n]))
		if kind, text, ok := strings.Cut(m, " "); ok && (kind == "e" || kind == "w") {
			msgs = append(msgs, text)
		}
	}
	return strings.Join(msgs, "; ")
}

// trialOverlay is the probe's trial of the views: on a view of l.Root,
// which holds the file "f" and the folder "d" with the file "x", it
// removes f and d, makes d again with a file "n" in it, and unmounts the
// view. The gate then reads the layer as it reads an action's
// (sandbox.ReadLayer), and checks it holds a whiteout for f and an opaque
// d.
func trialOverlay(l Layer) error {
	if _, err := mountLayers([]Layer{l}, ""); err != nil {
		return err
	}
	mounted := true
	defer func() {
		if mounted {
			unix.Unmount(l.Root, unix.MNT_DETACH)
		}
	}()
	steps := []struct {
		what string
		do   func() error
	}{
		{"removing a file", func() error { return os.Remove(filepath.Join(l.Root, "f")) }},
		{"removing a folder", func() error { return os.RemoveAll(filepath.Join(l.Root, "d")) }},
		{"making it again", func() error { return os.Mkdir(filepath.Join(l.Root, "d"), 0o700) }},
		{"writing in it", func() error { return os.WriteFile(filepath.Join(l.Root, "d", "n"), []byte("n"), 0o600) }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			return fmt.Errorf("in a trial view, %s failed (%w); %s", s.what, err, NeedOverlay)
		}
	}
	if err := unix.Unmount(l.Root, unix.MNT_DETACH); err != nil {
		return fmt.Errorf("unmounting the trial view: %w", err)
	}
	mounted = false
	return nil
}
