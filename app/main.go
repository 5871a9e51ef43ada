// Command airlock is Airlock: a safety gate between LLM-driven automation
// and the Mac. This file only wires subcommands; the work is in
// app/internal.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
)

// usageError is bad command-line input: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// helpError is -h, -help or --help given to a subcommand: run prints the
// subcommand's usage and its flags to standard output, and exits 0.
type helpError struct{ flags string }

func (helpError) Error() string { return "help requested" }

// newFlags is a subcommand's flag set. It prints nothing itself: parseFlags
// returns help and bad flags as errors for run to show.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs: -h, -help or --help is a helpError
// describing fs's flags, a bad flag a usageError naming it.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		return helpError{flags: b.String()}
	case err != nil:
		return usagef("%s", err)
	}
	return nil
}

type command struct {
	name  string
	usage string
	help  string
	run   func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

var commands = []command{
	{"", "airlock", "start the menu-bar app: the gate, its socket and the menu (approvals, autonomy level, kill switch)", cmdApp},
	{"parse", "airlock parse FILE|-", "check an Action DSL plan and show what each action would do", cmdParse},
	{"assess", "airlock assess [--kind K] [--json] FILE|-   or   airlock assess --jsonl", "rate a script, plan or path without running it", cmdAssess},
	{"validate", "airlock validate [--json] FILE|-", "check that an AppleScript compiles, without running it, and how it would be rated (macOS)", cmdValidate},
	{"commands", "airlock commands", "list the Action DSL commands", cmdCommands},
	{"serve", "airlock serve [--prompter=auto|terminal|popup|none]", "run the gate without a menu bar, asking for approval in popups or on this terminal (auto: popups with a display, else the terminal, else nobody)", cmdServe},
	{"run", "airlock run [--dry-run] [--json] [--kind dsl|applescript|jxa] FILE|- [ARG…]   or   airlock run --kind command -- PROGRAM [ARG…]", "submit a plan, a script or a command to the running gate and follow it", cmdRun},
	{"ask", `airlock ask [--dry-run] [--json] [--model M] [--endpoint URL] [--context TEXT|-] "REQUEST"|-`, "have the gate's model turn a request in words into a plan, then follow it like airlock run", cmdAsk},
	{"key", "airlock key set NAME   or   airlock key delete NAME", "keep a model server's API key in the key store (typed at the terminal, not shown)", cmdKey},
	{"status", "airlock status [--json]", "show the running gate's state", cmdStatus},
	{"history", "airlock history [--json] [-n N]", "show the newest actions of the gate's history, one a line", cmdHistory},
	{"dashboard", "airlock dashboard [--print]", "open the running app's dashboard (the history by request, the automations, the settings) in the browser; --print prints a one-time read-only link instead", cmdDashboard},
	{"undo", "airlock undo [--json] REQUEST", "put back what a request's actions replaced or removed on disk, and move what they made to the Trash (after your yes in a popup)", cmdUndo},
	{"kill", "airlock kill", "trip the kill switch: stop everything the gate is doing, at once", cmdKill},
	{"automations", automationsUsage, "list, add, remove, turn on or off, or run now the scheduled automations (adding or turning on waits for your yes in a popup)", cmdAutomations},
	{"settings", settingsUsage, "read settings.json again: what only narrows is in force at once, what lets more run after your yes in a popup", cmdSettings},
	{"rules", rulesUsage, "list your lasting rules for commands (settings.json's \"rules\"), test which would decide a command, or remove an allow rule; rules are added by editing settings.json", cmdRules},
	{"mcp", "airlock mcp [--progress-every 10s]", "serve MCP on stdio so agents (Claude, Goose, Cursor …) act only through the running gate", cmdMCP},
	{"audit", "airlock audit verify", "check the history's audit chain for edited, deleted or reordered rows", cmdAudit},
	{"doctor", "airlock doctor [--json]", "prove containment on this machine: run harmless checks of what the OS sandbox claims, as the gate runs actions (exit status 1 when one does not hold)", cmdDoctor},
	{"sandbox-profile", sandboxProfileUsage, "print the OS sandbox profile an action would get with your settings (Seatbelt text; on Linux the profile and what the launcher does), so that you can read what confines it", cmdSandboxProfile},
	{"version", "airlock version   or   airlock --version", "print the version", cmdVersion},
}

var version = "dev"

func main() {
	// The sandbox's launcher: this program started again to confine one
	// action. Nothing else may run before it (app/internal/sandbox).
	if code, ok := sandbox.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The AppleScript helper child: one script on stdin, JSON on stdout.
	if len(args) > 0 && args[0] == bridge.HelperFlag {
		return bridge.AppleScriptHelper(stdin, stdout, args[1:])
	}
	if len(args) == 0 {
		args = []string{""} // the menu-bar app
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) == 2 && args[0] == "help" && args[1] != "" {
			// airlock help COMMAND: as airlock COMMAND --help.
			return run(ctx, []string{args[1], "--help"}, stdin, stdout, stderr)
		}
		if len(args) > 1 {
			fmt.Fprintf(stderr, "airlock: %s takes at most one COMMAND\n", args[0])
			return 2
		}
		printUsage(stdout)
		return 0
	case "-version", "--version":
		args[0] = "version"
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(ctx, args[1:], stdin, stdout, stderr)
			if err == nil {
				return 0
			}
			prog := strings.TrimSpace("airlock " + c.name)
			var ue usageError
			var pe planError
			var oe outcomeError
			var he helpError
			switch {
			case errors.As(err, &he):
				printHelp(stdout, c, he.flags)
				return 0
			case errors.As(err, &oe):
				return 1
			case errors.As(err, &pe):
				fmt.Fprintln(stderr, err)
				return 2
			case errors.As(err, &ue):
				fmt.Fprintf(stderr, "%s: %s\nusage: %s\n", prog, err, c.usage)
				return 2
			}
			fmt.Fprintf(stderr, "%s: %s\n", prog, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "airlock: unknown command %q\n\n", args[0])
	printUsage(stderr)
	return 2
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: airlock COMMAND [arguments]   (airlock COMMAND --help describes one)")
	fmt.Fprintln(w)
	for _, c := range commands {
		name := c.name
		if name == "" {
			name = "(none)"
		}
		fmt.Fprintf(w, "  %-9s %s\n            %s\n", name, c.help, c.usage)
	}
}

// printHelp is a subcommand's --help: its usage, what it does, and its
// flags.
func printHelp(w io.Writer, c command, flags string) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.usage, c.help)
	if flags != "" {
		fmt.Fprintf(w, "\nflags:\n%s", flags)
	}
}

func cmdVersion(_ context.Context, args []string, _ io.Reader, stdout, _ io.Writer) error {
	fs := newFlags("version")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	fmt.Fprintln(stdout, "airlock", version)
	return nil
}

// readInput reads FILE or - (stdin), refusing more than limit bytes.
func readInput(name string, stdin io.Reader, limit int64) (string, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return "", fmt.Errorf("%s is larger than %d bytes", name, limit)
	}
	return string(b), nil
}
