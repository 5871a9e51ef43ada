package sanitize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Config is the user's home and sandbox roots, and, once given (WithOwn,
// WithApps), Airlock's own places and the allowed apps. Make it with
// NewConfig and do not change it afterwards: NewConfig compiles it for
// matching. It is safe for concurrent use.
type Config struct {
	Home  string   // absolute and clean, as given
	Roots []string // the sandbox roots, expanded, cleaned and symlink-resolved

	m    *model
	own  []OwnPlace // Airlock's own places (WithOwn)
	apps *appList   // the allowed apps (WithApps); nil: no limit
}

// NewConfig checks and compiles a home and its sandbox roots. Roots may use
// ~ and $HOME; nil means the defaults (~/Documents, ~/Downloads,
// ~/Desktop), and an empty non-nil slice means none, so every file operation
// is refused. A root need not exist yet, but one that exists must be a
// folder; a root in (or resolving into) a system folder, a credential store
// or a persistence location, or / itself, is refused. The home and the roots
// are resolved through symbolic links here, once.
func NewConfig(home string, roots []string) (*Config, error) {
	if r := strict("path", home); r != nil {
		return nil, fmt.Errorf("unusable home: %w", r)
	}
	if !filepath.IsAbs(home) {
		return nil, fmt.Errorf("unusable home: %w", &Refusal{Rule: RuleNotAbsolute, Arg: home, Detail: "is not an absolute path"})
	}
	if how, bad := traversal(home); bad {
		return nil, fmt.Errorf("unusable home: %w", traversalRefusal(home, how))
	}
	h := filepath.Clean(home)
	hr, err := resolve(h)
	if err != nil {
		return nil, fmt.Errorf("unusable home: %w", newModel(h, h, nil, nil).resolveRefusal(home, err))
	}
	c := &Config{Home: h}
	m := newModel(h, hr, nil, nil)
	if roots == nil {
		roots = defaultRoots
	}
	if r := List("sandbox root", roots); r != nil {
		return nil, fmt.Errorf("unusable sandbox roots: %w", r)
	}
	var lex, res []string
	seen := map[string]bool{}
	for _, raw := range roots {
		l, r, err := checkRoot(m, raw)
		if err != nil {
			return nil, fmt.Errorf("unusable sandbox root: %w", err)
		}
		key := strings.Join(keyPath(r).allow, "/")
		if seen[key] {
			continue
		}
		seen[key] = true
		lex, res = append(lex, l), append(res, r)
	}
	c.Roots = res
	c.m = newModel(h, hr, lex, res)
	return c, nil
}

// checkRoot expands, cleans and resolves one sandbox root and refuses it in
// a zone no root may be in.
func checkRoot(m *model, raw string) (lexical, resolved string, err error) {
	if raw == "" {
		return "", "", &Refusal{Rule: RuleEmpty, Arg: raw, Detail: "is empty; a folder is needed"}
	}
	if r := strict("path", raw); r != nil {
		return "", "", r
	}
	if how, bad := traversal(raw); bad {
		return "", "", traversalRefusal(raw, how)
	}
	p, err := ExpandHome(raw, m.home)
	if err != nil {
		return "", "", err
	}
	if !filepath.IsAbs(p) {
		return "", "", &Refusal{Rule: RuleNotAbsolute, Arg: raw, Detail: "is not an absolute path (start it with / or ~/)"}
	}
	lexical = filepath.Clean(p)
	resolved, err = resolve(lexical)
	if err != nil {
		return "", "", m.resolveRefusal(raw, err)
	}
	for _, p := range []string{lexical, resolved} {
		h := m.zone(keyPath(p))
		var rule Rule
		switch h.kind {
		case ZoneSystem:
			rule = RuleSystemPath
		case ZoneCredential:
			rule = RuleCredentialStore
		case ZonePersistence:
			rule = RulePersistence
		default:
			continue
		}
		detail := zoneDetail(h)
		if p != lexical {
			detail = "resolves to " + Display(m.short(p)) + ", which " + detail
		}
		return "", "", &Refusal{Rule: rule, Arg: raw, Detail: detail}
	}
	if fi, err := os.Stat(resolved); err == nil && !fi.IsDir() {
		return "", "", &Refusal{Rule: RuleNotFolder, Arg: raw, Detail: "is not a folder"}
	}
	return lexical, resolved, nil
}

// ShortPath writes an absolute path in its ~/ form when it lies in the home
// (under any alias), for display; it cleans the path. Anything else is
// returned as it is.
func (c *Config) ShortPath(abs string) string {
	if !filepath.IsAbs(abs) {
		return abs
	}
	return c.model().short(filepath.Clean(abs))
}

// ExpandHome expands a leading ~, ~/, $HOME or ${HOME} (each alone or
// followed by /) to home, and refuses ~name (another user's home, or a
// shell's ~+ and ~-). Anything else, relative or not, is returned as it is;
// the result is not cleaned.
func ExpandHome(raw, home string) (string, error) {
	for _, pre := range []string{"~", "$HOME", "${HOME}"} {
		if raw == pre || strings.HasPrefix(raw, pre+"/") {
			if home == "" {
				return "", &Refusal{Rule: RuleNotAbsolute, Arg: raw, Detail: "cannot be expanded: no home folder is configured"}
			}
			return home + raw[len(pre):], nil
		}
	}
	if strings.HasPrefix(raw, "~") {
		name, _, _ := strings.Cut(raw, "/")
		return "", &Refusal{Rule: RuleOtherUserHome, Arg: raw, Detail: "refers to a named user's home (" +
			Display(name) + "); only your own home (~/) is allowed"}
	}
	return raw, nil
}
