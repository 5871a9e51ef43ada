package bridge

import (
	"strconv"
	"strings"
	"unicode"
)

// The script builder (seed 000's ScriptBuilder) writes small AppleScripts
// for the common cases. Every value it is given becomes an AppleScript text
// expression through AppleScriptString, so no value can end the string early
// or add a statement; commands passed to TellScript are source and must come
// from the program, never from a model. The scripts behind the DSL's
// commands (scripts.go) take their values as argv instead and need none of
// this.

// AppleScriptString returns an AppleScript expression whose value is the
// text s: a double-quoted literal with `\` and `"` escaped and tab, line feed
// and return written \t, \n, \r. Every other character that could end a
// line, a string or a statement in some reader of the script (control and
// format characters, the line and paragraph separators, “ ” « » and ¬) is
// joined on as (character id N), so the result is one line of plain
// literals: "a" & (character id 8221) & "b". Invalid UTF-8 becomes U+FFFD.
func AppleScriptString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	open := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if needsCharacterID(r) {
			if open {
				b.WriteString(`" & `)
				open = false
			} else if b.Len() > 0 {
				b.WriteString(" & ")
			}
			b.WriteString("(character id ")
			b.WriteString(strconv.Itoa(int(r)))
			b.WriteString(")")
			continue
		}
		if !open {
			if b.Len() > 0 {
				b.WriteString(" & ")
			}
			b.WriteByte('"')
			open = true
		}
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	if open {
		b.WriteByte('"')
	} else if b.Len() == 0 {
		b.WriteString(`""`)
	}
	return b.String()
}

// needsCharacterID reports whether r is written as (character id N) rather
// than inside a literal.
func needsCharacterID(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	case '“', '”', '«', '»', '¬':
		return true
	}
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r)
}

// TellScript returns a tell block addressing the application named app
// (a value) with commands (source), one per line.
func TellScript(app string, commands ...string) string {
	var b strings.Builder
	b.WriteString("tell application " + AppleScriptString(app) + "\n")
	for _, c := range commands {
		b.WriteString("\t" + c + "\n")
	}
	b.WriteString("end tell\n")
	return b.String()
}

// ActivateScript returns a script that brings the application named app to
// the front, launching it if needed.
func ActivateScript(app string) string {
	return "tell application " + AppleScriptString(app) + " to activate\n"
}

// DialogScript returns a script that shows a dialog with message, an
// optional title ("" for none) and optional buttons (nil for the standard
// OK and Cancel); the script's result is the button pressed.
func DialogScript(message, title string, buttons []string) string {
	s := "display dialog " + AppleScriptString(message)
	if title != "" {
		s += " with title " + AppleScriptString(title)
	}
	if len(buttons) > 0 {
		quoted := make([]string, len(buttons))
		for i, b := range buttons {
			quoted[i] = AppleScriptString(b)
		}
		s += " buttons {" + strings.Join(quoted, ", ") + "}"
	}
	return s + "\nreturn button returned of result\n"
}

// NotificationScript returns a script that shows a notification with
// message and an optional title and subtitle ("" for none).
func NotificationScript(message, title, subtitle string) string {
	s := "display notification " + AppleScriptString(message)
	if title != "" {
		s += " with title " + AppleScriptString(title)
	}
	if subtitle != "" {
		s += " subtitle " + AppleScriptString(subtitle)
	}
	return s + "\n"
}

// FrontmostAppScript returns a script whose result is the name of the
// frontmost application.
func FrontmostAppScript() string {
	return "tell application \"System Events\" to get name of first application process whose frontmost is true\n"
}

// RunningAppsScript returns a script whose result is the names of the
// running applications that have a user interface, one per line.
func RunningAppsScript() string {
	return "set AppleScript's text item delimiters to linefeed\n" +
		"tell application \"System Events\" to set names to name of every application process whose background only is false\n" +
		"return names as text\n"
}
