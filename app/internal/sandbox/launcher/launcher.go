// Package launcher is the sandbox's launcher: the process that confines one
// action (package sandbox) and then runs it. It is apart from package
// sandbox so that the program that runs it initialises nothing it does not
// use: it imports the standard library, x/sys, go-landlock, psx and
// bridge/spawn (the spawner, SpawnFlag: the standard library and x/sys)
// only, and none of Airlock's analyzers, history or UI. airlock-launch
// (app/cmd/airlock-launch) is that program, shipped beside airlock; airlock
// itself runs it too when started with Flag (sandbox.Main), for a gate that
// finds no airlock-launch beside it.
//
// What crosses from the gate to the launcher is a Spec, in an encoding of
// its own (EncodeSpec) on file descriptor 3. The gate derives everything from the person's settings and
// its verdict; the launcher only applies it, and fails (exit status 125)
// rather than run anything when it cannot apply all of it.
package launcher

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// Flag, as the first argument, makes a program that calls Main first
// thing (airlock, airlock-launch) the launcher of one confined action.
const Flag = "--sandbox-launch"

// WaitFlag, as the first argument, makes a program that calls Main first
// thing a warm launcher (Linux): started ahead of the action it will
// confine, in namespaces of its own, it waits on file descriptor 3 for
// that action's standard input and spec (awaitSpec), then confines and runs
// it as Flag does. It confines one action, ever.
const WaitFlag = "--sandbox-wait"

// WaitFilteredFlag is WaitFlag for a launcher that, while it waits, also
// installs the socket filters of an action that has both (netFilter and
// socketFilter: its network plan filters, Network is not the host's, and
// it has no UI grant; Filtered says which these are). They do not depend
// on anything else of the action, and installing each stops every thread
// of the launcher. Such a launcher then runs only an action that has
// both: handed another, it fails closed (ExitSetup) and runs nothing.
const WaitFilteredFlag = "--sandbox-wait-filtered"

// SpawnFlag, as the first argument, makes a program that calls Main first
// thing a spawner (Linux; package bridge/spawn): started once, with no
// namespaces, it starts warm launchers (WaitFlag, WaitFilteredFlag) in the
// gate's place, as the gate's children, on the socket of file descriptor
// 3, until the gate closes it. Starting one there costs the same whatever
// the gate's size; the gate's own start of one copies its page tables.
const SpawnFlag = "--sandbox-spawn"

// The bytes of the warm launcher's socket (bridge.WarmReady, bridge.WarmGo,
// which this package cannot import: it would bring the bridge's UI into
// the launcher): it writes ready once it waits, reads go with the action's
// descriptors, writes ack once it has taken them, and end with the exit
// status once nothing of the action is left (reportEnd).
const (
	warmReady byte = 'r'
	warmGo    byte = 'g'
	warmAck   byte = 'a'
	warmEnd   byte = 'e'
)

// Program is the name of the dedicated launcher's executable, which the
// gate looks for beside its own.
const Program = "airlock-launch"

// Exit statuses of the launcher itself, as shells and container runtimes
// use them: the sandbox could not be set up, the program could not be
// run, or it was not found.
const (
	ExitSetup     = 125
	ExitCannotRun = 126
	ExitNotFound  = 127
)

// Prefix starts every line the launcher writes about itself on standard
// error, so that the gate can tell it from what the program said.
const Prefix = "airlock sandbox: "

// SandboxExec is macOS's Seatbelt front end: the only program the launcher
// runs there.
const SandboxExec = "/usr/bin/sandbox-exec"

// MaxSpecBytes bounds the spec: the profile and the program's arguments.
const MaxSpecBytes = 32 << 20

// SpecVersion is the version of the Spec's encoding and meaning. The gate
// and the launcher are built from one source, but the launcher is a file
// of its own beside the gate's, which an upgrade may replace while an old
// gate runs: a launcher refuses a spec of another version, and one with a
// byte left over, rather than apply part of it. Change it whenever a field
// of Spec, Profile or Layer is added, removed or means something else, or
// the encoding changes (TestSpecVersion holds the fields it was last
// changed for). Version 4 added Pinned; version 5: EncodeSpec's encoding,
// no longer JSON; version 6 added Profile.Plants.
const SpecVersion = 6

// Spec is what the gate hands the launcher on file descriptor 3: the
// profile and the program to run under it.
type Spec struct {
	// Version is SpecVersion as the gate was built with it.
	Version int     `json:"version"`
	Profile Profile `json:"profile"`
	// Argv is the program and its arguments. On macOS the gate gives
	// sandbox-exec's whole command line (the Seatbelt text of the profile
	// and the program), which the launcher runs with its TCC responsibility
	// disclaimed.
	Argv []string `json:"argv"`
	Dir  string   `json:"dir"`
	// Probe makes the launcher set everything up, report what it enforced
	// on stdout, and exit without running anything.
	Probe bool `json:"probe,omitempty"`
	// HostNetNS is, on Linux, the inode of the gate's network namespace,
	// which a launcher that must be in one of its own checks it is not in.
	HostNetNS uint64 `json:"hostNetNS,omitempty"`
	// Layers are, for an action that runs unasked (Linux), the
	// copy-on-write views the launcher mounts on the sandbox roots.
	Layers []Layer `json:"layers,omitempty"`
	// Trial is, in probe mode, a layer over a folder of the probe's on
	// which the launcher tries what the views need (trialOverlay); the
	// gate reads what it left in the layer once the launcher has exited.
	Trial *Layer `json:"trial,omitempty"`
	// Pinned are, for an action the person approved (at the popup, by
	// "allow again" or by an allow rule), the files it runs as the gate
	// read and checked them last (pinned.go): on Linux the launcher puts
	// each over its path in the action's view, so that whatever the path
	// holds by then outside, the action runs what was checked.
	Pinned []Pinned `json:"pinned,omitempty"`
}

