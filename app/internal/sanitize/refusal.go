package sanitize

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/glyph"
)

// Rule names the hard rule behind a refusal. Its values are stable: logs,
// tests and the UI may match on them.
type Rule string

// The rules.
const (
	RuleControl         Rule = "control-character"   // C0/C1 control, DEL, line or paragraph separator
	RuleInvisible       Rule = "invisible-character" // zero-width, bidi control, soft hyphen, tag character…
	RuleInvalidUTF8     Rule = "invalid-utf8"        // not valid UTF-8
	RuleTraversal       Rule = "traversal"           // a .. path element, in any spelling
	RuleNotAbsolute     Rule = "not-absolute"        // a relative path (after ~ expansion)
	RuleOtherUserHome   Rule = "other-user-home"     // ~name
	RuleSystemPath      Rule = "system-path"         // /System, /etc, … and / itself
	RuleCredentialStore Rule = "credential-store"    // ~/.ssh, keychains, browser profiles, mail, …
	RuleOwnFiles        Rule = "own-files"           // Airlock's data folder, settings, history, logs, socket, program
	RuleOutsideSandbox  Rule = "outside-sandbox"     // not inside a sandbox root
	RuleSandboxRoot     Rule = "sandbox-root"        // deleting, moving or overwriting a sandbox root
	RuleSymlinkLoop     Rule = "symlink-loop"        // symbolic links that never end
	RuleUnresolvable    Rule = "unresolvable"        // a component could not be examined (permission denied…)
	RuleTooLong         Rule = "too-long"            // a string over MaxStringRunes
	RuleTooManyItems    Rule = "too-many-items"      // a list over MaxListItems
	RuleTooLarge        Rule = "too-large"           // a read or write over its limit
	RuleInvalidSize     Rule = "invalid-size"        // a negative size
	RuleEmpty           Rule = "empty"               // an empty path, URL or name
	RuleInvalidURL      Rule = "invalid-url"         // unparsable, or without a scheme
	RuleNotFolder       Rule = "not-a-folder"        // a sandbox root that is a file (NewConfig)
	RulePersistence     Rule = "persistence"         // a sandbox root in a persistence location (NewConfig)
	RuleNotAppName      Rule = "not-an-app-name"     // a path, white space at an end, a leading . or - (AppName)
	RuleAppNotAllowed   Rule = "app-not-allowed"     // an app the allowedApps setting does not list (Config.App)
)

// ErrBlocked matches every *Refusal under errors.Is.
var ErrBlocked = errors.New("blocked")

// Refusal is the error of every check in this package: the argument is
// blocked by Rule and must never be offered for approval.
type Refusal struct {
	Rule   Rule
	Arg    string // the raw argument as given
	Detail string // "is inside a credential store (~/.ssh)"; already safe to show

	shown string // how Error shows Arg, when not Arg itself (the ~/ form of a path)
}

// Error reads "blocked: ARG DETAIL" on one line; ARG is escaped by Display.
func (r *Refusal) Error() string {
	arg := r.shown
	if arg == "" {
		arg = r.Arg
	}
	return "blocked: " + Display(arg) + " " + r.Detail
}

// Is reports whether target is ErrBlocked.
func (r *Refusal) Is(target error) bool { return target == ErrBlocked }

// displayRunes is how much of an argument a message shows.
const displayRunes = 200

// Display returns s as one safe line for a message: as it is when every
// character is visible, otherwise double-quoted with control, invisible and
// bidi characters, variation selectors that change no character's look,
// letters that pass for Latin ones in a word of ASCII letters and invalid
// bytes escaped (\n, \u202e, \ufe0f, \u043e, \xff). Past 200
// characters it is cut and ends with "…".
func Display(s string) string {
	cut := false
	if len(s) > displayRunes {
		n := 0
		for i := range s {
			if n == displayRunes {
				s, cut = s[:i], true
				break
			}
			n++
		}
	}
	disguised := glyph.Disguised(s)
	plain := s != "" && s[0] != ' ' && s[len(s)-1] != ' ' && disguised == nil
	prev := rune(-1)
	for i := 0; plain && i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !visibleAfter(prev, r) {
			plain = false
		}
		prev = r
		i += size
	}
	if plain {
		if cut {
			return s + "…"
		}
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	prev = -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		shown := r == ' ' || !disguised[i] && visibleAfter(prev, r)
		prev = r
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteByte(hexDigits[s[i]>>4])
			b.WriteByte(hexDigits[s[i]&0xf])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case shown:
			b.WriteRune(r)
		case r < 0x10000:
			b.WriteString(`\u`)
			writeHex(&b, uint32(r), 4)
		default:
			b.WriteString(`\U`)
			writeHex(&b, uint32(r), 8)
		}
		i += size
	}
	b.WriteByte('"')
	if cut {
		b.WriteString("…")
	}
	return b.String()
}

const hexDigits = "0123456789abcdef"

func writeHex(b *strings.Builder, v uint32, digits int) {
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(v>>uint(shift))&0xf])
	}
}

// visibleAfter is visible for r after the rune prev (-1 at the start): a
// variation selector is visible only right after a character whose look
// it changes (an emoji's "❤️", an ideograph's variant), where the popup
// shows it too; after anything else it changes nothing the person sees.
func visibleAfter(prev, r rune) bool {
	if unicode.Is(unicode.Variation_Selector, r) {
		return glyph.Varies(prev)
	}
	return visible(r)
}

// visible reports whether r may appear unescaped in a message: a graphic
// character that is neither a control nor an invisible one. Spaces other
// than U+0020 are escaped, so a message cannot hide one.
func visible(r rune) bool {
	if r == ' ' {
		return true
	}
	return unicode.IsGraphic(r) && !unicode.IsSpace(r) && !isControl(r) && !isInvisible(r) && !glyph.Blank(r)
}
