package risk

import (
	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// What each command of the Action DSL does, as an effect: the reason every
// action gets (its level is the calibration table's, and agrees with the
// registry's Class the tools' descriptions show: TestDSLCommandEffects).
// What its arguments add — an existing file overwritten, a folder, a
// persistence place, a URL's scheme — is found from them (dslPath, the
// launches).
var dslEffects = map[string]effect.Effect{
	// Files. A delete goes to the Trash (DESIGN.md); a move and a copy
	// change or make items, and overwrite only what exists (dslPath).
	"MOVE_FILE":        effect.Of(effect.Change),
	"COPY_FILE":        effect.Of(effect.Create),
	"DELETE_FILE":      effect.Of(effect.Trash),
	"CREATE_FOLDER":    effect.Of(effect.Create),
	"OPEN_FILE":        effect.Of(effect.Launch),
	"REVEAL_IN_FINDER": effect.Of(effect.Show),

	// Documents: writing a file is seed 003's file_write. A write to a path
	// that does not exist yet makes a new file (Create), which the table
	// weighs lighter: kept at Overwrite until the lead calibrates it.
	"WRITE_FILE":  effect.Of(effect.Overwrite),
	"APPEND_FILE": effect.Of(effect.Overwrite),
	"WRITE_DOC":   effect.Of(effect.Overwrite),

	// Leaving the Mac: mail as the person; a URL opened carries what it
	// holds where the person can see it. The clipboard is no way out by
	// itself here (DESIGN.md: clipboard + URL; a secret on it alone is
	// Dangerous, dslSecrets), though the vocabulary's Egress names it and
	// JXA's setTheClipboardTo is one: kept as an application's state until
	// the lead calibrates the clipboard.
	"SEND_EMAIL":        effect.Of(effect.Send),
	"OPEN_URL":          effect.Of(effect.Egress),
	"COPY_TO_CLIPBOARD": effect.Of(effect.AppState),

	// Applications and the session.
	"OPEN_APP":       effect.Of(effect.Launch),
	"QUIT_APP":       effect.Of(effect.Quit),
	"ACTIVATE_APP":   effect.Of(effect.AppState),
	"RELEASE_LOCK":   effect.Of(effect.AppState), // the context lock lets go of an app
	"NOTIFY":         effect.Of(effect.Show),
	"SPEAK":          effect.Of(effect.Show),
	"SET_VOLUME":     effect.Of(effect.Setting),
	"DO_NOT_DISTURB": effect.Of(effect.Setting),

	// A shortcut's actions cannot be inspected: the auto-run contract.
	"RUN_SHORTCUT": effect.Of(effect.RunUnseen),

	// Calendar and reminders: new items.
	"CREATE_EVENT":    effect.Of(effect.Create),
	"CREATE_REMINDER": effect.Of(effect.Create),
}

// commandEffect is what the DSL command name does; a command the table
// does not know (a registry grown without it) fails closed as Unknown.
func commandEffect(name string) effect.Effect {
	if e, ok := dslEffects[name]; ok {
		return e
	}
	return effect.Of(effect.Unknown)
}

// firstTarget is what an action acts on, as the plan gives it: its first
// path, URL or application argument ("" for none).
func firstTarget(a action.Action) string {
	for i, spec := range a.Cmd.Args {
		if i >= len(a.Args) {
			break
		}
		switch spec.Kind {
		case action.KindPath, action.KindURL, action.KindApp:
			return a.Args[i]
		}
	}
	return ""
}

// refused is the sanitiser's refusal, and a plan that does not parse.
var refused = effect.Of(effect.Refused)

// placed is what putting something at p, a persistence place, does: what
// runs later is made, replaced, or changed (moved away or deleted).
func placed(p sanitize.Path, op sanitize.Op) effect.Effect {
	switch {
	case op == sanitize.OpDelete || op == sanitize.OpMoveFrom:
		return effect.Of(effect.Change, effect.Planted)
	case p.Exists:
		return effect.Of(effect.Overwrite, effect.Planted)
	}
	return effect.Of(effect.Create, effect.Planted)
}

// carry adds r to total with the warning text and at span sp, keeping its
// level and effect (a plan's total repeats its actions' reasons, each
// prefixed with its line).
func carry(total *Verdict, r Reason, sp Span, text string) {
	r.Span, r.Text = sp, text
	total.Merge(Verdict{Reasons: []Reason{r}}, nil)
}
