package interp

import (
	"strings"
)

// Tcl: a script is commands, each a list of words. A word in braces is
// literal (and, given to if, proc, foreach, eval …, a script: every braced
// word with a blank in it is read as one too); a word in quotes or bare
// has $variables, [commands] and \escapes substituted. The commands of the
// table are file delete, file rename, file copy, file link, open, exec,
// socket, http::geturl, eval, uplevel, source and the decoders.

type tclWord struct {
	text  string // substituted: Hole where computed
	brace bool   // in braces: literal
	off   int
}

type tclParser struct {
	src   string
	i     int
	base  int
	depth int
	out   *[]Effect
	vars  map[string]string
	words int // words read, against MaxTokens
}

func scanTcl(code string, base, depth int, out *[]Effect) {
	p := &tclParser{src: code, base: base, depth: depth, out: out, vars: map[string]string{}}
	p.script()
}

func (p *tclParser) emit(e Effect) {
	if len(*p.out) < MaxEffects {
		e.Off += p.base
		*p.out = append(*p.out, e)
	}
}

// script reads every command.
func (p *tclParser) script() {
	for p.i < len(p.src) && p.words < MaxTokens {
		for p.i < len(p.src) && strings.IndexByte(" \t\r\n;", p.src[p.i]) >= 0 {
			p.i++
		}
		if p.i >= len(p.src) {
			return
		}
		if p.src[p.i] == '#' {
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				if p.src[p.i] == '\\' {
					p.i++
				}
				p.i++
			}
			continue
		}
		var words []tclWord
		for p.i < len(p.src) && p.src[p.i] != '\n' && p.src[p.i] != ';' {
			if c := p.src[p.i]; c == ' ' || c == '\t' || c == '\r' {
				p.i++
				continue
			}
			if strings.HasPrefix(p.src[p.i:], "\\\n") {
				p.i += 2
				continue
			}
			words = append(words, p.word())
			p.words++
		}
		p.command(words)
	}
}

// word reads one word at i.
func (p *tclParser) word() tclWord {
	start := p.i
	if strings.HasPrefix(p.src[p.i:], "{*}") {
		p.i += 3
		if p.i >= len(p.src) || strings.IndexByte(" \t\n;", p.src[p.i]) >= 0 {
			return tclWord{text: "{*}", off: start}
		}
	}
	switch p.src[p.i] {
	case '{':
		end := p.braceEnd(p.i)
		body := p.src[p.i+1 : end]
		p.i = min(end+1, len(p.src))
		if strings.ContainsAny(body, " \t\n;") && p.depth < maxNest {
			scanTcl(body, p.base+start+1, p.depth+1, p.out)
		}
		return tclWord{text: body, brace: true, off: start}
	case '"':
		p.i++
		return tclWord{text: p.substitute(func(c byte) bool { return c == '"' }, true), off: start}
	}
	return tclWord{text: p.substitute(func(c byte) bool { return strings.IndexByte(" \t\r\n;", c) >= 0 }, false), off: start}
}

