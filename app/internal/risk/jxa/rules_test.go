package jxa_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/jxa"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func testEnv(t testing.TB) *risk.Env {
	t.Helper()
	cfg, err := sanitize.NewConfig(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return &risk.Env{Paths: cfg}
}

// examples holds, for every row of the table, a script that calls the
// method so that the row's own finding fires. NAME stands for the row's name.
var examples = map[string]string{
	"systemAttribute":                     `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.NAME('GITHUB_TOKEN')`,
	"environment":                         `ObjC.import('Foundation'); var e = $.NSProcessInfo.processInfo.NAME.js`,
	"getenv":                              `ObjC.import('stdlib'); $.NAME('AWS_SECRET_ACCESS_KEY')`,
	"doShellScript":                       `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.NAME('ls')`,
	"doScript":                            `Application('Terminal').NAME('ls')`,
	"write":                               `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.NAME('hi', {to: Path('/tmp/a.txt')})`,
	"openForAccess":                       `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.NAME(Path('/tmp/a.txt'), {writePermission: true})`,
	"eval":                                `NAME('1 + 1')`,
	"Function":                            `NAME('return 1')()`,
	"constructor":                         `var f = (function(){}).NAME('return 1'); f()`,
	"runScript":                           `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.NAME('1 + 1', {in: 'JavaScript'})`,
	"setTimeout":                          `NAME('1 + 1', 10)`,
	"setInterval":                         `NAME('1 + 1', 10)`,
	"NSTask":                              `ObjC.import('Foundation'); var t = $.NAME.alloc.init; t.launchPath = '/bin/ls'; t.launch`,
	"launchedTaskWithLaunchPathArguments": `ObjC.import('Foundation'); $.NSTask.NAME('/bin/ls', [])`,
	"launchedTaskWithExecutableURLArgumentsErrorTerminationHandler": `ObjC.import('Foundation'); $.NSTask.NAME($.NSURL.fileURLWithPath('/bin/ls'), [], null, null)`,
	"NSClassFromString":          `ObjC.import('Foundation'); var C = $.NAME(x)`,
	"initWithURLError":           `ObjC.import('Foundation'); var t = $.NSUserUnixTask.alloc.NAME(u, null)`,
	"initWithContentsOfURLError": `ObjC.import('Foundation'); $.NSAppleScript.alloc.NAME($.NSURL.fileURLWithPath('/tmp/a.scpt'), null)`,
	"bindFunction":               `ObjC.bindFunction('getpid', ['int', []])`,
	"delete":                     `Application('Finder').NAME(Application('Finder').desktop.files['a.txt'])`,
	"move":                       `Application('Finder').NAME(Application('Finder').desktop.files['a.txt'], {to: Application('Finder').home})`,
	"send":                       `Application('Mail').outgoingMessages[0].NAME()`,
	"hiddenAnswer":               `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.displayDialog('Password', {defaultAnswer: '', NAME: true})`,
	"administratorPrivileges":    `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.doShellScript('ls', {NAME: true})`,
	"keystroke":                  `Application('System Events').NAME('a')`,
	"keyCode":                    `Application('System Events').NAME(0)`,
	"click":                      `Application('System Events').processes['Finder'].menuBars[0].menuBarItems['File'].menus[0].menuItems['New Folder'].NAME()`,
	"perform":                    `Application('System Events').processes['Finder'].windows[0].buttons['OK'].actions['AXPress'].NAME()`,
	"quit":                       `Application('Music').NAME()`,
	"loginItems":                 `var se = Application('System Events'); se.NAME.push(se.LoginItem({path: '/Applications/Music.app'}))`,
	"LoginItem":                  `var se = Application('System Events'); se.NAME({path: '/Applications/Music.app', hidden: false}).make()`,
	"openFileAlarms":             `var cal = Application('Calendar'); cal.calendars[0].events[0].NAME.push(cal.SoundAlarm({triggerInterval: -5}))`,
	"Rule":                       `var m = Application('Mail'); var r = m.NAME({name: 'Sort', enabled: true}); m.rules.push(r)`,
	"OpenFileAlarm":              `var cal = Application('Calendar'); cal.NAME({filepath: '/tmp/x.command'}).make()`,
	"push":                       `Application('Finder').windows.NAME(Application('Finder').FinderWindow())`,
	"load":                       `ObjC.import('Foundation'); var b = $.NSBundle.bundleWithPath('/tmp/x.bundle'); b.NAME`,
	"Library":                    `var lib = NAME('Helpers'); lib.run()`,
	"setEof":                     `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.NAME(f, {to: 0})`,
	"truncateFileAtOffset":       `ObjC.import('Foundation'); $.NSFileHandle.fileHandleForWritingAtPath('/tmp/a').NAME(0)`,
	"folderActions":              `var se = Application('System Events'); se.NAME.push(se.FolderAction({name: 'x', path: '/Users/me/Downloads'}))`,
	"FolderAction":               `var se = Application('System Events'); se.NAME({name: 'x', path: '/Users/me/Downloads'}).make()`,
	"read":                       `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.NAME('~/.ssh/id_ed25519')`,

	"createWindowWithDefaultProfile":                     `Application('iTerm').NAME({command: 'ls'})`,
	"createWindowWithProfile":                            `Application('iTerm').NAME('Default', {command: 'ls'})`,
	"createTabWithDefaultProfile":                        `Application('iTerm').currentWindow.NAME({command: 'ls'})`,
	"createTabWithProfile":                               `Application('iTerm').currentWindow.NAME('Default', {command: 'ls'})`,
	"splitVerticallyWithDefaultProfile":                  `Application('iTerm').currentWindow.currentSession.NAME({command: 'ls'})`,
	"splitHorizontallyWithDefaultProfile":                `Application('iTerm').currentWindow.currentSession.NAME({command: 'ls'})`,
	"splitVerticallyWithProfile":                         `Application('iTerm').currentWindow.currentSession.NAME('Default', {command: 'ls'})`,
	"splitHorizontallyWithProfile":                       `Application('iTerm').currentWindow.currentSession.NAME('Default', {command: 'ls'})`,
	"splitVerticallyWithSameProfile":                     `Application('iTerm').currentWindow.currentSession.NAME({command: 'ls'})`,
	"splitHorizontallyWithSameProfile":                   `Application('iTerm').currentWindow.currentSession.NAME({command: 'ls'})`,
	"performSelector":                                    `ObjC.import('Foundation'); $.NSFileManager.defaultManager.NAME('removeItemAtPath:error:')`,
	"performSelectorWithObject":                          `ObjC.import('Foundation'); $.NSFileManager.defaultManager.NAME('removeItemAtPath:error:', '/tmp/x')`,
	"performSelectorWithObjectWithObject":                `ObjC.import('Foundation'); $.NSFileManager.defaultManager.NAME('removeItemAtPath:error:', '/tmp/x', null)`,
	"performSelectorWithObjectAfterDelay":                `ObjC.import('Foundation'); $.NSFileManager.defaultManager.NAME('removeItemAtPath:error:', '/tmp/x', 1)`,
	"performSelectorOnMainThreadWithObjectWaitUntilDone": `ObjC.import('Foundation'); $.NSFileManager.defaultManager.NAME('removeItemAtPath:error:', '/tmp/x', true)`,
	"performSelectorInBackgroundWithObject":              `ObjC.import('Foundation'); $.NSFileManager.defaultManager.NAME('removeItemAtPath:error:', '/tmp/x')`,
}

