package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Converters and generators that write a file of their own: a row that
// says only "creates files" would rate `textutil -cat txt -output
// ~/Documents/report.txt x` or `convert a.png ~/Library/LaunchAgents/x.plist`
// as Caution whatever the file is. outputs gives such a row the places its
// output file is named, and each is rated by where it is, as cp's
// destination: a new file Caution, a file that exists replaced (its old
// contents lost, not to the Trash), a start-up or launchd file persistence.

// outSpec says where a program names the file it writes.
type outSpec struct {
	opts  []string // options whose value is the file: "-o" takes the next word, "--output" also "--output=f"
	last  bool     // with two operands or more, the last is the file (convert in.png out.jpg)
	after int      // with every, the operands from this one on are files it writes (mkfile SIZE FILE…)
	every bool
}

// outputs is r with its output files rated by spec. Its options are
// checked as r's would be (a Safe or Caution row without a model takes
// none).
func outputs(r row, spec outSpec) row {
	fx, why := r.fx, r.why
	if r.opts == nil && weight(fx) <= level.Caution {
		r.opts = noOptions
	}
	r.fx, r.why = effect.Effect{}, "" // said by run
	r.run = func(c *call) {
		if weight(fx) > level.Safe {
			c.add(fx, c.name, "%s: %s", c.name, why)
		}
		for _, w := range spec.files(c) {
			if !w.hole || wholeHole(w) {
				// "${f%.png}.jpg" names a new file derived from another;
				// "$f" may name any file, one that exists included.
				c.a.replaces(w, c.span, c.name+" makes")
			}
			c.a.write(w, c.span, c.name+" makes")
		}
	}
	return r
}

// files are the words of c that name a file it writes.
func (s outSpec) files(c *call) []word {
	var out []word
	for i, w := range c.args {
		if w.hole {
			continue
		}
		for _, o := range s.opts {
			switch {
			case w.s == o && i+1 < len(c.args):
				out = append(out, c.args[i+1])
			case strings.HasPrefix(o, "--") && strings.HasPrefix(w.s, o+"="):
				out = append(out, word{s: w.s[len(o)+1:], span: w.span})
			}
		}
	}
	ops := c.operands()
	switch {
	case s.every && len(ops) > s.after:
		out = append(out, ops[s.after:]...)
	case s.last && len(ops) > 1:
		out = append(out, ops[len(ops)-1])
	}
	return out
}
