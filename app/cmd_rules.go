package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// rulesCommand is `airlock rules` and its subcommands. It reads and
// writes the settings file and needs no gate.
//
// There is no `add`: an allow rule is the person's lasting yes, and a
// command an agent could run must not give it. Rules are added by editing
// settings.json (`test` prints a rule to paste, with its pins). For the
// same reason `remove` removes only allow rules, which lowers trust and
// needs no confirmation; a deny or ask rule, whose removal lets more run,
// is removed by editing the file.
var rulesCommand = command{name: "rules",
	help: "list your lasting rules for commands (settings.json's \"rules\"), test which would decide a command, or remove an allow rule; rules are added by editing settings.json",
	// Without a subcommand, or with one that is not.
	flags: noFlags(func(_ context.Context, fs *pflag.FlagSet, _ io.Reader, _, _ io.Writer) error {
		if fs.NArg() == 0 {
			return usagef("say what to do: list, test or remove")
		}
		return usagef("unknown rules command %q: want list, test or remove", fs.Arg(0))
	}),
	sub: []command{
		{name: "list", usage: "airlock rules list", help: "print the rules, numbered as the gate's reasons name them", flags: noFlags(cmdRulesList)},
		// test's flags end at the program: its own flags are its own.
		{name: "test", usage: "airlock rules test [--client NAME] [--dir DIR] -- PROGRAM [ARG…]", help: "show which rule would decide a command, and the rule to paste that would allow it", flags: rulesTestFlags, args: argsFiles, rawArgs: true},
		{name: "remove", usage: "airlock rules remove N", help: "remove allow rule N (deny and ask rules are removed by editing settings.json)", flags: noFlags(cmdRulesRemove)},
	},
}

func cmdRulesList(_ context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("list takes no arguments")
	}
	path, err := rulesSettingsPath()
	if err != nil {
		return err
	}
	return rulesList(path, stdout)
}

// rulesTestFlags declares airlock rules test's flags.
func rulesTestFlags(fs *pflag.FlagSet) runFunc {
	client := fs.String("client", "", "the client name the command would come from (rules that name a client match only it)")
	dir := fs.String("dir", "", "the folder the command would run in (default: this folder)")
	_ = cobra.MarkFlagDirname(fs, "dir")
	return func(_ context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
		return cmdRulesTest(fs.Args(), *client, *dir, stdout)
	}
}

func cmdRulesTest(argv []string, client, dir string, stdout io.Writer) error {
	if len(argv) == 0 {
		return usagef("name the command to test after --: airlock rules test -- git status")
	}
	path, err := rulesSettingsPath()
	if err != nil {
		return err
	}
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return err
		}
	}
	return rulesTest(path, argv, dir, os.Getenv("PATH"), client, stdout)
}

func cmdRulesRemove(_ context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
	if fs.NArg() != 1 {
		return usagef("name one rule by its number, as `airlock rules list` shows it")
	}
	n, err := strconv.Atoi(fs.Arg(0))
	if err != nil {
		return usagef("%q is not a rule number", fs.Arg(0))
	}
	path, err := rulesSettingsPath()
	if err != nil {
		return err
	}
	return rulesRemove(path, n, stdout)
}

func rulesSettingsPath() (string, error) {
	dir, err := datadir.Data()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, settingsFile), nil
}

// rulesList prints the rules with the numbers the gate's reasons and
// `remove` use.
func rulesList(path string, w io.Writer) error {
	s, err := policy.LoadSettings(path)
	if err != nil {
		return err
	}
	if len(s.Rules) == 0 {
		fmt.Fprintf(w, "no rules in %s (see the README's \"Rules you keep\" to add one)\n", path)
		return nil
	}
	for i, r := range s.Rules {
		fmt.Fprintf(w, "%d. %s\n", i+1, describeRule(r))
	}
	return nil
}

// describeRule is one rule on one line, every word escaped for display.
func describeRule(r policy.Rule) string {
	prefix, _ := json.Marshal(r.Prefix)
	var b strings.Builder
	fmt.Fprintf(&b, "%-5s %s", r.Decision, sanitize.Display(string(prefix)))
	if r.Dir != "" {
		fmt.Fprintf(&b, " in %s", sanitize.Display(r.Dir))
	}
	if r.Client != "" {
		fmt.Fprintf(&b, " from client %s", sanitize.Display(strconv.Quote(r.Client)))
	}
	if r.Program != "" {
		fmt.Fprintf(&b, " run by %s", sanitize.Display(r.Program))
	}
	if len(r.Pins) > 0 {
		fmt.Fprintf(&b, " (pins %d files)", len(r.Pins))
	}
	if r.Why != "" {
		fmt.Fprintf(&b, ": %s", sanitize.Display(r.Why))
	}
	return b.String()
}

