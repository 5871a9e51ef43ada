package sanitize

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// macOS limits: PATH_MAX and NAME_MAX.
const (
	maxPathBytes = 1024
	maxNameBytes = 255
)

// Op is what an action does with a path; some rules depend on it.
type Op int

// The operations.
const (
	OpRead      Op = iota // read a file or list a folder (also the source of a copy)
	OpOpen                // open with its app, or reveal in the Finder
	OpWrite               // create, overwrite or append
	OpDelete              // delete (or move to the Trash)
	OpMoveFrom            // the source of a move or rename
	OpMoveTo              // the destination of a move or rename: a write
	OpCreateDir           // create a folder
)

var opNames = [...]string{"read", "open", "write", "delete", "move-from", "move-to", "create-dir"}

func (o Op) String() string {
	if o < 0 || int(o) >= len(opNames) {
		return "op(" + thousands(int64(o)) + ")"
	}
	return opNames[o]
}

// replaces reports whether o deletes, moves or overwrites what is at the
// path, which a sandbox root may not undergo. An unknown Op is taken to.
func (o Op) replaces() bool {
	return o != OpRead && o != OpOpen && o != OpCreateDir
}

// reachesInside reports whether o acts on what a folder holds (a read lists
// or copies it), so that a folder holding a credential store is refused.
func (o Op) reachesInside() bool { return o != OpOpen && o != OpCreateDir }

// mutates reports whether o changes the file system.
func (o Op) mutates() bool { return o != OpRead && o != OpOpen }

// Path is a path that passed every rule.
type Path struct {
	Raw      string // as given
	Lexical  string // expanded and cleaned
	Resolved string // symbolic links along the longest existing prefix resolved

	Exists, IsDir, IsSymlink bool // of the final element (Lstat)

	// Persistence is "" or what the path is, as in "a LaunchAgent folder
	// (~/Library/LaunchAgents)": code placed there runs later, unasked, so
	// the risk package rates a change there at least destructive. For an
	// operation that changes the file system it also names a persistence
	// location the path holds ("a folder holding a git hooks folder (…)").
	Persistence string
}

