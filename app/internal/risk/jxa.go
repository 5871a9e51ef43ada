package risk

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// JXA rates JavaScript for Automation. It finds what the script calls —
// however it is spelled: `app.doShellScript(…)`, `app['do'+'ShellScript']`,
// `var f = app.doShellScript; f(…)`, unicode escapes in names — and rates it
// by the same rules as AppleScript: shell commands parsed, code evaluated
// from strings analysed or, when computed, Destructive.
func JXA(src string, env *Env) Verdict {
	v := jxaAt(src, env, 0)
	v.sortReasons()
	return v
}

type jsKind uint8

const (
	jsIdent jsKind = iota
	jsString
	jsTemplate // `…${…}…`: val holds the text with holes
	jsNumber
	jsPunct
	jsRegex
)

type jsToken struct {
	kind       jsKind
	start, end int32
	text       string // identifiers (escapes decoded) and punctuators
	val        string // strings: decoded value
}

type jsLex struct {
	toks         []jsToken
	subs         []Span // ${…} expressions inside templates, analysed on their own
	unterminated string
}

func lexJS(src string) *jsLex {
	lx := &jsLex{toks: make([]jsToken, 0, len(src)/4+8)}
	n := len(src)
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			// A line comment ends at any JavaScript line terminator,
			// U+2028 and U+2029 included.
			for i < n && src[i] != '\n' && src[i] != '\r' && !strings.HasPrefix(src[i:], "\u2028") && !strings.HasPrefix(src[i:], "\u2029") {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				lx.unterminated = "comment"
				i = n
			} else {
				i += j + 4
			}
		case c == '\'' || c == '"':
			j, val, ok := jsStringAt(src, i)
			if !ok {
				lx.unterminated = "string"
			}
			lx.toks = append(lx.toks, jsToken{kind: jsString, start: int32(i), end: int32(j), val: val})
			i = j
		case c == '`':
			i = lx.template(src, i)
		case c == '/' && lx.regexAllowed():
			j := i + 1
			inClass := false
			for j < n && src[j] != '\n' {
				if src[j] == '\\' {
					j += 2
					continue
				}
				if src[j] == '[' {
					inClass = true
				} else if src[j] == ']' {
					inClass = false
				} else if src[j] == '/' && !inClass {
					break
				}
				j++
			}
			j++
			for j < n && isWordByte(src[j]) {
				j++
			}
			if j > n {
				j = n
			}
			lx.toks = append(lx.toks, jsToken{kind: jsRegex, start: int32(i), end: int32(j)})
			i = j
		case isWordByte(c) || c == '$' || c == '\\' || c >= 0x80:
			if c >= '0' && c <= '9' {
				j := i + 1
				for j < n && (isWordByte(src[j]) || src[j] == '.') {
					j++
				}
				lx.toks = append(lx.toks, jsToken{kind: jsNumber, start: int32(i), end: int32(j), text: src[i:j]})
				i = j
				continue
			}
			j, name := jsIdentAt(src, i)
			if j == i {
				r, size := utf8.DecodeRuneInString(src[i:])
				_ = r
				lx.toks = append(lx.toks, jsToken{kind: jsPunct, start: int32(i), end: int32(i + size), text: src[i : i+size]})
				i += size
				continue
			}
			lx.toks = append(lx.toks, jsToken{kind: jsIdent, start: int32(i), end: int32(j), text: name})
			i = j
		default:
			lx.toks = append(lx.toks, jsToken{kind: jsPunct, start: int32(i), end: int32(i + 1), text: src[i : i+1]})
			i++
		}
	}
	return lx
}

// regexAllowed: a / starts a regular expression where an operand is due.
func (lx *jsLex) regexAllowed() bool {
	if len(lx.toks) == 0 {
		return true
	}
	t := lx.toks[len(lx.toks)-1]
	switch t.kind {
	case jsIdent:
		return t.text == "return" || t.text == "typeof" || t.text == "case" || t.text == "in" || t.text == "of"
	case jsNumber, jsString, jsTemplate, jsRegex:
		return false
	}
	return t.text != ")" && t.text != "]" && t.text != "}"
}

// jsIdentAt reads an identifier, decoding \uXXXX and \u{…} escapes: in
// JavaScript `doShell\u0053cript` is doShellScript.
func jsIdentAt(src string, i int) (int, string) {
	var b strings.Builder
	j := i
	for j < len(src) {
		c := src[j]
		switch {
		case isWordByte(c) || c == '$':
			b.WriteByte(c)
			j++
		case c == '\\' && j+1 < len(src) && src[j+1] == 'u':
			r, k, ok := jsUnicodeEscape(src, j+2)
			if !ok {
				return j, b.String()
			}
			b.WriteRune(r)
			j = k
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(src[j:])
			if !isUnicodeLetter(r) {
				return j, b.String()
			}
			b.WriteRune(r)
			j += size
		default:
			return j, b.String()
		}
	}
	return j, b.String()
}

