package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// forwarding is the state of a forwarder's body under analysis: where it
// is defined (its "$@" stands for nothing yet: each call rates it), or at
// a call, with the call's words.
type forwarding struct {
	defining bool
	args     []word
}

// maxForward bounds forwarders calling forwarders: f f f … rm is rated as
// a command computed at run time past it.
const maxForward = 4

// forwards reports a function body that runs its arguments as a command
// ("$@" or "$*" heading a command: run() { echo "+ $*"; "$@"; }) and
// leaves the positional parameters as they came: no shift, set or getopts,
// no "$1" as a command, no function defined inside.
func forwards(body *syntax.Stmt) bool {
	found, bad := false, false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			bad = true
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			switch n.Args[0].Lit() {
			case "shift", "set", "getopts":
				bad = true
			}
			if allArgs(n.Args[0]) {
				found = true
			} else if positional(n.Args[0]) {
				bad = true
			}
		}
		return !bad
	})
	return found && !bad
}

// allArgs reports a word that is exactly "$@", $@, "$*" or $* (braces
// allowed): all the arguments, unchanged.
func allArgs(w *syntax.Word) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return false
		}
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	return ok && plainParam(pe) && (pe.Param.Value == "@" || pe.Param.Value == "*")
}

// positional reports a word that uses a positional parameter: "$1",
// ${2:-x}, "${@:2}".
func positional(w *syntax.Word) bool {
	pos := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
			v := pe.Param.Value
			if v == "@" || v == "*" || v == "#" || v != "" && strings.Trim(v, "0123456789") == "" {
				pos = true
			}
		}
		return !pos
	})
	return pos
}

// wordCounts counts the places each function of decls is named as a
// whole word in src, in one pass: not inside a longer name (run in runner,
// my_run or run.sh).
func wordCounts(src string, decls []*syntax.FuncDecl) map[string]int {
	counts := make(map[string]int, len(decls))
	for _, d := range decls {
		counts[d.Name.Value] = 0
	}
	for i := 0; i < len(src); {
		if !funcNameByte(src[i]) {
			i++
			continue
		}
		j := i
		for j < len(src) && funcNameByte(src[j]) {
			j++
		}
		if n, ok := counts[src[i:j]]; ok {
			counts[src[i:j]] = n + 1
		}
		i = j
	}
	return counts
}

// funcNameByte reports a byte that may continue a function's name (bytes
// of non-ASCII letters included) or a path around it.
func funcNameByte(c byte) bool { return nameByte(c) || c == '-' || c == '.' || c == '/' || c >= 0x80 }
