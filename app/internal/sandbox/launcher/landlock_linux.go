//go:build linux

package launcher

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The launcher's Landlock ruleset is built here, with the kernel's calls,
// rather than by go-landlock's Restrict, which would build all of it at
// once when the action comes: a warm launcher builds, while it waits, the
// part that does not depend on the action (prepareRuleset) and sets
// no_new_privs, which stops and signals every thread of the launcher
// (about 30 µs here); the action's rules are added to it when it comes.
// The ruleset is the one go-landlock's best effort would make (the same
// handled rights, the same rules, its workaround for threads that list
// /proc/PID/task), built once for every launcher, warm or cold.

// Rights granted by the rules, as go-landlock's RODirs, RWDirs, ROFiles and
// RWFiles grant them (then cut to what the ruleset handles).
const (
	accessFile  = llsys.AccessFSExecute | llsys.AccessFSWriteFile | llsys.AccessFSTruncate | llsys.AccessFSReadFile
	accessRead  = llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir
	accessWrite = llsys.AccessFSWriteFile | llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile | llsys.AccessFSMakeChar |
		llsys.AccessFSMakeDir | llsys.AccessFSMakeReg | llsys.AccessFSMakeSock | llsys.AccessFSMakeFifo |
		llsys.AccessFSMakeBlock | llsys.AccessFSMakeSym | llsys.AccessFSTruncate
	accessReadWrite = accessRead | accessWrite
)

// fsRights are the file rights the kernel of Landlock ABI abi handles, of
// those the launcher asks for (ABI 9's).
func fsRights(abi int) uint64 {
	switch {
	case abi >= 9:
		return 1<<17 - 1
	case abi >= 5:
		return 1<<16 - 1
	case abi >= 3:
		return 1<<15 - 1
	case abi == 2:
		return 1<<14 - 1
	case abi == 1:
		return 1<<13 - 1
	}
	return 0
}

// ruleset is a Landlock ruleset being built: its descriptor, the ABI it
// was made for and what it handles.
type ruleset struct {
	fd     int
	abi    int
	fs     uint64
	net    uint64
	scoped uint64
	ui     bool
	tcp    bool
}

// newRuleset makes the ruleset of an action with (ui) or without the UI
// grant, whose network plan refuses TCP but to its ports (tcp), on a kernel
// of ABI abi: every file right the kernel has, the signal scope, the
// abstract-socket scope unless the UI is granted (an approved UI action
// may reach a display or bus that listens on one), and TCP binds and
// connects when tcp.
func newRuleset(abi int, ui, tcp bool) (*ruleset, error) {
	r := &ruleset{fd: -1, abi: abi, fs: fsRights(abi), ui: ui, tcp: tcp}
	if abi >= 6 {
		r.scoped = llsys.ScopeSignal
		if !ui {
			r.scoped |= llsys.ScopeAbstractUnixSocket
		}
	}
	if tcp && abi >= NetABI {
		r.net = llsys.AccessNetBindTCP | llsys.AccessNetConnectTCP
	}
	attr := llsys.RulesetAttr{HandledAccessFS: r.fs, HandledAccessNet: r.net, Scoped: r.scoped}
	fd, err := llsys.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return nil, fmt.Errorf("landlock_create_ruleset: %w", err)
	}
	r.fd = fd
	return r, nil
}

// close closes the ruleset's descriptor.
func (r *ruleset) close() {
	if r != nil && r.fd >= 0 {
		unix.Close(r.fd)
		r.fd = -1
	}
}

// addPaths grants access beneath each of paths that exists (a missing one
// is skipped, as go-landlock's IgnoreIfMissing does).
func (r *ruleset) addPaths(access uint64, paths ...string) error {
	for _, p := range paths {
		fd, err := r.open(p)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			return err
		}
		err = r.addFd(fd, p, access)
		unix.Close(fd)
		if err != nil {
			return err
		}
	}
	return nil
}

// open opens p as a rule's parent: O_PATH, through links.
func (r *ruleset) open(p string) (int, error) {
	for {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, fmt.Errorf("populating the ruleset for %q: open: %w", p, err)
		}
		return fd, nil
	}
}

// addFd grants access beneath fd (opened at p), cut to what the ruleset
// handles.
func (r *ruleset) addFd(fd int, p string, access uint64) error {
	access &= r.fs
	if access == 0 {
		return nil
	}
	attr := llsys.PathBeneathAttr{ParentFd: fd, AllowedAccess: access}
	if err := llsys.LandlockAddPathBeneathRule(r.fd, &attr, 0); err != nil {
		return fmt.Errorf("populating the ruleset for %q with access %#x: landlock_add_rule: %w", p, access, err)
	}
	return nil
}