func jsUnicodeEscape(src string, k int) (rune, int, bool) {
	if k < len(src) && src[k] == '{' {
		end := strings.IndexByte(src[k:], '}')
		if end < 0 {
			return 0, k, false
		}
		n, err := strconv.ParseUint(src[k+1:k+end], 16, 32)
		if err != nil {
			return 0, k, false
		}
		return rune(n), k + end + 1, true
	}
	if k+4 > len(src) {
		return 0, k, false
	}
	n, err := strconv.ParseUint(src[k:k+4], 16, 32)
	if err != nil {
		return 0, k, false
	}
	return rune(n), k + 4, true
}

// jsString reads a quoted string literal and decodes its escapes.
func jsStringAt(src string, i int) (int, string, bool) {
	q := src[i]
	var b strings.Builder
	j := i + 1
	for j < len(src) {
		c := src[j]
		if c == q {
			return j + 1, b.String(), true
		}
		if c == '\n' {
			return j, b.String(), false
		}
		if c == '\\' && j+1 < len(src) {
			j = jsEscape(src, j, &b)
			continue
		}
		b.WriteByte(c)
		j++
	}
	return j, b.String(), false
}

// jsEscape decodes the escape at src[j] ('\\') into b.
func jsEscape(src string, j int, b *strings.Builder) int {
	e := src[j+1]
	switch e {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '0':
		b.WriteByte(0)
	case '\n':
	case 'x':
		if j+4 <= len(src) {
			if n, err := strconv.ParseUint(src[j+2:j+4], 16, 8); err == nil {
				b.WriteByte(byte(n))
				return j + 4
			}
		}
		b.WriteByte('x')
	case 'u':
		if r, k, ok := jsUnicodeEscape(src, j+2); ok {
			b.WriteRune(r)
			return k
		}
		b.WriteByte('u')
	default:
		b.WriteByte(e)
	}
	return j + 2
}

// template reads a template literal; each ${…} becomes a hole in the value
// and its expression is recorded for separate analysis.
func (lx *jsLex) template(src string, i int) int {
	var b strings.Builder
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == '`':
			lx.toks = append(lx.toks, jsToken{kind: jsTemplate, start: int32(i), end: int32(j + 1), val: b.String()})
			return j + 1
		case c == '\\' && j+1 < len(src):
			j = jsEscape(src, j, &b)
		case c == '$' && j+1 < len(src) && src[j+1] == '{':
			depth := 1
			k := j + 2
			for k < len(src) && depth > 0 {
				switch src[k] {
				case '{':
					depth++
				case '}':
					depth--
				case '`':
					// A nested template: skip it whole.
					if e := strings.IndexByte(src[k+1:], '`'); e >= 0 {
						k += e + 1
					}
				}
				k++
			}
			if depth > 0 {
				lx.unterminated = "template literal"
				lx.subs = append(lx.subs, Span{min(j+2, len(src)), len(src)})
			} else {
				lx.subs = append(lx.subs, Span{j + 2, k - 1})
			}
			b.WriteString(holeUnquoted)
			j = k
		default:
			b.WriteByte(c)
			j++
		}
	}
	lx.unterminated = "template literal"
	lx.toks = append(lx.toks, jsToken{kind: jsTemplate, start: int32(i), end: int32(len(src)), val: b.String()})
	return len(src)
}

type jsAn struct {
	terminal bool   // the script drives Terminal or iTerm: typed text runs
	loops    []Span // token ranges of loop bodies over collections
	src      string
	lx       *jsLex
	v        *Verdict
	env      *Env
	depth    int
	defs     map[string][][]jsToken // var x = <expr>: every expression assigned to x
	alias    map[string]string      // var f = app.doShellScript: f stands for doShellScript
}

func jxaAt(src string, env *Env, depth int) Verdict {
	var v Verdict
	if depth > maxDepth {
		v.add(level.Destructive, "jxa.too-deep", Span{}, "scripts nested more than %d deep: not analysed", maxDepth)
		return v
	}
	if !utf8.ValidString(src) {
		v.add(level.Dangerous, "jxa.invalid-utf8", Span{}, "script is not valid UTF-8: not fully analysed")
	}
	lx := lexJS(src)
	an := &jsAn{src: src, lx: lx, v: &v, env: env, depth: depth, defs: map[string][][]jsToken{}, alias: map[string]string{}}
	if lx.unterminated != "" {
		an.add(level.Dangerous, "jxa.unterminated", Span{}, "unterminated %s: the script cannot be analysed reliably", lx.unterminated)
	}
	an.collect()
	an.findLoops()
	an.scan()
	an.propertySets()
	for _, sp := range lx.subs {
		inner := jxaAt(src[sp.Start:sp.End], env, depth+1)
		at := sp
		v.merge(inner, &at)
	}
	return v
}

func (an *jsAn) add(l level.Level, rule string, sp Span, format string, args ...any) {
	an.v.add(l, rule, sp, format, args...)
}

func jsSpan(t jsToken) Span { return Span{int(t.start), int(t.end)} }

