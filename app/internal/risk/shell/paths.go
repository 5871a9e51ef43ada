package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// zone classifies a literal path found inside a script. Only words that
// are plainly paths (/…, ~…) are classified; anything else is normal.
func (a *shellAn) zone(w word) rate.Zone {
	if w.hole {
		return rate.Zone{}
	}
	return rate.ClassifyPath(a.env, w.s)
}

// writeTarget rates a file written by a command or redirection.
func (a *shellAn) writeTarget(w word, sp Span, verb string) {
	if w.hole {
		switch {
		case !copyVerb(verb) && !scratchHole(w) && wholeHole(w):
			// Writing contents is Dangerous where the path is known
			// (below); a path wholly computed at run time may be any
			// file, a document that exists included: gpg -o "$f" -c "$f".
			// One with a literal part ("${f%.png}.jpg") names a file
			// derived from another, most often a new one.
			a.add(effect.Of(effect.Overwrite, effect.Computed), "shell.write-computed", sp, "%s %s: a path computed at run time, which may name any file: its contents would be replaced", verb, rate.Display(w.s))
		case w.splice || w.glob:
			a.add(effect.Of(effect.Create, effect.Computed), "shell.write-computed", sp, "%s a path computed at run time", verb)
		}
		return
	}
	z := a.zone(w)
	switch {
	case z.Persist != "":
		a.add(effect.Of(effect.Persist).On(w.s), "shell.persistence", sp, "%s %s: %s runs code automatically (persistence)", verb, rate.Display(w.s), z.Persist)
		return
	}
	switch z.Kind {
	case rate.ZonePersistence:
		a.add(effect.Of(effect.Persist).On(w.s), "shell.persistence", sp, "%s %s: %s runs code automatically (persistence)", verb, rate.Display(w.s), z.Detail)
	case rate.ZoneCredential:
		a.add(effect.Of(effect.Account).On(w.s), "shell.credential-write", sp, "%s %s, inside %s", verb, rate.Display(w.s), z.Detail)
	case rate.ZoneSystem:
		a.add(effect.Of(effect.Overwrite).On(w.s), "shell.system-write", sp, "%s %s, inside %s", verb, rate.Display(w.s), z.Detail)
	default:
		if homeBin(w.s) && !strings.HasPrefix(verb, "mkdir ") {
			a.add(effect.Of(effect.Persist).On(w.s), "shell.persistence", sp, "%s %s: a folder on the command search path (what is put there runs when its name is typed, in place of a command of that name)", verb, rate.Display(w.s))
			return
		}
		if copyVerb(verb) {
			a.add(effect.Of(effect.Create).On(w.s), "shell.write", sp, "%s %s", verb, rate.Display(w.s))
			return
		}
		a.add(effect.Of(effect.Overwrite).On(w.s), "shell.write", sp, "%s %s: writes or overwrites a file", verb, rate.Display(w.s))
	}
}

// copyVerb reports a write that copies, moves, links or extracts files,
// creates folders, touches a file, makes a new archive or a file gpg will
// not put over one that exists: Caution (an
// overwrite of what exists is rated by replaces), as the DSL's COPY_FILE,
// MOVE_FILE and CREATE_FOLDER. Writing or overwriting a file's contents
// (a redirection, tee, an edit in place, a download saved, an output
// file) is Dangerous, as the DSL's WRITE_FILE (seed 003: file_write).
func copyVerb(verb string) bool {
	if strings.HasSuffix(verb, " makes") {
		return true // a converter's output file (rows_out.go)
	}
	for _, p := range []string{"cp ", "mv ", "ln ", "mkdir ", "touch ", "ditto ", "install ", "rsync writes to", "git clone", "tar extracts", "unzip extracts", "defaults ", "tar creates", "zip creates", "gpg creates"} {
		if strings.HasPrefix(verb, p) {
			return true
		}
	}
	return false
}

