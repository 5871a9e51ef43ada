//go:build linux

package launcher

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"unsafe"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// MinABI is the oldest Landlock ABI the sandbox accepts (Linux 6.2): the
// first that can refuse truncating a file the action may only read.
const MinABI = 3

// NetNamespace returns the inode of this process's network namespace, or 0
// when it cannot be read.
func NetNamespace() uint64 {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/net", &st); err != nil {
		return 0
	}
	return st.Ino
}

// launch runs in the launcher: PID 1 of new user, mount, PID, IPC and
// (unless its network plan keeps the host's) network namespaces
// (bridge.Command.Namespaces), in a session of its own. It mounts the
// copy-on-write views of an action that runs unasked on the sandbox roots
// (which it may then write only through them), hides what the profile
// hides, drops its capabilities, applies Landlock, the network
// plan, (unless the UI is granted) the socket filter and the profile's
// resource limits (an action that runs unasked has some), then starts the
// program and waits for it. When it returns, the kernel kills whatever the
// program left running in the namespace.
func launch(s Spec) int {
	p := s.Profile
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(os.Stderr, Prefix+format+"\n", a...)
		return code
	}
	if err := ownNamespaces(); err != nil {
		return fail(ExitSetup, "%v", err)
	}
	// Nothing traces or reads this process's memory from inside.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fail(ExitSetup, "%v", err)
	}
	// Nothing mounted here may reach the namespaces the gate runs in.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fail(ExitSetup, "making the mounts private: %v", err)
	}
	if s.Trial != nil {
		if err := trialOverlay(*s.Trial); err != nil {
			return fail(ExitSetup, "%v", err)
		}
	}
	// The views first, so that what is hidden is hidden in them too.
	viewRoots, err := mountLayers(s.Layers, p.TempDir)
	if err != nil {
		return fail(ExitSetup, "%v", err)
	}
	if p.Unasked {
		p.Write = Viewed(p.Write, p.TempDir, viewRoots)
	}
	// A /proc of this PID namespace and a private /dev/shm: those a warm
	// launcher mounted while it waited will do, unless a view was mounted
	// over them since.
	if !procAhead || len(viewRoots) > 0 {
		mountProc()
	}
	if !shmAhead || len(viewRoots) > 0 {
		if err := mountShm(); err != nil {
			return fail(ExitSetup, "%v", err)
		}
	}
	// What the person approved, over what the paths hold now; before
	// hiding, so that what is hidden stays hidden.
	binds, err := bindPinned(s.Pinned, p.TempDir)
	if err != nil {
		return fail(ExitSetup, "%v", err)
	}
	if err := hide(p); err != nil {
		return fail(ExitSetup, "%v", err)
	}
	if err := dropCapabilities(); err != nil {
		return fail(ExitSetup, "dropping capabilities: %v", err)
	}
	abi, err := landlockABI()
	if err != nil {
		return fail(ExitSetup, "applying Landlock: %v", err)
	}
	plan := PlanNetwork(p, abi)
	if err := checkNetNamespace(plan, s.HostNetNS); err != nil {
		return fail(ExitSetup, "confining the network: %v", err)
	}
	if p.Unasked {
		if err := yieldCPU(); err != nil {
			return fail(ExitSetup, "lowering the action's priority: %v", err)
		}
	}
	if err := restrict(p, plan, abi); err != nil {
		return fail(ExitSetup, "applying Landlock: %v", err)
	}
	if err := applyFilters(p, plan); err != nil {
		return fail(ExitSetup, "%v", err)
	}
	// Whatever this process holds stays here: the program gets 0, 1 and 2.
	if err := unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return fail(ExitSetup, "closing file descriptors: %v", err)
	}
	// Last, so that nothing above runs under them; before the probe
	// reports, so that a limit the kernel refuses fails it.
	if err := setLimits(p.Limits); err != nil {
		return fail(ExitSetup, "bounding the action's resources: %v", err)
	}
	if s.Probe {
		fmt.Println(enforced(abi, p.UI))
		return 0
	}
	if plan.Note != "" && p.Network != NetNone {
		// The program will fail to reach what it was granted: say why.
		fmt.Fprintf(os.Stderr, "%s%s\n", Prefix, plan.Note)
	}
	if err := stillBound(binds); err != nil {
		return fail(ExitSetup, "%v", err)
	}
	path, code, err := lookPath(s.Argv[0], p.Env)
	if err != nil {
		return fail(code, "%v", err)
	}
	pid, err := startProgram(path, s.Argv, s.Dir, p.Env)
	if err != nil {
		code := ExitCannotRun
		if errors.Is(err, os.ErrNotExist) {
			code = ExitNotFound
		}
		return fail(code, "running %s: %v", s.Argv[0], unwrapPathError(err))
	}
	return reap(pid, s.Argv[0])
}

