package jxa

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// Commands to applications Airlock knows. A JXA command is a call on a
// chain rooted at Application('X'): a row of the table rates it (rules.go);
// otherwise its first word is looked up among the application's own verbs
// (facts.Apps, where the AppleScript analyzer reads them too), the Standard
// Suite and Standard Additions. A call with arguments that is none of those
// is a command Airlock does not model: Dangerous, by the auto-run contract.
// A call without arguments reads a property or elements (JXA spells
// x.name() for get name of x), so it is not rated; nor is a capitalised
// one, which makes an element (Document({…})) that only a row's push or
// make adds.

// knownApp is the application named by the arguments of Application(…),
// when every name it can have is one Airlock knows and they are one app.
func (an *jsAn) knownApp(args []jsToken) *facts.App {
	var info *facts.App
	for _, n := range an.appNames(args) {
		i := facts.AppInfo(n)
		if i == nil || info != nil && i != info {
			return nil
		}
		info = i
	}
	return info
}

// commandChain rates the calls in the chain after toks[k], on the known
// application info, up to the first call that reads (its result is a
// JavaScript value, whose methods are JavaScript's).
func (an *jsAn) commandChain(toks []jsToken, k int, info *facts.App) {
	for steps := 0; steps < 64 && k+2 < len(toks); steps++ {
		var name string
		switch {
		case toks[k+1].text == "." && toks[k+2].kind == jsIdent:
			name = toks[k+2].text
			k += 2
		case toks[k+1].text == "[":
			m := jsMatch(toks, k+1)
			if m < 0 {
				return
			}
			k = m
			continue
		default:
			return
		}
		if k+1 >= len(toks) || toks[k+1].text != "(" {
			continue
		}
		m := jsMatch(toks, k+1)
		if m < 0 {
			return
		}
		args := m > k+2
		if an.command(toks, k, name, args, info) == cmdRead {
			return
		}
		k = m
	}
}

type cmdKind uint8

const (
	cmdRead  cmdKind = iota // a read: the chain ends in a value
	cmdKnown                // a command: the chain goes on
)

// command rates the call of name at toks[k] on info. A call without
// arguments ends the chain the walk follows: what it returns is a value.
func (an *jsAn) command(toks []jsToken, k int, name string, args bool, info *facts.App) cmdKind {
	an.rateCommand(toks, k, name, args, info)
	if !args {
		return cmdRead
	}
	return cmdKnown
}

func (an *jsAn) rateCommand(toks []jsToken, k int, name string, args bool, info *facts.App) {
	switch {
	case rowOf(name).rate != rNone:
		return // its row rates it
	case name == "call" || name == "apply" || name == "bind":
		return
	case name[0] >= 'A' && name[0] <= 'Z':
		return // an element made, not yet added
	}
	first := jsFirstWord(name)
	if e, ok := info.Does[first]; ok {
		if e.Level() >= level.Dangerous {
			an.add(e, "jxa.app-command", jsSpan(toks[k]), "command %s to %s, rated %s like its AppleScript form", jsQuote(name), info.Title, e.Level())
		}
		return
	}
	if !args || jsAppRead(name) || facts.AppVerbs[first] || facts.StandardAdditions[first] {
		return
	}
	an.add(effect.Of(effect.Unknown), "jxa.unknown-command", jsSpan(toks[k]), "command %s to %s, which Airlock does not model", jsQuote(name), info.Title)
}

// jsFirstWord is the first word of a camel-case name, lower case:
// shutDown → shut, doJavaScript → do.
func jsFirstWord(name string) string {
	for i := 1; i < len(name); i++ {
		if name[i] >= 'A' && name[i] <= 'Z' {
			return strings.ToLower(name[:i])
		}
	}
	return strings.ToLower(name)
}