// Path applies every path rule to raw for op and returns the path
// expanded, cleaned and resolved; its error is a *Refusal.
//
// In order: raw must be non-empty, valid UTF-8, at most MaxStringRunes
// characters, with no control or invisible character and no ".." element in
// any spelling. A leading ~ or $HOME is expanded (~name is refused), and the
// result must be absolute. It is cleaned (the lexical path) and resolved
// through symbolic links as far as the path exists (the resolved path); a
// loop is refused. Each spelling — the lexical path, the resolved path and,
// when the final element is itself a link, the place the link lives — must
// lie outside the system folders (/ itself included) and the credential
// stores, and then inside a sandbox root. A sandbox root may be read, opened
// or created but not deleted, moved or overwritten, nor may a folder holding
// one; a folder holding a credential store or a system folder may only be
// opened.
func (c *Config) Path(raw string, op Op) (Path, error) {
	m := c.model()
	refuse := func(rule Rule, detail string) (Path, error) {
		return Path{}, &Refusal{Rule: rule, Arg: raw, Detail: detail, shown: m.shown(raw)}
	}
	if raw == "" {
		return refuse(RuleEmpty, "is empty; a path is needed")
	}
	if r := strict("path", raw); r != nil {
		return Path{}, r
	}
	if how, bad := traversal(raw); bad {
		return Path{}, traversalRefusal(raw, how)
	}
	p, err := ExpandHome(raw, m.home)
	if err != nil {
		return Path{}, err
	}
	if !filepath.IsAbs(p) {
		return refuse(RuleNotAbsolute, "is a relative path; paths must be absolute (start with / or ~/)")
	}
	out := Path{Raw: raw, Lexical: filepath.Clean(p)}
	// macOS refuses longer names (NAME_MAX) and paths (PATH_MAX); a path no
	// file can have is refused here rather than judged.
	if len(out.Lexical) > maxPathBytes {
		return refuse(RuleTooLong, fmt.Sprintf("is %d bytes long; macOS paths are at most %d", len(out.Lexical), maxPathBytes))
	}
	for _, el := range strings.Split(out.Lexical, "/") {
		if len(el) > maxNameBytes {
			return refuse(RuleTooLong, fmt.Sprintf("has a name of %d bytes; macOS names are at most %d", len(el), maxNameBytes))
		}
	}

	// The spellings of the path that must all pass, each with how a message
	// introduces it. The deny rules (system, credential) go first for every
	// spelling, so that a link to /etc is refused as a system path wherever
	// it lives; the sandbox rules follow.
	type spelling struct {
		k   keyed
		via string
	}
	spellings := []spelling{{keyPath(out.Lexical), ""}}
	if rule, detail := m.deny(spellings[0].k); rule != "" {
		return refuse(rule, detail)
	}
	add := func(p, via string) *Refusal {
		if r := strict("path", p); r != nil {
			return &Refusal{Rule: r.Rule, Arg: raw, Detail: via + r.Detail, shown: m.shown(raw)}
		}
		k := keyPath(p)
		if rule, detail := m.deny(k); rule != "" {
			return &Refusal{Rule: rule, Arg: raw, Detail: via + detail, shown: m.shown(raw)}
		}
		spellings = append(spellings, spelling{k, via})
		return nil
	}
	unresolvable := func(err error) (Path, error) {
		// Outside the sandbox is the plainer reason, when it holds.
		if rule, detail := m.sandbox(spellings[0].k, op); rule == RuleOutsideSandbox {
			return refuse(rule, detail)
		}
		return Path{}, m.resolveRefusal(raw, err)
	}

	out.Resolved, err = resolve(out.Lexical)
	if err != nil {
		return unresolvable(err)
	}
	if out.Resolved != out.Lexical {
		if r := add(out.Resolved, "resolves to "+Display(m.short(out.Resolved))+", which "); r != nil {
			return Path{}, r
		}
	}
	if fi, err := os.Lstat(out.Lexical); err == nil {
		out.Exists = true
		out.IsDir = fi.IsDir()
		out.IsSymlink = fi.Mode()&fs.ModeSymlink != 0
	} else if twin, fi, ok := foldedTwin(out.Resolved); ok {
		// macOS volumes ignore case and normalisation: REPORT.TXT is
		// report.txt, and writing it replaces (or follows) that entry.
		out.Exists = true
		out.IsDir = fi.IsDir()
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := resolve(twin)
			if err != nil {
				return unresolvable(err)
			}
			if r := add(target, "is, on a case-insensitive disk, "+Display(m.short(twin))+", a link to "+Display(m.short(target))+", which "); r != nil {
				return Path{}, r
			}
		}
	}
	if out.IsSymlink && out.Lexical != "/" {
		// The link itself lives in its resolved parent; deleting or moving
		// it acts there.
		parent, err := resolve(filepath.Dir(out.Lexical))
		if err != nil {
			return unresolvable(err)
		}
		where := filepath.Join(parent, filepath.Base(out.Lexical))
		if where != out.Lexical && where != out.Resolved {
			if r := add(where, "is a symbolic link that lives at "+Display(m.short(where))+", which "); r != nil {
				return Path{}, r
			}
		}
	}
	for _, s := range spellings {
		if rule, detail := m.sandbox(s.k, op); rule != "" {
			return refuse(rule, s.via+detail)
		}
	}

	for _, s := range spellings {
		if h, ok := m.persistence(s.k); ok {
			out.Persistence = h.what + " (" + Display(h.root) + ")"
			break
		}
	}
	if out.Persistence == "" && op.mutates() {
		for _, s := range spellings {
			if h, ok := m.encloses(s.k); ok && h.kind == ZonePersistence {
				out.Persistence = "a folder holding " + h.what + " (" + Display(h.root) + ")"
				break
			}
		}
	}
	return out, nil
}

// deny applies the own-files, system and credential rules to one spelling
// of a path. It returns the rule broken and the detail ("" when none).
func (m *model) deny(k keyed) (Rule, string) {
	if h, ok := m.ownHit(k); ok {
		return RuleOwnFiles, zoneDetail(h)
	}
	if h, ok := m.credential(k); ok {
		return RuleCredentialStore, zoneDetail(h)
	}
	if h, ok := m.system(k); ok {
		return RuleSystemPath, zoneDetail(h)
	}
	return "", ""
}

// sandbox applies the sandbox rules to one spelling of a path: inside a
// root; not a root, nor a folder holding one, if op replaces it; not a
// folder holding a credential store or a system folder if op reaches
// inside.
func (m *model) sandbox(k keyed, op Op) (Rule, string) {
	if _, _, ok := m.inRoot(k); !ok {
		return RuleOutsideSandbox, "is outside the sandbox roots (" + m.rootList() + ")"
	}
	if i, ok := m.isRoot(k); ok && op.replaces() {
		return RuleSandboxRoot, "is a sandbox root (" + Display(m.roots[i].show) + ") and cannot be deleted, moved or overwritten"
	}
	if op.reachesInside() {
		if h, ok := m.encloses(k); ok && (h.kind == ZoneCredential || h.kind == ZoneSystem || h.kind == ZoneOwn) {
			return ruleFor(h.kind), "holds " + h.what + " (" + Display(h.root) + ")"
		}
	}
	if op.replaces() {
		if j, ok := m.enclosedRoot(k); ok {
			return RuleSandboxRoot, "holds a sandbox root (" + Display(m.roots[j].show) + ") and cannot be deleted, moved or overwritten"
		}
	}
	return "", ""
}

// ruleFor is the rule that refuses a zone kind: credential-store,
// system-path, or "" for the kinds that are not refused.
func ruleFor(k ZoneKind) Rule {
	switch k {
	case ZoneCredential:
		return RuleCredentialStore
	case ZoneSystem:
		return RuleSystemPath
	case ZoneOwn:
		return RuleOwnFiles
	}
	return ""
}

