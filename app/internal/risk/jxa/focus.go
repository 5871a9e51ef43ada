package jxa

import "github.com/airlockhq/airlock/app/internal/risk/facts"

// Where typed keys go. System Events types into the frontmost application:
// into a terminal the text runs as a command (the shell analysis reads it),
// into any other application it is keys. The frontmost application is the
// one the script last brought to the front — Application('X').activate(),
// a process's frontmost = true — when the analyzer can tell the order:
// the keystroke and every terminal brought to the front are in the
// script's top level, where tokens run in the order written. Otherwise a
// script that drives a terminal anywhere types commands (fail closed).

// jsFocus is what the script brings to the front, in token order.
type jsFocus struct {
	events   []jsFocusEvent
	unsure   bool // a terminal is brought to the front inside a function or block
	terminal bool // a terminal is brought to the front somewhere, by name
}

type jsFocusEvent struct {
	at       int  // token index
	terminal bool // the application is a terminal (or cannot be told)
}

// typesIntoTerminal reports that keys typed at toks[i] may go to a terminal.
func (an *jsAn) typesIntoTerminal(toks []jsToken, i int) bool {
	f := an.focuses(toks)
	if !an.terminal && !f.terminal {
		return false
	}
	if f.unsure || jsEnclosing(toks, i) >= 0 {
		return true
	}
	last := -1
	for k, e := range f.events {
		if e.at < i {
			last = k
		}
	}
	return last < 0 || f.events[last].terminal
}

// focuses finds the applications brought to the front.
func (an *jsAn) focuses(toks []jsToken) *jsFocus {
	if an.focus != nil {
		return an.focus
	}
	f := &jsFocus{}
	an.focus = f
	for i := 2; i < len(toks); i++ {
		t := toks[i]
		if t.kind != jsIdent || toks[i-1].text != "." {
			continue
		}
		var names []string
		switch {
		case t.text == "activate" && i+1 < len(toks) && toks[i+1].text == "(":
			names = an.chainApps(toks, i-2)
		case t.text == "frontmost" && i+2 < len(toks) && toks[i+1].text == "=" && toks[i+2].text != "=" && !jsFalsy(toks[i+2:i+3]):
			names = an.processNames(toks, i-2, 0)
		case t.text == "perform" && i+1 < len(toks) && toks[i+1].text == "(" && raises(toks[jsChainStart(toks, i-2):i]):
			// se.processes['Terminal'].windows[0].actions['AXRaise'].perform():
			// the window, and its application, come to the front.
			names = an.processNames(toks, i-2, 0)
		case (t.text == "activateWithOptions" || t.text == "activateFromApplicationOptions") && i+1 < len(toks) && toks[i+1].text == "(":
			// NSRunningApplication's activate, on the application the chain
			// named by bundle identifier or name.
			names = chainStrings(toks[jsChainStart(toks, i-2):i])
		default:
			continue
		}
		named := false
		for _, n := range names {
			named = named || facts.IsTerminal(n) || facts.Terminals[n]
		}
		f.terminal = f.terminal || named
		term := named || len(names) == 0 // an application that cannot be told may be one
		if term && jsEnclosing(toks, i) >= 0 {
			f.unsure = true
		}
		f.events = append(f.events, jsFocusEvent{at: i, terminal: term})
	}
	return f
}

// processNames returns the process a chain ending at toks[i] names
// (se.processes['Code'], se.processes.byName('Code'), or a variable holding
// one, followed a few definitions deep: a variable defined by itself ends
// there), or the application it is rooted at.
func (an *jsAn) processNames(toks []jsToken, i, depth int) []string {
	chain := toks[jsChainStart(toks, i) : i+1]
	if len(chain) == 1 && chain[0].kind == jsIdent {
		if depth > 4 {
			return nil
		}
		var out []string
		for _, d := range an.defs[chain[0].text] {
			if len(d.expr) > 0 {
				out = append(out, an.processNames(d.expr, len(d.expr)-1, depth+1)...)
			}
		}
		return out
	}
	for k, x := range chain {
		if x.kind != jsIdent || x.text != "processes" || k+1 >= len(chain) {
			continue
		}
		rest := chain[k+1:]
		switch {
		case rest[0].text == "[" && len(rest) > 2:
			if m := jsMatch(rest, 0); m > 1 {
				return an.appNames(rest[1:m])
			}
		case rest[0].text == "." && len(rest) > 3 && rest[1].text == "byName" && rest[2].text == "(":
			if m := jsMatch(rest, 2); m > 3 {
				return an.appNames(rest[3:m])
			}
		}
		return nil
	}
	return an.chainApps(toks, i)
}

// raises reports a chain of System Events' UI elements that ends in the
// AXRaise action: performing it brings the window to the front.
func raises(chain []jsToken) bool {
	for _, x := range chain {
		if x.kind == jsString && x.val == "AXRaise" || x.kind == jsIdent && x.text == "AXRaise" {
			return true
		}
	}
	return false
}

// chainStrings returns the string literals of a chain:
// $.NSRunningApplication.runningApplicationsWithBundleIdentifier('com.apple.Terminal').
func chainStrings(chain []jsToken) []string {
	var out []string
	for _, x := range chain {
		if x.kind == jsString {
			out = append(out, x.val)
		}
	}
	return out
}