// collect records `var|let|const x = expr` and `x = expr` assignments.
func (an *jsAn) collect() {
	toks := an.lx.toks
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].kind != jsIdent || toks[i+1].text != "=" || i+2 < len(toks) && toks[i+2].text == "=" {
			continue
		}
		if i > 0 && toks[i-1].text == "." {
			continue
		}
		end := jsExprEnd(toks, i+2)
		expr := toks[i+2 : end]
		name := toks[i].text
		an.defs[name] = append(an.defs[name], expr)
		// var f = something.doShellScript  (no call): f is that method.
		if len(expr) >= 5 && expr[len(expr)-1].text == ")" {
			// var run = app.doShellScript.bind(app)
			for k := 0; k+2 < len(expr); k++ {
				if expr[k].kind == jsIdent && dangerMembers[expr[k].text] && expr[k+1].text == "." && expr[k+2].text == "bind" {
					an.alias[name] = expr[k].text
				}
			}
		}
		if len(expr) == 1 && expr[0].kind == jsIdent && expr[0].text == "Function" {
			an.alias[name] = "Function"
		}
		if len(expr) >= 1 {
			last := expr[len(expr)-1]
			if last.kind == jsIdent && last.text == "constructor" {
				an.alias[name] = "Function"
			}
			if m, ok := an.memberAt(expr, len(expr)-1); ok && dangerMembers[m] {
				an.alias[name] = m
			} else if last.kind == jsIdent && dangerMembers[last.text] && len(expr) == 1 {
				an.alias[name] = last.text
			} else if last.kind == jsIdent && an.alias[last.text] != "" && len(expr) == 1 {
				an.alias[name] = an.alias[last.text]
			}
		}
	}
}

// jsExprEnd finds the end of the expression starting at i: a ; , ) ] }
// at depth zero, or a new line after a complete operand (ASI, loosely).
func jsExprEnd(toks []jsToken, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 {
				return j
			}
			depth--
		case ";", ",":
			if depth == 0 {
				return j
			}
		}
		if depth == 0 && toks[j].kind == jsIdent && j > i && (toks[j].text == "var" || toks[j].text == "let" || toks[j].text == "const") {
			return j
		}
	}
	return len(toks)
}

// memberAt returns the member name a token names: .name, ['name'] with a
// constant index, or nothing.
func (an *jsAn) memberAt(toks []jsToken, i int) (string, bool) {
	t := toks[i]
	if t.kind == jsIdent && i > 0 && (toks[i-1].text == "." || toks[i-1].text == "?.") {
		return t.text, true
	}
	if t.text == "]" {
		// find the matching [
		depth := 0
		for j := i; j >= 0; j-- {
			switch toks[j].text {
			case "]":
				depth++
			case "[":
				depth--
				if depth == 0 {
					if j == 0 || !(toks[j-1].kind == jsIdent || toks[j-1].text == ")" || toks[j-1].text == "]") {
						return "", false
					}
					if s, ok := an.constString(toks[j+1 : i]); ok {
						return s, true
					}
					return "\x00computed", true
				}
			}
		}
	}
	return "", false
}

// constString folds 'a' + "b" + `c` + x (x a variable holding a constant).
func (an *jsAn) constString(toks []jsToken) (string, bool) {
	vs, whole := an.template(toks, 0)
	if len(vs) != 1 || whole || strings.Contains(vs[0], "__AIRLOCK_") {
		return "", false
	}
	return vs[0], true
}

// propertySets rates `app.something.property = value` on an application
// object: a change of its state (Caution).
func (an *jsAn) propertySets() {
	toks := an.lx.toks
	apps := map[string]bool{}
	for name, defs := range an.defs {
		for _, d := range defs {
			if len(d) > 0 && d[0].kind == jsIdent && d[0].text == "Application" {
				apps[name] = true
			}
		}
	}
	for i := 0; i+1 < len(toks); i++ {
		if toks[i+1].text != "=" || i+2 < len(toks) && toks[i+2].text == "=" || toks[i].kind != jsIdent || i < 2 || toks[i-1].text != "." {
			continue
		}
		if toks[i].text == "includeStandardAdditions" {
			continue
		}
		// Walk back to the root of the chain.
		j := i - 1
		for j > 0 && (toks[j].text == "." || toks[j].kind == jsIdent || toks[j].text == ")" || toks[j].text == "(") {
			j--
		}
		for k := j; k < i; k++ {
			if toks[k].kind == jsIdent && (apps[toks[k].text] || toks[k].text == "Application") {
				an.add(level.Caution, "jxa.set-property", jsSpan(toks[i]), "SET: changes %s of an application", toks[i].text)
				break
			}
		}
	}
}

// dangerMembers are the methods whose calls the analyzer rates.
var dangerMembers = map[string]bool{
	"doShellScript": true, "doScript": true, "doJavaScript": true, "runScript": true, "system": true,
	"removeItemAtPathError": true, "removeItemAtURLError": true, "removeItemAtPath": true, "removeItemAtURL": true,
	"eval": true, "Function": true, "initWithSource": true, "initWithSourceError": true, "launch": true,
	"launchAndReturnError": true, "popen": true, "execv": true, "execve": true, "execvp": true, "execl": true,
}

