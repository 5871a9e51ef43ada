package interp

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Lang is a language the package reads.
type Lang uint8

// The languages.
const (
	Python Lang = iota + 1
	Perl
	Ruby
	PHP
	JS
	Swift
	Lua
	Tcl
	R
)

var langNames = [...]string{"", "Python", "Perl", "Ruby", "PHP", "JavaScript", "Swift", "Lua", "Tcl", "R"}

func (l Lang) String() string {
	if int(l) < len(langNames) {
		return langNames[l]
	}
	return "?"
}

// LangOf is the language of an interpreter by its command name, lower
// case, as the shell analyzer sees it ("python3.12", "perl5.34", "node"),
// or 0 for a program that is none of them.
func LangOf(cmd string) Lang {
	switch {
	case strings.HasPrefix(cmd, "python") || strings.HasPrefix(cmd, "pypy"):
		return Python
	case strings.HasPrefix(cmd, "perl"):
		return Perl
	case strings.HasPrefix(cmd, "ruby") || cmd == "jruby" || cmd == "truffleruby":
		return Ruby
	case strings.HasPrefix(cmd, "php"):
		return PHP
	case cmd == "node" || cmd == "nodejs" || cmd == "deno" || cmd == "bun":
		return JS
	case cmd == "swift":
		return Swift
	case strings.HasPrefix(cmd, "lua"):
		return Lua
	case cmd == "tclsh" || cmd == "wish" || strings.HasPrefix(cmd, "tclsh"):
		return Tcl
	case cmd == "rscript" || cmd == "r":
		return R
	}
	return 0
}

// Kind is what an effect does: a kind of the one vocabulary every analyzer
// speaks (package effect).
type Kind = effect.Kind

// The kinds interp finds, by the names its tables (apis.go) and the shell
// analyzer (shell/rows_code.go) use for them.
const (
	Remove = effect.Remove    // deletes the target, not to the Trash (Tree: a folder and all it holds)
	Trash  = effect.Trash     // moves the target to the Trash
	Write  = effect.Overwrite // creates the target or replaces what it held (which, the code does not say)
	Append = effect.Change    // adds to the end of the target
	Read   = effect.Read      // reads the target
	Run    = effect.Run       // runs a command: Target is shell text (Shell) or Argv a program and its arguments
	Net    = effect.Fetch     // talks to the network (Target: the address, when the code names it)
	Eval   = effect.RunUnseen // runs code built from text, or loads code from a file (Target: that code, when literal)
	Decode = effect.Decode    // decodes data (base64, hex, compression), which code run from text may be
)

// Kinds are the kinds interp finds.
var Kinds = []Kind{Remove, Trash, Write, Append, Read, Run, Net, Eval, Decode}

// Hole stands in a target for a part computed at run time (the shell
// analyzer's rate.HoleMark).
const Hole = "\x00"

// Effect is one thing the code does.
type Effect struct {
	Kind   Kind
	API    string   // the call as the code names it, qualified: "shutil.rmtree"
	Target string   // the path, command, code or address; Hole where a part is computed, "" when none of it is known
	Argv   []string // Run: the program and its arguments, when given as a list (Hole in computed ones)
	Shell  bool     // Run: Target is text a shell runs
	Tree   bool     // Remove: recursive, a folder and everything in it
	Off    int      // where in the code the call is
}

// Shared is e in the vocabulary every analyzer speaks: its kind, a removal
// of a folder and all it holds as Bulk, a target the code does not spell
// entirely as Computed (with "…" where a part is computed), a command
// given as a list as its words.
func (e Effect) Shared() effect.Effect {
	out := effect.Effect{Kind: e.Kind}
	if e.Tree {
		out.Mods |= effect.Bulk
	}
	t := e.Target
	if e.Kind == Run && e.Argv != nil {
		t = strings.Join(e.Argv, " ")
	}
	if !e.Known() {
		out.Mods |= effect.Computed
	}
	out.Target = strings.ReplaceAll(t, Hole, "…")
	return out
}

// Known reports a target spelled entirely in the code.
func (e Effect) Known() bool {
	if e.Kind == Run && e.Argv != nil {
		for _, a := range e.Argv {
			if strings.Contains(a, Hole) {
				return false
			}
		}
		return len(e.Argv) > 0
	}
	return e.Target != "" && !strings.Contains(e.Target, Hole)
}

// Bounds of one reading.
const (
	MaxTokens  = 1 << 16 // tokens read from one program; the rest is not read
	MaxEffects = 64      // effects reported
	maxNest    = 4       // interpolations and eval'd literals inside each other
)
