package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

// The command line is built on spf13/cobra, a maintained library: from the
// table of commands (main.go) it parses the flags, describes each command
// and its flags in --help, and generates the shell completion scripts and
// the man pages. What the commands do stays in their cmd_*.go bodies.

// usageError is bad command-line input: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// unknownCommandError is `airlock WORD` where WORD names no command: exit
// status 2, with the list of commands.
type unknownCommandError struct{ name string }

func (e unknownCommandError) Error() string { return fmt.Sprintf("unknown command %q", e.name) }

// bodyError is an error a command's body returned, as opposed to one cobra
// returned before the body ran (a bad flag, too many arguments), which is a
// usage error.
type bodyError struct{ err error }

func (e bodyError) Error() string { return e.err.Error() }
func (e bodyError) Unwrap() error { return e.err }

// runFunc is a command's body: it runs with its flags parsed into fs, and
// fs.Args() are its arguments.
type runFunc func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error

// command is one entry of the table of commands (main.go).
type command struct {
	name  string // "" for airlock itself
	usage string // how it is called, from "airlock"; a parent's is made from its subcommands'
	help  string // what it does, one sentence
	// flags declares the command's flags on fs and returns its body.
	// Nil for a parent, which only has subcommands.
	flags func(fs *pflag.FlagSet) runFunc
	// args is what shell completion offers for the command's arguments.
	args argsKind
	// rawArgs: the flags end at the first argument, because what follows
	// belongs to someone else (a program's own flags, a script's
	// arguments, a request in words) and must not be parsed as airlock's.
	rawArgs bool
	// values are the choices shell completion offers for a flag's value.
	values map[string][]string
	sub    []command
}

// argsKind is what a command's arguments are, for shell completion.
type argsKind int

const (
	argsNone  argsKind = iota // nothing to complete: no arguments, or words, names or ids
	argsFiles                 // file names (the shell's own completion)
)

// rawArgsKey marks, in a cobra command's annotations, a command whose flags
// end at its first argument (command.rawArgs).
const rawArgsKey = "airlock-raw-args"

// noFlags is the flags declaration of a command without flags.
func noFlags(body runFunc) func(*pflag.FlagSet) runFunc {
	return func(*pflag.FlagSet) runFunc { return body }
}

func init() {
	// The table's order (main.go) is the order of the help's list.
	cobra.EnableCommandSorting = false
}

// newRoot builds airlock's commands from the table, with stdin, stdout and
// stderr as what the commands read and write.
func newRoot(table []command, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var top command
	for _, c := range table {
		if c.name == "" {
			top = c
		}
	}
	root := newCobra(top, "", stdin, stdout, stderr)
	root.Args = func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return unknownCommandError{args[0]}
		}
		return nil
	}
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error()} })
	root.SetHelpFunc(func(c *cobra.Command, _ []string) { printHelp(c.OutOrStdout(), c) })
	for _, c := range table {
		if c.name != "" {
			root.AddCommand(newCobra(c, "airlock", stdin, stdout, stderr))
		}
	}
	root.AddCommand(manCommand())
	root.SetHelpCommand(helpCommand())
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// cobra's: without a shell it would print its help and exit 0.
			c.RunE = func(_ *cobra.Command, args []string) error {
				if len(args) > 0 {
					return unknownCommandError{args[0]}
				}
				return bodyError{usagef("say which shell: bash, zsh, fish or powershell")}
			}
			c.Args = cobra.ArbitraryArgs
			c.DisableFlagsInUseLine = true
			for _, s := range c.Commands() {
				s.DisableFlagsInUseLine = true
			}
		}
	}
	return root
}

// newCobra makes the cobra command of c, a command of parent (the path
// from airlock, "" for airlock itself), and of its subcommands.
func newCobra(c command, parent string, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	usage := c.usage
	if len(c.sub) > 0 {
		lines := make([]string, len(c.sub))
		for i, s := range c.sub {
			lines[i] = s.usage
		}
		usage = strings.Join(lines, "\n            ")
	}
	use := strings.TrimPrefix(strings.TrimPrefix(usage, parent), " ")
	if c.name != "" && !strings.HasPrefix(use, c.name) {
		panic(fmt.Sprintf("the usage of %q does not start with its path: %q", c.name, usage))
	}
	cc := &cobra.Command{Use: use, Short: c.help, DisableFlagsInUseLine: true, DisableAutoGenTag: true}
	if c.rawArgs {
		cc.Flags().SetInterspersed(false)
		cc.Annotations = map[string]string{rawArgsKey: "true"}
	}
	if c.args == argsNone {
		cc.ValidArgsFunction = cobra.NoFileCompletions
	}
	if c.flags != nil {
		body := c.flags(cc.Flags())
		cc.RunE = func(cc *cobra.Command, _ []string) error {
			if err := body(cc.Context(), cc.Flags(), stdin, stdout, stderr); err != nil {
				return bodyError{err}
			}
			return nil
		}
	}
	for name, values := range c.values {
		if err := cc.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)); err != nil {
			panic(err) // a table naming a flag the command does not have
		}
	}
	path := strings.TrimSpace(parent + " " + c.name)
	for _, s := range c.sub {
		cc.AddCommand(newCobra(s, path, stdin, stdout, stderr))
	}
	return cc
}

// dispatch runs args through root: the command that ran (or failed to
// parse) and its error.
func dispatch(ctx context.Context, root *cobra.Command, args []string) (*cobra.Command, error) {
	args = goStyleFlags(root, args)
	if args == nil {
		args = []string{} // cobra would read nil as "use os.Args"
	}
	root.SetArgs(args)
	return root.ExecuteContextC(ctx)
}

