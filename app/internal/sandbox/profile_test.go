package sandbox_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/sandbox"
)

const (
	home    = "/home/ann"
	docs    = "/home/ann/Documents"
	data    = "/home/ann/.local/share/airlock"
	logs    = "/home/ann/.local/state/airlock"
	program = "/usr/local/bin/airlock"
	temp    = "/tmp/airlock-action-1"
	runDir  = "/run/user/1000"
)

// settings are a Linux desktop session's: a display, a session bus, an
// ssh-agent.
func settings() sandbox.Settings {
	return sandbox.Settings{
		OS: "linux", Home: home, Roots: []string{docs, "/data/shared"},
		Own: []string{data, logs}, Program: program,
		Env: []string{
			"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8",
			"DISPLAY=:0", "WAYLAND_DISPLAY=wayland-0", "XAUTHORITY=/run/user/1000/gdm/Xauthority",
			"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus", "XDG_RUNTIME_DIR=" + runDir,
			"SSH_AUTH_SOCK=/tmp/ssh-XYZ/agent.42", "TMPDIR=/var/tmp/elsewhere", "LC_TIME=en_GB.UTF-8",
			// Secrets the gate was started with: no action sees them.
			"GITHUB_TOKEN=ghp_000000000000000000000000000000000000", "AWS_SECRET_ACCESS_KEY=x",
			"OPENAI_API_KEY=sk-x", "GPG_AGENT_INFO=/run/user/1000/gnupg/S.gpg-agent", "LD_PRELOAD=/tmp/x.so",
		},
	}
}

func TestDerive(t *testing.T) {
	never := []string{data, logs, program, home + "/.ssh", home + "/.gnupg", home + "/.aws",
		home + "/.local/share/keyrings", runDir + "/keyring", runDir + "/gnupg", "/tmp/ssh-XYZ/agent.42"}
	display := []string{"/tmp/.X11-unix", runDir, "/run/user/1000/bus", "/run/user/1000/gdm/Xauthority", home + "/.Xauthority"}
	displayEnv := []string{"DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS"}
	secrets := []string{"SSH_AUTH_SOCK", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "GPG_AGENT_INFO", "LD_PRELOAD"}
	tests := []struct {
		name       string
		os, kind   string
		g          sandbox.Grant
		read       []string // must be readable, among others
		hidden     []string // must be hidden
		shown      []string // must not be hidden
		envKept    []string
		envDropped []string
	}{
		{name: "a command, auto-run", os: "linux", kind: sandbox.KindCommand,
			read: []string{"/usr", "/etc", "/proc", home, docs, "/data/shared", temp}, hidden: append(append([]string{}, never...), display...),
			envKept: []string{"PATH", "HOME", "LANG", "LC_TIME"}, envDropped: append(slices.Clone(secrets), displayEnv...)},
		{name: "approved but not UI", os: "linux", kind: sandbox.KindCommand, g: sandbox.Grant{Approved: true},
			hidden: append(append([]string{}, never...), display...), envDropped: append(slices.Clone(secrets), displayEnv...)},
		{name: "approved UI", os: "linux", kind: sandbox.KindCommand, g: sandbox.Grant{Approved: true, UI: true},
			hidden: never, shown: display, envKept: displayEnv, envDropped: secrets},
		{name: "macOS reads everywhere but what is hidden", os: "darwin", kind: sandbox.KindJXA,
			read: []string{"/", home, docs, temp}, hidden: never},
		{name: "the AppleScript helper is Airlock's program", os: "darwin", kind: sandbox.KindAppleScript,
			hidden: []string{data, logs, home + "/.ssh"}, shown: []string{program}},
		{name: "the secret files of the roots, unasked", os: "linux", kind: sandbox.KindCommand,
			g:      sandbox.Grant{Secrets: []string{docs + "/proj/.env", docs + "/proj/sub/../server.key"}},
			hidden: []string{docs + "/proj/.env", docs + "/proj/server.key"}, shown: []string{docs, docs + "/proj"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := settings()
			s.OS = tt.os
			p, err := sandbox.Derive(s, tt.kind, tt.g, temp)
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != tt.kind || p.UI != tt.g.UI || p.TempDir != temp {
				t.Errorf("kind %q, UI %v, temp %q", p.Kind, p.UI, p.TempDir)
			}
			for _, r := range tt.read {
				if !slices.Contains(p.Read, r) {
					t.Errorf("%s is not readable: %q", r, p.Read)
				}
			}
			// Writes go only to the roots and the action's own folder.
			if want := []string{docs, "/data/shared", temp}; !slices.Equal(p.Write, want) {
				t.Errorf("Write = %q, want %q", p.Write, want)
			}
			for _, h := range tt.hidden {
				if !slices.Contains(p.Hide, h) {
					t.Errorf("%s is not hidden: %q", h, p.Hide)
				}
			}
			for _, s := range tt.shown {
				if slices.Contains(p.Hide, s) {
					t.Errorf("%s is hidden, but must stay reachable", s)
				}
			}
			if !slices.IsSorted(p.Hide) {
				t.Errorf("Hide is not sorted (a folder must come before what it holds): %q", p.Hide)
			}
			env := map[string]string{}
			for _, kv := range p.Env {
				k, v, _ := strings.Cut(kv, "=")
				if _, dup := env[k]; dup {
					t.Errorf("%s is set twice", k)
				}
				env[k] = v
			}
			if env["TMPDIR"] != temp {
				t.Errorf("TMPDIR = %q, want the action's own %q", env["TMPDIR"], temp)
			}
			for _, k := range tt.envKept {
				if _, ok := env[k]; !ok {
					t.Errorf("%s was dropped", k)
				}
			}
			for _, k := range tt.envDropped {
				if _, ok := env[k]; ok {
					t.Errorf("%s was kept", k)
				}
			}
		})
	}
}