// addPort allows connecting to TCP port.
func (r *ruleset) addPort(port uint16) error {
	attr := llsys.NetPortAttr{AllowedAccess: llsys.AccessNetConnectTCP, Port: uint64(port)}
	if err := llsys.LandlockAddNetPortRule(r.fd, &attr, 0); err != nil {
		return fmt.Errorf("populating the ruleset with TCP port %d: landlock_add_rule: %w", port, err)
	}
	return nil
}

// fixedRule is one of the rules every action gets (fixedRules).
type fixedRule struct {
	path   string
	access uint64
}

// fixedRules are rules every action's ruleset holds, whatever its
// profile: the system's folders (preparedRead) and the devices a program
// reads and writes.
func fixedRules() []fixedRule {
	var rs []fixedRule
	for _, p := range preparedRead() {
		rs = append(rs, fixedRule{p, accessRead})
	}
	return append(rs, devRules()...)
}

// preparedRead are the system's folders (SystemRead: every profile reads
// them, Derive) but /proc: a launcher that mounts a view mounts /proc
// again (as /dev/shm, useRules) after a warm one prepared its ruleset.
func preparedRead() []string {
	return slices.DeleteFunc(slices.Clone(SystemRead), func(p string) bool { return p == "/proc" })
}

// devRules are the rules of the devices a program reads and writes, which
// every action's ruleset holds.
func devRules() []fixedRule {
	var rs []fixedRule
	for _, p := range []string{"/dev/null", "/dev/zero", "/dev/full"} {
		rs = append(rs, fixedRule{p, accessReadWrite & accessFile})
	}
	for _, p := range []string{"/dev/random", "/dev/urandom"} {
		rs = append(rs, fixedRule{p, accessRead & accessFile})
	}
	return rs
}

// useRules are the rules every action's ruleset holds that are added
// when it comes: the private /dev/shm and, on a kernel whose Landlock
// cannot restrict every thread at once (before ABI 8), go-landlock's
// workaround: each thread may list this process's threads,
// /proc/PID/task (skipped where missing, where go-landlock would fail).
func useRules(abi int) []fixedRule {
	rs := []fixedRule{{"/dev/shm", accessReadWrite}}
	if abi < 8 {
		rs = append(rs, fixedRule{"/proc/" + strconv.Itoa(unix.Getpid()) + "/task", llsys.AccessFSReadDir})
	}
	return rs
}

// preparedRuleset is a ruleset a warm launcher built while it waited
// (prepareRuleset), holding fixedRules, and what each rule's path led to
// then: nil when there is none.
var preparedRuleset *struct {
	rs    *ruleset
	paths []preparedPath
}

// preparedPath is a path of fixedRules as it was when prepareRuleset
// added its rule: the file it led to (its device, inode and birth time),
// or missing. Nothing is held open: a descriptor held in each warm
// launcher would keep the person from unmounting a folder of the system
// mounted on its own (/opt, /snap …: its copy here is busy) while it
// waits. The birth time tells a folder removed and made again that got
// the same inode number from the one that was there; where the file
// system keeps none (0), a folder removed and made again with its number
// would keep a rule that matches nothing (Landlock ties a rule to the
// inode, not its number): the action would be refused it, never given
// more.
type preparedPath struct {
	path     string
	missing  bool
	dev, ino uint64
	birth    unix.StatxTimestamp
}

// identify returns what path leads to, through its links; with path ""
// what fd is.
func identify(fd int, path string) (preparedPath, error) {
	var sx unix.Statx_t
	flags := 0
	if path == "" {
		flags = unix.AT_EMPTY_PATH
	}
	for {
		err := unix.Statx(fd, path, flags, unix.STATX_INO|unix.STATX_BTIME, &sx)
		if err == unix.EINTR {
			continue
		}
		if errors.Is(err, unix.ENOENT) {
			return preparedPath{path: path, missing: true}, nil
		}
		if err != nil {
			return preparedPath{}, err
		}
		pp := preparedPath{path: path, dev: unix.Mkdev(sx.Dev_major, sx.Dev_minor), ino: sx.Ino}
		if sx.Mask&unix.STATX_BTIME != 0 {
			pp.birth = sx.Btime
		}
		return pp, nil
	}
}

