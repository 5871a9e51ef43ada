package shell

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// word is one field of an evaluated shell word.
type word struct {
	s      string // the text; rate.HoleMark where a computed value goes
	hole   bool   // part of it is computed at run time
	splice bool   // a computed part came in unquoted (it may carry shell syntax)
	glob   bool   // unquoted glob characters
	proc   bool   // contains a process substitution <(…)
	guess  bool   // a hole whose text starts with a guessed home: ${ZDOTDIR:-$HOME}/.zshrc is ~/.zshrc
	gen    string // the whole word is the output of this local generator: "$(brew shellenv)"
	// secret names a variable that by its name holds a secret (GITHUB_TOKEN)
	// whose value, unknown to the script, is part of the word whole.
	secret string
	// sliced names such a variable a slice of which (${T:0:8}), too short
	// to be all of it, is part of the word: two are more.
	sliced string
	span   Span
}

// evalWord expands a word as far as the script itself determines it. With
// quoted set the result is one field (assignment values, redirect targets).
func (a *shellAn) evalWord(w *syntax.Word, quoted bool) []word {
	return a.appendWord(nil, w, quoted)
}

// appendWord appends the fields of w to out.
func (a *shellAn) appendWord(out []word, w *syntax.Word, quoted bool) []word {
	return a.appendFields(out, w, quoted, !quoted, a.span(w))
}

// maxBraceWords bounds a brace expansion: {1..100000} is treated as a glob.
const maxBraceWords = 256

func (a *shellAn) appendFields(out []word, w *syntax.Word, quoted, braces bool, sp Span) []word {
	// The common case: one plain literal (ls, -la, /tmp/x).
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\*?[_{") {
			return append(out, word{s: l.Value, span: sp})
		}
	}
	if a.sh.over {
		return append(out, word{s: rate.HoleMark, hole: true, glob: !quoted, span: sp})
	}
	if braces {
		if ws, many, ok := braceWords(w); ok {
			if many {
				n := len(out)
				out = a.appendFields(out, w, quoted, false, sp)
				for i := n; i < len(out); i++ {
					out[i].glob = true
				}
				return out
			}
			a.spend(len(ws) / 4)
			for _, e := range ws {
				out = a.appendFields(out, e, quoted, false, sp)
			}
			return out
		}
	}
	f := fields{a: a, out: out, cur: word{span: sp}, sp: sp, one: quoted}
	gen := ""
	if list := onlySubst(w); list != nil {
		gen = a.generator(list)
	}
	b := a.env.Bounds()
	for _, p := range w.Parts {
		if !b.Live() {
			break // stopped: end says so
		}
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if !quoted && strings.ContainsAny(v, "*?[") && unescapedGlob(v) {
				f.cur.glob = true
			}
			f.text = a.appendLit(&f.cur, f.text, unescapeUnquoted(v))
		case *syntax.SglQuoted:
			f.quotes = true
			if p.Dollar {
				f.text = a.appendLit(&f.cur, f.text, ansiC(p.Value))
			} else {
				f.text = a.appendLit(&f.cur, f.text, p.Value)
			}
		case *syntax.DblQuoted:
			f.quotes = true
			f.dblQuoted(p)
		case *syntax.ParamExp:
			f.paramExp(p, quoted)
		case *syntax.CmdSubst:
			if a.homeSubst(p) && len(f.text) == 0 && !f.cur.hole {
				a.subst(p, p.Stmts)
				f.text, f.cur.hole, f.cur.guess = append(f.text, '~'), true, true
				continue
			}
			a.subst(p, p.Stmts)
			f.hole(!quoted)
		case *syntax.ProcSubst:
			a.subst(p, p.Stmts)
			f.hole(false)
			f.cur.proc = true
		case *syntax.ArithmExp:
			syntax.Walk(p, a.walkSubst)
			a.arith(p)
			f.text = append(f.text, "0"...)
		case *syntax.ExtGlob:
			a.zshQualifiers(p)
			f.text = append(f.text, "*"...)
			f.cur.glob = true
		case *syntax.BraceExp:
			f.text = append(f.text, "*"...)
			f.cur.glob = true
		default:
			f.hole(false)
		}
	}
	f.cur.gen = gen
	f.flush()
	return f.out
}

// fields builds the words of one shell word as appendFields evaluates its
// parts.
type fields struct {
	a   *shellAn
	out []word
	cur word
	// text is cur's text while it is built (cur.s is set when it is
	// flushed): adding to a string copies it, and a word of many parts
	// ('a'\''b'\''c' …, as nested quoting makes) would cost its length
	// squared.
	text   []byte
	quotes bool // cur holds quotes: '' is an empty argument
	one    bool // one field (an assignment's value, a redirection's target): "${a[@]}" is joined
	sp     Span
}

// flush ends the current word.
func (f *fields) flush() {
	if len(f.text) > 0 || f.cur.hole || f.quotes {
		f.cur.s = string(f.text)
		f.out = append(f.out, f.cur)
	}
	f.cur, f.text = word{span: f.sp}, f.text[:0]
	f.quotes = false
}

