package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// The kinds of action a profile is for.
const (
	KindCommand     = "command"     // a program and its arguments
	KindAppleScript = "applescript" // macOS: Airlock's AppleScript helper
	KindJXA         = "jxa"         // macOS: osascript -l JavaScript
)

// Settings are what every profile is built from: the person's home and
// sandbox roots, Airlock's own files, and the environment actions start
// from. Fill them once, when the gate is built.
type Settings struct {
	// OS is the platform the profiles are for ("linux", "darwin"); ""
	// means this one.
	OS string
	// Home is the person's home folder: absolute.
	Home string
	// Roots are the sandbox roots, absolute and resolved
	// (sanitize.Config.Roots): the only folders an action may write in
	// besides its own temporary folder.
	Roots []string
	// Own are Airlock's own files and folders: the data directory (settings,
	// history, socket) and the logs. Actions never see them.
	Own []string
	// Program is Airlock itself: the executable on Linux, the .app bundle
	// on macOS; "" for none. Hidden from every kind but AppleScript, whose
	// helper is this program.
	Program string
	// Env is the environment actions start from; Derive removes from it
	// what the profile does not grant.
	Env []string
	// Staging is where the copy-on-write layers of actions that run
	// unasked are kept until the gate has reviewed them (Linux): absolute,
	// in a folder actions never see (Airlock's data directory). "" or a
	// folder inside a sandbox root means a folder of each action's own in
	// the system's temporary folder, hidden from it (layers.go).
	Staging string
	// Limits are the resource bounds of an action that runs unasked
	// (LimitsFor); nil means UnaskedLimits. Tests set small ones.
	Limits []launcher.Limit
}

// Grant is what the gate decided about one action beyond its level.
type Grant struct {
	// Approved says the person approved this action: in the request, or
	// by a remembered grant for its exact text. Where the platform cannot
	// confine, only approved actions run.
	Approved bool
	// UI says the action drives the UI (types, presses keys, clicks) and
	// the person approved it: it may reach the display server and the
	// session bus.
	UI bool
	// Network is what it may reach over the network: NetNone unless its
	// verdict says it uses the network; NetHost only if the person
	// approved it.
	Network Network
	// Reveal are hidden paths in the home the action may see all the
	// same: only for an approved action, filled with what its text names
	// (Reveals). The credential stores and Airlock's own files stay hidden
	// whatever it says.
	Reveal []string
	// Secrets are files in the sandbox roots and the rest of the home
	// whose names say they hold a secret (.env, keys, credentials:
	// risk/rate.SecretFile), links to such files, folders of the home too
	// large to look through, and the object stores (objects folders) of
	// git repositories whose history names such a file
	// (execute/gitstore.go), that the action may not reach: for an
	// action that runs unasked, the executor fills it from its indexes
	// (execute/rootsecrets.go, execute/homesecrets.go). Absolute. Hidden
	// as the home's hidden entries are, in the roots and in their
	// copy-on-write views. (macOS also denies the names wherever they are:
	// seatbelt_unasked.go.)
	Secrets []string
	// Decks are files and folders in the sandbox roots named *.key that
	// the executor's walk found to be Keynote decks, not keys (a zip, a
	// package folder: risk/rate/decks.go), for an action that runs
	// unasked. Absolute. Seatbelt, which refuses every *.key by name,
	// allows reading each again (by its literal path, never through a
	// link); the Linux sandbox hides by path only what Secrets lists, so
	// it needs none.
	Decks []string
	// Plants are places in the sandbox roots where code runs later that
	// only a look at the home finds, for an action that runs unasked: the
	// executor fills them (execute/lookedplants.go) with where a place of
	// the persistence table in the home leads through a link (a
	// ~/.config/fish linked to ~/Documents/dotfiles/fish), the folders
	// the home's start-up files put on the command search path, and the
	// files and globs (filepath.Match's) they load (a .zshrc's source
	// ~/Documents/dotfiles/zsh.d/*.zsh). Absolute. Seatbelt
	// refuses writing there as it refuses the table's places by name; on
	// Linux the review of the action's changes finds them itself, and
	// holds a change there.
	Plants []string
	// Pinned are, for an action the person approved, the files it runs
	// as the gate last read and checked them (policy.Hold): on Linux it
	// runs from these bytes, whatever the paths hold by the time it
	// starts (launcher.Pinned says how, and why not on macOS).
	Pinned []Pinned
}

// Pinned is one file an approved action runs, as it was checked.
type Pinned = launcher.Pinned

