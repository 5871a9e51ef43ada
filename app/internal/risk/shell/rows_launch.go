package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Launchers: open (macOS), xdg-open, gio open and launch, kioclient exec,
// exo-open and gtk-launch (Linux) make the system start a program Airlock
// does not confine and hand it a file or URL. Nothing checks a script's
// launch again when it happens, so a file is rated by facts.ScriptOpen:
// given to a viewer the script names by a path whose type does not run,
// Caution; to a viewer otherwise, Dangerous; to a runner, an app Airlock
// does not know or whichever one the system chooses, Destructive. A web
// page is Caution, another URL what its scheme says, a folder and an
// installed application are what they were.

// launch is one launch a launcher makes: the handlers it names (none: the
// one the system chooses; open -a A -a B names two, and either may be the
// one that opens), and on which platform.
type launch struct {
	c        *call
	handlers []*facts.Handler
	platform string
}

// namedApp is the handler a word names: computed at run time, it is one
// Airlock cannot know.
func namedApp(w word, byID bool) *facts.Handler {
	if w.hole {
		return &facts.Handler{Platform: facts.Darwin, Name: "an application named at run time"}
	}
	h := facts.NamedHandler(w.s, byID)
	return &h
}

// file rates handing the file or URL w to the handlers.
func (l launch) file(w word) {
	c := l.c
	s := w.s
	if strings.Trim(s, rate.HoleMark) == "" || w.guess && facts.OpenPath(s) == facts.TargetFolder {
		// A word computed at run time: a file or a URL. A substitution
		// that mentions the home ("$(ls ~/Downloads/*.command | head -1)")
		// is only guessed to be the home folder: it may print any path.
		if len(l.handlers) == 0 {
			c.add(effect.Of(effect.Launch, effect.Computed).On(s), "open-computed", "%s %s: opens something computed at run time", c.name, rate.Display(s))
			return
		}
		l.path(w, s)
		return
	}
	if t, p, ok := facts.OpenURL(s); ok {
		if t == facts.TargetFile {
			l.path(w, p)
			return
		}
		l.url(w, t)
		return
	}
	switch facts.OpenPath(strings.ReplaceAll(s, rate.HoleMark, "…")) {
	case facts.TargetFolder:
		if !w.hole && c.a.bundleFolder(w) {
			break // a folder laid out as a bundle: rated as the file it may be
		}
		return
	case facts.TargetFile:
		if len(l.handlers) == 0 && c.a.existingFolder(w) {
			return // a folder the Finder shows (existingFolder)
		}
	case facts.TargetApp:
		if len(l.handlers) == 0 {
			// Launching an installed application, unless this script put it there.
			if content, ok := c.a.fileContent(s); ok && !w.hole && (content == fileDownloaded || content == fileComputed) {
				c.add(effect.Of(effect.RunComputed).On(s), "download-exec", "%s %s: launches something this script downloaded", c.name, rate.Display(s))
			}
			return
		}
	}
	l.path(w, s)
}

// url rates opening a URL that is not a file's: by its scheme, and a
// runner given it runs it.
func (l launch) url(w word, t facts.Target) {
	c := l.c
	c.a.egress("url", c.span, "%s %s: the address, and what is in it, goes to a server or another app", c.name, rate.Display(w.s))
	if c.a.readInto([]word{w}) {
		c.add(effect.Of(effect.Upload), "request-exfil", "%s %s: what a command read (a file, a listing, the clipboard) goes into the address", c.name, rate.Display(w.s))
	}
	for _, h := range l.handlers {
		if k, why := facts.Classify(*h, facts.InputWeb); k == facts.HandlerRunner {
			fx, why := facts.LaunchEffect(rate.Display(w.s), k, why, nil)
			c.add(fx.On(w.s), "open-runner", "%s %s: %s", c.name, rate.Display(w.s), why)
			return
		}
	}
	scheme, _ := facts.URLScheme(strings.ToLower(w.s))
	fx, why := facts.SchemeEffect(scheme)
	if t == facts.TargetWeb || fx.Level() <= level.Caution {
		c.add(effect.Of(effect.Launch), "open-url", "%s: %s", c.name, why)
		return
	}
	c.add(fx.On(w.s), "open-url", "%s %s: %s", c.name, rate.Display(w.s), why)
}