// prepareRuleset builds, while a warm launcher waits, the ruleset of an
// action without the UI grant whose network plan refuses TCP but to its
// ports where the kernel can (the warm launchers' shapes, WaitFilteredFlag),
// with fixedRules in it; takeRuleset decides, when the action comes,
// whether it may be used.
func prepareRuleset(abi int) error {
	rs, err := newRuleset(abi, false, abi >= NetABI)
	if err != nil {
		return err
	}
	var paths []preparedPath
	for _, f := range fixedRules() {
		fd, err := rs.open(f.path)
		if errors.Is(err, unix.ENOENT) {
			paths = append(paths, preparedPath{path: f.path, missing: true})
			continue
		}
		if err != nil {
			rs.close()
			return err
		}
		pp, err := identify(fd, "")
		if err == nil && pp.missing {
			err = unix.ENOENT
		}
		if err == nil {
			pp.path = f.path
			paths = append(paths, pp)
			err = rs.addFd(fd, f.path, f.access)
		}
		unix.Close(fd)
		if err != nil {
			rs.close()
			return fmt.Errorf("populating the ruleset for %q: %w", f.path, err)
		}
	}
	preparedRuleset = &struct {
		rs    *ruleset
		paths []preparedPath
	}{rs, paths}
	return nil
}

// takeRuleset returns the ruleset prepared while the launcher waited, and
// true, when it is the one this action's would be once its own rules are
// added: made for the same ABI, UI grant and TCP rules; every folder of
// its fixed rules one the profile reads (preparedRead); and each path
// leading now to what it led to then (identify), or still missing.
// Otherwise, or where none was prepared, it returns a new one holding
// devRules, as a launcher started cold builds it, and false (the
// profile's Read then brings the system's folders). Either way the
// prepared one is taken: it serves one action.
func takeRuleset(p Profile, abi int, ui, tcp bool) (*ruleset, bool, error) {
	prep := preparedRuleset
	preparedRuleset = nil
	if prep != nil {
		ok := prep.rs.abi == abi && prep.rs.ui == ui && prep.rs.tcp == tcp && unchanged(prep.paths) &&
			!slices.ContainsFunc(preparedRead(), func(s string) bool { return !slices.Contains(p.Read, s) })
		if ok {
			return prep.rs, true, nil
		}
		prep.rs.close()
	}
	rs, err := newRuleset(abi, ui, tcp)
	if err != nil {
		return nil, false, err
	}
	for _, f := range devRules() {
		if err := rs.addPaths(f.access, f.path); err != nil {
			rs.close()
			return nil, false, err
		}
	}
	return rs, false, nil
}

// unchanged reports whether each prepared path leads now, through its
// links, to the file it led to when its rule was added (identify), or is
// still missing.
func unchanged(paths []preparedPath) bool {
	for _, pp := range paths {
		if now, err := identify(unix.AT_FDCWD, pp.path); err != nil || now != pp {
			return false
		}
	}
	return true
}

// nnpAhead is set once a warm launcher has set no_new_privs on every
// thread while it waited (prepareAhead). Nothing takes it off.
var nnpAhead bool

// setNoNewPrivs sets no_new_privs on every thread, unless done already.
func setNoNewPrivs() error {
	if nnpAhead {
		return nil
	}
	if err := llsys.AllThreadsPrctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	nnpAhead = true
	return nil
}

// enforce sets no_new_privs and enforces the ruleset on every thread, as
// go-landlock does: with one call on a kernel that can (ABI 8, TSYNC),
// else on each thread.
func (r *ruleset) enforce() error {
	if r.abi >= 8 {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
		}
		if err := llsys.LandlockRestrictSelf(r.fd, llsys.FlagRestrictSelfTSync); err != nil {
			return fmt.Errorf("landlock_restrict_self: %w", err)
		}
		return nil
	}
	if err := setNoNewPrivs(); err != nil {
		return err
	}
	if err := llsys.AllThreadsLandlockRestrictSelf(r.fd, 0); err != nil {
		return fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return nil
}

// uiPaths are the folders an action with the UI grant may connect to
// pathname sockets in (where the kernel can refuse it, ABI 9): the X11
// sockets', the runtime folder and the session bus's.
func uiPaths(env []string) []string {
	ui := []string{"/tmp/.X11-unix"}
	m := EnvMap(env)
	if d := m["XDG_RUNTIME_DIR"]; filepath.IsAbs(d) {
		ui = append(ui, d)
	}
	for _, b := range BusPaths(m["DBUS_SESSION_BUS_ADDRESS"], m["XDG_RUNTIME_DIR"]) {
		ui = append(ui, filepath.Dir(b))
	}
	return ui
}
