package sanitize

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The size limits. Over a limit an argument is refused, never truncated.
const (
	MaxStringRunes = 10_000     // characters (runes) in one string argument
	MaxListItems   = 100        // items in one list argument
	MaxReadBytes   = 1_000_000  // bytes in one file read
	MaxWriteBytes  = 10_000_000 // bytes in one file write (Content's limit too)
)

// isControl reports the characters free text loses and strict arguments
// refuse: C0 controls (including \n and \t: callers allow those where they
// may appear), DEL and the C1 controls.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f)
}

// isLineBreaker reports the Unicode line and paragraph separators, which
// break a one-line display like \n does; strict arguments refuse them as
// control characters.
func isLineBreaker(r rune) bool { return r == 0x2028 || r == 0x2029 }

// isBidi reports the bidirectional controls, which reorder what a person
// sees ("Trojan Source").
func isBidi(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	}
	return false
}

// invisibles are the characters that render as nothing; with the bidi
// controls they are what strict arguments refuse as invisible.
var invisibles = []struct{ lo, hi rune }{
	{0x200b, 0x200f}, // zero-width space, non-joiner, joiner; LRM, RLM
	{0x2060, 0x2064}, // word joiner, invisible operators
	{0xfeff, 0xfeff}, // zero-width no-break space (BOM)
	{0x180e, 0x180e}, // Mongolian vowel separator
	{0x00ad, 0x00ad}, // soft hyphen
	// What a reviewer adds: more characters that show as nothing.
	{0x206a, 0x206f},   // deprecated format characters
	{0xfff9, 0xfffb},   // interlinear annotation
	{0x034f, 0x034f},   // combining grapheme joiner
	{0x115f, 0x1160},   // Hangul choseong and jungseong fillers
	{0x3164, 0x3164},   // Hangul filler
	{0xffa0, 0xffa0},   // halfwidth Hangul filler
	{0x17b4, 0x17b5},   // Khmer inherent vowels
	{0x1d173, 0x1d17a}, // musical formatting
	{0xe0001, 0xe0001}, // language tag
	{0xe0020, 0xe007f}, // tag characters ("ASCII smuggling" to models)
}

// isInvisible reports the characters that render as nothing, or reorder the
// text around them, which strict arguments refuse.
func isInvisible(r rune) bool {
	if r < 0xad {
		return false
	}
	if isBidi(r) {
		return true
	}
	for _, v := range invisibles {
		if v.lo <= r && r <= v.hi {
			return true
		}
	}
	return false
}

// noun is how a message names a kind of strict argument.
func noun(what string) string {
	switch what {
	case "path":
		return "a path"
	case "url":
		return "a URL"
	case "app":
		return "an app name"
	case "command":
		return "a command argument"
	case "":
		return "an argument"
	}
	return "a " + what
}

// checkLength refuses s over MaxStringRunes characters; s must be valid UTF-8.
func checkLength(what, s string) *Refusal {
	if len(s) <= MaxStringRunes { // bytes ≥ runes
		return nil
	}
	if n := utf8.RuneCountInString(s); n > MaxStringRunes {
		return &Refusal{Rule: RuleTooLong, Arg: s, Detail: fmt.Sprintf(
			"is too long for %s (%s characters; the limit is %s)", noun(what), thousands(int64(n)), thousands(MaxStringRunes))}
	}
	return nil
}

// Text readies free text (a message body, a notification, clipboard text):
// it refuses invalid UTF-8 and more than MaxStringRunes characters, and
// strips control characters other than \n and \t (C0, DEL and C1).
func Text(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", &Refusal{Rule: RuleInvalidUTF8, Arg: s, Detail: "is not valid UTF-8"}
	}
	if r := checkLength("text", s); r != nil {
		return "", r
	}
	return stripControls(s), nil
}

// Content readies the text of a file to write. It is Text with the write
// limit (MaxWriteBytes bytes) in place of MaxStringRunes: file content is free
// text, but longer than a message.
func Content(s string) (string, error) {
	if len(s) > MaxWriteBytes {
		return "", &Refusal{Rule: RuleTooLarge, Arg: "file content", Detail: fmt.Sprintf(
			"is %s bytes; the limit for a write is %s bytes", thousands(int64(len(s))), thousands(MaxWriteBytes))}
	}
	if !utf8.ValidString(s) {
		return "", &Refusal{Rule: RuleInvalidUTF8, Arg: "file content", Detail: "is not valid UTF-8"}
	}
	return stripControls(s), nil
}