// hole adds text the script does not determine.
func (f *fields) hole(glob bool) {
	f.text = append(f.text, rate.HoleMark...)
	f.cur.hole = true
	f.cur.guess = false
	if glob {
		f.cur.glob = true
	}
}

// param adds an expansion the script does not determine.
func (f *fields) param(p *syntax.ParamExp, glob bool) {
	if pat := f.a.loopGlobs[paramName(p)]; pat != "" && plainParam(p) {
		// for f in ~/.*; do cat "$f"; done reads what ~/.* matches.
		f.text = append(f.text, pat...)
		f.cur.glob = true
		return
	}
	syntax.Walk(p, f.a.walkSubst)
	f.hole(glob)
	n := f.a.heldSecret(paramName(p))
	if p.Excl && p.Names == 0 && p.Index == nil {
		// ${!n}, n=GITHUB_TOKEN: the value of the variable n names.
		n = ""
		if t, ok := f.a.vars[paramName(p)]; ok {
			n = f.a.heldSecret(t)
		} else if m, ok := f.a.prefixLoops[paramName(p)]; ok {
			n = m // for n in ${!GITHUB@}: GITHUB_TOKEN among them; for n in HOME USER: none
		} else if p.Param != nil {
			// A name chosen at run time (read n, n=$1, a substitution):
			// any variable, a secret's among them (prefixloop.go).
			n = "{!" + p.Param.Value + "}"
		}
	}
	if n != "" {
		switch {
		case printsValue(p):
			f.cur.secret = n
		case p.Slice != nil && f.cur.sliced == n:
			f.cur.secret = n // ${T:0:8}${T:8:8}…: the parts joined
		case p.Slice != nil:
			f.cur.sliced = n
		}
	}
}

// heldSecret is the secret variable name n stands for: n itself when its
// name says it holds a secret, or the one whose value the script copied
// into n (x=$GITHUB_TOKEN, printf -v x %s "$T", read x <<< "$T"), or "".
func (a *shellAn) heldSecret(n string) string {
	switch {
	case n == "":
		return ""
	case secretName(n):
		return n
	}
	return a.secretCopies[n]
}

// printsValue reports an expansion of a variable that prints its value,
// or as much of it (${T[0]} and ${T[@]} are a scalar's value): not ${#T},
// ${T:+set} (its length, another text), ${!T@} or ${!T[@]} (names and
// keys), nor a slice of a few characters from the start
// (${T:0:4}). A slice with no length (${T:4}) is all but the first
// characters; one longer than a prefix, or of a length computed at run
// time, may be all of it.
func printsValue(p *syntax.ParamExp) bool {
	if p.Length || p.Excl && (p.Names != 0 || p.Index != nil) || p.Exp != nil && (p.Exp.Op == syntax.AlternateUnset || p.Exp.Op == syntax.AlternateUnsetOrNull) {
		return false
	}
	if p.Slice == nil {
		return true
	}
	if p.Slice.Length == nil {
		// ${T:4} is all but the first characters; ${T: -4} the last few.
		off, ok := arithLit(p.Slice.Offset)
		return !ok || off >= 0 || -off > maxSecretPrefix
	}
	n, ok := arithLit(p.Slice.Length)
	return !ok || n < 0 || n > maxSecretPrefix
}

// maxSecretPrefix is how many of a secret's first characters a script may
// print to show which key it holds (sk-a…): a provider's prefix.
const maxSecretPrefix = 8

// arithLit is the value of a slice's offset or length written as a number.
func arithLit(e syntax.ArithmExpr) (int, bool) {
	sign := 1
	if u, ok := e.(*syntax.UnaryArithm); ok && u.Op == syntax.Minus && !u.Post {
		sign, e = -1, u.X
	}
	w, ok := e.(*syntax.Word)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(w.Lit())
	return sign * n, err == nil
}

// paramName is the name p expands, or "".
func paramName(p *syntax.ParamExp) string {
	if p.Param == nil {
		return ""
	}
	return p.Param.Value
}

// dblQuoted adds the parts of "…".
func (f *fields) dblQuoted(p *syntax.DblQuoted) {
	a := f.a
	for _, q := range p.Parts {
		switch q := q.(type) {
		case *syntax.Lit:
			f.text = a.appendLit(&f.cur, f.text, unescapeDouble(q.Value))
		case *syntax.ParamExp:
			if elems, all, ok := a.arrayElems(q); ok {
				f.quotedElems(elems, all, q)
				continue
			}
			if val, ok, guess := a.param(q); ok {
				if guess && len(f.text) == 0 && !f.cur.hole {
					f.text, f.cur.hole, f.cur.guess = append(f.text, val...), true, true
				} else if guess {
					f.hole(false)
				} else {
					f.text = append(f.text, val...)
				}
			} else {
				f.param(q, false)
			}
		case *syntax.CmdSubst:
			if a.homeSubst(q) && len(f.text) == 0 && !f.cur.hole {
				a.subst(q, q.Stmts)
				f.text, f.cur.hole, f.cur.guess = append(f.text, '~'), true, true
				continue
			}
			a.subst(q, q.Stmts)
			f.hole(false)
		default:
			syntax.Walk(q, a.walkSubst)
			f.hole(false)
		}
	}
}

