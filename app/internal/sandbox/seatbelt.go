package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// SandboxExec is macOS's Seatbelt front end.
const SandboxExec = launcher.SandboxExec

// Seatbelt returns the profile as Seatbelt (SBPL) text for `sandbox-exec
// -p TEXT`, with the -D parameters its paths come in as (KEY=VALUE, in
// order), so that no path is ever spliced into the text. Seatbelt matches
// the paths files really have: give it a profile passed through Resolve.
//
// A command starts from "deny everything" and is allowed what programs need:
// to run, read where the profile reads, write where it writes, reach the
// network its grant names (Network) and, with the UI grant, the window
// server, the pasteboard and Apple events. AppleScript and JXA (osascript)
// need more of the system than can be listed without a Mac to test on, so
// they start from "allow everything" and are refused what an action must
// not do: write outside the profile's folders or through a daemon that
// writes preferences for it, signal other processes, reach the network
// beyond its grant (names included), reach the keychain daemons without the
// host's network, send Apple events to terminals, script runners or
// Airlock, and, without the UI grant, to System Events (keystrokes and
// clicks) or reach the window server. An action the person did not approve
// (Profile.Unasked) is then refused what starts code outside the sandbox
// and, in the sandbox roots, what could not be undone (seatbelt_unasked.go).
// Every profile ends by refusing the hidden paths and the terminal.
//
// How SBPL decides, as the projects that rely on it have measured it (Codex
// CLI, sandbox-runtime, and others' tests against sandbox-exec): among the
// rules that name an operation, the last one that matches wins; and a rule
// naming a specific operation (file-write-data) wins over one naming its
// wildcard (file-write*) whatever their order. So the profiles allow a
// specific file operation only on fixed device paths, never on a path a
// later wildcard rule must be able to deny, and what must hold against the
// wildcard allows of the roots is denied by its specific operations.
func Seatbelt(p Profile) (text string, params []string, err error) {
	return SeatbeltDecks(p, nil)
}

// SeatbeltDecks is Seatbelt of p, which allows an unasked action to read
// again each of decks, the Keynote decks of the sandbox roots named *.key
// (Grant.Decks; Resolved by ResolveDecks), that its rules refuse by name.
func SeatbeltDecks(p Profile, decks []string) (text string, params []string, err error) {
	for _, d := range decks {
		if err := absolute("Keynote deck", d); err != nil {
			return "", nil, err
		}
	}
	if len(decks) > 0 && !p.Unasked {
		return "", nil, errors.New("sandbox: decks are allowed again only to an action that runs unasked")
	}
	sb := &sbpl{decks: decks}
	for _, group := range [][]string{p.Read, p.Write, p.Hide} {
		for _, path := range group {
			if err := absolute("path", path); err != nil {
				return "", nil, err
			}
		}
	}
	if err := p.Network.Valid(); err != nil {
		return "", nil, err
	}
	sb.line("(version 1)")
	switch p.Kind {
	case KindCommand:
		sb.command(p)
	case KindAppleScript, KindJXA:
		sb.script(p)
	default:
		return "", nil, fmt.Errorf("sandbox: unknown kind of action %q", p.Kind)
	}
	if p.Unasked {
		if err := sb.unasked(p); err != nil {
			return "", nil, err
		}
	}
	sb.line("")
	sb.line("; Never: the terminal. The action has no controlling terminal (a session of its own),")
	sb.line("; and no terminal device opens either: nothing can be typed into one.")
	sb.line(`(deny file-read* file-write* file-ioctl (regex #"^/dev/(tty|pty|ptmx)"))`)
	if len(p.OtherTemps) > 0 {
		// A deny that leaves its own folder out, not a deny and an allow
		// of its own after: that allow would undo what the rules above
		// refuse in it (an unasked action's secret names).
		sb.line("; Never: the other actions' temporary folders (what they write there, an agent's socket")
		sb.line("; one starts there), which its own lies among.")
		sb.b.WriteString("(deny file-read* file-write* network-outbound (require-all\n  (require-any")
		sb.filters("subpath", "OTHERTEMPS", p.OtherTemps)
		sb.b.WriteString(")")
		for _, t := range tempForms(p) {
			sb.b.WriteString("\n  (require-not")
			sb.filters("subpath", "TEMP", []string{t})
			sb.b.WriteString(")")
		}
		sb.b.WriteString("))\n")
	}
	if len(p.Hide) > 0 {
		sb.line("; Never: Airlock's own files, the credential stores and agent sockets (reading, writing,")
		sb.line("; connecting), without the UI grant the display's and bus's, and unasked the secret files")
		sb.line("; of the sandbox roots (.env, keys, credentials). Last: later rules win.")
		sb.rule("(deny file-read* file-write* network-outbound", "subpath", "HIDE", p.Hide)
	}
	return sb.b.String(), sb.params, nil
}

