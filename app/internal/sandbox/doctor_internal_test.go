package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeEnv is a doctor's environment in a temporary folder, with what works
// outside the sandbox decided by the test.
func fakeEnv(t *testing.T, s Settings, resolves, runs, has bool) *doctorEnv {
	t.Helper()
	e, err := newDoctorEnv(context.Background(), s, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.close)
	e.resolves = func(context.Context, string) bool { return resolves }
	e.runs = func(context.Context, []string) bool { return runs }
	e.has = func(string) bool { return has }
	return e
}

func TestStatus(t *testing.T) {
	b, err := json.Marshal(Finding{Check: "c", Status: NotHeld})
	if err != nil || !strings.Contains(string(b), `"status":"NOT HELD"`) {
		t.Errorf("%s, %v", b, err)
	}
	var back Finding
	if err := json.Unmarshal(b, &back); err != nil || back.Status != NotHeld {
		t.Errorf("reading it back: %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"status":"fine"}`), &back); err == nil || !strings.Contains(err.Error(), "unknown check status") {
		t.Errorf("a bad status: %v", err)
	}
	if Status(9).String() != "Status(9)" {
		t.Error(Status(9).String())
	}
	if !Holds([]Finding{{Status: Held}, {Status: Skipped}}) || Holds([]Finding{{Status: Held}, {Status: NotHeld}}) || Holds([]Finding{{}}) {
		t.Error("Holds")
	}
}

// TestDoctorJudges: each check tells a refusal from what got through, as
// the outcome and the files it left say.
func TestDoctorJudges(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\n"
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Settings{Home: home, Roots: []string{filepath.Join(home, "Documents")}, Own: []string{data}}
	e := fakeEnv(t, s, true, true, true)
	refused := outcome{code: 1, err: errors.New("exited with status 1"), stderr: "Operation not permitted"}
	ok := outcome{}

	w := e.writeOutside()
	if st, _ := w.judge(refused); st != Held {
		t.Errorf("write outside, nothing written: %v", st)
	}
	if err := os.WriteFile(w.argv[4], []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, d := w.judge(refused); st != NotHeld || !strings.Contains(d, "wrote") {
		t.Errorf("write outside, written: %v %s", st, d)
	}

	c := e.credentialStore()
	if c.skip != "" || c.argv[4] != filepath.Join(home, ".ssh", "id_ed25519") {
		t.Fatalf("credential store: %+v", c)
	}
	if st, _ := c.judge(outcome{stdout: ""}); st != Held {
		t.Error("credential store: nothing read, not held")
	}
	if st, _ := c.judge(outcome{stdout: key}); st != NotHeld {
		t.Error("credential store: read, held")
	}

	own, err := e.ownFiles()
	if err != nil || own.skip != "" {
		t.Fatalf("own files: %v %s", err, own.skip)
	}
	canary, _ := os.ReadFile(own.argv[4])
	if st, _ := own.judge(outcome{stdout: string(canary)}); st != NotHeld {
		t.Error("own files: read, held")
	}
	own.after()
	if _, err := os.Stat(own.argv[4]); !errors.Is(err, os.ErrNotExist) {
		t.Error("the canary is left among Airlock's own files")
	}

	n := e.network()
	if st, _ := n.judge(ok); st != NotHeld {
		t.Error("network: connected, held")
	}
	if st, _ := n.judge(refused); st != Held {
		t.Error("network: refused, not held")
	}

	for _, goos := range []string{"linux", "darwin"} {
		nm := e.names(context.Background(), goos)
		if nm.skip != "" {
			t.Errorf("%s names skipped: %s", goos, nm.skip)
		}
		leaks := []outcome{{stdout: "93.184.215.14   example.com\n"}}
		if goos == "darwin" {
			leaks = []outcome{{stdout: "name: example.com\nip_address: 93.184.215.14\n"},
				{stdout: "PING example.com (93.184.215.14): 56 data bytes\n", err: errors.New("exit 2")}}
		}
		for _, leak := range leaks {
			if st, _ := nm.judge(leak); st != NotHeld {
				t.Errorf("%s names: resolved (%q), held", goos, leak.stdout)
			}
		}
		if st, _ := nm.judge(refused); st != Held {
			t.Errorf("%s names: refused, not held", goos)
		}
	}
	if nm := fakeEnv(t, s, false, true, true).names(context.Background(), "linux"); nm.skip == "" {
		t.Error("names: tried where nothing resolves")
	}
	if nm := fakeEnv(t, s, true, true, false).names(context.Background(), "linux"); nm.skip == "" {
		t.Error("names: tried without getent")
	}

	se := e.standardError()
	if st, _ := se.judge(outcome{stdout: "airlock-doctor-stderr\n", stderr: "airlock-doctor-stderr\n"}); st != Held {
		t.Error("stderr: written, not held")
	}
	if st, _ := se.judge(refused); st != NotHeld {
		t.Error("stderr: refused, held")
	}

	hs := e.hiddenSockets("sockets", []string{"/run/user/1/bus"})
	if st, _ := hs.judge(outcome{stdout: "/run/user/1/bus\n"}); st != NotHeld {
		t.Error("sockets: seen, held")
	}
	if st, _ := hs.judge(ok); st != Held {
		t.Error("sockets: not seen, not held")
	}
	if hs := e.hiddenSockets("sockets", nil); hs.skip == "" {
		t.Error("sockets: tried with none")
	}
}

// TestDoctorMacProbes: the Mac's checks are built here as on a Mac, with
// absolute programs; those of the unasked rules tell, from the files they
// leave, a refusal from an action that got through (done here by hand, as
// an action Seatbelt let through would).
func TestDoctorMacProbes(t *testing.T) {
	s := Settings{Home: t.TempDir()}
	e := fakeEnv(t, s, true, true, true)
	ps, err := probesFor("darwin", e)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(e.work, "root")
	checks := map[string]probe{}
	for _, p := range ps {
		checks[p.check] = p
		if p.skip != "" {
			continue
		}
		if !filepath.IsAbs(p.argv[0]) {
			t.Errorf("%s runs %s, not an absolute path", p.check, p.argv[0])
		}
		switch p.kind {
		case KindCommand, KindJXA:
		default:
			t.Errorf("%s: kind %q", p.check, p.kind)
		}
		if p.grant.Approved {
			t.Errorf("%s: runs approved", p.check)
		}
		if p.roots != nil && (len(p.roots) != 1 || p.roots[0] != root) {
			t.Errorf("%s: roots %q", p.check, p.roots)
		}
	}
	if k := checks["the keychain daemon is unreachable unless the person grants the host's network"]; k.grant.Network != NetInternet {
		t.Errorf("the keychain is tried with %v", k.grant.Network)
	}
	attack := map[string]func(path string) error{
		"an unasked action cannot delete a file in a root":          os.Remove,
		"an unasked action cannot rewrite a file in a root":         func(p string) error { return os.WriteFile(p, []byte("changed"), 0o600) },
		"an unasked action cannot rename a file over one in a root": func(p string) error { return os.WriteFile(p, []byte("changed"), 0o600) },
		"an unasked action cannot make a file in a root executable": func(p string) error { return os.Chmod(p, 0o700) },
		"an unasked action cannot plant a git hook in a root":       func(p string) error { return os.WriteFile(p, []byte("echo planted"), 0o700) },
		"an unasked action may make a new file in a root":           func(p string) error { return os.WriteFile(p, []byte("made\n"), 0o600) },
	}
	for check, do := range attack {
		p, found := checks[check]
		if !found {
			t.Errorf("no check %q", check)
			continue
		}
		before, _ := p.judge(outcome{code: 1, err: errors.New("refused")})
		if err := do(p.argv[len(p.argv)-1]); err != nil {
			t.Fatal(err)
		}
		after, _ := p.judge(outcome{})
		want := [2]Status{Held, NotHeld}
		if strings.Contains(check, "may make") {
			want = [2]Status{NotHeld, Held}
		}
		if before != want[0] || after != want[1] {
			t.Errorf("%s: %v before, %v after, want %v", check, before, after, want)
		}
	}
	if k := fakeEnv(t, s, true, false, true).keychain(context.Background()); k.skip == "" {
		t.Error("keychain: tried where it does not answer outside the sandbox")
	}
}
