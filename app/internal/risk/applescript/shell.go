package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
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
	rs := make([]Reason, len(e.reasons))
	for k, r := range e.reasons {
		if r.Span == shellAnchor {
			r.Span = sp
		}
		rs[k] = r
	}
	v.Merge(Verdict{Reasons: rs}, nil) // each reason as it was, its effect with it
	if e.level > v.Level {
		v.Level = e.level
	}
}

// shellFloor are the programs that make `do shell script` Destructive
// whatever the shell analysis finds of their arguments: seed 000's row
// (rm, sudo, chmod, chown, mkfs, dd, format) and what does the same by
// another name. A name is read case-insensitively (the Mac's volumes
// are), by its last path element (/bin/rm).
var shellFloor = map[string]floorRow{
	"rm": {"rm deletes files permanently", remove}, "unlink": {"unlink deletes a file permanently", remove},
	"rmdir": {"rmdir deletes folders", remove}, "srm": {"srm deletes files permanently", remove}, "shred": {"shred destroys files", remove},
	"sudo": {"sudo runs as root", root}, "doas": {"doas runs as root", root}, "su": {"su runs as another user", root},
	"chmod": {"chmod changes permissions", access}, "chown": {"chown changes owners", access}, "chgrp": {"chgrp changes groups", access},
	"chflags": {"chflags changes file flags", access}, "mkfs": {"mkfs formats a disk", disk}, "newfs": {"newfs formats a disk", disk},
	"dd": {"dd overwrites a file or disk", disk}, "format": {"format erases a disk", disk}, "fdisk": {"fdisk repartitions a disk", disk},
	"gpt": {"gpt repartitions a disk", disk}, "asr": {"asr restores over a disk", disk},
}

// floorRow is why a program is one of shellFloor's, and what it does.
type floorRow struct {
	why  string
	does effect.Effect
}

// What seed 000's programs do: remove data; act as root over the whole
// system; change who may read, write or run a file (the OS's access
// control); erase, format or overwrite a disk.
var (
	remove = effect.Of(effect.Remove)
	root   = effect.Of(effect.Admin, effect.Session)
	access = effect.Of(effect.SecurityOff)
	disk   = effect.Of(effect.Disk)
)

// diskutilErase are diskutil's verbs that erase or repartition (lower case).
var diskutilErase = []string{"erase", "zerodisk", "randomdisk", "secureerase", "reformat", "partitiondisk",
	"deletecontainer", "deletevolume", "splitpartition", "mergepartitions", "resizevolume"}

// shellFloorHit returns why a shell command runs one of shellFloor's
// programs, and what that program does, or "". It reads the command as words, not as shell: a program
// at the start of a command (after ; | & ( { ` $( or a newline, a quote,
// or a wrapper such as env, xargs or sh -c, with their options) counts,
// wherever it is nested, so neither quoting nor a path nor case hides it.
func shellFloorHit(cmd string) (string, effect.Effect) {
	start := true
	for i := 0; i < len(cmd); {
		c := cmd[i]
		if strings.IndexByte(shellStarts, c) >= 0 {
			start = true
			i++
			continue
		}
		if strings.IndexByte(shellBlanks, c) >= 0 {
			i++
			continue
		}
		j := i
		for j < len(cmd) && strings.IndexByte(shellStarts, cmd[j]) < 0 && strings.IndexByte(shellBlanks, cmd[j]) < 0 {
			j++
		}
		if start {
			word := strings.ToLower(cmd[i:j])
			name := word[strings.LastIndexByte(word, '/')+1:]
			if why, e := floorProgram(name, cmd[j:]); why != "" {
				return why, e
			}
			// Still before the program: a wrapper, one of its options or
			// their values, or VAR=value.
			start = shellWrappers[name] || strings.HasPrefix(word, "-") || strings.Contains(word, "=") || strings.Trim(word, "0123456789.") == ""
		}
		i = j
	}
	return "", effect.Effect{}
}

// The bytes that start a command, and those that only separate words.
const (
	shellStarts = ";|&({`\n\"'"
	shellBlanks = " \t\\$)}"
)

// floorProgram returns why the program name (lower case), followed by
// rest, is one of shellFloor's, and what it does, or "".
func floorProgram(name, rest string) (string, effect.Effect) {
	if r, ok := shellFloor[name]; ok {
		return r.why, r.does
	}
	if strings.HasPrefix(name, "mkfs") || strings.HasPrefix(name, "newfs") {
		return name + " formats a disk", disk
	}
	if name != "diskutil" {
		return "", effect.Effect{}
	}
	args := strings.Fields(strings.ToLower(rest))
	if len(args) > 1 && args[0] == "apfs" {
		args = args[1:]
	}
	if len(args) == 0 {
		return "", effect.Effect{}
	}
	for _, e := range diskutilErase {
		if strings.HasPrefix(args[0], e) {
			return "diskutil " + args[0] + " erases or repartitions a disk", disk
		}
	}
	return "", effect.Effect{}
}

// shellWrappers run the command that follows them.
var shellWrappers = map[string]bool{"env": true, "xargs": true, "nohup": true, "command": true, "exec": true,
	"time": true, "nice": true, "caffeinate": true, "then": true, "do": true, "else": true, "sh": true, "bash": true,
	"zsh": true, "ksh": true, "dash": true, "arch": true, "timeout": true, "!": true, "builtin": true}
