package redact

import (
	"slices"
	"strings"
)

// Secret is one secret Find found in a text.
type Secret struct {
	Kind       string // as its marker names it: "github-pat", "aws-key-id", "private-key"
	Start, End int    // where it lies: text[Start:End]
}

// Find returns the secrets in s that String would remove and that are
// secrets by their form, in order: what the structure and format rules
// find (private keys, passwords in URLs, Authorization credentials,
// providers' key formats, JWTs), and what a name beside it calls a secret
// when the value also looks machine-made (password=hunter2, but not
// "password: see the wiki"). It is how an analyzer learns that an action
// carries a secret (issue 22), with the same rules that redact it, so it
// must not cry wolf at prose where String, which errs towards redacting,
// may. It never changes s.
//
// What it cannot see, String cannot either: a secret split in pieces, or
// encoded (String's decoding of base64 and hex output is for what actions
// print, not for what they are given).
func Find(s string) []Secret {
	e := theEngine()
	x := e.kw.scan(s)
	var out []Secret
	for t := range e.tiers {
		for _, f := range e.collect(x, t, true) {
			r := &e.tiers[t][f.prio]
			if t == tierName && !strings.HasPrefix(r.kind, "generic") && !tokenLike(s[f.lo:f.hi]) {
				continue
			}
			if slices.ContainsFunc(out, func(o Secret) bool { return f.lo < o.End && o.Start < f.hi }) {
				continue // an earlier pass found it, or a part of it
			}
			out = append(out, Secret{Kind: r.kind, Start: f.lo, End: f.hi})
		}
	}
	slices.SortFunc(out, func(a, b Secret) int { return a.Start - b.Start })
	return out
}

// tokenLike accepts a value a name calls secret when it looks like one: a
// single word of six bytes or more that looks machine-made (looksRandom).
func tokenLike(v string) bool {
	return len(v) >= 6 && !strings.ContainsAny(v, " \t\n\r") && looksRandom(v)
}