// scan walks the tokens looking for calls and flags.
func (an *jsAn) scan() {
	toks := an.lx.toks
	hasNSTask := false
	for i, t := range toks {
		var name string
		switch {
		case t.kind == jsIdent:
			if m, ok := an.memberAt(toks, i); ok {
				name = m
			} else {
				name = t.text
				if a := an.alias[name]; a != "" && i+1 < len(toks) && toks[i+1].text == "(" {
					name = a
				}
			}
			if t.text == "NSTask" || t.text == "NSTaskAlloc" {
				hasNSTask = true
			}
		case t.text == "]":
			m, ok := an.memberAt(toks, i)
			if !ok {
				continue
			}
			if m == "\x00computed" {
				if i+1 < len(toks) && toks[i+1].text == "(" {
					an.add(level.Dangerous, "jxa.computed-call", jsSpan(t), "calls a method whose name is computed at run time")
				}
				continue
			}
			name = m
		case t.kind == jsString && (t.val == "administratorPrivileges" || t.val == "hiddenAnswer"):
			name = t.val
		default:
			continue
		}
		an.member(toks, i, name)
	}
	if hasNSTask {
		an.nstask(toks)
	}
}

// args returns the tokens of the first argument of the call whose name
// ends at toks[i], if the next token opens a call.
func callArgs(toks []jsToken, i int) ([]jsToken, []jsToken, bool) {
	if i+1 >= len(toks) || toks[i+1].text != "(" {
		return nil, nil, false
	}
	depth := 0
	for j := i + 1; j < len(toks); j++ {
		switch toks[j].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				all := toks[i+2 : j]
				end := jsExprEnd(all, 0)
				return all[:end], all, true
			}
		}
	}
	all := toks[i+2:]
	return all[:jsExprEnd(all, 0)], all, true
}