// exampleFor is a row's example: its own, or the one of the rows rated the
// same way.
func exampleFor(r jxa.Row) string {
	if s, ok := examples[r.Name]; ok {
		return strings.ReplaceAll(s, "NAME", r.Name)
	}
	switch {
	case r.CFunc:
		return `ObjC.import('stdlib'); $.` + r.Name + `('/tmp/x')`
	case r.Rule == "secret.jxa.keychain":
		return `ObjC.import('Security'); $.` + r.Name + `(null, null)`
	case r.Rule == "jxa.write":
		return `ObjC.import('Foundation'); $.NSFileManager.defaultManager.` + r.Name + `('/tmp/a', '/tmp/b', null)`
	case r.Rule == "secret.jxa.read":
		return `ObjC.import('Foundation'); $.NSString.` + r.Name + `('~/.ssh/id_ed25519', 4, null)`
	case r.Rule == "egress.jxa.network" && strings.Contains(r.Name, "URL"):
		return `ObjC.import('Foundation'); $.NSData.` + r.Name + `($.NSURL.URLWithString('https://example.com'))`
	case r.Rule == "egress.jxa.open-url":
		return `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.` + r.Name + `('https://example.com')`
	case r.Rule == "jxa.open":
		return `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.` + r.Name + `('/tmp/a.txt')`
	case strings.HasPrefix(r.Name, "initWithSource"):
		return `ObjC.import('Foundation'); $.NSAppleScript.alloc.` + r.Name + `('beep')`
	case strings.HasPrefix(r.Name, "NSUser"):
		return `ObjC.import('Foundation'); var t = $.` + r.Name + `.alloc`
	}
	return `Application('Finder').` + r.Name + `()`
}

