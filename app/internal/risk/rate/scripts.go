package rate

import (
	"strings"
)

// The guard for AppleScript and JXA (guard.go has the rules): the paths
// and names in their string literals.

// SelfApp reports a string that names Airlock itself as an application or
// a process: tell application "Airlock", process "Airlock" of System
// Events, Application('dev.airlock.Airlock'). A script that drives Airlock
// could press its Approve button or switch it to Level 2.
func (e *Env) SelfApp(s string) bool {
	if len(s) > 64 {
		return false
	}
	s = strings.TrimSpace(s)
	// An ASCII string equals an ASCII name, case folded, only if it is
	// as long; selfID and selfNames are ASCII.
	plain := ascii(s)
	if (!plain || len(s) == len(selfID)) && strings.EqualFold(s, selfID) {
		return true
	}
	for _, n := range selfNames {
		if (!plain || len(s) == len(n)) && strings.EqualFold(s, n) {
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

// hasPathByte reports whether s has a byte every path ScriptPath reads
// has one of: / ~ or : (strings.ContainsAny, without building its byte
// set at every call: most literals a script has are no paths).
func hasPathByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '~' || c == ':' {
			return true
		}
	}
	return false
}

// ScriptPath turns a string literal that is a path into one the guard
// reads: POSIX (/…, ~/…), file:// URLs and HFS paths ("Macintosh
// HD:Users:me:.ssh:id_rsa"). ok is false for anything else.
func ScriptPath(s string) (string, bool) {
	if !hasPathByte(s) {
		return "", false // each kind of path below has one of them
	}
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
		return HFSToPOSIX(s), true
	}
	return "", false
}

// GuardScriptPath applies the guard to a path found in a script: every
// Finding for Airlock's own files, and for credential stores and system
// folders when the script plainly uses it as a path (after POSIX file,
// alias, file, folder, in read, write, open for access, or a file API).
func GuardScriptPath(env *Env, s string, u Use, asPath bool) []Finding {
	p, ok := ScriptPath(s)
	if !ok {
		return nil
	}
	if strings.HasPrefix(p, "/") {
		p = OtherHome(p, HomeOf(env))
	}
	fs := GuardPath(env, p, u, Display(s))
	if asPath {
		return fs
	}
	var own []Finding
	for _, f := range fs {
		if f.Rule == "own-files" {
			own = append(own, f)
		}
	}
	return own
}

// GuardScriptTail is GuardScriptPath for a path used as a path, or, with
// tail set, for the end of one computed at run time (h & "/settings.json"):
// that may only be found to name Airlock's own files.
func GuardScriptTail(env *Env, s string, u Use, tail bool) []Finding {
	if !tail {
		return GuardScriptPath(env, s, u, true)
	}
	p, ok := ScriptPath(s)
	if !ok || !strings.HasPrefix(p, "/") {
		return nil
	}
	var own []Finding
	for _, f := range GuardPattern(env, HoleMark+p, u, Display(s)) {
		if f.Rule == "own-files-maybe" {
			own = append(own, f)
		}
	}
	return own
}

func HomeOf(env *Env) string {
	if env == nil || env.Paths == nil {
		return ""
	}
	return env.Paths.Home
}

// securityPrompts are the processes that show the OS's own consent and
// password prompts, each with what it asks. A script that names one (to
// click its Allow button or type into its password field) answers that
// prompt for the person: the check it stands for is off.
var securityPrompts = map[string]string{
	"securityagent":           "keychain and administrator password prompts",
	"coreautha":               "Touch ID and password prompts of apps",
	"usernotificationcenter":  "privacy consent alerts",
	"coreservicesuiagent":     "Gatekeeper's alerts for downloaded apps",
	"universalaccessauthwarn": "the Accessibility permission alert",
	"com.apple.securityagent": "keychain and administrator password prompts",
}

// SecurityPrompt reports a string that names a process of the OS's
// security prompts (securityPrompts), with what it asks.
func SecurityPrompt(s string) (string, bool) {
	if len(s) > 64 {
		return "", false
	}
	name := strings.TrimSuffix(strings.TrimSpace(s), ".app")
	if !securityPromptLens[len(name)] && ascii(name) {
		// Lower-casing ASCII keeps its length, and no name of that
		// length is one: the guard meets every string literal of a
		// script here, and most are not, which costs no copy.
		return "", false
	}
	what, ok := securityPrompts[strings.ToLower(name)]
	return what, ok
}

// securityPromptLens are the lengths of securityPrompts' names, at most 64.
var securityPromptLens = func() (lens [65]bool) {
	for name := range securityPrompts {
		lens[len(name)] = true
	}
	return lens
}()

// ascii reports whether s is all ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
