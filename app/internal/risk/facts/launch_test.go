package facts_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

func TestClassify(t *testing.T) {
	evince := facts.Handler{Platform: facts.Linux, ID: "org.gnome.Evince", Name: "Document Viewer", Program: "/usr/bin/evince"}
	for _, tc := range []struct {
		name string
		h    facts.Handler
		in   facts.Input
		want facts.HandlerKind
	}{
		{"a system viewer", evince, facts.InputFile, facts.HandlerViewer},
		{"a viewer's id with another program", with(evince, func(h *facts.Handler) { h.Program = "/usr/bin/zutty" }), facts.InputFile, facts.HandlerRunner},
		{"a viewer's id starting an unknown program", with(evince, func(h *facts.Handler) { h.Program = "/usr/bin/payload" }), facts.InputFile, facts.HandlerUnknown},
		{"a viewer's id whose program is not found", with(evince, func(h *facts.Handler) { h.Program = "" }), facts.InputFile, facts.HandlerUnknown},
		{"a viewer's desktop file in the home folder", with(evince, func(h *facts.Handler) { h.UserOwned = true }), facts.InputFile, facts.HandlerUnknown},
		{"a viewer run in a terminal", with(evince, func(h *facts.Handler) { h.Terminal = true }), facts.InputFile, facts.HandlerRunner},
		{"a viewer on the other platform's list", with(evince, func(h *facts.Handler) { h.Platform = facts.Darwin }), facts.InputFile, facts.HandlerUnknown},
		{"a document viewer given a web page", evince, facts.InputWeb, facts.HandlerUnknown},
		{"a document viewer given a folder", evince, facts.InputFolder, facts.HandlerUnknown},
		{"a terminal nobody listed by id", facts.Handler{Platform: facts.Linux, ID: "zutty", Program: "/usr/bin/zutty"}, facts.InputFile, facts.HandlerRunner},
		{"a versioned interpreter", facts.Handler{Platform: facts.Linux, ID: "debian-python3.11", Program: "/usr/bin/python3.11"}, facts.InputFile, facts.HandlerRunner},
		{"Terminal=true whatever it runs", facts.Handler{Platform: facts.Linux, ID: "htop", Program: "/usr/bin/htop", Terminal: true}, facts.InputFile, facts.HandlerRunner},
		{"an unknown app", facts.Handler{Platform: facts.Linux, ID: "org.example.Thing", Program: "/usr/bin/thing"}, facts.InputFile, facts.HandlerUnknown},
		{"a browser given a web page", facts.Handler{Platform: facts.Linux, ID: "chromium", Program: "/usr/bin/chromium"}, facts.InputWeb, facts.HandlerViewer},
		{"a browser given a local file", facts.Handler{Platform: facts.Linux, ID: "chromium", Program: "/usr/bin/chromium"}, facts.InputFile, facts.HandlerUnknown},
		{"a file manager given a folder", facts.Handler{Platform: facts.Linux, ID: "org.gnome.Nautilus", Program: "/usr/bin/nautilus"}, facts.InputFolder, facts.HandlerViewer},
		{"a file manager given a file", facts.Handler{Platform: facts.Linux, ID: "org.gnome.Nautilus", Program: "/usr/bin/nautilus"}, facts.InputFile, facts.HandlerUnknown},
		{"Preview by bundle id", facts.Handler{Platform: facts.Darwin, ID: "com.apple.Preview", Name: "Preview"}, facts.InputFile, facts.HandlerViewer},
		{"Terminal by bundle id", facts.Handler{Platform: facts.Darwin, ID: "com.apple.Terminal", Name: "Terminal"}, facts.InputFile, facts.HandlerRunner},
		{"Script Editor by bundle id", facts.Handler{Platform: facts.Darwin, ID: "com.apple.ScriptEditor2"}, facts.InputFile, facts.HandlerRunner},
		{"an app named Preview with another id", facts.Handler{Platform: facts.Darwin, ID: "com.evil.preview", Name: "Preview"}, facts.InputFile, facts.HandlerUnknown},
		{"Finder given a file", facts.Handler{Platform: facts.Darwin, ID: "com.apple.finder"}, facts.InputFile, facts.HandlerUnknown},
		{"Safari given a web page", facts.Handler{Platform: facts.Darwin, ID: "com.apple.Safari"}, facts.InputWeb, facts.HandlerViewer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := facts.Classify(tc.h, tc.in)
			if got != tc.want {
				t.Errorf("Classify = %v (%s), want %v", got, why, tc.want)
			}
			if why == "" {
				t.Error("no reason given")
			}
		})
	}
}

