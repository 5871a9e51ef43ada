package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/airlockhq/airlock/bridge"
	"github.com/spf13/pflag"
)

// outcomeError is a submission that ended without every action succeeding:
// exit status 1, with the report already printed.
type outcomeError struct{ status string }

func (e outcomeError) Error() string { return "the plan ended " + e.status }

// dialGate connects to the running gate. When none runs, the error says
// how to start one, unless `airlock serve` could not start one here (no key
// store to hold the history's key): then it says that, and why.
func dialGate() (*ipc.Client, error) {
	dir, err := datadir.Data()
	if err != nil {
		return nil, err
	}
	c, err := ipc.Dial(dir)
	return c, whyNoGate(err)
}

// whyNoGate returns err, or, when no gate is running and `airlock serve`
// could not start one here, an error that says so and why.
func whyNoGate(err error) error {
	if errors.Is(err, ipc.ErrNotRunning) {
		if _, kerr := openKeyStore(); kerr != nil {
			return fmt.Errorf("%w, and `airlock serve` cannot start one here: %v; start it in a desktop session "+
				"(on Linux, one where gnome-keyring or another Secret Service runs on the session bus), or open Airlock", ipc.ErrNotRunning, kerr)
		}
	}
	return err
}

// openKeyStore opens the key store `airlock serve` needs; tests replace it.
var openKeyStore = secrets.Open

type runOptions struct {
	kind   string
	dryRun bool
	json   bool
	client string
}

// runFlags declares airlock run's flags.
func runFlags(fs *pflag.FlagSet) runFunc {
	var opts runOptions
	fs.BoolVar(&opts.dryRun, "dry-run", false, "report every decision, execute nothing")
	fs.BoolVar(&opts.json, "json", false, "print the events and the report as JSON lines")
	fs.StringVar(&opts.client, "client", "airlock run", "the name the gate records and shows for this client")
	fs.StringVar(&opts.kind, "kind", "dsl", "what FILE holds: dsl, applescript or jxa; or command, with the program and its arguments instead of FILE")
	return func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
		return cmdRun(ctx, fs, opts, stdin, stdout, stderr)
	}
}

func cmdRun(ctx context.Context, fs *pflag.FlagSet, opts runOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	var plan, dir, pathList string
	var argv []string
	switch opts.kind {
	case "command":
		if fs.NArg() == 0 {
			return usagef("--kind command wants the program and its arguments: airlock run --kind command -- ls -l")
		}
		argv = fs.Args()
		// The command runs where it was typed, with the program the
		// caller's PATH names (gate.Submission.Dir and Path).
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("reading the working folder: %w", err)
		}
		dir, pathList = wd, os.Getenv("PATH")
	case "dsl", "applescript", "jxa":
		if fs.NArg() == 0 {
			return usagef("want one FILE or - for standard input")
		}
		if opts.kind == "dsl" && fs.NArg() > 1 {
			return usagef("a plan takes no arguments after FILE")
		}
		var err error
		if plan, err = readInput(fs.Arg(0), stdin, action.MaxPlanBytes); err != nil {
			return err
		}
		argv = fs.Args()[1:]
	default:
		return usagef("--kind %q: want dsl, applescript, jxa or command", opts.kind)
	}
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	var rep gate.Report
	err = follow(ctx, c, "submit", ipc.SubmitParams{Client: opts.client, Kind: opts.kind, Plan: plan, Argv: argv, DryRun: opts.dryRun,
		Dir: dir, Path: pathList},
		opts.json, stdout, newLivePrinter(stdout, stderr).event, &rep)
	if err != nil {
		return err
	}
	if !opts.json {
		printReport(stdout, rep)
	}
	return outcome(rep.Status)
}

// follow makes one submit or ask call to the gate and follows it to its
// end: each event is printed as it comes (as a JSON line with asJSON; else
// through event first, when given, which reports whether it handled it),
// and the report is decoded into rep (and printed as JSON with asJSON).
func follow(ctx context.Context, c *ipc.Client, method string, params any, asJSON bool, stdout io.Writer,
	event func(gate.Event) bool, rep any) error {
	onEvent := func(raw json.RawMessage) {
		if asJSON {
			fmt.Fprintf(stdout, "%s\n", raw)
			return
		}
		var e gate.Event
		if json.Unmarshal(raw, &e) != nil || (event != nil && event(e)) {
			return
		}
		printEvent(stdout, e)
	}
	raw, err := c.Call(ctx, method, params, onEvent)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, rep); err != nil {
		return fmt.Errorf("reading the gate's report: %w", err)
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", raw)
	}
	return nil
}

// outcome is nil for a plan that ended ok (or as a dry run), else the
// outcomeError of its status; the report is already printed.
func outcome(status string) error {
	if status != gate.StatusOK && status != gate.StatusDryRun {
		return outcomeError{status}
	}
	return nil
}