func stripControls(s string) string {
	keep := func(r rune) bool { return !isControl(r) || r == '\n' || r == '\t' }
	clean := true
	for _, r := range s {
		if !keep(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if keep(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Strict checks an argument that must be exactly what it looks like: what
// is "path", "url", "app" or "command" (an argv element). It refuses invalid
// UTF-8, more than MaxStringRunes characters, control characters (\n and \t
// too, except in a command) and invisible characters: zero-width, bidi
// controls, the soft hyphen and the like. Any other what is checked like a
// path.
func Strict(what, s string) error {
	if r := strict(what, s); r != nil {
		return r
	}
	return nil
}

func strict(what, s string) *Refusal {
	if !utf8.ValidString(s) {
		return &Refusal{Rule: RuleInvalidUTF8, Arg: s, Detail: "is not valid UTF-8; not allowed in " + noun(what)}
	}
	if r := checkLength(what, s); r != nil {
		return r
	}
	for _, r := range s {
		switch {
		case (r == '\n' || r == '\t') && what == "command":
		case isControl(r) || isLineBreaker(r):
			return &Refusal{Rule: RuleControl, Arg: s, Detail: fmt.Sprintf(
				"contains a control character (%U); not allowed in %s", r, noun(what))}
		case isBidi(r):
			return &Refusal{Rule: RuleInvisible, Arg: s, Detail: fmt.Sprintf(
				"contains a bidirectional control character (%U); not allowed in %s", r, noun(what))}
		case isInvisible(r):
			return &Refusal{Rule: RuleInvisible, Arg: s, Detail: fmt.Sprintf(
				"contains an invisible character (%U); not allowed in %s", r, noun(what))}
		case what == "path" && isLookalikeSpace(r):
			// "report.txt\u00a0" looks like "report.txt" and is another file.
			return &Refusal{Rule: RuleInvisible, Arg: s, Detail: fmt.Sprintf(
				"contains a space that looks like an ordinary one (%U); not allowed in %s", r, noun(what))}
		}
	}
	if what == "path" && s != strings.TrimSpace(s) {
		return &Refusal{Rule: RuleInvisible, Arg: s, Detail: "begins or ends with white space; not allowed in " + noun(what)}
	}
	return nil
}

// isLookalikeSpace reports the non-ASCII spaces (no-break, en/em, thin,
// ideographic …) that render like U+0020.
func isLookalikeSpace(r rune) bool {
	return r == 0xa0 || r == 0x1680 || r >= 0x2000 && r <= 0x200a || r == 0x202f || r == 0x205f || r == 0x3000
}

// List refuses a list argument (recipients, paths, argv) of more than
// MaxListItems items; what names the list in the message.
func List(what string, items []string) error {
	if len(items) > MaxListItems {
		if what == "" {
			what = "list"
		}
		return &Refusal{Rule: RuleTooManyItems, Arg: what, Detail: fmt.Sprintf(
			"has %s items; the limit is %d", thousands(int64(len(items))), MaxListItems)}
	}
	return nil
}

// URL checks raw as a strict "url" argument and parses it; a URL without a
// scheme is refused. It says nothing about where the URL leads: a file: URL's
// path is for Config.Path to judge.
func URL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, &Refusal{Rule: RuleEmpty, Arg: raw, Detail: "is empty; a URL is needed"}
	}
	if r := strict("url", raw); r != nil {
		return nil, r
	}
	u, err := url.Parse(raw)
	if err != nil {
		msg := err.Error()
		if ue, ok := err.(*url.Error); ok {
			msg = ue.Err.Error()
		}
		return nil, &Refusal{Rule: RuleInvalidURL, Arg: raw, Detail: "is not a valid URL: " + Display(msg)}
	}
	if u.Scheme == "" {
		return nil, &Refusal{Rule: RuleInvalidURL, Arg: raw, Detail: "has no scheme (like https:)"}
	}
	return u, nil
}

// WriteSize refuses a write of more than MaxWriteBytes bytes, or of a
// negative size.
func WriteSize(n int64) error { return size("write", n, MaxWriteBytes) }

// ReadSize refuses a read of more than MaxReadBytes bytes, or of a negative
// size.
func ReadSize(n int64) error { return size("read", n, MaxReadBytes) }

func size(what string, n, limit int64) error {
	arg := "a " + what + " of " + thousands(n) + " bytes"
	switch {
	case n < 0:
		return &Refusal{Rule: RuleInvalidSize, Arg: arg, Detail: "is not a valid size"}
	case n > limit:
		return &Refusal{Rule: RuleTooLarge, Arg: arg, Detail: fmt.Sprintf(
			"is over the limit of %s bytes", thousands(limit))}
	}
	return nil
}

// thousands writes n with comma separators: 10,000,000.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