// readSource notes a read from a credential store (public keys excepted),
// from a hidden place of the home that is not known harmless, or of a file
// whose name says it is a secret: a likely Keynote deck (rate.Zone.Deck)
// only when an app reads it outside the sandbox (a.outside), which tells
// decks from keys by content.
func (a *shellAn) readSource(w word, sp Span) {
	if procEnviron(w.s) {
		// /proc/self/environ, /proc/$$/environ: a process's whole
		// environment, as env prints it (environmentRead).
		a.add(effect.Of(effect.ReadNamedSecret), "secret.environment", sp, "reads %s: a process's whole environment, where tokens and keys are kept", rate.Display(w.s))
		a.secretAt(sp)
		a.envDumped(sp)
		return
	}
	z := a.zone(w)
	what, ok := z.SecretReadConfined()
	if a.outside {
		what, ok = z.SecretRead()
	}
	if !ok {
		// A link on the way (~/Documents/keys/. with keys → ~/.ssh):
		// what is read is where it leads.
		if real, linked := a.linkTarget(w); linked && !publicByName(real) {
			z = a.zone(word{s: real})
			what, ok = z.SecretReadConfined()
			if a.outside {
				what, ok = z.SecretRead()
			}
			if ok {
				a.add(effect.Of(effect.ReadSecret).On(real), "secret.file", sp, "reads %s, which leads to %s, inside %s", rate.Display(w.s), rate.Display(real), what)
				a.secretAt(sp)
			}
		}
		return
	}
	a.add(effect.Of(effect.ReadSecret).On(w.s), "secret.file", sp, "reads %s, inside %s", rate.Display(w.s), what)
	a.secretAt(sp)
}

func (a *shellAn) secretAt(sp Span) {
	if a.secret == nil {
		a.secret = &sp
	}
}

// egress notes a way out of the Mac (rule "egress.KIND": network, dns,
// clipboard, url): with a secret read anywhere in the input, the secret is
// sent out (finish, and the facade's combination across languages). The
// effect's target is the way: "network" and "dns" reach the network.
func (a *shellAn) egress(kind string, sp Span, format string, args ...any) {
	a.add(effect.Of(effect.Egress).On(kind), "egress."+kind, sp, format, args...)
	a.uploadAt(sp)
}

func (a *shellAn) uploadAt(sp Span) {
	if a.upload == nil {
		a.upload = &sp
	}
}

// wholeHole reports a path with no literal part of its own: "$f", "$d/$f",
// ~/"$f": what it names is wholly up to the run.
func wholeHole(w word) bool {
	if !w.hole {
		return false
	}
	rest := strings.ReplaceAll(w.s, rate.HoleMark, "")
	return strings.Trim(rest, "/~") == ""
}

// homeBin reports a path in the home's own bin folder (~/bin/x), which
// people put on the command search path: what lands there runs when its
// name is typed, in place of a command of that name. The persistence
// table cannot list it (Seatbelt would refuse every project's bin/).
func homeBin(p string) bool {
	p = homeSpelled(p)
	if rest, ok := strings.CutPrefix(p, "/Users/"); ok {
		if _, after, ok := strings.Cut(rest, "/"); ok {
			p = "~/" + after
		}
	}
	rest, ok := strings.CutPrefix(p, "~/bin")
	return ok && (rest == "" || rest[0] == '/') && !strings.Contains(rest, "/../")
}

// procEnviron reports /proc/PID/environ (self, thread-self, a number, or
// PID/task/TID/environ): the environment a process started with.
func procEnviron(p string) bool {
	if !strings.HasSuffix(p, "environ") {
		return false // the common case, without cleaning the path
	}
	rest, ok := strings.CutPrefix(path.Clean(p), "/proc/")
	if !ok {
		return false
	}
	parts := strings.Split(rest, "/") // /proc/$$/environ: the pid computed
	return len(parts) >= 2 && parts[len(parts)-1] == "environ" && !strings.Contains(parts[len(parts)-1], rate.HoleMark)
}