// inOwnNamespaces is set once ownNamespaces has passed: a warm launcher
// checks while it waits (awaitSpec), and its namespaces cannot change
// after (it makes no other and joins none).
var inOwnNamespaces bool

// ownNamespaces checks that the launcher was started as the sandbox starts
// it: PID 1 of a PID namespace, in a user namespace that maps one user only
// (so its mounts cannot touch the namespaces the gate runs in).
func ownNamespaces() error {
	if inOwnNamespaces {
		return nil
	}
	const want = "the launcher must start in namespaces of its own, as the sandbox starts it"
	if os.Getpid() != 1 {
		return errors.New(want + " (it is not PID 1)")
	}
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return fmt.Errorf("%s (%v)", want, err)
	}
	if f := strings.Fields(string(b)); len(f) != 3 || f[2] != "1" {
		return errors.New(want + " (its user namespace is not its own)")
	}
	inOwnNamespaces = true
	return nil
}

// enforced says what the launcher applied, for `airlock status`.
func enforced(abi int, ui bool) string {
	var what []string
	what = append(what, "files")
	if abi >= NetABI {
		what = append(what, "TCP ports")
	}
	if abi >= 6 {
		what = append(what, "signals", "abstract sockets")
	}
	if abi >= 9 {
		what = append(what, "unix sockets")
	}
	s := fmt.Sprintf("Landlock ABI %d (%s), namespaces (user, mount, PID, IPC, network)", abi, strings.Join(what, ", "))
	if abi >= NetABI {
		s += "; the network only for actions that use it: TCP to ports 80 and 443 unless approved"
	} else {
		s += fmt.Sprintf("; no network for actions that run unasked (TCP ports need Landlock ABI %d)", NetABI)
	}
	if !ui {
		s += "; seccomp (no local sockets, no MPTCP, TCP Fast Open or other socket families)"
	}
	s += "; actions that run unasked write to a copy-on-write view of the sandbox roots (overlayfs), reviewed before anything lands"
	s += ", and run with bounded processes, memory, /dev/shm, file sizes and open files, at nice 19, without setsid or fallocate"
	return s
}

// applyFilters installs the seccomp filters the action needs: for one
// that runs unasked unaskedFilter (against setsid and fallocate), its network plan's
// and, unless the UI is granted, the one against local sockets. A warm
// launcher that installed both while it waited (WaitFilteredFlag) runs
// only an action that needs both: one that needs fewer fails here, as the
// filters cannot be taken off (the gate hands such a launcher none).
func applyFilters(p Profile, plan NetPlan) error {
	if p.Unasked {
		if err := installFilter(unaskedFilter); err != nil {
			return fmt.Errorf("applying the filter of an action that runs unasked: %w", err)
		}
	}
	if filteredAhead {
		if !plan.Filter || p.UI {
			return errors.New("this launcher installed the socket filters of an action without the UI grant or the host's network while it waited, and this action is not one: it runs nothing")
		}
		return nil
	}
	if plan.Filter {
		if err := installFilter(netFilter); err != nil {
			return fmt.Errorf("confining the network: applying the network filter: %w", err)
		}
	}
	if !p.UI {
		if err := denyLocalSockets(); err != nil {
			return fmt.Errorf("applying the socket filter: %w", err)
		}
	}
	return nil
}