// path rates opening the file at p (w's text, or a file: URL's path) with
// each handler.
func (l launch) path(w word, p string) {
	c := l.c
	whole := !w.hole && !strings.Contains(p, rate.HoleMark)
	shown := rate.Display(p)
	if content, ok := c.a.fileContent(p); ok && whole && (content == fileDownloaded || content == fileComputed) {
		c.add(effect.Of(effect.RunComputed).On(p), "download-exec", "%s %s: launches something this script downloaded", c.name, shown)
	}
	hs := l.handlers
	if len(hs) == 0 {
		hs = []*facts.Handler{nil}
	}
	for _, named := range hs {
		h, rule := facts.DefaultHandler(l.platform), "open-default"
		if named != nil {
			h = *named
		}
		fx, k, why := facts.ScriptOpen{Handler: h, Path: strings.ReplaceAll(p, rate.HoleMark, "…"), Whole: whole, Shown: "it"}.Effect()
		if named != nil {
			rule = "open-" + k.String()
		}
		c.add(fx.On(p), rule, "%s %s: %s", c.name, shown, why)
	}
}

// openCommand rates open (macOS): each operand goes to the app -a or -b
// names, to TextEdit with -e, to the default text editor with -t, to the
// app Launch Services chooses otherwise; -R only shows it in the Finder;
// what follows --args is the app's. A terminal or script runner named
// with -a runs the command --args gives it.
func openCommand(c *call) {
	l := launch{c: c, platform: facts.Darwin}
	reveal, term := false, false
	var operands []word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		switch {
		case s == "--args":
			i = len(c.args)
		case strings.HasPrefix(s, "--") && !w.hole:
			name, _, has := strings.Cut(s, "=")
			switch name {
			case "--reveal":
				reveal = true
			case "--env", "--stdin", "--stdout", "--stderr", "--sdk", "--arch":
				if !has {
					i++
				}
			case "--url":
				if v, ok := strings.CutPrefix(s, "--url="); ok {
					operands = append(operands, word{s: v, hole: w.hole, span: w.span})
				} else if i+1 < len(c.args) {
					i++
					operands = append(operands, c.args[i])
				}
			}
		case len(s) > 1 && s[0] == '-' && !w.hole:
		cluster:
			for k := 1; k < len(s); k++ {
				switch s[k] {
				case 'R':
					reveal = true
				case 'e', 'f':
					h := facts.NamedHandler("TextEdit", false)
					l.handlers = append(l.handlers, &h)
				case 't':
					l.handlers = append(l.handlers, &facts.Handler{Platform: facts.Darwin, Name: "the text editor the system chooses"})
				}
				if !strings.ContainsRune("abusHr", rune(s[k])) {
					continue
				}
				v := word{s: s[k+1:], span: w.span}
				if v.s == "" && i+1 < len(c.args) {
					i++
					v = c.args[i]
				}
				switch s[k] {
				case 'a', 'b':
					l.handlers = append(l.handlers, namedApp(v, s[k] == 'b'))
					if runsCommands(v) {
						term = true
						c.add(effect.Of(effect.Launch, effect.Terminal).On(v.s), "open-terminal", "open -%c %s: opens a terminal or script runner", s[k], rate.Display(v.s))
						c.terminalArgs()
					}
				case 'u':
					operands = append(operands, v)
				}
				break cluster
			}
		default:
			operands = append(operands, w)
		}
	}
	if !reveal {
		for _, w := range operands {
			l.file(w)
			l.readsFile(w)
		}
	}
	switch {
	case term:
	case reveal && len(l.handlers) == 0:
		// open -R: the Finder shows where the file is, and opens nothing
		// (REVEAL_IN_FINDER in the DSL).
		c.add(effect.Of(effect.Read), "open-reveal", "open -R: shows the file in the Finder")
	default:
		c.add(effect.Of(effect.Launch), "open", "open: opens a file, folder or application")
	}
	if len(operands) == 0 && !reveal && !term {
		// open -a App with nothing to open starts the app, outside every
		// sandbox: one named by a path outside the folders applications
		// are installed in is the person's own or an action's, as telling
		// it is in AppleScript (facts.AppEffect).
		for _, h := range l.handlers {
			if h.UserOwned {
				fx, why := facts.AppEffect(*h)
				c.add(fx.On(h.Path), "open-app", "open -a %s: %s", rate.Display(h.Path), why)
			} else if h.Path == "" {
				c.appByName(h)
			}
		}
	}
}