// paramExp adds an unquoted or quoted $x, ${x…}.
func (f *fields) paramExp(p *syntax.ParamExp, quoted bool) {
	a := f.a
	if p.Index != nil {
		a.arith(p.Index) // ${a[x]}: an indexed array's subscript is arithmetic
	}
	if p.Slice != nil {
		a.arith(p.Slice.Offset)
		a.arith(p.Slice.Length)
	}
	val, ok, guess := a.param(p)
	if elems, _, known := a.arrayElems(p); known {
		// ${a[@]}, ${a[*]} unquoted: one word per element, when no
		// element holds a character IFS splits on (bash splits it,
		// zsh does not: the two would run different commands).
		ifs, known := a.ifs()
		for _, e := range elems {
			if !known || ifs == "" || e == "" || strings.ContainsAny(e, ifs+" \t\n") {
				f.param(p, !quoted)
				return
			}
		}
		val, ok, guess = strings.Join(elems, ifs[:1]), true, false
	}
	switch {
	case ok && guess:
		if len(f.text) == 0 && !f.cur.hole {
			f.text, f.cur.hole, f.cur.guess = append(f.text, val...), true, true
		} else {
			f.hole(!quoted)
		}
	case ok && !quoted:
		// An unquoted expansion splits on $IFS, blanks unless the
		// script sets it: X="rm -rf"; $X ~. IFS=,; X=rm,-rf,~; $X
		ifs, known := a.ifs()
		if !known && val != "" {
			f.param(p, true)
			return
		}
		split := func(r rune) bool { return strings.ContainsRune(ifs, r) }
		words := strings.FieldsFunc(val, split)
		if !a.ifsBefore(p) && !slices.Equal(words, strings.FieldsFunc(val, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })) {
			// X='rm -rf ~'; $X; IFS=_: where the script's IFS has not
			// been set yet (after it, in a loop, in a function not
			// yet called), blanks split: either runs.
			f.param(p, true)
			return
		}
		if len(words) == 0 {
			return
		}
		if strings.TrimLeftFunc(val, split) != val {
			f.flush()
		}
		for i, w := range words {
			if i > 0 {
				f.flush()
			}
			f.text = append(f.text, w...)
		}
		if strings.TrimRightFunc(val, split) != val {
			f.flush()
		}
	case ok:
		f.text = append(f.text, val...)
	case !quoted && p.Param != nil && p.Param.Value == "IFS" && p.Exp == nil && p.Repl == nil:
		f.flush() // ${IFS} splits words: rm${IFS}-rf
	default:
		// Unquoted, the value is split into words and globbed, but
		// never parsed as shell again: many unknown words.
		f.param(p, !quoted)
	}
}

// arrayElems returns the elements of a known array that ${a[@]} (all)
// and ${a[*]} give. ok is false for anything else (${#a[@]}, ${a[@]:1},
// ${!a[@]}, and ${a[1]} and $a, which bash and zsh read differently:
// zsh counts from 1, and its $a is every element).
func (a *shellAn) arrayElems(p *syntax.ParamExp) (elems []string, all, ok bool) {
	if p.Param == nil || p.Excl || p.Length || p.Slice != nil || p.Repl != nil || p.Exp != nil {
		return nil, false, false
	}
	arr, known := a.arrays[p.Param.Value]
	if !known {
		return nil, false, false
	}
	w, isWord := p.Index.(*syntax.Word)
	if !isWord {
		return nil, false, false
	}
	switch w.Lit() {
	case "@":
		return arr, true, true
	case "*":
		return arr, false, true
	}
	return nil, false, false
}

// quotedElems adds "${a[@]}" (all: one field per element, the text around
// it joined to the first and last) or "${a[*]}" (the elements joined by
// IFS's first character, one field) of a known array.
func (f *fields) quotedElems(elems []string, all bool, p *syntax.ParamExp) {
	if !all || f.one {
		sep := " "
		if !all {
			ifs, known := f.a.ifs()
			if !known {
				f.hole(false)
				return
			}
			sep = ifs[:min(1, len(ifs))]
			if !f.a.ifsBefore(p) && sep != " " && len(elems) > 1 {
				// IFS=_ after "${a[*]}" (or in a loop, a function):
				// joined by a blank where it has not run yet.
				f.hole(false)
				return
			}
		}
		f.text = append(f.text, strings.Join(elems, sep)...)
		return
	}
	for i, e := range elems {
		if i > 0 {
			f.flush()
			f.quotes = true // "" is still an argument
		}
		f.text = append(f.text, e...)
	}
}

// ifsBefore reports that the IFS ifs returns holds where p expands: the
// shell's own when the script never sets it, else the script's when it is
// set by a statement of its own at the top level before p (not in a
// function, a loop or a branch, and not after p, where blanks split).
func (a *shellAn) ifsBefore(p *syntax.ParamExp) bool {
	if _, set := a.vars["IFS"]; !set {
		return true
	}
	return a.ifsFrom >= 0 && p.Pos().IsValid() && int(p.Pos().Offset()) >= a.ifsFrom
}