func printEvent(w io.Writer, e gate.Event) {
	switch e.Type {
	case gate.EventAssessed:
		fmt.Fprintf(w, "%d. %s  [%s, %s]\n", e.Index+1, e.Preview, e.Risk, e.Decision)
		for _, r := range e.Reasons {
			fmt.Fprintf(w, "     - %s\n", r)
		}
	case gate.EventAwaitingApproval:
		fmt.Fprintln(w, "waiting for approval at the gate…")
	case gate.EventApproval:
		fmt.Fprintf(w, "approval: %s\n", e.Approval)
		if e.Approval == gate.StatusEdited {
			fmt.Fprintln(w, "the person edited the plan; their edit is judged from scratch:")
		}
	case gate.EventResult:
		fmt.Fprintf(w, "%d. %s: %s", e.Index+1, e.Preview, e.Status)
		if e.Error != "" {
			fmt.Fprintf(w, " (%s)", e.Error)
		}
		fmt.Fprintln(w)
		if out := strings.TrimRight(e.Output, "\n"); out != "" {
			fmt.Fprintf(w, "   %s\n", strings.ReplaceAll(out, "\n", "\n   "))
		}
	}
}

func printReport(w io.Writer, rep gate.Report) {
	for _, r := range rep.Reasons {
		fmt.Fprintf(w, "plan: %s\n", r)
	}
	fmt.Fprintf(w, "%s: %s", rep.Request, rep.Status)
	if rep.Error != "" {
		fmt.Fprintf(w, ": %s", rep.Error)
	}
	fmt.Fprintln(w)
	if rep.EditOf != "" {
		fmt.Fprintf(w, "(the person's edit of request %s, edited by %s)\n", rep.EditOf, rep.EditedBy)
	}
}

func cmdStatus(ctx context.Context, asJSON bool, _ io.Reader, stdout, _ io.Writer) error {
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	raw, err := c.Call(ctx, "status", struct{}{}, nil)
	if err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintf(stdout, "%s\n", raw)
		return nil
	}
	var st gate.Status
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("reading the gate's status: %w", err)
	}
	state := "accepting work"
	if st.Killed {
		state = "KILLED: refusing work until reset from the menu (or the gate is restarted)"
	}
	fmt.Fprintf(stdout, "gate: %s\nautonomy: %s\nrunning: %d submissions, %d actions executing, %d approvals pending\n",
		state, st.Level, st.Running, st.Executing, st.Pending)
	if st.Sandbox != "" {
		fmt.Fprintf(stdout, "sandbox: %s\n", st.Sandbox)
	}
	return nil
}

// historyFlags declares airlock history's flags. -n was Go's flag -n
// before the move to cobra, and stays the short form.
func historyFlags(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the records as JSON")
	n := fs.IntP("requests", "n", 20, "how many of the newest requests (at most 1000), each action of them one a line")
	return func(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
		return cmdHistory(ctx, fs, asJSON, n, stdout)
	}
}

func cmdHistory(ctx context.Context, fs *pflag.FlagSet, asJSON *bool, n *int, stdout io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	if *n < 1 || *n > 1000 {
		return usagef("-n %d: want 1 to 1000", *n)
	}
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	// The newest actions, as many as the gate gives, cut to the newest n
	// requests: a request of several actions counts once.
	raw, err := c.Call(ctx, "history", ipc.HistoryParams{Limit: 1000}, nil)
	if err != nil {
		return err
	}
	var all []json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return fmt.Errorf("reading the history: %w", err)
	}
	entries := make([]historyRecord, len(all))
	for i, r := range all {
		if err := json.Unmarshal(r, &entries[i]); err != nil {
			return fmt.Errorf("reading the history: %w", err)
		}
	}
	keep := newestRequests(entries, *n)
	if *asJSON {
		out := make([]json.RawMessage, 0, keep)
		out = append(out, all[:keep]...)
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return nil
	}
	for _, e := range entries[:keep] {
		fmt.Fprintln(stdout, formatEntry(e))
	}
	return nil
}

// newestRequests returns how many of entries (newest first) belong to the
// newest n requests.
func newestRequests(entries []historyRecord, n int) int {
	seen := map[string]bool{}
	for i, e := range entries {
		if !seen[e.Request] {
			if len(seen) == n {
				return i
			}
			seen[e.Request] = true
		}
	}
	return len(entries)
}

func cmdKill(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	dir, err := datadir.Data()
	if err != nil {
		return err
	}
	// The kill socket, which nothing on the gate's socket can starve.
	raw, err := ipc.Kill(ctx, dir)
	if err != nil {
		return whyNoGate(err)
	}
	var rep gate.KillReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("reading the kill report: %w", err)
	}
	fmt.Fprintf(stdout, "killed: %d submissions cancelled, %d approvals withdrawn, in %v\n",
		rep.Cancelled, rep.Approvals, rep.Took.Round(time.Microsecond))
	if rep.Escaped > 0 {
		fmt.Fprintf(stdout, "killed %d processes that had escaped their actions\n", rep.Escaped)
	}
	if rep.Stragglers > 0 {
		fmt.Fprintf(stdout, "warning: %d operations had not stopped when the gate stopped waiting\n", rep.Stragglers)
	}
	return nil
}

