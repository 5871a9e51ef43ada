package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/policy"
)

// tempHome points HOME, the XDG directories and the data directory at a
// directory of the test's own, so a command that went further than its
// flags would touch nothing of this machine's.
func tempHome(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local/share"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(home, "run"))
	t.Setenv("AIRLOCK_DATA_DIR", filepath.Join(home, "data"))
}

// `airlock --version`, `-version` and `airlock version` print the version
// and exit 0.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 || stdout != "airlock "+version+"\n" || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and %q", args, code, stdout, stderr, "airlock "+version+"\n")
		}
	}
	for _, args := range [][]string{{"version", "x"}, {"--version", "x"}, {"version", "--bogus"}} {
		if code, _, stderr := runCLI(t, "", args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}

// Every subcommand's -h, -help and --help (and `airlock help COMMAND`)
// print its usage, what it does and its flags described to standard
// output, do nothing else, and exit 0.
func TestSubcommandHelp(t *testing.T) {
	tempHome(t)
	flags := map[string][]string{
		"assess":          {"-kind", "-json", "-jsonl"},
		"validate":        {"-json"},
		"serve":           {"-prompter"},
		"run":             {"-dry-run", "-json", "-kind"},
		"ask":             {"-dry-run", "-json", "-model", "-endpoint", "-context"},
		"status":          {"-json"},
		"history":         {"-json", "-n"},
		"dashboard":       {"-print"},
		"undo":            {"-json"},
		"settings":        {"-json"},
		"mcp":             {"-progress-every"},
		"automations":     nil,
		"rules":           nil,
		"doctor":          {"-json"},
		"sandbox-profile": {"-os", "-kind", "-unasked", "-network", "-ui"},
	}
	for _, c := range commands {
		if c.name == "" {
			continue
		}
		for _, args := range [][]string{{c.name, "-h"}, {c.name, "-help"}, {c.name, "--help"}, {"help", c.name}} {
			code, stdout, stderr := runCLI(t, "", args...)
			if code != 0 || stderr != "" {
				t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, code, stderr)
				continue
			}
			if !strings.HasPrefix(stdout, "usage: "+c.usage+"\n") || !strings.Contains(stdout, c.help) {
				t.Errorf("%v: want the usage and what it does:\n%s", args, stdout)
			}
			for _, f := range flags[c.name] {
				if !strings.Contains(stdout, "\n  "+f+" ") && !strings.Contains(stdout, "\n  "+f+"\n") {
					t.Errorf("%v: flag %s not described:\n%s", args, f, stdout)
				}
			}
			if (len(flags[c.name]) > 0) != strings.Contains(stdout, "\nflags:\n") {
				t.Errorf("%v: a flags section iff it has flags:\n%s", args, stdout)
			}
		}
	}
	// An automation's own flags.
	code, stdout, _ := runCLI(t, "", "automations", "add", "--help")
	if code != 0 || !strings.HasPrefix(stdout, "usage: airlock automations") {
		t.Errorf("automations add --help: exit %d\n%s", code, stdout)
	}
	for _, f := range []string{"-schedule", "-ask", "-run", "-cooldown"} {
		if !strings.Contains(stdout, "\n  "+f+" ") {
			t.Errorf("automations add --help: flag %s not described:\n%s", f, stdout)
		}
	}
	// The whole list, and a command that is not one.
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, stdout, _ := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "usage: airlock COMMAND") || !strings.Contains(stdout, "dashboard") {
			t.Errorf("%v: exit %d\n%s", args, code, stdout)
		}
	}
	if code, _, stderr := runCLI(t, "", "help", "frobnicate"); code != 2 || !strings.Contains(stderr, `"frobnicate"`) {
		t.Errorf("help frobnicate: exit %d, stderr %q", code, stderr)
	}
	// Nothing ran: no data directory was made.
	if _, err := os.Stat(os.Getenv("AIRLOCK_DATA_DIR")); !os.IsNotExist(err) {
		t.Errorf("a --help made the data directory: %v", err)
	}
}

// A flag that is not one exits 2 with an error that names it and the
// usage; -- still passes what follows to the program.
func TestBadFlag(t *testing.T) {
	tempHome(t)
	for _, c := range commands {
		if c.name == "" {
			continue
		}
		code, stdout, stderr := runCLI(t, "", c.name, "--bogus")
		if code != 2 || stdout != "" || !strings.Contains(stderr, "airlock "+c.name+": ") ||
			!strings.Contains(stderr, "-bogus") || !strings.Contains(stderr, "usage: ") {
			t.Errorf("%s --bogus: exit %d, stdout %q, stderr %q; want 2 naming -bogus", c.name, code, stdout, stderr)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "-n", "many"}, "-n"},
		{[]string{"history", "-n"}, "-n"},
		{[]string{"automations", "add", "x", "--schedule"}, "-schedule"},
		{[]string{"automations", "list", "--nope"}, "-nope"},
	} {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tt.args, code, stderr, tt.want)
		}
	}
}

// An error the gate answers with reads as its message: no JSON-RPC code.
func TestClientErrorsShowNoCode(t *testing.T) {
	startLocalGate(t, policy.SmartDefault)
	code, _, stderr := runCLI(t, "", "dashboard", "--print")
	want := "airlock dashboard: " + errNoDashboard.Message + "\n"
	if code != 1 || stderr != want {
		t.Errorf("airlock dashboard against airlock serve: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
}
