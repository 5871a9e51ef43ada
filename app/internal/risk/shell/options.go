package shell

import (
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The auto-run contract (DESIGN.md, "Risk levels"): Safe and Caution are
// promises that every option a program is given is one Airlock models. A
// row whose program may be Safe or Caution therefore carries an option
// model, opts: the options its manual lists that do what the row says and
// nothing more. Any other option is Dangerous ("not modelled"), and so is
// an option computed at run time. Options with an effect of their own
// (writing a file, setting the clock, running a command) are listed in
// effects with what they do.

// opts is the option model of one program.
type opts struct {
	short   string               // short options that only do what the row says: "la1"
	valued  string               // short options that take a value: "n" for head -n 5
	long    string               // long options and single-dash words (-productVersion), space-separated; "--x=" takes a value
	effects map[string]optEffect // options with an effect of their own, short ("-s") or long ("--output")
	free    bool                 // every word is data, options included (echo, printf, test)
	stop    string               // a word after which the words are another program's (open --args)
	abbrev  bool                 // a long option may be shortened to a unique prefix, and --no-x negates --x (git)
	exec    string               // words that start another program's words, up to ; or + (find -exec): not options
	cmdAt   bool                 // the first operand starts a command whose words are its own (screen CMD, tmux new-window, redis-cli SET)
	alias   string               // a prefix that makes a long option the same option: curl's --expand-data is --data with {{variables}} expanded
}

// canonical is the long option name spells for m: name itself, or for a
// name with m's alias prefix, the option it is an alias of.
func (m *opts) canonical(name string) string {
	if m != nil && m.alias != "" && strings.HasPrefix(name, m.alias) && len(name) > len(m.alias) {
		return "--" + name[len(m.alias):]
	}
	return name
}

// optEffect is what one option does: its effect, and the warning shown.
type optEffect struct {
	fx  effect.Effect
	why string
}

// optFx is the optEffect of an option: an effect of kind k with mods m.
func optFx(k effect.Kind, why string, m ...effect.Mod) optEffect {
	return optEffect{effect.Of(k, m...), why}
}

// model builds an opts from its short options and its long ones.
func model(short, long string) *opts { return &opts{short: short, long: long} }

// check rates c's options against m: the effects of those that have one,
// and "not modelled" for the rest. It returns false when an option is not
// modelled.
func (m *opts) check(c *call) bool {
	if m == nil {
		return true
	}
	longs := func(w string) bool { return hasField(m.long, w) }
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		if !strings.HasPrefix(s, "-") || s == "-" {
			if m.cmdAt {
				return true // the command's own words, rated as a command
			}
			continue // an operand, or a word computed at run time (read as one)
		}
		if s == "--" || m.stop != "" && s == m.stop {
			return true
		}
		if m.exec != "" && hasField(m.exec, s) {
			for i+1 < len(c.args) && c.args[i+1].s != ";" && c.args[i+1].s != "+" {
				i++ // the command's own words, rated as a command
			}
			continue
		}
		name, _, has := strings.Cut(s, "=")
		name = m.canonical(name)
		if m.free || strings.HasPrefix(s, "--") || longs(name) || longs(name+"=") {
			if e, ok := m.effects[name]; ok {
				c.add(e.fx, "option", "%s %s: %s", c.name, rate.Display(s), e.why)
				continue
			}
			switch {
			case m.free:
			case longs(name):
			case longs(name + "="):
				if !has {
					i++ // its value
				}
			default:
				c.unmodelled(s)
				return false
			}
			continue
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			if e, ok := m.effects["-"+string(l)]; ok {
				c.add(e.fx, "option", "%s -%c: %s", c.name, l, e.why)
			}
			if strings.IndexByte(m.valued, l) >= 0 {
				if j == len(letters)-1 {
					i++ // its value is the next word
				}
				break
			}
			if _, ok := m.effects["-"+string(l)]; !ok && strings.IndexByte(m.short, l) < 0 {
				r, _ := utf8.DecodeRuneInString(letters[j:]) // -Ж, not half of it
				c.unmodelled("-" + string(r))
				return false
			}
		}
	}
	return true
}

// Common models.
var (
	noOptions = &opts{}           // options are not expected: any is Dangerous
	freeWords = &opts{free: true} // every word is data (echo -n, printf, test -f)
)