// ifs returns the characters unquoted expansions split on: blanks, or the
// one literal value the script gives IFS. known is false when the script
// computes IFS or sets it more than once.
func (a *shellAn) ifs() (chars string, known bool) {
	if v, ok := a.vars["IFS"]; ok {
		return v, true
	}
	if a.dyn["IFS"] {
		return "", false
	}
	return " \t\n", true
}

// homeSubst reports a command substitution that prints the home folder:
// $(eval echo ~), $(dscl . -read /Users/$USER NFSHomeDirectory | …).
func (a *shellAn) homeSubst(p *syntax.CmdSubst) bool {
	start, end := int(p.Pos().Offset()), int(p.End().Offset())
	if !p.Pos().IsValid() || start < 0 || end > len(a.src) || start >= end {
		return false
	}
	if a.homes == nil {
		a.homes = newMarks(a.src, "HOME", "~", "NFSHomeDirectory")
	}
	return a.homes.within(start, end)
}

// homeGuess reports an expansion that stands for the home folder, or a
// folder of it, without the script saying so: $ZDOTDIR (zsh reads its
// start-up files there), ${XDG_CONFIG_HOME:-…}, ${X:-$HOME}.
func homeGuess(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil {
		return "", false
	}
	base := ""
	switch p.Param.Value {
	case "ZDOTDIR":
		base = "~"
	case "XDG_CONFIG_HOME":
		base = "~/.config"
	case "XDG_DATA_HOME":
		base = "~/.local/share"
	case "HOME":
		if p.Exp == nil {
			return "", false
		}
		base = "~"
	}
	if p.Exp == nil {
		return base, base != ""
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
	default:
		return "", false
	}
	if base != "" {
		return base, true
	}
	if p.Exp.Word != nil {
		if d, ok := homeWord(p.Exp.Word); ok {
			return d, true
		}
	}
	return "", false
}

// homeWord reads a default value that starts with the home: $HOME/.config,
// ~/.config.
func homeWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.ParamExp:
			if p.Param == nil || p.Param.Value != "HOME" || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil || p.Length || p.Excl {
				return "", false
			}
			b.WriteString("~")
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(unescapeDouble(q.Value))
				case *syntax.ParamExp:
					if q.Param == nil || q.Param.Value != "HOME" || q.Exp != nil || q.Repl != nil || q.Slice != nil || q.Index != nil || q.Length || q.Excl {
						return "", false
					}
					b.WriteString("~")
				default:
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	s := b.String()
	return s, s == "~" || strings.HasPrefix(s, "~/")
}

// braceWords expands {a,b} and {1..3} in the unquoted literal text of w.
// many reports an expansion too large to list (then ws is nil); ok is
// false when w has nothing to expand.
func braceWords(w *syntax.Word) (ws []*syntax.Word, many, ok bool) {
	found := false
	for _, p := range w.Parts {
		if l, isLit := p.(*syntax.Lit); isLit && strings.IndexByte(l.Value, '{') >= 0 {
			found = true
			break
		}
	}
	if !found {
		return nil, false, false
	}
	// SplitBraces reads only words made of literals and does not know
	// backslashes: stand in for quoted parts, expansions and escaped
	// characters with placeholders, and put them back after.
	const mark = "\x01"
	var held []syntax.WordPart
	proxy := &syntax.Word{}
	hold := func(p syntax.WordPart) {
		proxy.Parts = append(proxy.Parts, &syntax.Lit{Value: mark + strconv.Itoa(len(held)) + mark})
		held = append(held, p)
	}
	for _, p := range w.Parts {
		l, isLit := p.(*syntax.Lit)
		if !isLit {
			hold(p)
			continue
		}
		if strings.Contains(l.Value, mark) {
			return nil, true, true
		}
		v := l.Value
		for v != "" {
			i := strings.IndexByte(v, '\\')
			if i < 0 {
				proxy.Parts = append(proxy.Parts, &syntax.Lit{Value: v})
				break
			}
			if i > 0 {
				proxy.Parts = append(proxy.Parts, &syntax.Lit{Value: v[:i]})
			}
			j := min(len(v), i+2)
			for j < len(v) && v[j]&0xc0 == 0x80 {
				j++ // keep a multi-byte character whole
			}
			hold(&syntax.Lit{Value: v[i:j]})
			v = v[j:]
		}
	}
	if !syntax.SplitBraces(proxy) {
		return nil, false, false
	}
	n, has := braceCount(proxy.Parts)
	if !has {
		return nil, false, false
	}
	if n > maxBraceWords {
		return nil, true, true
	}
	for _, e := range expand.Braces(proxy) {
		var text strings.Builder
		for _, p := range e.Parts {
			if l, isLit := p.(*syntax.Lit); isLit {
				text.WriteString(l.Value)
			} else {
				return nil, true, true // not expected: give up safely
			}
		}
		out := &syntax.Word{}
		segs := strings.Split(text.String(), mark)
		for i, seg := range segs {
			if i%2 == 1 {
				k, err := strconv.Atoi(seg)
				if err != nil || k >= len(held) {
					return nil, true, true
				}
				out.Parts = append(out.Parts, held[k])
			} else if seg != "" {
				out.Parts = append(out.Parts, &syntax.Lit{Value: seg})
			}
		}
		ws = append(ws, out)
	}
	return ws, false, true
}

