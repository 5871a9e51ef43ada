package bridge

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Handler is the program the OS would start to open a file or a URL, as
// resolved the way the OS resolves it: Launch Services on macOS, the
// freedesktop MIME database, mimeapps.list and desktop files on Linux.
// Launching through a Handler starts exactly this program, so what was
// judged is what runs.
type Handler struct {
	// ID is the bundle identifier (macOS) or the desktop file's id
	// (Linux: "org.gnome.Evince").
	ID   string
	Name string // the app's name
	// Path is the app bundle (macOS) or the desktop file (Linux).
	Path string
	// Program is the absolute path of the executable the launch starts,
	// "" when it was not found.
	Program string
	// Terminal is a desktop file's Terminal=true.
	Terminal bool
	// UserOwned says the bundle, the desktop file or the program lies in
	// the home folder (on macOS also: Launch Services knows another copy
	// of the app outside the install folders, which it may start instead,
	// strayCopy).
	UserOwned bool
	// Type is the MIME type (Linux) or the uniform type (macOS) the
	// handler was chosen for; "" for a named app.
	Type string

	exec []string // Linux: the Exec line, split into words, field codes kept
}

// Launched is what a launch started: the program and its process id (0
// where the OS started it on Airlock's behalf and did not say).
type Launched struct {
	Program string
	PID     int
}

func (l Launched) String() string {
	if l.PID == 0 {
		return l.Program
	}
	return fmt.Sprintf("%s (pid %d)", l.Program, l.PID)
}

// ErrNoHandler is wrapped by the error of a file or URL that no installed
// application opens.
var ErrNoHandler = errors.New("no application opens it")

// splitExec splits a desktop file's Exec value into words as the Desktop
// Entry Specification says: first the string escapes of the key file
// (\s \n \t \r \\), then words separated by spaces, where a word may be
// quoted in double quotes, inside which \" \` \$ and \\ stand for the
// character. A reserved character outside quotes (the shell's: ; | & < >
// $ ` ' ( ) * ? # ~ and \) makes the line invalid: the specification
// requires them quoted, and a launcher that passed it to a shell would
// read it otherwise.
func splitExec(value string) ([]string, error) {
	s, err := unescapeDesktop(value)
	if err != nil {
		return nil, err
	}
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\\':
			if i+1 >= len(s) || !strings.ContainsRune("\"`$\\", rune(s[i+1])) {
				return nil, fmt.Errorf("the Exec line %q: a backslash in quotes must escape \", `, $ or \\", value)
			}
			i++
			cur.WriteByte(s[i])
		case quoted && c == '"':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '"':
			quoted, inWord = true, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte(";|&<>$`'()*?#~\\\n", c) >= 0:
			return nil, fmt.Errorf("the Exec line %q: %q must be quoted", value, string(c))
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("the Exec line %q: a quote is not closed", value)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("the Exec line %q: no program", value)
	}
	if strings.Contains(words[0], "%") || strings.Contains(words[0], "=") {
		return nil, fmt.Errorf("the Exec line %q: the program is not a plain name or path", value)
	}
	return words, nil
}

// unescapeDesktop undoes a key file string's escapes.
func unescapeDesktop(v string) (string, error) {
	if !strings.Contains(v, `\`) {
		return v, nil
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' {
			b.WriteByte(v[i])
			continue
		}
		if i+1 >= len(v) {
			return "", fmt.Errorf("the Exec line %q ends in a backslash", v)
		}
		i++
		switch v[i] {
		case 's':
			b.WriteByte(' ')
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		default:
			// Not a key file escape: kept for the Exec rules (\" \$ …).
			b.WriteByte('\\')
			b.WriteByte(v[i])
		}
	}
	return b.String(), nil
}

// expandExec turns an Exec line's words into the argument vector that
// opens target ("" for none), as a launcher does: %f %F %u %U become target
// (a word that is only the code; in a longer word, its text), %c the name,
// %k the desktop file, %% a percent sign; %i and the deprecated codes go.
// When the line takes no file or URL, target is added at the end, as GLib
// does.
func expandExec(words []string, target, name, desktopPath string) ([]string, error) {
	var argv []string
	took := false
	for i, w := range words {
		if i == 0 {
			argv = append(argv, w)
			continue
		}
		switch w {
		case "%f", "%F", "%u", "%U":
			took = true
			if target != "" {
				argv = append(argv, target)
			}
			continue
		case "%i", "%d", "%D", "%n", "%N", "%v", "%m":
			continue
		}
		var b strings.Builder
		for j := 0; j < len(w); j++ {
			if w[j] != '%' {
				b.WriteByte(w[j])
				continue
			}
			if j+1 >= len(w) {
				return nil, fmt.Errorf("the Exec line: %q ends in a lone %%", w)
			}
			j++
			switch w[j] {
			case '%':
				b.WriteByte('%')
			case 'f', 'F', 'u', 'U':
				took = true
				b.WriteString(target)
			case 'c':
				b.WriteString(name)
			case 'k':
				b.WriteString(desktopPath)
			case 'i', 'd', 'D', 'n', 'N', 'v', 'm':
			default:
				return nil, fmt.Errorf("the Exec line: %q holds the unknown field code %%%c", w, w[j])
			}
		}
		argv = append(argv, b.String())
	}
	if !took && target != "" {
		argv = append(argv, target)
	}
	return argv, nil
}

// under reports whether p lies in dir (dir "" or "/" holds nothing here:
// a home folder must be named).
func under(p, dir string) bool {
	if dir == "" || dir == "/" || !filepath.IsAbs(dir) {
		return false
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