func with(h facts.Handler, f func(*facts.Handler)) facts.Handler {
	f(&h)
	return h
}

func TestInert(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    facts.File
		want bool
	}{
		{"plain text", facts.File{Name: "notes.txt", Mode: 0o644, Known: true, Head: []byte("hello\n")}, true},
		{"a PDF", facts.File{Name: "a.pdf", Mode: 0o600, Known: true, Head: []byte("%PDF-1.7")}, true},
		{"a folder", facts.File{Name: "Documents", Mode: fs.ModeDir | 0o755, Known: true, Folder: true}, true},
		{"an app bundle folder", facts.File{Name: "Thing.app", Mode: fs.ModeDir | 0o755, Known: true, Folder: true}, false},
		{"executable text", facts.File{Name: "notes", Mode: 0o744, Known: true, Head: []byte("hello")}, false},
		{"a script without the bit", facts.File{Name: "notes", Mode: 0o644, Known: true, Head: []byte("#!/bin/sh\nid\n")}, false},
		{"a script after a byte-order mark", facts.File{Name: "notes", Mode: 0o644, Known: true, Head: []byte("\ufeff#!/bin/sh\n")}, false},
		{"an ELF program", facts.File{Name: "x.dat", Mode: 0o644, Known: true, Head: []byte("\x7fELF\x02")}, false},
		{"a Mach-O program", facts.File{Name: "x.dat", Mode: 0o644, Known: true, Head: []byte{0xcf, 0xfa, 0xed, 0xfe, 7}}, false},
		{"a desktop entry", facts.File{Name: "notes.txt", Mode: 0o644, Known: true, Head: []byte("[Desktop Entry]\nExec=sh")}, false},
		{"a runnable extension", facts.File{Name: "x.command", Mode: 0o644, Known: true, Head: []byte("ls")}, false},
		{"a Linux runnable extension", facts.File{Name: "x.AppImage", Mode: 0o644, Known: true}, false},
		{"not read", facts.File{Name: "notes.txt"}, false},
		{"a device", facts.File{Name: "tty", Mode: fs.ModeDevice | 0o666, Known: true}, false},
		// A third red team's: PostScript is run by the viewers that show it.
		{"PostScript named a PDF", facts.File{Name: "report.pdf", Mode: 0o644, Known: true, Head: []byte("%!PS-Adobe-3.0\n")}, false},
		{"PostScript by its name", facts.File{Name: "figures.PS", Mode: 0o644, Known: true, Head: []byte("")}, false},
		{"an EPS with a preview", facts.File{Name: "chart.pdf", Mode: 0o644, Known: true, Head: []byte{0xc5, 0xd0, 0xd3, 0xc6, 0x20}}, false},
		{"TeX, whose comments start with %", facts.File{Name: "paper.tex", Mode: 0o644, Known: true, Head: []byte("% draft\n\\documentclass{article}")}, true},
		{"a name ending in ps", facts.File{Name: "maps", Mode: 0o644, Known: true, Head: []byte("hello")}, true},
		// A fourth red team's: behind a Ctrl-D, or compressed.
		{"PostScript behind a Ctrl-D", facts.File{Name: "report.pdf", Mode: 0o644, Known: true, Head: []byte("\x04%!PS-Adobe-3.0\n")}, false},
		{"gzip named a PDF", facts.File{Name: "report.pdf", Mode: 0o644, Known: true, Head: []byte{0x1f, 0x8b, 8, 0}}, false},
		{"bzip2 named a PDF", facts.File{Name: "report.pdf", Mode: 0o644, Known: true, Head: []byte("BZh91AY&SY")}, false},
		{"xz named a PDF", facts.File{Name: "report.pdf", Mode: 0o644, Known: true, Head: []byte("\xfd7zXZ\x00\x00")}, false},
		{"text starting with BZ", facts.File{Name: "notes.txt", Mode: 0o644, Known: true, Head: []byte("BZ: notes on the move\n")}, true},
		{"text with a Ctrl-D later", facts.File{Name: "log.txt", Mode: 0o644, Known: true, Head: []byte("end of input \x04%! here\n")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := facts.Inert(tc.f)
			if got != tc.want {
				t.Errorf("Inert = %v (%s), want %v", got, why, tc.want)
			}
			if !got && why == "" {
				t.Error("no reason given")
			}
		})
	}
}

