package jxa

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// JXA keys: keystroke and keyCode rated by the shortcut they press (the key
// and the modifiers of {using: …}, followed through variables and pushes),
// and key codes typed into a terminal.

// jsKeys returns what the key argument of keystroke/keyCode can be.
func (an *jsAn) jsKeys(c jsCall, code bool) (keys []string, computed bool) {
	first := jsStripParens(c.first)
	if len(first) == 1 && first[0].kind == jsNumber {
		return []string{facts.KeyName("code:" + first[0].text)}, false
	}
	v := an.evalExpr(first, 0)
	var vs []string
	if v.arr {
		for _, e := range v.elems {
			vs = append(vs, e...)
		}
	} else {
		vs = an.strs(v)
	}
	for _, s := range vs {
		if strings.Contains(s, rate.HoleUnquoted) || strings.Contains(s, rate.HoleQuoted) || strings.Contains(s, jsComputed) {
			computed = true
			continue
		}
		if code {
			s = "code:" + strings.TrimSpace(s)
		}
		keys = append(keys, facts.KeyName(s))
	}
	return keys, computed
}

// jsMods reads the modifiers of {using: …}: strings written there, in the
// variables it names and in what is pushed onto them.
func (an *jsAn) jsMods(c jsCall) map[string]bool {
	mods := map[string]bool{}
	if len(c.args) < 2 {
		return mods
	}
	var walk func(ts []jsToken, depth int)
	walk = func(ts []jsToken, depth int) {
		for k, x := range ts {
			switch {
			case x.kind == jsString:
				if m, ok := strings.CutSuffix(strings.ToLower(strings.TrimSpace(x.val)), " down"); ok {
					mods[m] = true
				}
			case x.kind == jsIdent && depth < 3 && (k == 0 || ts[k-1].text != "."):
				for _, d := range an.defs[x.text] {
					walk(d.expr, depth+1)
					for _, p := range d.push {
						walk(p, depth+1)
					}
				}
			}
		}
	}
	walk(c.args[1], 0)
	return mods
}

// keys rates a keystroke or keyCode call.
func (an *jsAn) keys(toks []jsToken, i int, code bool, sp rate.Span) {
	c := an.invocation(toks, i)
	if !c.ok {
		return
	}
	keys, computed := an.jsKeys(c, code)
	mods := an.jsMods(c)
	if computed && (mods["command"] || mods["control"]) {
		an.add(effect.Of(effect.Unknown), "jxa.shortcut-computed", sp, "KEYSTROKE: a shortcut whose key is computed at run time: cannot tell what it does")
	}
	if code && an.typesIntoTerminal(toks, i) && !mods["command"] && !mods["control"] {
		an.add(effect.Of(effect.Input, effect.Terminal), "jxa.typed-command", sp, "TERMINAL: types key codes into a terminal window, where they run as a command")
	}
	finder := false
	for _, t := range toks {
		if t.kind == jsString && strings.EqualFold(t.val, "finder") {
			finder = true
			break
		}
	}
	for _, key := range keys {
		del, quit := key == "delete", key == "q"
		switch {
		case del && mods["command"] && mods["shift"]:
			// In the Finder it empties the Trash; elsewhere what it does
			// depends on the application in front, which cannot be told.
			e := effect.Of(effect.Unknown)
			if finder {
				e = effect.Of(effect.Remove, effect.Bulk)
			}
			an.add(e, "jxa.shortcut-empty-trash", sp, "KEYSTROKE: Command-Shift-Delete empties the Trash in the Finder")
		case del && mods["command"] && finder:
			an.add(effect.Of(effect.Trash), "jxa.shortcut-trash", sp, "KEYSTROKE: Command-Delete in the Finder moves the selection to the Trash")
		case quit && mods["command"] && mods["shift"]:
			an.add(effect.Of(effect.Power), "jxa.shortcut-logout", sp, "KEYSTROKE: Command-Shift-Q logs out")
		case quit && mods["command"] && (mods["option"] || an.inLoop(toks[i])):
			an.add(effect.Of(effect.Quit, effect.Bulk), "jxa.quit-all", sp, "QUIT ALL APPS: Command-Q typed in a loop or with Option: quits applications without asking")
		case key == "escape" && mods["command"] && mods["option"]:
			an.add(effect.Of(effect.Signal, effect.Forced), "jxa.shortcut-force-quit", sp, "KEYSTROKE: Command-Option-Escape opens Force Quit")
		}
	}
}

// menuByPosition reports a click on a menu item picked by its index
// (menuItems[5], menuItems()[n], menuItems.at(-1)), in the chain the call
// is made on or in a variable that chain starts from.
func (an *jsAn) menuByPosition(toks []jsToken, i int) bool {
	from := i
	for from > 0 && i-from < 80 {
		if t := toks[from-1].text; t == ";" || t == "{" || t == "}" {
			break
		}
		from--
	}
	return an.menuIndexIn(toks[from:i], 0)
}

// menuIndexIn reports a menu item picked by its index in ts, or in the
// variables ts names, followed depth deep (at most 2).
func (an *jsAn) menuIndexIn(ts []jsToken, depth int) bool {
	for k, x := range ts {
		if x.kind != jsIdent {
			continue
		}
		if x.text == "menuItems" && menuIndexAfter(ts[k+1:]) {
			return true
		}
		bare := k == 0 || ts[k-1].text != "."
		if bare && k+2 < len(ts) && ts[k+1].text == "[" && ts[k+2].kind != jsString && an.holdsMenuItems(x.text) {
			return true // items[n], where items = ….menuItems()
		}
		if bare && depth < 2 {
			for _, d := range an.defs[x.text] {
				if an.menuIndexIn(d.expr, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// menuIndexAfter reports that what follows menuItems picks one by its
// index: [n] (not a name), or .at, .pop, .shift, after an optional ().
func menuIndexAfter(n []jsToken) bool {
	if len(n) > 2 && n[0].text == "(" && n[1].text == ")" {
		n = n[2:]
	}
	switch {
	case len(n) > 1 && n[0].text == "[" && n[1].kind != jsString:
		return true
	case len(n) > 1 && n[0].text == "." && (n[1].text == "at" || n[1].text == "pop" || n[1].text == "shift"):
		return true
	}
	return false
}

// holdsMenuItems reports a variable given a chain that names menuItems.
func (an *jsAn) holdsMenuItems(name string) bool {
	for _, d := range an.defs[name] {
		for _, y := range d.expr {
			if y.kind == jsIdent && y.text == "menuItems" {
				return true
			}
		}
	}
	return false
}
