package main

import (
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// callCLI runs `airlock ARGS` through the command line as run does, and
// returns the command's error instead of an exit status.
func callCLI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	_, err := dispatch(ctx, newRoot(commands, stdin, stdout, stderr), args)
	return err
}

// cliCommands is every command of airlock's command line a person can
// call, as the words that call it.
func cliCommands(t *testing.T) [][]string {
	t.Helper()
	var all [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				p := append(slices.Clip(path), s.Name())
				all = append(all, p)
				walk(s, p)
			}
		}
	}
	walk(newRoot(commands, nil, io.Discard, io.Discard), nil)
	if len(all) < len(commands)+3 { // the table's, man, help, completion and its shells
		t.Fatalf("only %d commands: %q", len(all), all)
	}
	return all
}

// cliCommand is the command that words call.
func cliCommand(t *testing.T, words []string) *cobra.Command {
	t.Helper()
	c, rest, err := newRoot(commands, nil, io.Discard, io.Discard).Find(words)
	if err != nil || len(rest) > 0 {
		t.Fatalf("%q: %v, %q left", words, err, rest)
	}
	return c
}

// Every command's -h, -help and --help (and `airlock help COMMAND`) print
// its usage, what it does and its flags described to standard output, do
// nothing else, and exit 0.
func TestSubcommandHelp(t *testing.T) {
	tempHome(t)
	// The flags each command must have (they are described from the same
	// declaration that parses them); every flag is checked below.
	flags := map[string][]string{
		"assess":           {"--kind", "--json", "--jsonl"},
		"validate":         {"--json"},
		"serve":            {"--prompter"},
		"run":              {"--dry-run", "--json", "--kind", "--client"},
		"ask":              {"--dry-run", "--json", "--model", "--endpoint", "--context", "--client"},
		"status":           {"--json"},
		"history":          {"--json", "-n, --requests"},
		"dashboard":        {"--print"},
		"undo":             {"--json"},
		"settings":         {"--json"},
		"mcp":              {"--progress-every"},
		"doctor":           {"--json"},
		"sandbox-profile":  {"--os", "--kind", "--unasked", "--network", "--ui"},
		"automations list": {"--json"},
		"automations add":  {"--schedule", "--ask", "--run", "--cooldown"},
		"rules test":       {"--client", "--dir"},
	}
	for _, words := range cliCommands(t) {
		c := cliCommand(t, words)
		var own []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" {
				own = append(own, "--"+f.Name)
			}
		})
		for _, f := range flags[strings.Join(words, " ")] {
			if !slices.Contains(own, f) && !slices.Contains(own, f[strings.LastIndex(f, " ")+1:]) {
				t.Errorf("%q has no flag %s", words, f)
			}
		}
		for _, args := range [][]string{append(slices.Clip(words), "-h"), append(slices.Clip(words), "-help"),
			append(slices.Clip(words), "--help"), append([]string{"help"}, words...)} {
			code, stdout, stderr := runCLI(t, "", args...)
			if code != 0 || stderr != "" {
				t.Errorf("%q: exit %d, stderr %q; want 0 and nothing", args, code, stderr)
				continue
			}
			if !strings.HasPrefix(stdout, "usage: "+c.UseLine()+"\n") || !strings.Contains(stdout, cmp.Or(c.Long, c.Short)) {
				t.Errorf("%q: want the usage and what it does:\n%s", args, stdout)
			}
			for _, f := range own {
				if !regexp.MustCompile(`\n  +(-., )?` + f + `[ =\[]`).MatchString(stdout) {
					t.Errorf("%q: flag %s not described:\n%s", args, f, stdout)
				}
			}
			if (len(own) > 0) != strings.Contains(stdout, "\nflags:\n") {
				t.Errorf("%q: a flags section iff it has flags:\n%s", args, stdout)
			}
			if c.HasAvailableSubCommands() != strings.Contains(stdout, "\ncommands:\n") {
				t.Errorf("%q: a list of subcommands iff it has some:\n%s", args, stdout)
			}
		}
	}
	// The whole list, and a command that is not one.
	for _, args := range [][]string{{"--help"}, {"-h"}, {"-help"}, {"help"}} {
		code, stdout, _ := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(stdout, "usage: airlock COMMAND") {
			t.Errorf("%v: exit %d\n%s", args, code, stdout)
		}
		for _, c := range []string{"dashboard", "completion", "automations", "man"} {
			if !strings.Contains(stdout, "\n  "+c+" ") {
				t.Errorf("%v: %s is not listed:\n%s", args, c, stdout)
			}
		}
	}
	for _, args := range [][]string{{"help", "frobnicate"}, {"help", "automations", "frobnicate"}} {
		if code, _, stderr := runCLI(t, "", args...); code != 2 || !strings.Contains(stderr, `frobnicate"`) {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	// Nothing ran: no data directory was made.
	if _, err := os.Stat(os.Getenv("AIRLOCK_DATA_DIR")); !os.IsNotExist(err) {
		t.Errorf("a --help made the data directory: %v", err)
	}
}

// A flag that is not one exits 2 with an error that names it and the
// usage; so does a flag without its value, or with a bad one.
func TestBadFlag(t *testing.T) {
	tempHome(t)
	for _, words := range cliCommands(t) {
		path := "airlock " + strings.Join(words, " ")
		code, stdout, stderr := runCLI(t, "", append(slices.Clip(words), "--bogus")...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, path+": unknown flag: --bogus\n") ||
			!strings.Contains(stderr, "\nusage: "+cliCommand(t, words).UseLine()+"\n") {
			t.Errorf("%s --bogus: exit %d, stdout %q, stderr %q; want 2 naming --bogus, and the usage", path, code, stdout, stderr)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "-n", "many"}, `invalid argument "many" for "-n, --requests"`},
		{[]string{"history", "-n"}, "needs an argument: 'n' in -n"},
		{[]string{"history", "-n", "0"}, "-n 0: want 1 to 1000"},
		{[]string{"mcp", "--progress-every", "soon"}, `invalid argument "soon" for "--progress-every"`},
		{[]string{"automations", "add", "x", "--schedule"}, "airlock automations add: flag needs an argument: --schedule"},
		{[]string{"automations", "list", "--nope"}, "airlock automations list: unknown flag: --nope"},
		{[]string{"automations", "frob"}, `airlock automations: "frob": want list`},
		{[]string{"automations"}, "airlock automations: say what to do"},
		{[]string{"rules", "add"}, `unknown rules command "add"`},
		{[]string{"key", "set"}, "airlock key set: want: airlock key set NAME"},
		{[]string{"audit"}, "the only audit command is: airlock audit verify"},
		{[]string{"completion", "tcsh"}, `airlock completion: unknown command "tcsh"`},
		{[]string{"status", "now"}, "airlock status: takes no arguments"},
		{[]string{"man"}, "airlock man: want one DIR"},
		// Go's flag package took one dash for a long flag, and pflag's
		// shorthands are single letters: one that is not a flag says so.
		{[]string{"status", "-jsn"}, "unknown shorthand flag: 'j' in -jsn"},
	} {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "\nusage: ") {
			t.Errorf("%q: exit %d, stderr %q; want 2, %q and the usage", tt.args, code, stderr, tt.want)
		}
	}
	code, _, stderr := runCLI(t, "", "frobnicate")
	if code != 2 || !strings.HasPrefix(stderr, "airlock: unknown command \"frobnicate\"\n\nusage: airlock COMMAND") {
		t.Errorf("frobnicate: exit %d, stderr %q; want 2 and the list", code, stderr)
	}
}

