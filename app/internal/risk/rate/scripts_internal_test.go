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