// command writes the rules of a command: deny by default.
func (sb *sbpl) command(p Profile) {
	sb.line("; Airlock: one command. Everything not allowed below is denied.")
	sb.line("(deny default)")
	sb.line("")
	sb.line("; Programs may start programs, and signal or inspect only this sandbox's processes.")
	sb.line("(allow process-exec process-fork)")
	sb.line("(allow signal (target same-sandbox))")
	sb.line("(allow process-info* (target same-sandbox))")
	sb.line("")
	sb.line("; What programs need to start, learn who they run as, log and read preferences:")
	sb.line("; sysctls, the host's processor information (libuv's os.cpus()), semaphores (Python's")
	sb.line("; multiprocessing), the power-management client Core Foundation opens, notify(3)'s")
	sb.line("; shared memory.")
	sb.line("(allow sysctl-read)")
	sb.line("(allow mach-host*)")
	sb.line("(allow ipc-posix-sem)")
	sb.line(`(allow ipc-posix-shm-read* (ipc-posix-name "apple.shm.notification_center"))`)
	sb.line(`(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))`)
	sb.line("(allow user-preference-read)")
	sb.names("(allow mach-lookup", baseServices)
	sb.line(`(allow mach-lookup (local-name "com.apple.cfprefsd.agent"))`)
	sb.line("")
	sb.line("; Files: read here,")
	sb.rule("(allow file-read*", "subpath", "READ", p.Read)
	sb.line("; write only here,")
	sb.rule("(allow file-read* file-write*", "subpath", "WRITE", p.Write)
	sb.line("; and the devices that reach nothing new: the empty ones, and the program's own")
	sb.line("; descriptors (/dev/stdout, /dev/stderr and /dev/fd/N reopen what it already holds).")
	sb.devices()
	sb.line(`(allow file-read* (literal "/dev/random") (literal "/dev/urandom"))`)
	sb.line("")
	sb.line("(allow system-socket)")
	sb.commandNetwork(p.Network)
	if p.UI {
		sb.line("")
		sb.line("; The UI, which the person approved: the window server, the pasteboard, Apple events.")
		sb.names("(allow mach-lookup", uiServices)
		sb.line("(allow appleevent-send)")
		sb.appleEvents("(deny appleevent-send", forbiddenAppleEventTargets)
	}
}

// devices allows writing the devices that reach nothing new: file-write-data
// on fixed paths only (a specific operation: see Seatbelt).
func (sb *sbpl) devices() {
	sb.line(`(allow file-read* file-write-data (literal "/dev/null") (literal "/dev/zero")`)
	sb.line(`  (literal "/dev/stdout") (literal "/dev/stderr") (literal "/dev/stdin") (subpath "/dev/fd"))`)
}

// mDNSResponder is the name resolver's socket.
const mDNSResponder = `(literal "/private/var/run/mDNSResponder")`

