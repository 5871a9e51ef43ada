package risk

import (
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Env is what the analyzers know of the machine: the home folder and the
// sandbox roots, through the sanitiser's configuration.
type Env struct {
	Paths *sanitize.Config

	run *bounds // the assessment under way, set on a copy by begin (bounds.go)
}

// DefaultEnv is the current user's home with the default sandbox roots.
func DefaultEnv() (*Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		return nil, err
	}
	return &Env{Paths: cfg}, nil
}

type zoneKind int

const (
	zoneNormal zoneKind = iota
	zoneTemp
	zoneSandbox
	zonePersistence
	zoneSystem
	zoneCredential
)

type zoneInfo struct {
	kind     zoneKind
	detail   string
	persist  string // a persistence location, even where another zone wins
	homeRoot bool   // the home folder itself, or one of its top-level folders
	pub      bool   // a public key: not a secret though it sits in ~/.ssh
}

// critical: deleting there is never a small thing.
func (z zoneInfo) critical() bool {
	return z.homeRoot || z.kind == zoneSystem || z.kind == zoneCredential || z.kind == zonePersistence
}

// zone classifies a literal path found inside a script. Only words that
// are plainly paths (/…, ~…) are classified; anything else is normal.
func (a *shellAn) zone(w word) zoneInfo {
	if w.hole {
		return zoneInfo{}
	}
	return classifyPath(a.env, w.s)
}

func classifyPath(env *Env, p string) zoneInfo {
	if env == nil || env.Paths == nil || p == "" {
		return zoneInfo{}
	}
	key := zoneKey{env.Paths, p}
	if z, ok := zoneMemo.Load(key); ok {
		return z.(zoneInfo)
	}
	z := classifyPathUncached(env, p)
	if zoneMemoSize.Add(1) > maxZoneMemo {
		// Bounded: start again rather than grow without end.
		zoneMemo.Clear()
		zoneMemoSize.Store(0)
	}
	zoneMemo.Store(key, z)
	return z
}

// zoneMemo remembers classifications: they are pure functions of the
// configuration and the path, and a gate sees the same few paths again and
// again (~/Desktop, ~/Library/LaunchAgents …).
var (
	zoneMemo     sync.Map // zoneKey → zoneInfo
	zoneMemoSize atomic.Int64
)

const maxZoneMemo = 4096

type zoneKey struct {
	cfg  *sanitize.Config
	path string
}

func classifyPathUncached(env *Env, p string) zoneInfo {
	if p == "/" || p == "/*" {
		return zoneInfo{kind: zoneSystem, detail: "the whole disk", homeRoot: true}
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		// A relative path: only the "anywhere" persistence entries apply
		// (.git/hooks/pre-commit, lib/site-packages/x.pth).
		if z, ok := env.Paths.Persistence(p); ok {
			return zoneInfo{kind: zonePersistence, detail: z.Detail, persist: z.Detail}
		}
		return zoneInfo{}
	}
	home := env.Paths.Home
	abs, err := sanitize.ExpandHome(p, home)
	if err != nil || !strings.HasPrefix(abs, "/") {
		return zoneInfo{}
	}
	abs = path.Clean(abs)
	abs = otherHome(abs, home)
	z := env.Paths.Classify(abs)
	info := zoneInfo{detail: z.Detail}
	if pz, ok := env.Paths.Persistence(abs); ok {
		info.persist = pz.Detail
	}
	switch z.Kind {
	case sanitize.ZoneTemp:
		info.kind = zoneTemp
	case sanitize.ZoneSandbox:
		info.kind = zoneSandbox
	case sanitize.ZonePersistence:
		info.kind = zonePersistence
	case sanitize.ZoneSystem:
		info.kind = zoneSystem
	case sanitize.ZoneCredential:
		info.kind = zoneCredential
		base := strings.ToLower(path.Base(abs))
		info.pub = strings.HasSuffix(base, ".pub") || base == "known_hosts"
	}
	rel := strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(abs), "/*"), strings.ToLower(home))
	if strings.EqualFold(abs, home) || strings.EqualFold(strings.TrimSuffix(abs, "/*"), home) ||
		(strings.HasPrefix(strings.ToLower(abs), strings.ToLower(home)+"/") && strings.Count(strings.Trim(rel, "/"), "/") == 0) {
		info.homeRoot = true
		if info.detail == "" {
			info.detail = "your home folder"
		}
	}
	return info
}

// otherHome maps /Users/<someone>/… to the configured home, so a script
// written for another account's paths is judged the same way.
func otherHome(abs, home string) string {
	for _, base := range []string{"/Users/", "/home/"} {
		if !strings.HasPrefix(abs, base) || strings.HasPrefix(strings.ToLower(abs), strings.ToLower(home)+"/") || strings.EqualFold(abs, home) {
			continue
		}
		rest := abs[len(base):]
		user, tail, _ := strings.Cut(rest, "/")
		if user == "" || strings.EqualFold(user, "Shared") {
			continue
		}
		if tail == "" {
			return home
		}
		return home + "/" + tail
	}
	return abs
}

// writeTarget rates a file written by a command or redirection.
func (a *shellAn) writeTarget(w word, sp Span, verb string) {
	if w.hole {
		if w.splice || w.glob {
			a.add(level.Caution, "shell.write-computed", sp, "%s a path computed at run time", verb)
		}
		return
	}
	z := a.zone(w)
	switch {
	case z.persist != "":
		a.add(level.Destructive, "shell.persistence", sp, "%s %s: %s runs code automatically (persistence)", verb, display(w.s), z.persist)
		return
	}
	switch z.kind {
	case zonePersistence:
		a.add(level.Destructive, "shell.persistence", sp, "%s %s: %s runs code automatically (persistence)", verb, display(w.s), z.detail)
	case zoneCredential:
		a.add(level.Destructive, "shell.credential-write", sp, "%s %s, inside %s", verb, display(w.s), z.detail)
	case zoneSystem:
		a.add(level.Dangerous, "shell.system-write", sp, "%s %s, inside %s", verb, display(w.s), z.detail)
	default:
		a.add(level.Caution, "shell.write", sp, "%s %s", verb, display(w.s))
	}
}

// readSource notes a read from a credential store (public keys excepted).
func (a *shellAn) readSource(w word, sp Span) {
	z := a.zone(w)
	if z.kind != zoneCredential || z.pub {
		return
	}
	a.add(level.Dangerous, "shell.secret-read", sp, "reads %s, inside %s", display(w.s), z.detail)
	a.secretAt(sp)
}

func (a *shellAn) secretAt(sp Span) {
	if a.secret == nil {
		a.secret = &sp
	}
}

func (a *shellAn) uploadAt(sp Span) {
	if a.upload == nil {
		a.upload = &sp
	}
}
