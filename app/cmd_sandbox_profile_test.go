package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxProfile: the profile printed is the one the settings give:
// Seatbelt text with its parameters (the person's roots among them), or on
// Linux the profile as JSON with what the launcher does; the grants the
// flags ask for show in it.
func TestSandboxProfile(t *testing.T) {
	tempHome(t)
	home := os.Getenv("HOME")
	docs := filepath.Join(home, "Documents")
	code, out, stderr := runCLI(t, "", "sandbox-profile", "--os", "darwin", "--kind", "jxa", "--unasked", "--network", "internet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"(version 1)", "one jxa script", "(allow default)", "(deny lsopen)",
		`(deny file-write-unlink file-write-data`, `(remote tcp "*:443")`, ";   WRITE_0=" + docs, ";   ROOT_0=" + docs} {
		if !strings.Contains(out, want) {
			t.Errorf("darwin, unasked JXA: lacks %q", want)
		}
	}
	if !strings.HasPrefix(out, "(version 1)\n") {
		t.Errorf("the text does not start with (version 1)")
	}
	code, out, _ = runCLI(t, "", "sandbox-profile", "--os", "darwin", "--ui")
	if code != 0 || strings.Contains(out, "(deny lsopen)") || !strings.Contains(out, "(allow appleevent-send)") || !strings.Contains(out, "(deny default)") {
		t.Errorf("darwin, an approved UI command: exit %d\n%s", code, out)
	}

	code, out, stderr = runCLI(t, "", "sandbox-profile", "--os", "linux", "--unasked")
	if code != 0 {
		t.Fatalf("linux: exit %d: %s", code, stderr)
	}
	var got struct {
		OS      string `json:"os"`
		Profile struct {
			Kind    string   `json:"kind"`
			Write   []string `json:"write"`
			Hide    []string `json:"hide"`
			Unasked bool     `json:"unasked"`
			Network string   `json:"network"`
		} `json:"profile"`
		Launcher []string `json:"launcher"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("linux: %v\n%s", err, out)
	}
	words := strings.Join(got.Launcher, "\n")
	if got.OS != "linux" || got.Profile.Kind != "command" || !got.Profile.Unasked || got.Profile.Network != "none" ||
		!strings.Contains(strings.Join(got.Profile.Write, " "), "Documents") || !strings.Contains(words, "copy-on-write") ||
		!strings.Contains(words, "hides "+filepath.Join(home, ".ssh")) {
		t.Errorf("linux: %+v\n%s", got, words)
	}
}

func TestSandboxProfileUsage(t *testing.T) {
	tempHome(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--os", "windows"}, `--os "windows": want darwin or linux`},
		{[]string{"--kind", "perl"}, `--kind "perl": want command, applescript or jxa`},
		{[]string{"--network", "lan"}, `--network "lan": want none, internet or host`},
		{[]string{"--unasked", "--network", "host"}, "only to an action the person approved"},
		{[]string{"--unasked", "--ui"}, "only to an action the person approved"},
		{[]string{"extra"}, "takes no arguments"},
	} {
		code, _, stderr := runCLI(t, "", append([]string{"sandbox-profile"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
