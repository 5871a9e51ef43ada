package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// automationsOptions are what `airlock automations` was asked to do.
type automationsOptions struct {
	op   string // one of ipc.AutomationOps
	name string
	json bool // list: print the overview as JSON
	// For add: the request in words, or the plan (read from planFile, -
	// for standard input), the schedule and the cooldown ("" for the
	// default).
	ask, planFile, schedule, cooldown string
}

// automationsOps are `airlock automations`'s subcommands, one for each op
// of the gate's automations call (ipc.AutomationOps): how each is called
// and what it does.
var automationsOps = []struct{ op, args, help string }{
	{"list", "[--json]", "list the automations: on or off, schedule, next run, last result, risk"},
	{"add", `NAME --schedule WHEN (--ask "WORDS" | --run FILE|-) [--cooldown 30m]`, "add an automation: a request in words or a fixed plan, on a schedule (waits for your yes in a popup)"},
	{"remove", "NAME", "remove an automation"},
	{"enable", "NAME", "turn an automation on (waits for your yes in a popup)"},
	{"disable", "NAME", "turn an automation off"},
	{"run-now", "NAME", "run an automation now, through the gate, and print how it ended"},
	{"on", "", "turn automations on (waits for your yes in a popup)"},
	{"off", "", "turn all automations off"},
}

// automationsBody runs an `airlock automations` op whose arguments checked
// out.
type automationsBody func(ctx context.Context, opts automationsOptions, stdin io.Reader, stdout, stderr io.Writer) error

// automationsCommand is `airlock automations` and its subcommands, with
// body what runs an op.
func automationsCommand(body automationsBody) command {
	c := command{name: "automations",
		help: "list, add, remove, turn on or off, or run now the scheduled automations (adding or turning on waits for your yes in a popup)",
		// Without an op, or with one that is not: say which there are.
		flags: noFlags(func(_ context.Context, fs *pflag.FlagSet, _ io.Reader, _, _ io.Writer) error {
			if fs.NArg() == 0 {
				return usagef("say what to do: list, add, remove, enable, disable, run-now, on or off")
			}
			return usagef("%q: want list, add, remove, enable, disable, run-now, on or off", fs.Arg(0))
		})}
	for _, o := range automationsOps {
		usage := strings.TrimSpace("airlock automations " + o.op + " " + o.args)
		c.sub = append(c.sub, command{name: o.op, usage: usage, help: o.help, flags: automationsFlags(o.op, body)})
	}
	return c
}

// automationsFlags declares the flags of `airlock automations op`.
func automationsFlags(op string, body automationsBody) func(*pflag.FlagSet) runFunc {
	return func(fs *pflag.FlagSet) runFunc {
		opts := automationsOptions{op: op}
		switch op {
		case "list":
			fs.BoolVar(&opts.json, "json", false, "print the automations as JSON")
		case "add":
			fs.StringVar(&opts.schedule, "schedule", "", `when it runs: "weekdays 09:00", "daily 18:30", "mon,wed,fri 08:15", "every 2h", "at login"`)
			fs.StringVar(&opts.ask, "ask", "", "a request in words, planned by the gate's model at each run")
			fs.StringVar(&opts.planFile, "run", "", "a file holding a fixed plan in the Action DSL (- for standard input)")
			fs.StringVar(&opts.cooldown, "cooldown", "", "the least time between two runs (default 1h, or the interval of an every schedule if shorter)")
			_ = cobra.MarkFlagFilename(fs, "run")
		}
		return func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
			opts, err := checkAutomations(opts, fs.Args())
			if err != nil {
				return err
			}
			return body(ctx, opts, stdin, stdout, stderr)
		}
	}
}

// cmdAutomations is `airlock automations`: the person's scheduled
// automations, kept by the running gate. Adding one or turning one (or all)
// on waits for the person's yes in Airlock's confirmation popup: whoever
// runs this command, an agent included, only asks.
func cmdAutomations(ctx context.Context, opts automationsOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	var plan string
	var err error
	if opts.planFile != "" {
		if plan, err = readInput(opts.planFile, stdin, automation.MaxRunBytes); err != nil {
			return err
		}
	}
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	return runAutomations(ctx, c, opts, plan, stdout, stderr)
}

// checkAutomations checks an op's arguments, names (its name, for the ops
// that take one), and its flags in opts.
func checkAutomations(opts automationsOptions, names []string) (automationsOptions, error) {
	named := opts.op != "list" && opts.op != "on" && opts.op != "off"
	switch {
	case named && len(names) != 1:
		return opts, usagef("%s wants the automation's name (in quotes if it has spaces)", opts.op)
	case !named && len(names) > 0:
		return opts, usagef("%s takes no name", opts.op)
	case named:
		opts.name = names[0]
		if err := automation.CheckName(opts.name); err != nil {
			return opts, usagef("the name %q %s", opts.name, err)
		}
	}
	if opts.op == "add" {
		switch {
		case opts.schedule == "":
			return opts, usagef(`add wants --schedule, like --schedule "weekdays 09:00"`)
		case (opts.ask == "") == (opts.planFile == ""):
			return opts, usagef(`add wants one of --ask "WORDS" (a request in words) and --run FILE (a fixed plan)`)
		}
		if _, err := automation.ParseSchedule(opts.schedule); err != nil {
			return opts, usagef("--schedule %q %s", opts.schedule, err)
		}
	}
	return opts, nil
}