// webOnly are the rules of NetInternet once everything else is refused:
// TCP to the web's ports and the name resolver, then never this machine.
func (sb *sbpl) webOnly() {
	sb.line(`(allow network-outbound (remote tcp "*:80") (remote tcp "*:443"))`)
	sb.line("(allow network-outbound " + mDNSResponder + ")")
	sb.line(`(deny network-outbound (remote ip "localhost:*"))`)
}

// commandNetwork writes a command's network rules; what they do not allow,
// "deny default" refuses.
func (sb *sbpl) commandNetwork(n Network) {
	sb.line("")
	switch n {
	case NetInternet:
		sb.line("; Network: TCP to the web's ports and the name resolver, never this machine's services.")
		sb.webOnly()
		sb.names("(allow mach-lookup", resolverServices)
		sb.names("(allow mach-lookup", networkServices)
	case NetHost:
		sb.line("; Network: all of it, as the person approved; no local socket but the name resolver's;")
		sb.line("; the keychain daemons, for client certificates and trust settings kept in keychains.")
		sb.line(`(allow network-outbound (remote ip "*:*"))`)
		sb.line(`(allow network-inbound network-bind (local ip "*:*"))`)
		sb.line("(allow network-outbound " + mDNSResponder + ")")
		sb.names("(allow mach-lookup", resolverServices)
		sb.names("(allow mach-lookup", networkServices)
		sb.names("(allow mach-lookup", keychainServices)
	default:
		sb.line("; Network: none (no rule allows it), not even names: neither the resolver's socket")
		sb.line("; nor its service, nor the keychain daemons.")
	}
}

// scriptNetwork writes a script's network rules: its profile allows by
// default, so each grant but the host's refuses first.
func (sb *sbpl) scriptNetwork(n Network) {
	switch n {
	case NetInternet:
		sb.line("")
		sb.line("; Network: TCP to the web's ports and the name resolver only, never this machine's services.")
		sb.line(`(deny network-outbound (remote ip "*:*"))`)
		sb.line(`(deny network-inbound network-bind (local ip "*:*"))`)
		sb.webOnly()
	case NetHost:
	default:
		sb.line("")
		sb.line("; Network: none, not even names (the resolver's socket and its service).")
		sb.line(`(deny network-outbound (remote ip "*:*") ` + mDNSResponder + ")")
		sb.line(`(deny network-inbound network-bind (local ip "*:*"))`)
		sb.names("(deny mach-lookup", resolverServices)
	}
	if n != NetHost {
		sb.line("; The keychain daemons, which read keychain items for whoever asks: only with the")
		sb.line("; host's network, which only the person grants.")
		sb.names("(deny mach-lookup", keychainServices)
	}
}

// script writes the rules of AppleScript and JXA: allow by default, refuse
// what an action must not do.
func (sb *sbpl) script(p Profile) {
	sb.line("; Airlock: one " + p.Kind + " script. Allowed by default; refused below is what it must not do.")
	sb.line("(allow default)")
	sb.line("")
	sb.line("; Signals only to this sandbox's processes.")
	sb.line("(deny signal)")
	sb.line("(allow signal (target same-sandbox))")
	sb.line("")
	sb.line("; Writes only in the sandbox roots and the action's temporary folder, and no")
	sb.line("; preferences written by cfprefsd on the script's behalf (they lie outside them).")
	sb.line("(deny file-write*)")
	sb.line("(deny user-preference-write)")
	sb.rule("(allow file-write*", "subpath", "WRITE", p.Write)
	sb.devices()
	sb.scriptNetwork(p.Network)
	sb.line("")
	sb.line("; Apple events never to a terminal, a script runner or Airlock.")
	sb.appleEvents("(deny appleevent-send", forbiddenAppleEventTargets)
	if !p.UI {
		sb.line("; Without the UI grant: no keystrokes or clicks through System Events, no window server.")
		sb.appleEvents("(deny appleevent-send", []string{"com.apple.systemevents"})
		sb.names("(deny mach-lookup", []machService{{name: "com.apple.windowserver.active"}})
	}
}