// yieldCPU gives an action that runs unasked the CPU only when the
// person's apps and Airlock do not want it. Linux shares the CPU among
// sessions first (autogroups), then among the processes of each: the
// sandbox starts the action in a session of its own, so, all together,
// it takes at most a session's share; but each process that calls setsid
// gets a new group of full weight (here a SCHED_IDLE loop in a session of
// its own took as much CPU as a normal loop), and 4,000 spinning
// processes that do would leave the popup, the kill switch and the
// person's apps one part in 4,000. So setsid is refused (EPERM, as for a
// process that leads a group; applyFilters installs unaskedFilter once
// Landlock has set no_new_privs), and every process of the action runs at
// nice 19, which it cannot undo (RLIMIT_NICE 0; it holds no capability),
// for kernels that share the CPU among processes alone. Its session's
// group keeps nice 0: Linux lets a process without CAP_SYS_ADMIN set it
// once in 100 ms, machine-wide (EAGAIN), too rare for every action.
func yieldCPU() error {
	if err := unix.Setpriority(unix.PRIO_PGRP, 0, 19); err != nil {
		return fmt.Errorf("nice 19: %w", err)
	}
	if err := unix.Setrlimit(unix.RLIMIT_NICE, &unix.Rlimit{Cur: 0, Max: 0}); err != nil {
		return fmt.Errorf("RLIMIT_NICE: %w", err)
	}
	return nil
}

// netNSAhead is this process's network namespace (NetNamespace), read
// by a warm launcher while it waits (prepareAhead): it cannot change
// after, as the launcher makes no namespace and joins none. 0 when it was
// not read.
var netNSAhead uint64

// checkNetNamespace checks, when the network plan says the launcher must
// be in a network namespace of its own, that it is not in the gate's
// (hostNS).
func checkNetNamespace(plan NetPlan, hostNS uint64) error {
	if plan.OwnNamespace {
		ns := netNSAhead
		if ns == 0 {
			ns = NetNamespace()
		}
		if hostNS == 0 || ns == 0 || ns == hostNS {
			return errors.New("the launcher must start in a network namespace of its own, as the sandbox starts it")
		}
	}
	return nil
}

// lookUp is stat(2) of path, through its links, into st: what os.Stat
// does without the allocations (the file's information, and an error for
// each path that is missing, which most of a profile's hidden paths are).
func lookUp(path string, st *unix.Stat_t) error {
	for {
		if err := unix.Stat(path, st); err != unix.EINTR {
			return err
		}
	}
}

// leadsNowhere reports whether err, from looking a path up through its
// links, says there is nothing there that can be read: it is missing,
// under a file, or a link that loops (~/.zprofile → itself).
func leadsNowhere(err error) bool {
	return errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP)
}

// inNowhere reports whether p lies in one of the folders nowhere holds:
// then looking it up leads nowhere too.
func inNowhere(nowhere map[string]bool, p string) bool {
	for d := filepath.Dir(p); len(nowhere) > 0; d = filepath.Dir(d) {
		if nowhere[d] {
			return true
		}
		if d == "/" || d == "." {
			return false
		}
	}
	return false
}

// shmAhead is set once a warm launcher has mounted, while it waited, a
// private /dev/shm (prepareAhead).
var shmAhead bool

// mountShm mounts a private /dev/shm, where there is one, of shmOptions.
func mountShm() error {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, shmOptions()); err != nil {
			return fmt.Errorf("mounting a private /dev/shm: %w", err)
		}
	}
	return nil
}

// shmMost is the most a private /dev/shm holds, in bytes and in files.
// Its pages are memory that no process owns: killing the processes of
// the action that wrote them frees none of it, so a full one makes the
// kernel's OOM killer kill the person's apps, and Airlock, instead, and
// tmpfs's own bound is half the memory. An eighth of the memory, at most
// 2 GiB (what browsers driven by tests are given in containers), and
// 65,536 files (each costs about a KiB of the kernel's memory, which no
// size counts) are far more than POSIX shared memory and semaphores take.
const (
	shmMostBytes = 2 << 30
	shmMostFiles = 65536
)

