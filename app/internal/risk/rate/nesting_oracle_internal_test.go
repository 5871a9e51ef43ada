package rate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nestingSeeds are texts whose nesting the word reader decides: shell
// blocks, prefixes, operators, functions, brackets inside words and
// strings, every byte that ends a word and bytes above ASCII.
var nestingSeeds = []string{
	"if true; then (echo a); fi", "case $x in a) echo;; esac", "for f in *; do echo $f; done",
	"! time coproc function f() { ls; }", "a && b || c | d & e; f", "!-+~x", "f(){ g; }",
	"if\rx", "do;if\tx|y", "echo {a,b}[0](x)", "x\ty\rz\n;w", "é if\xffdo done", strings.Repeat("(", 300), strings.Repeat("if ", 300),
}

func TestNestingAsBefore(t *testing.T) {
	texts := append([]string{}, nestingSeeds...)
	files, _ := filepath.Glob("../testdata/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(b), "\n")...)
	}
	deep := 0
	for _, s := range texts {
		for _, shell := range []bool{true, false} {
			if got, want := Nesting(s, shell), oldNesting(s, shell); got != want {
				t.Fatalf("Nesting(%q, %v) = %d, before %d", s, shell, got, want)
			}
			if Nesting(s, shell) > 2 {
				deep++
			}
		}
	}
	if len(files) == 0 || deep < 10 {
		t.Fatalf("%d case files, %d texts nest deeper than 2: the comparison compares little", len(files), deep)
	}
}

// FuzzNestingAsBefore: Nesting reads what it read before, on any text.
func FuzzNestingAsBefore(f *testing.F) {
	for _, s := range nestingSeeds {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, shell bool) {
		if got, want := Nesting(s, shell), oldNesting(s, shell); got != want {
			t.Fatalf("Nesting(%q, %v) = %d, before %d", s, shell, got, want)
		}
	})
}

// oldNesting is Nesting as it was, ending a word where
// strings.ContainsRune finds its byte in " \t\r\n;&|()[]{}": the oracle of
// TestNestingAsBefore and FuzzNestingAsBefore.
func oldNesting(src string, shell bool) int {
	const prefix = 'p'
	var open [MaxNesting + 1]byte // the kinds of the blocks open, innermost last
	depth, deepest := 0, 0
	push := func(kind byte) bool {
		if depth == len(open) {
			deepest = depth + 1
			return false
		}
		open[depth] = kind
		depth++
		deepest = max(deepest, depth)
		return true
	}
	close := func(kind byte) {
		for i := depth - 1; i >= 0; i-- {
			if open[i] == kind {
				depth = i
				return
			}
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '(', '[', '{':
			if !push(c) {
				return deepest
			}
			continue
		case ')':
			for shell && depth > 0 && open[depth-1] == prefix {
				depth--
			}
			if shell && depth > 0 && open[depth-1] == 'c' {
				continue // the end of a case pattern
			}
			close('(')
			continue
		case ']':
			close('[')
			continue
		case '}':
			close('{')
			continue
		}
		if !shell {
			continue
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case '&', '|':
			if c == '|' || i+1 < len(src) && src[i+1] == '&' {
				// a && b, a || b, a | b: the parsers nest each
				// operator in the next, and the command goes on.
				if !push(prefix) {
					return deepest
				}
				if i+1 < len(src) && src[i+1] == c {
					i++
				}
				continue
			}
			fallthrough // a & b: the end of a command
		case ';', '\n':
			for depth > 0 && open[depth-1] == prefix {
				depth--
			}
			continue
		}
		j := i
		for j < len(src) && !strings.ContainsRune(" \t\r\n;&|()[]{}", rune(src[j])) {
			j++
		}
		w := src[i:j]
		kind := byte(0)
		switch w {
		case "if", "case", "do":
			kind = w[0]
		case "fi":
			close('i')
		case "esac":
			close('c')
		case "done":
			close('d')
		case "time", "coproc", "function":
			kind = prefix
		default:
			for k := 0; k < len(w) && strings.IndexByte("!-+~", w[k]) >= 0; k++ {
				if !push(prefix) {
					return deepest
				}
			}
			if strings.HasPrefix(src[j:], "()") {
				kind = prefix // f() before its body
			}
		}
		if kind != 0 && !push(kind) {
			return deepest
		}
		i = j - 1
	}
	return deepest
}
