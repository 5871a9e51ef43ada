package ipc_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// TestSignedProgram is the macOS identity decision, tested here because it
// is plain Go: only a valid signature identifies a program; Apple's chain
// makes the team and signing identifier the identity; otherwise the exact
// code (its code directory hash) is. A self-signed certificate claiming a
// team is not taken at its word.
func TestSignedProgram(t *testing.T) {
	claude := ipc.CodeSignature{PID: 123, Path: "/Applications/Claude.app/Contents/MacOS/Claude", Valid: true, AppleAnchored: true,
		Identifier: "com.anthropic.claudefordesktop", TeamID: "Q6L2SF6YDW", Signer: "Developer ID Application: Anthropic PBC (Q6L2SF6YDW)",
		CDHash: []byte{1, 2, 3}}
	keyOf := func(s ipc.CodeSignature) string {
		p, problem := ipc.SignedProgram(s)
		if problem != "" {
			return "problem: " + problem
		}
		return ipc.ProgramKey(p)
	}
	p, problem := ipc.SignedProgram(claude)
	if problem != "" || p.String() != "/Applications/Claude.app/Contents/MacOS/Claude (pid 123), signed by Developer ID Application: Anthropic PBC (Q6L2SF6YDW)" {
		t.Fatalf("Claude: %q, %q", p.String(), problem)
	}
	newBuild := claude
	newBuild.CDHash, newBuild.PID = []byte{9, 9}, 456
	if keyOf(newBuild) != keyOf(claude) {
		t.Error("a new build from the same team and identifier is another program")
	}
	for _, tt := range []struct {
		name    string
		change  func(*ipc.CodeSignature)
		problem string // "" means: identified, but not as claude
	}{
		{"invalid signature", func(s *ipc.CodeSignature) { s.Valid = false }, "does not match"},
		{"no path", func(s *ipc.CodeSignature) { s.Path = "" }, "path"},
		{"another team", func(s *ipc.CodeSignature) { s.TeamID = "EVILTEAM01" }, ""},
		{"another identifier", func(s *ipc.CodeSignature) { s.Identifier = "com.example.agent" }, ""},
		{"another path", func(s *ipc.CodeSignature) { s.Path = "/tmp/Claude" }, ""},
		{"self-signed, claiming the team", func(s *ipc.CodeSignature) { s.AppleAnchored = false }, ""},
		{"anchored, no identifier", func(s *ipc.CodeSignature) { s.Identifier = "" }, "identifier"},
		{"ad-hoc without a code hash", func(s *ipc.CodeSignature) { s.AppleAnchored, s.CDHash = false, nil }, "hash"},
	} {
		s := claude
		tt.change(&s)
		got := keyOf(s)
		switch {
		case tt.problem != "" && !strings.Contains(got, tt.problem):
			t.Errorf("%s: %q, want a problem about %q", tt.name, got, tt.problem)
		case tt.problem == "" && (strings.HasPrefix(got, "problem") || got == keyOf(claude)):
			t.Errorf("%s: key %q; want another program than Claude", tt.name, got)
		}
	}
	adhoc := claude
	adhoc.AppleAnchored, adhoc.TeamID, adhoc.Signer = false, "", ""
	if p, _ := ipc.SignedProgram(adhoc); !strings.Contains(p.Signer, "ad-hoc") || strings.Contains(p.String(), "Anthropic") {
		t.Errorf("ad-hoc code is described as %q", p.String())
	}
	apple := ipc.CodeSignature{PID: 7, Path: "/bin/zsh", Valid: true, AppleAnchored: true, Identifier: "com.apple.zsh", CDHash: []byte{4}}
	if p, problem := ipc.SignedProgram(apple); problem != "" || !strings.HasSuffix(p.String(), "signed by Apple") {
		t.Errorf("Apple's zsh: %q, %q", p.String(), problem)
	}
}

