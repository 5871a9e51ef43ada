package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/bridge"
)

// doctorEnv is what the probes are built from: the settings, the doctor's
// own folder, a TCP listener of its own, and how to tell what works outside
// the sandbox (tests replace these).
type doctorEnv struct {
	s    Settings
	work string // the doctor's folder, outside the sandbox roots

	ln       net.Listener
	accepted atomic.Int32 // connections the listener took

	// resolves reports whether a name resolves outside the sandbox.
	resolves func(ctx context.Context, name string) bool
	// runs reports whether argv exits 0 outside the sandbox.
	runs func(ctx context.Context, argv []string) bool
	// has reports whether a program exists here.
	has func(path string) bool
}

// outsideTimeout bounds each thing the doctor tries outside the sandbox.
const outsideTimeout = 5 * time.Second

func newDoctorEnv(ctx context.Context, s Settings, work string) (*doctorEnv, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on 127.0.0.1 for the network check: %w", err)
	}
	e := &doctorEnv{s: s, work: work, ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			e.accepted.Add(1)
			c.Close()
		}
	}()
	e.resolves = func(ctx context.Context, name string) bool {
		ctx, cancel := context.WithTimeout(ctx, outsideTimeout)
		defer cancel()
		addrs, err := net.DefaultResolver.LookupHost(ctx, name)
		return err == nil && len(addrs) > 0
	}
	e.runs = func(ctx context.Context, argv []string) bool {
		ctx, cancel := context.WithTimeout(ctx, outsideTimeout)
		defer cancel()
		_, _, err := bridge.RunArgv(ctx, bridge.Command{Argv: argv, NewSession: true})
		return err == nil
	}
	e.has = func(path string) bool {
		p, err := exec.LookPath(path)
		return err == nil && p != ""
	}
	return e, nil
}

func (e *doctorEnv) close() { e.ln.Close() }

// port is the listener's port.
func (e *doctorEnv) port() string { return strconv.Itoa(e.ln.Addr().(*net.TCPAddr).Port) }

// The checks' programs: the system's own, by absolute path.
const (
	shell = "/bin/sh"
	bash  = "/bin/bash"
)

// probesFor returns the checks of platform goos, built in e (files they
// need are made now, in e.work or, for the canary, among Airlock's own
// files, which the probe's after removes).
func probesFor(goos string, e *doctorEnv) ([]probe, error) {
	ctx := context.Background()
	ps := []probe{e.writeOutside(), e.credentialStore()}
	own, err := e.ownFiles()
	if err != nil {
		return nil, err
	}
	ps = append(ps, own, e.network(), e.names(ctx, goos), e.standardError())
	switch goos {
	case "linux":
		ps = append(ps, e.hiddenSockets("the session bus (the Secret Service keyring, gio and systemd launches) is unreachable without the UI grant", e.busPaths()),
			e.hiddenSockets("the display (X11, Wayland) is unreachable without the UI grant", e.displayPaths()))
	case "darwin":
		mac, err := e.macProbes(ctx)
		if err != nil {
			return nil, err
		}
		ps = append(ps, mac...)
	}
	return ps, nil
}

// insideRoots reports whether path lies in a sandbox root.
func (e *doctorEnv) insideRoots(path string) bool {
	for _, r := range e.s.Roots {
		if path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
		if res, err := filepath.EvalSymlinks(r); err == nil && (path == res || strings.HasPrefix(path, res+"/")) {
			return true
		}
	}
	return false
}

// writeOutside: an unasked command tries to write a file in the doctor's
// folder, which lies outside the roots.
func (e *doctorEnv) writeOutside() probe {
	target := filepath.Join(e.work, "outside", "written-by-an-action")
	p := probe{check: "writing outside the sandbox roots is refused", kind: KindCommand,
		argv: []string{shell, "-c", `echo airlock-doctor > "$1"`, "sh", target}}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		p.skip = err.Error()
	}
	if e.insideRoots(target) {
		p.skip = "the temporary folder " + e.work + " lies in a sandbox root"
	}
	p.judge = refusedIf(func(outcome) string {
		if _, err := os.Lstat(target); err == nil {
			return "the action wrote " + target
		}
		return ""
	})
	return p
}