// No arguments is airlock itself (the app), never cobra's fallback to the
// arguments the process started with.
func TestNoArguments(t *testing.T) {
	saved := os.Args
	t.Cleanup(func() { os.Args = saved })
	os.Args = []string{"airlock", "frobnicate"} // no package test runs in parallel
	ran := false
	top := commands[0]
	top.flags = noFlags(func(_ context.Context, fs *pflag.FlagSet, _ io.Reader, _, _ io.Writer) error {
		ran = fs.NArg() == 0
		return nil
	})
	for _, args := range [][]string{nil, {}} {
		ran = false
		if _, err := dispatch(context.Background(), newRoot([]command{top}, nil, io.Discard, io.Discard), args); err != nil || !ran {
			t.Errorf("%#v: %v, ran %v; want the app, with no arguments", args, err, ran)
		}
	}
}

// The flags Go's flag package took with one dash before the move to cobra
// (-json, -kind=dsl) still work: only the called command's own long flags
// are rewritten, and only where its flags are, never a program's or a
// script's own.
func TestGoStyleFlags(t *testing.T) {
	root := newRoot(commands, nil, io.Discard, io.Discard)
	for _, tt := range []struct{ args, want []string }{
		{[]string{"assess", "-json", "-kind=dsl", "-"}, []string{"assess", "--json", "--kind=dsl", "-"}},
		{[]string{"assess", "-kind", "json", "-jsonl"}, []string{"assess", "--kind", "json", "--jsonl"}},
		{[]string{"history", "-n", "5", "-json"}, []string{"history", "-n", "5", "--json"}},
		{[]string{"history", "-help"}, []string{"history", "--help"}},
		{[]string{"automations", "add", "x", "-schedule", "daily 09:00", "-ask", "-run"}, []string{"automations", "add", "x", "--schedule", "daily 09:00", "--ask", "-run"}},
		// A flag another command has is left for the error.
		{[]string{"status", "-print"}, []string{"status", "-print"}},
		// The program's own flags, after -- or after the first argument.
		{[]string{"run", "-kind", "command", "--", "ls", "-json"}, []string{"run", "--kind", "command", "--", "ls", "-json"}},
		{[]string{"run", "-kind", "command", "ls", "-json", "-kind"}, []string{"run", "--kind", "command", "ls", "-json", "-kind"}},
		{[]string{"run", "script.applescript", "-dry-run"}, []string{"run", "script.applescript", "-dry-run"}},
		{[]string{"ask", "-json", "tidy", "-json"}, []string{"ask", "--json", "tidy", "-json"}},
		{[]string{"rules", "test", "-dir", "/tmp", "git", "-client"}, []string{"rules", "test", "--dir", "/tmp", "git", "-client"}},
		// Commands that parse anywhere: a flag after the argument.
		{[]string{"parse", "plan.txt", "-help"}, []string{"parse", "plan.txt", "--help"}},
		{[]string{"frobnicate", "-json"}, []string{"frobnicate", "-json"}},
	} {
		if got := goStyleFlags(root, tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("goStyleFlags(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
	// And as a whole: a single-dash long flag is read as the flag.
	tempHome(t)
	plan := "NOTIFY \"a\" \"b\"\n"
	code, stdout, stderr := runCLI(t, plan, "assess", "-kind=dsl", "-json", "-")
	if code != 0 || !strings.Contains(stdout, `"level"`) {
		t.Errorf("assess -kind=dsl -json -: exit %d\n%s%s", code, stdout, stderr)
	}
}

// What follows run's, ask's and rules test's first argument is the
// program's, the script's or the request's, never airlock's flags.
func TestRawArgs(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		wantArgs []string
		flag     string // a flag of the command and its value as parsed
		value    string
	}{
		{[]string{"run", "--kind", "command", "--", "ls", "-l", "--json", "--help", "--"}, []string{"ls", "-l", "--json", "--help", "--"}, "kind", "command"},
		{[]string{"run", "--kind", "command", "grep", "-r", "--dry-run", "x"}, []string{"grep", "-r", "--dry-run", "x"}, "dry-run", "false"},
		{[]string{"run", "--dry-run", "s.applescript", "--json", "-h"}, []string{"s.applescript", "--json", "-h"}, "json", "false"},
		{[]string{"run", "--", "-"}, []string{"-"}, "kind", "dsl"},
		{[]string{"ask", "--dry-run", "tidy", "--json", "my", "desk"}, []string{"tidy", "--json", "my", "desk"}, "dry-run", "true"},
		{[]string{"rules", "test", "--dir", "/tmp", "--", "git", "--dir", "x"}, []string{"git", "--dir", "x"}, "dir", "/tmp"},
	} {
		words := tt.args[:1]
		if tt.args[0] == "rules" {
			words = tt.args[:2]
		}
		c := cliCommand(t, words)
		var gotArgs []string
		var gotValue string
		body := c.RunE
		c.RunE = func(c *cobra.Command, args []string) error {
			gotArgs = c.Flags().Args()
			gotValue = c.Flags().Lookup(tt.flag).Value.String()
			return nil
		}
		root := c.Root()
		root.SetArgs(goStyleFlags(root, tt.args))
		if _, err := root.ExecuteC(); err != nil || body == nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if !slices.Equal(gotArgs, tt.wantArgs) || gotValue != tt.value {
			t.Errorf("%q: arguments %q, --%s %q; want %q and %q", tt.args, gotArgs, tt.flag, gotValue, tt.wantArgs, tt.value)
		}
	}
}

// `airlock completion bash|zsh|fish` prints cobra's scripts, and the
// completions they ask the program for offer the subcommands, the flags,
// the values a flag takes, and file names where an argument is a file.
func TestCompletion(t *testing.T) {
	tempHome(t)
	for shell, want := range map[string]string{"bash": "complete -o default -F __start_airlock airlock",
		"zsh": "#compdef airlock", "fish": "complete -c airlock "} {
		code, stdout, stderr := runCLI(t, "", "completion", shell)
		if code != 0 || !strings.Contains(stdout, want) || stderr != "" {
			t.Errorf("completion %s: exit %d, stderr %q; want %q in:\n%.300s", shell, code, stderr, want, stdout)
		}
	}
	// What the scripts ask: the candidates one a line, then :DIRECTIVE
	// (cobra.ShellCompDirective: 0 lets the shell complete file names, 4
	// does not, 16 only folders).
	for _, tt := range []struct {
		args      []string
		want      []string
		directive string
	}{
		{[]string{""}, []string{"run", "automations", "completion", "help", "man", "sandbox-profile"}, ":4"},
		{[]string{"automations", ""}, []string{"list", "add", "run-now", "off"}, ":4"},
		{[]string{"rules", ""}, []string{"list", "test", "remove"}, ":4"},
		{[]string{"run", "--kind", ""}, []string{"dsl", "applescript", "jxa", "command"}, ":4"},
		{[]string{"assess", "--kind", ""}, []string{"shell", "path"}, ":4"},
		{[]string{"serve", "--prompter", ""}, []string{"auto", "terminal", "popup", "none"}, ":4"},
		{[]string{"sandbox-profile", "--network", ""}, []string{"none", "internet", "host"}, ":4"},
		{[]string{"history", "-"}, []string{"--json", "--requests", "-n"}, ":4"},
		{[]string{"help", ""}, []string{"run", "automations"}, ":4"},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}, ":4"},
		{[]string{"parse", ""}, nil, ":0"},
		{[]string{"assess", ""}, nil, ":0"},
		{[]string{"run", ""}, nil, ":0"},
		{[]string{"status", ""}, nil, ":4"},
		{[]string{"rules", "test", "--dir", ""}, nil, ":16"},
	} {
		code, stdout, _ := runCLI(t, "", append([]string{cobra.ShellCompNoDescRequestCmd}, tt.args...)...)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if code != 0 || len(lines) == 0 || lines[len(lines)-1] != tt.directive {
			t.Errorf("completing %q: exit %d, want directive %s:\n%s", tt.args, code, tt.directive, stdout)
			continue
		}
		for _, w := range tt.want {
			if !slices.Contains(lines, w) {
				t.Errorf("completing %q: %q not offered:\n%s", tt.args, w, stdout)
			}
		}
		if tt.want == nil && len(lines) > 1 && !strings.HasPrefix(lines[0], ":") {
			t.Errorf("completing %q: want only the shell's own completion, got:\n%s", tt.args, stdout)
		}
	}
}

