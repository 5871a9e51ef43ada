package risk

import (
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Shell commands an AppleScript runs are analysed at most twice per script:
// a script that runs the same command in many places (a loop unrolled, a
// script pasted many times) pays for two analyses, and replays what the
// second found at each place after.
//
// Replaying is exact because the shell analysis is a pure function of the
// command, the Env and the depth, which are the same within one script, and
// because it only ever adds to the verdict it is given: every reason it
// adds is anchored at the span of the AppleScript that runs the command,
// and it reads nothing back. Adding its deduplicated reasons, each at the
// highest level it was given, in the order they first appeared, leaves the
// verdict as running it again would, as long as the verdict has room for
// them all (rate.MaxReasons): past that, which reasons are kept depends on the
// order of every add, and the command is analysed again.

// shellEffect is what analysing one command added to an empty verdict.
type shellEffect struct {
	seen    bool     // met once: analysed in place, not recorded
	replay  bool     // recorded, and few enough reasons to replay
	reasons []Reason // spans are shellAnchor where they were the anchor
	level   level.Level
}

// shellAnchor stands for the anchor while a command's effect is recorded:
// no span of an input is negative.
var shellAnchor = Span{Start: -1, End: -1}

// Bounds on the memo: commands kept per script, and the length of one.
const (
	maxShellMemo     = 256
	maxShellMemoText = 4096
)

// shellInto is shellInto(v, cmd, an.env, &sp, an.depth+1), analysing each
// command at most twice per script: in place the first time (most
// commands are met once), recorded the second, replayed after that.
func (an *asAn) shellInto(v *Verdict, cmd string, sp Span) {
	e := an.shells[cmd]
	switch {
	case e == nil && len(an.shells) < maxShellMemo && len(cmd) <= maxShellMemoText:
		if an.shells == nil {
			an.shells = map[string]*shellEffect{}
		}
		an.shells[cmd] = &shellEffect{seen: true}
		an.env.Languages().Shell(v, cmd, an.env, &sp, an.depth+1)
		return
	case e != nil && e.seen:
		var rec Verdict
		anchor := shellAnchor
		an.env.Languages().Shell(&rec, cmd, an.env, &anchor, an.depth+1)
		*e = shellEffect{replay: len(rec.Reasons) < rate.MaxReasons, reasons: rec.Reasons, level: rec.Level}
	}
	if e == nil || !e.replay || len(v.Reasons)+len(e.reasons) > rate.MaxReasons {
		an.env.Languages().Shell(v, cmd, an.env, &sp, an.depth+1)
		return
	}
	for _, r := range e.reasons {
		if r.Span == shellAnchor {
			r.Span = sp
		}
		v.AddText(r.Level, r.Rule, r.Span, r.Text)
	}
	if e.level > v.Level {
		v.Level = e.level
	}
}