// runAutomations does what opts say through the running gate c, with plan
// the plan read for add.
func runAutomations(ctx context.Context, c *ipc.Client, opts automationsOptions, plan string, stdout, stderr io.Writer) error {
	p := ipc.AutomationsParams{Op: opts.op, Name: opts.name}
	if opts.op == "add" {
		p.Ask, p.Run, p.Schedule, p.Cooldown = opts.ask, plan, opts.schedule, opts.cooldown
	}
	if raisesTrust(opts.op) {
		fmt.Fprintln(stderr, "airlock: waiting for your yes in Airlock's confirmation popup…")
	}
	raw, err := c.Call(ctx, "automations", p, nil)
	var re *ipc.RPCError
	if errors.As(err, &re) && re.Code == codeAutomation {
		return fmt.Errorf("%s: %s", refused[opts.op], re.Message)
	}
	if err != nil {
		return err
	}
	switch opts.op {
	case "list":
		if opts.json {
			fmt.Fprintf(stdout, "%s\n", raw)
			return nil
		}
		var o automation.Overview
		if err := json.Unmarshal(raw, &o); err != nil {
			return fmt.Errorf("reading the automations: %w", err)
		}
		printAutomations(stdout, o, time.Now())
		return nil
	case "run-now":
		var res automation.Result
		if err := json.Unmarshal(raw, &res); err != nil {
			return fmt.Errorf("reading the run's result: %w", err)
		}
		fmt.Fprintf(stdout, "%s: %s", opts.name, res.Status)
		if res.Request != "" {
			fmt.Fprintf(stdout, " (request %s; `airlock history` shows it)", res.Request)
		}
		if res.Error != "" {
			fmt.Fprintf(stdout, ": %s", res.Error)
		}
		fmt.Fprintln(stdout)
		if res.Status != gate.StatusOK {
			return outcomeError{res.Status}
		}
		return nil
	}
	var rep automationReply
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("reading the gate's answer: %w", err)
	}
	switch opts.op {
	case "on", "off":
		fmt.Fprintf(stdout, "automations are %s\n", onOff(rep.Enabled))
	case "remove":
		fmt.Fprintf(stdout, "removed %q\n", opts.name)
	default:
		a := rep.Automation
		if a == nil {
			return fmt.Errorf("the gate did not say what became of %q", opts.name)
		}
		verb := map[string]string{"add": "added", "enable": "turned on", "disable": "turned off"}[opts.op]
		fmt.Fprintf(stdout, "%s %q: %s, %s\n", verb, a.Name, a.Schedule, nextWords(*a, rep.Enabled, time.Now()))
		if opts.op == "disable" {
			return nil
		}
		if a.Kind == automation.KindRun {
			fmt.Fprintf(stdout, "its plan is rated %s now (the gate rates it again at each run)\n", a.Assessment.Risk)
			for _, r := range a.Assessment.Reasons {
				fmt.Fprintf(stdout, "  - %s\n", r)
			}
		} else {
			fmt.Fprintln(stdout, "a request in words: the model plans it at each run, and the gate rates that plan")
		}
	}
	return nil
}

// refused says, for each op, what did not happen when the gate refused it.
var refused = map[string]string{
	"list": "cannot list", "add": "not added", "remove": "not removed", "enable": "not turned on",
	"disable": "not turned off", "run-now": "did not run", "on": "automations not turned on", "off": "automations not turned off",
}

// raisesTrust reports whether op needs the person's yes.
func raisesTrust(op string) bool { return op == "add" || op == "enable" || op == "on" }

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// nextWords says when an automation runs next.
func nextWords(a automation.Status, enabled bool, now time.Time) string {
	switch {
	case !a.Enabled:
		return "off"
	case !enabled:
		return "on, but automations are off (airlock automations on)"
	case a.Next.IsZero():
		return "runs when Airlock starts"
	}
	return "next " + when(a.Next, now)
}

// when is a time as the list shows it.
func when(t, now time.Time) string {
	t = t.Local()
	if y, m, d := t.Date(); now.Year() == y && now.Month() == m && now.Day() == d {
		return t.Format("15:04")
	}
	return t.Format("Mon Jan 2 15:04")
}

// printAutomations writes the overview as a table.
func printAutomations(w io.Writer, o automation.Overview, now time.Time) {
	fmt.Fprintf(w, "automations: %s\n", onOff(o.Enabled))
	if len(o.Automations) == 0 {
		fmt.Fprintln(w, "none yet: airlock automations add NAME --schedule WHEN --ask \"WORDS\" (or --run FILE)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tON\tSCHEDULE\tNEXT\tLAST\tRISK")
	for _, a := range o.Automations {
		next := "-"
		switch {
		case a.Running:
			next = "running now"
		case !a.Next.IsZero():
			next = when(a.Next, now)
		case a.Enabled && o.Enabled && strings.HasPrefix(a.Schedule, "at login"):
			next = "at the next start"
		}
		last := "-"
		if r := a.Last; r != nil {
			at := r.End
			if at.IsZero() {
				at = r.Start
			}
			last = r.Status + " " + when(at, now)
			if r.Request != "" {
				last += " (" + r.Request + ")"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.Name, onOff(a.Enabled), a.Schedule, next, last, a.Assessment)
	}
	tw.Flush()
}
