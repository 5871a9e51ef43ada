package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// make runs the shell commands of its makefile's recipes, and its
// $(shell …) functions even with -n. A makefile this input does not show
// hands control to code Airlock cannot see: Dangerous. When the input
// shows the makefile — fed on standard input (-f -), written earlier by
// the same input, or given as --eval text — its commands are rated like
// any other shell text.

// makeCommand rates make: Caution for running build rules, plus whatever
// the makefiles and --eval texts it can see run.
func makeCommand(c *call) {
	c.add(effect.Of(effect.Run), c.name, "%s: runs build rules", c.name)
	var files, evals []word
	var dir word
	hasDir := false
	if len(c.args) == 1 && inList(c.args[0].s, "-v", "--version", "-h", "--help") {
		return
	}
	args := c.args
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		value := func() (word, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		switch {
		case s == "--":
			i = len(args) // targets and variables follow
		case s == "-f" || s == "--file" || s == "--makefile":
			if v, ok := value(); ok {
				files = append(files, v)
			}
		case s == "-C" || s == "--directory":
			if v, ok := value(); ok {
				dir, hasDir = v, true
			}
		case strings.HasPrefix(s, "--directory="):
			dir, hasDir = word{s: s[len("--directory="):], hole: w.hole}, true
		case s == "-E" || s == "--eval":
			if v, ok := value(); ok {
				evals = append(evals, v)
			}
		case strings.HasPrefix(s, "--file=") || strings.HasPrefix(s, "--makefile=") || strings.HasPrefix(s, "--eval="):
			v := word{s: s[strings.IndexByte(s, '=')+1:], hole: w.hole}
			if strings.HasPrefix(s, "--eval=") {
				evals = append(evals, v)
			} else {
				files = append(files, v)
			}
		case strings.HasPrefix(s, "-f") && !strings.HasPrefix(s, "--"):
			files = append(files, word{s: s[2:], hole: w.hole})
		}
	}
	if len(files) == 0 {
		// make reads GNUmakefile, makefile or Makefile in -C DIR or here.
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			f := word{s: n}
			if hasDir {
				f = word{s: joinPath(dir.s, n), hole: dir.hole}
			}
			// Only a makefile this input wrote as text is read; one it
			// downloaded (git clone … && make) is as unseen as any other.
			if content, ok := c.a.fileContent(f.s); ok && !f.hole && content != fileDownloaded && content != fileComputed {
				files = append(files, f)
				break
			}
		}
		if len(files) == 0 {
			c.hiddenCode(c.name, "the recipes of a makefile this input does not show")
		}
	}
	for _, f := range files {
		switch {
		case f.hole:
			c.add(effect.Of(effect.RunUnseen), "make-computed", "%s runs a makefile whose name is computed at run time", c.name)
		case f.s == "-" || f.s == "/dev/stdin":
			if c.pc.stdin == "text" {
				c.nestedText(makeRecipes(c.pc.text), c.name)
			} else {
				c.fromStdinAs(false)
			}
		default:
			content, ok := c.a.fileContent(f.s)
			switch {
			case !ok:
				c.hiddenCode(c.name+" -f "+rate.Display(f.s), "the recipes of a makefile this input does not show")
			case content == fileDownloaded || content == fileComputed:
				c.add(effect.Of(effect.RunComputed).On(f.s), "download-exec", "%s -f %s: runs a makefile this input downloaded or computed", c.name, rate.Display(f.s))
			default:
				c.nestedText(makeRecipes(content), c.name)
			}
		}
	}
	for _, e := range evals {
		if e.hole {
			c.add(effect.Of(effect.RunComputed), "computed-script", "%s --eval of text computed at run time: cannot tell what runs", c.name)
			continue
		}
		c.nestedText(makeRecipes(e.s), c.name)
	}
}

// makeDefaults are make's built-in variables that name commands.
var makeDefaults = map[string]string{"RM": "rm -f", "SHELL": "/bin/sh", "MAKE": "make", "CC": "cc", "CXX": "c++", "AR": "ar"}

// makeRecipes returns the shell commands of a makefile as one shell
// script: its recipe lines (a tab first, or after `;` on a rule line)
// without their @, - and + prefixes, with line continuations joined. In
// them $(shell X) becomes the command substitution $(X); a variable the
// makefile sets plainly, or one of make's built-ins (makeDefaults), its
// value; any other variable or function call a computed shell variable;
// and $$ a $.
func makeRecipes(src string) string {
	src = strings.ReplaceAll(src, "\\\n", " ")
	lines := strings.Split(src, "\n")
	vars := map[string]string{}
	var recipes []string
	for _, line := range lines {
		if strings.HasPrefix(line, "\t") {
			recipes = append(recipes, strings.TrimLeft(line[1:], "@-+ \t"))
			continue
		}
		if name, value, ok := makeAssignment(line); ok {
			vars[name] = value
			continue
		}
		// targets: prerequisites ; recipe
		if colon := strings.IndexByte(line, ':'); colon >= 0 && !strings.HasPrefix(line[colon:], ":=") {
			if semi := strings.IndexByte(line[colon:], ';'); semi >= 0 {
				recipes = append(recipes, strings.TrimLeft(line[colon+semi+1:], "@-+ \t"))
			}
		}
	}
	var b strings.Builder
	for _, r := range recipes {
		b.WriteString(expandMake(r, vars, 0))
		b.WriteByte('\n')
	}
	return b.String()
}

// makeAssignment reads NAME = value (also :=, ::=, ?= and +=, with an
// optional `export` or `override` before it).
func makeAssignment(line string) (name, value string, ok bool) {
	line = strings.TrimPrefix(strings.TrimPrefix(line, "export "), "override ")
	i := strings.IndexByte(line, '=')
	if i <= 0 {
		return "", "", false
	}
	name = strings.TrimRight(line[:i], ":?+ \t")
	if name == "" || strings.ContainsAny(name, " \t$():;") {
		return "", "", false
	}
	return name, strings.TrimSpace(line[i+1:]), true
}

// expandMake expands make's references in a recipe line as makeRecipes
// says; depth bounds variables that refer to variables.
func expandMake(s string, vars map[string]string, depth int) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch next := s[i+1]; next {
		case '$':
			b.WriteByte('$')
			i++
		case '(', '{':
			end := matchingClose(s, i+1)
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			inner := s[i+2 : end]
			i = end
			switch name, isShell := strings.CutPrefix(inner, "shell "); {
			case isShell:
				b.WriteString("$(" + expandMake(name, vars, depth+1) + ")")
			case !strings.ContainsAny(inner, " \t,:$"):
				if v, ok := vars[inner]; ok && depth < 8 {
					b.WriteString(expandMake(v, vars, depth+1))
				} else if v, ok := makeDefaults[inner]; ok {
					b.WriteString(v)
				} else {
					b.WriteString("${MAKE_VAR_" + shellName(inner) + "}")
				}
			default:
				b.WriteString("${MAKE_FUNCTION}")
			}
		default:
			// $@, $<, $^, $*: automatic variables, computed.
			b.WriteString("${MAKE_AUTO}")
			i++
		}
	}
	return b.String()
}

// matchingClose returns the index of the bracket that closes the one at
// s[open], or -1.
func matchingClose(s string, open int) int {
	closer := byte(')')
	if s[open] == '{' {
		closer = '}'
	}
	depth := 0
	for k := open; k < len(s); k++ {
		switch s[k] {
		case s[open]:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// shellName keeps the letters, digits and underscores of s.
func shellName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