// exitCode reports err, the error of command c, on stderr and returns the
// exit status: 0 for none, 1 for a plan that did not end well (its report
// already printed) or a failure, 2 for a plan that does not parse or bad
// command-line input (with the usage).
func exitCode(c *cobra.Command, err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var (
		body bodyError
		ue   usageError
		pe   planError
		oe   outcomeError
		uc   unknownCommandError
	)
	switch {
	case errors.As(err, &oe):
		return 1
	case errors.As(err, &pe):
		fmt.Fprintln(stderr, err)
		return 2
	case errors.As(err, &uc) && !c.HasParent():
		fmt.Fprintf(stderr, "airlock: %s\n\n", uc)
		printUsage(stderr, c)
		return 2
	case errors.As(err, &ue) || !errors.As(err, &body):
		// A usage error of a body, or anything cobra refused before
		// the body ran.
		fmt.Fprintf(stderr, "%s: %s\nusage: %s\n", c.CommandPath(), err, c.UseLine())
		return 2
	}
	fmt.Fprintf(stderr, "%s: %s\n", c.CommandPath(), err)
	return 1
}

// goStyleFlags rewrites the single-dash long flags Go's flag package took
// before airlock moved to cobra (-json, -kind=jxa, -help) to the
// double-dash form cobra reads, so that what was written for them keeps
// working. Only names of the called command's own long flags are
// rewritten, and only where its flags are: never after --, nor after the
// first argument of a command whose flags end there (a program's own flags
// are its own).
func goStyleFlags(root *cobra.Command, args []string) []string {
	c, _, err := root.Find(args)
	if err != nil {
		return args
	}
	c.InitDefaultHelpFlag()
	fs := c.Flags()
	path := strings.Fields(c.CommandPath())[1:] // the names before the command's arguments
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		switch {
		case a == "--":
			return out
		case len(path) > 0 && a == path[0]:
			path = path[1:]
			continue
		case a == "-" || !strings.HasPrefix(a, "-"):
			if c.Annotations[rawArgsKey] != "" {
				return out
			}
			continue
		}
		name, _, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var f *pflag.Flag
		switch {
		case strings.HasPrefix(a, "--"):
			f = fs.Lookup(name)
		case len(name) > 1:
			if f = fs.Lookup(name); f != nil {
				out[i] = "-" + a
			}
		default:
			f = fs.ShorthandLookup(name)
		}
		if f != nil && !inline && f.NoOptDefVal == "" {
			i++ // the next argument is the flag's value
		}
	}
	return out
}

// printUsage writes the list of commands: airlock's own help.
func printUsage(w io.Writer, root *cobra.Command) {
	fmt.Fprintln(w, "usage: airlock COMMAND [arguments]   (airlock COMMAND --help describes one)")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  %-9s %s\n            %s\n", "(none)", root.Short, root.UseLine())
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			fmt.Fprintf(w, "  %-9s %s\n            %s\n", c.Name(), c.Short, c.UseLine())
		}
	}
}

// printHelp is a command's --help: its usage, what it does, its
// subcommands and its flags (--help itself left out).
func printHelp(w io.Writer, c *cobra.Command) {
	if !c.HasParent() {
		printUsage(w, c)
		return
	}
	about := c.Long
	if about == "" {
		about = c.Short
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.UseLine(), strings.TrimRight(about, "\n"))
	if subs := c.Commands(); len(subs) > 0 {
		fmt.Fprintf(w, "\ncommands:\n")
		for _, s := range subs {
			if s.IsAvailableCommand() {
				fmt.Fprintf(w, "  %-9s %s\n", s.Name(), s.Short)
			}
		}
	}
	own := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			own.AddFlag(f)
		}
	})
	if own.HasFlags() {
		fmt.Fprintf(w, "\nflags:\n%s", own.FlagUsages())
	}
}

// helpCommand is `airlock help [COMMAND …]`: as `airlock COMMAND … --help`;
// a command that is not one is a usage error.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND [SUBCOMMAND]]",
		Short: "describe airlock's commands, or one command and its flags",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, s := range target.Commands() {
				if s.IsAvailableCommand() && strings.HasPrefix(s.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(s.Name(), s.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		DisableFlagsInUseLine: true,
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err == nil && len(rest) > 0 {
				err = unknownCommandError{strings.Join(args, " ")}
			}
			if err != nil {
				return bodyError{usagef("%s", err)}
			}
			return target.Help()
		},
	}
}

// manCommand is `airlock man DIR`: the man pages of airlock and each of its
// commands, made by cobra's generator from the same table as --help
// (`make man` and `make install` use it).
func manCommand() *cobra.Command {
	return &cobra.Command{
		Use:                   "man DIR",
		Short:                 "write the manual pages of airlock and each of its commands (section 1) into DIR",
		DisableFlagsInUseLine: true,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return bodyError{usagef("want one DIR to write the pages into")}
			}
			if err := writeMan(c.Root(), args[0]); err != nil {
				return bodyError{err}
			}
			return nil
		},
	}
}

// writeMan writes root's man pages into dir, made if missing.
func writeMan(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	header := &doc.GenManHeader{Title: "AIRLOCK", Section: "1", Source: "Airlock " + version, Manual: "Airlock"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return fmt.Errorf("writing the man pages into %s: %w", dir, err)
	}
	return nil
}
