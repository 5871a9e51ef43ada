package facts

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// A launch makes the OS start a program Airlock does not confine: opening a
// file or a URL hands it to a handler that runs outside every sandbox, with
// the display, the session bus and the person's rights. So a launch runs
// unasked (Caution) only when the handler is known to merely display what
// it is given and the file is inert by what it is: its content, its
// executable bit and its type. Anything else asks: a viewer given a file
// that could run is Dangerous; a handler that runs, installs or executes
// what it is given, and one Airlock does not know, is Destructive, since
// what the file holds would run outside the sandbox — at every level.
//
// Handlers are identified by what the OS resolved — a bundle identifier on
// macOS, a desktop file and the program its Exec runs on Linux — never by a
// name the agent chose.

// Platforms of the viewer allow-list.
const (
	Darwin = "darwin"
	Linux  = "linux"
)

// Handler is the program the OS would start for a launch, as the platform
// resolved it.
type Handler struct {
	Platform string // Darwin or Linux
	// ID is the bundle identifier (macOS: "com.apple.Preview") or the
	// desktop file's id (Linux: "org.gnome.Evince").
	ID   string
	Name string // what the person knows it by: "Preview", "Document Viewer"
	// Path is where the app bundle or the desktop file is.
	Path string
	// Program is the absolute path of the executable the launch starts
	// (Linux: the first word of Exec, found on PATH; macOS: the bundle's
	// executable), "" when it could not be found.
	Program string
	// Terminal is a desktop file's Terminal=true: it runs in a terminal.
	Terminal bool
	// UserOwned says the app bundle, the desktop file or its program lies
	// in the home folder, where an action could have put it.
	UserOwned bool
}

// HandlerKind is what a handler does with what it is given.
type HandlerKind int

// The kinds of handler.
const (
	HandlerUnknown HandlerKind = iota // not known: it may do anything with it
	HandlerViewer                     // only displays it (a document viewer, an editor, a browser for web pages)
	HandlerRunner                     // runs, installs or executes it
)

func (k HandlerKind) String() string {
	switch k {
	case HandlerViewer:
		return "viewer"
	case HandlerRunner:
		return "runner"
	}
	return "unknown"
}

// Input is what a launch hands its handler.
type Input int

// The inputs of a launch.
const (
	InputFile   Input = iota // a local file
	InputFolder              // a local folder
	InputWeb                 // an http or https URL
)

func (in Input) String() string {
	switch in {
	case InputFolder:
		return "a folder"
	case InputWeb:
		return "a web page"
	}
	return "a file"
}

func (in Input) plural() string {
	switch in {
	case InputFolder:
		return "folders"
	case InputWeb:
		return "web pages"
	}
	return "files"
}

// Viewer is one entry of the allow-list of handlers known to only display
// their input.
type Viewer struct {
	Platform string
	// IDs are the bundle identifiers (macOS) or desktop file ids (Linux)
	// it has, lower case.
	IDs []string
	// Programs are the names of the executables its Exec may start
	// (Linux), lower case; on macOS the bundle identifier is the identity.
	Programs []string
	Takes    Input  // what it may be given
	Why      string // why it only displays what it is given
}