func TestLaunchLevel(t *testing.T) {
	text := &facts.File{Name: "a.txt", Mode: 0o644, Known: true, Head: []byte("hi")}
	script := &facts.File{Name: "a.txt", Mode: 0o755, Known: true, Head: []byte("#!/bin/sh")}
	for _, tc := range []struct {
		name string
		k    facts.HandlerKind
		f    *facts.File
		want level.Level
	}{
		{"a viewer and an inert file", facts.HandlerViewer, text, level.Caution},
		{"a viewer and a web page", facts.HandlerViewer, nil, level.Caution},
		{"a viewer and a file that runs", facts.HandlerViewer, script, level.Dangerous},
		{"a runner", facts.HandlerRunner, text, level.Destructive},
		{"an unknown handler", facts.HandlerUnknown, text, level.Destructive},
		{"an unknown handler of a URL", facts.HandlerUnknown, nil, level.Destructive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, why := facts.LaunchEffect("a.txt", tc.k, "because", tc.f)
			if got := e.Level(); got != tc.want || !strings.Contains(why, "because") {
				t.Errorf("LaunchEffect = %v (%s), want %v with the handler's reason", e, why, tc.want)
			}
		})
	}
}

// Every viewer has a reason, an id, a program on Linux, and no id that is
// also a runner's; ids and programs are lower case.
func TestViewersAreWellFormed(t *testing.T) {
	for _, v := range facts.Viewers {
		if v.Why == "" || len(v.IDs) == 0 || (v.Platform == facts.Linux && len(v.Programs) == 0) {
			t.Errorf("%v: needs ids, a reason and, on Linux, programs", v.IDs)
		}
		for _, s := range append(append([]string{}, v.IDs...), v.Programs...) {
			if s != strings.ToLower(s) {
				t.Errorf("%q is not lower case", s)
			}
			if facts.Runners[s] {
				t.Errorf("%q is both a viewer and a runner", s)
			}
		}
	}
	for k := range facts.Runners {
		if k != strings.ToLower(k) {
			t.Errorf("Runners: %q is not lower case", k)
		}
	}
}

// The names scripts give apps: a viewer only by a name of ViewerAppNames
// or a path in the application folders, a runner by any of its names.
func TestNamedHandler(t *testing.T) {
	for _, tc := range []struct {
		app  string
		byID bool
		want facts.HandlerKind
	}{
		{"Preview", false, facts.HandlerViewer},
		{"TextEdit", false, facts.HandlerViewer},
		{"textedit", false, facts.HandlerViewer},
		{"QuickTime Player", false, facts.HandlerViewer},
		{"Photos.app", false, facts.HandlerViewer},
		{"/System/Applications/Preview.app", false, facts.HandlerViewer},
		{"Macintosh HD:System:Applications:TextEdit.app:", false, facts.HandlerViewer},
		{"com.apple.Preview", true, facts.HandlerViewer},
		{"/Users/me/Applications/Preview.app", false, facts.HandlerUnknown},
		{"~/Downloads/TextEdit.app", false, facts.HandlerUnknown},
		{"Terminal", false, facts.HandlerRunner},
		{"iTerm", false, facts.HandlerRunner},
		{"/System/Applications/Utilities/Terminal.app", false, facts.HandlerRunner},
		{"/Users/me/Terminal.app", false, facts.HandlerRunner},
		{"com.apple.Terminal", true, facts.HandlerRunner},
		{"Script Editor", false, facts.HandlerRunner},
		{"Visual Studio Code", false, facts.HandlerRunner},
		{"python3.12", false, facts.HandlerRunner},
		{"Acme Reader", false, facts.HandlerUnknown},
		{"com.evil.preview", true, facts.HandlerUnknown},
		{"Preview", true, facts.HandlerUnknown}, // a name where an id belongs
		{"Finder", false, facts.HandlerUnknown}, // a viewer of folders, not of files
	} {
		got, why := facts.Classify(facts.NamedHandler(tc.app, tc.byID), facts.InputFile)
		if got != tc.want || why == "" {
			t.Errorf("NamedHandler(%q, %v): %v (%s), want %v", tc.app, tc.byID, got, why, tc.want)
		}
	}
	if got, _ := facts.Classify(facts.DefaultHandler(facts.Darwin), facts.InputFile); got != facts.HandlerUnknown {
		t.Errorf("the default handler is %v, want unknown", got)
	}
}