func (an *jsAn) member(toks []jsToken, i int, name string) {
	t := toks[i]
	sp := jsSpan(t)
	first, all, isCall := callArgs(toks, i)
	switch name {
	case "doShellScript":
		an.add(level.Dangerous, "jxa.shell", sp, "SHELL COMMAND: doShellScript runs a shell command")
		if !isCall {
			// app.doShellScript.call(app, cmd) / .apply(app, [cmd])
			if i+3 < len(toks) && toks[i+1].text == "." && (toks[i+2].text == "call" || toks[i+2].text == "apply") && toks[i+3].text == "(" {
				_, all, _ := callArgs(toks, i+2)
				end := jsExprEnd(all, 0)
				if end < len(all) {
					rest := all[end+1:]
					if toks[i+2].text == "apply" && len(rest) > 0 && rest[0].text == "[" {
						rest = rest[1:]
					}
					an.shell(rest[:jsExprEnd(rest, 0)], sp, true)
					return
				}
			}
			if an.aliasedAt(toks, i) {
				return
			}
			an.add(level.Destructive, "jxa.shell-ref", sp, "takes a reference to doShellScript that is not followed: cannot tell what it runs")
			return
		}
		an.shell(first, sp, true)
		an.flagsIn(all, sp)
	case "doScript":
		if !isCall {
			return
		}
		an.add(level.Caution, "jxa.terminal", sp, "TERMINAL: doScript runs a command in a live Terminal shell")
		vs, whole := an.template(first, 0)
		if whole {
			an.add(level.Dangerous, "jxa.terminal-computed", sp, "TERMINAL: runs a command computed at run time")
			return
		}
		for _, c := range vs {
			shellInto(an.v, c, an.env, &sp, an.depth+1)
		}
	case "write":
		// iTerm: session.write({text: '…'})
		if isCall && len(first) > 2 && first[0].text == "{" {
			for j := 1; j+2 < len(first); j++ {
				if first[j].text == "text" && first[j+1].text == ":" {
					an.add(level.Caution, "jxa.terminal", sp, "TERMINAL: write runs a command in a live iTerm shell")
					vs, whole := an.template(first[j+2:jsExprEnd(first, j+2)], 0)
					if whole {
						an.add(level.Dangerous, "jxa.terminal-computed", sp, "TERMINAL: runs a command computed at run time")
					}
					for _, c := range vs {
						shellInto(an.v, c, an.env, &sp, an.depth+1)
					}
				}
			}
		}
	case "system", "popen", "execv", "execve", "execvp", "execl":
		if !isCall || name == "system" && !(i > 0 && toks[i-1].text == "." && i > 1 && toks[i-2].text == "$") {
			return
		}
		an.add(level.Dangerous, "jxa.system", sp, "SHELL COMMAND: %s runs a program", name)
		an.shell(first, sp, true)
	case "eval", "Function", "runScript", "initWithSource", "initWithSourceError", "setTimeout", "setInterval", "constructor":
		if name == "constructor" {
			name = "Function"
		}
		if !isCall {
			if (name == "eval" || name == "Function") && t.text != "constructor" && !an.aliasedAt(toks, i) {
				an.add(level.Destructive, "jxa.eval-ref", sp, "takes a reference to %s that is not followed: cannot tell what it runs", name)
			}
			return
		}
		if name == "Function" {
			// new Function('a', 'b', body): the body is the last argument.
			first = lastArg(all)
		}
		if name == "setTimeout" || name == "setInterval" {
			if len(first) == 0 || first[0].kind != jsString && first[0].kind != jsTemplate {
				return
			}
		}
		an.evalCode(name, first, all, sp)
	case "removeItemAtPathError", "removeItemAtURLError", "removeItemAtPath", "removeItemAtURL":
		an.add(level.Destructive, "jxa.remove", sp, "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", name)
	case "trashItemAtURLResultingItemURLError":
		an.add(level.Dangerous, "jxa.trash", sp, "DELETE: moves an item to the Trash")
	case "writeToFileAtomicallyEncodingError", "writeToFileAtomically", "writeToURLAtomicallyEncodingError", "createFileAtPathContentsAttributes",
		"writeToFileAtomicallyError", "moveItemAtPathToPathError", "copyItemAtPathToPathError", "createDirectoryAtPathWithIntermediateDirectoriesAttributesError",
		"createSymbolicLinkAtPathWithDestinationPathError":
		an.add(level.Caution, "jxa.write", sp, "WRITE: %s writes files", name)
		an.pathsIn(all, true)
	case "stringWithContentsOfFileEncodingError", "dataWithContentsOfFile", "contentsAtPath", "read":
		an.pathsIn(all, false)
	case "dataWithContentsOfURL", "stringWithContentsOfURLEncodingError", "dataTaskWithURL", "dataTaskWithRequest", "curl":
		an.add(level.Caution, "jxa.network", sp, "NETWORK: fetches from the network")
	case "delete":
		if !isCall || !(i > 0 && toks[i-1].text == ".") {
			return
		}
		if jsBulk(all) || an.inLoop(t) {
			an.add(level.Destructive, "jxa.bulk-delete", sp, "BULK DELETE: This will delete multiple files/folders. This action may be irreversible.")
			return
		}
		an.add(level.Dangerous, "jxa.delete", sp, "DELETE: Will delete a file or folder (goes to Trash)")
	case "move":
		if !isCall || !(i > 0 && toks[i-1].text == ".") {
			return
		}
		trash := false
		for _, x := range all {
			if x.kind == jsIdent && x.text == "trash" {
				trash = true
			}
		}
		switch bulk := jsBulk(all) || an.inLoop(t); {
		case bulk && trash:
			an.add(level.Destructive, "jxa.bulk-trash", sp, "BULK DELETE: moves multiple items to the Trash")
		case trash:
			an.add(level.Dangerous, "jxa.trash", sp, "DELETE: moves items to the Trash")
		case bulk:
			an.add(level.Dangerous, "jxa.bulk-move", sp, "BULK MOVE: Will move multiple files/folders")
		default:
			an.add(level.Caution, "jxa.move", sp, "MOVE: moves files or objects")
		}
	case "empty", "emptyTrash":
		if isCall && i > 0 && toks[i-1].text == "." {
			an.add(level.Destructive, "jxa.empty-trash", sp, "EMPTY TRASH: Permanently deletes all items in Trash")
		}
	case "shutDown", "restart", "sleep", "logOut", "shutdown":
		if isCall && i > 0 && toks[i-1].text == "." {
			an.add(level.Dangerous, "jxa.power", sp, "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac")
		}
	case "quit":
		if isCall && i > 0 && toks[i-1].text == "." {
			an.add(level.Caution, "jxa.quit", sp, "QUIT: quits an application")
		}
	case "keystroke":
		an.add(level.Caution, "jxa.keystroke", sp, "KEYSTROKE: Simulates keyboard input")
		if an.terminal && isCall && !strings.Contains(tokensText(all), "using") {
			an.add(level.Dangerous, "jxa.typed-command", sp, "TERMINAL: types text into a terminal window, where it runs as a command")
			vs, whole := an.template(first, 0)
			if !whole {
				for _, c := range vs {
					shellInto(an.v, c, an.env, &sp, an.depth+1)
				}
			}
		}
	case "keyCode", "keyDown", "keyUp":
		an.add(level.Caution, "jxa.keycode", sp, "KEY CODE: Simulates key presses")
	case "click":
		if isCall {
			an.add(level.Caution, "jxa.click", sp, "CLICK: Simulates a mouse click")
		}
	case "send":
		if isCall && i > 0 && toks[i-1].text == "." {
			if an.inLoop(t) {
				an.add(level.Destructive, "jxa.bulk-email", sp, "BULK EMAIL: sends messages in a loop over many items")
				return
			}
			an.add(level.Dangerous, "jxa.send", sp, "SEND: sends an email or message as you")
		}
	case "doJavaScript", "execute":
		if isCall && i > 0 && toks[i-1].text == "." {
			an.add(level.Dangerous, "jxa.javascript", sp, "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session")
		}
	case "administratorPrivileges":
		if i+2 < len(toks) && toks[i+1].text == ":" && toks[i+2].text != "false" {
			an.add(level.Dangerous, "jxa.admin", sp, "ADMIN: runs with administrator privileges (as root)")
		}
	case "hiddenAnswer":
		if i+2 < len(toks) && toks[i+1].text == ":" && toks[i+2].text != "false" {
			an.add(level.Dangerous, "jxa.password-prompt", sp, "PASSWORD PROMPT: asks for hidden input (a password) in a dialog that can imitate the system: possible phishing")
		}
	case "openLocation":
		if isCall && len(first) == 1 && first[0].kind == jsString {
			if scheme, ok := urlScheme(strings.ToLower(first[0].val)); ok {
				l, why := schemeRisk(scheme)
				an.add(l, "jxa.open-url", sp, "OPEN URL: %s", why)
				return
			}
		}
		an.add(level.Caution, "jxa.open-url", sp, "OPEN URL: opens a web page")
	case "setTheClipboardTo":
		an.add(level.Caution, "jxa.clipboard", sp, "CLIPBOARD: replaces the clipboard")
	case "setVolume":
		an.add(level.Caution, "jxa.volume", sp, "VOLUME: changes the sound volume")
	case "make", "push", "duplicate", "play", "pause", "playpause", "stop", "nextTrack", "previousTrack", "backTrack",
		"fastForward", "rewind", "resume", "reload", "open", "close", "save", "print", "startScreenSaver", "eject":
		if isCall && i > 0 && toks[i-1].text == "." {
			an.add(level.Caution, "jxa."+strings.ToLower(name), sp, "%s: changes application state", strings.ToUpper(name))
		}
	case "loginItems", "LoginItem":
		for _, x := range toks[i:min(len(toks), i+12)] {
			if x.text == "push" || x.text == "make" {
				an.add(level.Destructive, "jxa.login-item", sp, "PERSISTENCE: adds a login item that starts at every login")
				return
			}
		}
	case "Application":
		if isCall && len(first) == 1 && first[0].kind == jsString {
			app := newApp(first[0].val, false)
			if app.known == nil && !strings.EqualFold(first[0].val, "") {
				// An unknown application: only generic reads are understood.
				an.unknownApp(toks, i, first[0].val)
			}
		}
	}
}

