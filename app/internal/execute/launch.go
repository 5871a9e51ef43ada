package execute

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/bridge"
)

// ErrLaunchChanged is wrapped by the error of a launch refused at the last
// moment: the handler the OS would now start, or the file, no longer fits
// the level the action was assessed (and perhaps approved) at.
var ErrLaunchChanged = fmt.Errorf("refused: what it would open or start changed since it was assessed")

// HandlerFacts describes a bridge's resolved handler for the analyzers and
// for the check at launch, on this platform.
// On macOS a bundle outside the folders applications are installed in
// (/Volumes/…, /Users/Shared, a folder of the roots) is taken for one an
// action could have made, as one in the home is (outsideInstalled).
func HandlerFacts(h bridge.Handler) facts.Handler {
	return facts.Handler{Platform: platform(), ID: h.ID, Name: h.Name, Path: h.Path, Program: h.Program,
		Terminal: h.Terminal, UserOwned: h.UserOwned || outsideInstalled(runtime.GOOS, h.Path)}
}

// outsideInstalled reports a macOS app bundle p outside /Applications,
// /System/Applications and the system's CoreServices (facts.InstalledApp).
func outsideInstalled(goos, p string) bool {
	return goos == "darwin" && p != "" && !facts.InstalledApp(strings.ToLower(p))
}

func platform() string {
	if runtime.GOOS == "darwin" {
		return facts.Darwin
	}
	return facts.Linux
}

// Handlers adapts d's resolution to facts.Resolver, for the analyzers: they
// rate a launch by the handler the executor would start.
func Handlers(d Desktop) facts.Resolver { return resolver{d} }

type resolver struct{ d Desktop }

func (r resolver) FileHandler(path, app string) (facts.Handler, error) {
	h, err := r.d.FileHandler(path, app)
	return HandlerFacts(h), err
}

// Platform is the platform whose applications r resolves (facts.Darwin,
// facts.Linux): a macOS name resolved on Linux says nothing.
func (r resolver) Platform() string { return platform() }

func (r resolver) URLHandler(u string) (facts.Handler, error) {
	h, err := r.d.URLHandler(u)
	return HandlerFacts(h), err
}

// launchFile opens path (app "" means its default app) with the handler
// resolved now, after rating that handler and the file as they are now with
// facts.LaunchEffect: a level above assessed refuses it. The handler that was
// rated is the one started (Desktop.Launch), so no later choice of the OS
// can put the file in another program.
func (e *Executor) launchFile(ctx context.Context, d Desktop, path, app string, assessed level.Level) (string, error) {
	if err := e.hiddenFromLaunch(ctx, path); err != nil {
		return "", err
	}
	h, err := d.FileHandler(path, app)
	if err != nil {
		return "", err
	}
	f := facts.LookAt(path)
	in := facts.InputFile
	if f.Folder {
		in = facts.InputFolder
	}
	kind, why := facts.Classify(HandlerFacts(h), in)
	fx, why := facts.LaunchEffect(e.short(path), kind, why, &f)
	if lvl := fx.Level(); lvl > assessed {
		return "", fmt.Errorf("open %s: %w: it is now %s (%s), above the %s it was assessed at", e.short(path), ErrLaunchChanged, lvl, why, assessed)
	}
	l, err := d.Launch(ctx, h, path)
	if err != nil {
		return "", err
	}
	// What lies at path is what was checked while the program runs
	// (shown.go): by the path it was given, and where that leads (a file:
	// URL's path may go through a link).
	e.shown.add(path, f.Folder, l.PID)
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		e.shown.add(real, f.Folder, l.PID)
	}
	return fmt.Sprintf("opened %s with %s: %s", e.short(path), nameOf(h), l), nil
}

// launchURL opens u with the handler of its scheme, checked as launchFile
// checks a file; a file: URL is its file's.
func (e *Executor) launchURL(ctx context.Context, d Desktop, u string, assessed level.Level) (string, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", u, err)
	}
	if strings.EqualFold(pu.Scheme, "file") {
		return e.launchFile(ctx, d, pu.Path, "", assessed)
	}
	h, err := d.URLHandler(u)
	if err != nil {
		return "", err
	}
	if web := strings.EqualFold(pu.Scheme, "http") || strings.EqualFold(pu.Scheme, "https"); web {
		kind, why := facts.Classify(HandlerFacts(h), facts.InputWeb)
		if fx, why := facts.LaunchEffect(u, kind, why, nil); fx.Level() > assessed {
			lvl := fx.Level()
			return "", fmt.Errorf("open %s: %w: it is now %s (%s), above the %s it was assessed at", u, ErrLaunchChanged, lvl, why, assessed)
		}
	} else if fx, why := facts.SchemeHandlerEffect(HandlerFacts(h)); fx.Level() > assessed {
		lvl := fx.Level()
		return "", fmt.Errorf("open %s: %w: it is now %s (%s), above the %s it was assessed at", u, ErrLaunchChanged, lvl, why, assessed)
	}
	l, err := d.Launch(ctx, h, u)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("opened %s with %s: %s", u, nameOf(h), l), nil
}

// launchApp starts app with nothing to open, checked with facts.AppEffect.
func (e *Executor) launchApp(ctx context.Context, d Desktop, app string, assessed level.Level) (string, error) {
	h, err := d.FileHandler("", app)
	if err != nil {
		return "", err
	}
	if fx, why := facts.AppEffect(HandlerFacts(h)); fx.Level() > assessed {
		lvl := fx.Level()
		return "", fmt.Errorf("open %s: %w: it is now %s (%s), above the %s it was assessed at", app, ErrLaunchChanged, lvl, why, assessed)
	}
	l, err := d.Launch(ctx, h, "")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("opened %s: %s", nameOf(h), l), nil
}

func nameOf(h bridge.Handler) string {
	if h.Name != "" {
		return h.Name
	}
	return h.ID
}

// hiddenFromLaunch fails, wrapping ErrShowsSecret, for a launch the person
// did not approve of a file the sandbox hides from unasked actions
// (rootsecrets.go: a private key known by its first bytes, a service
// account's key under its project's name, a home's credential store
// copied into the roots), or of one in a folder it hides: the app reads
// it outside every sandbox, and a later script asks the app for its text
// (text of document 1), as opening a file whose name says secret is
// rated (a red team's find, TestRed14OpenHiddenSecretInViewer).
func (e *Executor) hiddenFromLaunch(ctx context.Context, path string) error {
	if approvedIn(ctx) || hiddenAt(path, e.Paths.Roots) == "" {
		return nil // in no root, compared as APFS compares names (~/documents is ~/Documents there)
	}
	all, _, err := e.links.secretFiles(e.Paths.Roots)
	if err != nil {
		return fmt.Errorf("open %s: %w: %w", e.short(path), ErrShowsSecret, err)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	// In any case: APFS opens server.KEY as server.key (hiddenAt).
	if hiddenAt(path, all) != "" || hiddenAt(real, all) != "" {
		return fmt.Errorf("open %s: %w: the app would read outside the sandbox a file unasked actions do not see", e.short(path), ErrShowsSecret)
	}
	return nil
}
