package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// ErrUnavailable is wrapped by the error of an action Confine refuses
// because this platform cannot confine it and the person did not approve
// it.
var ErrUnavailable = errors.New("the OS sandbox is not available here")

// LaunchFlag, as the first argument, makes airlock the launcher of one
// confined action (Main): the program calls Main before anything else.
const LaunchFlag = launcher.Flag

// The launcher's exit statuses, and what starts its lines on standard
// error.
const (
	exitSetup      = launcher.ExitSetup
	exitCannotRun  = launcher.ExitCannotRun
	exitNotFound   = launcher.ExitNotFound
	launchPrefix   = launcher.Prefix
	tempDirPattern = "airlock-action-"
)

// spec is what Confine hands the launcher on file descriptor 3.
type spec = launcher.Spec

// Box starts actions confined by their profiles. It is safe for concurrent
// use.
type Box struct {
	s        Settings
	launcher string // the program run with LaunchFlag
	warm     *pool  // launchers started ahead (warm.go)

	once  sync.Once
	avail error  // why this platform cannot confine; nil when it can
	info  string // what the probe reported enforcing
	abi   int    // Linux: the kernel's Landlock ABI, read by the probe
}

// New returns a Box for the settings. program is the launcher: a program
// that calls Main (launcher.Main) first thing. "" means airlock-launch
// (launcher.Program) beside this program's executable, the launcher made
// for it, which starts much faster than a program that initialises more;
// where there is none (tests, go run), this program itself, which must
// then call Main first thing (app/main.go does). A launcher that is a
// file of its own is hidden from every action (as Airlock's own files
// are), and on Linux held open, so that what runs is the file New found
// even if another is put in its place later.
func New(s Settings, program string) (*Box, error) {
	if program == "" {
		program = besideExe()
	}
	if program != "" {
		abs, err := filepath.Abs(program)
		if err != nil {
			return nil, fmt.Errorf("sandbox: the launcher %q: %w", program, err)
		}
		s.Own = append(slices.Clone(s.Own), abs)
		if program, err = pin(abs); err != nil {
			return nil, err
		}
	}
	if _, err := Derive(s, KindCommand, Grant{}, s.Home); err != nil {
		return nil, err
	}
	if s.Staging != "" {
		if err := absolute("staging folder", s.Staging); err != nil {
			return nil, err
		}
	}
	if program == "" {
		program = selfExe()
	}
	b := &Box{s: s, launcher: program, warm: newPool(program)}
	// A Box dropped without Close leaves no launcher waiting.
	runtime.AddCleanup(b, func(p *pool) { p.discard(true) }, b.warm)
	return b, nil
}

// besideExe returns airlock-launch beside this program's executable (links
// resolved, so that a link to the app bundle's binary finds the bundle's),
// or "" when there is no such executable file.
func besideExe() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	p := filepath.Join(filepath.Dir(exe), launcher.Program)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return ""
	}
	return p
}

// Available returns nil when actions can be confined here, and otherwise
// why not. The first call probes the platform (on Linux it starts the
// launcher once); later calls return the same answer.
func (b *Box) Available() error {
	b.once.Do(func() {
		b.info, b.avail = b.probe()
		if b.avail == nil && warmStarts {
			b.warm.prefill()
		}
	})
	return b.avail
}

// String says in one line what confines actions here, or why nothing does:
// what `airlock status` shows.
func (b *Box) String() string {
	if err := b.Available(); err != nil {
		return "unavailable: " + err.Error() + "; commands and scripts run only when you approve them"
	}
	return b.info
}

// Confine is ConfineReviewed for a caller that does not review what an
// action wrote: its done also removes the layers, so that what an action
// that runs unasked wrote in the sandbox roots is thrown away (on Linux;
// on macOS there are none). AppleScript and JXA actions, which run only on
// macOS, use it.
func (b *Box) Confine(c bridge.Command, kind string, g Grant) (bridge.Command, func(), error) {
	out, layers, done, err := b.ConfineReviewed(c, kind, g)
	if err != nil || len(layers) == 0 {
		return out, done, err
	}
	return out, func() { done(); RemoveLayers(layers) }, nil
}

