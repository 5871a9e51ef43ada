package execute

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/bridge"
)

// The kinds of script RunScript carries out.
const (
	KindAppleScript = "applescript"
	KindJXA         = "jxa"
	KindCommand     = "command" // an argv, run without a shell
)

// RunScript carries out one approved script: AppleScript or JXA through the
// Desktop with argv as the run handler's arguments, or a command given as
// argv, run without a shell from dir (absolute; "" is the home folder),
// contained: in a session of
// its own, and nothing it starts outlives it (bridge.Command.Contain).
// Every argument passes sanitize.Text again; one it would change (control
// characters) is refused rather than altered. The check WithCheck attached
// to ctx runs once its turn comes, before anything starts, and then the
// hold WithHold attached: the files it returns are run as it read them
// (g.Pinned).
//
// Each runs confined by e.Sandbox with the profile of g (the grant the gate
// decided); with no Sandbox, commands run unconfined and scripts are refused
// (only tests leave it out). One the person did not approve does not see
// the secret files of the sandbox roots (rootsecrets.go): they are added
// to g.Secrets, and when they cannot all be found it does not start (the
// error wraps ErrSecretsUnhidden).
func (e *Executor) RunScript(ctx context.Context, kind, src string, argv []string, dir string, g sandbox.Grant) (Result, error) {
	release, err := e.turn(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("%s: stopped before it started: %w", kind, err)
	}
	defer release()
	if err := context.Cause(ctx); err != nil {
		return Result{}, fmt.Errorf("%s: stopped before it started: %w", kind, err)
	}
	if err := Check(ctx); err != nil {
		return Result{}, fmt.Errorf("%s: not started: %w", kind, err)
	}
	pinned, err := Hold(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("%s: not started: %w", kind, err)
	}
	g.Pinned = pinned
	if len(argv) > sanitize.MaxListItems {
		return Result{}, fmt.Errorf("%s: %d arguments: at most %d", kind, len(argv), sanitize.MaxListItems)
	}
	for i, a := range argv {
		clean, err := sanitize.Text(a)
		if err != nil {
			return Result{}, fmt.Errorf("%s: argument %d: %w", kind, i+1, err)
		}
		if clean != a {
			return Result{}, fmt.Errorf("%s: argument %d holds control characters", kind, i+1)
		}
	}
	if dir != "" && (kind != KindCommand || !filepath.IsAbs(dir)) {
		return Result{}, fmt.Errorf("%s: a working folder is given only to a command, as an absolute path (got %q)", kind, dir)
	}
	d := e.Desktop
	if d == nil {
		d = Unavailable()
	}
	var hidden []hiddenStore
	if e.Sandbox != nil && !g.Approved {
		// Unasked, it does not see the secret files of the roots and the
		// home, nor the object stores whose history names one.
		if hidden, err = e.hideSecrets(&g); err != nil {
			return Result{}, fmt.Errorf("%s: not started: %w", kind, err)
		}
	}
	if e.Sandbox != nil && !g.Approved && (kind == KindAppleScript || kind == KindJXA) {
		hs := newHiddenSet(g.Secrets)
		p := hs.namedIn(src, e.Paths)
		for _, a := range argv {
			// The agent's argv, which the script's apps take as paths.
			if q := hs.named(a, e.Paths); p == "" && q != "" {
				p = q
			}
		}
		if p != "" {
			return Result{}, fmt.Errorf("%s: not started: %w: it names %s, which unasked actions do not see; the app it is handed to reads it outside every sandbox", kind, ErrShowsSecret, e.short(p))
		}
		if err := e.handedHidden(ctx, kind, src, hs); err != nil {
			return Result{}, fmt.Errorf("%s: not started: %w", kind, err)
		}
	}
	note := e.storesNote(hidden, dir)
	var confine Confine
	if e.Sandbox != nil {
		confine = func(c Command) (Command, func(), error) { return e.Sandbox.Confine(c, kind, g) }
	}
	unasked := e.Sandbox != nil && !g.Approved
	if unasked && confine != nil && (kind == KindAppleScript || kind == KindJXA) {
		// Right before the script starts, where the platform starts it:
		// every application it tells by name must resolve to an installed
		// one (scriptapps.go).
		inner := confine
		confine = func(c Command) (Command, func(), error) {
			if err := appsInstalled(ctx, d, kind, src); err != nil {
				return c, nil, fmt.Errorf("not started: %w", err)
			}
			return inner(c)
		}
	}
	var out string
	switch kind {
	case KindAppleScript, KindJXA:
		run := d.RunAppleScript
		if kind == KindJXA {
			run = d.RunJXA
		}
		rctx, stop := ctx, func() {}
		if unasked {
			rctx, stop = bounded(ctx, e.disks(nil))
		}
		out, err = run(rctx, src, argv, confine)
		stop()
		if ferr := stoppedAtFloor(rctx, false); ferr != nil && ctx.Err() == nil {
			err = ferr
		}
	case KindCommand:
		if src != "" {
			return Result{}, errors.New("command: give the program and its arguments as argv, not as source")
		}
		if len(argv) == 0 || argv[0] == "" {
			return Result{}, errors.New("command: no program given")
		}
		if dir == "" && e.Paths != nil {
			dir = e.Paths.Home
		}
		// Contained (a session of its own; what it leaves behind is killed)
		// whether or not it is confined too.
		c := Command{Argv: argv, Dir: dir, Contain: true, Output: outputOf(ctx)}
		var layers []sandbox.Layer
		if e.Sandbox != nil {
			// Unasked, it writes into a copy-on-write view of the roots
			// (layers), reviewed once it has ended.
			confined, ls, done, cerr := e.Sandbox.ConfineReviewed(c, kind, g)
			if cerr != nil {
				return Result{}, fmt.Errorf("%s: %w", kind, cerr)
			}
			defer done()
			c, layers = confined, ls
		}
		rctx, stop := ctx, func() {}
		if unasked {
			rctx, stop = bounded(ctx, e.disks(layers))
		}
		var stderr string
		out, stderr, err = RunArgv(rctx, c)
		stop()
		if ferr := stoppedAtFloor(rctx, len(layers) > 0); ferr != nil && ctx.Err() == nil {
			// What it wrote is dropped, not reviewed: reviewing it would
			// move it into the person's folders, or into the Trash, and
			// keep the disk full.
			if rerr := sandbox.RemoveLayers(layers); rerr != nil {
				ferr = errors.Join(ferr, fmt.Errorf("removing what it wrote: %w", rerr))
			}
			return Result{Output: note}, fmt.Errorf("%s: %w", kind, ferr)
		}
		if err == nil && strings.TrimSpace(out) == "" {
			out = bridge.LastLine(stderr)
		}
		if e.Sandbox != nil && ctx.Err() == nil {
			err = explainRefusal(err, stderr, e.roots())
		}
		if len(layers) > 0 {
			res, rerr := e.review(ctx, layers)
			res.Output = joinLines(joinLines(out, res.Output), note)
			if err == nil {
				err = rerr
			} else if rerr != nil {
				err = errors.Join(err, rerr)
			}
			if err != nil {
				return res, fmt.Errorf("%s: %w", kind, err)
			}
			return res, nil
		}
	default:
		return Result{}, fmt.Errorf("unknown kind of script %q", kind)
	}
	if err != nil {
		return Result{Output: note}, fmt.Errorf("%s: %w", kind, err)
	}
	return Result{Output: joinLines(out, note)}, nil
}

