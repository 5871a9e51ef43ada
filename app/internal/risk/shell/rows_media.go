package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Tools that read a document's or a photo's metadata and text: everyday
// questions ("when was this taken?", "what does the invoice say?") that
// were Dangerous as unknown commands.

// pdfinfo (poppler) prints a PDF's properties; it writes nothing.
var pdfinfoRow = reads("", "", `-f= -l= -box -meta -custom -js -struct -struct-text -url -isodates
	-rawdates -dests -enc= -listenc -opw= -upw= -v -h -help --help -?`)

// pdftotext (poppler) writes a PDF's text to its second operand, or with
// one operand to the PDF's name with .txt (pdftotext a.pdf writes a.txt):
// a new file, or one it replaces; "-" prints it.
var pdftotextRow = row{run: pdftotextCommand, opts: &opts{long: `-f= -l= -r= -x= -y= -W= -H= -layout -fixed=
	-raw -nodiag -htmlmeta -tsv -enc= -listenc -eol= -nopgbrk -bbox -bbox-layout -cropbox -colspacing= -opw= -upw=
	-q -v -h -help --help -?`}}

func pdftotextCommand(c *call) {
	ops := c.operands()
	var out word
	switch {
	case len(ops) == 0 || len(ops) >= 2 && ops[1].s == "-":
		return // printed
	case len(ops) >= 2:
		out = ops[1]
	default:
		in := ops[0]
		if in.hole {
			c.add(effect.Of(effect.Create), "pdftotext", "pdftotext: writes the text beside the PDF, as a .txt of the same name")
			return
		}
		base := in.s
		if strings.HasSuffix(strings.ToLower(base), ".pdf") {
			base = base[:len(base)-len(".pdf")]
		}
		out = word{s: base + ".txt", span: in.span}
	}
	c.add(effect.Of(effect.Create), "pdftotext", "pdftotext: writes the text to %s", rate.Display(out.s))
	c.makes(out)
}

// exiftool prints the metadata of the files it is given. It writes them,
// renames or moves the files (the FileName and Directory tags) when a word
// assigns a tag (-TAG=VALUE, -TAG<SRC, -TAG+=, -TAG-=) or with its writing
// options; and it runs Perl: in -if conditions, in -p formats and ${TAG;…}
// expressions, from its -config file, -api filters, and the options an
// argument file (-@) holds. A word computed at run time, or a glob that
// may match a file whose name starts with "-" (a file called
// "-Directory=/tmp.jpg" matches *.jpg), can be any of those.
func exiftoolCommand(c *call) {
	for _, w := range c.args {
		s := w.s
		if (w.hole || w.glob) && !strings.HasPrefix(s, "-") && !startsLiteral(s) {
			c.add(effect.Of(effect.RunUnseen), "exiftool", "exiftool %s: a word chosen at run time may be one of its options that write files or run Perl", rate.Display(s))
			continue
		}
		if !strings.HasPrefix(s, "-") || s == "-" {
			continue
		}
		name := strings.ToLower(strings.TrimLeft(s, "-"))
		switch {
		case strings.ContainsAny(name, "=<>"):
			c.add(effect.Of(effect.Overwrite), "exiftool", "exiftool %s: writes metadata into the files (or renames or moves them)", rate.Display(s))
		case w.hole || w.glob:
			c.add(effect.Of(effect.RunUnseen), "exiftool", "exiftool %s: an option chosen at run time may write files or run Perl", rate.Display(s))
		case exiftoolCode(name):
			c.add(effect.Of(effect.RunUnseen), "exiftool", "exiftool %s: runs Perl it is given", rate.Display(s))
		case exiftoolWrites(name):
			c.add(effect.Of(effect.Overwrite), "exiftool", "exiftool %s: writes or replaces files", rate.Display(s))
		case strings.ContainsAny(s, "${};()`"):
			c.add(effect.Of(effect.RunUnseen), "exiftool", "exiftool %s: an expression it may run as Perl", rate.Display(s))
		}
	}
}

// startsLiteral reports whether s starts with a character the script
// wrote, other than "-" and a glob's: a word that cannot be an option.
func startsLiteral(s string) bool {
	if s == "" || strings.HasPrefix(s, rate.HoleMark) {
		return false
	}
	switch s[0] {
	case '-', '*', '?', '[', '{':
		return false
	}
	return true
}

// exiftoolCode reports whether the option name (lower case, without its
// dashes) runs Perl: a condition, a print format (which may hold ${TAG;EXPR}),
// a config file, an API option (filters are Perl), a user parameter, an
// argument file (its options are unseen).
func exiftoolCode(name string) bool {
	name = strings.TrimRight(name, "0123456789!+-") // -if2, -p!, -p- (no newline: a red team's find)
	return inList(name, "if", "p", "printformat", "config", "api", "userparam", "@", "argfile", "stay_open")
}

// exiftoolWrites reports whether the option name writes or replaces files:
// with a number (-efile2), a "+" (append: -w+, -textOut+) or a "!"
// (replace: -W!, -efile!) after it too. -efile writes the names of the
// files it failed on, which are the agent's (a red team's find,
// TestRed13ExiftoolWritesNamesOfFiles).
func exiftoolWrites(name string) bool {
	name = strings.TrimRight(name, "0123456789!+-")
	return inList(name, "o", "out", "w", "textout", "tagout", "efile", "tagsfromfile", "overwrite_original",
		"overwrite_original_in_place", "delete_original", "restore_original", "geotag", "geosync", "geotime")
}

// magick is ImageMagick 7's one program: `magick identify …` is identify
// (and so for its other tools, each rated as that program, unknown where
// the table has no row), and `magick in.png … out.jpg` is convert.
func magickCommand(c *call) {
	if len(c.args) > 0 && !c.args[0].hole && !c.args[0].glob {
		tool := strings.ToLower(c.args[0].s)
		if inList(tool, "identify", "convert", "mogrify", "composite", "montage", "compare", "stream", "import",
			"display", "animate", "conjure", "magick-script") {
			sub := *c
			sub.name, sub.args, sub.ops = tool, c.args[1:], nil
			if r, ok := rows.row(tool); ok {
				r.rate(&sub)
				return
			}
			c.add(effect.Of(effect.Unknown), "magick", "magick %s: a tool Airlock does not model; cannot tell what it does", rate.Display(c.args[0].s))
			return
		}
	}
	if r, ok := rows.row("convert"); ok {
		r.rate(c)
	}
}
