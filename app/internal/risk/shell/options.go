package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
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
	short   string            // short options that only do what the row says: "la1"
	valued  string            // short options that take a value: "n" for head -n 5
	long    string            // long options and single-dash words (-productVersion), space-separated; "--x=" takes a value
	effects map[string]effect // options with an effect of their own, short ("-s") or long ("--output")
	free    bool              // every word is data, options included (echo, printf, test)
	stop    string            // a word after which the words are another program's (open --args)
}

// effect is what one option does.
type effect struct {
	level level.Level
	why   string
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
			continue // an operand, or a word computed at run time (read as one)
		}
		if s == "--" || m.stop != "" && s == m.stop {
			return true
		}
		name, _, has := strings.Cut(s, "=")
		if m.free || strings.HasPrefix(s, "--") || longs(name) || longs(name+"=") {
			if e, ok := m.effects[name]; ok {
				c.add(e.level, "option", "%s %s: %s", c.name, rate.Display(s), e.why)
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
				c.add(e.level, "option", "%s -%c: %s", c.name, l, e.why)
			}
			if strings.IndexByte(m.valued, l) >= 0 {
				if j == len(letters)-1 {
					i++ // its value is the next word
				}
				break
			}
			if _, ok := m.effects["-"+string(l)]; !ok && strings.IndexByte(m.short, l) < 0 {
				c.unmodelled("-" + string(l))
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