// hideSecrets adds to g, the grant of an action that runs unasked, what it
// must not see, and the Keynote decks of the roots named *.key that it may
// (g.Decks): the secret files of the roots (rootsecrets.go) and of the
// home outside them (homesecrets.go; on macOS Seatbelt refuses those by
// name, so only the home's folders too large to walk are added there, and a
// root inside such a folder refuses nothing), and the object stores of the
// repositories of both whose history names a secret file (gitstore.go),
// which it returns. On a Mac it also adds the places in the roots where
// code runs later that only a look finds (g.Plants, lookedplants.go).
func (e *Executor) hideSecrets(g *sandbox.Grant) ([]hiddenStore, error) {
	secrets, decks, repos, err := e.links.secretFilesAndDecks(e.roots())
	if err != nil {
		return nil, err
	}
	g.Secrets = append(slices.Clone(g.Secrets), secrets...)
	g.Decks = append(slices.Clone(g.Decks), decks...)
	if e.Paths != nil {
		home, more, err := e.home.secretFiles(e.Paths.Home, e.roots(), runtime.GOOS == "darwin")
		if err != nil {
			return nil, err
		}
		for _, p := range home {
			if homeHides(p, runtime.GOOS == "darwin") {
				g.Secrets = append(g.Secrets, p)
			}
		}
		repos.join(more)
	}
	hidden := e.stores.hide(repos)
	for _, h := range hidden {
		g.Secrets = append(g.Secrets, h.objects)
	}
	// Where code runs later that only a look finds, for the sandbox that
	// has no review to find it (lookedplants.go).
	if lookFirst {
		g.Plants = append(g.Plants, e.lookedPlants()...)
	}
	return hidden, nil
}

