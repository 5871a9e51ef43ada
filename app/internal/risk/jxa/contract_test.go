package jxa_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/jxa"
)

// TestAutoRunContract walks the table: a method that may rate below
// Dangerous (its own level, or its example's verdict) has a closed options
// model — an options record with a key its row does not list makes the call
// Dangerous — and each key it lists is one the analyzer accepts. A method
// that runs code never rates below Dangerous when that code is computed
// (TestMethodsCodeNeverSafe).
func TestAutoRunContract(t *testing.T) {
	env := testEnv(t)
	for _, r := range jxa.Rows() {
		src := exampleFor(r)
		v := risk.JXA(src, env)
		if r.Level >= level.Dangerous && v.Level >= level.Dangerous {
			continue
		}
		if r.Elems {
			continue // its arguments are elements, not options (push, LoginItem({…}))
		}
		t.Run(r.Name, func(t *testing.T) {
			call := r.Name + "("
			at := strings.Index(src, call)
			if at < 0 {
				t.Fatalf("%q does not call %s", src, r.Name)
			}
			closeAt := matchParen(src, at+len(call)-1)
			if closeAt < 0 {
				t.Fatalf("%q: unbalanced call of %s", src, r.Name)
			}
			with := func(record string) string {
				sep := ", "
				if strings.TrimSpace(src[at+len(call):closeAt]) == "" {
					sep = ""
				}
				return src[:closeAt] + sep + record + src[closeAt:]
			}
			for _, bad := range []string{"{xyzzyOption: 1}", "{[k]: 1}", "{...opts}", "{'with space': 1}"} {
				w := risk.JXA(with(bad), env)
				if w.Level < level.Dangerous || !slices.Contains(rules(w), "jxa.option-unmodelled") {
					t.Errorf("%s given %s: %v %v, want dangerous (an option Airlock does not model)", r.Name, bad, w.Level, rules(w))
				}
			}
			for _, o := range r.Opts {
				w := risk.JXA(with("{"+o+": 1}"), env)
				if slices.Contains(rules(w), "jxa.option-unmodelled") {
					t.Errorf("%s given its modelled option %s: still unmodelled", r.Name, o)
				}
			}
		})
	}
}

// matchParen returns the index of the ) closing the ( at s[open], skipping
// quoted text.
func matchParen(s string, open int) int {
	depth := 0
	var quote byte
	for i := open; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
