package shell

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// pipeline walks a | b | c, telling each stage what feeds it. Its stages
// run in subshells: a cd there does not last.
func (a *shellAn) pipeline(c *syntax.BinaryCmd, pc pipeCtx) {
	scr := a.sh.scratch()
	stages := scr.takeStmts()
	stages = appendStages(appendStages(stages, c.X), c.Y)
	defer scr.giveStmts(stages)
	feed := pc
	feed.inPipe = true
	cwd := a.cwd
	ins := a.pipeIns
	a.pipeIns = make([]word, 0, 4)
	envBefore := a.envAt
	var dumpAt *Span
	dump := -1
	namesBefore := a.namesAt
	var namesAt *Span
	names := -1
	for i, s := range stages {
		a.envAt, a.namesAt = nil, nil
		out := a.stmt(s, feed)
		if a.envAt != nil && dumpAt == nil {
			dumpAt, dump = a.envAt, i
		}
		if a.namesAt != nil && namesAt == nil {
			namesAt, names = a.namesAt, i
		}
		feed = pipeCtx{inPipe: true, stdin: out.kind, text: out.text, obf: out.obf, roots: out.roots}
	}
	a.cwd, a.pipeIns = cwd, ins
	if dumpAt != nil {
		// The names alone (env | cut -d= -f1) are names compgen -v
		// might have listed: fed on, each reaches its value.
		filtered, at := envFiltered(stages[dump+1:])
		switch {
		case !filtered && !pc.inPipe && !stdoutRedirected(stages[len(stages)-1], nil):
			a.envToAgent(*dumpAt, " through the pipeline")
		case filtered && at >= 0 && namesAt == nil:
			namesAt, names = dumpAt, dump+1+at
		}
	}
	a.envAt = envBefore
	if dumpAt != nil {
		a.envAt = dumpAt
	}
	a.namesAt = namesBefore
	if namesAt != nil {
		if !namesKept(stages[names+1:]) {
			a.namesFed(*namesAt, "the pipeline")
		}
		a.namesAt = namesAt
	}
}

// appendStages appends the stages of the pipeline s to stages: s itself
// when it is not a pipeline (or one with redirections of its own).
func appendStages(stages []*syntax.Stmt, s *syntax.Stmt) []*syntax.Stmt {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
		return appendStages(appendStages(stages, b.X), b.Y)
	}
	return append(stages, s)
}

// produces classifies what a command writes to stdout, for the stage after
// it: downloads and decoders matter when the next stage is a shell.
func (a *shellAn) produces(name string, args []word, in pipeCtx) output {
	switch {
	case name == "":
		return output{kind: "pipe"}
	case downloaders[name]:
		return output{kind: "download"}
	case name == "base64" || name == "xxd" || name == "uudecode" || name == "openssl" || name == "rev" || name == "gunzip" ||
		name == "zcat" || name == "gzip" || name == "bzcat" || name == "xz" || name == "echo" || name == "printf" ||
		name == "gzcat" || name == "xzcat" || name == "lzcat" || name == "bzip2" || name == "base32" || name == "basenc" ||
		name == "b64decode" || name == "iconv":
		return output{kind: "decoded"}
	case name == "tr" && in.stdin != "":
		return output{kind: "decoded"}
	case name == "cat" && in.stdin == "text" && len(operands(args)) == 0:
		return output{kind: "text", text: in.text, obf: in.obf}
	case name == "cat" && in.stdin == "download":
		return output{kind: "download"}
	}
	if in.stdin == "download" {
		return output{kind: "download"}
	}
	if roots := listedRoots(name, args); len(roots) > 0 {
		return output{kind: "pipe", roots: roots}
	}
	return output{kind: "pipe"}
}

// listedRoots are the folders whose paths find, fd and ls print: find's
// starting points (the words before its first expression), fd's search
// paths (the words after its pattern), ls's operands.
func listedRoots(name string, args []word) []word {
	var roots []word
	switch name {
	case "find", "gfind":
		for _, w := range args {
			if strings.HasPrefix(w.s, "-") && !w.hole || w.s == "(" || w.s == "!" {
				if len(roots) > 0 || !inList(w.s, "-H", "-L", "-P", "-E", "-X", "-d", "-s", "-x") {
					break
				}
				continue
			}
			roots = append(roots, w)
		}
	case "fd", "fdfind":
		ops := operands(args)
		if len(ops) > 1 {
			roots = append(roots, ops[1:]...)
		}
	case "ls":
		roots = append(roots, operands(args)...)
	}
	return roots
}