// TestExeProgram: a process that ended before its executable was read is
// not identified (its process id may name another process by then); the
// identity is the file, so a change to it is another program.
func TestExeProgram(t *testing.T) {
	e := ipc.LinuxExe{PID: 10, Path: "/usr/bin/agent", Dev: 1, Ino: 2, CtimeSec: 3, StillRunning: true}
	p, problem := ipc.ExeProgram(e)
	if problem != "" || p.String() != "/usr/bin/agent (pid 10)" {
		t.Fatalf("%q, %q", p.String(), problem)
	}
	gone := e
	gone.StillRunning = false
	if _, problem := ipc.ExeProgram(gone); !strings.Contains(problem, "ended") {
		t.Errorf("a process that ended: %q", problem)
	}
	for name, change := range map[string]func(*ipc.LinuxExe){
		"another inode":    func(e *ipc.LinuxExe) { e.Ino++ },
		"changed in place": func(e *ipc.LinuxExe) { e.CtimeNsec++ },
		"another path":     func(e *ipc.LinuxExe) { e.Path += "2" },
	} {
		c := e
		change(&c)
		if q, _ := ipc.ExeProgram(c); ipc.ProgramKey(q) == ipc.ProgramKey(p) {
			t.Errorf("%s: same key", name)
		}
	}
}

// TestResolveLauncher: a peer running Airlock's own program is known by its
// launcher; one whose launcher cannot be verified is not verified at all.
func TestResolveLauncher(t *testing.T) {
	self, _ := ipc.ExeProgram(ipc.LinuxExe{PID: 1, Path: "/usr/bin/airlock", Ino: 5, StillRunning: true})
	other, _ := ipc.ExeProgram(ipc.LinuxExe{PID: 2, Path: "/usr/bin/claude", Ino: 6, StillRunning: true})
	viaAirlock, _ := ipc.ExeProgram(ipc.LinuxExe{PID: 3, Path: "/usr/bin/airlock", Ino: 5, StillRunning: true})

	p := ipc.Peer{PID: 2, Program: other}
	ipc.ResolveLauncher(&p, self, func() (ipc.Program, string) {
		t.Fatal("looked up the launcher of another program")
		return ipc.Program{}, ""
	})
	if p.Launcher != nil || p.Key() != ipc.ProgramKey(other) {
		t.Fatalf("another program: %+v", p)
	}
	p = ipc.Peer{PID: 3, Program: viaAirlock}
	ipc.ResolveLauncher(&p, self, func() (ipc.Program, string) { return other, "" })
	if p.Launcher == nil || p.Key() == "" || p.Key() == ipc.ProgramKey(other) || p.Key() == ipc.ProgramKey(viaAirlock) {
		t.Fatalf("through airlock: %+v key %q", p, p.Key())
	}
	if p.String() != "/usr/bin/claude (pid 2) via airlock (pid 3)" {
		t.Errorf("String = %q", p.String())
	}
	// The gate's binary was replaced by an upgrade while it runs: a client
	// started from the new file is still Airlock's own program.
	upgraded, _ := ipc.ExeProgram(ipc.LinuxExe{PID: 1, Path: "/usr/bin/airlock (deleted)", Ino: 5, StillRunning: true})
	newFile, _ := ipc.ExeProgram(ipc.LinuxExe{PID: 4, Path: "/usr/bin/airlock", Ino: 9, StillRunning: true})
	p = ipc.Peer{PID: 4, Program: newFile}
	ipc.ResolveLauncher(&p, upgraded, func() (ipc.Program, string) { return other, "" })
	if p.Launcher == nil {
		t.Fatalf("a client from the upgraded binary is not known by its launcher: %+v", p)
	}
	p = ipc.Peer{PID: 3, Program: viaAirlock}
	ipc.ResolveLauncher(&p, self, func() (ipc.Program, string) { return ipc.Program{}, "its parent process is gone" })
	if p.Verified() || p.Key() != "" || !strings.Contains(p.String(), "parent process is gone") {
		t.Fatalf("launcher gone: %+v %q", p, p.String())
	}
}