// Profile is what one action may do. Paths are absolute and clean; a folder
// covers everything under it. Package sandbox derives it (sandbox.Derive)
// and names it sandbox.Profile.
type Profile struct {
	Kind string `json:"kind"`
	// Read are the folders it may read and run programs from.
	Read []string `json:"read"`
	// Write are the folders it may also create, change and delete in: the
	// sandbox roots and TempDir.
	Write []string `json:"write"`
	// Hide is what it can never reach, even inside Read or Write:
	// Airlock's own files, the credential stores and agent sockets, what
	// is hidden in the home (sandbox's hidden.go) but what the grant
	// reveals, and unless UI the display server's and the session bus's
	// sockets and cookies. Sorted, so that a folder comes before what lies
	// in it.
	Hide []string `json:"hide"`
	// UI says it may reach the display server and the session bus.
	UI bool `json:"ui"`
	// Network is what it may reach over the network (Network says how
	// each platform enforces it).
	Network Network `json:"network"`
	// Unasked says the person did not approve this action: what it writes
	// in the sandbox roots is not trusted. On Linux it writes into a
	// copy-on-write view of each root (Layers) that the gate reviews
	// after it ends; on macOS Seatbelt refuses what cannot be reviewed
	// there (removing, planting, executable bits).
	Unasked bool `json:"unasked,omitempty"`
	// TempDir is its own temporary folder (TMPDIR).
	TempDir string `json:"tempDir"`
	// OtherTemps, when TempDir lies in it, is the folder holding every
	// action's temporary folder (and what it resolves to): never reached
	// but through TempDir. Linux's Landlock grants none of it anyway;
	// macOS's Seatbelt, which reads everywhere, refuses it.
	OtherTemps []string `json:"otherTemps,omitempty"`
	// Plants are, for an unasked action, places in the sandbox roots
	// where code runs later that only a look at the home finds
	// (sandbox.Grant.Plants): paths, and globs of filepath.Match. On
	// macOS the gate's Seatbelt text refuses writing there; on Linux the
	// review finds them itself. The launcher applies nothing of them.
	Plants []string `json:"plants,omitempty"`
	// Env is its environment.
	Env []string `json:"env"`
	// Limits are the resource bounds its program starts under, and
	// everything it starts: for an action that runs unasked, those of
	// sandbox.UnaskedLimits; none for an approved one.
	Limits []Limit `json:"limits,omitempty"`
}

// A Limit bounds one resource of the action (setrlimit): the launcher
// sets both the soft and the hard limit, so that the program cannot raise
// it again, to Max or to the limit it already had if that is lower (it
// never raises one).
type Limit struct {
	// Resource is one of the Limit* names.
	Resource string `json:"resource"`
	// Max is the bound: processes, bytes or open files, as Resource says.
	Max uint64 `json:"max"`
}

// The resources a Limit may name.
const (
	// LimitProcesses is RLIMIT_NPROC: the processes (and threads) of the
	// action's user. On Linux the launcher's user namespace has a count of
	// its own, so it bounds this action's; on macOS it counts every
	// process of the person.
	LimitProcesses = "processes"
	// LimitData is RLIMIT_DATA: the bytes of each process's heap and
	// private writable memory (what malloc hands out), not the address
	// space it only reserves.
	LimitData = "data"
	// LimitFileSize is RLIMIT_FSIZE: the bytes any file it writes may
	// grow to.
	LimitFileSize = "fileSize"
	// LimitCore is RLIMIT_CORE: the bytes of a core dump.
	LimitCore = "core"
	// LimitOpenFiles is RLIMIT_NOFILE: the files each process may hold
	// open.
	LimitOpenFiles = "openFiles"
)

// CheckLimits returns an error naming the first limit of ls whose resource
// is not one of the Limit* names, or that bounds one twice.
func CheckLimits(ls []Limit) error {
	seen := map[string]bool{}
	for i, l := range ls {
		switch l.Resource {
		case LimitProcesses, LimitData, LimitFileSize, LimitCore, LimitOpenFiles:
		default:
			return fmt.Errorf("limit %d: unknown resource %q (want %s, %s, %s, %s or %s)", i, l.Resource,
				LimitProcesses, LimitData, LimitFileSize, LimitCore, LimitOpenFiles)
		}
		if seen[l.Resource] {
			return fmt.Errorf("limit %d: %s is bounded twice", i, l.Resource)
		}
		seen[l.Resource] = true
	}
	return nil
}