// `airlock man DIR` writes a page for airlock and one for each command,
// each with its synopsis and flags.
func TestManPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man1")
	if code, stdout, stderr := runCLI(t, "", "man", dir); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("man: exit %d, %q %q", code, stdout, stderr)
	}
	for _, words := range cliCommands(t) {
		name := "airlock-" + strings.Join(words, "-") + ".1"
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("no page for %q: %v", words, err)
			continue
		}
		page := string(b)
		if !strings.HasPrefix(page, ".nh\n.TH \"AIRLOCK\" \"1\"") || !strings.Contains(page, ".SH SYNOPSIS") {
			t.Errorf("%s is not a man page:\n%.400s", name, page)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "airlock-run.1"))
	if err != nil || !strings.Contains(string(b), `\fB--dry-run\fP`) || !strings.Contains(string(b), "report every decision") {
		t.Errorf("airlock-run.1 does not describe --dry-run: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "airlock.1")); err != nil {
		t.Errorf("no page for airlock itself: %v", err)
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

// FuzzGoStyleFlags: the rewrite of single-dash long flags never panics,
// keeps every argument in its place, changes an argument only by adding a
// dash to a single-dash name of the called command's own long flag, and
// never touches what follows --.
func FuzzGoStyleFlags(f *testing.F) {
	for _, seed := range []string{"assess\x00-json\x00-kind=dsl\x00-", "run\x00-kind\x00command\x00--\x00ls\x00-json",
		"history\x00-n\x005\x00-json", "automations\x00add\x00x\x00-schedule\x00daily 09:00", "rules\x00test\x00-dir\x00/\x00git\x00-client",
		"-json\x00status", "help\x00-help", "ask\x00tidy\x00-json", "\x00-=\x00--=x\x00-"} {
		f.Add(seed)
	}
	root := newRoot(commands, nil, io.Discard, io.Discard)
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		got := goStyleFlags(root, args)
		if len(got) != len(args) {
			t.Fatalf("goStyleFlags(%q) = %q: a different number of arguments", args, got)
		}
		c, _, _ := root.Find(args)
		dash := slices.Index(args, "--")
		for i := range args {
			if got[i] == args[i] {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimPrefix(args[i], "-"), "=")
			if got[i] != "-"+args[i] || strings.HasPrefix(args[i], "--") || len(name) < 2 || c.Flags().Lookup(name) == nil {
				t.Fatalf("goStyleFlags(%q) = %q: argument %d rewritten to %q", args, got, i, got[i])
			}
			if dash >= 0 && i > dash {
				t.Fatalf("goStyleFlags(%q) = %q: argument %d after -- rewritten", args, got, i)
			}
		}
	})
}