// ConfineReviewed returns c, the command that runs one action of the given
// kind, made to run confined by the profile of g; the copy-on-write layers
// it writes into; and what to call once it has ended (it removes the
// action's temporary folder, not the layers). c must not carry ExtraFiles:
// a confined program gets standard input, output and error only.
//
// An action the person approved writes in the sandbox roots for real, and
// has no layers. On Linux, one that runs unasked (g.Approved false) sees
// each root through a copy-on-write view: the roots themselves stay as
// they were, and what it changed lies in its layers, one per root (nested
// roots share their outer root's). The contract: once the command has
// ended (exited, failed to start, or killed: nothing it started outlives
// its launcher), the caller reads each layer (ReadLayer), applies what it
// accepts, then calls done and RemoveLayers(layers), which it must call on
// every path, errors included. Until then the layers stay in the staging
// folder (Settings.Staging), which no action can reach.
//
// What the view cannot show: a file whose owner or group has no user in
// the action's user namespace (another user's, root's) cannot be copied
// up (EOVERFLOW), so the action fails to change it, as it fails on a
// read-only file; and a file system mounted inside a root (one that is not
// a root itself) shows as its empty mount point.
//
// Where this platform cannot confine, ConfineReviewed refuses an action
// the person did not approve (its error wraps ErrUnavailable); an approved
// one runs in a session of its own with the profile's environment, and
// nothing more.
func (b *Box) ConfineReviewed(c bridge.Command, kind string, g Grant) (bridge.Command, []Layer, func(), error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return c, nil, nil, errors.New("sandbox: no program given")
	}
	if len(c.ExtraFiles) > 0 {
		return c, nil, nil, errors.New("sandbox: a confined program gets no extra files")
	}
	if err := launcher.CheckPinned(g.Pinned); err != nil {
		return c, nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	tmp, err := b.warm.tmp.take(b.s.Roots)
	if err != nil {
		return c, nil, nil, err
	}
	removeTmp := func() { os.RemoveAll(tmp) }
	p, err := Derive(b.s, kind, g, tmp)
	if err != nil {
		removeTmp()
		return c, nil, nil, err
	}
	if aerr := b.Available(); aerr != nil {
		if !g.Approved {
			removeTmp()
			return c, nil, nil, fmt.Errorf("%w (%v): this %s runs only if you approve it", ErrUnavailable, aerr, kindWords(kind))
		}
		c.Env, c.NewSession = p.Env, true
		return c, nil, removeTmp, nil
	}
	var layers []Layer
	if p.Unasked && copyOnWrite {
		if p, layers, err = b.stage(p); err != nil {
			removeTmp()
			return c, nil, nil, err
		}
	}
	out := c
	out.Name = c.Argv[0]
	out.Argv = []string{b.launcher, LaunchFlag}
	out.Env = launcher.Environ()
	out.Dir = "/"
	out.Linger = false
	out, s, err := b.platformCommand(out, spec{Profile: p, Argv: c.Argv, Dir: c.Dir, Layers: layers, Pinned: g.Pinned}, g.Decks)
	if err != nil {
		removeTmp()
		RemoveLayers(layers)
		return c, nil, nil, err
	}
	f, err := specFile(s)
	if err != nil {
		removeTmp()
		RemoveLayers(layers)
		return c, nil, nil, err
	}
	out.ExtraFiles = []*os.File{f}
	release := func() {}
	if out.Namespaces && warmStarts {
		// A launcher in namespaces made ahead, if one of this shape waits;
		// the bridge starts out cold if it cannot use it.
		delay := time.Duration(0)
		if len(layers) > 0 {
			delay = refillDelay
		}
		out.Warm, release = b.warm.take(out, launcher.Filtered(p, b.abi), delay)
	}
	return out, layers, func() { release(); f.Close(); removeTmp(); b.warm.tmp.fill(b.s.Roots) }, nil
}

// kindWords names a kind of action in a message.
func kindWords(kind string) string {
	switch kind {
	case KindAppleScript:
		return "AppleScript"
	case KindJXA:
		return "JavaScript for Automation script"
	}
	return "command"
}

// specFile writes s to a file with no name (anonymousFile), positioned at
// its start and sealed where the platform can: the launcher reads it as
// file descriptor 3, however large it is, without either side blocking on
// a pipe.
func specFile(s spec) (*os.File, error) {
	s.Version = launcher.SpecVersion
	b := launcher.EncodeSpec(s)
	if len(b) > launcher.MaxSpecBytes {
		return nil, fmt.Errorf("sandbox: the profile and program take %d bytes: at most %d", len(b), launcher.MaxSpecBytes)
	}
	f, err := anonymousFile()
	if err != nil {
		return nil, fmt.Errorf("sandbox: writing the profile: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: writing the profile: %w", err)
	}
	if err := seal(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: sealing the profile: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: writing the profile: %w", err)
	}
	return f, nil
}

// Main is the launcher (launcher.Main), for a program that is its own
// launcher: when args (the program's arguments, without its name) start
// with LaunchFlag, it confines this process as the spec on file
// descriptor 3 says, runs the action's program and returns its exit status
// with handled true. Otherwise it returns at once with handled false. The
// program must call it before anything else runs.
func Main(args []string) (code int, handled bool) { return launcher.Main(args) }
