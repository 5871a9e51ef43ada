package risk

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// The guard for AppleScript and JXA (guard.go has the rules): the paths
// and names in their string literals.

// selfApp reports a string that names Airlock itself as an application or
// a process: tell application "Airlock", process "Airlock" of System
// Events, Application('dev.airlock.Airlock'). A script that drives Airlock
// could press its Approve button or switch it to Level 2.
func (e *Env) selfApp(s string) bool {
	if len(s) > 64 {
		return false
	}
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, selfID) {
		return true
	}
	for _, n := range selfNames {
		if strings.EqualFold(s, n) {
			return true
		}
	}
	if e != nil && e.Self != nil {
		for _, n := range e.Self.Names {
			if strings.EqualFold(s, n) {
				return true
			}
		}
	}
	return false
}

// scriptPath turns a string literal that is a path into one the guard
// reads: POSIX (/…, ~/…), file:// URLs and HFS paths ("Macintosh
// HD:Users:me:.ssh:id_rsa"). ok is false for anything else.
func scriptPath(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		s = rest
	}
	switch {
	case s == "":
		return "", false
	case strings.Contains(s, "://"):
		return "", false
	case strings.HasPrefix(s, "/") || s == "~" || strings.HasPrefix(s, "~/"):
		return s, true
	case strings.Contains(s, ":") && !strings.ContainsAny(s, "/\n") && !strings.HasPrefix(s, ":"):
		return hfsToPOSIX(s), true
	}
	return "", false
}

// guardScriptPath applies the guard to a path found in a script: every
// finding for Airlock's own files, and for credential stores and system
// folders when the script plainly uses it as a path (after POSIX file,
// alias, file, folder, in read, write, open for access, or a file API).
func guardScriptPath(env *Env, s string, u use, asPath bool) []finding {
	p, ok := scriptPath(s)
	if !ok {
		return nil
	}
	if strings.HasPrefix(p, "/") {
		p = otherHome(p, homeOf(env))
	}
	fs := guardPath(env, p, u, display(s))
	if asPath {
		return fs
	}
	var own []finding
	for _, f := range fs {
		if f.rule == "own-files" {
			own = append(own, f)
		}
	}
	return own
}

// guardScriptTail is guardScriptPath for a path used as a path, or, with
// tail set, for the end of one computed at run time (h & "/settings.json"):
// that may only be found to name Airlock's own files.
func guardScriptTail(env *Env, s string, u use, tail bool) []finding {
	if !tail {
		return guardScriptPath(env, s, u, true)
	}
	p, ok := scriptPath(s)
	if !ok || !strings.HasPrefix(p, "/") {
		return nil
	}
	var own []finding
	for _, f := range guardPattern(env, holeMark+p, u, display(s)) {
		if f.rule == "own-files-maybe" {
			own = append(own, f)
		}
	}
	return own
}

func homeOf(env *Env) string {
	if env == nil || env.Paths == nil {
		return ""
	}
	return env.Paths.Home
}

// asWrites are the verbs after which an AppleScript statement's paths are
// written; asTree, changed with everything inside them.
var (
	asWrites = map[string]bool{"write": true, "make": true, "save": true, "duplicate": true, "delete": true,
		"move": true, "eof": true, "replace": true, "rename": true, "export": true, "copy": true}
	asTree = map[string]bool{"delete": true, "move": true, "duplicate": true}
)

// guard applies the guard to every string literal of the script.
func (an *asAn) guard() {
	an.statements(func(st []asToken) {
		// What the statement does with its paths, worked out when it has
		// one.
		u, reads, known := useRead, false, false
		verbs := func() {
			if known {
				return
			}
			known = true
			for _, t := range st {
				if t.kind != asWord || t.end-t.start > 9 {
					continue
				}
				w := strings.ToLower(an.text(t))
				switch {
				case asTree[w]:
					u, reads = useTreeWrite, true
				case asWrites[w] && u != useTreeWrite:
					u, reads = useWrite, true
				case w == "read" || w == "open":
					reads = true
				}
			}
		}
		for k, t := range st {
			if t.kind != asString {
				continue
			}
			s := an.str(t)
			sp := tokSpan(t)
			if an.env.selfApp(s) {
				an.add(level.Blocked, "as.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", display(s))
				continue
			}
			if namesSelf(s) {
				an.add(level.Blocked, "as.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", display(s))
				continue
			}
			if _, ok := scriptPath(s); !ok {
				continue
			}
			verbs()
			if k > 0 && st[k-1].isOp('&') {
				for _, f := range guardScriptTail(an.env, s, u, true) {
					an.add(f.l, "as."+f.rule, sp, "%s", f.text)
				}
				continue
			}
			asPath := reads
			if k > 0 {
				switch st[k-1].kw {
				case kwFile, kwFolder, kwAlias, kwPosix, kwDisk, kwItem, kwPath:
					asPath = true
				}
			}
			for _, f := range guardScriptPath(an.env, s, u, asPath) {
				an.add(f.l, "as."+f.rule, sp, "%s", f.text)
			}
		}
	})
}

// guardJS applies the guard to every string literal of a JXA script:
// names of Airlock itself, its own files anywhere, and credential stores
// and system folders in Path(…) and the file APIs (pathArgs).
func (an *jsAn) guard() {
	toks := an.lx.toks
	for i, t := range toks {
		if t.kind != jsString {
			continue
		}
		sp := jsSpan(t)
		if an.env.selfApp(t.val) {
			an.add(level.Blocked, "jxa.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", display(t.val))
			continue
		}
		if namesSelf(t.val) {
			an.add(level.Blocked, "jxa.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", display(t.val))
			continue
		}
		if i > 0 && toks[i-1].kind == jsPunct && toks[i-1].text == "+" {
			for _, f := range guardScriptTail(an.env, t.val, useRead, true) {
				an.add(f.l, "jxa."+f.rule, sp, "%s", f.text)
			}
			continue
		}
		asPath := i > 1 && toks[i-1].text == "(" && (toks[i-2].text == "Path" || toks[i-2].text == "fileURLWithPath" || toks[i-2].text == "stringWithString")
		for _, f := range guardScriptPath(an.env, t.val, useRead, asPath) {
			an.add(f.l, "jxa."+f.rule, sp, "%s", f.text)
		}
	}
}