// TestDeriveRefuses: every path must be absolute, and only known kinds and
// platforms have profiles.
func TestDeriveRefuses(t *testing.T) {
	tests := []struct {
		name   string
		change func(*sandbox.Settings, *string, *string)
		want   string
	}{
		{"relative home", func(s *sandbox.Settings, _, _ *string) { s.Home = "ann" }, "home"},
		{"no home", func(s *sandbox.Settings, _, _ *string) { s.Home = "" }, "no home"},
		{"relative root", func(s *sandbox.Settings, _, _ *string) { s.Roots = []string{"Documents"} }, "sandbox root"},
		{"relative own file", func(s *sandbox.Settings, _, _ *string) { s.Own = []string{"data"} }, "own path"},
		{"relative program", func(s *sandbox.Settings, _, _ *string) { s.Program = "airlock" }, "program"},
		{"relative temporary folder", func(_ *sandbox.Settings, _, tmp *string) { *tmp = "tmp" }, "temporary folder"},
		{"unknown kind", func(_ *sandbox.Settings, kind, _ *string) { *kind = "perl" }, "unknown kind"},
		{"unknown platform", func(s *sandbox.Settings, _, _ *string) { s.OS = "plan9" }, "no profile for plan9"},
		{"NUL in a root", func(s *sandbox.Settings, _, _ *string) { s.Roots = []string{"/home/ann/Doc\x00uments"} }, "NUL"},
		{"temporary folder in a hidden one", func(_ *sandbox.Settings, _, tmp *string) { *tmp = runDir + "/airlock-action-1" }, "set TMPDIR to another folder"},
	}
	t.Run("relative secret file", func(t *testing.T) {
		_, err := sandbox.Derive(settings(), sandbox.KindCommand, sandbox.Grant{Secrets: []string{"proj/.env"}}, temp)
		if err == nil || !strings.Contains(err.Error(), "secret file") {
			t.Fatalf("err = %v, want one saying the secret file is not absolute", err)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, kind, tmp := settings(), sandbox.KindCommand, temp
			tt.change(&s, &kind, &tmp)
			_, err := sandbox.Derive(s, kind, sandbox.Grant{}, tmp)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestDeriveNeverWritesOwnFiles: whatever the roots, the data directory
// stays hidden, and hidden wins over writable.
func TestDeriveNeverWritesOwnFiles(t *testing.T) {
	s := settings()
	s.Roots = append(s.Roots, filepath.Join(data, "inside"))
	p, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{Approved: true, UI: true}, temp)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Hide, data) {
		t.Fatalf("the data directory is not hidden: %q", p.Hide)
	}
}

func TestGrantFor(t *testing.T) {
	typing := risk.ShellArgv([]string{"xdotool", "type", "hello"}, &risk.Env{})
	if !typing.SynthesisesInput() {
		t.Fatalf("xdotool type is not rated as synthesising input: %v", typing)
	}
	listing := risk.Verdict{Level: level.Caution}
	fetching := risk.ShellArgv([]string{"curl", "-fsS", "https://example.com/"}, &risk.Env{})
	if !risk.UsesNetwork(fetching) {
		t.Fatalf("curl is not rated as using the network: %v", fetching)
	}
	tests := []struct {
		name     string
		v        risk.Verdict
		approved bool
		want     sandbox.Grant
	}{
		{"typing, approved", typing, true, sandbox.Grant{Approved: true, UI: true}},
		{"typing, auto-run (Level 2)", typing, false, sandbox.Grant{}},
		{"no UI, approved", listing, true, sandbox.Grant{Approved: true}},
		{"no UI, auto-run", listing, false, sandbox.Grant{}},
		{"fetching, auto-run", fetching, false, sandbox.Grant{Network: sandbox.NetInternet}},
		{"fetching, approved", fetching, true, sandbox.Grant{Approved: true, Network: sandbox.NetHost}},
	}
	for _, tt := range tests {
		if got := sandbox.GrantFor(tt.v, tt.approved); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestGrantForEffects: the grant follows the effects a verdict's reasons
// name, whatever their rules: a fetch, an upload, a connection or a lookup
// gets the network, a way out the person sees (a page opened, mail sent
// by an app) does not; typing gets the UI when approved. A reason whose
// effect says no network is not given it for its rule's name.
func TestGrantForEffects(t *testing.T) {
	found := func(e effect.Effect, rule string) risk.Verdict {
		var v risk.Verdict
		v.FoundText(e, rule, risk.Span{}, rule)
		return v
	}
	tests := []struct {
		name     string
		v        risk.Verdict
		approved bool
		want     sandbox.Grant
	}{
		{"JXA's fetch, auto-run", risk.JXA(`$.NSData.dataWithContentsOfURL($.NSURL.URLWithString('https://example.com/'))`, &risk.Env{}), false, sandbox.Grant{Network: sandbox.NetInternet}},
		{"a fetch", found(effect.Of(effect.Fetch), "x.get"), false, sandbox.Grant{Network: sandbox.NetInternet}},
		{"an upload, approved", found(effect.Of(effect.Upload), "x.put"), true, sandbox.Grant{Approved: true, Network: sandbox.NetHost}},
		{"a connection", found(effect.Of(effect.Connect), "x.ssh"), false, sandbox.Grant{Network: sandbox.NetInternet}},
		{"a lookup", found(effect.Of(effect.Lookup), "x.dig"), false, sandbox.Grant{Network: sandbox.NetInternet}},
		{"a page opened", found(effect.Of(effect.Egress), "x.open"), false, sandbox.Grant{}},
		{"mail sent by an app", found(effect.Of(effect.Send), "x.mail"), true, sandbox.Grant{Approved: true}},
		{"a write named like a network rule", found(effect.Of(effect.Overwrite), "shell.download"), false, sandbox.Grant{}},
		{"typing, approved", found(effect.Of(effect.Input), "x.type"), true, sandbox.Grant{Approved: true, UI: true}},
		{"typing, auto-run", found(effect.Of(effect.Input), "x.type"), false, sandbox.Grant{}},
		{"a click named otherwise", found(effect.Of(effect.AppState), "jxa.click"), true, sandbox.Grant{Approved: true}},
	}
	for _, tt := range tests {
		if got := sandbox.GrantFor(tt.v, tt.approved); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v (%v)", tt.name, got, tt.want, tt.v)
		}
	}
}

// TestDeriveNetwork: the profile carries the grant's network, none by
// default; the host's whole network only for an approved action; an
// unknown value is refused.
func TestDeriveNetwork(t *testing.T) {
	p, err := sandbox.Derive(settings(), sandbox.KindCommand, sandbox.Grant{}, temp)
	if err != nil || p.Network != sandbox.NetNone {
		t.Fatalf("by default: %v (%v)", p.Network, err)
	}
	p, err = sandbox.Derive(settings(), sandbox.KindCommand, sandbox.Grant{Network: sandbox.NetInternet}, temp)
	if err != nil || p.Network != sandbox.NetInternet {
		t.Fatalf("internet: %v (%v)", p.Network, err)
	}
	p, err = sandbox.Derive(settings(), sandbox.KindCommand, sandbox.Grant{Approved: true, Network: sandbox.NetHost}, temp)
	if err != nil || p.Network != sandbox.NetHost {
		t.Fatalf("host, approved: %v (%v)", p.Network, err)
	}
	if _, err := sandbox.Derive(settings(), sandbox.KindCommand, sandbox.Grant{Network: sandbox.NetHost}, temp); err == nil || !strings.Contains(err.Error(), "approved") {
		t.Errorf("host, unasked: %v", err)
	}
	if _, err := sandbox.Derive(settings(), sandbox.KindCommand, sandbox.Grant{Network: 7}, temp); err == nil || !strings.Contains(err.Error(), "unknown network grant") {
		t.Errorf("unknown: %v", err)
	}
}

// TestNetworkText: a network grant travels as its name, and a name that is
// none of them is refused.
func TestNetworkText(t *testing.T) {
	for _, n := range []sandbox.Network{sandbox.NetNone, sandbox.NetInternet, sandbox.NetHost} {
		b, err := n.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back sandbox.Network
		if err := back.UnmarshalText(b); err != nil || back != n || string(b) != n.String() {
			t.Errorf("%v: %q → %v (%v)", n, b, back, err)
		}
	}
	var n sandbox.Network
	if err := n.UnmarshalText([]byte("everything")); err == nil || !strings.Contains(err.Error(), `"everything"`) {
		t.Errorf("an unknown name: %v", err)
	}
	if _, err := sandbox.Network(9).MarshalText(); err == nil {
		t.Error("an unknown value was written")
	}
}

func TestBusPaths(t *testing.T) {
	tests := []struct {
		addr, runtime string
		want          []string
	}{
		{"unix:path=/run/user/1000/bus", "", []string{"/run/user/1000/bus"}},
		{"unix:path=/tmp/dbus-abc,guid=0123456789abcdef", "", []string{"/tmp/dbus-abc"}},
		{"unix:path=/tmp/with%20space%2cand%3bmore", "", []string{"/tmp/with space,and;more"}},
		{"unix:abstract=/tmp/dbus-XYZ,guid=01", "", nil},
		{"unix:tmpdir=/tmp", "", nil},
		{"unix:runtime=yes", runDir, []string{runDir + "/bus"}},
		{"unix:runtime=yes", "", nil},
		{"tcp:host=localhost,port=1234;unix:path=/run/bus", "", []string{"/run/bus"}},
		{"unix:path=relative/bus", "", nil},
		{"unix:path=/tmp/bad%zzescape", "", []string{"/tmp/bad%zzescape"}},
		{"", "", nil},
	}
	for _, tt := range tests {
		if got := sandbox.BusPaths(tt.addr, tt.runtime); !slices.Equal(got, tt.want) {
			t.Errorf("BusPaths(%q, %q) = %q, want %q", tt.addr, tt.runtime, got, tt.want)
		}
	}
}