// aliasedAt reports that the reference at toks[i] is the value of an
// assignment the analyzer follows (var f = app.doShellScript).
func (an *jsAn) aliasedAt(toks []jsToken, i int) bool {
	for j := i; j >= 0 && j > i-12; j-- {
		if toks[j].text == "=" && j > 0 && toks[j-1].kind == jsIdent && an.alias[toks[j-1].text] != "" {
			return true
		}
		if toks[j].text == ";" || toks[j].text == "{" {
			return false
		}
	}
	return false
}

// lastArg returns the tokens of a call's last argument.
func lastArg(all []jsToken) []jsToken {
	start := 0
	for {
		end := jsExprEnd(all[start:], 0) + start
		if end >= len(all) || all[end].text != "," {
			return all[start:end]
		}
		start = end + 1
	}
}

// findLoops records the bodies of loops over collections: forEach/map over
// items, for…of over them. A delete or send inside one is a bulk action.
func (an *jsAn) findLoops() {
	toks := an.lx.toks
	for i, t := range toks {
		if t.kind != jsIdent {
			continue
		}
		switch t.text {
		case "forEach", "map", "every", "some", "filter":
			if i+1 >= len(toks) || toks[i+1].text != "(" || i < 2 {
				continue
			}
			// The receiver: back to the start of the expression.
			j, depth := i-1, 0
			for ; j > 0; j-- {
				switch toks[j].text {
				case ")", "]":
					depth++
				case "(", "[":
					depth--
				}
				if depth < 0 || depth == 0 && (toks[j].text == ";" || toks[j].text == "=" || toks[j].text == "{") {
					break
				}
			}
			if !jsBulk(toks[j:i]) {
				continue
			}
			_, all, _ := callArgs(toks, i)
			if len(all) > 0 {
				an.loops = append(an.loops, Span{int(all[0].start), int(all[len(all)-1].end)})
			}
		case "for":
			if i+1 < len(toks) && toks[i+1].text == "(" {
				_, head, _ := callArgs(toks, i)
				if !jsBulk(head) {
					continue
				}
				// The body: from after the head to the matching brace.
				k := i + 2 + len(head) + 1
				if k < len(toks) && toks[k].text == "{" {
					depth := 0
					for m := k; m < len(toks); m++ {
						if toks[m].text == "{" {
							depth++
						} else if toks[m].text == "}" {
							depth--
							if depth == 0 {
								an.loops = append(an.loops, Span{int(toks[k].start), int(toks[m].end)})
								break
							}
						}
					}
				}
			}
		case "Application":
			if i+2 < len(toks) && toks[i+1].text == "(" && toks[i+2].kind == jsString {
				if a := newApp(toks[i+2].val, false); a.known != nil && (a.known.title == "Terminal" || a.known.title == "iTerm") {
					an.terminal = true
				}
				if err := sanitize.Strict("app", toks[i+2].val); err != nil {
					an.add(level.Blocked, "jxa.app-name", jsSpan(toks[i+2]), "%s", err.Error())
				}
			}
		}
	}
}