// Viewers is the allow-list of handlers known to only display their input,
// each with its reason. An editor counts: it shows a file and changes it
// only when the person saves. A browser counts for web pages only: a local
// HTML file runs its script with the rights of file: URLs.
var Viewers = []Viewer{
	// macOS, by bundle identifier.
	{Darwin, []string{"com.apple.preview"}, nil, InputFile, "Preview shows PDFs and images"},
	{Darwin, []string{"com.apple.textedit"}, nil, InputFile, "TextEdit shows and edits text and rich text; it does not run it"},
	{Darwin, []string{"com.apple.quicktimeplayerx"}, nil, InputFile, "QuickTime Player plays audio and video"},
	{Darwin, []string{"com.apple.photos"}, nil, InputFile, "Photos shows images and video"},
	{Darwin, []string{"com.apple.ibooksx"}, nil, InputFile, "Books shows EPUB and PDF books"},
	{Darwin, []string{"com.apple.imageevents"}, nil, InputFile, "Image Events reads images to convert them; it has no window and runs nothing"},
	{Darwin, []string{"com.apple.iwork.keynote"}, nil, InputFile, "Keynote shows and edits presentations; a deck holds no code it runs"},
	{Darwin, []string{"com.apple.iwork.pages"}, nil, InputFile, "Pages shows and edits documents; it runs no macros"},
	{Darwin, []string{"com.apple.iwork.numbers"}, nil, InputFile, "Numbers shows and edits spreadsheets; it runs no macros"},
	{Darwin, []string{"com.apple.finder"}, nil, InputFolder, "Finder shows folders"},
	{Darwin, []string{"com.apple.safari"}, nil, InputWeb, "Safari shows web pages in its own sandbox"},
	{Darwin, []string{"com.google.chrome"}, nil, InputWeb, "Chrome shows web pages in its own sandbox"},
	{Darwin, []string{"org.mozilla.firefox"}, nil, InputWeb, "Firefox shows web pages in its own sandbox"},
	{Darwin, []string{"com.microsoft.edgemac"}, nil, InputWeb, "Edge shows web pages in its own sandbox"},
	{Darwin, []string{"com.brave.browser"}, nil, InputWeb, "Brave shows web pages in its own sandbox"},
	// Linux, by desktop file id and the program its Exec starts.
	{Linux, []string{"org.gnome.evince", "evince"}, []string{"evince"}, InputFile, "Evince (Document Viewer) shows PDF and DjVu (PostScript it runs: such a file is no inert one)"},
	{Linux, []string{"org.gnome.papers"}, []string{"papers"}, InputFile, "Papers shows PDF documents"},
	{Linux, []string{"org.kde.okular", "okularapplication_pdf"}, []string{"okular"}, InputFile, "Okular shows documents"},
	{Linux, []string{"atril"}, []string{"atril"}, InputFile, "Atril shows documents"},
	{Linux, []string{"xreader"}, []string{"xreader"}, InputFile, "Xreader shows documents"},
	{Linux, []string{"org.gnome.eog", "eog"}, []string{"eog"}, InputFile, "Eye of GNOME shows images"},
	{Linux, []string{"org.gnome.loupe"}, []string{"loupe"}, InputFile, "Loupe shows images"},
	{Linux, []string{"org.kde.gwenview"}, []string{"gwenview"}, InputFile, "Gwenview shows images"},
	{Linux, []string{"org.xfce.ristretto", "ristretto"}, []string{"ristretto"}, InputFile, "Ristretto shows images"},
	{Linux, []string{"feh"}, []string{"feh"}, InputFile, "feh shows images"},
	{Linux, []string{"org.gnome.gedit", "gedit"}, []string{"gedit"}, InputFile, "gedit shows and edits text; opening a file does not run it"},
	{Linux, []string{"org.gnome.texteditor"}, []string{"gnome-text-editor"}, InputFile, "Text Editor shows and edits text"},
	{Linux, []string{"org.xfce.mousepad", "mousepad"}, []string{"mousepad"}, InputFile, "Mousepad shows and edits text"},
	{Linux, []string{"org.x.editor", "xed"}, []string{"xed"}, InputFile, "Xed shows and edits text"},
	{Linux, []string{"pluma"}, []string{"pluma"}, InputFile, "Pluma shows and edits text"},
	{Linux, []string{"org.kde.kwrite"}, []string{"kwrite"}, InputFile, "KWrite shows and edits text"},
	{Linux, []string{"org.gnome.totem", "totem"}, []string{"totem"}, InputFile, "Videos (Totem) plays audio and video"},
	{Linux, []string{"mpv"}, []string{"mpv"}, InputFile, "mpv plays audio and video"},
	{Linux, []string{"org.gnome.nautilus", "nautilus"}, []string{"nautilus"}, InputFolder, "Files (Nautilus) shows folders; it opens nothing by itself"},
	{Linux, []string{"org.kde.dolphin"}, []string{"dolphin"}, InputFolder, "Dolphin shows folders"},
	{Linux, []string{"thunar", "org.xfce.thunar"}, []string{"thunar"}, InputFolder, "Thunar shows folders"},
	{Linux, []string{"nemo"}, []string{"nemo"}, InputFolder, "Nemo shows folders"},
	{Linux, []string{"caja", "caja-folder-handler"}, []string{"caja"}, InputFolder, "Caja shows folders"},
	{Linux, []string{"firefox", "firefox-esr", "org.mozilla.firefox"}, []string{"firefox", "firefox-esr"}, InputWeb, "Firefox shows web pages in its own sandbox"},
	{Linux, []string{"chromium", "chromium-browser", "org.chromium.chromium"}, []string{"chromium", "chromium-browser"}, InputWeb, "Chromium shows web pages in its own sandbox"},
	{Linux, []string{"google-chrome", "com.google.chrome"}, []string{"google-chrome", "google-chrome-stable"}, InputWeb, "Chrome shows web pages in its own sandbox"},
	{Linux, []string{"org.gnome.epiphany", "epiphany"}, []string{"epiphany", "epiphany-browser"}, InputWeb, "Web (Epiphany) shows web pages"},
}

