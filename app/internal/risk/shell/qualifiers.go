package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// zshQualifiers rates the glob qualifiers zsh reads in parentheses after a
// pattern, which bash's parser takes for an extended glob: *(e:'code':)
// and *(+name) run shell code for every file the pattern matches (zsh,
// macOS's login shell, "Glob Qualifiers"). The code is analysed as a
// script; a function or command named by + is run as one.
func (a *shellAn) zshQualifiers(g *syntax.ExtGlob) {
	if g.Pattern == nil {
		return
	}
	for _, code := range qualifierCode(g.Pattern.Value) {
		sp := a.span(g)
		if strings.TrimSpace(code) == "" {
			continue
		}
		a.add(effect.Of(effect.Run), "shell.glob-qualifier", sp, "zsh glob qualifier runs code for every file it matches: %s", rate.Display(code))
		inner := shellRun(a.v, code, a.env, anchorOr(a.anchor, &sp), a.depth+1, a.sh)
		if inner.secret != nil {
			a.secretAt(sp)
		}
		if inner.upload != nil {
			a.uploadAt(sp)
		}
	}
}

// qualifierCode returns the shell code in a zsh qualifier list: the
// string of each e qualifier (e:code:, e'code', e{code}: any delimiter,
// brackets closed by their pair), one level of quotes taken off, and the
// name after each +. Qualifiers whose argument is delimited the same way
// (u, g, P) are skipped whole, so their text is not read as code; a list
// with bash's | before any code is an extended glob, not qualifiers.
func qualifierCode(s string) []string {
	s = strings.TrimPrefix(s, "#q")
	if !strings.ContainsAny(s, "e+") {
		return nil
	}
	var codes []string
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case (c == 'e' || c == 'u' || c == 'g' || c == 'P') && i+1 < len(s) && !isAlnum(s[i+1]):
			open := s[i+1]
			end := closing(open)
			j := indexUnquoted(s[i+2:], end)
			if j < 0 {
				return codes // unterminated: zsh refuses the pattern, nothing runs
			}
			arg := s[i+2 : i+2+j]
			if c == 'e' {
				codes = append(codes, unquoteOnce(arg))
			}
			i += 2 + j
		case c == '|' && len(codes) == 0:
			return nil // bash's alternation, !(a|b): no qualifier list
		case c == '+':
			j := i + 1
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_' || s[j] == '-' || s[j] == '.' || s[j] == ':') {
				j++
			}
			if j > i+1 {
				codes = append(codes, s[i+1:j])
			}
			i = j - 1
		}
	}
	return codes
}

// indexUnquoted is the index in s of the first c outside single or double
// quotes (a quoted delimiter does not end the argument), or -1.
func indexUnquoted(s string, c byte) int {
	var q byte
	for i := 0; i < len(s); i++ {
		switch {
		case q != 0:
			if s[i] == q {
				q = 0
			}
		case s[i] == c:
			return i
		case s[i] == '\'' || s[i] == '"':
			q = s[i]
		}
	}
	return -1
}

func isAlnum(c byte) bool { return nameByte(c) && c != '_' }

// closing is the delimiter that ends a qualifier's argument opened by c.
func closing(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return c
}

// unquoteOnce takes off one level of single or double quotes around s.
func unquoteOnce(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