// credentialStore: an unasked command tries to print a file of the first
// credential store on this machine that holds one.
func (e *doctorEnv) credentialStore() probe {
	p := probe{check: "a credential store is unreadable", kind: KindCommand}
	file, head := firstStoredFile(sanitize.CredentialStores(filepath.Clean(e.s.Home)))
	if file == "" {
		p.skip = "no credential store with a file in it here"
		return p
	}
	p.argv = []string{shell, "-c", `cat -- "$1"`, "sh", file}
	p.judge = refusedIf(func(o outcome) string {
		if strings.Contains(o.stdout, head) {
			return "the action read " + file
		}
		return ""
	})
	return p
}

// firstStoredFile returns the first regular file of at least 8 bytes among
// stores (each a file or a folder, whose entries are looked at, links not
// followed), with its first bytes: what a read that got through would
// print. The bytes are compared, never shown.
func firstStoredFile(stores []string) (path, head string) {
	for _, s := range stores {
		candidates := []string{s}
		if fi, err := os.Lstat(s); err != nil {
			continue
		} else if fi.IsDir() {
			entries, err := os.ReadDir(s)
			if err != nil {
				continue
			}
			candidates = candidates[:0]
			for i, en := range entries {
				if i == 64 {
					break
				}
				candidates = append(candidates, filepath.Join(s, en.Name()))
			}
		}
		for _, c := range candidates {
			if h := fileHead(c); h != "" {
				return c, h
			}
		}
	}
	return "", ""
}

