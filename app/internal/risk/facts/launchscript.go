package facts

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// A script's launch is judged by its text alone: nothing checks it again
// when it happens, the analyzer cannot read the file it opens, and it
// knows the handler only by the name the script gives. These read that
// text the same way for every language; LaunchEffect decides.

// Target is what a script's launch opens, by its text.
type Target int

// The targets of a launch.
const (
	TargetFile   Target = iota // a file, or what could be one
	TargetFolder               // a folder: the path ends in / (or : in HFS) or is a known folder
	TargetApp                  // an application in the folders apps are installed in: launching it
	TargetWeb                  // an http or https URL
	TargetURL                  // a URL of another scheme, which SchemeRisk rates
)

// knownFolders are folders a script opens by a path that does not end in
// a slash: the home folder's standard ones, lower case, without ~/ or
// /Users/NAME/. Only those macOS makes in every home are here: where one
// may be missing (~/Applications, ~/Sites), an action could put a file of
// that name.
var knownFolders = map[string]bool{
	"desktop": true, "documents": true, "downloads": true, "pictures": true, "music": true, "movies": true,
	"public": true, "library": true,
}

// OpenPath says what opening the path p (POSIX, HFS or ~) opens: a folder
// when it ends in / or :, is . or .., the home folder or one of its
// standard folders (~/Documents), or the root or a top folder of the
// system; an installed application when it is an .app bundle in the
// application folders; a file otherwise, a bundle of a runnable type
// among them (an app, a workflow, a script bundle, a package: opening it
// runs it, slash or not).
func OpenPath(p string) Target {
	low := strings.ToLower(strings.TrimSpace(p))
	trim := strings.TrimRight(low, "/:")
	if strings.HasSuffix(trim, ".app") && InstalledApp(trim) {
		return TargetApp
	}
	if runnableType(trim) != "" {
		return TargetFile
	}
	if low != trim || trim == "" || trim == "." || trim == ".." || trim == "~" || trim == "$home" || trim == "${home}" {
		return TargetFolder
	}
	for _, home := range []string{"~/", "$home/", "${home}/"} {
		if rest, ok := strings.CutPrefix(trim, home); ok {
			return folderIf(knownFolders[rest])
		}
	}
	if rest, ok := strings.CutPrefix(trim, "/users/"); ok {
		user, sub, _ := strings.Cut(rest, "/")
		return folderIf(user != "" && (sub == "" || knownFolders[sub]))
	}
	switch trim {
	case "/applications", "/users", "/tmp", "/private/tmp", "/volumes", "/library", "/system/applications":
		return TargetFolder
	}
	return TargetFile
}

func folderIf(folder bool) Target {
	if folder {
		return TargetFolder
	}
	return TargetFile
}

// OpenURL says what opening the URL u opens, and for a file: URL its
// path: a file: URL is the file (OpenPath), http and https a web page,
// any other scheme a URL. ok is false when u has no scheme.
func OpenURL(u string) (t Target, path string, ok bool) {
	low := strings.ToLower(strings.TrimSpace(u))
	scheme, ok := URLScheme(low)
	if !ok {
		return TargetFile, "", false
	}
	switch scheme {
	case "http", "https":
		return TargetWeb, "", true
	case "file":
		path = strings.TrimSpace(u)[len("file:"):]
		if strings.HasPrefix(path, "//") {
			path = path[2:]
			if i := strings.IndexByte(path, '/'); i > 0 && strings.EqualFold(path[:i], "localhost") {
				path = path[i:]
			}
		}
		return OpenPath(path), path, true
	}
	return TargetURL, "", true
}

// ScriptOpen is a script's opening of a file, as far as its text tells.
type ScriptOpen struct {
	// Handler is what the script names (NamedHandler), DefaultHandler when
	// it names none, or a Handler with only a Name when its name is
	// computed at run time.
	Handler Handler
	Path    string // the file's path, or the start of it the text tells
	Whole   bool   // Path is all of it (false: named at run time, in whole or part)
	Shown   string // how a warning names the file: its path, or "it" after it
}

// Effect is what the opening does, by LaunchEffect, with the file judged
// by its name: a viewer given a path whose type does not run only displays
// it; given a runnable type or a name computed at run time it could run; a
// runner, and a handler Airlock does not know (the default one among
// them), get it outside the sandbox. A path known whole is the effect's
// Target, and one named at run time makes it Computed: the executor checks
// both against what the sandbox hides from an unasked script, since the
// app reads the file outside every sandbox (execute.handedPaths).
func (o ScriptOpen) Effect() (effect.Effect, HandlerKind, string) {
	k, why := Classify(o.Handler, InputFile)
	var f *File
	if runnableType(o.Path) != "" || !o.Whole {
		f = &File{Name: o.Path} // not read: LaunchEffect holds it could run
	}
	e, w := LaunchEffect(o.Shown, k, why, f)
	if o.Whole {
		e = e.On(o.Path)
	} else {
		e = e.With(effect.Computed)
	}
	return e, k, w
}
