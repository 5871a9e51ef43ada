package sanitize

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// OwnPlace is one of Airlock's own files or folders: its data folder
// (settings, history, socket, lock), its log folder, its program or app
// bundle. No action may touch one, whatever the sandbox roots say: an action
// that could rewrite the settings, move the history aside or replace the
// program would undo every other rule.
type OwnPlace struct {
	Path string // absolute
	What string // what lies there, read after "is" or "is inside": "Airlock's settings"
}

// WithOwn returns a copy of c that also knows Airlock's own places: Classify
// reports them as ZoneOwn (before every other zone), Encloses reports a
// folder that holds one, Path refuses them for every operation with
// RuleOwnFiles (inside a sandbox root too, and a folder that holds one may
// only be opened), and Pattern matches them. Each place must be absolute;
// it is cleaned and resolved through symbolic links here, once, and both
// spellings count. c itself is not changed.
func (c *Config) WithOwn(places []OwnPlace) (*Config, error) {
	if c == nil || c.m == nil {
		return nil, fmt.Errorf("own places: the configuration was not made by NewConfig")
	}
	m := *c.m
	m.own, m.placeSet = nil, &placeSet{}
	var kept []OwnPlace
	seen := map[string]bool{}
	for _, p := range places {
		if r := strict("path", p.Path); r != nil {
			return nil, fmt.Errorf("own place: %w", r)
		}
		if !filepath.IsAbs(p.Path) {
			return nil, fmt.Errorf("own place %s is not an absolute path", Display(p.Path))
		}
		if p.What == "" {
			return nil, fmt.Errorf("own place %s: say what it is", Display(p.Path))
		}
		lex := filepath.Clean(p.Path)
		res, err := resolve(lex)
		if err != nil {
			res = lex // unreadable: its spelling still counts
		}
		for _, a := range aliases(lex, res) {
			k := keyPath(a)
			key := strings.Join(k.deny, "/")
			if seen[key] {
				continue
			}
			seen[key] = true
			m.own = append(m.own, ownPlace{pat: compile(a, denyKey), show: m.short(lex), what: p.What})
		}
		kept = append(kept, OwnPlace{Path: lex, What: p.What})
	}
	// The most specific place first: a pattern names the settings file
	// rather than the folder that holds it.
	slices.SortStableFunc(m.own, func(a, b ownPlace) int { return len(b.pat) - len(a.pat) })
	out := &Config{Home: c.Home, Roots: c.Roots, m: &m, own: kept, apps: c.apps}
	return out, nil
}

// Own returns the places WithOwn was given, cleaned: nil for a Config
// without any.
func (c *Config) Own() []OwnPlace {
	if c == nil {
		return nil
	}
	return append([]OwnPlace(nil), c.own...)
}

// ownPlace is an own place compiled for matching.
type ownPlace struct {
	pat  pattern // deny keys
	show string  // ~/ form, for messages
	what string
}

// ownHit finds the own place k is or lies inside: the most specific one,
// when places nest (the settings file inside the data folder).
func (m *model) ownHit(k keyed) (hit, bool) {
	best, n := hit{}, -1
	for _, o := range m.own {
		if o.pat.prefixOf(k.deny) && len(o.pat) > n {
			best, n = hit{kind: ZoneOwn, what: o.what, root: o.show, exact: len(o.pat) == len(k.deny)}, len(o.pat)
		}
	}
	return best, n >= 0
}

// ownInside finds an own place strictly inside k: the outermost one (the
// data folder rather than the settings in it).
func (m *model) ownInside(k keyed) (hit, bool) {
	best, n := hit{}, -1
	for _, o := range m.own {
		if o.pat.extends(k.deny) && (n < 0 || len(o.pat) < n) {
			best, n = hit{kind: ZoneOwn, what: o.what, root: o.show}, len(o.pat)
		}
	}
	return best, n >= 0
}
