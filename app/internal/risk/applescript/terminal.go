package applescript

import (
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// verbTerminalCommand is iTerm's create window / create tab / split …
// with … profile: a window, tab or pane that runs the command its command
// parameter gives, in a live shell outside any sandbox — rated as that
// shell command, as Terminal's do script is (terminalText). To an
// application that is no terminal it is a command Airlock does not model.
func verbTerminalCommand(an *asAn, st []asToken, i, n int, app *asApp) {
	if app != nil && (app.dynamic || app.known == nil || !facts.IsTerminal(app.known.Title)) {
		an.add(effect.Of(effect.Unknown), "as.unknown-command", span2(st, i, n), "unknown command %q to %s: cannot tell what it does",
			rate.Display(an.lx.src[st[i].start:st[i+n-1].end]), appTitle(app))
		return
	}
	depth := 0
	for j := i + n; j < len(st); j++ {
		t := st[j]
		switch {
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			depth++
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			depth--
		case depth == 0 && t.kind == asWord && an.text(t) == "command":
			terminalText(an, st, i, j+1-i, "a new window's command", "iTerm")
			return
		}
	}
	an.add(effect.Of(effect.Launch), "as.terminal", span2(st, i, n), "TERMINAL: opens an iTerm window, tab or pane with its profile's shell")
}