// GrantFor returns the grant of an action with verdict v that the person
// approved or not: the UI only for an approved action whose verdict says it
// synthesises input; the network only to one whose verdict says it uses
// the network, the web's ports (NetInternet) when it runs unasked and the
// host's whole network (NetHost) when the person approved it.
func GrantFor(v risk.Verdict, approved bool) Grant {
	g := Grant{Approved: approved, UI: approved && v.SynthesisesInput()}
	if risk.UsesNetwork(v) {
		g.Network = NetInternet
		if approved {
			g.Network = NetHost
		}
	}
	return g
}

// Profile is what one action may do (launcher.Profile: the launcher
// applies it as the gate derived it). Paths are absolute and clean; a
// folder covers everything under it.
type Profile = launcher.Profile

// systemRead are the folders every action may read and run programs from,
// by platform. macOS reads everywhere but what is hidden (its frameworks,
// caches and services are spread too widely to list); Linux reads the
// system's programs, libraries and configuration, /proc and /sys.
var systemRead = map[string][]string{
	"linux":  launcher.SystemRead,
	"darwin": {"/"},
}

// uiEnv are the variables that lead to the display server and the session
// bus; an action without the UI grant starts without them.
var uiEnv = []string{"DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS"}

// keptEnv are the variables an action starts with (when the gate has
// them): where things are and how to speak, nothing else. The gate's
// environment may hold secrets (API tokens, cloud keys) that no action
// should see, and a deny-list of their names would always miss one, so
// everything not named here, or a locale variable (LC_*), is left out.
// Key agents' variables (SSH_AUTH_SOCK, GPG_AGENT_INFO …) never are.
var keptEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ", "COLORTERM",
	"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS",
	"__CF_USER_TEXT_ENCODING", // macOS: the text encoding Core Foundation uses
}

// keepEnv reports whether an action without (ui false) or with the UI grant
// starts with variable k.
func keepEnv(k string, ui bool) bool {
	switch {
	case slices.Contains(keptEnv, k), strings.HasPrefix(k, "LC_"):
		return true
	case ui:
		return slices.Contains(uiEnv, k) || k == "XDG_RUNTIME_DIR" || k == "XDG_SESSION_TYPE"
	}
	return false
}