// Runners are what runs, installs or executes the files it is given, by
// lower-case bundle identifier, desktop file id or program name: terminals,
// shells and interpreters, script editors, installers and package tools,
// emulation layers. A handler that is none of these and not a viewer is
// unknown, which a launch treats the same way.
var Runners = map[string]bool{
	// macOS bundle identifiers.
	"com.apple.terminal": true, "com.googlecode.iterm2": true, "dev.warp.warp-stable": true,
	"com.mitchellh.ghostty": true, "net.kovidgoyal.kitty": true, "org.alacritty": true, "io.alacritty": true,
	"com.github.wez.wezterm": true, "co.zeit.hyper": true, "com.apple.scripteditor2": true,
	"com.apple.automator": true, "com.apple.shortcuts": true, "com.apple.installer": true,
	"com.apple.dt.xcode": true, "com.microsoft.vscode": true, "org.python.pythonlauncher": true,
	"com.apple.jarlauncher": true, "com.apple.appletlauncher": true, "com.latenightsw.scriptdebugger8": true,
	"org.tabby": true,
	// Programs and desktop ids (Linux), and the same tools anywhere.
	"xterm": true, "uxterm": true, "zutty": true, "gnome-terminal": true, "org.gnome.terminal": true,
	"org.gnome.console": true, "kgx": true, "konsole": true, "org.kde.konsole": true, "xfce4-terminal": true,
	"lxterminal": true, "mate-terminal": true, "terminator": true, "tilix": true, "com.gexperts.tilix": true,
	"kitty": true, "alacritty": true, "foot": true, "wezterm": true, "st": true, "urxvt": true, "rxvt": true,
	"sakura": true, "guake": true, "tilda": true, "x-terminal-emulator": true, "qterminal": true,
	"sh": true, "bash": true, "dash": true, "zsh": true, "fish": true, "ksh": true, "csh": true, "tcsh": true,
	"python": true, "python2": true, "python3": true, "perl": true, "ruby": true, "node": true, "nodejs": true,
	"php": true, "lua": true, "tclsh": true, "wish": true, "java": true, "wine": true, "mono": true,
	"osascript": true, "env": true, "xdg-open": true, "gio": true, "exo-open": true, "kioclient": true,
	"kioclient5": true, "gdebi": true, "gdebi-gtk": true, "apturl": true, "dpkg": true, "apt": true,
	"org.gnome.software": true, "gnome-software": true, "flatpak": true, "snap": true, "appimagelauncher": true,
	"code": true, "codium": true, "emacs": true, "vim": true, "gvim": true, "nvim": true,
}

// interpreterPrefixes name families of programs that run code: python3.11,
// perl5.36, ruby3.1, node18 … are runners without each having a row.
var interpreterPrefixes = []string{"python", "perl", "ruby", "node", "php", "lua", "tclsh", "wish", "java", "pypy", "jruby"}