// A Layer is one sandbox root as an action that ran unasked saw it: a
// copy-on-write view whose changes lie in Upper, a folder only the gate
// reaches, until the gate reviews and applies them (package execute). Root
// itself is untouched while the action runs.
type Layer struct {
	// Root is the sandbox root: absolute and resolved.
	Root string `json:"root"`
	// Upper holds what the action changed under Root, as the platform's
	// copy-on-write view recorded it (Linux: overlayfs's upper layer).
	Upper string `json:"upper"`
	// Work is the view's scratch folder (overlayfs's workdir), beside
	// Upper on the same file system; the gate removes it with Upper.
	Work string `json:"work"`
	// Boot is the boot the layer was made in (Linux's boot_id). The view
	// does not sync what it writes (overlayfs's volatile), so after a
	// restart the layer may hold files whose data never reached the disk:
	// sandbox.ReadLayer refuses a layer of another boot.
	Boot string `json:"boot,omitempty"`
}

// Main is the launcher: when args (the program's arguments, without its
// name) start with Flag, it confines this process as the spec on file
// descriptor 3 says (with WaitFlag: the spec that comes over descriptor
// 3, awaitSpec), runs the action's program and returns its exit status
// with handled true. Otherwise it returns at once with handled false. The
// program must call it before anything else runs.
func Main(args []string) (code int, handled bool) {
	if len(args) == 0 || args[0] != Flag && args[0] != WaitFlag && args[0] != WaitFilteredFlag && args[0] != SpawnFlag {
		return 0, false
	}
	if len(args) > 1 {
		fmt.Fprintf(os.Stderr, "%sthe launcher takes no arguments (its profile comes on file descriptor 3)\n", Prefix)
		return ExitSetup, true
	}
	if args[0] == SpawnFlag {
		return serveSpawn(3), true
	}
	var f *os.File
	warm := args[0] != Flag
	if warm {
		var err error
		if f, err = awaitSpec(3, args[0] == WaitFilteredFlag); err != nil {
			fmt.Fprintf(os.Stderr, "%s%v\n", Prefix, err)
			return ExitSetup, true
		}
	} else if f = os.NewFile(3, "profile"); f == nil {
		fmt.Fprintf(os.Stderr, "%sno profile on file descriptor 3\n", Prefix)
		return ExitSetup, true
	}
	s, err := ReadSpec(f)
	f.Close()
	code = ExitSetup
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s%v\n", Prefix, err)
	} else {
		code = launch(s)
	}
	if warm {
		reportEnd(3, code) // the socket the action came on
	}
	return code, true
}

// warmUp does, while a warm launcher waits, what reading its spec would
// otherwise do first, on a sample: the first run of the code that reads
// it (its pages). Nothing of the sample is kept.
func warmUp() {
	l := Layer{Root: "/r", Upper: "/u", Work: "/w", Boot: "b"}
	sample := Spec{Version: SpecVersion, Argv: []string{"p"}, Dir: "/", Layers: []Layer{l}, Trial: &l,
		Pinned: []Pinned{{Path: "/p", Mode: 0o644, ModTime: 1, Bytes: []byte("p")}},
		Profile: Profile{Kind: "k", Read: []string{"/"}, Write: []string{"/"}, Hide: []string{"/h"}, Network: NetNone,
			Unasked: true, TempDir: "/t", Env: []string{"A=b"}, Limits: []Limit{{Resource: LimitData, Max: 1}}}}
	_, _ = ReadSpec(bytes.NewReader(EncodeSpec(sample)))
}

// Environ is the launcher's own environment, whatever the action's is (the
// action gets Profile.Env, which the launcher hands it): nothing of the
// person's environment (GODEBUG, GOGC, GOTRACEBACK …) reaches the Go
// runtime of the launcher, and GOMAXPROCS=1 keeps it to the fewest
// threads: it runs one goroutine, and each change it makes to every
// thread (the capabilities, Landlock) stops and signals every one of them.
func Environ() []string { return []string{"GOMAXPROCS=1"} }

// SystemRead are the folders of the system every action may read and run
// programs from on Linux: its programs, libraries and configuration,
// /proc and /sys (package sandbox's profile). A warm launcher adds their
// rules to its Landlock ruleset while it waits.
var SystemRead = []string{"/bin", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/nix/store", "/opt", "/proc", "/sbin", "/snap", "/sys", "/usr"}

// Within reports whether path is dir or lies in it (both clean).
func Within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+"/")
}

// Viewed keeps of write the temporary folder and what lies in a root with
// a view: an action that runs unasked writes nowhere else.
func Viewed(write []string, temp string, roots []string) []string {
	var out []string
	for _, w := range write {
		ok := w == temp
		for _, r := range roots {
			ok = ok || Within(w, r)
		}
		if ok {
			out = append(out, w)
		}
	}
	return out
}

// EnvMap returns an environment (KEY=VALUE entries) as a map.
func EnvMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
