package jxa

import (
	"slices"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Row is a row of methods, for the tests of package jxa_test.
type Row struct {
	Name   string
	Rule   string
	Level  level.Level   // the calibrated level of Effect
	Effect effect.Effect // what calling it does
	Does   []effect.Kind // what else its function may find
	Ref    effect.Effect // what a reference not followed to a call implies
	Rater  int           // the function it names: 0 is none
	CFunc  bool
	Code   bool // it runs code or a shell command
	Reads  []int
	Writes []int
	Opts   []string // the options keys it models
	Elems  bool     // its arguments are elements, never options
}

// Rows lists the table; every row must be found by rowOf.
func Rows() []Row {
	var out []Row
	for name, m := range methods {
		if rowOf(name) != m {
			panic("rowOf does not find " + name)
		}
		kinds := append([]effect.Kind{m.fx.Kind}, m.does...)
		out = append(out, Row{Name: name, Rule: m.rule, Level: m.fx.Level(), Effect: m.fx, Does: m.does, Ref: m.ref,
			Rater: int(m.rate), CFunc: m.cfunc, Code: slices.ContainsFunc(kinds, runsCode),
			Reads: m.reads, Writes: m.writes, Opts: m.opts, Elems: m.elems})
	}
	return out
}

// runsCode reports that an effect of kind k runs code or a command.
func runsCode(k effect.Kind) bool {
	switch k {
	case effect.Run, effect.Shell, effect.RunUnseen, effect.RunComputed, effect.LoadCode:
		return true
	}
	return false
}

// NRaters is the number of functions a row may name, plus one.
const NRaters = int(nRaters)

// Name reports that the lexer reads s as one name: a row keyed by anything
// else can never be met.
func Name(s string) bool {
	lx := lexJS(s)
	return len(lx.toks) == 1 && lx.toks[0].kind == jsIdent && lx.toks[0].text == s
}

// RatersMissing lists the raters (1 … NRaters-1) that name no function.
func RatersMissing() []int {
	var out []int
	for r := rNone + 1; r < nRaters; r++ {
		if raters[r] == nil {
			out = append(out, int(r))
		}
	}
	return out
}