// shmOptions returns the mount options of a private /dev/shm.
func shmOptions() string {
	size := uint64(shmMostBytes)
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) == nil && si.Totalram > 0 {
		size = min(size, uint64(si.Totalram)*uint64(max(si.Unit, 1))/8)
	}
	return fmt.Sprintf("mode=1777,size=%d,nr_inodes=%d", size, shmMostFiles)
}

// procAhead is set once a warm launcher has mounted, while it waited, the
// /proc of its PID namespace (prepareAhead).
var procAhead bool

// mountProc mounts a /proc of this PID namespace (other processes are not
// in it), and reports whether it could. Best effort: where /proc cannot be
// mounted again (some containers mask parts of it), Landlock still keeps
// other processes' files out of reach (its ptrace scope).
func mountProc() bool {
	return unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "") == nil
}

// hide makes the profile's hidden paths unreachable in this mount
// namespace (whose mounts launch made private): an empty read-only folder
// over each folder (a copy of emptyFolder), /dev/null over each file or
// socket. A path that does not exist needs no hiding; one that cannot be
// looked at fails the launch. A path whose folder was found
// leading nowhere is not looked at: most of the list names what a home
// may hold (~/Library/Mail, ~/.config/gcloud …), and where the folder is
// missing one look for it does for all of them. A folder found there is
// not looked at again either (the home, for each of the many entries it
// may hold and does not): that look decides only whether later paths in
// it are skipped, so once found it is never a reason to skip one.
func hide(p Profile) error {
	nowhere := map[string]bool{} // folders found leading nowhere
	found := map[string]bool{}   // folders found there
	var st unix.Stat_t
	for _, h := range p.Hide {
		if inNowhere(nowhere, h) {
			continue
		}
		err := lookUp(h, &st) // through links: what a link leads to is hidden
		if leadsNowhere(err) {
			if d := filepath.Dir(h); d != h && !found[d] {
				switch err := lookUp(d, &st); {
				case leadsNowhere(err):
					nowhere[d] = true
				case err == nil:
					found[d] = true
				}
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("cannot hide %s: %w", h, err)
		}
		const flags = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			if err := hideFolder(h); err != nil {
				return fmt.Errorf("hiding %s: %w", h, err)
			}
			continue
		}
		if err := unix.Mount("/dev/null", h, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("hiding %s: %w", h, err)
		}
		if err := unix.Mount("", h, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|flags, ""); err != nil {
			return fmt.Errorf("hiding %s: %w", h, err)
		}
	}
	return nil
}

// emptyFolder is an empty folder that nothing can write in, mounted
// nowhere (a mount file descriptor, fsmount(2)): a tmpfs of one inode and
// 4 KiB, mode 0555, read-only, nosuid, nodev and noexec, as a launcher
// once mounted a new one over each folder it hid. hideFolder puts a copy
// of it (open_tree(2), OPEN_TREE_CLONE) over each, which costs the kernel
// about half of making a tmpfs (15 against 7 µs each here, 29 against 16
// under load), and a home holds dozens of hidden folders. A warm launcher
// makes it while it waits (prepareAhead); a cold one on the first folder
// it hides. It depends on nothing of the action, and nothing can change
// it: no path leads to it, only this process holds it (it cannot be
// traced, and the descriptor is closed at exec), and it is read-only. -1
// when there is none yet.
var emptyFolder = -1

// makeEmptyFolder returns a new emptyFolder.
func makeEmptyFolder() (int, error) {
	fs, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("fsopen: %w", err)
	}
	defer unix.Close(fs)
	for _, o := range [][2]string{{"mode", "0555"}, {"size", "4k"}, {"nr_inodes", "1"}} {
		if err := unix.FsconfigSetString(fs, o[0], o[1]); err != nil {
			return -1, fmt.Errorf("fsconfig %s: %w", o[0], err)
		}
	}
	if err := unix.FsconfigSetFlag(fs, "ro"); err != nil {
		return -1, fmt.Errorf("fsconfig ro: %w", err)
	}
	if err := unix.FsconfigCreate(fs); err != nil {
		return -1, fmt.Errorf("fsconfig create: %w", err)
	}
	m, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return -1, fmt.Errorf("fsmount: %w", err)
	}
	return m, nil
}