// printed returns what echo, printf and cat (of literal text) print, when
// the script determines it; obf says escapes spelled some of it.
func (a *shellAn) printed(name string, args, ops []word, pc pipeCtx) (text string, known, obf bool) {
	switch name {
	case "cat":
		if len(ops) == 0 && pc.stdin == "text" {
			return pc.text, true, pc.obf
		}
		return "", false, false
	case "echo":
		if !allKnown(args) {
			return "", false, false
		}
		newline, escapes := true, false
		i := 0
		for ; i < len(args); i++ {
			s := args[i].s
			if len(s) < 2 || s[0] != '-' || strings.Trim(s[1:], "neE") != "" {
				break
			}
			for _, f := range s[1:] {
				switch f {
				case 'n':
					newline = false
				case 'e':
					escapes = true
				case 'E':
					escapes = false
				}
			}
		}
		parts := make([]string, 0, len(args)-i)
		for _, w := range args[i:] {
			parts = append(parts, w.s)
		}
		text = strings.Join(parts, " ")
		if escapes || strings.Contains(text, `\`) {
			// zsh's echo decodes escapes without -e.
			var stop bool
			text, obf, stop = decodeEscapes(text, true)
			if stop {
				newline = false
			}
		}
		if newline {
			text += "\n"
		}
		return text, true, obf
	case "printf":
		if !allKnown(args) || len(args) == 0 {
			return "", false, false
		}
		rest := args
		if rest[0].s == "--" {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0].s == "-v" {
			return "", false, false // assigns a variable instead
		}
		if len(rest) == 0 {
			return "", false, false
		}
		vals := make([]string, len(rest)-1)
		for i, w := range rest[1:] {
			vals[i] = w.s
		}
		return printfText(rest[0].s, vals)
	}
	return "", false, false
}

// printfText formats like printf(1) for literal arguments: %s %b %c %d %i
// %o %u %x %X %e %f %g %%, widths and precisions, and backslash escapes
// (\NNN octal, \xHH hex). ok is false for what it does not implement.
func printfText(format string, args []string) (out string, ok, obf bool) {
	const limit = 1 << 20
	var b strings.Builder
	ai := 0
	for pass := 0; ; pass++ {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' {
				n, s, o := oneEscape(format[i:], false)
				if o {
					obf = true
				}
				b.WriteString(s)
				i += n - 1
				continue
			}
			if c != '%' {
				b.WriteByte(c)
				continue
			}
			j := i + 1
			if j < len(format) && format[j] == '%' {
				b.WriteByte('%')
				i = j
				continue
			}
			for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
				j++
			}
			num := func() bool {
				k := j
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				return j-k <= 4
			}
			if !num() {
				return "", false, false
			}
			if j < len(format) && format[j] == '.' {
				j++
				if !num() {
					return "", false, false
				}
			}
			if j >= len(format) {
				return "", false, false
			}
			spec, verb := format[i:j], format[j]
			arg := ""
			if ai < len(args) {
				arg = args[ai]
				ai++
				used = true
			}
			switch verb {
			case 's':
				b.WriteString(fmt.Sprintf(spec+"s", arg))
			case 'b':
				dec, o, stop := decodeEscapes(arg, true)
				if o {
					obf = true
				}
				b.WriteString(fmt.Sprintf(spec+"s", dec))
				if stop {
					return b.String(), true, obf
				}
			case 'c':
				if arg != "" {
					b.WriteString(fmt.Sprintf(spec+"s", arg[:1]))
				}
			case 'd', 'i', 'o', 'u', 'x', 'X':
				n, err := strconv.ParseInt(strings.TrimSpace(arg), 0, 64)
				if err != nil && len(arg) > 1 && (arg[0] == '\'' || arg[0] == '"') {
					n, err = int64(arg[1]), nil
				}
				if err != nil && arg != "" {
					return "", false, false
				}
				v := verb
				if v == 'i' || v == 'u' {
					v = 'd'
				}
				b.WriteString(fmt.Sprintf(spec+string(v), n))
			case 'e', 'E', 'f', 'F', 'g', 'G':
				f, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
				if err != nil && arg != "" {
					return "", false, false
				}
				b.WriteString(fmt.Sprintf(spec+string(verb), f))
			default:
				return "", false, false
			}
			i = j
			if b.Len() > limit {
				return "", false, false
			}
		}
		if !used || ai >= len(args) || pass > 1000 {
			break
		}
	}
	return b.String(), true, obf
}

// oneEscape decodes the backslash escape at the start of s: how many bytes
// it takes, what it stands for, and whether it spelled a byte in hex or
// octal. echo says the escape is echo's (\0NNN, \c) rather than printf's.
func oneEscape(s string, echo bool) (n int, out string, obf bool) {
	if len(s) < 2 {
		return len(s), s, false
	}
	switch e := s[1]; e {
	case 'n':
		return 2, "\n", false
	case 't':
		return 2, "\t", false
	case 'r':
		return 2, "\r", false
	case 'a':
		return 2, "\a", false
	case 'b':
		return 2, "\b", false
	case 'f':
		return 2, "\f", false
	case 'v':
		return 2, "\v", false
	case 'e', 'E':
		return 2, "\x1b", false
	case '\\':
		return 2, "\\", false
	case '"', '\'':
		if echo {
			return 2, s[:2], false
		}
		return 2, s[1:2], false
	case 'x':
		j := 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			j++
		}
		if j == 2 {
			return 2, s[:2], false
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 8)
		return j, string([]byte{byte(v)}), true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j, max := 1, 4
		if echo {
			if e != '0' {
				return 2, s[:2], false
			}
			j, max = 2, 5 // \0NNN
		}
		for j < len(s) && j < max && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint("0"+s[1:j], 8, 16)
		return j, string([]byte{byte(v)}), true
	}
	return 2, s[:2], false
}

// decodeEscapes decodes the backslash escapes of echo -e or printf %b; stop
// reports \c (print nothing more).
func decodeEscapes(s string, echo bool) (out string, obf, stop bool) {
	if !strings.Contains(s, `\`) {
		return s, false, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == 'c' {
			return b.String(), obf, true
		}
		n, d, o := oneEscape(s[i:], echo)
		if o {
			obf = true
		}
		b.WriteString(d)
		i += n - 1
	}
	return b.String(), obf, false
}

// redirects rates output redirections: writing into persistence or system
// locations, and truncating files. ws holds each redirection's evaluated
// word.
func (a *shellAn) redirects(rs []*syntax.Redirect, rws [][]word, truncating, shellCmd bool) {
	for i, r := range rs {
		if r.Word == nil {
			continue
		}
		if t := r.Word.Lit(); strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			if shellCmd {
				a.add(effect.Of(effect.Connect, effect.Terminal).On(t), "shell.reverse-shell", a.span(r), "connects a shell to %s: hands control of this Mac to a remote host", t)
			} else {
				a.add(effect.Of(effect.Connect).On(t), "shell.raw-socket", a.span(r), "opens a network connection to %s", t)
			}
			a.egress("network", a.span(r), "sends data to %s", t)
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
			ws := rws[i]
			if len(ws) != 1 {
				continue
			}
			w := ws[0]
			if isDevice(w.s) {
				continue
			}
			replacing := r.Op == syntax.RdrOut || r.Op == syntax.ClbOut || r.Op == syntax.RdrAll
			if truncating && replacing {
				a.add(effect.Of(effect.Remove).On(w.s), "shell.truncate", a.span(r), "truncates %s to zero length", rate.Display(w.s))
			} else if replacing {
				a.replaces(w, a.span(r), "writes to")
			}
			a.write(w, a.span(r), "writes to")
		case syntax.RdrIn:
			for _, w := range rws[i] {
				a.guard(w, a.span(r), rate.UseRead)
				a.read(w, a.span(r))
			}
		case syntax.DplOut, syntax.DplIn:
		}
	}
}

// readsOwnOutput rates a command whose > redirection names a file it
// reads, by < or as an operand: tr -d x < f > f, sort f > f. The shell
// empties the file before the command starts, so what it held is lost
// whatever the command prints.
func (a *shellAn) readsOwnOutput(name string, ops []word, rs []*syntax.Redirect, rws [][]word, pc pipeCtx) {
	var ins []word
	for i, r := range rs {
		if r.Op == syntax.RdrIn && len(rws[i]) == 1 {
			ins = append(ins, rws[i][0])
		}
	}
	if !noPathRead[name] && !shells[name] {
		for _, o := range ops {
			// Only what is spelled as a path: seq 1 10 > 10 reads no file 10.
			if o.hole || strings.ContainsAny(o.s, "/.~") {
				ins = append(ins, o)
			}
		}
	}
	if pc.inPipe && a.pipeIns != nil {
		// A stage of a pipeline: the stages run at once, so a file an
		// earlier one reads is emptied by a later one's > before, or
		// while, it is read.
		own := len(ins)
		ins = append(ins, a.pipeIns...)
		a.pipeIns = append(a.pipeIns, ins[:own]...)
	}
	if len(ins) == 0 {
		return
	}
	for i, r := range rs {
		if r.Op != syntax.RdrOut && r.Op != syntax.ClbOut && r.Op != syntax.RdrAll || len(rws[i]) != 1 || isDevice(rws[i][0].s) {
			continue
		}
		for _, in := range ins {
			a.ontoInput(in, rws[i][0], a.span(r), rate.Display(name)+" (through >)")
		}
	}
}

func isDevice(s string) bool {
	switch s {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-":
		return true
	}
	// A word of digits is a file's name: > 10 and curl -o 10 write a file
	// called 10 (a descriptor is duplicated only by >&10, a redirection of
	// its own, DplOut).
	return strings.HasPrefix(s, "&")
}
