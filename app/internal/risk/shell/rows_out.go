package shell

import (
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
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
			c.makes(w)
		}
	}
	return r
}

// makes rates c writing the file w: replacing it if it exists, and what
// the place is (a start-up file, a LaunchAgent …).
func (c *call) makes(w word) {
	if !w.hole || wholeHole(w) {
		// "${f%.png}.jpg" names a new file derived from another;
		// "$f" may name any file, one that exists included.
		c.a.replaces(w, c.span, c.name+" makes")
	}
	c.a.write(w, c.span, c.name+" makes")
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

// imageFormat splits an ImageMagick file name into the format (coder) its
// prefix names, lower case ("png" of "PNG:out"; "" for none), and the rest.
func imageFormat(s string) (format, rest string) {
	if i := strings.IndexByte(s, ':'); i > 0 && strings.IndexFunc(s[:i], func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-')
	}) < 0 {
		return strings.ToLower(s[:i]), s[i+1:]
	}
	return "", s
}

// imageMagick is r for an ImageMagick program, whose file names may be
// commands: "|cmd", after an optional format prefix ("png:|cmd"), is run
// through the shell (popen) to read an image from or write one into,
// wherever the policy does not forbid it (Homebrew's open policy does not;
// Debian builds it without). The command is analysed as a nested script
// (a sixth red team's find: convert '|python3 x.py' out.png was Caution,
// "converts images").
func imageMagick(r row) row {
	run := r.run
	r.run = func(c *call) {
		var out *word // the operand it writes: convert's last
		if ops := c.operands(); c.name != "identify" && len(ops) > 1 {
			out = &ops[len(ops)-1]
		}
		for i, w := range c.args {
			if cmd, ok := imagePipe(w); ok {
				c.add(effect.Of(effect.Run), "image-pipe", "%s %s: runs the command to read or write the image", c.name, rate.Display(w.s))
				c.nestedText(cmd, c.name+" |")
				continue
			}
			c.imageCoder(w)
			written := out != nil && w.s == out.s && w.span == out.span ||
				i > 0 && (c.args[i-1].s == "-write" || c.args[i-1].s == "+write")
			if !written && !strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "+") {
				c.imageProgram(w)
			}
		}
		if ops := c.operands(); c.name != "identify" && len(ops) > 1 && strings.Contains(ops[len(ops)-1].s, "%[") {
			// convert a.png -set filename:f ~/.zshrc '%[filename:f]'
			out := ops[len(ops)-1]
			c.add(effect.Of(effect.Overwrite, effect.Computed).On(out.s), "image-computed-name", "%s %s: the file it writes is named from the image's own attributes, chosen at run time", c.name, rate.Display(out.s))
		}
		if run != nil {
			run(c)
		}
	}
	return r
}

// imagePipe returns the command an ImageMagick file name w runs: the rest
// of "|cmd" or "FORMAT:|cmd".
func imagePipe(w word) (string, bool) {
	if w.hole {
		return "", false
	}
	_, s := imageFormat(w.s)
	if !strings.HasPrefix(s, "|") {
		return "", false
	}
	return s[1:], true
}

// imageMagickOpts is the option model of ImageMagick's programs: its
// options are image operators and settings (-resize 50%, -quality 80,
// -format '%w'), taken as data, but for those that write a file, load
// code or reach the network. What they name as files is rated by
// imageCoder and by the row's outputs.
var imageMagickOpts = &opts{free: true, effects: map[string]optEffect{
	"-write":            optFx(effect.Overwrite, "writes the image to a file as well"),
	"+write":            optFx(effect.Overwrite, "writes the image to a file as well"),
	"-process":          optFx(effect.LoadCode, "runs an image filter module, code loaded by its name"),
	"-script":           optFx(effect.RunUnseen, "runs a script of ImageMagick commands from a file"),
	"-distribute-cache": optFx(effect.Connect, "serves its pixel cache to other machines"),
	"-log":              optFx(effect.Overwrite, "writes its event log where the format says"),
}}