// braceCount is how many words a split word expands to (capped), and
// whether it holds any brace expansion at all.
func braceCount(parts []syntax.WordPart) (int, bool) {
	n, has := 1, false
	for _, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		has = true
		m := 0
		if br.Sequence {
			from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
			x, err1 := strconv.Atoi(from)
			y, err2 := strconv.Atoi(to)
			if err1 != nil || err2 != nil {
				if len(from) == 1 && len(to) == 1 {
					x, y = int(from[0]), int(to[0])
				} else {
					return maxBraceWords + 1, true
				}
			}
			// As expand.Braces counts: the increment only when it goes
			// the right way.
			step := 1
			if len(br.Elems) > 2 {
				if s, err := strconv.Atoi(br.Elems[2].Lit()); err == nil && s != 0 && s > 0 == (x <= y) && s != -s {
					step = max(s, -s)
				}
			}
			// Far ends would overflow expand.Braces' counter (and ours).
			const far = 1 << 30
			if x > far || x < -far || y > far || y < -far || step > far {
				return maxBraceWords + 1, true
			}
			d := max(x-y, y-x)
			if step <= 0 || d/step > maxBraceWords {
				return maxBraceWords + 1, true
			}
			m = d/step + 1
		} else {
			for _, e := range br.Elems {
				c, _ := braceCount(e.Parts)
				m += c
			}
		}
		n *= max(m, 1)
		if n > maxBraceWords {
			return maxBraceWords + 1, true
		}
	}
	return n, has
}

// appendLit adds literal text to text, cur's text, turning placeholders
// into holes in cur.
func (a *shellAn) appendLit(cur *word, text []byte, s string) []byte {
	if strings.Contains(s, "__AIRLOCK_") {
		if strings.Contains(s, rate.HoleUnquoted) {
			cur.splice = true
			cur.hole = true
			s = strings.ReplaceAll(s, rate.HoleUnquoted, rate.HoleMark)
		}
		if strings.Contains(s, rate.HoleQuoted) {
			cur.hole = true
			s = strings.ReplaceAll(s, rate.HoleQuoted, rate.HoleMark)
		}
		cur.guess = false
	}
	return append(text, s...)
}

// param resolves $HOME and variables with one literal value; guess says
// the value starts with a guessed home (see homeGuess).
func (a *shellAn) param(p *syntax.ParamExp) (val string, ok, guess bool) {
	if p.Param != nil && secretName(p.Param.Value) && !p.Length {
		a.add(effect.Of(effect.ReadNamedSecret).On(p.Param.Value), "secret.variable", a.span(p), "reads $%s, which by its name holds a secret", p.Param.Value)
		a.secretAt(a.span(p))
	}
	if g, ok := homeGuess(p); ok {
		return g, true, true
	}
	conv, convOK := caseConv(p.Exp)
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil && !convOK {
		return "", false, false
	}
	name := p.Param.Value
	if convOK {
		// ${c,,}, ${c^^}, ${c@L}: the known value, its case changed
		// (c=RM; ${c,,} -rf ~ is rm). The home's own value is not
		// known here, only that it is the home.
		v, ok := a.vars[name]
		if !ok || name == "HOME" || a.guess[name] || !isASCII(v) || !a.env.Bounds().Expand(len(v)) {
			return "", false, false
		}
		return conv(v), true, false
	}
	if name == "HOME" {
		return "~", true, false
	}
	v, ok := a.vars[name]
	if !ok && !a.dyn[name] && a.env != nil && a.env.Self != nil {
		// AIRLOCK_DATA_DIR: the environment the gate was given.
		if v, ok = a.env.Self.Vars[name]; ok {
			return v, true, false
		}
	}
	if ok && !a.env.Bounds().Expand(len(v)) {
		// $X$X$X… of a long value: past the budget it is not copied
		// again, and stands for text not known.
		return "", false, false
	}
	return v, ok, ok && a.guess[name]
}

// caseConv returns the change of case an expansion's operator makes to the
// whole value: ${x^^} ${x,,} ${x^} ${x,} and bash 5.1's ${x@U} ${x@L}
// ${x@u}. ok is false for any other operator, and for a pattern that
// limits the change to some letters (${x^^[a-m]}).
func caseConv(e *syntax.Expansion) (conv func(string) string, ok bool) {
	if e == nil {
		return nil, false
	}
	first := func(f func(string) string) func(string) string {
		return func(s string) string {
			if s == "" {
				return s
			}
			return f(s[:1]) + s[1:]
		}
	}
	if e.Op == syntax.OtherParamOps {
		if e.Word == nil {
			return nil, false
		}
		switch e.Word.Lit() {
		case "U":
			return strings.ToUpper, true
		case "L":
			return strings.ToLower, true
		case "u":
			return first(strings.ToUpper), true
		}
		return nil, false
	}
	if e.Word != nil && len(e.Word.Parts) > 0 {
		return nil, false
	}
	switch e.Op {
	case syntax.UpperAll:
		return strings.ToUpper, true
	case syntax.LowerAll:
		return strings.ToLower, true
	case syntax.UpperFirst:
		return first(strings.ToUpper), true
	case syntax.LowerFirst:
		return first(strings.ToLower), true
	}
	return nil, false
}