// readsFile notes that the app given w reads it, outside every sandbox,
// and keeps it for a later script to ask for (text of front document): a
// secret opened is a secret read. Keynote, given a *.key by its bundle id,
// holds a deck's slides, never a key. A URL of the web is no file.
func (l *launch) readsFile(w word) {
	s := strings.TrimPrefix(w.s, "file://")
	if strings.Contains(s, "://") {
		return
	}
	if strings.HasSuffix(strings.ToLower(s), ".key") && facts.AllKeynote(l.handlers, false) {
		return
	}
	w.s = s
	l.c.a.outside = true
	l.c.a.read(w, l.c.span)
	l.c.a.outside = false
}

// qlmanageCommand rates qlmanage: Quick Look's previews (-p) and
// thumbnails (-t, written where -o says) are made by the system's Quick
// Look services, outside every sandbox. Quick Look picks what draws a
// file by its name's type, so a *.key goes to Keynote's, which draws a
// deck and nothing of a key's text, as open -a Keynote does. But -c
// (the content type) and -g (the generator) choose another: -c
// public.plain-text draws a key's text into a picture. With either, the
// files are read as an app given them reads them, a *.key as the key it
// may be.
func qlmanageCommand(c *call) {
	c.add(effect.Of(effect.Launch), "qlmanage", "%s: previews files", c.name)
	chosen := hasShort(c.args, 'c') || hasShort(c.args, 'g')
	for _, w := range c.args {
		chosen = chosen || w.hole && strings.HasPrefix(w.s, rate.HoleMark) // an option computed at run time
	}
	if !chosen {
		for _, w := range c.operands() {
			c.a.read(w, c.span)
		}
		return
	}
	c.a.outside = true
	for _, w := range c.operands() {
		c.a.read(w, c.span)
	}
	c.a.outside = false
}

// runsCommands reports an app named with open -a that runs the command
// --args gives it: a terminal or script runner, or one computed at run
// time.
func runsCommands(w word) bool {
	if w.hole {
		return true
	}
	app := strings.ToLower(w.s)
	for _, t := range facts.CommandRunners {
		if strings.Contains(app, t) {
			return true
		}
	}
	return facts.IsTerminal(w.s)
}

// xdgOpen rates xdg-open, exo-open, kde-open, gnome-open, gvfs-open,
// wslview, and the launchers of gio and kioclient given their
// subcommand's operands: the desktop's default handler of each.
func xdgOpen(c *call) {
	l := launch{c: c, platform: facts.Linux}
	args := c.args
	if c.name == "exo-open" {
		for i := 0; i < len(args); i++ {
			switch s := args[i].s; {
			case s == "--launch" && i+1 < len(args):
				c.add(effect.Of(effect.Launch, effect.Computed), "exo-launch", "exo-open --launch %s: starts the preferred application of that kind", rate.Display(args[i+1].s))
				if strings.EqualFold(args[i+1].s, "TerminalEmulator") || args[i+1].hole {
					l.handlers = append(l.handlers, &facts.Handler{Platform: facts.Linux, ID: "x-terminal-emulator", Name: "the preferred terminal"})
				} else {
					l.handlers = append(l.handlers, &facts.Handler{Platform: facts.Linux, Name: "the preferred " + rate.Display(args[i+1].s)})
				}
				i++
			case s == "--working-directory" && i+1 < len(args):
				i++
			case strings.HasPrefix(s, "-") && !args[i].hole:
			default:
				l.launchOperand(args[i])
			}
		}
		c.add(effect.Of(effect.Launch), "open", "%s: opens a file, folder or web page", c.name)
		return
	}
	for _, w := range operands(args) {
		l.launchOperand(w)
	}
	c.add(effect.Of(effect.Launch), "open", "%s: opens a file, folder or web page", c.name)
}