// zoneDetail words a zone hit for a refusal.
func zoneDetail(h hit) string {
	root := Display(h.root)
	switch h.kind {
	case ZoneCredential:
		if h.exact {
			return "is a credential store (" + root + ")"
		}
		return "is inside a credential store (" + root + ")"
	case ZoneSystem:
		if h.root == "/" {
			return "is the root folder (/)"
		}
		if h.exact {
			return "is a system folder (" + root + ")"
		}
		return "is inside a system folder (" + root + ")"
	case ZonePersistence, ZoneOwn:
		if h.exact {
			return "is " + h.what + " (" + root + ")"
		}
		return "is inside " + h.what + " (" + root + ")"
	}
	return "is in zone " + h.kind.String()
}

func (m *model) rootList() string {
	if len(m.roots) == 0 {
		return "none are configured"
	}
	shows := make([]string, len(m.roots))
	for i, r := range m.roots {
		shows[i] = Display(r.show)
	}
	return strings.Join(shows, ", ")
}

// shown is how a refusal shows raw: its ~/ form when raw is a clean
// absolute path in the home, else raw itself ("").
func (m *model) shown(raw string) string {
	if !filepath.IsAbs(raw) || filepath.Clean(raw) != raw {
		return ""
	}
	if s := m.short(raw); s != raw {
		return s
	}
	return ""
}

func traversalRefusal(raw, how string) *Refusal {
	d := "contains a parent-folder reference (..)"
	if how != "" {
		d += " " + how
	}
	return &Refusal{Rule: RuleTraversal, Arg: raw, Detail: d}
}

// maxLinks is how many symbolic links one resolution follows before it
// calls them a loop (Linux allows 40, macOS 32; both say ELOOP past that).
const maxLinks = 255

var errLoop = errors.New("symbolic link loop")

// resolveError is a failure to resolve, at a component.
type resolveError struct {
	at  string
	err error
}

func (e *resolveError) Error() string { return e.at + ": " + e.err.Error() }
func (e *resolveError) Unwrap() error { return e.err }

// resolveRefusal words a failure of resolve.
func (m *model) resolveRefusal(raw string, err error) *Refusal {
	var re *resolveError
	at, cause := "", err
	if errors.As(err, &re) {
		at, cause = re.at, re.err
	}
	if errors.Is(cause, errLoop) || errors.Is(cause, syscall.ELOOP) {
		return &Refusal{Rule: RuleSymlinkLoop, Arg: raw, shown: m.shown(raw),
			Detail: "cannot be resolved: its symbolic links form a loop"}
	}
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err
	}
	return &Refusal{Rule: RuleUnresolvable, Arg: raw, shown: m.shown(raw), Detail: "cannot be resolved: " +
		Display(cause.Error()) + " at " + Display(m.short(at))}
}

// resolve follows the symbolic links of a clean absolute path, component by
// component, as far as the path exists; the rest is appended as it is. A
// dangling link is followed to where it points (a write through it would
// create its target). It reads links and Lstats components, nothing else.
func resolve(p string) (string, error) {
	dest, rest := "/", p
	links := 0
	missing := false
	for {
		rest = strings.TrimLeft(rest, "/")
		if rest == "" {
			return dest, nil
		}
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		switch comp {
		case ".":
			continue
		case "..":
			dest = filepath.Dir(dest)
			continue
		}
		next := filepath.Join(dest, comp)
		if missing {
			dest = next
			continue
		}
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				missing, dest = true, next
				continue
			}
			if errors.Is(err, syscall.ELOOP) {
				return "", &resolveError{next, errLoop}
			}
			return "", &resolveError{next, err}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			dest = next
			if !fi.IsDir() {
				missing = true // nothing exists below a file
			}
			continue
		}
		links++
		if links > maxLinks {
			return "", &resolveError{next, errLoop}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", &resolveError{next, err}
		}
		if filepath.IsAbs(target) {
			dest = "/"
		}
		rest = target + "/" + rest
	}
}

// maxTwinScan bounds the folder listing foldedTwin reads.
const maxTwinScan = 10_000

// foldedTwin finds an entry of p's folder whose name equals p's last
// element once case and Unicode normalisation are folded, as APFS and HFS+
// compare names by default. It reads at most maxTwinScan entries.
func foldedTwin(p string) (string, fs.FileInfo, bool) {
	dir, base := filepath.Dir(p), filepath.Base(p)
	f, err := os.Open(dir)
	if err != nil {
		return "", nil, false
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxTwinScan)
	key := allowKey(base)
	for _, n := range names {
		if n != base && allowKey(n) == key {
			twin := filepath.Join(dir, n)
			fi, err := os.Lstat(twin)
			if err != nil {
				return "", nil, false
			}
			return twin, fi, true
		}
	}
	return "", nil, false
}
