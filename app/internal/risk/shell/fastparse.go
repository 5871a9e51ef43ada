package shell

import (
	"mvdan.cc/sh/v3/syntax"
)

// Most command lines an agent sends are one short command, or a pipeline
// of a few: `date +%Y-%m-%d`, `df -h '/Users/me' | tail -1`. For those,
// building a parser's state costs more than the analysis. quickParse
// recognises a narrow form and builds the very tree mvdan.cc/sh's bash
// parser builds for it, positions included, so the analysis that reads the
// tree cannot tell the two apart: FuzzQuickParse checks every input it
// accepts against the parser, tree and verdict. Anything else, it declines
// and the parser reads the text.
//
// The form, on one line:
//
//	line     = blanks? command (blanks? "|" blanks? command)* blanks?
//	command  = word (blanks word)*
//	word     = (plain+ | "'" quoted* "'")+
//	plain    = A-Z a-z 0-9 _ . / : = + , @ % -
//	quoted   = printable ASCII but '  (the parser reads some other
//	           characters as its own marks: U+0080 ends its input)
//	blanks   = (space | tab)+
//
// A command's first word is neither a reserved word nor a builtin the
// parser reads as syntax of its own (quickSpecial), and holds no = (an
// assignment). Everything the parser treats specially in a word is outside
// plain: $ ` \ " { } [ ] * ? ~ # ! ( ) < > & ; and the line's end.

// quickParsing turns quickParse on; the differential tests turn it off to
// have the parser read every input.
var quickParsing = true

// quickPlain marks the bytes of plain.
var quickPlain = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "_./:=+,@%-" {
		t[c] = true
	}
	return t
}()

// quickSpecial are the first words the parser reads as more than a command
// name: bash's reserved words, and the builtins it parses (declarations,
// let, and the test and arithmetic openers, which plain excludes anyway).
var quickSpecial = map[string]bool{
	"if": true, "then": true, "elif": true, "else": true, "fi": true, "for": true, "in": true,
	"do": true, "done": true, "while": true, "until": true, "case": true, "esac": true,
	"function": true, "select": true, "time": true, "coproc": true,
	"declare": true, "local": true, "export": true, "readonly": true, "typeset": true, "nameref": true,
	"let": true, "eval": true, "alias": true, "unalias": true, "builtin": true, "command": true,
}

// quickMax bounds the text quickParse tries: past it, the parser's setup
// is a small part of the cost anyway.
const quickMax = 4096

// quickCounts are what a first pass over the text finds, so that the tree's
// nodes are made in a few arrays.
type quickCounts struct {
	cmds, words, lits, quotes int
}

// quickParse returns the tree mvdan.cc/sh's bash parser builds for src when
// src has the form above; ok is false otherwise.
func quickParse(src string) (f *syntax.File, ok bool) {
	n, ok := quickScan(src)
	if !ok {
		return nil, false
	}
	return quickBuild(src, n), true
}

// quickScan checks src against the form and counts its nodes.
func quickScan(src string) (n quickCounts, ok bool) {
	if len(src) > quickMax {
		return n, false
	}
	i := skipBlanks(src, 0)
	for {
		// One command: its words up to a | or the end.
		first := true
		for i < len(src) && src[i] != '|' {
			start := i
			for i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '|' {
				switch c := src[i]; {
				case c == '\'':
					j := i + 1
					for j < len(src) && src[j] != '\'' {
						if src[j] < 0x20 || src[j] >= 0x7f {
							// Not printable ASCII: the parser's reader
							// takes U+0080 and U+0081 for marks of its own.
							return n, false
						}
						j++
					}
					if j == len(src) {
						return n, false // unclosed
					}
					n.quotes++
					i = j + 1
				case quickPlain[c]:
					for i < len(src) && quickPlain[src[i]] {
						i++
					}
					n.lits++
				default:
					return n, false
				}
			}
			if first {
				w := src[start:i]
				if quickSpecial[w] || containsByte(w, '=') {
					return n, false
				}
				first = false
			}
			n.words++
			i = skipBlanks(src, i)
		}
		if first {
			return n, false // no command: "| x", "a ||", ""
		}
		n.cmds++
		if i == len(src) {
			return n, true
		}
		i = skipBlanks(src, i+1) // past the |
	}
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// quickPos is the parser's position of offset i on the one line.
func quickPos(i int) syntax.Pos { return syntax.NewPos(uint(i), 1, uint(i)+1) }

// quickBuild builds the tree of src, which quickScan accepted with counts
// n: a statement for each command, pipelines nested to the left as the
// parser nests them ((a | b) | c).
func quickBuild(src string, n quickCounts) *syntax.File {
	var (
		stmts  = make([]syntax.Stmt, 2*n.cmds-1) // the commands, then the pipelines
		calls  = make([]syntax.CallExpr, n.cmds)
		words  = make([]syntax.Word, n.words)
		args   = make([]*syntax.Word, n.words)
		parts  = make([]syntax.WordPart, n.lits+n.quotes)
		lits   = make([]syntax.Lit, n.lits)
		bins   []syntax.BinaryCmd
		quotes []syntax.SglQuoted
	)
	if n.cmds > 1 {
		bins = make([]syntax.BinaryCmd, n.cmds-1)
	}
	if n.quotes > 0 {
		quotes = make([]syntax.SglQuoted, n.quotes)
	}
	var wi, pi, li, qi int // the next word, part, literal and quote
	var top *syntax.Stmt
	pipe := 0 // where the last | is
	i := skipBlanks(src, 0)
	for c := 0; c < n.cmds; c++ {
		cmd := &stmts[c]
		*cmd = syntax.Stmt{Cmd: &calls[c], Position: quickPos(i)}
		a0 := wi
		for i < len(src) && src[i] != '|' {
			p0 := pi
			for i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '|' {
				j := i + 1
				if src[i] == '\'' {
					for src[j] != '\'' {
						j++
					}
					q := &quotes[qi]
					*q = syntax.SglQuoted{Left: quickPos(i), Right: quickPos(j), Value: src[i+1 : j]}
					parts[pi] = q
					qi++
					j++
				} else {
					for j < len(src) && quickPlain[src[j]] {
						j++
					}
					l := &lits[li]
					*l = syntax.Lit{ValuePos: quickPos(i), ValueEnd: quickPos(j), Value: src[i:j]}
					parts[pi] = l
					li++
				}
				pi++
				i = j
			}
			words[wi].Parts = parts[p0:pi:pi]
			args[wi] = &words[wi]
			wi++
			i = skipBlanks(src, i)
		}
		calls[c].Args = args[a0:wi:wi]
		if top == nil {
			top = cmd
		} else {
			b := &bins[c-1]
			*b = syntax.BinaryCmd{OpPos: quickPos(pipe), Op: syntax.Pipe, X: top, Y: cmd}
			joined := &stmts[n.cmds+c-1]
			*joined = syntax.Stmt{Cmd: b, Position: top.Position}
			top = joined
		}
		if i < len(src) {
			pipe = i
			i = skipBlanks(src, i+1)
		}
	}
	return &syntax.File{Stmts: []*syntax.Stmt{top}}
}