// homeHides reports whether the home's walk's find p is added to the
// hidden paths: always where the sandbox hides by path (Linux); where it
// also refuses secret files by their names (byName: Seatbelt), only what
// those names do not cover: folders hidden whole, and files found by
// their content (holdsPrivateKey) or links under other names.
func homeHides(p string, byName bool) bool {
	if !byName || isFolder(p) {
		return true
	}
	_, named := rate.SecretFile(p)
	return !named
}

// isFolder reports whether p is a folder, not following a link.
func isFolder(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// roots are the sandbox roots, as messages name them.
func (e *Executor) roots() []string {
	if e.Paths == nil {
		return nil
	}
	return e.Paths.Roots
}

// hiddenSet is what the sandbox hides from an unasked action, each path
// also folded (fold) once, for the many literals of a script.
type hiddenSet struct{ paths, folded []string }

func newHiddenSet(hidden []string) hiddenSet {
	s := hiddenSet{paths: hidden}
	for _, h := range hidden {
		s.folded = append(s.folded, fold(h))
	}
	return s
}

// namedIn returns the first path a script's string literals name
// (POSIX, "~/…", HFS "Macintosh HD:Users:…", a file: URL) that is one of
// hs, the files and folders the sandbox hides from an unasked action,
// or lies in one ("" for none). Such a script does not read the file
// itself, but the app it hands the path to (TextEdit's open, Mail's
// attachment, the Finder's duplicate) does, outside every sandbox, and
// answers the script with its text: the files the analyzer cannot know
// (a private key known by its first bytes, a home's credential store
// copied into the roots) are checked here (a red team's find,
// TestRed14ScriptHandsHiddenSecretToApp).
//
// A literal that names one by its end only (its name, "Downloads/key.pem",
// HFS "Downloads:key.pem") names it too: a script joins it to its folder
// (path to home folder & …, file "key.pem" of folder "Downloads" of home,
// argv[0] + '/' + argv[1]). Paths are compared in any case and
// normalisation, as APFS opens them, and where their links lead. Every
// stretch of src between two quotes of one kind is taken for a literal,
// whichever quotes they are: an apostrophe in a comment (-- it's,
// // it's) would otherwise pair with the quote that opens the path and
// hide it (TestRed15bScriptNamesHiddenKeyInOtherForms).
func (s hiddenSet) namedIn(src string, paths *sanitize.Config) string {
	if len(s.paths) == 0 {
		return ""
	}
	for _, q := range []string{`"`, "'", "`"} {
		parts := strings.Split(src, q)
		for _, part := range parts[1:] { // what lies before the first quote is no literal
			if p := s.named(part, paths); p != "" {
				return p
			}
		}
	}
	return ""
}

// named returns the one of hs that the text s (a script's literal, or
// one of the agent's argv) names, by its path or by its end
// (namedIn); "" for none.
func (hs hiddenSet) named(s string, paths *sanitize.Config) string {
	s = unescape(s)
	if i := strings.LastIndexByte(s, '}'); i >= 0 && strings.Contains(s[:i], "${") {
		// A template literal's text after what it puts in: `${home}/Downloads/key.pem`.
		s = s[i+1:]
	}
	if p, raw := literalPath(s, paths); p != "" {
		if h := hs.at(p); h != "" {
			return h
		}
		if real, err := filepath.EvalSymlinks(raw); err == nil {
			if h := hs.at(real); h != "" {
				return h
			}
		}
	}
	if strings.ContainsAny(s, "\n\r") {
		return ""
	}
	end := fold(strings.Trim(strings.ReplaceAll(strings.TrimPrefix(s, "./"), ":", "/"), "/"))
	if !strings.ContainsAny(end, "./") || end == "." || end == ".." {
		// A bare word ("objects", "config") is a script's own text more
		// often than a file's name: a name with an extension, or a path.
		return ""
	}
	for i, h := range hs.folded {
		if strings.HasSuffix(h, "/"+end) {
			return hs.paths[i]
		}
	}
	return ""
}

// at returns the one of hs that p is or lies in, compared as APFS
// compares names (fold); "" for none.
func (hs hiddenSet) at(p string) string {
	lp := fold(p)
	for i, h := range hs.folded {
		if lp == h || inside(lp, h) {
			return hs.paths[i]
		}
	}
	return ""
}

// unescape returns s, a string literal's text, with its escapes read as
// JavaScript reads them (\xHH, \uHHHH, \u{H…}; any other escaped
// character stands for itself, as AppleScript's \" and \\ do): a name
// spelled '\x70rod\u002epem' is prod.pem.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		hex := ""
		switch {
		case s[i] == 'x' && i+2 < len(s):
			hex = s[i+1 : i+3]
		case s[i] == 'u' && i+1 < len(s) && s[i+1] == '{':
			if j := strings.IndexByte(s[i:], '}'); j > 2 {
				hex = s[i+2 : i+j]
			}
		case s[i] == 'u' && i+4 < len(s):
			hex = s[i+1 : i+5]
		}
		r, err := strconv.ParseUint(hex, 16, 32)
		if hex == "" || err != nil || !utf8.ValidRune(rune(r)) {
			b.WriteByte(s[i]) // \n, \t … and a broken escape: the letter
			continue
		}
		b.WriteRune(rune(r))
		switch {
		case s[i] == 'x':
			i += 2
		case s[i+1] == '{':
			i += len(hex) + 2
		default:
			i += 4
		}
	}
	return b.String()
}

