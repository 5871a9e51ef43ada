package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The other ways to print the environment, where API tokens and keys are
// kept, as env and printenv do (printenvCommand): the shells' own listings
// (set, declare -p, export, typeset -x …), ps's environment column and
// launchd's environment. Each is a secret read, so with any way out the
// action is Destructive.

// environmentRead notes that c prints the whole environment.
func (c *call) environmentRead(what string) {
	c.a.add(effect.Of(effect.ReadNamedSecret), "secret.environment", c.span, "%s: prints the whole environment, where tokens and keys are kept", what)
	c.a.secretAt(c.span)
	c.a.envDumped(c.span)
}

// variableRead notes that c prints variable name, when its name says it
// holds a secret.
func (c *call) variableRead(name, what string) {
	if secretName(name) {
		// Printing it is all the command does: its output is the secret
		// (what an action prints goes back to the agent), not a value a
		// test or a header might only use.
		c.a.add(effect.Of(effect.ReadSecret).On(name), "secret.variable", c.span, "%s %s: prints a variable that by its name holds a secret", what, rate.Display(name))
		c.a.secretAt(c.span)
	}
}

// setCommand rates set: with no arguments it prints every variable of the
// shell, exported or not (set -o and set -- … print none).
func setCommand(c *call) {
	if len(c.args) == 0 {
		c.environmentRead("set")
	}
	for i, w := range c.args {
		if !w.hole && (len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.ContainsRune(w.s, 'x') ||
			w.s == "-o" && i+1 < len(c.args) && c.args[i+1].s == "xtrace") {
			c.a.xtrace = true
		}
	}
}

// xtraced rates a command run after set -x, whose words the shell prints
// expanded before it runs them: a secret variable's value among them is
// printed, as echo prints it.
func (a *shellAn) xtraced(name string, words []word, sp Span) {
	for _, w := range words {
		if w.secret != "" {
			c := &call{a: a, name: "set -x", span: sp}
			c.secretPrinted(w.secret)
			return
		}
	}
}

// psCommand rates ps: the environment of the processes it lists is
// printed with BSD's e (ps eww, ps auxe) or -E.
func psCommand(c *call) {
	for i, w := range c.args {
		switch {
		case w.hole:
		case strings.HasPrefix(w.s, "--"):
		case strings.HasPrefix(w.s, "-"):
			if strings.ContainsRune(w.s[1:], 'E') {
				c.environmentRead("ps -E")
				return
			}
		case i == 0 && strings.ContainsRune(w.s, 'e'):
			c.environmentRead("ps " + rate.Display(w.s))
			return
		}
	}
}

// declPrints rates a declare, typeset, export, readonly or local that
// assigns nothing: with no names it lists variables (declare -p, export,
// typeset -x; -f and -F list functions), and with -p it prints the names
// given.
func (a *shellAn) declPrints(d *syntax.DeclClause) {
	var flags string
	var names []string
	for _, as := range d.Args {
		switch {
		case !as.Naked:
			return // an assignment: declares, prints nothing
		case as.Name != nil:
			names = append(names, as.Name.Value)
		case as.Value != nil:
			lit := as.Value.Lit()
			if lit == "" || lit[0] != '-' && lit[0] != '+' {
				return // a name or option computed at run time
			}
			flags += lit[1:]
		}
	}
	c := &call{a: a, name: d.Variant.Value, span: a.span(d)}
	switch {
	case len(names) == 0 && !strings.ContainsAny(flags, "fF"):
		c.environmentRead(strings.TrimSpace(d.Variant.Value + " " + prefixed(flags)))
	case strings.ContainsRune(flags, 'p'):
		for _, n := range names {
			c.variableRead(n, d.Variant.Value+" -p")
		}
	}
}

// prefixed is flags as an option word, or "" for none.
func prefixed(flags string) string {
	if flags == "" {
		return ""
	}
	return "-" + flags
}

// runs is r, its option model kept, rated by f.
func runs(r row, f func(*call)) row {
	r.run = f
	return r
}

