package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Overwrites. A command that puts a file where one exists — cp, mv, ln -f,
// install, ditto, rsync onto it, a > redirection, tee, an output file —
// destroys what was there, and nothing of it goes to the Trash: removing
// data outside the Trash, Destructive (DESIGN.md, "Risk levels": `>` onto an
// existing file; the DSL, which moves the old version to the Trash first,
// rates the same overwrite Dangerous). Whether a file is there is asked of
// the disk at the assessment (rate.Env.Presence); a destination computed at
// run time may be any file, so it is Dangerous. -n, --no-clobber, -i and a
// backup (-b, --backup) keep what is there: no overwrite.

// presence is what w names on the disk now. A relative path is taken from
// the working directory: the one a literal cd chose, or the home, where the
// gate starts commands, until a cd the analysis cannot follow.
func (a *shellAn) presence(w word) rate.Presence {
	if w.hole || w.s == "" || w.s == "-" {
		return rate.PresenceUnknown
	}
	p := w.s
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$HOME") {
		switch {
		case a.cwd != "":
			p = joinPath(a.cwd, p)
		case a.cwdLost:
			return rate.PresenceUnknown
		default:
			p = joinPath("~", p)
		}
	}
	if p == "" || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || scratchPath(p) {
		return rate.PresenceUnknown // devices swallow what is written; scratch files are nobody's work
	}
	return a.env.Presence(p)
}

// replaces rates putting a file at w, by verb ("writes to"): onto a file
// that exists, an overwrite (Destructive); onto a path computed at run time,
// a possible one (Dangerous). A literal path the disk cannot answer for is
// left to the write's own rating.
func (a *shellAn) replaces(w word, sp Span, verb string) {
	if w.hole {
		if !scratchHole(w) {
			a.add(effect.Of(effect.Overwrite, effect.Computed).On(w.s), "shell.overwrite-maybe", sp, "%s %s: a path computed at run time, which may name a file that exists: it would be replaced, not to the Trash", verb, rate.Display(w.s))
		}
		return
	}
	if w.glob && strings.ContainsAny(w.s, "*?[") {
		// A pattern names only files that exist (for f in ~/Documents/*;
		// do convert x "$f"; done): each is replaced.
		a.add(effect.Of(effect.Remove).On(w.s), "shell.overwrite", sp, "%s %s: replaces every file the pattern matches, each of which exists; what they held is lost, not moved to the Trash", verb, rate.Display(w.s))
		return
	}
	if a.presence(w) == rate.PresentFile {
		a.add(effect.Of(effect.Remove).On(w.s), "shell.overwrite", sp, "%s %s: replaces a file that exists; what it held is lost, not moved to the Trash", verb, rate.Display(w.s))
	}
}

// scratchHole reports a computed path that is plainly a scratch file: made
// by mktemp, or under a temporary folder named literally.
func scratchHole(w word) bool {
	if strings.HasPrefix(w.gen, "mktemp") {
		return true
	}
	lit, _, _ := strings.Cut(w.s, rate.HoleMark)
	if i := strings.LastIndexByte(lit, '/'); i > 0 {
		return scratchPath(lit[:i])
	}
	return false
}

// keepsExisting reports the options of cp, mv, ln, install and rsync that
// leave a file that exists as it is (-n, -i, --no-clobber,
// --ignore-existing, --update=none) or keep it as a backup (-b, --backup).
func (c *call) keepsExisting() bool {
	if hasLong(c.args, "--no-clobber", "--interactive", "--ignore-existing", "--backup", "--update=none", "--update=none-fail") {
		return true
	}
	switch c.name {
	case "cp", "mv":
		return hasShort(c.args, 'n') || hasShort(c.args, 'i') || hasShort(c.args, 'b')
	case "ln":
		return hasShort(c.args, 'i') || hasShort(c.args, 'b') || !hasShort(c.args, 'f') && !hasLong(c.args, "--force")
	case "install":
		return hasShort(c.args, 'b') || hasShort(c.args, 'd') // -d makes folders
	case "rsync":
		return hasShort(c.args, 'b') || hasShort(c.args, 'n') || hasLong(c.args, "--dry-run")
	}
	return false
}

// copiesOnto rates cp, mv, ln, install, ditto and rsync putting sources at
// dest: onto a file that exists, or into a folder that holds one of a
// source's name, an overwrite; into a folder with sources whose names are
// computed or patterns, a possible one; ditto and rsync merge a folder into
// one that exists, replacing what has the same name.
func (c *call) copiesOnto(dest word, sources []word, intoDir bool) {
	if c.keepsExisting() {
		return
	}
	verb := c.name + " writes to"
	if dest.hole {
		c.a.replaces(dest, c.span, verb)
		return
	}
	switch c.a.presence(dest) {
	case rate.PresentFile:
		c.a.replaces(dest, c.span, verb)
	case rate.PresentFolder:
		if !intoDir {
			return
		}
		c.copiesInto(dest, sources)
	}
}

// copiesInto is copiesOnto for a destination folder that exists.
func (c *call) copiesInto(dir word, sources []word) {
	merges := c.name == "ditto" || c.name == "rsync"
	for _, s := range sources {
		base := path.Base(strings.TrimRight(s.s, "/"))
		switch {
		case merges && (strings.HasSuffix(s.s, "/") || c.name == "ditto"):
			// rsync src/ dir, ditto src dir: src's contents land in dir.
			c.add(effect.Of(effect.Overwrite).On(dir.s), "overwrite-maybe", "%s %s %s: merges into a folder that exists, replacing the files there of the same names, not to the Trash", c.name, rate.Display(s.s), rate.Display(dir.s))
			return
		case s.hole || s.glob || base == "" || base == "." || base == "/":
			c.add(effect.Of(effect.Overwrite).On(dir.s), "overwrite-maybe", "%s %s into %s: replaces any file there of the same name, not to the Trash", c.name, rate.Display(s.s), rate.Display(dir.s))
			return
		}
		target := word{s: joinPath(dir.s, base), span: dir.span}
		if target.s == "" {
			continue
		}
		switch c.a.presence(target) {
		case rate.PresentFile:
			c.a.replaces(target, c.span, c.name+" writes to")
		case rate.PresentFolder:
			if c.name != "mv" && c.name != "ln" {
				c.add(effect.Of(effect.Overwrite).On(target.s), "overwrite-maybe", "%s %s into %s: merges into the folder %s there, replacing its files of the same names, not to the Trash", c.name, rate.Display(s.s), rate.Display(dir.s), rate.Display(target.s))
			}
		}
	}
}

// ontoInput rates a command that writes its output over its own input
// (openssl enc -in f -out f): the output is opened, which empties it,
// before the input is read, so what the file held is lost — whatever the
// disk says of it now, since the command reads it. what names the
// command.
func (a *shellAn) ontoInput(in, out word, sp Span, what string) {
	if in.hole || out.hole || in.s == "" || in.s == "-" || isDevice(in.s) {
		return
	}
	pi, ok := a.pathOf(in)
	po, ok2 := a.pathOf(out)
	if !ok || !ok2 || path.Clean(homeSpelled(pi)) != path.Clean(homeSpelled(po)) {
		return
	}
	a.add(effect.Of(effect.Remove).On(out.s), "shell.overwrite", sp, "%s writes its output over its input %s: the file is emptied before it is read, and what it held is lost", what, rate.Display(out.s))
}

// homeSpelled is p with the home spelled as ~ ($HOME/x and ~/x are one
// file).
func homeSpelled(p string) string {
	for _, h := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(p, h); ok {
			return "~" + rest
		}
	}
	return p
}