// Every viewer name is a Darwin viewer of files or web pages, every
// runner name a runner, and every terminal and script runner name has a
// runner name.
func TestAppNamesAreWellFormed(t *testing.T) {
	for name, v := range facts.ViewerAppNames {
		h := facts.Handler{Platform: facts.Darwin, ID: v.ID}
		if k, _ := facts.Classify(h, facts.InputFile); k != facts.HandlerViewer {
			if k, _ := facts.Classify(h, facts.InputWeb); k != facts.HandlerViewer {
				t.Errorf("ViewerAppNames[%q] = %q is not a viewer", name, v.ID)
			}
		}
		if name != strings.ToLower(name) || v.Why == "" {
			t.Errorf("ViewerAppNames[%q]: needs a lower-case name and a reason", name)
		}
	}
	for name, id := range facts.RunnerAppNames {
		if k, _ := facts.Classify(facts.Handler{Platform: facts.Darwin, ID: id}, facts.InputFile); k != facts.HandlerRunner || name != strings.ToLower(name) {
			t.Errorf("RunnerAppNames[%q] = %q is not a runner, or the name is not lower case", name, id)
		}
		if facts.ViewerAppNames[name].ID != "" {
			t.Errorf("%q is both a viewer's and a runner's name", name)
		}
	}
	for name := range facts.Terminals {
		if !strings.Contains(name, ".") && facts.RunnerAppNames[name] == "" {
			t.Errorf("terminal %q has no RunnerAppNames entry", name)
		}
	}
	for name := range facts.ScriptRunners {
		if facts.RunnerAppNames[name] == "" {
			t.Errorf("script runner %q has no RunnerAppNames entry", name)
		}
	}
}

