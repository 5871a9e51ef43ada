// Package redact owns one job: taking secrets out of text before Airlock
// stores or logs it. String replaces every API key, token, password and
// private key it recognises with a marker naming what was there, such as
// "[redacted:github-token]", and leaves everything else byte for byte.
//
// It recognises the common provider key formats (OpenAI, Anthropic, AWS,
// GitHub, GitLab, Slack, Stripe, Google, Hugging Face, npm and a few more),
// bearer and Authorization credentials, JWTs, passwords in URLs, PEM private
// key blocks (OpenSSH and PGP included) and name/value pairs whose name says
// they hold a secret (password=, "api_key": "…", --token …, <secret>…</secret>).
//
// It must never grow a secret back: String is idempotent, a marker is never
// taken for a secret, and a value that is only partly a marker is replaced
// whole. It errs towards redacting: a value after "token:" or "password="
// is removed even when it looks harmless. What it cannot see it cannot
// remove: a bare password or a key with no recognisable format and no
// telling name beside it passes through, which is why the history seals
// the fields that can hold such text as well.
package redact

import (
	"regexp"
	"strings"
)

// String returns s with every secret it recognises replaced by a marker
// "[redacted:KIND]". Text that holds no secret is returned unchanged.
// String(String(s)) == String(s) for every s.
func String(s string) string {
	present := hintsIn(s)
	for i := range rules {
		r := &rules[i]
		if !r.hints.empty() && !r.hints.meets(&present) {
			continue
		}
		if out := r.apply(s); out != s {
			s = out
			present = hintsIn(s)
		}
	}
	return s
}

// Marker returns the marker that replaces a secret of the given kind.
func Marker(kind string) string { return "[redacted:" + kind + "]" }

// isMarker reports whether v is exactly one marker, so a rule seeing its
// own (or another rule's) output leaves it alone. A marker followed by
// more text is not a marker: "[redacted:x]hunter2" is redacted whole.
var isMarker = regexp.MustCompile(`^\[redacted:[a-z-]+\]$`).MatchString

// A rule finds one kind of secret. The secret is the whole match, or the
// submatch numbered group when the match also holds context to keep (a
// name, a separator, a scheme).
type rule struct {
	kind  string
	re    *regexp.Regexp
	group int
	// words are lower-case literals of which at least one occurs in any
	// text the rule can match (in any case); the rule is skipped when none
	// does. hints is the same as a set, made at init.
	words []string
	hints hintSet
	// check, when set, must accept the secret for it to be redacted.
	check func(string) bool
	// named, set at init for rules with submatches named s, holds the
	// submatch names: the secret is the first s that took part.
	named []string
}

// span returns where the secret lies in match m, or lo < 0 if nowhere.
func (r *rule) span(m []int) (lo, hi int) {
	if r.named == nil {
		return m[2*r.group], m[2*r.group+1]
	}
	for i, name := range r.named {
		if name == "s" && m[2*i] >= 0 {
			return m[2*i], m[2*i+1]
		}
	}
	return -1, -1
}

func (r *rule) apply(s string) string {
	matches := r.re.FindAllStringSubmatchIndex(s, -1)
	if matches == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		lo, hi := r.span(m)
		if lo < 0 || lo == hi {
			continue
		}
		secret := s[lo:hi]
		if isMarker(secret) || (r.check != nil && !r.check(secret)) {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:lo])
		b.WriteString(Marker(r.kind))
		last = hi
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// looksRandom accepts strings that look machine-made: a digit, or a capital
// right after a small letter. Words of prose and kebab-case names
// ("sk-learn-pipeline", "bearer responsibilities") have neither; random
// keys of twenty characters almost always have one.
func looksRandom(s string) bool {
	prevLower := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			return true
		case 'A' <= c && c <= 'Z' && prevLower:
			return true
		}
		prevLower = 'a' <= c && c <= 'z'
	}
	return false
}