// isASCII reports text whose case bash changes the same in every locale.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// unescapedGlob reports glob syntax: * and ? unescaped, or a [ with a ]
// after it (a lone [ is the test command).
func unescapedGlob(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(v[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// unescapeUnquoted removes the backslashes of unquoted text: \r\m is rm.
func unescapeUnquoted(s string) string { return unescape(s, "") }

// unescapeDouble removes the backslashes that mean something inside "…".
func unescapeDouble(s string) string { return unescape(s, "$`\"\\\n") }

// unescape drops each backslash that escapes a byte of escapable (any byte
// when escapable is empty); a backslash-newline is a line continuation.
func unescape(s, escapable string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (escapable == "" || strings.IndexByte(escapable, s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes bash's $'…' escapes: $'\x72\x6d' is rm.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if e == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func allKnown(ws []word) bool {
	for _, w := range ws {
		if w.hole {
			return false
		}
	}
	return true
}

// commandName lower-cases a command word and drops its directory: on
// macOS's case-insensitive disk, /BIN/RM is rm. zsh's zsh/files module
// names its builtin rm, mv … zf_rm, zf_mv …: each is the program it copies.
func commandName(s string) string {
	n := strings.ToLower(path.Base(s))
	if p, ok := strings.CutPrefix(n, "zf_"); ok && zshFiles[p] {
		return p
	}
	return n
}

// zshFiles are the builtins of zsh's zsh/files module (zshmodules(1)).
var zshFiles = map[string]bool{"chgrp": true, "chmod": true, "chown": true, "ln": true, "mkdir": true, "mv": true, "rm": true, "rmdir": true, "sync": true}

// recordWrites remembers what this input writes into files, so running the
// file later (sh /tmp/x.sh) is judged by what was written.
func (a *shellAn) recordWrites(rs []*syntax.Redirect, rws [][]word, content string, known bool) {
	for i, r := range rs {
		if r.Word == nil || (r.Op != syntax.RdrOut && r.Op != syntax.AppOut && r.Op != syntax.ClbOut && r.Op != syntax.RdrAll && r.Op != syntax.AppAll) {
			continue
		}
		ws := rws[i]
		if len(ws) != 1 || ws[0].hole && !ws[0].guess {
			continue
		}
		c := content
		if !known {
			c = fileComputed
		}
		key := a.fileKey(ws[0].s)
		if r.Op == syntax.AppOut || r.Op == syntax.AppAll {
			switch prev, ok := a.files[key]; {
			case !ok:
			case prev == fileComputed || prev == fileDownloaded:
				c = prev // appending to unknown content leaves it unknown
			case known:
				c = prev + c
			}
		}
		if len(c) > maxFileText {
			c = fileComputed // too much to keep (and to analyse when run)
		}
		a.files = setMap(a.files, key, c)
		a.noteBin(key)
	}
}

func (a *shellAn) setFile(name, content string) {
	key := a.fileKey(name)
	a.files = setMap(a.files, key, content)
	a.noteBin(key)
}

// noteBin remembers a file written into a folder on the usual command
// path (~/bin, ~/.local/bin …): a later command of that name runs it.
func (a *shellAn) noteBin(key string) {
	if dir := path.Dir(key); usualCodeDir(dir) || trustedBinDir(dir) {
		a.bins = setMap(a.bins, commandName(key), key)
	}
}

func setMap(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// fileKey is the name under which files records a path: cleaned, and
// joined to the working directory when the script set one.
func (a *shellAn) fileKey(p string) string {
	if p == "" {
		return p
	}
	if a.cwd != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		return joinPath(a.cwd, p)
	}
	if strings.HasPrefix(p, "~/") {
		return "~" + path.Clean(p[1:])
	}
	return path.Clean(p)
}

// joinPath joins a relative path to a directory written /… or ~/…; it
// returns "" when .. climbs out of the home.
func joinPath(dir, rel string) string {
	if strings.HasPrefix(dir, "~") {
		j := path.Join("/", dir[1:], rel)
		if strings.HasPrefix(path.Clean(rel), "..") && path.Join("/", dir[1:]) == "/" {
			return ""
		}
		if j == "/" {
			return "~"
		}
		return "~" + j
	}
	return path.Join(dir, rel)
}

// pathOf returns the path a word names, for classification: its text, the
// working directory joined to a relative one, a guessed home in place of
// ${ZDOTDIR:-$HOME}, a user name in place of /Users/$USER. ok is false when
// the path is not known well enough.
func (a *shellAn) pathOf(w word) (string, bool) {
	s := w.s
	if w.hole {
		switch {
		case w.guess && !strings.Contains(s, rate.HoleMark):
		case strings.HasPrefix(s, "/Users/") || strings.HasPrefix(s, "/home/"):
			base := s[:strings.IndexByte(s[1:], '/')+2]
			user, rest, _ := strings.Cut(s[len(base):], "/")
			if !strings.Contains(user, rate.HoleMark) || strings.Contains(rest, rate.HoleMark) {
				return "", false
			}
			s = base + "someone"
			if rest != "" {
				s += "/" + rest
			}
		default:
			return "", false
		}
	}
	if a.cwd != "" && s != "" && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "-") {
		if j := joinPath(a.cwd, s); j != "" {
			return j, true
		}
		return "", false
	}
	return s, true
}

// resolved is w with its text replaced by the path it names, when that is
// known (see pathOf), ready for zone, writeTarget and readSource.
func (a *shellAn) resolved(w word) word {
	if !w.hole && a.cwd == "" {
		return w
	}
	if p, ok := a.pathOf(w); ok {
		w.s, w.hole, w.glob, w.splice = p, false, false, false
	}
	return w
}

func (a *shellAn) zoneOf(w word) rate.Zone { return a.zone(a.resolved(w)) }

func (a *shellAn) read(w word, sp Span) {
	r := a.resolved(w)
	a.readSource(r, sp)
	if r.hole && !strings.HasPrefix(r.s, rate.HoleMark) && a.env != nil && a.env.Paths != nil {
		// ~/$d/id_ed25519, /Users/me/"$d"/.netrc: a folder computed at
		// run time between literal parts: a secret file by its name,
		// wherever the folder is.
		tail := r.s[strings.LastIndex(r.s, rate.HoleMark)+len(rate.HoleMark):]
		if strings.HasPrefix(tail, "/") && len(tail) > 1 {
			if what, named := rate.SecretFile(tail); named {
				a.add(effect.Of(effect.ReadSecret, effect.Computed), "secret.file-maybe", sp, "reads …%s, by its name %s, wherever the computed folder is", rate.Display(tail), what)
				a.secretAt(sp)
			}
		}
	}
	if r.hole && strings.HasPrefix(r.s, rate.HoleMark) && a.env != nil && a.env.Paths != nil {
		// "$d/.aws/credentials", where a nameref or a function's
		// argument names the home: a credential store's file, if $d is
		// the home (as write's start-up files are).
		tail := r.s[strings.LastIndex(r.s, rate.HoleMark)+len(rate.HoleMark):]
		if strings.HasPrefix(tail, "/") && len(tail) > 1 {
			z := rate.ClassifyPath(a.env, "~"+tail)
			switch what, named := rate.SecretFile(tail); {
			case named:
				a.add(effect.Of(effect.ReadSecret, effect.Computed), "secret.file-maybe", sp, "reads …%s, by its name %s, wherever the computed folder is", rate.Display(tail), what)
				a.secretAt(sp)
			case z.Kind == rate.ZoneCredential && !z.Pub:
				a.add(effect.Of(effect.ReadSecret, effect.Computed), "secret.file-maybe", sp, "reads …%s: if the computed folder is the home, %s", rate.Display(tail), z.Detail)
				a.secretAt(sp)
			}
		}
	}
}

// write rates writing a file: writeTarget, plus what it does not see —
// raw disks and targets under a computed folder that may be the home.
func (a *shellAn) write(w word, sp Span, verb string) {
	a.guard(w, sp, rate.UseWrite)
	r := a.resolved(w)
	if r.hole && strings.HasPrefix(r.s, rate.HoleMark) && a.env != nil && a.env.Paths != nil {
		// "$dir/.zshrc": a start-up file, if $dir is the home.
		tail := r.s[strings.LastIndex(r.s, rate.HoleMark)+len(rate.HoleMark):]
		if strings.HasPrefix(tail, "/") && len(tail) > 1 {
			if z := rate.ClassifyPath(a.env, "~"+tail); z.Kind == rate.ZonePersistence {
				a.add(effect.Of(effect.Overwrite, effect.Computed), "shell.persistence-maybe", sp, "%s …%s: if the computed folder is the home, %s runs code automatically", verb, rate.Display(tail), z.Detail)
			}
		}
	}
	if !r.hole {
		if isRawDisk(r.s) {
			a.add(effect.Of(effect.Disk).On(r.s), "shell.raw-disk", sp, "%s %s: overwrites a disk directly, destroying its file system", verb, rate.Display(r.s))
			return
		}
	}
	a.securityTarget(r, sp, verb)
	// writeTarget rates persistence first, also inside system folders
	// (/etc/zshrc, /Library/LaunchDaemons) and in relative paths (.git/hooks).
	a.writeTarget(r, sp, verb)
}

// isRawDisk reports a whole-disk device: /dev/disk2, /dev/rdisk0s1.
func isRawDisk(s string) bool {
	if len(s) < 6 || s[0] != '/' || !strings.EqualFold(s[:5], "/dev/") && !(len(s) > 13 && strings.EqualFold(s[:13], "/private/dev/")) {
		return false
	}
	s = strings.TrimPrefix(strings.ToLower(path.Clean(s)), "/private")
	for _, p := range []string{"/dev/disk", "/dev/rdisk", "/dev/sd", "/dev/nvme", "/dev/hd", "/dev/mmcblk"} {
		if strings.HasPrefix(s, p) && len(s) > len(p) {
			return true
		}
	}
	return false
}

// fileContent is what this input put into the file at p: the text it
// wrote, or a marker (downloaded, computed). A file under a folder a
// download was extracted into is downloaded. ok is false for a file the
// input did not produce.
func (a *shellAn) fileContent(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	key := a.fileKey(p)
	if c, ok := a.files[key]; ok {
		return c, true
	}
	for _, d := range a.dlDirs {
		switch {
		case d == "" && !strings.HasPrefix(key, "/") && !strings.HasPrefix(key, "~"),
			d != "" && (key == d || strings.HasPrefix(key, strings.TrimSuffix(d, "/")+"/")):
			return fileDownloaded, true
		}
	}
	return "", false
}

// downloadedInto records that a download was unpacked into dir (a word
// that names it; none: the working directory).
func (a *shellAn) downloadedInto(dir word, has bool) {
	d := ""
	switch {
	case has && dir.hole:
		return
	case has:
		d = a.fileKey(dir.s)
	case a.cwd != "":
		d = a.cwd
	}
	if d == "." {
		d = ""
	}
	if len(a.dlDirs) < 64 {
		a.dlDirs = append(a.dlDirs, d)
	}
}

// onlySubst returns the statements of a word that is one command or
// process substitution and nothing else: $(…), "$(…)", <(…).
func onlySubst(w *syntax.Word) []*syntax.Stmt {
	if len(w.Parts) != 1 {
		return nil
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	switch p := p.(type) {
	case *syntax.CmdSubst:
		return p.Stmts
	case *syntax.ProcSubst:
		return p.Stmts
	}
	return nil
}

// generatorTools print shell code to set up the shell (eval "$(brew
// shellenv)"); true: whatever its arguments, false: with a generator
// subcommand or option (generatorWords).
var generatorTools = map[string]bool{
	"brew": false, "starship": false, "zoxide": false, "pyenv": false, "rbenv": false, "nodenv": false, "goenv": false,
	"jenv": false, "plenv": false, "phpenv": false, "direnv": false, "fnm": false, "mise": false, "rtx": false,
	"atuin": false, "fzf": false, "gh": false, "kubectl": false, "helm": false, "keychain": false, "conda": false,
	"mamba": false, "micromamba": false, "op": false, "npm": false, "pip": false, "pip3": false, "rustup": false,
	"mcfly": false, "navi": false, "opam": false, "luarocks": false, "docker-machine": false, "minikube": false,
	"oh-my-posh": false, "uv": false, "rye": false, "poetry": false, "pdm": false, "hub": false, "scmpuff": false,
	"zellij": false, "sheldon": false, "antidote": false, "volta": false, "pnpm": false, "hcloud": false, "doctl": false,
	"thefuck": true, "ssh-agent": true, "dircolors": true, "gdircolors": true, "path_helper": true,
	"register-python-argcomplete": true,
}

var generatorWords = map[string]bool{
	"init": true, "shellenv": true, "hook": true, "env": true, "activate": true, "completion": true, "completions": true,
	"shell.zsh": true, "shell.bash": true, "shell.fish": true, "shell": true, "virtualenv-init": true, "docker-env": true,
	"podman-env": true, "path": true, "alias": true, "widget": true, "generate-shell-completion": true,
	"--zsh": true, "--bash": true, "--fish": true, "-s": true, "--alias": true, "--eval": true, "-b": true,
}

// generator names the program whose output a substitution is, when that
// is a local program that prints shell set-up code: one simple command,
// all literal, neither a downloader, decoder, interpreter nor anything
// else whose output the script controls, and no file this input made.
func (a *shellAn) generator(list []*syntax.Stmt) string {
	if len(list) != 1 || list[0] == nil {
		return ""
	}
	st := list[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Negated || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return ""
	}
	for _, r := range st.Redirs {
		if r.Op == syntax.DplOut {
			continue
		}
		if r.Word == nil {
			return ""
		}
		if t, ok := literalWord(r.Word); !ok || t != "/dev/null" || r.Op != syntax.RdrOut && r.Op != syntax.RdrAll && r.Op != syntax.AppOut {
			return ""
		}
	}
	words := make([]string, len(ce.Args))
	for i, w := range ce.Args {
		s, ok := literalWord(w)
		if !ok {
			return ""
		}
		if _, made := a.fileContent(s); made && (i > 0 || strings.Contains(s, "/")) {
			return ""
		}
		words[i] = s
	}
	name := commandName(words[0])
	if _, ok := a.rebind[name]; ok || a.funcs[name] || name == "" || len(a.dlDirs) > 0 {
		return "" // (after unpacking a download, the program may be the download)
	}
	if _, ok := a.bins[name]; ok {
		return "" // the script wrote a program by that name
	}
	bare, listed := generatorTools[name]
	if !listed {
		if _, known := rows.row(name); known || prefixCommand(name) != nil {
			return ""
		}
	}
	if bare {
		return name
	}
	first := ""
	for _, s := range words[1:] {
		if generatorWords[s] && strings.HasPrefix(s, "-") {
			return name
		}
		if first == "" && !strings.HasPrefix(s, "-") {
			first = s
		}
	}
	if generatorWords[strings.ToLower(first)] {
		return name
	}
	return ""
}
