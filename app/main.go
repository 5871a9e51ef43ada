// Command airlock is Airlock: a safety gate between LLM-driven automation
// and the Mac. This file only wires subcommands; the work is in
// app/internal.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
	"github.com/spf13/pflag"
)

// commands is airlock's command line: each command's usage, what it does,
// its flags and its body (the cmd_*.go files), from which cobra parses,
// describes (--help, man pages) and completes it (cli.go).
var commands = []command{
	{name: "", usage: "airlock", help: "start the menu-bar app: the gate, its socket and the menu (approvals, autonomy level, kill switch)", flags: noFlags(cmdApp)},
	{name: "parse", usage: "airlock parse FILE|-", help: "check an Action DSL plan and show what each action would do", flags: noFlags(cmdParse), args: argsFiles},
	{name: "assess", usage: "airlock assess [--kind K] [--json] FILE|-   or   airlock assess --jsonl", help: "rate a script, plan or path without running it", flags: assessFlags, args: argsFiles,
		values: map[string][]string{"kind": {"applescript", "jxa", "shell", "dsl", "path"}}},
	{name: "validate", usage: "airlock validate [--json] FILE|-", help: "check that an AppleScript compiles, without running it, and how it would be rated (macOS)", flags: validateFlags, args: argsFiles},
	{name: "commands", usage: "airlock commands", help: "list the Action DSL commands", flags: noFlags(cmdCommands)},
	{name: "serve", usage: "airlock serve [--prompter=auto|terminal|popup|none]", help: "run the gate without a menu bar, asking for approval in popups or on this terminal (auto: popups with a display, else the terminal, else nobody)", flags: serveFlags,
		values: map[string][]string{"prompter": {"auto", "terminal", "popup", "none"}}},
	// run's and ask's flags end at the first argument: what follows is the
	// program's, the script's or the request's.
	{name: "run", usage: "airlock run [--dry-run] [--json] [--kind dsl|applescript|jxa] FILE|- [ARG…]   or   airlock run --kind command -- PROGRAM [ARG…]", help: "submit a plan, a script or a command to the running gate and follow it", flags: runFlags, args: argsFiles, rawArgs: true,
		values: map[string][]string{"kind": {"dsl", "applescript", "jxa", "command"}}},
	{name: "ask", usage: `airlock ask [--dry-run] [--json] [--model M] [--endpoint URL] [--context TEXT|-] "REQUEST"|-`, help: "have the gate's model turn a request in words into a plan, then follow it like airlock run", flags: askFlags, rawArgs: true},
	keyCommand,
	{name: "status", usage: "airlock status [--json]", help: "show the running gate's state", flags: jsonFlag("print the gate's state as JSON", cmdStatus)},
	{name: "history", usage: "airlock history [--json] [-n N]", help: "show the newest requests of the gate's history, each action of them one a line", flags: historyFlags},
	{name: "dashboard", usage: "airlock dashboard [--print]", help: "open the running app's dashboard (the history by request, the automations, the settings) in the browser; --print prints a one-time read-only link instead", flags: dashboardFlags},
	{name: "undo", usage: "airlock undo [--json] REQUEST", help: "put back what a request's actions replaced or removed on disk, and move what they made to the Trash (after your yes in a popup)", flags: undoFlags},
	{name: "kill", usage: "airlock kill", help: "trip the kill switch: stop everything the gate is doing, at once", flags: noFlags(cmdKill)},
	automationsCommand(cmdAutomations),
	rulesCommand,
	{name: "settings", usage: settingsUsage, help: "read settings.json again: what only narrows is in force at once, what lets more run after your yes in a popup", flags: settingsFlags},
	{name: "mcp", usage: "airlock mcp [--progress-every 10s]", help: "serve MCP on stdio so agents (Claude, Goose, Cursor …) act only through the running gate", flags: mcpFlags},
	auditCommand,
	{name: "doctor", usage: "airlock doctor [--json]", help: "prove containment on this machine: run harmless checks of what the OS sandbox claims, as the gate runs actions (exit status 1 when one does not hold)", flags: doctorFlags},
	{name: "sandbox-profile", usage: sandboxProfileUsage, help: "print the OS sandbox profile an action would get with your settings (Seatbelt text; on Linux the profile and what the launcher does), so that you can read what confines it", flags: sandboxProfileFlags,
		values: map[string][]string{"os": {"darwin", "linux"}, "kind": {"command", "applescript", "jxa"}, "network": {"none", "internet", "host"}}},
	{name: "version", usage: "airlock version   or   airlock --version", help: "print the version", flags: noFlags(cmdVersion)},
}

var version = "dev"

func main() {
	// The sandbox's launcher: this program started again to confine one
	// action, where no airlock-launch lies beside it (a build without make:
	// go build, go run). Nothing else may run before it
	// (app/internal/sandbox).
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
	if len(args) > 0 && (args[0] == "-version" || args[0] == "--version") {
		args = append([]string{"version"}, args[1:]...)
	}
	c, err := dispatch(ctx, newRoot(commands, stdin, stdout, stderr), args)
	return exitCode(c, err, stderr)
}

func cmdVersion(_ context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
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