// rulesTest says what the rules would decide for argv run in dir with
// pathList, as the gate sees it: the program resolved on the PATH, the
// analyzer's risk, the level's decision, and the rule that changes it.
// It prints an allow rule for exactly this command, with its pins, for the
// person to paste into settings.json.
func rulesTest(path string, argv []string, dir, pathList, client string, w io.Writer) error {
	s, err := policy.LoadSettings(path)
	if err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("finding the home folder: %w", err)
	}
	env, err := s.Env(home, os.Getpid())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	argv, dir, err = gate.PlaceCommand(argv, dir, pathList, env.Paths)
	if err != nil {
		return err
	}
	runDir := dir
	if runDir == "" {
		runDir = env.Paths.Home
	}
	ctx := context.Background()
	v, err := risk.ShellArgvIn(ctx, argv, dir, env)
	if err != nil {
		return err
	}
	prefix, _ := json.Marshal(argv)
	fmt.Fprintf(w, "command: %s\nin:      %s\nrisk:    %s\n", sanitize.Display(string(prefix)), sanitize.Display(runDir), v.Level)
	d := policy.Decide(s.Autonomy, v.Level)
	fmt.Fprintf(w, "level %s: %s\n", s.Autonomy, d)
	runs := risk.RunFilesArgv(ctx, argv, runDir, env)
	c := policy.RuleCommand{Argv: argv, Dir: runDir, Client: client, Verified: true}
	m, ok := s.Rules.Match(c, env.Paths.Home)
	switch {
	case !ok:
		fmt.Fprintln(w, "rule:    none matches")
	case d == policy.Refuse:
		fmt.Fprintf(w, "rule:    %d (%s); the command is refused whatever a rule says\n", m.N, describeRule(m.Rule))
	case m.Rule.Decision == policy.RuleAllow && d == policy.Ask:
		if err := m.Rule.Covers(c, runs, v.Level); err != nil {
			fmt.Fprintf(w, "rule:    %d (%s) matches but does not hold: %s; the gate asks\n", m.N, describeRule(m.Rule), err)
		} else {
			fmt.Fprintf(w, "rule:    %d (%s): runs unasked\n", m.N, describeRule(m.Rule))
		}
	case m.Rule.Decision == policy.RuleDeny:
		fmt.Fprintf(w, "rule:    %d (%s): refused\n", m.N, describeRule(m.Rule))
	case m.Rule.Decision == policy.RuleAsk:
		fmt.Fprintf(w, "rule:    %d (%s): asks\n", m.N, describeRule(m.Rule))
	default:
		fmt.Fprintf(w, "rule:    %d (%s): changes nothing (it runs unasked already)\n", m.N, describeRule(m.Rule))
	}
	if client != "" {
		fmt.Fprintln(w, "(a rule that names a client allows only when the client's program is verified, as the gate sees it)")
	}
	return printRuleToAdd(w, argv, runDir, runs, v.Level)
}

// printRuleToAdd prints an allow rule for exactly this command, in this
// folder, with the pins of the files it runs as they are now, or why none
// can be made.
func printRuleToAdd(w io.Writer, argv []string, dir string, runs risk.Runs, lvl level.Level) error {
	if lvl >= level.Destructive {
		fmt.Fprintf(w, "\nno allow rule can cover it: a %s command needs its own approval every time\n", lvl)
		return nil
	}
	pins, err := policy.RulePins(runs)
	if err != nil {
		fmt.Fprintf(w, "\nno allow rule can cover it: %s\n", err)
		return nil
	}
	r := policy.Rule{Decision: policy.RuleAllow, Prefix: argv, Dir: dir, Pins: pins}
	if err := policy.ValidateRules(policy.Rules{r}); err != nil {
		fmt.Fprintf(w, "\nno allow rule can be written for it: %s\n", err)
		return nil
	}
	b, err := policy.EncodeRules(policy.Rules{r}, "")
	if err != nil {
		return err
	}
	// The list's one item, moved out of the list's indent.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	lines = lines[1 : len(lines)-1]
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	fmt.Fprintf(w, "\nto let exactly this run unasked here, add to \"rules\" in settings.json (the pins are what its files hold now):\n%s\n", strings.Join(lines, "\n"))
	return nil
}

// rulesRemove removes allow rule n (counted from 1) from the settings
// file. Removing an allow rule only lowers trust, so it needs no
// confirmation; a deny or ask rule is not removed here.
func rulesRemove(path string, n int, w io.Writer) error {
	s, err := policy.LoadSettings(path)
	if err != nil {
		return err
	}
	if n < 1 || n > len(s.Rules) {
		if len(s.Rules) == 0 {
			return fmt.Errorf("there is no rule %d: %s has no rules", n, path)
		}
		return fmt.Errorf("there is no rule %d: the rules are numbered 1 to %d (airlock rules list)", n, len(s.Rules))
	}
	r := s.Rules[n-1]
	if r.Decision != policy.RuleAllow {
		return fmt.Errorf("rule %d is a %s rule: removing it lets more run, which is yours to do by editing %s, not a command an agent could run", n, r.Decision, path)
	}
	s.Rules = append(s.Rules[:n-1:n-1], s.Rules[n:]...)
	if len(s.Rules) == 0 {
		s.Rules = nil
	}
	if err := policy.SaveSettings(path, s); err != nil {
		var se *policy.SettingsError
		if errors.As(err, &se) {
			return err
		}
		return fmt.Errorf("removing rule %d: %w", n, err)
	}
	fmt.Fprintf(w, "removed rule %d (%s); rules after it move up one.\n", n, describeRule(r))
	fmt.Fprintln(w, "Removing an allow rule only takes away trust, so it needs no confirmation. A running Airlock keeps the rules it started with until it restarts.")
	return nil
}
