package sanitize

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/ascii"
)

// ZoneKind is the kind of place a path lies in.
type ZoneKind int

// The zone kinds. ZoneNormal is the zero value: none of the others.
const (
	ZoneNormal      ZoneKind = iota
	ZoneTemp                 // a temporary folder (/tmp, /var/folders and their /private twins)
	ZoneSystem               // a system folder, or / itself: refused
	ZoneCredential           // a credential or private-data store: refused
	ZonePersistence          // a place whose contents run later, unasked: flagged
	ZoneSandbox              // inside a sandbox root
	ZoneOwn                  // Airlock's own files (WithOwn): refused
	ZoneHidden               // hidden in the home, maybe secret (Hidden only; never Classify)
)

var zoneNames = [...]string{"normal", "temp", "system", "credential", "persistence", "sandbox", "own", "hidden"}

func (k ZoneKind) String() string {
	if k < 0 || int(k) >= len(zoneNames) {
		return "zone(" + thousands(int64(k)) + ")"
	}
	return zoneNames[k]
}

// Zone is where a path lies.
type Zone struct {
	Kind   ZoneKind
	Detail string // what lies there: "SSH keys and configuration", "a LaunchAgent folder"
	Root   string // the matched entry, ~/ form: "~/.ssh", "/etc", "~/Documents"
}

// Classify tells which zone abs lies in, by its spelling alone: it does no
// I/O, so symbolic links are not followed (Path follows them). It folds case
// and Unicode normalisation, cleans // and /./ and .., and knows the /private
// twins, as Path does. A leading ~ or $HOME is expanded; ~name is taken to be
// a sibling of the home. A path that is still relative is ZoneNormal (or
// ZonePersistence when it holds a .git element).
//
// When a path lies in several zones, the first of own, credential, system,
// persistence, temp, sandbox wins.
func (c *Config) Classify(abs string) Zone {
	m := c.model()
	k, ok := m.classifyInput(abs)
	if !ok {
		if h, ok := m.anywhere(k, persistenceAny(), true); ok {
			return h.zone()
		}
		return Zone{Kind: ZoneNormal, Detail: "not an absolute path"}
	}
	return m.zone(k).zone()
}

// Persistence reports whether abs lies in a persistence location, whatever
// zone Classify reports for it: /Library/LaunchDaemons is a system folder
// first, but writing there is still persistence. Like Classify it does no
// I/O, and it matches relative paths against the "**/" entries
// (.git/hooks/x).
func (c *Config) Persistence(abs string) (Zone, bool) {
	m := c.model()
	k, ok := m.classifyInput(abs)
	var h hit
	if ok {
		h, ok = m.persistence(k)
	} else {
		h, ok = m.anywhere(k, persistenceAny(), true)
	}
	if !ok {
		return Zone{}, false
	}
	return h.zone(), true
}

// Plants reports whether a change at abs, an absolute path, may plant code
// that runs later, unasked: Persistence, but for what git keeps as data
// inside a repository's .git folder (gitDataZone: objects, refs, the index
// …), which every commit writes and git never runs. Such a path still
// plants when the folder holding the .git is a persistence location, or
// when what lies below the data folder matches an entry of its own
// (".git/objects/x/.envrc"). Like Classify it does no I/O.
func (c *Config) Plants(abs string) (Zone, bool) {
	z, ok := c.Persistence(abs)
	if !ok {
		return z, false
	}
	m := c.model()
	k, isAbs := m.classifyInput(abs)
	if !isAbs {
		return z, true
	}
	dot := denyKey(".git")
	for i, e := range k.deny {
		if e != dot || i+1 >= len(k.deny) {
			continue
		}
		if !gitData(k.deny[i+1]) {
			return z, true
		}
		if _, ok := m.persistence(keyed{raw: k.raw[:i], deny: k.deny[:i], allow: k.allow[:i]}); ok {
			return z, true
		}
		rest := keyed{raw: k.raw[i+2:], deny: k.deny[i+2:], allow: k.allow[i+2:]}
		if h, ok := m.anywhere(rest, persistenceAny(), true); ok {
			return h.zone(), true
		}
		return Zone{}, false
	}
	return z, true
}

