package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/airlockhq/airlock/app/internal/ascii"
)

// Two foldings of a path element, for two kinds of comparison.
//
// denyKey is wide: NFKC, full case folding (ß → ss), and no default-ignorable
// code points. Two names with the same denyKey might be one name to some
// file system (APFS, HFS+, a case-insensitive volume), so the deny lists
// (system, credential, persistence) compare with it: a doubtful spelling is
// refused.
//
// allowKey is narrow: NFC and simple case folding, the equivalence a
// default (case-insensitive, normalisation-insensitive) APFS volume applies
// and no more. The allow lists (sandbox roots, the temporary folders that
// the system list excepts) compare with it, so a lookalike of a root is not
// taken for the root.
//
// The two keys live in different spaces (ASCII letters are lower case in one
// and upper case in the other); compare a key only with a key of its kind.

func denyKey(s string) string {
	if isASCII(s) {
		return ascii.Lower(s)
	}
	s = norm.NFKC.String(s)
	s = cases.Fold().String(s)
	s = norm.NFKC.String(s)
	return strings.Map(func(r rune) rune {
		if ignorable(r) || isControl(r) {
			return -1
		}
		return r
	}, s)
}

func allowKey(s string) string {
	if isASCII(s) {
		return ascii.Upper(s)
	}
	s = norm.NFC.String(s)
	return strings.Map(simpleFoldMin, s)
}

// simpleFoldMin returns the smallest rune of r's simple case-folding orbit
// (K, k and the Kelvin sign all give K), so that two runes that fold to each
// other map to one rune.
func simpleFoldMin(r rune) rune {
	if r == utf8.RuneError {
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < m {
			m = f
		}
	}
	return m
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// elems splits a clean absolute path into its elements; "/" has none.
func elems(clean string) []string {
	clean = strings.TrimPrefix(clean, "/")
	if clean == "" {
		return nil
	}
	return strings.Split(clean, "/")
}

// keyed is a path split into elements, with both keys of each.
type keyed struct {
	raw   []string
	deny  []string
	allow []string
}

func keyPath(clean string) keyed {
	k := keyed{raw: elems(clean)}
	k.deny = make([]string, len(k.raw))
	k.allow = make([]string, len(k.raw))
	for i, e := range k.raw {
		k.deny[i] = denyKey(e)
		k.allow[i] = allowKey(e)
	}
	return k
}
