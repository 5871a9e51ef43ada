package execute

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// A new .git the person keeps whole (a clone) brings its configuration,
// and git acts on many of its keys by running programs: core.fsmonitor at
// every status, core.pager, aliases, filters, diff drivers, credential
// helpers, includes … A popup that says "with the 40 entries in it" lets
// such a key ride along with the clone the person asked for. So the keys
// of a held git folder's config are read, and every key but the few a
// clone or init writes is named in the popup's line. Naming the unusual
// keys rather than the known dangerous ones means a key this list never
// heard of is named too.

// usualGitKeys are the keys git clone and git init write, by section.key
// (lower case) or section.*.key for any subsection: settings of the
// repository's format and of where its branches come from, none of which
// runs anything.
var usualGitKeys = map[string]bool{
	"core.repositoryformatversion": true, "core.filemode": true, "core.bare": true,
	"core.logallrefupdates": true, "core.ignorecase": true, "core.precomposeunicode": true,
	"core.symlinks": true, "extensions.objectformat": true, "extensions.refstorage": true,
	"remote.*.url": true, "remote.*.fetch": true, "branch.*.remote": true, "branch.*.merge": true,
}

// maxGitConfig bounds what is read of one config file.
const maxGitConfig = 1 << 20

// errGitConfig is wrapped by the error of a config file git would refuse
// or that is too large to read whole.
var errGitConfig = errors.New("not a git config file Airlock can read")

// gitConfigKeys returns the keys set in a git config file, as
// section.subsection.key with the section and key in lower case (as git
// compares them) and the subsection as written, in the file's order,
// each once.
func gitConfigKeys(r io.Reader) ([]string, error) {
	entries, err := gitConfigEntries(r)
	var keys []string
	for _, e := range entries {
		if !slices.Contains(keys, e.key) {
			keys = append(keys, e.key)
		}
	}
	return keys, err
}

// gitEntry is one key set in a git config file, and its value as written:
// what follows the key, on to the lines a backslash continues it on
// (gitValue reads it).
type gitEntry struct{ key, raw string }

// gitConfigEntries returns the entries of a git config file in its order,
// keys named as gitConfigKeys names them; on an error, those before it.
func gitConfigEntries(r io.Reader) ([]gitEntry, error) {
	br := bufio.NewReader(io.LimitReader(r, maxGitConfig+1))
	var keys []gitEntry
	section, n, line := "", 0, 0
	for {
		s, err := br.ReadString('\n')
		n += len(s)
		if n > maxGitConfig {
			return keys, fmt.Errorf("%w: over %d bytes", errGitConfig, maxGitConfig)
		}
		if s == "" && err != nil {
			if err == io.EOF {
				return keys, nil
			}
			return keys, err
		}
		line++
		rest := strings.TrimLeft(s, " \t\r\n")
		switch {
		case rest == "" || rest[0] == '#' || rest[0] == ';':
			continue
		case rest[0] == '[':
			sec, after, perr := gitSection(rest)
			if perr != nil {
				return keys, fmt.Errorf("%w: line %d: %v", errGitConfig, line, perr)
			}
			section, rest = sec, strings.TrimLeft(after, " \t")
			if rest == "" || rest[0] == '#' || rest[0] == ';' || rest[0] == '\r' || rest[0] == '\n' {
				continue
			}
		}
		// A key, and its value: the rest of the line, on to the next ones
		// while a backslash ends it.
		i := 0
		for i < len(rest) && (isAlnum(rest[i]) || rest[i] == '-') {
			i++
		}
		if i == 0 || section == "" {
			return keys, fmt.Errorf("%w: line %d: no key where one must be", errGitConfig, line)
		}
		e := gitEntry{key: section + "." + strings.ToLower(rest[:i]), raw: rest[i:]}
		more, quoted := continued(rest[i:], false)
		for more {
			s, err = br.ReadString('\n')
			n += len(s)
			line++
			if n > maxGitConfig {
				return append(keys, e), fmt.Errorf("%w: over %d bytes", errGitConfig, maxGitConfig)
			}
			if s == "" && err != nil {
				break
			}
			e.raw += s
			more, quoted = continued(s, quoted)
		}
		keys = append(keys, e)
	}
}