// hideFolder mounts a copy of emptyFolder over the folder h, following
// links in h as mount(2) does (MOVE_MOUNT_T_SYMLINKS: what a link leads
// to is hidden), making emptyFolder first if there is none.
func hideFolder(h string) error {
	if emptyFolder < 0 {
		m, err := makeEmptyFolder()
		if err != nil {
			return fmt.Errorf("making an empty folder: %w", err)
		}
		emptyFolder = m
	}
	c, err := unix.OpenTree(emptyFolder, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH)
	if err != nil {
		return fmt.Errorf("copying the empty folder: %w", err)
	}
	defer unix.Close(c)
	return unix.MoveMount(c, "", unix.AT_FDCWD, h, unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_SYMLINKS)
}

// The securebits (linux/securebits.h) the launcher sets, each locked: root
// gains no capabilities by running a program, and no thread can raise an
// ambient one.
const (
	secbitNoRoot                  = 1 << 0
	secbitNoRootLocked            = 1 << 1
	secbitNoCapAmbientRaise       = 1 << 6
	secbitNoCapAmbientRaiseLocked = 1 << 7
)

// capsLocked is set once lockCapabilities has passed: a warm launcher
// locks them while it waits (awaitSpec).
var capsLocked bool

// lockCapabilities sets, on every thread, the securebits that keep root
// from gaining any capability at exec and any thread from raising an
// ambient one, each locked. It does not depend on the action, and takes
// no capability the launcher still uses (it mounts with its effective
// set), so a warm launcher does it while it waits: it stops and signals
// every thread of the launcher. The ambient set (the spawner raised
// CAP_SYS_ADMIN and CAP_SETPCAP in it, to keep them across the launcher's
// exec) is emptied by dropCapabilities: the kernel keeps no capability
// ambient that is not both permitted and inheritable.
func lockCapabilities() error {
	if capsLocked {
		return nil
	}
	bits := uintptr(secbitNoRoot | secbitNoRootLocked | secbitNoCapAmbientRaise | secbitNoCapAmbientRaiseLocked)
	if err := llsys.AllThreadsPrctl(unix.PR_SET_SECUREBITS, bits, 0, 0, 0); err != nil {
		return fmt.Errorf("setting the securebits: %w", err)
	}
	capsLocked = true
	return nil
}

// dropCapabilities leaves the launcher with no capability and makes sure
// the program starts with none, even where it runs as root inside the
// namespace: on every thread the securebits keep root from gaining any at
// exec (lockCapabilities, unless done while the launcher waited), and then
// the effective, permitted and inheritable sets are emptied, which empties
// the ambient set with them (an ambient capability must be permitted and
// inheritable; TestEveryThreadConfined checks it). (The no_new_privs bit
// Landlock sets then keeps set-user-ID programs and file capabilities
// from granting any.)
func dropCapabilities() error {
	if err := lockCapabilities(); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	_, _, e := psx.Syscall3(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&none[0])), 0)
	runtime.KeepAlive(&hdr)
	runtime.KeepAlive(&none)
	if e != 0 {
		return fmt.Errorf("emptying the capability sets: %w", e)
	}
	return nil
}

// landlockABI returns the kernel's Landlock ABI, or an error when it is
// older than MinABI.
func landlockABI() (int, error) {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0, err
	}
	if abi < MinABI {
		return abi, fmt.Errorf("the kernel's Landlock is ABI %d; ABI %d or newer is needed", abi, MinABI)
	}
	return abi, nil
}