// launchOperand rates one operand of a Linux launcher: a folder goes to
// the file manager the desktop chooses, which is not known (Dangerous, as
// an unknown command was); the rest as on macOS.
func (l launch) launchOperand(w word) {
	if !w.hole {
		if _, _, ok := facts.OpenURL(w.s); !ok && facts.OpenPath(w.s) == facts.TargetFolder {
			l.c.add(effect.Of(effect.Launch, effect.Computed).On(w.s), "open-folder", "%s %s: the folder goes to the file manager the desktop chooses", l.c.name, rate.Display(w.s))
			return
		}
	}
	l.file(w)
}

// gioCommand rates gio: open hands its operands to their default
// handlers, launch a desktop file's program the files after it; the other
// subcommands (copy, remove, trash, mount …) are not modelled.
func gioCommand(c *call) {
	ops := operands(c.args)
	switch sub(c.args) {
	case "open":
		xdgOpen(&call{a: c.a, name: "gio open", args: ops[1:], span: c.span, pc: c.pc})
	case "launch":
		if len(ops) < 2 {
			c.add(effect.Of(effect.RunUnseen), "gio-launch", "gio launch: starts a desktop file's program")
			return
		}
		l := launch{c: &call{a: c.a, name: "gio launch", args: c.args, span: c.span, pc: c.pc}, platform: facts.Linux, handlers: []*facts.Handler{desktopHandler(ops[1])}}
		c.add(effect.Of(effect.RunUnseen).On(ops[1].s), "gio-launch", "gio launch %s: starts the program of a desktop file", rate.Display(ops[1].s))
		for _, w := range ops[2:] {
			l.file(w)
		}
	default:
		c.add(effect.Of(effect.Unknown), "gio", "gio %s: a subcommand Airlock does not model", rate.Display(sub(c.args)))
	}
}

// kioCommand rates kioclient: exec opens its URL with its default handler
// (or runs it, for a desktop file); the other subcommands are not
// modelled.
func kioCommand(c *call) {
	ops := operands(c.args)
	switch sub(c.args) {
	case "exec":
		if len(ops) > 1 {
			xdgOpen(&call{a: c.a, name: c.name + " exec", args: ops[1:2], span: c.span, pc: c.pc})
			return
		}
		c.add(effect.Of(effect.Launch, effect.Computed), "kioclient-exec", "%s exec: runs or opens what it is given", c.name)
	default:
		c.add(effect.Of(effect.Unknown), "kioclient", "%s %s: a subcommand Airlock does not model", c.name, rate.Display(sub(c.args)))
	}
}

// gtkLaunch rates gtk-launch APP FILE…: the desktop file of that id starts
// its program with the files.
func gtkLaunch(c *call) {
	ops := operands(c.args)
	if len(ops) == 0 {
		return
	}
	c.add(effect.Of(effect.RunUnseen).On(ops[0].s), "gtk-launch", "gtk-launch %s: starts the program of a desktop file", rate.Display(ops[0].s))
	l := launch{c: c, platform: facts.Linux, handlers: []*facts.Handler{desktopHandler(ops[0])}}
	for _, w := range ops[1:] {
		l.file(w)
	}
}

