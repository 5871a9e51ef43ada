package rate

import (
	"strings"
	"testing"
)

// securityPromptAsBefore is SecurityPrompt as it was before its length
// gate: every string lower-cased and looked up.
func securityPromptAsBefore(s string) (string, bool) {
	if len(s) > 64 {
		return "", false
	}
	what, ok := securityPrompts[strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s), ".app"))]
	return what, ok
}

// securityPromptSeeds are names, spelt as scripts spell them, and strings
// whose Unicode lower case has another length than they have.
func securityPromptSeeds() []string {
	seeds := []string{"", "Finder", "SecurityAgent.app", " CoreAuthA ", "UserNotificationCenter.APP",
		"securityagent.app.app", "\tcom.apple.SecurityAgent\n", "SECURİTYAGENT", "ȺSecurityAgent", "ẞ",
		"coreauthA.app ", "universalaccessauthwarn", strings.Repeat("a", 65)}
	for name := range securityPrompts {
		seeds = append(seeds, name, strings.ToUpper(name), name+".app", " "+strings.ToUpper(name)+".app")
	}
	return seeds
}

// TestSecurityPromptAsBefore: the length gate answers as the lookup of
// every string did, on the names and on strings that change length when
// lower-cased.
func TestSecurityPromptAsBefore(t *testing.T) {
	found := 0
	for _, s := range securityPromptSeeds() {
		what, ok := SecurityPrompt(s)
		wantWhat, wantOK := securityPromptAsBefore(s)
		if what != wantWhat || ok != wantOK {
			t.Errorf("SecurityPrompt(%q) = %q, %v; before: %q, %v", s, what, ok, wantWhat, wantOK)
		}
		if ok {
			found++
		}
	}
	if found < 4*len(securityPrompts) {
		t.Errorf("found %d names, want at least %d: the seeds lost their names", found, 4*len(securityPrompts))
	}
}

func FuzzSecurityPrompt(f *testing.F) {
	for _, s := range securityPromptSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		what, ok := SecurityPrompt(s)
		wantWhat, wantOK := securityPromptAsBefore(s)
		if what != wantWhat || ok != wantOK {
			t.Errorf("SecurityPrompt(%q) = %q, %v; before: %q, %v", s, what, ok, wantWhat, wantOK)
		}
	})
}

// The string guards as they were before their gates (SelfApp's length
// test, ScriptPath's and NamesSelf's quick refusals).

func selfAppAsBefore(e *Env, s string) bool {
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

func scriptPathAsBefore(s string) (string, bool) {
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

func namesSelfAsBefore(s string) bool {
	if containsFold(s, selfID) {
		return true
	}
	for _, k := range storeItems {
		if containsFold(s, k) {
			return true
		}
	}
	return false
}

// stringGuardSeeds name Airlock, its key-store items and paths of every
// kind, in other cases and with letters that fold to ASCII ones (the
// Kelvin sign is a k).
func stringGuardSeeds() []string {
	return []string{"", "Airlock", " AIRLOCK.app ", "airloc\u212a", "Airloc\u212a.app", "dev.airlock.Airlock",
		"DEV.AIRLOC\u212a.AIRLOC\u212a", "airlock2", "Finder", "/Users/me/.ssh", "~", "~/Documents", " ~/x ",
		"file:///etc/hosts", "https://example.com", "Macintosh HD:Users:me:.ssh:id_rsa", ":x:y", "a:b/c",
		"history-key-1", "HISTORY-KEY-", "HISTORY-ANCHOR-x", "x history-current-y", "history-ke", "dev.airlock.airloc",
		"~user", "\t/tmp\n", "C:", "a\nb:c"}
}

// TestStringGuardsAsBefore: SelfApp, ScriptPath and NamesSelf answer as
// before their gates on the seeds.
func TestStringGuardsAsBefore(t *testing.T) {
	env := &Env{Self: &Self{Names: []string{"airlock-gate", "Airloc\u212a Helper"}}}
	hits := 0
	for _, s := range stringGuardSeeds() {
		hits += checkStringGuards(t, env, s)
	}
	if hits < 12 {
		t.Errorf("the seeds hit %d times, want at least 12: they lost their names and paths", hits)
	}
}

// checkStringGuards compares the guards with their old forms on s, and
// returns how many of them s hit.
func checkStringGuards(t *testing.T, env *Env, s string) int {
	t.Helper()
	hits := 0
	for _, e := range []*Env{nil, env} {
		if got, want := e.SelfApp(s), selfAppAsBefore(e, s); got != want {
			t.Errorf("SelfApp(%q) = %v, before %v", s, got, want)
		} else if got {
			hits++
		}
	}
	p, ok := ScriptPath(s)
	if wantP, wantOK := scriptPathAsBefore(s); p != wantP || ok != wantOK {
		t.Errorf("ScriptPath(%q) = %q, %v; before %q, %v", s, p, ok, wantP, wantOK)
	} else if ok {
		hits++
	}
	if got, want := NamesSelf(s), namesSelfAsBefore(s); got != want {
		t.Errorf("NamesSelf(%q) = %v, before %v", s, got, want)
	} else if got {
		hits++
	}
	return hits
}

func FuzzStringGuards(f *testing.F) {
	for _, s := range stringGuardSeeds() {
		f.Add(s)
	}
	env := &Env{Self: &Self{Names: []string{"airlock-gate", "Airloc\u212a Helper"}}}
	f.Fuzz(func(t *testing.T, s string) {
		checkStringGuards(t, env, s)
	})
}