// fileHead returns the first 32 bytes of a regular file of at least 8
// bytes, or "".
func fileHead(path string) string {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < 8 {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	b := make([]byte, 32)
	n, _ := io.ReadFull(f, b)
	if n < 8 {
		return ""
	}
	return string(b[:n])
}

// ownFiles: an unasked command tries to print a file the doctor puts among
// Airlock's own files (the data folder), which the check then removes.
func (e *doctorEnv) ownFiles() (probe, error) {
	p := probe{check: "Airlock's own files (settings, history, socket, logs) are unreadable", kind: KindCommand}
	dir := ""
	for _, o := range e.s.Own {
		if fi, err := os.Stat(o); err == nil && fi.IsDir() {
			dir = o
			break
		}
	}
	if dir == "" {
		p.skip = "none of Airlock's own folders exists yet"
		return p, nil
	}
	token, err := randomToken()
	if err != nil {
		return p, err
	}
	canary := filepath.Join(dir, ".airlock-doctor-"+token)
	if err := os.WriteFile(canary, []byte("airlock-doctor-"+token), 0o600); err != nil {
		p.skip = "cannot put a file in " + dir + ": " + err.Error()
		return p, nil
	}
	p.after = func() { os.Remove(canary) }
	p.argv = []string{shell, "-c", `cat -- "$1"`, "sh", canary}
	p.judge = refusedIf(func(o outcome) string {
		if strings.Contains(o.stdout, token) {
			return "the action read " + canary
		}
		return ""
	})
	return p, nil
}

func randomToken() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a random name: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// network: an unasked command without a network grant tries to connect to
// the doctor's listener on this machine.
func (e *doctorEnv) network() probe {
	p := probe{check: "the network is unreachable without a grant (this machine's services included)", kind: KindCommand,
		argv: []string{bash, "-c", `exec 3<>"/dev/tcp/127.0.0.1/$1"`, "bash", e.port()}}
	if !e.has(bash) {
		p.skip = bash + " is not here"
	}
	p.judge = refusedIf(func(o outcome) string {
		if o.err == nil || e.accepted.Load() > 0 {
			return "the action connected to 127.0.0.1:" + e.port()
		}
		return ""
	})
	return p
}

// resolvedName is the name the names check resolves.
const resolvedName = "example.com"

// names: an unasked command without a network grant tries to resolve a
// name that resolves outside the sandbox.
func (e *doctorEnv) names(ctx context.Context, goos string) probe {
	p := probe{check: "names do not resolve without a network grant (no way out through DNS)", kind: KindCommand}
	leaked := func(o outcome) bool { return o.err == nil && strings.TrimSpace(o.stdout) != "" }
	switch goos {
	case "darwin":
		// getaddrinfo as programs call it (ping names the address it
		// resolved before it sends anything), and the directory service's
		// cache, which opendirectoryd answers.
		p.argv = []string{shell, "-c", `/sbin/ping -c 1 -t 1 "$1"; /usr/bin/dscacheutil -q host -a name "$1"`, "sh", resolvedName}
		leaked = func(o outcome) bool {
			return strings.Contains(o.stdout, "PING "+resolvedName+" (") || strings.Contains(o.stdout, "address:")
		}
	default:
		p.argv = []string{"getent", "hosts", resolvedName}
	}
	switch {
	case !e.has(p.argv[0]):
		p.skip = p.argv[0] + " is not here"
	case !e.resolves(ctx, resolvedName):
		p.skip = resolvedName + " does not resolve here even outside the sandbox"
	}
	p.judge = refusedIf(func(o outcome) string {
		if leaked(o) {
			return "the action resolved " + resolvedName
		}
		return ""
	})
	return p
}

// standardError: a program may open its standard error by name, as shells
// and tee do (> /dev/stderr); it reaches nothing new.
func (e *doctorEnv) standardError() probe {
	const said = "airlock-doctor-stderr"
	return probe{check: "an action may write to /dev/stderr and /dev/stdout", kind: KindCommand,
		argv: []string{shell, "-c", `echo ` + said + ` > /dev/stderr && echo ` + said + ` > /dev/stdout`},
		judge: func(o outcome) (Status, string) {
			if o.err == nil && strings.Contains(o.stderr, said) && strings.Contains(o.stdout, said) {
				return Held, "it wrote to both"
			}
			return NotHeld, "it could not" + exitWords(o)
		}}
}

// busPaths are the session bus's sockets that exist here.
func (e *doctorEnv) busPaths() []string {
	env := envMap(e.s.Env)
	return existing(BusPaths(env["DBUS_SESSION_BUS_ADDRESS"], env["XDG_RUNTIME_DIR"]))
}

// displayPaths are the display's sockets and cookie that exist here.
func (e *doctorEnv) displayPaths() []string {
	env := envMap(e.s.Env)
	var ps []string
	if d := env["DISPLAY"]; strings.HasPrefix(d, ":") {
		n, _, _ := strings.Cut(d[1:], ".")
		ps = append(ps, "/tmp/.X11-unix/X"+n)
	}
	if w := env["WAYLAND_DISPLAY"]; w != "" {
		if !filepath.IsAbs(w) && filepath.IsAbs(env["XDG_RUNTIME_DIR"]) {
			w = filepath.Join(env["XDG_RUNTIME_DIR"], w)
		}
		ps = append(ps, w)
	}
	if x := env["XAUTHORITY"]; filepath.IsAbs(x) {
		ps = append(ps, x)
	}
	return existing(ps)
}

func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil && filepath.IsAbs(p) {
			out = append(out, p)
		}
	}
	return out
}

// hiddenSockets: an unasked command without the UI grant looks for the
// sockets and cookies it must not reach (a hidden socket may be there as
// an empty file: only a socket or a file with content counts).
func (e *doctorEnv) hiddenSockets(check string, paths []string) probe {
	p := probe{check: check, kind: KindCommand,
		argv: append([]string{shell, "-c", `for p do if [ -S "$p" ] || [ -s "$p" ]; then echo "$p"; fi; done`, "sh"}, paths...)}
	if len(paths) == 0 {
		p.skip = "there is none here"
	}
	p.judge = func(o outcome) (Status, string) {
		if s := strings.TrimSpace(o.stdout); s != "" || o.err != nil {
			return NotHeld, "the action sees " + strings.Join(strings.Fields(s), ", ") + exitWords(o)
		}
		return Held, "the action sees none of " + strings.Join(paths, ", ")
	}
	return p
}