// zmodloadCommand rates zsh's zmodload: zsh's own modules (zsh/files,
// zsh/datetime …) are part of the shell; any other is a native library
// found on $module_path, loaded into the shell: code that is not analysed.
// With -a (autoload) only the first operand is a module; the rest are the
// builtins it provides.
func zmodloadCommand(c *call) {
	ops := c.operands()
	if hasShort(c.args, 'a') && len(ops) > 1 {
		ops = ops[:1]
	}
	for _, o := range ops {
		switch {
		case o.hole:
			c.add(effect.Of(effect.LoadCode), "zmodload", "zmodload: loads a module named at run time, native code that is not analysed")
			return
		case strings.HasPrefix(o.s, "zsh/") && !strings.Contains(o.s, ".."),
			len(o.s) > 2 && o.s[1] == ':' || len(o.s) > 3 && (o.s[0] == '+' || o.s[0] == '-') && o.s[2] == ':': // -F features: b:zf_rm, +p:x
		default:
			c.add(effect.Of(effect.LoadCode).On(o.s), "zmodload", "zmodload %s: loads a module that is not zsh's own, native code that is not analysed", rate.Display(o.s))
			return
		}
	}
}

// printsVariables rates echo: a variable that by its name holds a secret,
// expanded whole into what it prints, is printed, as printenv NAME prints
// it (variableRead): what an action prints goes back to the agent. One the
// script set itself holds what it was set to, and its length, a part of
// it or ${T:+text} is no secret.
func printsVariables(c *call) {
	sliced := map[string]int{}
	for _, w := range c.args {
		name := w.secret
		if w.sliced != "" {
			// echo ${T:0:8} ${T:8:8}: its parts, printed side by side.
			if sliced[w.sliced]++; sliced[w.sliced] == 2 && name == "" {
				name = w.sliced
			}
		}
		if name != "" {
			c.secretPrinted(name)
		}
	}
}

// secretInput rates a command whose stdin, a here-string or here-document,
// holds the value of the secret variable secret: a filter that prints its
// input prints it (cat <<< "$T", tee, base64 …), as echo "$T" does, and
// read copies it into the variables it names. A program that takes a
// secret on stdin to use it (docker login --password-stdin) prints nothing.
func (a *shellAn) secretInput(name string, ops []word, secret string, sp Span) {
	switch {
	case name == "read":
		for _, o := range ops {
			if !o.hole {
				a.copiesSecret(o.s, secret)
			}
		}
	case name == "mapfile" || name == "readarray":
		array := "MAPFILE"
		if len(ops) > 0 && !ops[len(ops)-1].hole {
			array = ops[len(ops)-1].s
		}
		a.copiesSecret(array, secret)
	case printsInput[name]:
		c := &call{a: a, name: name, span: sp}
		c.secretPrinted(secret)
	}
}

// printsInput are the filters that print what they read on stdin, whole
// or encoded, and the interpreters, whose code may (python3 -c
// '…print(sys.stdin.read())', read-only as it is).
var printsInput = set(`cat tac rev tee base64 base32 basenc xxd od hexdump head tail tr sed gsed awk gawk mawk nawk
	sort uniq cut fold nl paste column fmt expand unexpand iconv grep egrep fgrep rg jq yq less more bat strings
	gzip bzip2 xz zstd openssl uuencode xargs python python3 node nodejs perl ruby php`)

// secretPrinted notes that c prints the value of the variable name, whose
// name says it holds a secret.
func (c *call) secretPrinted(name string) {
	c.a.add(effect.Of(effect.ReadSecret).On(name), "secret.variable", c.span, "%s prints $%s, a variable that by its name holds a secret", c.name, rate.Display(name))
	c.a.secretAt(c.span)
}

// printfCommand rates printf: printsVariables, unless -v assigns what it
// would print to a variable; and its words that name array elements
// (subscriptArgs).
func printfCommand(c *call) {
	subscriptArgs(c)
	i := slices.IndexFunc(c.args, func(w word) bool { return w.s == "-v" })
	if i < 0 {
		printsVariables(c)
		return
	}
	// printf -v x %s "$T" copies the secret into x, which an echo prints.
	if i+1 < len(c.args) && !c.args[i+1].hole {
		for _, w := range c.args[i+2:] {
			if w.secret != "" {
				c.a.copiesSecret(c.args[i+1].s, w.secret)
			}
		}
	}
}

// copiesSecret notes that variable name now holds the value of the
// secret variable secret.
func (a *shellAn) copiesSecret(name, secret string) {
	if a.secretCopies == nil {
		a.secretCopies = map[string]string{}
	}
	a.secretCopies[name] = secret
}