// Classify says what a handler does with what it is given, and why, in
// words the person reads. A handler is a viewer only when its identity
// matches the allow-list for its platform and it is not the person's own
// or an action's (an app or desktop file in the home folder); on Linux the
// program its Exec starts must be the viewer's too, and it must not run in
// a terminal. in is what it would be given: a viewer of files is not one of
// folders (a file manager given a file may launch it), nor a browser one of
// files.
func Classify(h Handler, in Input) (HandlerKind, string) {
	name := h.Name
	if name == "" {
		name = h.ID
	}
	id := strings.ToLower(h.ID)
	prog := strings.ToLower(path.Base(h.Program))
	if h.Program == "" {
		prog = ""
	}
	switch {
	case h.Terminal:
		return HandlerRunner, name + " runs in a terminal"
	case isRunner(id) || (prog != "" && isRunner(prog)):
		return HandlerRunner, name + " runs, installs or executes what it opens"
	}
	if h.UserOwned {
		return HandlerUnknown, name + " lies in the home folder, where an action could have placed it"
	}
	for _, v := range Viewers {
		if v.Platform != h.Platform || !contains(v.IDs, id) {
			continue
		}
		if h.Platform == Linux && !contains(v.Programs, prog) {
			return HandlerUnknown, name + "'s desktop file starts " + orUnknown(h.Program) + ", not the viewer's program"
		}
		if v.Takes != in {
			return HandlerUnknown, name + " is a viewer of " + v.Takes.plural() + ", not known to only display " + in.String()
		}
		return HandlerViewer, v.Why
	}
	return HandlerUnknown, name + " is not known to only display what it opens"
}

func isRunner(name string) bool {
	if name == "" {
		return false
	}
	if Runners[name] {
		return true
	}
	for _, p := range interpreterPrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789.-") == "" {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown program"
	}
	return s
}

// File is what a launch knows of the file it opens.
type File struct {
	Name   string      // its path or name: the extension is read from it
	Mode   fs.FileMode // from lstat; 0 when not known
	Known  bool        // Mode and Head were read from the file itself
	Head   []byte      // its first bytes (HeadSize is enough)
	Folder bool        // it is a folder
	// Holds names, for a folder, an entry a viewer or thumbnailer runs
	// when it only shows it (shownRuns), or says the folder could not be
	// looked through; "" when it holds none.
	Holds string
}

// HeadSize is how much of a file Inert needs to see.
const HeadSize = 512

// ExtraRunnableExts are, besides RunnableExts, the extensions of files that
// run or install code when opened on Linux and Windows-compatible layers.
var ExtraRunnableExts = []string{".desktop", ".appimage", ".run", ".bin", ".exe", ".msi", ".com", ".bat",
	".cmd", ".ps1", ".vbs", ".deb", ".rpm", ".flatpakref", ".flatpakrepo", ".snap", ".js", ".jse", ".wsf",
	".hta", ".lnk", ".csh", ".fish", ".ksh", ".php", ".lua", ".tcl", ".ipynb", ".class", ".elf", ".out",
	".so", ".dylib", ".o", ".apk", ".xpi",
	// PostScript programs, which the viewers run in Ghostscript.
	".ps", ".eps", ".epsf", ".epsi"}

