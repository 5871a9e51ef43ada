package risk

import (
	"errors"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The DSL's launches (OPEN_FILE, OPEN_URL, OPEN_APP) are rated by what the
// OS would start for them, resolved through env.Launch, and by the file as
// it is (or as the plan will have written it): facts.LaunchEffect, the rule
// the executor applies again right before the launch.

// dslLaunchFile rates opening raw (as given) with app ("" for its default
// app).
func dslLaunchFile(v *Verdict, env *Env, raw, app string, written map[string]string) {
	if env == nil || env.Paths == nil {
		return // dslPath has blocked it
	}
	p, err := env.Paths.Path(raw, sanitize.OpOpen)
	if err != nil {
		return // dslPath has blocked it
	}
	short := env.Paths.ShortPath(p.Resolved)
	h, herr := resolveFile(env, p.Resolved, app)
	if what, ok := rate.SecretFile(p.Resolved); ok && !keynoteDeck(app, h, herr, p.Resolved) {
		// The app reads the file outside every sandbox and holds it: the
		// next script asks it for the text (text of front document).
		v.Found(effect.Of(effect.ReadSecret).On(p.Resolved), "secret.file", Span{}, "SECRET: %s is what its name says it is: %s; the app that opens it reads it outside the sandbox, and a script can ask the app for it", short, what)
	}
	f := facts.LookAt(p.Resolved)
	if !p.Exists {
		// Nothing to open yet: rated by its name, and by what it holds
		// when the executor checks it again right before the launch.
		f = facts.File{Name: p.Resolved, Mode: 0o644, Known: true}
	}
	if content, ok := written[raw]; ok {
		// What the plan writes there is what will be opened (the DSL's
		// writes never set an executable bit).
		head := content[:min(len(content), facts.HeadSize)]
		f = facts.File{Name: p.Resolved, Mode: 0o644, Known: true, Head: []byte(head)}
	}
	in := facts.InputFile
	if f.Folder {
		in = facts.InputFolder
	}
	if err := herr; err != nil {
		// The executor resolves the handler right before the launch, rates
		// it and the file as they are then, and refuses anything above the
		// level assessed here (launchFile), so only a viewer can open it:
		// rated as a viewer given this file. An app it names that is not
		// a viewer by its name stays unknown (a terminal, a runner).
		if app != "" {
			if kind, why := facts.Classify(facts.NamedHandler(app, false), in); kind != facts.HandlerViewer {
				e := effect.Of(effect.Unknown) // as before it is found: an app of that name may be anything
				if kind == facts.HandlerRunner {
					e, why = facts.LaunchEffect(short, kind, why, &f)
				}
				v.Found(e, "dsl.launch-unresolved", Span{}, "OPEN: %s is not found here (%v) and not known by its name to only display files: %s", app, err, why)
				return
			}
		}
		e, why := facts.LaunchEffect(short, facts.HandlerViewer, "even a viewer would be given it", &f)
		if e.Level() <= effect.Of(effect.Launch).Level() {
			why = "it opens only if the one found at launch only displays files"
		} else {
			why = "it opens only if the one found at launch only displays files; " + why
		}
		v.Found(e, "dsl.launch-unresolved", Span{}, "OPEN: which program would open %s is not known here (%v); %s", short, err, why)
		return
	}
	kind, why := facts.Classify(h, in)
	e, why := facts.LaunchEffect(short, kind, why, &f)
	v.Found(e, "dsl.launch-"+kind.String(), Span{}, "OPEN: %s opens in %s: %s", short, handlerName(h), why)
}

// keynoteDeck reports opening a *.key in Keynote (the app resolved, or, not
// found here, named): Keynote opens only presentations, so what it holds of
// one is slides, never a key. The executor resolves the app again right
// before the launch and refuses one rated above what was assessed.
func keynoteDeck(app string, h facts.Handler, err error, p string) bool {
	if !strings.HasSuffix(strings.ToLower(p), ".key") {
		return false
	}
	if err == nil {
		return facts.AllKeynote([]*facts.Handler{&h}, false)
	}
	named := facts.NamedHandler(app, false)
	return facts.AllKeynote([]*facts.Handler{&named}, true)
}

// dslLaunchURL rates opening u: a web page by the browser that would show
// it, a file: URL as its file, another scheme by its app
// (facts.SchemeHandlerEffect; the scheme's own effect is facts.SchemeEffect's).
func dslLaunchURL(v *Verdict, env *Env, u, scheme, path string) {
	scheme = strings.ToLower(scheme)
	if scheme == "file" {
		// The file's own path rules first (the sanitiser's refusals), as
		// for OPEN_FILE.
		dslPath(v, env, nil, "OPEN_FILE", "path", path, false)
		dslLaunchFile(v, env, path, "", nil)
		return
	}
	web := scheme == "http" || scheme == "https"
	if env == nil || env.Launch == nil {
		if web {
			// As for a file: the executor rates the handler found at
			// launch, and starts only a browser (launchURL).
			v.Found(effect.Of(effect.Launch), "dsl.launch-unresolved", Span{}, "OPEN URL: which program would open it is not known here; it opens only if the one found at launch is a browser")
		}
		return
	}
	h, err := env.Launch.URLHandler(u)
	if err != nil {
		if web {
			v.Found(effect.Of(effect.Launch), "dsl.launch-unresolved", Span{}, "OPEN URL: no app is known here to open %s: URLs (%v); it opens only if the one found at launch is a browser", scheme, err)
			return
		}
		v.Found(effect.Of(effect.Unknown), "dsl.launch-unresolved", Span{}, "OPEN URL: no app is known to open %s: URLs (%v)", scheme, err)
		return
	}
	if web {
		kind, why := facts.Classify(h, facts.InputWeb)
		e, why := facts.LaunchEffect(u, kind, why, nil)
		v.Found(e, "dsl.launch-"+kind.String(), Span{}, "OPEN URL: opens in %s: %s", handlerName(h), why)
		return
	}
	e, why := facts.SchemeHandlerEffect(h)
	v.Found(e, "dsl.launch-scheme", Span{}, "OPEN URL: %s: URLs open in %s: %s", scheme, handlerName(h), why)
}

// dslLaunchApp rates launching app with nothing to open.
func dslLaunchApp(v *Verdict, env *Env, app string) {
	if facts.IsTerminal(app) || facts.ScriptRunners[strings.ToLower(strings.TrimSuffix(app, ".app"))] {
		// As open -a Terminal in shell: the same fact, the same level.
		v.Found(effect.Of(effect.Launch, effect.Terminal), "dsl.launch-terminal", Span{}, "OPEN APP: %s is a terminal or script runner", app)
	}
	if env == nil || env.Launch == nil {
		return // the registry's class stands: no input of the agent's reaches it
	}
	h, err := env.Launch.FileHandler("", app)
	if err != nil {
		// Nothing of the agent's reaches it; the executor resolves it again
		// right before the launch and starts it only if it is still Caution.
		v.Found(effect.Of(effect.Launch), "dsl.launch-unresolved", Span{}, "OPEN APP: %s was not found here (%v); it starts only if it is found outside the home folder", app, err)
		return
	}
	if e, why := facts.AppEffect(h); e.Level() > commandEffect("OPEN_APP").Level() {
		v.Found(e, "dsl.launch-app", Span{}, "OPEN APP: %s", why)
	}
}

func resolveFile(env *Env, path, app string) (facts.Handler, error) {
	if env.Launch == nil {
		return facts.Handler{}, errNoResolver
	}
	return env.Launch.FileHandler(path, app)
}

var errNoResolver = errors.New("nothing resolves handlers here")

func handlerName(h facts.Handler) string {
	if h.Name != "" {
		return h.Name
	}
	if h.ID != "" {
		return h.ID
	}
	return "an unknown app"
}
