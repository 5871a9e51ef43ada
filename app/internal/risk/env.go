package risk

import (
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Env is what the analyzers know of the machine: the home folder, the
// sandbox roots and Airlock's own places, through the sanitiser's
// configuration, and Airlock itself as a process.
type Env struct {
	Paths *sanitize.Config
	Self  *Self // nil: nothing known of Airlock's processes (their names still are)

	run *bounds // the assessment under way, set on a copy by begin (bounds.go)
}

// Self is Airlock as the actions it runs could reach it: what a kill,
// pkill or killall would have to name to stop or freeze the gate.
type Self struct {
	Names        []string          // process names besides "airlock": the program's file name
	CommandLines []string          // the gate's command lines, as pkill -f matches them
	PIDs         []int             // the gate's process ids
	Vars         map[string]string // environment variables that name Airlock's folders: AIRLOCK_DATA_DIR → the data folder
}

// WithSelf returns the Env for paths with Airlock itself made known to the
// analyzers, for an action that any of them rates to be blocked when it
// would touch Airlock's own files or signal its gate: the places
// datadir.Places lists (read from the environment here, once; the
// analyzers never read it), the program's name and command line, and the
// gate's pid — gatePID when the caller is the gate, else the pid recorded
// in the data folder's lock file, if one is.
func WithSelf(paths *sanitize.Config, gatePID int) (*Env, error) {
	places, err := datadir.Places()
	if err != nil {
		return nil, err
	}
	own := make([]sanitize.OwnPlace, len(places))
	for i, p := range places {
		own[i] = sanitize.OwnPlace{Path: p.Path, What: p.What}
	}
	if gatePID > 0 {
		// Linux: /proc/PID/mem, /proc/PID/fd … reach into the gate itself.
		own = append(own, sanitize.OwnPlace{Path: "/proc/" + strconv.Itoa(gatePID), What: "the gate's process"})
	}
	cfg, err := paths.WithOwn(own)
	if err != nil {
		return nil, err
	}
	self := &Self{Vars: map[string]string{}}
	exe, _ := os.Executable()
	if exe != "" {
		self.Names = append(self.Names, path.Base(exe))
		self.CommandLines = append(self.CommandLines, exe+" serve --prompter=terminal", exe)
	}
	if gatePID > 0 {
		self.CommandLines = append(self.CommandLines, strings.Join(os.Args, " "))
	}
	if d, err := datadir.Data(); err == nil {
		self.Vars["AIRLOCK_DATA_DIR"] = d
		if gatePID == 0 {
			if b, err := os.ReadFile(path.Join(d, datadir.LockFile)); err == nil {
				gatePID, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
		}
	}
	if gatePID > 0 {
		self.PIDs = append(self.PIDs, gatePID)
	}
	return &Env{Paths: cfg, Self: self}, nil
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