// magics are the starts of files that run: scripts (#!), ELF, Mach-O (both
// byte orders, 32 and 64 bits, and fat), Windows PE, desktop entries and
// AppleScript compiled scripts.
var magics = []struct {
	head []byte
	what string
	// shown: a viewer or a file manager's thumbnailer runs it when it only
	// shows it (viewerRunsTypes' kind of file).
	shown bool
}{
	{[]byte("#!"), "a script (#!)", false},
	{[]byte("\x7fELF"), "an ELF program", false},
	{[]byte{0xfe, 0xed, 0xfa, 0xce}, "a Mach-O program", false},
	{[]byte{0xfe, 0xed, 0xfa, 0xcf}, "a Mach-O program", false},
	{[]byte{0xce, 0xfa, 0xed, 0xfe}, "a Mach-O program", false},
	{[]byte{0xcf, 0xfa, 0xed, 0xfe}, "a Mach-O program", false},
	{[]byte{0xca, 0xfe, 0xba, 0xbe}, "a universal Mach-O program or Java class", false},
	{[]byte("MZ"), "a Windows program", false},
	{[]byte("[Desktop Entry]"), "a desktop entry", false},
	{[]byte("FasdUAS"), "a compiled AppleScript", false},
	// A red team's: PostScript is a program, and the viewers that show it
	// (Evince, Okular, Preview before macOS 14) run it in Ghostscript,
	// whatever the file is named.
	{[]byte("%!"), "a PostScript program (a viewer runs it in Ghostscript)", true},
	{[]byte{0xc5, 0xd0, 0xd3, 0xc6}, "an EPS program (PostScript a viewer runs in Ghostscript)", true},
	// A fourth red team's (TestRedLaunchViewerGivenAHiddenProgram): the
	// same program behind the Ctrl-D old spoolers put first, which
	// shared-mime-info knows as PostScript too; and compressed files,
	// which Evince unpacks to open whatever is inside, PostScript
	// included, when the name's type does not load.
	{[]byte("\x04%!"), "a PostScript program (a viewer runs it in Ghostscript)", true},
	{[]byte{0x1f, 0x8b}, "gzip-compressed data (a viewer unpacks it and opens what is inside, which may be a program)", true},
	{[]byte("BZh"), "bzip2-compressed data (a viewer unpacks it and opens what is inside, which may be a program)", true},
	{[]byte("\xfd7zXZ\x00"), "xz-compressed data (a viewer unpacks it and opens what is inside, which may be a program)", true},
}

// Inert says whether opening f could run it, and if not why, by what it is:
// a folder that is an app or bundle, an extension that runs, an executable
// bit, a first line or magic number of a program. A file whose mode and
// content were not read is not inert: it may be anything by the time it is
// opened.
func Inert(f File) (bool, string) {
	if ext := runnableType(f.Name); ext != "" {
		return false, "its type (" + ext + ") runs code when opened"
	}
	if !f.Known {
		return false, "what it holds could not be read"
	}
	if f.Folder {
		if f.Holds != "" {
			return false, "it holds " + f.Holds + ", which the file manager's thumbnailers run (PostScript in Ghostscript) when it shows the folder"
		}
		return true, ""
	}
	if !f.Mode.IsRegular() {
		return false, "it is not a regular file"
	}
	if f.Mode&0o111 != 0 {
		return false, "it is executable"
	}
	head := bytes.TrimLeft(f.Head, "\ufeff \t\r\n")
	for _, m := range magics {
		if bytes.HasPrefix(head, m.head) {
			return false, "it is " + m.what
		}
	}
	return true, ""
}

// runnableType returns the extension of name that runs code when opened
// (RunnableExts, ExtraRunnableExts), "" for none.
func runnableType(name string) string {
	name = strings.ToLower(strings.TrimRight(name, "/"))
	for _, list := range [][]string{RunnableExts, ExtraRunnableExts} {
		for _, ext := range list {
			if strings.HasSuffix(name, ext) {
				return ext
			}
		}
	}
	return ""
}

// LaunchEffect is what opening f (nil: a URL, or an app with nothing to
// open) with a handler of kind k does, and why, from what Classify and
// Inert said. It is the one rule every language and the executor's check
// at launch apply: a runner runs what it is given, and a handler not known
// to only display it is taken to run it too (both outside the sandbox); a
// viewer given a file that could run (its type runs, or its name is
// computed at run time) starts what cannot be told; a viewer given an
// inert file only displays it.
func LaunchEffect(name string, k HandlerKind, why string, f *File) (effect.Effect, string) {
	switch k {
	case HandlerRunner:
		return effect.Of(effect.Launch, effect.Runnable), why + ": what it is given would run outside the sandbox"
	case HandlerUnknown:
		return effect.Of(effect.Launch, effect.Runnable), why + ": it would get the input outside the sandbox"
	}
	if f != nil {
		if ok, whyNot := Inert(*f); !ok {
			return effect.Of(effect.Launch, effect.Computed), name + " could run: " + whyNot + " (" + why + ")"
		}
	}
	return effect.Of(effect.Launch), why
}