// restrict applies Landlock to every thread, in one ruleset: the file
// rights of every ABI up to 9 that the kernel has, and the signal scope;
// the abstract-socket scope too unless the UI is granted (an approved UI
// action may reach a display or bus that listens on one); and, when the
// network plan says so, TCP binds refused and TCP connects to the plan's
// ports only. One ruleset, not one for the files and one for TCP: each
// ruleset enforced stops and signals every thread of the launcher twice
// (no_new_privs, then the ruleset), which cost about 0.1 ms a start; a
// warm launcher set no_new_privs while it waited, and built there the
// part of the ruleset that does not depend on the action (prepareRuleset;
// takeRuleset uses it only where it is still what it would build now).
// Only the file rights are best effort: the plan asks for TCP rules only
// where the kernel has them (abi, NetABI), and a kernel without them fails
// the launch rather than let TCP through.
func restrict(p Profile, plan NetPlan, abi int) error {
	if plan.TCP && abi < NetABI {
		return fmt.Errorf("the kernel's Landlock is ABI %d, and TCP rules need ABI %d", abi, NetABI)
	}
	rs, prepared, err := takeRuleset(p, abi, p.UI, plan.TCP)
	if err != nil {
		return err
	}
	defer rs.close()
	var in []string // the folders whose rules are in already
	if prepared {
		in = preparedRead()
	}
	for _, r := range p.Read {
		if slices.Contains(in, r) {
			continue // its rule is in already
		}
		if err := rs.addPaths(accessRead, r); err != nil {
			return err
		}
	}
	// Moving a file from one writable folder to another needs "refer".
	if err := rs.addPaths(accessReadWrite|llsys.AccessFSRefer, p.Write...); err != nil {
		return err
	}
	for _, r := range useRules(abi) {
		if err := rs.addPaths(r.access, r.path); err != nil {
			return err
		}
	}
	if p.UI {
		// Where the kernel can refuse connecting to pathname sockets (ABI
		// 9), the display's and the bus's stay reachable.
		if err := rs.addPaths(accessRead|llsys.AccessFSResolveUnix, uiPaths(p.Env)...); err != nil {
			return err
		}
	}
	if plan.TCP {
		for _, port := range plan.Connect {
			if err := rs.addPort(port); err != nil {
				return err
			}
		}
	}
	return rs.enforce()
}

// lookPath finds the program as exec would, in the sandbox's view: a name
// with a slash as it stands (relative to the working folder), else the
// first executable file of that name in an absolute PATH entry. The int is
// the exit status to report when it is not found.
func lookPath(name string, env []string) (string, int, error) {
	if strings.Contains(name, "/") {
		return name, 0, nil
	}
	for _, d := range filepath.SplitList(EnvMap(env)["PATH"]) {
		if !filepath.IsAbs(d) {
			continue // a relative PATH entry would run what lies in the working folder
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, 0, nil
		}
	}
	return "", ExitNotFound, fmt.Errorf("%s: not found in PATH (in the sandbox's view)", name)
}

// startProgram starts the program at path with argv in dir, with env (the
// launcher's own environment where env is nil, as os.StartProcess gives),
// on the launcher's standard input, output and error, and returns its
// PID. It is syscall.ForkExec, not os.StartProcess: the os package's
// first start in a process checks, by starting and reaping a process of
// its own, that the kernel's pidfds work, before the program's own start;
// the launcher waits for its program with wait4 (reap) and needs none.
func startProgram(path string, argv []string, dir string, env []string) (int, error) {
	if env == nil {
		env = os.Environ()
	}
	// Fd, as os.StartProcess calls it, puts each in blocking mode.
	files := []uintptr{os.Stdin.Fd(), os.Stdout.Fd(), os.Stderr.Fd()}
	return syscall.ForkExec(path, argv, &syscall.ProcAttr{Dir: dir, Env: env, Files: files})
}

// reap waits as PID 1 does: it reaps every child that ends and returns
// when the program (pid) has, with its exit status, or 128 plus the signal
// that ended it.
func reap(pid int, name string) int {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%swaiting for %s: %v\n", Prefix, name, err)
			return ExitSetup
		}
		if got != pid {
			continue
		}
		switch {
		case ws.Exited():
			return ws.ExitStatus()
		case ws.Signaled():
			fmt.Fprintf(os.Stderr, "%s%s was killed by %v\n", Prefix, filepath.Base(name), ws.Signal())
			return 128 + int(ws.Signal())
		}
	}
}

// unwrapPathError drops os.StartProcess's "fork/exec PATH:" prefix.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var se syscall.Errno
	if errors.As(err, &se) {
		return se
	}
	return err
}