// GitData reports whether elem, the first element of a path inside a git
// folder (a .git, a bare repository), names what git keeps there as data
// and never runs (gitDataZone: objects, refs, the index …), compared as
// Plants compares it.
func GitData(elem string) bool { return gitData(denyKey(elem)) }

// gitData reports whether key, the deny key of the element after a .git,
// names one of gitDataZone's entries.
var gitData = func() func(string) bool {
	keys := map[string]bool{}
	for _, e := range gitDataZone {
		keys[denyKey(e.path)] = true
	}
	return func(key string) bool { return keys[key] }
}()

// Encloses tells the most sensitive zone that lies strictly inside abs
// (Airlock's own files, then credential, system, persistence), for an analyzer that sees
// "rm -rf ~/Library": ~/Library is no credential store, but it holds
// ~/Library/Keychains. Like Classify it does no I/O. Only the user's own home
// counts here; ZoneNormal means abs holds none of them.
func (c *Config) Encloses(abs string) Zone {
	m := c.model()
	k, ok := m.classifyInput(abs)
	if !ok {
		if h, ok := m.enclosedAnywhere(k); ok {
			return h.zone()
		}
		return Zone{Kind: ZoneNormal}
	}
	if h, ok := m.encloses(k); ok {
		return h.zone()
	}
	return Zone{Kind: ZoneNormal}
}

// classifyInput expands and cleans a Classify argument; ok is false when it
// is relative, and then k holds its elements all the same.
func (m *model) classifyInput(abs string) (keyed, bool) {
	p, err := ExpandHome(abs, m.home)
	switch {
	case err == nil:
	case m.home != "" && strings.HasPrefix(abs, "~"): // ~name: guess a sibling of the home
		name, rest, _ := strings.Cut(abs[1:], "/")
		p = filepath.Join(filepath.Dir(m.home), name, rest)
	default:
		p = abs
	}
	if !filepath.IsAbs(p) {
		return keyPath("/" + filepath.Clean(p)), false
	}
	return keyPath(filepath.Clean(p)), true
}

// pelem is one element of a compiled pattern: a key, any one element
// ("*"), any element whose key ends with a suffix ("*.git"), or any
// element whose key starts with a prefix (".zcompdump*").
type pelem struct {
	key    string
	any    bool
	suffix bool
	prefix bool
}

func (e pelem) match(key string) bool {
	switch {
	case e.any:
		return true
	case e.suffix:
		return strings.HasSuffix(key, e.key)
	case e.prefix:
		return strings.HasPrefix(key, e.key)
	}
	return e.key == key
}

type pattern []pelem

// compile splits a clean absolute path into a pattern of deny or allow
// keys, element for element: a "*" in it is a name like any other.
func compile(p string, key func(string) string) pattern {
	var pat pattern
	for _, e := range elems(p) {
		pat = append(pat, pelem{key: key(e)})
	}
	return pat
}

// compileGlob is compile for the tables, where an element "*" is any
// element, "*suffix" any element ending in suffix and "prefix*" any
// element starting with prefix.
func compileGlob(p string, key func(string) string) pattern {
	var pat pattern
	for _, e := range elems(p) {
		switch {
		case e == "*":
			pat = append(pat, pelem{any: true})
		case strings.HasPrefix(e, "*"):
			pat = append(pat, pelem{key: key(e[1:]), suffix: true})
		case strings.HasSuffix(e, "*"):
			pat = append(pat, pelem{key: key(e[:len(e)-1]), prefix: true})
		default:
			pat = append(pat, pelem{key: key(e)})
		}
	}
	return pat
}

// prefixOf reports whether the pattern matches the first len(p) keys.
func (p pattern) prefixOf(keys []string) bool {
	if len(keys) < len(p) {
		return false
	}
	for i, e := range p {
		if !e.match(keys[i]) {
			return false
		}
	}
	return true
}

// extends reports whether keys is a strict prefix of what p matches.
func (p pattern) extends(keys []string) bool {
	if len(keys) >= len(p) {
		return false
	}
	for i, k := range keys {
		if !p[i].match(k) {
			return false
		}
	}
	return true
}