// literalPath is the absolute path the text s names, if it names one,
// cleaned, and as written (raw: a ".." after a link climbs out of where
// the link leads, as the kernel reads it).
func literalPath(s string, paths *sanitize.Config) (p, raw string) {
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		rest = strings.TrimPrefix(rest, "localhost")
		u, err := url.PathUnescape(rest)
		if err != nil {
			return "", ""
		}
		s = u
	}
	switch {
	case strings.HasPrefix(s, "~/") && paths != nil:
		s = paths.Home + "/" + s[2:]
	case paths != nil && strings.HasPrefix(s, "~"+filepath.Base(paths.Home)+"/"):
		// ~ann/…, which stringByExpandingTildeInPath expands as ~/… for ann.
		s = paths.Home + s[len(filepath.Base(paths.Home))+1:]
	case !strings.Contains(s, "/") && strings.Contains(s, ":"):
		s = rate.HFSToPOSIX(s)
	}
	if !filepath.IsAbs(s) {
		return "", ""
	}
	return filepath.Clean(s), s
}

// fold is p as a default APFS volume compares names: in any case and any
// Unicode normalisation (schlu\u0308ssel.pem opens schl\u00fcssel.pem).
func fold(p string) string {
	return strings.ToLower(norm.NFC.String(p))
}

// hiddenAt returns the one of hidden that p is or lies in, compared as
// APFS and HFS+ compare names (fold); "" for none.
func hiddenAt(p string, hidden []string) string { return newHiddenSet(hidden).at(p) }