func (an *jsAn) inLoop(t jsToken) bool {
	for _, sp := range an.loops {
		if int(t.start) >= sp.Start && int(t.end) <= sp.End {
			return true
		}
	}
	return false
}

// unknownApp rates method calls on an application Airlock does not know.
func (an *jsAn) unknownApp(toks []jsToken, i int, name string) {
	// Find the variable it is stored in, if any: var x = Application('Foo')
	j := i
	for j < len(toks) && toks[j].text != ")" {
		j++
	}
	target := ""
	if i >= 2 && toks[i-1].text == "=" && toks[i-2].kind == jsIdent {
		target = toks[i-2].text
	}
	check := func(k int) {
		if k+2 < len(toks) && toks[k+1].text == "." && toks[k+2].kind == jsIdent && k+3 < len(toks) && toks[k+3].text == "(" {
			verb := toks[k+2].text
			if !genericVerbs[strings.ToLower(verb)] && !jsReads(verb) {
				an.add(level.Dangerous, "jxa.unknown-app", jsSpan(toks[k+2]), "command %q to %q, an application Airlock does not know", verb, name)
			}
		}
	}
	check(j)
	if target != "" {
		for k := j; k < len(toks); k++ {
			if toks[k].kind == jsIdent && toks[k].text == target && (k == 0 || toks[k-1].text != ".") {
				check(k)
			}
		}
	}
}