// Derive returns the profile of one action of the given kind, with g
// granted, whose temporary folder is tempDir. Besides the settings and the
// grant it reads what the home holds: the hidden entries to hide are
// listed when the profile is made (hiddenEntries).
func Derive(s Settings, kind string, g Grant, tempDir string) (Profile, error) {
	goos := s.OS
	if goos == "" {
		goos = runtime.GOOS
	}
	sys, ok := systemRead[goos]
	if !ok {
		return Profile{}, fmt.Errorf("sandbox: no profile for %s", goos)
	}
	switch kind {
	case KindCommand, KindAppleScript, KindJXA:
	default:
		return Profile{}, fmt.Errorf("sandbox: unknown kind of action %q", kind)
	}
	if err := absolute("home", s.Home); err != nil {
		return Profile{}, err
	}
	if err := absolute("temporary folder", tempDir); err != nil {
		return Profile{}, err
	}
	for _, r := range s.Roots {
		if err := absolute("sandbox root", r); err != nil {
			return Profile{}, err
		}
	}
	for _, o := range s.Own {
		if err := absolute("Airlock's own path", o); err != nil {
			return Profile{}, err
		}
	}
	if err := g.Network.Valid(); err != nil {
		return Profile{}, err
	}
	if g.Network == NetHost && !g.Approved {
		return Profile{}, errors.New("sandbox: the host's whole network is granted only to an action the person approved")
	}
	if len(g.Reveal) > 0 && !g.Approved {
		return Profile{}, errors.New("sandbox: hidden files are revealed only to an action the person approved")
	}
	for _, r := range g.Reveal {
		if err := absolute("revealed path", r); err != nil {
			return Profile{}, err
		}
	}
	for _, f := range g.Secrets {
		if err := absolute("secret file", f); err != nil {
			return Profile{}, err
		}
	}
	if len(g.Decks) > 0 && g.Approved {
		return Profile{}, errors.New("sandbox: decks are allowed again only to an action that runs unasked")
	}
	for _, f := range g.Decks {
		if err := absolute("Keynote deck", f); err != nil {
			return Profile{}, err
		}
		if !inRoots(filepath.Clean(f), s.Roots) {
			return Profile{}, fmt.Errorf("sandbox: the Keynote deck %q lies in no sandbox root", f)
		}
	}
	for _, f := range g.Plants {
		if err := absolute("planting place", f); err != nil {
			return Profile{}, err
		}
	}
	home, temp := filepath.Clean(s.Home), filepath.Clean(tempDir)
	if err := checkLimits(s); err != nil {
		return Profile{}, err
	}
	p := Profile{Kind: kind, UI: g.UI, Network: g.Network, Unasked: !g.Approved, TempDir: temp, Limits: LimitsFor(s, g)}
	if o := otherTemps(temp); o != "" {
		p.OtherTemps = []string{o}
	}
	if !g.Approved {
		p.Plants = dedup(cleanAll(g.Plants))
	}

	p.Read = append(p.Read, sys...)
	p.Read = append(p.Read, home)
	p.Read = append(p.Read, cleanAll(s.Roots)...)
	p.Read = append(p.Read, temp)
	p.Read = dedup(p.Read)
	p.Write = dedup(append(cleanAll(s.Roots), temp))

	env := envMap(s.Env)
	hide := cleanAll(s.Own)
	if s.Program != "" && kind != KindAppleScript {
		if err := absolute("Airlock's program", s.Program); err != nil {
			return Profile{}, err
		}
		hide = append(hide, filepath.Clean(s.Program))
	}
	hide = append(hide, tablesFor(home).stores...)
	// Unknown is secret: the home's hidden entries, but the roots, the
	// temporary folder and what the person approved naming.
	keep := append(append(cleanAll(s.Roots), temp), cleanAll(g.Reveal)...)
	hide = append(hide, hiddenEntries(home, keep, goos == "darwin")...)
	hide = append(hide, cleanAll(g.Secrets)...)
	runtimeDir := env["XDG_RUNTIME_DIR"]
	if !filepath.IsAbs(runtimeDir) {
		runtimeDir = ""
	}
	if runtimeDir != "" {
		// The keyring's control socket and gpg-agent's sockets.
		hide = append(hide, filepath.Join(runtimeDir, "keyring"), filepath.Join(runtimeDir, "gnupg"))
	}
	if a := env["SSH_AUTH_SOCK"]; filepath.IsAbs(a) {
		hide = append(hide, filepath.Clean(a))
	}
	if !g.UI {
		hide = append(hide, "/tmp/.X11-unix", filepath.Join(home, ".Xauthority"), filepath.Join(home, ".ICEauthority"))
		if runtimeDir != "" {
			// The session bus, the Wayland socket, PulseAudio, and every
			// other per-session socket.
			hide = append(hide, runtimeDir)
		}
		if a := env["XAUTHORITY"]; filepath.IsAbs(a) {
			hide = append(hide, filepath.Clean(a))
		}
		if w := env["WAYLAND_DISPLAY"]; filepath.IsAbs(w) {
			hide = append(hide, filepath.Clean(w))
		}
		hide = append(hide, BusPaths(env["DBUS_SESSION_BUS_ADDRESS"], runtimeDir)...)
	}
	// Sorted, then each path once: no set of a hundred paths to build
	// for every action.
	slices.Sort(hide)
	p.Hide = slices.Compact(hide)
	for _, h := range p.Hide {
		if temp == h || strings.HasPrefix(temp, h+"/") {
			return Profile{}, fmt.Errorf("sandbox: the temporary folder %s lies in %s, which actions may not reach; set TMPDIR to another folder", temp, h)
		}
	}

	for _, kv := range s.Env {
		if k, _, _ := strings.Cut(kv, "="); keepEnv(k, g.UI) {
			p.Env = append(p.Env, kv)
		}
	}
	p.Env = append(p.Env, "TMPDIR="+temp)
	return p, nil
}

// BusPaths returns the socket paths a D-Bus address names (the launcher's
// BusPaths, which the launcher uses too).
func BusPaths(addr, runtimeDir string) []string { return launcher.BusPaths(addr, runtimeDir) }

func absolute(what, p string) error {
	if p == "" {
		return fmt.Errorf("sandbox: no %s given", what)
	}
	if !filepath.IsAbs(p) {
		return fmt.Errorf("sandbox: the %s %q is not an absolute path", what, p)
	}
	if strings.ContainsRune(p, 0) {
		return errors.New("sandbox: the " + what + " holds a NUL byte")
	}
	return nil
}

// envMap is an environment as a map (launcher.EnvMap).
func envMap(env []string) map[string]string { return launcher.EnvMap(env) }

func cleanAll(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = filepath.Clean(p)
	}
	return out
}

// dedup drops repeated entries, keeping the first of each.
func dedup(ps []string) []string {
	seen := make(map[string]bool, len(ps))
	out := ps[:0:0]
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
