package risk

import (
	"github.com/airlockhq/airlock/app/internal/level"
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
		if w.splice || w.glob {
			a.add(level.Caution, "shell.write-computed", sp, "%s a path computed at run time", verb)
		}
		return
	}
	z := a.zone(w)
	switch {
	case z.Persist != "":
		a.add(level.Destructive, "shell.persistence", sp, "%s %s: %s runs code automatically (persistence)", verb, rate.Display(w.s), z.Persist)
		return
	}
	switch z.Kind {
	case rate.ZonePersistence:
		a.add(level.Destructive, "shell.persistence", sp, "%s %s: %s runs code automatically (persistence)", verb, rate.Display(w.s), z.Detail)
	case rate.ZoneCredential:
		a.add(level.Destructive, "shell.credential-write", sp, "%s %s, inside %s", verb, rate.Display(w.s), z.Detail)
	case rate.ZoneSystem:
		a.add(level.Dangerous, "shell.system-write", sp, "%s %s, inside %s", verb, rate.Display(w.s), z.Detail)
	default:
		a.add(level.Caution, "shell.write", sp, "%s %s", verb, rate.Display(w.s))
	}
}

// readSource notes a read from a credential store (public keys excepted).
func (a *shellAn) readSource(w word, sp Span) {
	z := a.zone(w)
	if z.Kind != rate.ZoneCredential || z.Pub {
		return
	}
	a.add(level.Dangerous, "shell.secret-read", sp, "reads %s, inside %s", rate.Display(w.s), z.Detail)
	a.secretAt(sp)
}

func (a *shellAn) secretAt(sp Span) {
	if a.secret == nil {
		a.secret = &sp
	}
}

func (a *shellAn) uploadAt(sp Span) {
	if a.upload == nil {
		a.upload = &sp
	}
}