// TestMethodsTable: every row of the JXA table can be met and fires. A
// duplicate row does not compile (a map literal); a row keyed by what the
// lexer never reads as a name is dead; a row whose example does not fire
// its rule, or rates the same with the name replaced by one the table does
// not know, is unmatchable.
func TestMethodsTable(t *testing.T) {
	env := testEnv(t)
	rows := jxa.Rows()
	names := map[string]bool{}
	for _, r := range rows {
		names[r.Name] = true
	}
	for name := range examples {
		if !names[name] {
			t.Errorf("example for %q, which is not a row", name)
		}
	}
	if missing := jxa.RatersMissing(); len(missing) > 0 {
		t.Errorf("raters %v name no function (raters, rules.go)", missing)
	}
	word := regexp.MustCompile(`\b` + `xyzzyNotAMethod` + `\b`)
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) {
			if !jxa.Name(r.Name) {
				t.Fatalf("row %q is dead: the lexer never reads it as one name", r.Name)
			}
			if r.Rater <= 0 || r.Rater >= jxa.NRaters {
				t.Fatalf("row %q names no function", r.Name)
			}
			if !strings.HasPrefix(r.Rule, "jxa.") && !strings.HasPrefix(r.Rule, "secret.jxa.") && !strings.HasPrefix(r.Rule, "egress.jxa.") {
				t.Errorf("row %q: rule %q is not a jxa rule", r.Name, r.Rule)
			}
			src := exampleFor(r)
			v := risk.JXA(src, env)
			if !slices.Contains(rules(v), r.Rule) {
				t.Errorf("row %q is unmatchable: %q fires %v, not %s", r.Name, src, rules(v), r.Rule)
			}
			if v.Level < r.Level {
				t.Errorf("row %q: %q is %v, below the row's level %v", r.Name, src, v.Level, r.Level)
			}
			other := word.ReplaceAllString(strings.ReplaceAll(src, r.Name, "xyzzyNotAMethod"), "xyzzyNotAMethod")
			if w := risk.JXA(other, env); w.Level == v.Level && slices.Equal(rules(w), rules(v)) {
				t.Errorf("row %q changes nothing: %q and %q both rate %v %v", r.Name, src, other, v.Level, rules(v))
			}
		})
	}
}

// TestMethodsCodeNeverSafe: a row that runs code or a shell is at least
// Dangerous wherever its argument is not a literal the analyzer reads.
func TestMethodsCodeNeverSafe(t *testing.T) {
	env := testEnv(t)
	for _, r := range jxa.Rows() {
		if !r.Code {
			continue
		}
		src := exampleFor(r)
		if r.Name == "keystroke" {
			src = `Application('Terminal').activate(); Application('System Events').keystroke(x + 'ls')`
		}
		if r.Name == "write" {
			src = `Application('iTerm').currentWindow.currentSession.write({text: x + 'ls'})`
		}
		src = strings.Replace(src, r.Name+"('", r.Name+"(x + '", 1)
		if !strings.Contains(src, "x + '") {
			continue // its example gives no string argument
		}
		if v := risk.JXA(src, env); v.Level < level.Dangerous {
			t.Errorf("%s with a computed argument: %q is %v %v, want at least dangerous", r.Name, src, v.Level, rules(v))
		}
	}
}

func rules(v risk.Verdict) []string {
	var out []string
	for _, r := range v.Reasons {
		out = append(out, r.Rule)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestMethodsDeclareEffects: every row of the JXA table says what calling
// it does, as an effect whose level the calibration table gives; a row's
// rule family agrees with its effect (secret.* reads a secret, egress.* is a way
// out: what the combination of a secret and a way out reads); a reference
// it cannot follow weighs at least what a call would.
func TestMethodsDeclareEffects(t *testing.T) {
	for _, r := range jxa.Rows() {
		if r.Effect.Kind == 0 {
			t.Errorf("row %q declares no effect", r.Name)
			continue
		}
		if r.Level != effect.Calibrate(r.Effect.Kind, r.Effect.Mods) {
			t.Errorf("row %q: level %v is not its effect's calibration %v", r.Name, r.Level, r.Effect.Level())
		}
		for _, k := range r.Does {
			if k == 0 || k == r.Effect.Kind {
				t.Errorf("row %q: does lists %v, which is no kind or its own effect's", r.Name, k)
			}
		}
		if strings.HasPrefix(r.Rule, "secret.") != (r.Effect.Kind == effect.ReadSecret || r.Effect.Kind == effect.ReadNamedSecret) {
			t.Errorf("row %q: rule %s and effect %v disagree on reading a secret", r.Name, r.Rule, r.Effect)
		}
		if strings.HasPrefix(r.Rule, "egress.") != effect.WayOut(r.Effect.Kind) {
			t.Errorf("row %q: rule %s and effect %v disagree on a way out", r.Name, r.Rule, r.Effect)
		}
		if r.Ref.Kind != 0 && r.Ref.Level() < r.Level {
			t.Errorf("row %q: a reference not followed (%v) weighs less than a call (%v)", r.Name, r.Ref, r.Effect)
		}
	}
}