// auditCommand is `airlock audit` and its one subcommand.
var auditCommand = command{name: "audit", help: "check the history's audit chain for edited, deleted or reordered rows",
	flags: noFlags(func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
		return cmdAudit(ctx, fs.Args(), stdin, stdout, stderr)
	}),
	sub: []command{{name: "verify", usage: "airlock audit verify", help: "check the history's audit chain for edited, deleted or reordered rows",
		flags: noFlags(func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
			return cmdAudit(ctx, append([]string{"verify"}, fs.Args()...), stdin, stdout, stderr)
		})}},
}

func cmdAudit(ctx context.Context, args []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(args) != 1 || args[0] != "verify" {
		return usagef("the only audit command is: airlock audit verify")
	}
	dir, err := datadir.Data()
	if err != nil {
		return err
	}
	keys, err := secrets.Open()
	if err != nil {
		return fmt.Errorf("opening the key store: %w", err)
	}
	path := filepath.Join(dir, historyFile)
	if err := history.VerifyFile(path, keys); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stdout, "%s: the audit chain is intact\n", path)
	return nil
}

// jsonFlag declares a command's only flag, --json (what it prints as
// JSON is desc), for body.
func jsonFlag(desc string, body func(ctx context.Context, asJSON bool, stdin io.Reader, stdout, stderr io.Writer) error) func(*pflag.FlagSet) runFunc {
	return func(fs *pflag.FlagSet) runFunc {
		asJSON := fs.Bool("json", false, desc)
		return func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
			if fs.NArg() > 0 {
				return usagef("takes no arguments")
			}
			return body(ctx, *asJSON, stdin, stdout, stderr)
		}
	}
}

// historyRecord is one action of the history as clients see it.
type historyRecord struct {
	Request  string    `json:"request"`
	Time     time.Time `json:"time"`
	Client   string    `json:"client"`            // the name the client gave itself
	Program  string    `json:"program,omitempty"` // its program, as the OS vouched for it
	Index    int       `json:"index"`
	Action   string    `json:"action"`
	Preview  string    `json:"preview"`
	Risk     string    `json:"risk"`
	Reasons  []string  `json:"reasons"`
	Autonomy int       `json:"autonomy"`
	Decision string    `json:"decision"`
	Approval string    `json:"approval,omitempty"`
	Status   string    `json:"status"` // "pending" until the outcome is recorded
	Millis   float64   `json:"ms,omitempty"`
	Output   string    `json:"output,omitempty"`
	Error    string    `json:"error,omitempty"`
	// EditOf and EditedBy are set for a plan the person edited in the
	// approval popup: the request whose plan they edited, and who.
	EditOf   string `json:"editOf,omitempty"`
	EditedBy string `json:"editedBy,omitempty"`
}

func recordOf(e history.Entry) historyRecord {
	r := historyRecord{Request: e.Request.ID, Time: e.Decision.Time, Client: e.Request.Client, Program: e.Request.Program, Index: e.Decision.Index,
		Action: e.Decision.Action, Preview: e.Decision.Preview, Risk: e.Decision.Risk.String(), Reasons: e.Decision.Reasons,
		Autonomy: e.Decision.Autonomy, Decision: e.Decision.Decision, Status: "pending",
		EditOf: e.Request.EditOf, EditedBy: e.Request.EditedBy}
	if o := e.Outcome; o != nil {
		r.Approval, r.Status, r.Output, r.Error = o.Approval, o.Status, o.Output, o.Error
		r.Millis = float64(o.Duration.Microseconds()) / 1000
	}
	return r
}

func formatEntry(r historyRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-8s %-11s %-8s %s", r.Time.Local().Format("2006-01-02 15:04:05"), shownField(r.Status), shownField(r.Risk),
		shownField(r.Decision), shownField(r.Preview))
	if r.Approval != "" {
		fmt.Fprintf(&b, "  [%s]", shownField(r.Approval))
	}
	if r.Program != "" {
		fmt.Fprintf(&b, "  (%s — %s)", shownField(r.Client), shownField(r.Program))
	} else {
		fmt.Fprintf(&b, "  (%s)", shownField(r.Client))
	}
	if r.EditOf != "" {
		fmt.Fprintf(&b, "\n    edited: by %s, from request %s", shownField(r.EditedBy), shownField(r.EditOf))
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "\n    error: %s", shownField(r.Error))
	}
	return b.String()
}

// shownField is one field of the history as the terminal shows it: an
// action's error holds what its command wrote to standard error, which an
// unasked command chooses, so its newlines and every control and format
// character (terminal escapes, bidi overrides) are written as ⟨U+XXXX⟩,
// as the terminal prompter writes them, and nothing of it can move the
// cursor, erase a line or fake one (a sixth red team's find,
// TestRed4HistoryShowsWhatRan).
func shownField(s string) string {
	return bridge.EscapeBlock(strings.ReplaceAll(s, "\n", "⟨U+000A⟩"))
}