// extendsBoth is concat(a, b).extends(keys), without the concat.
func extendsBoth(a, b pattern, keys []string) bool {
	if len(keys) >= len(a)+len(b) {
		return false
	}
	for i, k := range keys {
		var e pelem
		if i < len(a) {
			e = a[i]
		} else {
			e = b[i-len(a)]
		}
		if !e.match(k) {
			return false
		}
	}
	return true
}

// compiled is a table entry ready to match.
type compiled struct {
	rel  pattern // after "~/", "/" or "**/"
	path string  // as the table writes it
	what string
}

type tables struct {
	system, temp            []compiled // absolute
	credHome, persistHome   []compiled // under a home
	persistAbs, persistAnyW []compiled // absolute; anywhere
}

var compiledTables = sync.OnceValue(func() *tables {
	t := &tables{}
	t.system = compileAbs(systemZone, denyKey)
	t.temp = compileAbs(tempZone, allowKey)
	for _, e := range credentialZone {
		t.credHome = append(t.credHome, compiled{compileGlob(e.path[1:], denyKey), e.path, e.what})
	}
	for _, e := range persistenceZone {
		switch {
		case strings.HasPrefix(e.path, "~/"):
			t.persistHome = append(t.persistHome, compiled{compileGlob(e.path[1:], denyKey), e.path, e.what})
		case strings.HasPrefix(e.path, "**/"):
			t.persistAnyW = append(t.persistAnyW, compiled{compileGlob(e.path[2:], denyKey), e.path, e.what})
		default:
			t.persistAbs = append(t.persistAbs, compileAbs([]entry{e}, denyKey)...)
		}
	}
	return t
})

func persistenceAny() []compiled { return compiledTables().persistAnyW }

// compileAbs compiles absolute entries, each with its /private twin.
func compileAbs(es []entry, key func(string) string) []compiled {
	var out []compiled
	for _, e := range es {
		out = append(out, compiled{compileGlob(e.path, key), e.path, e.what})
		if t, ok := twin(e.path); ok {
			out = append(out, compiled{compileGlob(t, key), t, e.what})
		}
	}
	return out
}

// twin returns the other spelling of a path under /etc, /tmp or /var:
// /etc/x ↔ /private/etc/x. The comparison folds ASCII case only (which
// keeps byte offsets), which is all the tables, a home and a root need.
func twin(p string) (string, bool) {
	lower := ascii.Lower(p)
	for _, d := range []string{"/etc", "/tmp", "/var"} {
		if lower == d || strings.HasPrefix(lower, d+"/") {
			return "/private" + p, true
		}
		if lower == "/private"+d || strings.HasPrefix(lower, "/private"+d+"/") {
			return p[len("/private"):], true
		}
	}
	return "", false
}

// homeBase is a home: the user's own (under any alias) or another's.
type homeBase struct {
	pat  pattern // deny keys
	path string  // "/Users/*"
	own  bool
}

// sandboxRoot is a sandbox root under all its aliases.
type sandboxRoot struct {
	show    string    // ~/Documents
	aliases []pattern // allow keys: lexical, resolved, /private twins
}

// model is a Config compiled for matching.
type model struct {
	home      string
	homeAllow []pattern // the home's aliases, allow keys (for ShortPath)
	bases     []homeBase
	roots     []sandboxRoot
	own       []ownPlace // Airlock's own places (WithOwn)
	placeSet  *placeSet  // what Pattern matches, worked out on first use
}

// aliases returns the distinct spellings of a path: as given, resolved, and
// the /private twins of both.
func aliases(paths ...string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		add(p)
		if t, ok := twin(p); ok {
			add(t)
		}
	}
	return out
}

