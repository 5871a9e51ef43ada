package rate

import (
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Env is what the analyzers know of the machine: the home folder, the
// sandbox roots and Airlock's own places, through the sanitiser's
// configuration, and Airlock itself as a process.
type Env struct {
	Paths *sanitize.Config
	Self  *Self // nil: nothing known of Airlock's processes (their names still are)
	// AppAllowed says whether the allowedApps setting lets an action drive
	// the application name, and if not why; nil allows every application.
	AppAllowed func(name string) (ok bool, why string)
	// Launch resolves the program the OS would start to open a file or a
	// URL (the platform's, through the bridge); nil resolves nothing, and
	// every launch of a file or URL is then rated as by an unknown handler.
	Launch facts.Resolver
	// Handed, when set, is told each item a script hands an application
	// to copy, move, attach or send (the app reads it outside every
	// sandbox), as the path the analyzer folds it to, or "" for one it
	// cannot name; what an app opens is a Launch effect's Target instead.
	// The executor checks them against the files it hides (handed.go);
	// ratings do not depend on it.
	Handed func(path string)

	run   *Bounds   // the assessment under way, set on a copy by Begin (bounds.go)
	langs Languages // the analyzers of nested scripts, set with run
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

// ZoneKind is the kind of place a path names, as the analyzers rate it.
type ZoneKind int

// The kinds of place, from the sanitiser's zones.
const (
	ZoneNormal ZoneKind = iota
	ZoneTemp
	ZoneSandbox
	ZonePersistence
	ZoneSystem
	ZoneCredential
)

// Zone is where a literal path found in a script points.
type Zone struct {
	Kind     ZoneKind
	Detail   string
	Persist  string // a persistence location, even where another zone wins
	HomeRoot bool   // the home folder itself, or one of its top-level folders
	Pub      bool   // a public key: not a secret though it sits in ~/.ssh
	// Hidden is the hidden entry of the home the path lies in ("~/.config"),
	// when that is not known harmless (sanitize.Config.Hidden): reading it
	// may read a secret. Never set in a sandbox root; a credential store
	// is hidden too.
	Hidden string
	// Secret is what the file holds when its name says it is a secret (a
	// .env, a private key: SecretFile), wherever it lies; reading it reads
	// that secret.
	Secret string
	// Deck says Secret comes only from the name *.key, in a sandbox root
	// (whatever zone wins for it), on a path that says nothing of keys
	// (KeyishPath): a Keynote deck as
	// likely as a key. A command that runs confined may read it unasked
	// (SecretReadConfined): the sandbox hides it unless it is a deck.
	Deck bool
}

// SecretRead says what reading the place may read, and whether that may
// be a secret: a credential store (public keys excepted), a hidden
// place of the home that is not known harmless, or a file whose name says
// it holds a secret (SecretFile). Everything an action
// prints goes back to the agent, so either is a secret read.
func (z Zone) SecretRead() (what string, ok bool) {
	switch {
	case z.Kind == ZoneCredential && !z.Pub:
		return z.Detail, true
	case z.Kind == ZoneCredential:
		return "", false
	case z.Hidden != "":
		return z.Hidden + ", hidden in your home: unknown files there may hold secrets", true
	case z.Secret != "":
		return "what its name says it is: " + z.Secret, true
	}
	return "", false
}

// SecretReadConfined is SecretRead for a read by a command that runs
// confined, where the sandbox tells a deck from a key by content (Deck):
// a likely deck is no secret read there. What an app reads outside the
// sandbox (a file a script opens in one) is SecretRead's.
func (z Zone) SecretReadConfined() (what string, ok bool) {
	if z.Deck {
		return "", false
	}
	return z.SecretRead()
}

// Critical reports a place where deleting is never a small thing.
func (z Zone) Critical() bool {
	return z.HomeRoot || z.Kind == ZoneSystem || z.Kind == ZoneCredential || z.Kind == ZonePersistence
}

// ClassifyPath classifies a literal path found inside a script. Only
// plain paths (/…, ~…) are classified, besides the persistence places that
// match anywhere (.git/hooks/pre-commit); anything else is ZoneNormal, and
// so is every path for an Env without paths.
func ClassifyPath(env *Env, p string) Zone {
	if env == nil || env.Paths == nil || p == "" {
		return Zone{}
	}
	key := zoneKey{env.Paths, p}
	if z, ok := zoneMemo.Load(key); ok {
		return z.(Zone)
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
	zoneMemo     sync.Map // zoneKey → Zone
	zoneMemoSize atomic.Int64
)

const maxZoneMemo = 4096

type zoneKey struct {
	cfg  *sanitize.Config
	path string
}

func classifyPathUncached(env *Env, p string) Zone {
	z := classifyPlace(env, p)
	if what, ok := SecretFile(p); ok && !z.Pub {
		z.Secret = what
		if z.Kind != ZoneCredential && z.Hidden == "" && DeckName(p) {
			z.Deck = inRoot(env, p) && !KeyishPath(belowHome(env, p))
		}
	}
	return z
}

// inRoot reports whether p (~/…, /…) lies in one of the sandbox roots,
// whichever zone wins for it, compared without regard to case as APFS
// compares names.
func inRoot(env *Env, p string) bool {
	abs, err := sanitize.ExpandHome(p, env.Paths.Home)
	if err != nil {
		return false
	}
	abs = strings.ToLower(OtherHome(path.Clean(abs), env.Paths.Home))
	for _, r := range env.Paths.Roots {
		r = strings.ToLower(path.Clean(r))
		if strings.HasPrefix(abs, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// belowHome returns p (~/…, /Users/someone/…) relative to the home
// folder, or whole when it lies elsewhere (a root outside the home).
func belowHome(env *Env, p string) string {
	home := env.Paths.Home
	abs, err := sanitize.ExpandHome(p, home)
	if err != nil {
		return p
	}
	abs = OtherHome(path.Clean(abs), home)
	if rel, ok := strings.CutPrefix(abs, strings.TrimSuffix(home, "/")+"/"); ok {
		return rel
	}
	return abs
}

// classifyPlace is ClassifyPath by where p lies, not by its name.
func classifyPlace(env *Env, p string) Zone {
	if p == "/" || p == "/*" {
		return Zone{Kind: ZoneSystem, Detail: "the whole disk", HomeRoot: true}
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		// A relative path: only the "anywhere" persistence entries apply
		// (.git/hooks/pre-commit, lib/site-packages/x.pth).
		if z, ok := env.Paths.Persistence(p); ok {
			return Zone{Kind: ZonePersistence, Detail: z.Detail, Persist: z.Detail}
		}
		return Zone{}
	}
	home := env.Paths.Home
	abs, err := sanitize.ExpandHome(p, home)
	if err != nil || !strings.HasPrefix(abs, "/") {
		return Zone{}
	}
	abs = path.Clean(abs)
	abs = OtherHome(abs, home)
	z := env.Paths.Classify(abs)
	info := Zone{Detail: z.Detail}
	if pz, ok := env.Paths.Persistence(abs); ok {
		info.Persist = pz.Detail
	}
	if hz, ok := env.Paths.Hidden(abs); ok && z.Kind != sanitize.ZoneOwn {
		info.Hidden = hz.Root
	}
	switch z.Kind {
	case sanitize.ZoneTemp:
		info.Kind = ZoneTemp
	case sanitize.ZoneSandbox:
		info.Kind, info.Hidden = ZoneSandbox, ""
	case sanitize.ZonePersistence:
		info.Kind = ZonePersistence
	case sanitize.ZoneSystem:
		info.Kind = ZoneSystem
	case sanitize.ZoneCredential:
		info.Kind = ZoneCredential
		base := strings.ToLower(path.Base(abs))
		info.Pub = strings.HasSuffix(base, ".pub") || base == "known_hosts"
	}
	rel := strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(abs), "/*"), strings.ToLower(home))
	if strings.EqualFold(abs, home) || strings.EqualFold(strings.TrimSuffix(abs, "/*"), home) ||
		(strings.HasPrefix(strings.ToLower(abs), strings.ToLower(home)+"/") && strings.Count(strings.Trim(rel, "/"), "/") == 0) {
		info.HomeRoot = true
		if info.Detail == "" {
			info.Detail = "your home folder"
		}
	}
	return info
}

// OtherHome maps /Users/<someone>/… to the configured home, so a script
// written for another account's paths is judged the same way.
func OtherHome(abs, home string) string {
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