// AppName is a viewer as a script names it: its bundle identifier in
// Viewers, and why the name is enough to know the app.
type AppName struct {
	ID  string
	Why string
}

// ViewerAppNames are the viewers a script may name by name ("Preview" in
// tell application "Preview", open -a, withApplication:), lower case. A
// script has nothing but the name, so only apps that ship with macOS are
// here: the system keeps them on its sealed volume, and another app of
// the same name would have to be put there first, by an action the
// analyzer rates on its own.
var ViewerAppNames = map[string]AppName{
	"preview":          {"com.apple.preview", "Preview ships with macOS, in /System/Applications"},
	"textedit":         {"com.apple.textedit", "TextEdit ships with macOS, in /System/Applications"},
	"quicktime player": {"com.apple.quicktimeplayerx", "QuickTime Player ships with macOS, in /System/Applications"},
	"photos":           {"com.apple.photos", "Photos ships with macOS, in /System/Applications"},
	"books":            {"com.apple.ibooksx", "Books ships with macOS, in /System/Applications"},
	"image events":     {"com.apple.imageevents", "Image Events ships with macOS, in /System/Library/CoreServices"},
	"safari":           {"com.apple.safari", "Safari ships with macOS, which protects its bundle in /Applications"},
}

// RunnerAppNames are the runners a script may name by name, lower case,
// with their key in Runners: terminals, script editors and launchers,
// installers, and editors that run what they open (tasks, extensions).
// Every name of Terminals and ScriptRunners is here.
var RunnerAppNames = map[string]string{
	"terminal": "com.apple.terminal", "iterm": "com.googlecode.iterm2", "iterm2": "com.googlecode.iterm2",
	"iterm 2": "com.googlecode.iterm2", "warp": "dev.warp.warp-stable", "ghostty": "com.mitchellh.ghostty",
	"kitty": "net.kovidgoyal.kitty", "alacritty": "org.alacritty", "wezterm": "com.github.wez.wezterm",
	"hyper": "co.zeit.hyper", "tabby": "org.tabby", "script editor": "com.apple.scripteditor2",
	"applescript editor": "com.apple.scripteditor2", "script debugger": "com.latenightsw.scriptdebugger8",
	"automator": "com.apple.automator", "shortcuts": "com.apple.shortcuts", "installer": "com.apple.installer",
	"python launcher": "org.python.pythonlauncher", "python launcher 3": "org.python.pythonlauncher",
	"jar launcher": "com.apple.jarlauncher", "applet launcher": "com.apple.appletlauncher", "osascript": "osascript",
	"xcode": "com.apple.dt.xcode", "visual studio code": "com.microsoft.vscode", "code": "com.microsoft.vscode",
}

// KeynoteID is Keynote's bundle identifier, lower case (as Handler IDs
// are compared).
const KeynoteID = "com.apple.iwork.keynote"

// AllKeynote reports handlers that are all Keynote: by its bundle id, or,
// with byName, a handler not resolved to an id whose name is Keynote and
// that lies outside the home. Keynote opens only presentations, so what it
// reads of a *.key it is given is a deck's slides, never a key: the one
// app whose opening of a secret-named file is no read of a secret.
func AllKeynote(hs []*Handler, byName bool) bool {
	for _, h := range hs {
		switch {
		case h == nil || h.UserOwned:
			return false
		case strings.EqualFold(h.ID, KeynoteID):
		case byName && h.ID == "" && string(AppKey(LowerName(nil, h.Name))) == "keynote":
		default:
			return false
		}
	}
	return len(hs) > 0
}