// newModel compiles a home (lexical and resolved) and the roots (lexical and
// resolved, pairwise). It does no I/O.
func newModel(home, homeResolved string, rootsLex, rootsRes []string) *model {
	m := &model{home: home}
	own := aliases(home, homeResolved)
	for _, h := range own {
		m.homeAllow = append(m.homeAllow, compile(h, allowKey))
		m.bases = append(m.bases, homeBase{compile(h, denyKey), h, true})
	}
	for _, h := range own { // the home's siblings
		if parent := filepath.Dir(h); parent != "/" {
			pat := append(compile(parent, denyKey), pelem{any: true})
			m.bases = append(m.bases, homeBase{pat, filepath.Join(parent, "*"), false})
		}
	}
	for _, h := range aliases(otherHomes...) {
		m.bases = append(m.bases, homeBase{compileGlob(h, denyKey), h, false})
	}
	for i := range rootsLex {
		r := sandboxRoot{show: m.short(rootsLex[i])}
		for _, a := range aliases(rootsLex[i], rootsRes[i]) {
			r.aliases = append(r.aliases, compile(a, allowKey))
		}
		m.roots = append(m.roots, r)
	}
	m.placeSet = &placeSet{}
	return m
}

var emptyModel = sync.OnceValue(func() *model { return newModel("", "", nil, nil) })

// model returns the compiled Config; a Config not made by NewConfig is
// compiled on each call, lexically.
func (c *Config) model() *model {
	if c == nil {
		return emptyModel()
	}
	if c.m != nil {
		return c.m
	}
	home := ""
	if filepath.IsAbs(c.Home) {
		home = filepath.Clean(c.Home)
	}
	var roots []string
	for _, r := range c.Roots {
		if filepath.IsAbs(r) {
			roots = append(roots, filepath.Clean(r))
		}
	}
	return newModel(home, home, roots, roots)
}

// hit is a zone match, with what a message needs.
type hit struct {
	kind  ZoneKind
	what  string
	root  string // display form
	exact bool   // the path is the entry itself
}

func (h hit) zone() Zone { return Zone{Kind: h.kind, Detail: h.what, Root: h.root} }

// zone classifies a keyed absolute path: own, credential, system,
// persistence, temp, sandbox, normal, first match wins.
func (m *model) zone(k keyed) hit {
	if h, ok := m.ownHit(k); ok {
		return h
	}
	if h, ok := m.credential(k); ok {
		return h
	}
	if h, ok := m.system(k); ok {
		return h
	}
	if h, ok := m.persistence(k); ok {
		return h
	}
	if h, ok := m.temp(k); ok {
		return h
	}
	if i, n, ok := m.inRoot(k); ok {
		return hit{kind: ZoneSandbox, what: "a sandbox root", root: m.roots[i].show, exact: n == len(k.allow)}
	}
	return hit{kind: ZoneNormal}
}

// underHome matches home-relative entries under every home base.
func (m *model) underHome(k keyed, kind ZoneKind, table []compiled) (hit, bool) {
	for _, b := range m.bases {
		if !b.pat.prefixOf(k.deny) {
			continue
		}
		rest := k.deny[len(b.pat):]
		for _, e := range table {
			if e.rel.prefixOf(rest) {
				root := e.path
				if !b.own {
					root = "/" + strings.Join(k.raw[:len(b.pat)], "/") + e.path[1:]
				}
				return hit{kind, e.what, root, len(rest) == len(e.rel)}, true
			}
		}
	}
	return hit{}, false
}

func (m *model) credential(k keyed) (hit, bool) {
	return m.underHome(k, ZoneCredential, compiledTables().credHome)
}

func (m *model) system(k keyed) (hit, bool) {
	if len(k.deny) == 0 {
		return hit{ZoneSystem, "the root folder", "/", true}, true
	}
	if _, ok := m.temp(k); ok {
		return hit{}, false
	}
	for _, e := range compiledTables().system {
		if e.rel.prefixOf(k.deny) {
			return hit{ZoneSystem, e.what, e.path, len(k.deny) == len(e.rel)}, true
		}
	}
	return hit{}, false
}

func (m *model) temp(k keyed) (hit, bool) {
	for _, e := range compiledTables().temp {
		if e.rel.prefixOf(k.allow) {
			return hit{ZoneTemp, e.what, e.path, len(k.allow) == len(e.rel)}, true
		}
	}
	return hit{}, false
}