// imageCoder rates an ImageMagick file name by the coder its prefix names
// (the format before ":", any case) where the coder does more than read or
// write that file: ephemeral: deletes the file once it has read it (unlink,
// not the Trash); msl: runs a Magick Scripting Language file, which reads
// and writes images wherever it says; text:, label:@ and caption:@ read a
// file as text to draw it, and a name starting with @ is a file listing
// more names: each is a read of that file.
func (c *call) imageCoder(w word) {
	if w.hole && strings.HasPrefix(w.s, rate.HoleMark) {
		return
	}
	s := w.s
	coder, rest := imageFormat(s)
	file := word{s: rest, hole: w.hole, glob: w.glob, span: w.span}
	switch {
	case coder == "ephemeral":
		c.add(effect.Of(effect.Remove).On(rest), "image-ephemeral", "%s %s: deletes the file once it has read it, not to the Trash", c.name, rate.Display(s))
	case coder == "msl":
		c.add(effect.Of(effect.RunUnseen), "image-script", "%s %s: runs a Magick Scripting Language file, which reads and writes images wherever it says", c.name, rate.Display(s))
	case coder == "text" && rest != "":
		c.a.read(file, c.span)
	case (coder == "label" || coder == "caption" || coder == "") && strings.HasPrefix(rest, "@") && len(rest) > 1:
		file.s = rest[1:]
		c.a.read(file, c.span)
		if coder == "" {
			// A list of image names: each is read as a name on the
			// command line is, a "|cmd" run, a ps: run in Ghostscript,
			// none of them seen here (a red team's find,
			// TestRed13ImageMagickRunsPrograms).
			c.add(effect.Of(effect.RunUnseen).On(file.s), "image-list", "%s %s: reads the names of its images from the file, any of which may be a command (|cmd) or a program it runs", c.name, rate.Display(s))
		}
	}
}

// imageProgramFormats are the formats ImageMagick reads by running the
// file as a program: PostScript and its kinds, which it hands to
// Ghostscript (its delegate), and its own scripts, Magick Scripting
// Language and the Magick Vector Graphics drawing language (whose
// primitives read the files they name). A red team's find: convert
// doc.ps out.png was Caution, "converts images", while gs doc.ps is an
// unknown program. Known by the prefix or, without one, the extension;
// ImageMagick also knows them by their first bytes, which no name shows
// (the sandbox holds what runs).
var imageProgramFormats = []string{"ps", "eps", "epsf", "epsi", "epi", "ept", "ai", "msl", "mvg"}

// imageProgram rates an ImageMagick file name w that it reads as one of
// imageProgramFormats.
func (c *call) imageProgram(w word) {
	if w.hole {
		return
	}
	format, rest := imageFormat(w.s)
	if format == "msl" {
		return // imageCoder's
	}
	if format == "" {
		if i := strings.LastIndexByte(rest, '.'); i >= 0 && !strings.Contains(rest[i:], "/") {
			format = strings.ToLower(rest[i+1:])
			format = strings.TrimSuffix(format, "]") // doc.ps[0]: a page
			if j := strings.IndexByte(format, '['); j >= 0 {
				format = format[:j]
			}
		}
	}
	if !slices.Contains(imageProgramFormats, format) {
		return
	}
	c.add(effect.Of(effect.RunUnseen).On(rest), "image-program", "%s %s: reads it by running it as a program (PostScript in Ghostscript, or ImageMagick's own script), code that is not analysed", c.name, rate.Display(w.s))
}

// loadsProvider is r for a program whose options opts name a shared
// library it loads (ssh-keygen -D, a PKCS#11 provider; -w, a FIDO
// middleware): native code nobody analysed runs in it, whatever the rest
// of its use (a sixth red team's find: ssh-keygen -D ./x.so was Caution,
// "manages SSH keys").
func loadsProvider(r row, opts ...string) row {
	fx, why, run := r.fx, r.why, r.run
	r.fx, r.why = effect.Effect{}, ""
	r.run = func(c *call) {
		if run != nil {
			run(c)
		} else if weight(fx) > level.Safe {
			c.add(fx, c.name, "%s: %s", c.name, why)
		}
		for i, w := range c.args {
			for _, o := range opts {
				lib, ok := "", false
				switch {
				case w.s == o && i+1 < len(c.args):
					lib, ok = c.args[i+1].s, true
				case strings.HasPrefix(w.s, o) && len(w.s) > len(o) && !w.hole:
					lib, ok = w.s[len(o):], true
				}
				if ok {
					c.add(effect.Of(effect.RunUnseen).On(lib), "load-library", "%s %s %s: loads a shared library, native code that is not analysed", c.name, o, rate.Display(lib))
				}
			}
		}
	}
	return r
}
