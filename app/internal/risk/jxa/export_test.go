package jxa

import "github.com/airlockhq/airlock/app/internal/level"

// Row is a row of methods, for the tests of package jxa_test.
type Row struct {
	Name   string
	Rule   string
	Level  level.Level
	Rater  int // the function it names: 0 is none
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
		out = append(out, Row{Name: name, Rule: m.rule, Level: m.level, Rater: int(m.rate), CFunc: m.cfunc,
			Code: m.does&(runsCode|runsShell) != 0, Reads: m.reads, Writes: m.writes, Opts: m.opts, Elems: m.elems})
	}
	return out
}

// NRaters is the number of functions a row may name, plus one.
const NRaters = int(nRaters)

// Name reports that the lexer reads s as one name: a row keyed by anything
// else can never be met.
func Name(s string) bool {
	lx := lexJS(s)
	return len(lx.toks) == 1 && lx.toks[0].kind == jsIdent && lx.toks[0].text == s
}
