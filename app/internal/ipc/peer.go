package ipc

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
)

// Peer is the process at the other end of a connection, as the kernel
// reported it when the gate accepted the connection: its user, its process,
// and the program it runs, read while the connection was held.
//
// What it can and cannot tell: the program is that of the process that
// connected (Linux SO_PEERCRED, macOS LOCAL_PEERTOKEN), looked up so that a
// process id the kernel reused for another process is never mistaken for
// it (a pidfd on Linux, the audit token on macOS). It says which program
// holds the connection, not what that program was told to do: two clients
// of one interpreter (node, python) are the same program, and on Linux any
// process of the same user that can trace or inject into another, or that
// passes its connection to one, can act as that other program. On macOS the
// code signature makes that much harder for signed, hardened programs.
type Peer struct {
	UID int // the peer's user id
	PID int // its process id when it connected
	// Program is the peer's program, verified; zero when Problem is set.
	Program Program
	// Launcher is set when the peer runs Airlock's own program (`airlock
	// mcp`, `airlock run`): the program that started it, which is the
	// client really asking (the MCP host, the shell).
	Launcher *Program
	// Problem says why the program could not be verified; "" when it was.
	// A peer with a problem is still served, but nothing is granted to it.
	Problem string
}

// Program is one verified program.
type Program struct {
	PID  int    // the process running it
	Path string // its executable
	// Signer is, on macOS, who signed it ("Developer ID Application: …
	// (TEAMID)", or that it is ad-hoc signed); "" on Linux.
	Signer string
	// key identifies the program: see Peer.Key.
	key string
}

// String describes the program for the person: "/usr/bin/foo (pid 123)",
// with ", signed by …" on macOS.
func (p Program) String() string {
	s := fmt.Sprintf("%s (pid %d)", p.Path, p.PID)
	if p.Signer != "" {
		s += ", " + p.Signer
	}
	return s
}

// Verified reports whether the peer's program was verified.
func (p Peer) Verified() bool {
	return p.Problem == "" && p.Program.key != "" && (p.Launcher == nil || p.Launcher.key != "")
}

// Key identifies the peer's program, for what belongs to a program rather
// than to a name (remembered grants): on Linux its executable file (path,
// device, inode and change time), on macOS its path and verified code
// signature (team and signing identifier for code Apple's chain vouches
// for, otherwise its code directory hash). For Airlock's own program it is
// the launcher's key, marked as reached through Airlock. It is "" for a
// peer whose program could not be verified.
func (p Peer) Key() string {
	if !p.Verified() {
		return ""
	}
	if p.Launcher != nil {
		return p.Launcher.key + "\x00via-airlock"
	}
	return p.Program.key
}

// String describes the peer for the person and the history:
// "/usr/bin/claude (pid 123)", "/bin/bash (pid 77) via airlock (pid 78)",
// or the process id and why its program is not verified.
func (p Peer) String() string {
	switch {
	case p.Problem != "":
		return fmt.Sprintf("pid %d, not verified: %s", p.PID, p.Problem)
	case p.Launcher != nil:
		return fmt.Sprintf("%s via airlock (pid %d)", p.Launcher, p.PID)
	}
	return p.Program.String()
}

type peerKey struct{}

// PeerFrom returns the peer of the connection a Handler call came from; ok
// is false for a context that did not come from the server.
func PeerFrom(ctx context.Context) (p Peer, ok bool) {
	p, ok = ctx.Value(peerKey{}).(Peer)
	return p, ok
}

func withPeer(ctx context.Context, p Peer) context.Context {
	return context.WithValue(ctx, peerKey{}, p)
}