// hasField reports w among the blank-separated fields of list, without
// splitting it.
func hasField(list, w string) bool {
	for i := strings.Index(list, w); i >= 0; {
		end := i + len(w)
		if (i == 0 || isBlank(list[i-1])) && (end == len(list) || isBlank(list[end])) {
			return true
		}
		j := strings.Index(list[i+1:], w)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }

// parsed is what an option model read from a command's arguments: the
// options given, each under the name its model lists it by ("-f",
// "--force") with its value when it takes one, and the operands in order.
// unmodelled is the first option the model does not list ("" when none).
type parsed struct {
	given      map[string]word
	ops        []word // the operands before "--"
	after      []word // the operands after "--"
	dashes     bool   // "--" was given
	unmodelled string
}

// has reports any of names among the options given.
func (p parsed) has(names ...string) bool {
	for _, n := range names {
		if _, ok := p.given[n]; ok {
			return true
		}
	}
	return false
}

// value returns the value of the first of names given with one.
func (p parsed) value(names ...string) (word, bool) {
	for _, n := range names {
		if w, ok := p.given[n]; ok {
			return w, true
		}
	}
	return word{}, false
}

// operands are the operands before and after "--".
func (p parsed) operands() []word {
	if len(p.after) == 0 {
		return p.ops
	}
	return append(append([]word{}, p.ops...), p.after...)
}

// longName is the long option of m that name spells, for a model whose
// program takes a unique prefix of a long option for the option (git's
// parse-options: --har is --hard) and --no-x for the negation of --x: the
// negation keeps its own name, "--no-x". A name that is no prefix, or the
// prefix of more than one option, is itself.
func (m *opts) longName(name string) string {
	if hasField(m.long, name) || hasField(m.long, name+"=") {
		return name
	}
	if rest, ok := strings.CutPrefix(name, "--no-"); ok && (hasField(m.long, "--"+rest) || hasField(m.long, "--"+rest+"=")) {
		return name
	}
	found := ""
	for _, f := range strings.Fields(m.long) {
		f = strings.TrimSuffix(f, "=")
		if strings.HasPrefix(f, name) && len(name) > 2 {
			if found != "" && found != f {
				return name // ambiguous: git refuses it
			}
			found = f
		}
	}
	if found == "" {
		return name
	}
	return found
}

// parse reads args by m: short options alone or grouped (-rf), valued ones
// with their value attached or in the next word, long options with
// --name=value or (listed as "--name=") the next word; "--" ends the
// options, and a word computed at run time is an operand. It does not rate
// anything: check does.
func (m *opts) parse(args []word) parsed {
	p := parsed{given: map[string]word{}}
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		switch {
		case w.hole || !strings.HasPrefix(s, "-") || s == "-":
			p.ops = append(p.ops, w)
			continue
		case s == "--":
			p.after, p.dashes = args[i+1:], true
			return p
		}
		if m == nil {
			p.given[s] = word{}
			continue
		}
		name, val, has := strings.Cut(s, "=")
		name = m.canonical(name)
		if strings.HasPrefix(s, "--") && m.abbrev {
			name = m.longName(name)
		}
		if strings.HasPrefix(s, "--") || hasField(m.long, name) || hasField(m.long, name+"=") {
			switch {
			case hasField(m.long, name):
				p.given[name] = word{s: val, span: w.span}
			case hasField(m.long, name+"="):
				v := word{s: val, span: w.span}
				if !has && i+1 < len(args) {
					i++
					v = args[i]
				}
				p.given[name] = v
			case m.abbrev && strings.HasPrefix(name, "--no-") && m.longName(name) == name && (hasField(m.long, "--"+name[5:]) || hasField(m.long, "--"+name[5:]+"=")):
				p.given[name] = word{span: w.span} // --no-x turns --x off
			default:
				if _, ok := m.effects[name]; !ok && p.unmodelled == "" {
					p.unmodelled = name
				}
				p.given[name] = word{s: val, span: w.span}
			}
			continue
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			opt := "-" + string(l)
			if strings.IndexByte(m.valued, l) >= 0 {
				v := word{s: letters[j+1:], span: w.span}
				if v.s == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				p.given[opt] = v
				break
			}
			if _, ok := m.effects[opt]; !ok && strings.IndexByte(m.short, l) < 0 && p.unmodelled == "" {
				p.unmodelled = opt
			}
			p.given[opt] = word{}
		}
	}
	return p
}