func (m *model) persistence(k keyed) (hit, bool) {
	t := compiledTables()
	if h, ok := m.underHome(k, ZonePersistence, t.persistHome); ok {
		return h, true
	}
	for _, e := range t.persistAbs {
		if e.rel.prefixOf(k.deny) {
			return hit{ZonePersistence, e.what, e.path, len(k.deny) == len(e.rel)}, true
		}
	}
	return m.anywhere(k, t.persistAnyW, false)
}

// anywhere matches "**/" entries at every depth; relative says k was a
// relative path (shown without its leading /).
func (m *model) anywhere(k keyed, table []compiled, relative bool) (hit, bool) {
	for i := range k.deny {
		for _, e := range table {
			if e.rel.prefixOf(k.deny[i:]) {
				n := i + len(e.rel)
				root := strings.Join(k.raw[:n], "/")
				if !relative {
					root = m.short("/" + root)
				}
				return hit{ZonePersistence, e.what, root, n == len(k.deny)}, true
			}
		}
	}
	return hit{}, false
}

// inRoot finds the sandbox root k lies in (the innermost, when roots nest):
// its index and the length of the matching alias.
func (m *model) inRoot(k keyed) (i, n int, ok bool) {
	for j, r := range m.roots {
		for _, a := range r.aliases {
			if a.prefixOf(k.allow) && (!ok || len(a) > n) {
				i, n, ok = j, len(a), true
			}
		}
	}
	return i, n, ok
}

// isRoot finds the sandbox root k is.
func (m *model) isRoot(k keyed) (int, bool) {
	for i, r := range m.roots {
		for _, a := range r.aliases {
			if len(a) == len(k.allow) && a.prefixOf(k.allow) {
				return i, true
			}
		}
	}
	return 0, false
}

// enclosedRoot finds a sandbox root strictly inside k.
func (m *model) enclosedRoot(k keyed) (int, bool) {
	for i, r := range m.roots {
		for _, a := range r.aliases {
			if a.extends(k.allow) {
				return i, true
			}
		}
	}
	return 0, false
}

// encloses finds one of Airlock's own places, a credential store, system
// folder or persistence location strictly inside k, in that order; for
// credential stores and home-relative persistence only the user's own home
// counts.
func (m *model) encloses(k keyed) (hit, bool) {
	if h, ok := m.ownInside(k); ok {
		return h, true
	}
	t := compiledTables()
	own := func(table []compiled, kind ZoneKind) (hit, bool) {
		for _, b := range m.bases {
			if !b.own {
				continue
			}
			for _, e := range table {
				if extendsBoth(b.pat, e.rel, k.deny) {
					return hit{kind: kind, what: e.what, root: e.path}, true
				}
			}
		}
		return hit{}, false
	}
	if h, ok := own(t.credHome, ZoneCredential); ok {
		return h, true
	}
	if len(k.deny) == 0 {
		return hit{kind: ZoneSystem, what: "the root folder", root: "/"}, true
	}
	for _, e := range t.system {
		if e.rel.extends(k.deny) {
			return hit{kind: ZoneSystem, what: e.what, root: e.path}, true
		}
	}
	if h, ok := own(t.persistHome, ZonePersistence); ok {
		return h, true
	}
	for _, e := range t.persistAbs {
		if e.rel.extends(k.deny) {
			return hit{kind: ZonePersistence, what: e.what, root: e.path}, true
		}
	}
	return m.enclosedAnywhere(k)
}

// enclosedAnywhere: a path ending in ".git" holds .git/hooks and .git/config.
func (m *model) enclosedAnywhere(k keyed) (hit, bool) {
	for _, e := range compiledTables().persistAnyW {
		for j := len(e.rel) - 1; j >= 1; j-- {
			if j <= len(k.deny) && e.rel[:j].prefixOf(k.deny[len(k.deny)-j:]) {
				return hit{kind: ZonePersistence, what: e.what, root: e.path}, true
			}
		}
	}
	return hit{}, false
}

// short is ShortPath for a clean absolute path.
func (m *model) short(abs string) string {
	k := keyPath(abs)
	for _, h := range m.homeAllow {
		if len(h) > 0 && h.prefixOf(k.allow) {
			if len(k.raw) == len(h) {
				return "~"
			}
			return "~/" + strings.Join(k.raw[len(h):], "/")
		}
	}
	return abs
}
