package rate

import (
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The guard: the hard rules every kind's paths pass, whatever the analyzer
// that found them (DESIGN.md, "Containment"; seed 003's sanitisation rules
// 3 and 4):
//
//   - Airlock's own files (its data folder, settings, history, logs,
//     socket, program; see sanitize.Config.WithOwn) are blocked for every
//     use but naming them, and so is a folder that holds them for a use
//     that reaches everything inside (rm -r, mv, cp -r, tar, rsync, a link
//     to it);
//   - credential stores are blocked the same way (a public key may be
//     read);
//   - system folders are blocked for a write and never safe for a read:
//     reading public configuration changes nothing, so a read is caution
//     with a reason, as the benign corpora label it.
//
// A path computed at run time that may name Airlock's own files is at
// least dangerous. Globs are matched as the shell would expand them.

// Use is how an action uses a path it names.
type Use int

const (
	UseList      Use = iota // reads its name or metadata, or lists the folder (ls, du, find without actions)
	UseRead                 // reads its content (cat, the source of cp)
	UseWrite                // creates, writes, changes or removes it (>, the target of cp, rm, chmod)
	UseTreeRead             // reads everything inside it (cp -r, tar c, grep -r)
	UseTreeWrite            // changes everything inside it (rm -r, mv, rsync's target, tar x -C, a link to it)
)

// Tree reports a use that reaches everything inside the path.
func (u Use) Tree() bool { return u == UseTreeRead || u == UseTreeWrite }

// Writes reports a use that changes the path.
func (u Use) Writes() bool { return u == UseWrite || u == UseTreeWrite }

// Finding is one guard result: its effect (weighed by the calibration
// table like every other), the rule's name after the analyzer's prefix,
// and the warning.
type Finding struct {
	Effect effect.Effect
	Rule   string
	Text   string
}

// Level is what the finding weighs.
func (f Finding) Level() level.Level { return f.Effect.Level() }

// The guard's effects: refused outright (Airlock's own files, credential
// stores, system paths), a read of the system's own files, and a path
// computed at run time that may name Airlock's own files.
var (
	refused    = effect.Of(effect.Refused)
	systemRead = effect.Of(effect.Read, effect.Session)
	mayBeOwn   = effect.Of(effect.Unknown)
)

// guardMemo remembers literal classifications: they are pure functions of
// the configuration and the path.
var (
	guardMemo     sync.Map // zoneKey → guardZones
	guardMemoSize atomic.Int64
)

type guardZones struct {
	in, holds sanitize.Zone
	pub       bool
}

func guardZonesOf(env *Env, abs string) guardZones {
	key := zoneKey{env.Paths, abs}
	if z, ok := guardMemo.Load(key); ok {
		return z.(guardZones)
	}
	z := guardZones{in: env.Paths.Classify(abs), holds: env.Paths.Encloses(abs)}
	base := strings.ToLower(path.Base(abs))
	z.pub = strings.HasSuffix(base, ".pub") || base == "known_hosts"
	if guardMemoSize.Add(1) > maxZoneMemo {
		guardMemo.Clear()
		guardMemoSize.Store(0)
	}
	guardMemo.Store(key, z)
	return z
}

// GuardPath applies the guard to a literal path (absolute, or starting
// with ~) used as u. shown is how the warning names it.
func GuardPath(env *Env, p string, u Use, shown string) []Finding {
	if env == nil || env.Paths == nil || p == "" {
		return nil
	}
	abs, err := sanitize.ExpandHome(p, env.Paths.Home)
	if err != nil || !strings.HasPrefix(abs, "/") {
		return nil
	}
	abs = path.Clean(abs)
	z := guardZonesOf(env, abs)
	var out []Finding
	switch in := z.in; in.Kind {
	case sanitize.ZoneOwn:
		return []Finding{ownFinding(shown, "is", in)}
	case sanitize.ZoneCredential:
		if z.pub && !u.Writes() {
			break
		}
		return []Finding{{refused, "credential-store", "blocked: " + shown + " is inside a credential store (" + in.Root + ": " + in.Detail + ")"}}
	case sanitize.ZoneSystem:
		if isDevicePath(in.Root) {
			break
		}
		if in.Root == "/" {
			if u == UseTreeWrite {
				return []Finding{{refused, "system-path", "blocked: " + shown + " is the root folder: it holds the whole disk"}}
			}
			break
		}
		if u.Writes() {
			return []Finding{{refused, "system-path", "blocked: " + shown + " is inside a system folder (" + in.Root + ": " + in.Detail + ")"}}
		}
		{
			out = append(out, Finding{systemRead, "system-read", "reads " + shown + ", inside a system folder (" + in.Root + ": " + in.Detail + ")"})
		}
	}
	if !u.Tree() {
		return out
	}
	switch h := z.holds; h.Kind {
	case sanitize.ZoneOwn:
		out = append(out, ownFinding(shown, "holds", h))
	case sanitize.ZoneCredential:
		out = append(out, Finding{refused, "credential-store", "blocked: " + shown + " holds a credential store (" + h.Root + ": " + h.Detail + ")"})
	case sanitize.ZoneSystem:
		if u == UseTreeWrite {
			out = append(out, Finding{refused, "system-path", "blocked: " + shown + " holds system folders (" + h.Root + ")"})
		}
	}
	return out
}

func ownFinding(shown, verb string, z sanitize.Zone) Finding {
	return Finding{refused, "own-files", "blocked: " + shown + " " + verb + " " + z.Detail + " (" + z.Root + "): no action may touch Airlock's own files"}
}

// isDevicePath: /dev is a system folder to the sanitiser, but devices have
// rules of their own (raw disks, sinks), and seed 003 does not list it.
func isDevicePath(root string) bool {
	return root == "/dev" || root == "/private/dev"
}

// GuardPattern applies the guard to a path with globs or parts computed at
// run time (sanitize.Hole stands for those), absolute or starting with ~
// or a Hole.
func GuardPattern(env *Env, pat string, u Use, shown string) []Finding {
	if env == nil || env.Paths == nil {
		return nil
	}
	computed := strings.Contains(pat, sanitize.Hole)
	var out []Finding
	for _, h := range env.Paths.Pattern(pat) {
		if h.Reach == sanitize.ReachHolds && !u.Tree() {
			continue
		}
		if u == UseList && !computed && h.Zone.Kind == sanitize.ZoneOwn {
			// Listing what a glob matches (du -sh ~/*) singles nothing
			// out, wherever AIRLOCK_DATA_DIR put the data folder.
			continue
		}
		verb := "may name"
		if h.Reach == sanitize.ReachHolds {
			verb = "may name a folder that holds"
		}
		where := h.Zone.Root + ": " + h.Zone.Detail
		switch h.Zone.Kind {
		case sanitize.ZoneOwn:
			if computed {
				out = append(out, Finding{mayBeOwn, "own-files-maybe", shown + " is computed at run time and " + verb + " Airlock's own files (" + h.Zone.Root + ")"})
			} else {
				out = append(out, Finding{refused, "own-files", "blocked: the pattern " + shown + " " + verb + " " + h.Zone.Detail + " (" + h.Zone.Root + "): no action may touch Airlock's own files"})
			}
		case sanitize.ZoneCredential:
			if !computed {
				out = append(out, Finding{refused, "credential-store", "blocked: the pattern " + shown + " " + verb + " a credential store (" + where + ")"})
			}
		case sanitize.ZoneSystem:
			switch {
			case computed || isDevicePath(h.Zone.Root):
			case u.Writes():
				out = append(out, Finding{refused, "system-path", "blocked: the pattern " + shown + " " + verb + " a system folder (" + where + ")"})
			case h.Reach == sanitize.ReachInside:
				out = append(out, Finding{systemRead, "system-read", "reads " + shown + ", which may name a system folder (" + where + ")"})
			}
		}
	}
	return out
}

// selfID is the name of Airlock's key-store items (their service) and of
// its app bundle; storeItems are the history's items in the key store.
const selfID = "dev.airlock.airlock"

var storeItems = []string{"history-key-", "history-anchor-", "history-current-"}

// selfNames are the process names the gate runs under, whatever Env
// says: the Linux program and the macOS bundle's executable (compared
// without case).
var selfNames = []string{"airlock", "airlock.app"}

// selfCommandLines are command lines a gate is commonly started with, for
// pkill -f when Env knows none.
var selfCommandLines = []string{"airlock serve --prompter=terminal", "/Applications/Airlock.app/Contents/MacOS/Airlock"}

// NamesSelf reports a word that names Airlock's key-store items or bundle
// id: security find-generic-password -s dev.airlock.Airlock, secret-tool
// clear service …, launchctl kill … gui/501/dev.airlock.Airlock.
func NamesSelf(s string) bool {
	if len(s) < minSelfItem {
		return false // too short to hold any
	}
	if containsFold(s, selfID) {
		return true
	}
	for _, k := range storeItems {
		if containsFold(s, k) {
			return true
		}
	}
	return false
}

// minSelfItem is the length of the shortest of selfID and storeItems.
var minSelfItem = func() int {
	n := len(selfID)
	for _, k := range storeItems {
		n = min(n, len(k))
	}
	return n
}()

// containsFold is strings.Contains ignoring ASCII case, for a lower-case
// sub, without copying s.
func containsFold(s, sub string) bool {
	if len(sub) == 0 {
		return true
	}
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if c := s[i]; c == first || c|0x20 == first {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
	}
	return false
}

// ProcessNames returns the names and command lines a pattern must not
// match.
func (e *Env) ProcessNames() (names, lines []string) {
	names = append(names, selfNames...)
	lines = append(lines, selfCommandLines...)
	if e != nil && e.Self != nil {
		names = append(names, e.Self.Names...)
		lines = append(lines, e.Self.CommandLines...)
	}
	return names, lines
}

// GatePID reports a process id of the gate.
func (e *Env) GatePID(n int) bool {
	if e == nil || e.Self == nil {
		return false
	}
	for _, p := range e.Self.PIDs {
		if p == n {
			return true
		}
	}
	return false
}

// noPlaceholders removes the placeholders of computed text (whose names
// say AIRLOCK).
var noPlaceholders = strings.NewReplacer(HoleQuoted, "", HoleUnquoted, "")

// MentionsSelf reports text that names Airlock's program or the gate's
// lock file.
func MentionsSelf(s string) bool {
	if !containsFold(s, "airlock") && !containsFold(s, datadir.LockFile) {
		return false
	}
	s = noPlaceholders.Replace(s)
	return containsFold(s, "airlock") || containsFold(s, datadir.LockFile)
}

// OwnSpelling is how an own place is looked for in free text.
type OwnSpelling struct{ Text, What, Root string }

var spellMemo sync.Map // *sanitize.Config → []OwnSpelling

// OwnSpellings lists the own places' spellings in free text, lower case:
// from the home (".local/share/airlock") for those in it, whole for the
// rest.
func (e *Env) OwnSpellings() []OwnSpelling {
	if e == nil || e.Paths == nil {
		return nil
	}
	if v, ok := spellMemo.Load(e.Paths); ok {
		return v.([]OwnSpelling)
	}
	var out []OwnSpelling
	home := strings.ToLower(strings.TrimSuffix(e.Paths.Home, "/")) + "/"
	for _, p := range e.Paths.Own() {
		low := strings.ToLower(p.Path)
		text := low
		if strings.HasPrefix(low, home) {
			text = low[len(home):]
		}
		if len(text) < 8 || !strings.Contains(text, "airlock") {
			continue // a place spelled too plainly to look for in text
		}
		out = append(out, OwnSpelling{text, p.What, e.Paths.ShortPath(p.Path)})
	}
	spellMemo.Store(e.Paths, out)
	return out
}
