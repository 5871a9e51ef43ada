//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// warmStarts says that a Box keeps launchers started ahead (warm.go).
const warmStarts = true

// probeTimeout bounds the launcher's trial run.
const probeTimeout = 10 * time.Second

// selfExe is this program as the kernel knows it: it names the running
// binary even if the file was replaced since.
func selfExe() string { return "/proc/self/exe" }

// pinnedFloor is the lowest descriptor a pinned launcher is held at: above
// those a child gets (0 to 3) and those Go's fork moves them through on
// the way, so that none is put in its place before the exec.
const pinnedFloor = 64

// pinned are the launchers pin opened, by path: each once per process.
var pinned struct {
	sync.Mutex
	m map[string]string
}

// pin opens the launcher at path and returns /proc/self/fd/N, which names
// the file opened (its inode) in every process this one starts, however
// the path changes later: the launcher run is the file New found, and an
// upgrade that puts another in its place reaches only gates started after
// it. A script (the tests' wrappers) keeps its path: its interpreter opens
// it again by name, which a descriptor closed at exec cannot give; and a
// path that cannot be opened stays as it is, for the probe to fail on.
func pin(path string) (string, error) {
	pinned.Lock()
	defer pinned.Unlock()
	if p, ok := pinned.m[path]; ok {
		return p, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return path, nil // the probe fails to start it, and says so
	}
	defer f.Close()
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || string(magic[:]) != "\x7fELF" {
		return path, nil
	}
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, pinnedFloor)
	if err != nil {
		return "", fmt.Errorf("sandbox: holding the launcher open: %w", err)
	}
	if pinned.m == nil {
		pinned.m = map[string]string{}
	}
	p := "/proc/self/fd/" + strconv.Itoa(fd)
	pinned.m[path] = p
	return p, nil
}

// anonymousFile is a file in memory (memfd) for the launcher's spec: no
// inode on a disk to make and remove for every action, and sealable.
func anonymousFile() (*os.File, error) {
	fd, err := unix.MemfdCreate("airlock-spec", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "airlock-spec"), nil
}

// seal makes the spec f holds final: nobody holding the descriptor, the
// launcher included, can change, grow or shrink it.
func seal(f *os.File) error {
	_, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE)
	return err
}

// platformCommand starts the launcher in namespaces of its own, the
// network's too unless the profile's network plan keeps the host's.
func (b *Box) platformCommand(c bridge.Command, s spec, _ []string) (bridge.Command, spec, error) {
	plan := launcher.PlanNetwork(s.Profile, b.abi)
	if plan.OwnNamespace {
		s.HostNetNS = launcher.NetNamespace()
	}
	c.Namespaces = true
	c.HostNetwork = !plan.OwnNamespace
	return c, s, nil
}

// probe checks the kernel, then starts the launcher once in probe mode:
// it sets up everything an action gets and reports what it enforced.
func (b *Box) probe() (string, error) {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return "", fmt.Errorf("the kernel has no Landlock (%v): Linux 6.2 or newer with Landlock enabled is needed", err)
	}
	if abi < launcher.MinABI {
		return "", fmt.Errorf("the kernel's Landlock is ABI %d; ABI %d (Linux 6.2) or newer is needed", abi, launcher.MinABI)
	}
	b.abi = abi
	tmp, err := os.MkdirTemp("", tempDirPattern)
	if err != nil {
		return "", fmt.Errorf("making a temporary folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	p, err := Derive(b.s, KindCommand, Grant{}, tmp)
	if err != nil {
		return "", err
	}
	// The views of an action that runs unasked, and a trial one.
	trialRoot := filepath.Join(tmp, "trial")
	for _, d := range []string{trialRoot, filepath.Join(trialRoot, "d")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return "", fmt.Errorf("making a trial folder: %w", err)
		}
	}
	for _, f := range []string{filepath.Join(trialRoot, "f"), filepath.Join(trialRoot, "d", "x")} {
		if err := os.WriteFile(f, []byte("trial"), 0o600); err != nil {
			return "", fmt.Errorf("making a trial file: %w", err)
		}
	}
	p, layers, err := b.stage(p, trialRoot)
	if err != nil {
		return "", err
	}
	defer RemoveLayers(layers)
	trial := layers[len(layers)-1]
	c, s, err := b.platformCommand(bridge.Command{Argv: []string{b.launcher, LaunchFlag}, Name: "the sandbox's launcher",
		Env: launcher.Environ(), Dir: "/"}, spec{Profile: p, Probe: true, Layers: layers[:len(layers)-1], Trial: &trial}, nil)
	if err != nil {
		return "", err
	}
	f, err := specFile(s)
	if err != nil {
		return "", err
	}
	defer f.Close()
	c.ExtraFiles = []*os.File{f}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	out, stderr, err := bridge.RunArgv(ctx, c)
	var ee *bridge.ExitError
	if err != nil && !errors.As(err, &ee) {
		// It did not start: the kernel refused the namespaces (user
		// namespaces disabled or restricted, or none left).
		return "", fmt.Errorf("the kernel refuses to start a program in new user namespaces here (%v)", err)
	}
	if err != nil {
		// What the launcher said, whole (the exit error's line is cut).
		if said := strings.TrimSpace(stderr); strings.HasPrefix(said, launchPrefix) && ee.Signal == "" {
			said = said[strings.LastIndex(said, launchPrefix)+len(launchPrefix):]
			return "", fmt.Errorf("the sandbox's launcher failed (status %d): %s", ee.Code, said)
		}
		return "", err
	}
	if err := checkTrial(trial); err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// checkTrial reads the layer of the probe's trial view, as the gate reads
// an action's, once the launcher that wrote it has exited: removing the
// file "f" must have left a whiteout, and removing the folder "d" and
// making it again with the file "n", an opaque folder.
func checkTrial(l Layer) error {
	ch, err := ReadLayer(l)
	if err != nil {
		return fmt.Errorf("the trial view's layer: %w; %s", err, launcher.NeedOverlay)
	}
	want := []Change{
		{Kind: Replaced, Path: filepath.Join(l.Root, "d")},
		{Kind: Created, Path: filepath.Join(l.Root, "d", "n")},
		{Kind: Removed, Path: filepath.Join(l.Root, "f")},
	}
	ok := len(ch) == len(want)
	for i := 0; ok && i < len(ch); i++ {
		ok = ch[i].Kind == want[i].Kind && ch[i].Path == want[i].Path
	}
	if !ok {
		return fmt.Errorf("the trial view's layer does not record whiteouts and opaque folders as expected (%v); %s", ch, launcher.NeedOverlay)
	}
	return nil
}