// codeSignature is what macOS reports about a running program's code
// signature (peer_darwin.go reads it through the Security framework).
type codeSignature struct {
	PID  int
	Path string
	// Valid: SecCodeCheckValidity passed, so the running code is what its
	// signature covers.
	Valid bool
	// AppleAnchored: it also satisfies "anchor apple generic": its
	// certificate chain ends at Apple's root (Apple's own code, the App
	// Store, Developer ID), so its team identifier is Apple's word.
	AppleAnchored bool
	Identifier    string // the signing identifier, e.g. com.anthropic.claudefordesktop
	TeamID        string // the team identifier; "" for Apple's own and ad-hoc code
	Signer        string // the leaf certificate's subject summary; "" when ad-hoc
	CDHash        []byte // the code directory hash
}

// signedProgram turns a code signature into a Program, or says why it
// identifies nothing. The decision is here, in plain Go, so it is tested on
// every platform; peer_darwin.go only gathers the facts.
func signedProgram(s codeSignature) (Program, string) {
	switch {
	case s.Path == "":
		return Program{}, "its executable's path is unknown"
	case !s.Valid:
		return Program{}, "its code signature is missing or does not match its code"
	case s.AppleAnchored && s.Identifier == "":
		return Program{}, "its code signature names no signing identifier"
	}
	p := Program{PID: s.PID, Path: s.Path}
	switch {
	case s.AppleAnchored && s.TeamID != "":
		p.Signer = "signed by " + orString(s.Signer, "team "+s.TeamID)
		p.key = "darwin:team:" + s.TeamID + ":" + s.Identifier + "\x00" + s.Path
	case s.AppleAnchored:
		p.Signer = "signed by Apple"
		p.key = "darwin:apple:" + s.Identifier + "\x00" + s.Path
	case len(s.CDHash) > 0:
		// Ad-hoc or self-signed: nobody vouches for the signer, so the
		// program is this exact code.
		h := hex.EncodeToString(s.CDHash)
		p.Signer = "ad-hoc signed, not vouched for by Apple (code hash " + h[:min(len(h), 12)] + ")"
		p.key = "darwin:cdhash:" + h + "\x00" + s.Path
	default:
		return Program{}, "its code signature has no code directory hash"
	}
	return p, ""
}

// linuxExe is what Linux reports about a process's executable.
type linuxExe struct {
	PID          int
	Path         string // readlink /proc/PID/exe
	Dev, Ino     uint64 // stat /proc/PID/exe: the file itself, even if renamed or deleted
	CtimeSec     int64
	CtimeNsec    int64
	StillRunning bool // the process the connection came from was alive after the path was read
}

// exeProgram turns what Linux reports into a Program, or says why it
// identifies nothing.
func exeProgram(e linuxExe) (Program, string) {
	switch {
	case !e.StillRunning:
		return Program{}, "its process ended before its program could be read"
	case e.Path == "":
		return Program{}, "its executable's path is unknown"
	}
	return Program{PID: e.PID, Path: e.Path,
		key: fmt.Sprintf("linux:%s\x00%d:%d:%d.%d", e.Path, e.Dev, e.Ino, e.CtimeSec, e.CtimeNsec)}, ""
}

// sameProgram reports whether two verified Programs are the same program.
func (p Program) sameProgram(q Program) bool { return p.key != "" && p.key == q.key }

// isAirlock reports whether p runs Airlock's own program (self): the same
// program, or the file at the path the gate was started from (on Linux an
// upgrade replaces it while the gate runs, and the gate's own path then
// reads "… (deleted)").
func isAirlock(p, self Program) bool {
	return p.sameProgram(self) || self.Path != "" && p.Path == strings.TrimSuffix(self.Path, " (deleted)")
}

// resolveLauncher completes a peer that runs Airlock's own program (self):
// the client really asking is the program that started it, which parent
// looks up. A peer whose launcher cannot be verified is not verified.
func resolveLauncher(p *Peer, self Program, parent func() (Program, string)) {
	if p.Problem != "" || !isAirlock(p.Program, self) {
		return
	}
	lp, problem := parent()
	if problem != "" {
		p.Problem = "it runs Airlock's own program, and the program that started it could not be verified: " + problem
		return
	}
	p.Launcher = &lp
}

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
