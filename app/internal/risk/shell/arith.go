package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic evaluates text as code. bash and zsh evaluate a variable
// named in $((…)), ((…)), let, [[ … -eq … ]] or an array subscript by
// evaluating its value as an expression in turn, and the subscript of an
// array in that value is expanded, $(…) included:
//
//	x='a[$(rm -rf ~)]'; echo $((x))
//
// runs rm although no command line names it. So a variable assigned a
// literal that holds a command substitution, once it reaches arithmetic,
// is analysed as the shell it runs. A value that names another variable
// is followed, as the shells do.

// maxArithVars bounds how many variables one expression's evaluation is
// followed through.
const maxArithVars = 64

// arith analyses the variables arithmetic node n evaluates.
func (a *shellAn) arith(n syntax.Node) {
	if n == nil {
		return
	}
	sp := a.span(n)
	seen := map[string]bool{}
	syntax.Walk(n, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false // walkSubst analyses these
		case *syntax.ParamExp:
			if m.Param != nil && !m.Length { // ${#x} is a number, not x's text
				a.arithVar(m.Param.Value, sp, seen)
			}
			if m.Index != nil {
				a.arith(m.Index)
			}
			if m.Slice != nil {
				a.arith(m.Slice.Offset)
				a.arith(m.Slice.Length)
			}
			return false // its name is not a variable evaluated as arithmetic
		case *syntax.Lit:
			if arithName(m.Value) {
				a.arithVar(m.Value, sp, seen)
			}
		}
		return true
	})
}

// arithTest analyses the arithmetic comparisons of a [[ … ]] test
// (-eq, -ne, -lt, -le, -gt, -ge), whose operands are evaluated as
// arithmetic; the others compare text.
func (a *shellAn) arithTest(t *syntax.TestClause) {
	syntax.Walk(t, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.BinaryTest:
			switch m.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				a.arith(m.X)
				a.arith(m.Y)
			}
		}
		return true
	})
}

// arithVar analyses what evaluating variable name as arithmetic runs;
// seen holds the variables already followed from this expression, so each
// is analysed once however often values name it.
func (a *shellAn) arithVar(name string, sp Span, seen map[string]bool) {
	v, ok := a.vars[name]
	if !ok || seen[name] || len(seen) >= maxArithVars {
		return
	}
	seen[name] = true
	switch {
	case strings.Contains(v, "$(") || strings.Contains(v, "`"):
		// ": text" makes the shell expand the value's words: what the
		// subscript's substitutions run is what the analysis sees. Once
		// per variable, however often arithmetic names it.
		if a.arithRun[name] || !a.spend(1) {
			return
		}
		if a.arithRun == nil {
			a.arithRun = map[string]bool{}
		}
		a.arithRun[name] = true
		a.nestedText(": "+v, sp, "arithmetic evaluation of $"+name)
	case arithName(v):
		a.arithVar(v, sp, seen)
	default:
		// a[b] or an expression naming variables: each is evaluated.
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r > 127 || !isIdent(byte(r)) || r == '$' }) {
			if arithName(f) {
				a.arithVar(f, sp, seen)
			}
		}
	}
}

// arithName reports a shell variable's name: a letter or _, then letters,
// digits or _.
func arithName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '$' || !isIdent(c) {
			return false
		}
	}
	return true
}
