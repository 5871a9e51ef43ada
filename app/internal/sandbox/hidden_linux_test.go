//go:build linux

package sandbox_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
)

// TestHiddenSecretsConfined is issue 22's attack, run for real: a
// confined action in a home holding tokens of tools no list names
// (Stripe's CLI, Gemini's OAuth credentials, a tool released tomorrow) and
// Cargo's credentials beside its programs cannot read any of them, with
// cat or base64 or anything else, while the toolchains' programs still
// run. Approved, it sees what it names, but never a credential store.
func TestHiddenSecretsConfined(t *testing.T) {
	r := newRig(t)
	secrets := map[string]string{
		".config/stripe/config.toml":   "test_mode_api_key = 'sk_test_STRIPEFAKE0000000000000001'",
		".gemini/oauth_creds.json":     `{"refresh_token": "1//0GEMINIFAKE000000000000000002"}`,
		".cargo/credentials.toml":      "[registry]\ntoken = 'cioCARGOFAKE000000000000000003'",
		".cargo/config.toml":           "[registry]\ntoken = 'cioCARGOFAKE000000000000000004'",
		".brand-new-tool-2031/session": "BRANDNEWFAKE000000000000000005",
		".zshrc":                       "export GITHUB_TOKEN=ghp_ZSHRCFAKE00000000000000000000000006",
	}
	for p, s := range secrets {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(r.home, p)), 0o700); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(r.home, p), s+"\n")
	}
	// A link that loops leads nowhere: it must not stop every action.
	if err := os.Symlink(".zprofile", filepath.Join(r.home, ".zprofile")); err != nil {
		t.Fatal(err)
	}
	tools := map[string]string{".pyenv/bin/x": "pyenv-x-ran", ".cargo/bin/y": "cargo-y-ran", ".local/bin/z": "local-z-ran"}
	for p, out := range tools {
		full := filepath.Join(r.home, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("#!/bin/sh\necho "+out+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	for p, s := range secrets {
		full := filepath.Join(r.home, p)
		for _, argv := range [][]string{{"cat", full}, {"base64", full}, {"sh", "-c", "cat " + filepath.Dir(full) + "/*"}} {
			out, _, _ := r.run(t, sandbox.Grant{}, argv...)
			if strings.Contains(out, secretOf(s)) || strings.Contains(out, base64.StdEncoding.EncodeToString([]byte(s + "\n"))[:16]) {
				t.Errorf("%q read the hidden %s: %q", argv, p, out)
			}
		}
	}
	for p, want := range tools {
		out, errOut, err := r.run(t, sandbox.Grant{}, filepath.Join(r.home, p))
		if err != nil || strings.TrimSpace(out) != want {
			t.Errorf("the toolchain's %s did not run: %q, %q, %v", p, out, errOut, err)
		}
	}

	// Approved, an action sees the hidden file it names, and nothing else;
	// a credential store stays hidden though it names it.
	stripe := filepath.Join(r.home, ".config/stripe/config.toml")
	cargo := filepath.Join(r.home, ".cargo/credentials.toml")
	g := sandbox.Grant{Approved: true, Reveal: sandbox.Reveals(r.home, "cat "+stripe+" ~/.cargo/credentials.toml")}
	if len(g.Reveal) != 2 {
		t.Fatalf("Reveals = %q, want the two paths named", g.Reveal)
	}
	if out, _, _ := r.run(t, g, "cat", stripe); !strings.Contains(out, secretOf(secrets[".config/stripe/config.toml"])) {
		t.Errorf("an approved cat of %s did not see it: %q", stripe, out)
	}
	if out, _, _ := r.run(t, g, "cat", filepath.Join(r.home, ".gemini/oauth_creds.json")); strings.Contains(out, "GEMINIFAKE") {
		t.Errorf("an approved action naming %s also read ~/.gemini: %q", stripe, out)
	}
	if out, _, _ := r.run(t, g, "cat", cargo); strings.Contains(out, "CARGOFAKE") {
		t.Errorf("an approved action read the credential store %s: %q", cargo, out)
	}
}

// secretOf is the fake secret in a line: its last word, unquoted.
func secretOf(line string) string {
	f := strings.Fields(line)
	return strings.Trim(f[len(f)-1], `'"{}`)
}

// BenchmarkActionStartBusyHome is BenchmarkActionStart's confined start in
// a home like a developer's: 120 hidden entries (a dozen of them
// toolchains, one folder holding an allowed entry) and a Library of 80
// folders, every one of which the launcher (airlock-launch) hides. It reports the p50 and
// p99 of starting /bin/true, as BenchmarkActionStart does.
func BenchmarkActionStartBusyHome(b *testing.B) {
	r := newRig(b)
	r.dedicated(b)
	for i := range 120 {
		name := fmt.Sprintf(".tool-%03d", i)
		switch i % 10 {
		case 0:
			name = fmt.Sprintf(".tool-%03d.json", i) // a file: /dev/null over it
		}
		p := filepath.Join(r.home, name)
		if strings.HasSuffix(name, ".json") {
			write(b, p, "{}")
			continue
		}
		if err := os.MkdirAll(filepath.Join(p, "sub"), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 80 {
		if err := os.MkdirAll(filepath.Join(r.home, "Library", fmt.Sprintf("App %02d", i)), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	for _, d := range []string{".pyenv/versions", ".cargo/bin", ".cargo/registry", ".local/bin", ".local/share/x", ".config/y"} {
		if err := os.MkdirAll(filepath.Join(r.home, d), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		c, done, err := r.box.Confine(bridge.Command{Argv: []string{"/bin/true"}, Dir: r.home}, sandbox.KindCommand, sandbox.Grant{})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := bridge.RunArgv(ctx, c); err != nil {
			b.Fatal(err)
		}
		done()
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	at := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}