// NamedHandler is the macOS handler a script names for a launch: by name
// ("Terminal", "Preview"), by the path of its bundle
// ("/System/Applications/Preview.app", "Macintosh HD:Applications:…"), or,
// with byID, by bundle identifier (application id "…", open -b). A name
// is a viewer only through ViewerAppNames, a runner through
// RunnerAppNames or Runners; any other name is a handler Classify does
// not know. A bundle outside the folders applications are installed in
// is the person's own or an action's (UserOwned).
func NamedHandler(app string, byID bool) Handler {
	name := strings.TrimSpace(app)
	h := Handler{Platform: Darwin, Name: shown(name)}
	low := string(LowerName(nil, name))
	if byID {
		h.ID = low
		return h
	}
	if strings.ContainsAny(low, "/:") {
		h.Path = name
		h.UserOwned = !InstalledApp(low)
	}
	key := string(AppKey([]byte(low)))
	switch {
	case ViewerAppNames[key].ID != "":
		h.ID = ViewerAppNames[key].ID
	case RunnerAppNames[key] != "":
		h.ID = RunnerAppNames[key]
	case isRunner(key):
		h.ID = key
	}
	return h
}

// shown is a name from a script as a warning may show it: valid UTF-8
// (strings.Map writes an invalid byte as U+FFFD), control characters as ·,
// at most 80 bytes.
func shown(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '·'
		}
		return r
	}, s)
	if len(s) > 80 {
		s = strings.ToValidUTF8(s[:80], "") + "…"
	}
	return s
}

// DefaultHandler is the handler of a launch that names none: the one
// Launch Services (macOS) or the desktop's MIME associations (Linux)
// choose for the file, which the analyzer cannot know and an action may
// have changed.
func DefaultHandler(platform string) Handler {
	return Handler{Platform: platform, Name: "the application the system chooses for it"}
}

// InstalledApp reports a path (lower case; POSIX, HFS or a file: URL)
// inside the folders applications are installed in: /Applications,
// /System/Applications and the system's own CoreServices.
func InstalledApp(low string) bool {
	p := strings.TrimPrefix(low, "file://")
	if p != low {
		u, err := url.PathUnescape(p) // file:///Applications/%2E%2E/Users/…
		if err != nil {
			return false
		}
		p = u
	}
	if !strings.Contains(p, "/") { // Macintosh HD:Applications:Foo.app
		_, rest, ok := strings.Cut(p, ":")
		if ok && strings.Contains(rest, "::") {
			return false // an HFS path's :: is its parent folder: Applications::Users:…
		}
		if ok {
			p = "/" + strings.ReplaceAll(rest, ":", "/")
		}
	}
	// Judged by where the path leads: /Applications/../Users/me/X.app is
	// in the home.
	if strings.HasPrefix(p, "/") {
		c := path.Clean(p)
		if strings.HasSuffix(p, "/") && c != "/" {
			c += "/"
		}
		p = c
	}
	return strings.HasPrefix(p, "/applications/") || strings.HasPrefix(p, "/system/applications/") ||
		strings.HasPrefix(p, "/system/library/coreservices/")
}

// AppEffect is what launching the app h with nothing to open does: it
// runs only its own code, unless the app or its program lies in the home
// folder, where an action could have put it, or could not be found: then
// what starts is not known.
func AppEffect(h Handler) (effect.Effect, string) {
	name := h.Name
	if name == "" {
		name = h.ID
	}
	switch {
	case h.UserOwned:
		return effect.Of(effect.Launch, effect.Computed), name + " lies in the home folder, where an action could have placed it"
	case h.Program == "":
		return effect.Of(effect.Launch, effect.Computed), name + "'s program was not found, so what would start is not known"
	}
	return effect.Of(effect.Launch), "launches " + name
}

// SchemeHandlerEffect is what handing a URL of a scheme other than http,
// https and file to the app h the OS resolved for it does. The URL is the
// agent's and the app acts on it outside the sandbox (vscode:// opens a
// folder in an IDE, mailto:?attach= puts a file in a draft), so only a
// viewer of web pages is as AppEffect says; an app that runs what it is
// given, and one Airlock does not know, is taken to run it, as for a file.
func SchemeHandlerEffect(h Handler) (effect.Effect, string) {
	kind, why := Classify(h, InputWeb)
	if kind != HandlerViewer {
		return effect.Of(effect.Launch, effect.Runnable), why + ": it would act on the agent's URL outside the sandbox"
	}
	return AppEffect(h)
}