// sbpl builds the text and its parameters.
type sbpl struct {
	b      strings.Builder
	params []string
	n      map[string]int
	decks  []string // allowed again after the secret names' deny (SeatbeltDecks)
}

func (sb *sbpl) line(s string) {
	sb.b.WriteString(s)
	sb.b.WriteByte('\n')
}

// rule writes head followed by one (filter (param "PREFIX_i")) per path,
// and records the parameters.
func (sb *sbpl) rule(head, filter, prefix string, paths []string) {
	if len(paths) == 0 {
		return
	}
	sb.b.WriteString(head)
	sb.filters(filter, prefix, paths)
	sb.b.WriteString(")\n")
}

// filters writes one (filter (param "PREFIX_i")) per path, each on a line
// of its own, and records the parameters.
func (sb *sbpl) filters(filter, prefix string, paths []string) {
	if sb.n == nil {
		sb.n = map[string]int{}
	}
	for _, p := range paths {
		key := fmt.Sprintf("%s_%d", prefix, sb.n[prefix])
		sb.n[prefix]++
		sb.params = append(sb.params, key+"="+p)
		fmt.Fprintf(&sb.b, "\n  (%s (param %q))", filter, key)
	}
}

// names writes head followed by a global-name (or global-name-prefix)
// filter per Mach service. Names are constants of this package, never
// input.
func (sb *sbpl) names(head string, services []machService) {
	sb.b.WriteString(head)
	for _, s := range services {
		filter := "global-name"
		if s.prefix {
			filter = "global-name-prefix"
		}
		fmt.Fprintf(&sb.b, "\n  (%s %q)", filter, s.name)
	}
	sb.b.WriteString(")\n")
}

// appleEvents writes head followed by an appleevent-destination filter per
// bundle id (constants of this package, never input).
func (sb *sbpl) appleEvents(head string, ids []string) {
	sb.b.WriteString(head)
	for _, id := range ids {
		fmt.Fprintf(&sb.b, "\n  (appleevent-destination %q)", id)
	}
	sb.b.WriteString(")\n")
}

// SandboxExecArgv is the argument vector that runs argv under text with
// params.
func SandboxExecArgv(text string, params, argv []string) []string {
	out := []string{SandboxExec, "-p", text}
	for _, kv := range params {
		out = append(out, "-D", kv)
	}
	out = append(out, "--")
	return append(out, argv...)
}

// ResolveDecks returns decks (Grant.Decks) with each one's folder given
// as where it leads through symbolic links too, as Resolve gives paths,
// and its own name kept: a deck that is itself a link (put there after the
// walk) is not followed, and Seatbelt checks a read of what a link leads
// to against that file's own path, which no literal here names.
func ResolveDecks(decks []string) []string {
	var out []string
	for _, d := range decks {
		out = append(out, d)
		dir, name := filepath.Split(d)
		if r, err := filepath.EvalSymlinks(dir); err == nil && filepath.Join(r, name) != d {
			out = append(out, filepath.Join(r, name))
		}
	}
	return dedup(out)
}

// Resolve returns p with every path that leads elsewhere through symbolic
// links given as where it leads too (macOS's /tmp is /private/tmp; a
// credential store may be a link to another disk), since Seatbelt and
// Landlock see the paths files really have. Paths that do not exist are
// kept as they are.
func Resolve(p Profile) Profile {
	resolve := func(ps []string) []string {
		var out []string
		for _, path := range ps {
			out = append(out, path)
			if r, err := filepath.EvalSymlinks(path); err == nil && r != path {
				out = append(out, r)
			}
		}
		return dedup(out)
	}
	p.Read, p.Write, p.Hide = resolve(p.Read), resolve(p.Write), resolve(p.Hide)
	if len(p.OtherTemps) > 0 {
		p.OtherTemps = resolve(p.OtherTemps)
	}
	if len(p.Plants) > 0 {
		p.Plants = resolvePlants(p.Plants)
	}
	return p
}