// desktopHandler is the handler a desktop file's id or path names. Its
// program is not known from the script, so a viewer's desktop file is no
// viewer here; a terminal's or an interpreter's id is a runner.
func desktopHandler(w word) *facts.Handler {
	if w.hole {
		return &facts.Handler{Platform: facts.Linux, Name: "a desktop file named at run time"}
	}
	id := strings.TrimSuffix(path.Base(w.s), ".desktop")
	return &facts.Handler{Platform: facts.Linux, ID: id, Name: rate.Display(w.s), Path: w.s,
		UserOwned: strings.HasPrefix(w.s, "~") || strings.HasPrefix(w.s, "/home/") || strings.HasPrefix(w.s, "/Users/")}
}

// existingFolder reports a literal path with no extension that names a
// folder on the disk now, in an input that is this one command and
// nothing else: open gives it to the Finder, which shows it (a bundle, the
// only folder another app opens, has an extension: Tool.app, x.workflow,
// deck.key, or the Finder's bundle bit and a bundle's layout, which
// rate.PlainFolder refuses). With any other command in the input (a list, a pipeline, a
// loop, a substitution, a redirection), that command may have put a file
// there first, which open would run in a terminal were it executable: it
// is rated as a file.
func (a *shellAn) existingFolder(w word) bool {
	if a.depth != 0 || w.hole || w.glob || path.Ext(strings.TrimRight(w.s, "/")) != "" ||
		strings.ContainsAny(strings.TrimSpace(a.src), ";&|\n\r`$()<>{}") {
		return false
	}
	if a.presence(w) != rate.PresentFolder {
		return false
	}
	p := w.s
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		if a.cwd == "" {
			return false // relative to a folder the analysis did not follow
		}
		p = joinPath(a.cwd, p)
	}
	return a.env.PlainFolder(p)
}

// appByName rates open -a NAME (or -b ID) with nothing to open where the
// analysis resolves applications as the executor does (env.Launch):
// Launch Services answers a name with the bundle of that name it knows,
// one an earlier action made (~/Applications/Notes Helper.app, a
// project's Safari.app, a disk image's) among them, and starts it
// outside every sandbox. A name that resolves to no application, or to
// one outside the folders applications are installed in, is rated as
// that application (facts.AppEffect): what would start is not known.
// Without a resolver of macOS's applications (one with Platform Darwin;
// Linux, the command line there) the name stands.
func (c *call) appByName(h *facts.Handler) {
	env := c.a.env
	if env == nil || env.Launch == nil || strings.HasPrefix(h.Name, "an application named") {
		return
	}
	if p, ok := env.Launch.(interface{ Platform() string }); !ok || p.Platform() != facts.Darwin {
		return // open is macOS's: Linux's applications say nothing of its names
	}
	name := h.Name
	if h.ID != "" && !strings.EqualFold(h.ID, facts.ViewerAppNames[strings.ToLower(h.Name)].ID) && !strings.EqualFold(h.ID, facts.RunnerAppNames[strings.ToLower(h.Name)]) {
		name = h.ID // open -b com.example.helper
	}
	r, err := env.Launch.FileHandler("", name)
	if err != nil {
		c.add(effect.Of(effect.Launch, effect.Computed), "open-app", "open -a %s: no installed application answers to it here (%v): the system could answer the name with one an action made", rate.Display(name), err)
		return
	}
	if r.Path != "" && !facts.InstalledApp(strings.ToLower(r.Path)) {
		r.UserOwned = true
	}
	if fx, why := facts.AppEffect(r); fx.Mods&effect.Computed != 0 {
		c.add(fx.On(r.Path), "open-app", "open -a %s: %s", rate.Display(name), why)
	}
}

// bundleFolder reports a literal path that names a folder on the disk now
// laid out as a bundle (Contents/Info.plist, Contents/MacOS): open of it
// with a trailing slash, or by a folder's name, is no Finder window once
// its bundle bit is set (rate.Env.BundleFolder).
func (a *shellAn) bundleFolder(w word) bool {
	p := w.s
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		if a.cwd == "" {
			return false
		}
		p = joinPath(a.cwd, p)
	}
	return a.env.BundleFolder(p)
}