func TestOpenPath(t *testing.T) {
	for _, tc := range []struct {
		p    string
		want facts.Target
	}{
		{"/Users/me/Documents/notes", facts.TargetFile},
		{"~/notes", facts.TargetFile},
		{"notes.txt", facts.TargetFile},
		{"Macintosh HD:Users:me:notes", facts.TargetFile},
		{"/Users/me/Documents/", facts.TargetFolder},
		{"Macintosh HD:Users:me:Documents:", facts.TargetFolder},
		{"~/Documents", facts.TargetFolder},
		{"$HOME/Downloads", facts.TargetFolder},
		{"/Users/me", facts.TargetFolder},
		{"/Users/me/Desktop", facts.TargetFolder},
		{".", facts.TargetFolder},
		{"~", facts.TargetFolder},
		{"~/Documents/Projects", facts.TargetFile}, // could be either: a file
		{"/Applications/Safari.app", facts.TargetApp},
		{"/System/Applications/Calculator.app/", facts.TargetApp},
		{"Macintosh HD:Applications:Safari.app:", facts.TargetApp},
		{"/Users/me/Downloads/Updater.app", facts.TargetFile},
		{"/Users/me/Downloads/Updater.app/", facts.TargetFile},
		{"/Users/me/Downloads/Cleanup.workflow/", facts.TargetFile},
		{"Macintosh HD:Users:me:Downloads:x.scptd:", facts.TargetFile},
		{"~/Applications", facts.TargetFile}, // not in every home: an action could put a file there
		{"~/Library", facts.TargetFolder},
	} {
		if got := facts.OpenPath(tc.p); got != tc.want {
			t.Errorf("OpenPath(%q) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestOpenURL(t *testing.T) {
	for _, tc := range []struct {
		u    string
		want facts.Target
		path string
		ok   bool
	}{
		{"https://example.com/", facts.TargetWeb, "", true},
		{"HTTP://example.com/", facts.TargetWeb, "", true},
		{"file:///Users/me/notes", facts.TargetFile, "/Users/me/notes", true},
		{"file://localhost/Users/me/notes", facts.TargetFile, "/Users/me/notes", true},
		{"file:///Users/me/Documents/", facts.TargetFolder, "/Users/me/Documents/", true},
		{"file:///Applications/Calculator.app", facts.TargetApp, "/Applications/Calculator.app", true},
		{"x-apple.systempreferences:com.apple.preference.security", facts.TargetURL, "", true},
		{"/Users/me/notes", facts.TargetFile, "", false},
	} {
		got, path, ok := facts.OpenURL(tc.u)
		if got != tc.want || path != tc.path || ok != tc.ok {
			t.Errorf("OpenURL(%q) = %v %q %v, want %v %q %v", tc.u, got, path, ok, tc.want, tc.path, tc.ok)
		}
	}
}

func TestScriptOpen(t *testing.T) {
	preview := facts.NamedHandler("Preview", false)
	for _, tc := range []struct {
		name string
		o    facts.ScriptOpen
		want level.Level
	}{
		{"the default app", facts.ScriptOpen{Handler: facts.DefaultHandler(facts.Darwin), Path: "/Users/me/a.pdf", Whole: true}, level.Destructive},
		{"a runner", facts.ScriptOpen{Handler: facts.NamedHandler("Terminal", false), Path: "/Users/me/a.txt", Whole: true}, level.Destructive},
		{"an unknown app", facts.ScriptOpen{Handler: facts.NamedHandler("Acme", false), Path: "/Users/me/a.txt", Whole: true}, level.Destructive},
		{"an app named at run time", facts.ScriptOpen{Handler: facts.Handler{Platform: facts.Darwin, Name: "an app named at run time"}, Path: "/Users/me/a.txt", Whole: true}, level.Destructive},
		{"a viewer and an inert name", facts.ScriptOpen{Handler: preview, Path: "/Users/me/a.pdf", Whole: true}, level.Caution},
		{"a viewer and no extension", facts.ScriptOpen{Handler: preview, Path: "/Users/me/notes", Whole: true}, level.Caution},
		{"a viewer and a runnable type", facts.ScriptOpen{Handler: preview, Path: "/Users/me/a.command", Whole: true}, level.Dangerous},
		{"a viewer and a name computed", facts.ScriptOpen{Handler: preview, Path: "/Users/me/", Whole: false}, level.Dangerous},
	} {
		e, _, why := tc.o.Effect()
		if got := e.Level(); got != tc.want || why == "" {
			t.Errorf("%s: %v (%s), want %v", tc.name, e, why, tc.want)
		}
	}
}

// A name from a script reaches warnings only as printable UTF-8.
func TestNamedHandlerShowsNamesSafely(t *testing.T) {
	h := facts.NamedHandler("Acme\x1b[2J\xff Reader", false)
	if !utf8.ValidString(h.Name) || strings.Contains(h.Name, "\x1b") {
		t.Errorf("Name = %q: not safe to show", h.Name)
	}
	if _, why := facts.Classify(h, facts.InputFile); !utf8.ValidString(why) {
		t.Errorf("reason %q is not UTF-8", why)
	}
}

// TestLookAtFolder: a folder is as inert as what a file manager's
// thumbnailers read in it: one holding PostScript (by name, by its first
// bytes, behind a Ctrl-D or compressed) or too many entries to look
// through is not; one of documents is.
func TestLookAtFolder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"documents", map[string]string{"notes.txt": "hello\n", "paper.pdf": "%PDF-1.7\n", "paper.tex": "% draft\n"}, true},
		{"empty", nil, true},
		{"PostScript by name", map[string]string{"notes.txt": "hello\n", "figures.EPS": "x"}, false},
		{"PostScript named a PDF", map[string]string{"chart.pdf": "%!PS-Adobe-3.0\n"}, false},
		{"PostScript behind a Ctrl-D", map[string]string{"chart.pdf": "\x04%!PS-Adobe-3.0\n"}, false},
		{"PostScript after a byte-order mark", map[string]string{"chart.pdf": "\ufeff  %!PS-Adobe-3.0\n"}, false},
		{"gzip named a PDF", map[string]string{"chart.pdf": "\x1f\x8b\x08\x00"}, false},
		{"a script (no thumbnailer runs it)", map[string]string{"build.sh": "#!/bin/sh\nmake\n"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f := facts.LookAt(dir)
			if got, why := facts.Inert(f); got != tc.want {
				t.Errorf("Inert(LookAt(folder)) = %v (%s), want %v", got, why, tc.want)
			}
		})
	}
	t.Run("too many entries", func(t *testing.T) {
		dir := t.TempDir()
		for i := range 1025 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%04d.txt", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, why := facts.Inert(facts.LookAt(dir)); got {
			t.Errorf("a folder of 1025 entries is inert (%s): not all were looked at", why)
		}
	})
}

// TestAllKeynote: every handler Keynote, by bundle id, or by name only
// where asked and not in the home; nothing at all is no Keynote.
func TestAllKeynote(t *testing.T) {
	id := &facts.Handler{ID: "com.apple.iwork.keynote"}
	named := &facts.Handler{Name: "Keynote"}
	planted := &facts.Handler{Name: "Keynote", UserOwned: true}
	textEdit := &facts.Handler{ID: "com.apple.textedit", Name: "TextEdit"}
	for _, c := range []struct {
		hs     []*facts.Handler
		byName bool
		want   bool
	}{
		{[]*facts.Handler{id}, false, true},
		{[]*facts.Handler{id, id}, false, true},
		{[]*facts.Handler{named}, false, false},
		{[]*facts.Handler{named}, true, true},
		{[]*facts.Handler{planted}, true, false},
		{[]*facts.Handler{id, textEdit}, true, false},
		{[]*facts.Handler{nil}, true, false},
		{nil, true, false},
	} {
		if got := facts.AllKeynote(c.hs, c.byName); got != c.want {
			t.Errorf("AllKeynote(%v, %v) = %v, want %v", c.hs, c.byName, got, c.want)
		}
	}
}