// braceEnd returns the index of the brace closing the one at i.
func (p *tclParser) braceEnd(i int) int {
	depth := 0
	for j := i; j < len(p.src); j++ {
		switch p.src[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(p.src)
}

// substitute reads text up to a byte stop accepts, substituting
// variables, commands and escapes.
func (p *tclParser) substitute(stop func(byte) bool, quoted bool) string {
	var b strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case stop(c):
			if quoted {
				p.i++
			}
			return b.String()
		case c == '\\' && p.i+1 < len(p.src):
			s, n := decodeEscape(p.src[p.i:])
			b.WriteString(s)
			p.i += n
		case c == '$':
			b.WriteString(p.variable())
		case c == '[':
			end := p.bracketEnd(p.i)
			b.WriteString(p.commandValue(p.src[p.i+1:end], p.i+1))
			p.i = min(end+1, len(p.src))
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return b.String()
}

// bracketEnd returns the index of the ] closing the [ at i.
func (p *tclParser) bracketEnd(i int) int {
	depth := 0
	for j := i; j < len(p.src); j++ {
		switch p.src[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		case '{':
			j = p.braceEnd(j)
		}
	}
	return len(p.src)
}

// variable reads $name, ${name}, $name(index) at i: env(HOME) is the home,
// a variable the script set its value, anything else a Hole.
func (p *tclParser) variable() string {
	p.i++
	var name string
	switch {
	case p.i < len(p.src) && p.src[p.i] == '{':
		end := strings.IndexByte(p.src[p.i:], '}')
		if end < 0 {
			p.i = len(p.src)
			return Hole
		}
		name = p.src[p.i+1 : p.i+end]
		p.i += end + 1
	default:
		j := p.i
		for j < len(p.src) && (isNameByte(p.src[j]) || p.src[j] == ':') {
			j++
		}
		name = p.src[p.i:j]
		p.i = j
		if name == "" {
			return "$"
		}
		if p.i < len(p.src) && p.src[p.i] == '(' {
			index := p.src[p.i+1:]
			if end := strings.IndexByte(p.src[p.i:], ')'); end >= 0 {
				index = p.src[p.i+1 : p.i+end]
				p.i += end + 1
			} else {
				p.i = len(p.src)
			}
			if strings.TrimPrefix(name, "::") == "env" && isHomeVar(index) {
				return "~"
			}
			return Hole
		}
	}
	if v, ok := p.vars[name]; ok {
		return v
	}
	return Hole
}

// commandValue reads the command substitution [code]: its effects, and the
// text it yields when it only names a path (file normalize, file join).
func (p *tclParser) commandValue(code string, off int) string {
	if p.depth < maxNest {
		scanTcl(code, p.base+off, p.depth+1, p.out)
	}
	sub := &tclParser{src: code, vars: p.vars, out: &[]Effect{}, depth: maxNest}
	var words []tclWord
	for sub.i < len(code) {
		if c := code[sub.i]; c == ' ' || c == '\t' || c == '\n' {
			sub.i++
			continue
		}
		words = append(words, sub.word())
		if len(words) > 16 {
			break
		}
	}
	if len(words) >= 3 && words[0].text == "file" {
		switch words[1].text {
		case "normalize", "nativename":
			return words[2].text
		case "join":
			var parts []string
			for _, w := range words[2:] {
				parts = append(parts, w.text)
			}
			return strings.Join(parts, "/")
		}
	}
	if len(words) == 2 && words[0].text == "file" && words[1].text == "home" {
		return "~"
	}
	return Hole
}

// command makes the effects of one command.
func (p *tclParser) command(words []tclWord) {
	if len(words) == 0 {
		return
	}
	name := strings.TrimPrefix(words[0].text, "::")
	off := words[0].off
	args := words[1:]
	switch name {
	case "set":
		if len(args) == 2 && !strings.Contains(args[0].text, Hole) {
			p.vars[args[0].text] = args[1].text
		}
	case "file":
		p.file(args, off)
	case "open":
		p.open(args, off)
	case "exec":
		var argv []string
		for _, w := range args {
			if strings.HasPrefix(w.text, "-") && len(argv) == 0 {
				if w.text == "--" {
					continue
				}
				continue // -ignorestderr, -keepnewline
			}
			argv = append(argv, w.text)
		}
		p.emit(Effect{Kind: Run, API: "exec", Argv: argv, Off: off})
	case "socket", "http::geturl", "http::geturl_followRedirects", "tls::socket", "smtp::sendmessage":
		p.emit(Effect{Kind: Net, API: name, Off: off})
	case "eval", "uplevel", "subst", "interp", "namespace", "apply", "source", "load":
		p.evalWords(name, args, off)
	case "binary":
		if len(args) > 1 && args[0].text == "decode" {
			p.emit(Effect{Kind: Decode, API: "binary decode", Off: off})
		}
	case "base64::decode", "zlib":
		p.emit(Effect{Kind: Decode, API: name, Off: off})
	}
}

// file reads file delete, rename, copy and link.
func (p *tclParser) file(args []tclWord, off int) {
	if len(args) == 0 {
		return
	}
	sub := args[0].text
	var force bool
	rest := args[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0].text, "-") {
		force = force || rest[0].text == "-force"
		end := rest[0].text == "--"
		rest = rest[1:]
		if end {
			break
		}
	}
	switch sub {
	case "delete":
		for _, w := range rest {
			p.emit(Effect{Kind: Remove, API: "file delete", Target: w.text, Tree: force, Off: off})
		}
	case "rename", "copy":
		if len(rest) > 1 {
			p.emit(Effect{Kind: Write, API: "file " + sub, Target: rest[len(rest)-1].text, Off: off})
		}
	case "link":
		if len(rest) > 0 {
			p.emit(Effect{Kind: Write, API: "file link", Target: rest[0].text, Off: off})
		}
	}
}

// open reads open NAME ?ACCESS?: a name starting with | runs the command
// it lists; an access of w, a, + or WRONLY, APPEND … writes.
func (p *tclParser) open(args []tclWord, off int) {
	if len(args) == 0 {
		return
	}
	name := args[0].text
	if strings.HasPrefix(name, "|") {
		p.emit(Effect{Kind: Run, API: "open |", Argv: strings.Fields(name[1:]), Off: off})
		return
	}
	kind := Read
	if len(args) > 1 {
		switch access := args[1].text; {
		case strings.Contains(access, "a") && !strings.Contains(access, "RDWR") || strings.Contains(access, "APPEND"):
			kind = Append
		case strings.ContainsAny(access, "w+") || strings.Contains(access, "WRONLY") || strings.Contains(access, "RDWR") ||
			strings.Contains(access, "CREAT") || strings.Contains(access, "TRUNC") || strings.Contains(access, Hole):
			kind = Write
		}
	}
	p.emit(Effect{Kind: kind, API: "open", Target: name, Off: off})
}

// evalWords reads eval, uplevel, source …: a script in braces was read as
// code already; one built from substitutions is code computed at run time.
func (p *tclParser) evalWords(name string, args []tclWord, off int) {
	e := Effect{Kind: Eval, API: name, Target: Hole, Off: off}
	for _, w := range args {
		if !w.brace && strings.Contains(w.text, Hole) {
			p.emit(e)
			return
		}
	}
	if name == "source" || name == "load" {
		p.emit(e) // a file's code, not read here
		return
	}
	if len(args) > 0 {
		e.Target = args[len(args)-1].text
		if !args[len(args)-1].brace && p.depth < maxNest {
			scanTcl(e.Target, p.base+args[len(args)-1].off, p.depth+1, p.out)
		}
	}
	p.emit(e)
}
