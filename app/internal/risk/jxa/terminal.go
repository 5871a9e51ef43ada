package jxa

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// terminalCommand: iTerm's createWindowWithDefaultProfile({command: …})
// and its tab and pane siblings open a shell outside any sandbox that runs
// the command given, rated as that shell command (as Terminal's doScript
// and iTerm's write are); told to an application that is no terminal, it
// is a command Airlock does not model.
func (an *jsAn) terminalCommand(u use) {
	sp := u.sp
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		return
	}
	if apps := an.chainApps(u.toks, u.r.i); len(apps) > 0 && !facts.IsTerminal(apps[0]) {
		an.add(effect.Of(effect.Unknown), "jxa.unknown-command", sp, "command %s to %s, which Airlock does not model", jsQuote(u.r.name), rate.Display(apps[0]))
		return
	}
	if strings.HasSuffix(u.r.name, "WithProfile") && len(c.args) > 0 {
		if vs, whole := an.template(c.first, 0); whole || len(vs) != 1 || strings.Contains(vs[0], rate.HoleUnquoted) {
			an.add(effect.Of(effect.RunUnseen), "jxa.terminal-computed", sp, "TERMINAL: %s opens a profile named at run time, whose command Airlock cannot see", u.r.name)
		}
	}
	for _, a := range c.args {
		v := jsObjectValue(jsStripParens(a), "command")
		if v == nil {
			continue
		}
		an.add(effect.Of(effect.Run), "jxa.terminal", sp, "TERMINAL: %s runs a command in a new iTerm shell", u.r.name)
		vs, whole := an.template(v, 0)
		if whole {
			an.add(effect.Of(effect.RunUnseen), "jxa.terminal-computed", sp, "TERMINAL: runs a command computed at run time")
			return
		}
		for _, s := range vs {
			an.env.Languages().Shell(an.v, s, an.env, &sp, an.depth+1)
		}
		return
	}
	an.add(effect.Of(effect.Run), "jxa.terminal", sp, "TERMINAL: %s opens an iTerm window, tab or pane with its profile's shell", u.r.name)
}

// performSelector: NSObject's performSelector…(sel, …) calls the method
// sel names, rated as that method (its row here, or facts' ObjCMethods):
// a removal named by its selector is the removal. A selector computed at
// run time, or one Airlock does not model, is Dangerous.
func (an *jsAn) performSelector(u use) {
	sp := u.sp
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		an.add(effect.Of(effect.Unknown), "jxa.objc-perform", sp, "OBJC: takes %s, which calls a method by its name", u.r.name)
		return
	}
	vs, whole := an.template(c.first, 0)
	if whole || len(vs) != 1 {
		an.add(effect.Of(effect.Unknown), "jxa.objc-perform", sp, "OBJC: %s calls a method named at run time", u.r.name)
		return
	}
	sel := vs[0]
	row := rowOf(jsSelectorName(sel))
	_, fact, known := facts.LookupObjCMethod(sel)
	const format = "OBJC: %s calls %s, which %s"
	switch unmodelled := effect.Of(effect.Unknown); {
	case known && (row.rate == rNone || fact.Does.Level() > row.fx.Level()):
		if fact.Does.Level() > level.Safe {
			an.add(fact.Does, "jxa.objc-perform", sp, format, u.r.name, rate.Display(sel), fact.What)
		}
	case known:
		an.add(row.fx, "jxa.objc-perform", sp, format, u.r.name, rate.Display(sel), fact.What)
	case row.rate != rNone && row.fx.Level() >= unmodelled.Level():
		an.add(row.fx, "jxa.objc-perform", sp, format, u.r.name, rate.Display(sel), "is a method Airlock does not model")
	default:
		an.add(unmodelled, "jxa.objc-perform", sp, format, u.r.name, rate.Display(sel), "is a method Airlock does not model")
	}
}

// jsSelectorName spells an Objective-C selector as JXA does:
// removeItemAtPath:error: is removeItemAtPathError.
func jsSelectorName(sel string) string {
	parts := strings.Split(strings.TrimSuffix(sel, ":"), ":")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && p != "" {
			p = strings.ToUpper(p[:1]) + p[1:]
		}
		b.WriteString(p)
	}
	return b.String()
}