// jsReads: JXA property reads are calls too (app.name(), app.windows()).
func jsReads(verb string) bool {
	if verb == "" {
		return true
	}
	c := verb[0]
	if c >= 'A' && c <= 'Z' {
		return false
	}
	low := strings.ToLower(verb)
	for _, p := range []string{"get", "is", "count", "exists", "name", "id", "windows", "documents", "properties", "version", "frontmost", "running", "activate", "launch", "includestandardadditions"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// jsBulk reports a collection among the tokens: items, files(), notes …
// referenced whole (no [index], .byName, .at), or filtered with whose.
func jsBulk(all []jsToken) bool {
	for k, x := range all {
		if x.kind != jsIdent {
			continue
		}
		switch x.text {
		case "whose", "every", "entireContents":
			return true
		case "items", "files", "folders", "documents", "notes", "events", "reminders", "contacts", "people",
			"messages", "diskItems", "aliasFiles", "applicationProcesses", "processes", "windows", "tabs", "tracks", "photos", "mediaItems":
			next := ""
			if k+1 < len(all) {
				next = all[k+1].text
			}
			switch next {
			case "(":
				if k+2 < len(all) && all[k+2].text == ")" {
					return true // items(): every item
				}
			case "[", ".":
				if next == "." && k+2 < len(all) && (all[k+2].text == "length" || all[k+2].text == "forEach") {
					return true
				}
			default:
				return true // the collection itself, passed as a value
			}
		}
	}
	return false
}

// shell rates a shell command given as a JavaScript expression.
func (an *jsAn) shell(expr []jsToken, sp Span, computedDestructive bool) {
	vs, whole := an.template(expr, 0)
	if whole {
		l := level.Dangerous
		if computedDestructive {
			l = level.Destructive
		}
		an.add(l, "jxa.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
		return
	}
	for _, c := range vs {
		shellInto(an.v, c, an.env, &sp, an.depth+1)
	}
}

// flagsIn looks at a call's option object.
func (an *jsAn) flagsIn(all []jsToken, sp Span) {}

// evalCode rates code run from a string: literal code is analysed, code
// computed at run time is Destructive.
func (an *jsAn) evalCode(name string, first, all []jsToken, sp Span) {
	vs, whole := an.template(first, 0)
	if whole || len(vs) == 0 {
		an.add(level.Destructive, "jxa.eval-computed", sp, "%s runs code computed at run time (downloaded, decoded or built): cannot tell what it does", name)
		return
	}
	if an.depth+1 > maxDepth {
		an.add(level.Destructive, "jxa.too-deep", sp, "scripts nested too deeply: not analysed")
		return
	}
	appleScript := name == "initWithSource" || name == "initWithSourceError"
	if name == "runScript" {
		appleScript = true
		for k := 0; k+2 < len(all); k++ {
			if all[k].text == "in" && all[k+1].text == ":" && all[k+2].kind == jsString && strings.EqualFold(all[k+2].val, "javascript") {
				appleScript = false
			}
		}
	}
	an.add(level.Caution, "jxa.eval", sp, "%s runs code from a string", name)
	for _, code := range vs {
		if strings.Contains(code, "__AIRLOCK_") {
			an.add(level.Destructive, "jxa.eval-computed", sp, "%s runs code partly computed at run time", name)
		}
		var inner Verdict
		if appleScript {
			inner = appleScriptAt(code, an.env, an.depth+1)
		} else {
			inner = jxaAt(code, an.env, an.depth+1)
		}
		an.v.merge(inner, &sp)
	}
}

// pathsIn rates the literal paths among a call's arguments, following
// variables one step.
func (an *jsAn) pathsIn(all []jsToken, write bool) {
	var strs []jsToken
	for _, x := range all {
		switch x.kind {
		case jsString:
			strs = append(strs, x)
		case jsIdent:
			for _, d := range an.defs[x.text] {
				for _, y := range d {
					if y.kind == jsString {
						strs = append(strs, y)
					}
				}
			}
		}
	}
	for _, s := range strs {
		z := classifyPath(an.env, s.val)
		switch {
		case write && z.kind == zonePersistence:
			an.add(level.Destructive, "jxa.persistence", jsSpan(s), "writes %s: %s runs code automatically (persistence)", display(s.val), z.detail)
		case write && (z.kind == zoneSystem || z.kind == zoneCredential):
			an.add(level.Destructive, "jxa.protected-write", jsSpan(s), "writes %s, inside %s", display(s.val), z.detail)
		case !write && z.kind == zoneCredential && !z.pub:
			an.add(level.Dangerous, "jxa.secret-read", jsSpan(s), "reads %s, inside %s", display(s.val), z.detail)
		}
	}
}

// nstask rates $.NSTask: the launch path and argument list, when literal,
// are analysed as a command; otherwise the program is unknown.
func (an *jsAn) nstask(toks []jsToken) {
	var argv []string
	known := true
	sp := Span{}
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if t.kind != jsIdent || toks[i+1].text != "=" {
			continue
		}
		switch t.text {
		case "launchPath", "executableURL":
			sp = jsSpan(t)
			expr := toks[i+2 : jsExprEnd(toks, i+2)]
			var lit string
			for _, x := range expr {
				if x.kind == jsString {
					lit = x.val
				}
			}
			if lit == "" {
				known = false
			}
			argv = append([]string{lit}, argv...)
		case "arguments":
			if toks[i+2].text != "[" {
				known = false
				continue
			}
			for j := i + 3; j < len(toks) && toks[j].text != "]"; j++ {
				switch toks[j].kind {
				case jsString:
					argv = append(argv, toks[j].val)
				case jsPunct:
				default:
					known = false
				}
			}
		}
	}
	an.add(level.Dangerous, "jxa.nstask", sp, "NSTask: runs a program")
	if !known || len(argv) == 0 || argv[0] == "" {
		an.add(level.Destructive, "jxa.nstask-computed", sp, "NSTask runs a program or arguments computed at run time: cannot tell what runs")
		return
	}
	w := ShellArgv(argv, an.env)
	an.v.merge(w, &sp)
}

// template evaluates a string expression: literals and constant variables
// fold, anything else becomes an unquoted hole (JavaScript has no quoting).
func (an *jsAn) template(expr []jsToken, depth int) ([]string, bool) {
	if len(expr) == 0 {
		return nil, true
	}
	variants := []string{""}
	literal := false
	for _, term := range splitPlus(expr) {
		parts, lit := an.jsTerm(term, depth)
		literal = literal || lit
		var next []string
		for _, v := range variants {
			for _, p := range parts {
				if len(next) < maxVariants {
					next = append(next, v+p)
				}
			}
		}
		variants = next
	}
	return variants, !literal
}

func splitPlus(expr []jsToken) [][]jsToken {
	var out [][]jsToken
	depth, start := 0, 0
	for i, t := range expr {
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case "+":
			if depth == 0 && t.kind == jsPunct {
				out = append(out, expr[start:i])
				start = i + 1
			}
		}
	}
	return append(out, expr[start:])
}

func (an *jsAn) jsTerm(t []jsToken, depth int) ([]string, bool) {
	for len(t) > 2 && t[0].text == "(" && t[len(t)-1].text == ")" {
		t = t[1 : len(t)-1]
	}
	switch {
	case len(t) == 1 && (t[0].kind == jsString || t[0].kind == jsTemplate):
		return []string{t[0].val}, !(t[0].kind == jsTemplate && t[0].val == holeUnquoted)
	case len(t) == 1 && t[0].kind == jsNumber:
		return []string{t[0].text}, true
	case len(t) == 1 && t[0].kind == jsIdent:
		defs, ok := an.defs[t[0].text]
		if !ok || depth >= 4 {
			return []string{holeUnquoted}, false
		}
		var out []string
		lit := false
		for _, d := range defs {
			vs, whole := an.template(d, depth+1)
			lit = lit || !whole
			out = append(out, vs...)
		}
		if len(out) > maxVariants {
			out = out[:maxVariants]
		}
		return out, lit
	case len(t) > 0 && t[0].text == "[":
		// ['rm', '-rf'].join(' ')
		var parts []string
		joined := false
		k := 1
		for ; k < len(t) && t[k].text != "]"; k++ {
			if t[k].kind == jsString {
				parts = append(parts, t[k].val)
			} else if t[k].text != "," {
				return []string{holeUnquoted}, false
			}
		}
		if k+4 < len(t) && t[k+1].text == "." && t[k+2].text == "join" && t[k+4].kind == jsString {
			joined = true
			return []string{strings.Join(parts, t[k+4].val)}, true
		}
		if !joined {
			return []string{holeUnquoted}, false
		}
	}
	return []string{holeUnquoted}, false
}

func tokensText(ts []jsToken) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text)
		b.WriteByte(' ')
	}
	return b.String()
}
