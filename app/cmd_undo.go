package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/spf13/pflag"
)

// undoFlags declares airlock undo's flags.
func undoFlags(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the gate's report as JSON")
	return func(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
		return cmdUndo(ctx, fs, asJSON, stdout)
	}
}

// cmdUndo asks the running gate to undo what a request changed on disk.
// The gate does it only after the person's yes in its own confirmation
// popup: an agent can run this command too.
func cmdUndo(ctx context.Context, fs *pflag.FlagSet, asJSON *bool, stdout io.Writer) error {
	if fs.NArg() != 1 {
		return usagef("want one REQUEST (the id airlock run and airlock history show)")
	}
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintln(stdout, "airlock: waiting for your yes in Airlock's popup…")
	raw, err := c.Call(ctx, "undo", ipc.UndoParams{Request: fs.Arg(0)}, nil)
	if err != nil {
		return err
	}
	var rep gate.UndoReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("reading the gate's report: %w", err)
	}
	if *asJSON {
		fmt.Fprintf(stdout, "%s\n", raw)
	} else {
		printUndo(stdout, rep)
	}
	if len(rep.NotUndone) > 0 {
		return outcomeError{"with some paths not undone"}
	}
	return nil
}

// printUndo says path by path what an undo did. The paths are the names an
// action gave its files, written as shownField writes the history's text.
func printUndo(w io.Writer, rep gate.UndoReport) {
	for _, p := range rep.Undone {
		fmt.Fprintf(w, "undone: %s: %s\n", shownField(p.Path), shownField(p.What))
		if p.Trashed != "" {
			fmt.Fprintf(w, "   the action's version is in the Trash: %s\n", shownField(p.Trashed))
		}
	}
	for _, p := range rep.NotUndone {
		fmt.Fprintf(w, "NOT undone: %s: %s\n", shownField(p.Path), shownField(p.What))
	}
	fmt.Fprintf(w, "%s: undo of %s: %d paths undone, %d not\n", shownField(rep.Undo), shownField(rep.Request), len(rep.Undone), len(rep.NotUndone))
}

// codeUndo is the socket error code of an undo that was refused or could
// not start; its message says why.
const codeUndo = -32011

// undoConfirm is how the gate's socket asks the person before an undo:
// set by the caller before anything is served (the menu's Trust, serve's
// popups, or nobody).
type undoConfirm struct {
	confirm func(context.Context, gate.UndoQuestion) error
}

// Undo answers the socket's undo method: the gate asks the person in
// Airlock's own confirmation popup, and undoes only on their yes. An undo
// that ran reports path by path, even when some paths were not undone.
func (h gateHandler) Undo(ctx context.Context, p ipc.UndoParams) (any, error) {
	confirm := func(context.Context, gate.UndoQuestion) error {
		return errors.New("needs the person's yes in Airlock's confirmation popup, and nobody can be asked here")
	}
	if h.undo != nil && h.undo.confirm != nil {
		confirm = h.undo.confirm
	}
	rep, err := h.g.Undo(ctx, p.Request, confirm)
	if err != nil && rep.Undo == "" {
		return nil, &ipc.RPCError{Code: codeUndo, Message: "undo " + p.Request + ": " + err.Error()}
	}
	return rep, nil
}

// confirmUndo asks the person about an undo through trust: the menu's
// confirmation popup, one at a time with every change that raises trust.
// An undo is approved as an action rated caution is: it only moves things
// to and from the Trash, so the popup suffices, without the owner's
// authentication.
func confirmUndo(trust *tray.Trust) func(context.Context, gate.UndoQuestion) error {
	return func(ctx context.Context, q gate.UndoQuestion) error {
		c := policy.Change{Kind: policy.ChangeApprove, Risk: level.Caution}
		err := trust.Raise(ctx, c, tray.Question{Title: q.Title, Text: q.Text, Yes: q.Yes, Reason: "undo an action"}, func() error { return nil })
		switch {
		case err == nil:
			return nil
		case errors.Is(err, tray.ErrConfirmationOpen):
			return fmt.Errorf("another confirmation is open; try again once it is answered")
		case errors.Is(err, tray.ErrNotConfirmed):
			return fmt.Errorf("not undone: it needs the person's yes in Airlock's confirmation popup%s", strings.TrimPrefix(err.Error(), tray.ErrNotConfirmed.Error()))
		}
		return fmt.Errorf("not undone: %v", err)
	}
}
