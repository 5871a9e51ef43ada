package jxa

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Seed 000's floor for a shell run from a script (DESIGN.md "Risk levels"):
// `do shell script` — doShellScript in JXA — is never below Dangerous, and
// with rm, sudo, chmod, chown, mkfs, dd or a disk format it is Destructive,
// whatever the nested shell analysis says of the rest.

// seedCommands are the programs that make a script's shell Destructive, by
// the name a shell runs them by, with what each does. diskutil is one only
// with a verb that erases (seedDiskutil).
var seedCommands = map[string]effect.Effect{
	// Removal outside the Trash.
	"rm": removes, "srm": removes, "unlink": removes, "rmdir": removes, "shred": removes,
	// Disks: dd writes raw blocks, of a disk as readily as of a file.
	"dd": erases, "mkfs": erases, "format": erases, "newfs": erases,
	// Root: what runs as root reaches every user's files and the system's.
	"sudo": asRoot, "doas": asRoot,
	// Owners and modes are the OS's access control over files (chmod u+s
	// after chown root makes a program that runs as root).
	"chmod": accessControl, "chown": accessControl, "chgrp": accessControl,
}

// The effects of seedCommands' programs.
var (
	removes       = effect.Of(effect.Remove)
	erases        = effect.Of(effect.Disk)
	asRoot        = effect.Of(effect.Admin, effect.Session)
	accessControl = effect.Of(effect.SecurityOff)
)

// seedDiskutil are the diskutil verbs (and diskutil apfs verbs) that erase,
// reformat or delete volumes, lower case.
var seedDiskutil = map[string]bool{
	"erasedisk": true, "erasevolume": true, "reformat": true, "zerodisk": true, "randomdisk": true,
	"secureerase": true, "partitiondisk": true, "deletevolume": true, "deletecontainer": true, "erasecontainer": true,
}

// seedRunners run the command they are given (or, for the shell's own
// words, start one): the word after them is in command position.
var seedRunners = map[string]bool{
	"env": true, "command": true, "exec": true, "nohup": true, "time": true, "nice": true, "xargs": true,
	"builtin": true, "caffeinate": true, "timeout": true, "-exec": true, "-execdir": true, "-ok": true,
	"then": true, "do": true, "else": true, "!": true,
}

// seedWord returns the first program of seedCommands cmd runs, and what it
// does, in any of its
// commands (after ;, &&, ||, |, a newline, a bracket or a quote: a command
// quoted for sh -c is found too). A word is in command position when it
// starts a command or follows a runner (env, xargs, find -exec …); NAME=value
// words and a runner's options before it are skipped. It reads shell words loosely, so it finds
// more than a shell would run, never less: the floor fails closed.
func seedWord(cmd string) (string, effect.Effect, bool) {
	fields := seedFields(cmd)
	start := true
	for k, w := range fields {
		if w == "" {
			start = true
			continue
		}
		low := strings.ToLower(path.Base(w))
		if !start {
			start = seedRunners[low]
			continue
		}
		switch {
		case strings.Contains(w, "=") && w[0] != '=' && w[0] != '-':
			continue // an assignment before the command
		case seedRunners[low]:
			continue
		case w[0] == '-' || w[0] >= '0' && w[0] <= '9':
			continue // a runner's option or count (env -i, nice -n 5, timeout 5)
		case seedCommands[low].Kind != 0:
			return path.Base(w), seedCommands[low], true
		case strings.HasPrefix(low, "mkfs.") || strings.HasPrefix(low, "newfs_"):
			return path.Base(w), erases, true
		case low == "diskutil":
			for _, x := range fields[k+1:] {
				if x == "" {
					break
				}
				if seedDiskutil[strings.ToLower(x)] {
					return "diskutil " + x, erases, true
				}
			}
		}
		start = false
	}
	return "", effect.Effect{}, false
}

// seedFields splits cmd into words, with "" where a command can start.
func seedFields(cmd string) []string {
	var out []string
	word := strings.Builder{}
	flush := func() {
		if word.Len() > 0 {
			out = append(out, word.String())
			word.Reset()
		}
	}
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; c {
		case ' ', '\t', '\\':
			flush()
		case ';', '&', '|', '\n', '\r', '(', ')', '{', '}', '`', '\'', '"', '$':
			flush()
			out = append(out, "")
		default:
			word.WriteByte(c)
		}
	}
	flush()
	return out
}