// gitValue reads an entry's value as git does (config.c, parse_value):
// after an = and the blanks around it, double quotes keep blanks and
// comment marks as they are, \t \n \b \\ and \" are escapes, a backslash
// at a line's end joins the next, a ; or # outside quotes starts a
// comment, blanks around the value are dropped and each blank within it
// is a space. A key with no = is true (""). An escape git refuses, or a
// quote left open, is an error.
func gitValue(raw string) (string, error) {
	s := strings.TrimLeft(raw, " \t")
	if !strings.HasPrefix(s, "=") {
		return "", nil
	}
	var b strings.Builder
	quote, space := false, 0
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			continue
		}
		if c == '\n' {
			break
		}
		if !quote && (c == ' ' || c == '\t' || c == '\r') {
			if b.Len() > 0 {
				space++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			break
		}
		for ; space > 0; space-- {
			b.WriteByte(' ')
		}
		switch c {
		case '"':
			quote = !quote
			continue
		case '\\':
			i++
			if i >= len(s) {
				return b.String(), nil // the end of the file, as git reads a newline
			}
			switch s[i] {
			case '\n':
				continue
			case '\r':
				if i+1 < len(s) && s[i+1] == '\n' {
					i++
					continue
				}
				return "", errors.New("a backslash before a lone carriage return")
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
				c = s[i]
			default:
				return "", fmt.Errorf("an escape git refuses (\\%c)", s[i])
			}
		}
		b.WriteByte(c)
	}
	if quote {
		return "", errors.New("a quote left open")
	}
	return b.String(), nil
}

// gitSection reads a section header, "[core]", "[remote \"origin\"]" or
// the old "[remote.origin]", into "core", "remote.origin", and returns what
// follows its bracket.
func gitSection(s string) (string, string, error) {
	i := 1
	for i < len(s) && (isAlnum(s[i]) || s[i] == '-' || s[i] == '.') {
		i++
	}
	name := strings.ToLower(s[1:i])
	if name == "" {
		return "", "", errors.New("a section without a name")
	}
	if i < len(s) && s[i] == ']' {
		return name, s[i+1:], nil
	}
	if i >= len(s) || (s[i] != ' ' && s[i] != '\t') {
		return "", "", errors.New("a section header that does not end")
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) || s[i] != '"' {
		return "", "", errors.New("a subsection that is not quoted")
	}
	var sub strings.Builder
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && s[i+1] != '\n':
			i++
			sub.WriteByte(s[i])
		case c == '"':
			if i+1 >= len(s) || s[i+1] != ']' {
				return "", "", errors.New("a subsection header that does not end")
			}
			return name + "." + sub.String(), s[i+2:], nil
		case c == '\n':
			return "", "", errors.New("a subsection that does not end on its line")
		default:
			sub.WriteByte(c)
		}
	}
	return "", "", errors.New("a subsection that does not end")
}

// continued reports whether a value's line (the part of it after the key,
// or a whole line the value went on to) goes on to the next line, as git
// reads one (config.c, parse_value): it ends in a backslash that no other
// escapes, outside a comment; a double quote opened on one line is still
// open on the next. It returns whether a quote is open at the end.
func continued(v string, quoted bool) (more, open bool) {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			if i+1 >= len(v) || v[i+1] == '\n' || v[i+1] == '\r' && i+2 < len(v) && v[i+2] == '\n' {
				return true, quoted
			}
			i++ // an escape: the next byte is taken as it is
		case '"':
			quoted = !quoted
		case '#', ';':
			if !quoted {
				return false, quoted
			}
		case '\n':
			return false, quoted
		}
	}
	return false, quoted
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// unusualGitKeys returns the keys of keys that usualGitKeys does not name.
func unusualGitKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if usualGitKeys[k] {
			continue
		}
		if first, rest, ok := strings.Cut(k, "."); ok {
			if i := strings.LastIndexByte(rest, '.'); i >= 0 && usualGitKeys[first+".*."+rest[i+1:]] {
				continue
			}
		}
		out = append(out, k)
	}
	return out
}

// gitSettings returns, for a held new folder, the unusual keys set by the
// config files among the changes inside it (config, config.worktree and
// the worktrees' own), read from the layer without following a link: what
// the popup's line names. A config it cannot read is named as such.
func gitSettings(folder string, inside []sandbox.Change) []string {
	var out []string
	for _, c := range inside {
		rel, err := filepath.Rel(folder, c.Path)
		if err != nil || c.Upper == "" || !isGitConfigName(rel) {
			continue
		}
		keys, err := readGitConfig(c.Upper)
		for _, k := range unusualGitKeys(keys) {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
		if err != nil {
			out = append(out, rel+" (which Airlock cannot read whole)")
		}
	}
	return out
}

// isGitConfigName reports whether rel, inside a git folder, is a config
// file git reads: config, config.worktree, worktrees/NAME/config.worktree,
// modules/…/config.
func isGitConfigName(rel string) bool {
	base := strings.ToLower(filepath.Base(rel))
	return base == "config" || base == "config.worktree"
}

// readGitConfig reads the keys of the config file at p (a layer's file),
// never through a link.
func readGitConfig(p string) ([]string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return gitConfigKeys(f)
}