// Resolver finds the handler the OS would start for a launch, as the
// platform resolves it (the bridge's Desktop, adapted). The analyzers ask it
// what a file or URL would be opened with; nil means nothing can be
// resolved, and every launch of a file or URL is then rated as by an
// unknown handler.
type Resolver interface {
	// FileHandler resolves the app that opens the file at path: app's own
	// when app is named, else the default app for the file's type. With
	// path "" it resolves app alone.
	FileHandler(path, app string) (Handler, error)
	// URLHandler resolves the default app for the URL's scheme.
	URLHandler(u string) (Handler, error)
}

// LookAt reads what Inert needs of the file at p: its mode (without
// following a final symbolic link: a link is not inert) and its first
// HeadSize bytes. A file it cannot read comes back with Known false.
func LookAt(p string) File {
	f := File{Name: p}
	fi, err := os.Lstat(p)
	if err != nil {
		return f
	}
	f.Mode = fi.Mode()
	if fi.IsDir() {
		f.Folder, f.Known = true, true
		f.Holds = holdsShownProgram(p)
		return f
	}
	if !fi.Mode().IsRegular() {
		f.Known = true
		return f
	}
	r, err := os.Open(p)
	if err != nil {
		return f
	}
	defer r.Close()
	again, err := r.Stat()
	if err != nil || !os.SameFile(fi, again) {
		return f // swapped between the two looks
	}
	buf := make([]byte, HeadSize)
	n, _ := io.ReadFull(r, buf)
	f.Head, f.Known = buf[:n], true
	return f
}

// maxFolderLook bounds how many entries of a folder LookAt looks at: a
// folder with more is not looked through, and so is no inert one.
const maxFolderLook = 1024

// shownRunsExts are the extensions of files a viewer or a file manager's
// thumbnailer runs when it shows them: PostScript, in Ghostscript.
var shownRunsExts = []string{".ps", ".eps", ".epsf", ".epsi"}

// holdsShownProgram returns the first entry of the folder dir (a name in
// it) that a viewer or thumbnailer runs when it only shows it (a
// PostScript program by its name or its first bytes, or compressed data
// they unpack first), "" for none. A file manager shows a folder's files
// with thumbnails: the folder is as inert as what it holds (a fourth red
// team's find, TestRedLaunchFolderOfPrograms). A folder that cannot be
// read, or holds more than maxFolderLook entries, is described so.
func holdsShownProgram(dir string) string {
	d, err := os.Open(dir)
	if err != nil {
		return "what could not be listed"
	}
	defer d.Close()
	names, err := d.Readdirnames(maxFolderLook + 1)
	if err != nil && err != io.EOF {
		return "what could not be listed"
	}
	if len(names) > maxFolderLook {
		return fmt.Sprintf("more than %d entries, not all looked at", maxFolderLook)
	}
	for _, n := range names {
		low := strings.ToLower(n)
		for _, ext := range shownRunsExts {
			if strings.HasSuffix(low, ext) {
				return n
			}
		}
		if shownRuns(filepath.Join(dir, n)) {
			return n
		}
	}
	return ""
}

// ShownProgram reports whether a file named name (its last element counts)
// whose content is at p (followed if a link) is one a viewer or a file
// manager's thumbnailer runs when it only shows it: PostScript by its
// name, or by its first bytes what a magics entry marked shown says.
func ShownProgram(name, p string) bool {
	low := strings.ToLower(filepath.Base(name))
	for _, ext := range shownRunsExts {
		if strings.HasSuffix(low, ext) {
			return true
		}
	}
	if t, err := filepath.EvalSymlinks(p); err == nil {
		p = t
	}
	return shownRuns(p)
}

// shownRuns reports whether the regular file p starts like a file a
// viewer or thumbnailer runs (a magics entry marked shown).
func shownRuns(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	r, err := os.Open(p)
	if err != nil {
		return true // unreadable now, readable by the time it is shown
	}
	defer r.Close()
	buf := make([]byte, 64)
	n, _ := io.ReadFull(r, buf)
	head := bytes.TrimLeft(buf[:n], "\ufeff \t\r\n")
	for _, m := range magics {
		if m.shown && bytes.HasPrefix(head, m.head) {
			return true
		}
	}
	return false
}
