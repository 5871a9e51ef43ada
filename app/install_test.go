package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMakeInstall runs the README's install targets for real, into
// folders of the test's own (PREFIX, HOME, XDG_CONFIG_HOME): install puts
// a working airlock and the sandbox's launcher in PREFIX/bin and airlock's
// man pages and completions in PREFIX/share, autostart writes the login
// entry naming airlock, uninstall removes them all.
func TestMakeInstall(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the macOS targets build and copy the bundle (make install on a Mac)")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	// The program the other end-to-end tests built: make's build step is
	// left out (GO=true), so the test checks what install does, not go build.
	built, err := buildAirlock()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	prefix, home, cfg := filepath.Join(tmp, "prefix"), filepath.Join(tmp, "home"), filepath.Join(tmp, "config")
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+cfg)
	run := func(target string) string {
		t.Helper()
		cmd := exec.Command("make", "--no-print-directory", target, "PREFIX="+prefix, "BIN="+built,
			"LAUNCHER="+filepath.Join(filepath.Dir(built), "airlock-launch"), "GO=true")
		cmd.Dir = ".."
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make %s: %v\n%s", target, err, out)
		}
		return string(out)
	}
	run("install")
	bin := filepath.Join(prefix, "bin", "airlock")
	if out, err := exec.Command(bin, "--version").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "airlock ") {
		t.Fatalf("the installed airlock --version: %q, %v", out, err)
	}
	launch := filepath.Join(prefix, "bin", "airlock-launch")
	if fi, err := os.Stat(launch); err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("the sandbox's launcher is not installed beside airlock: %v", err)
	}
	// The man pages and the completions, made by the installed program.
	share := filepath.Join(prefix, "share")
	for file, want := range map[string]string{
		"man/man1/airlock.1":                     `.TH "AIRLOCK" "1"`,
		"man/man1/airlock-run.1":                 `\fB--dry-run\fP`,
		"man/man1/airlock-automations-add.1":     `\fB--schedule\fP`,
		"bash-completion/completions/airlock":    "__start_airlock",
		"zsh/site-functions/_airlock":            "#compdef airlock",
		"fish/vendor_completions.d/airlock.fish": "complete -c airlock",
	} {
		if b, err := os.ReadFile(filepath.Join(share, file)); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("make install: %s: %v; want %q in it", file, err, want)
		}
	}
	run("autostart")
	entry := filepath.Join(cfg, "autostart", "airlock.desktop")
	b, err := os.ReadFile(entry)
	if err != nil || !strings.Contains(string(b), "Exec="+bin+"\n") || !strings.Contains(string(b), "[Desktop Entry]") {
		t.Fatalf("the autostart entry: %q, %v", b, err)
	}
	run("uninstall")
	for _, p := range []string{bin, launch, entry} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there after make uninstall", p)
		}
	}
	// Nothing of airlock's is left under PREFIX/share (the folders stay:
	// other programs' files go there too).
	filepath.WalkDir(share, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("%s is still there after make uninstall", p)
		}
		return nil
	})
}
