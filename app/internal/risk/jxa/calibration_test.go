package jxa_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

const sa = "var app = Application.currentApplication(); app.includeStandardAdditions = true;\n"

// TestCalibration: the levels DESIGN.md "Risk levels" gives each class of
// fact, the same in JXA as in every language.
func TestCalibration(t *testing.T) {
	env := testEnv(t)
	tests := []struct {
		name, src string
		want      level.Level
	}{
		// doShellScript: never below dangerous; seed 000's commands destructive.
		{"shell ls", sa + `app.doShellScript('ls ~/Desktop')`, level.Dangerous},
		{"shell date", sa + `var d = app.doShellScript('date +%Y-%m-%d')`, level.Dangerous},
		{"shell on another app", `var se = Application('System Events'); se.includeStandardAdditions = true; se.doShellScript('ls')`, level.Dangerous},
		{"shell sudo", sa + `app.doShellScript('sudo purge')`, level.Destructive},
		{"shell rm", sa + `app.doShellScript('rm ~/Documents/a.txt')`, level.Destructive},
		{"shell chmod", sa + `app.doShellScript('chmod 644 ~/Documents/a.txt')`, level.Destructive},
		{"shell chown", sa + `app.doShellScript('cd /tmp; chown me a.txt')`, level.Destructive},
		{"shell dd", sa + `app.doShellScript('dd if=/dev/zero of=/tmp/x bs=1 count=1')`, level.Destructive},
		{"shell mkfs", sa + `app.doShellScript('/sbin/mkfs.apfs /dev/disk9')`, level.Destructive},
		{"shell diskutil erase", sa + `app.doShellScript('diskutil eraseVolume APFS X disk9s1')`, level.Destructive},
		{"shell built", sa + `var c = 'r' + 'm'; app.doShellScript(c + ' ~/Documents/a.txt')`, level.Destructive},
		{"shell as root", sa + `app.doShellScript('ls /var/root', {administratorPrivileges: true})`, level.Destructive},
		{"system rm", `ObjC.import('stdlib'); $.system('rm /tmp/x')`, level.Destructive},
		{"shell rm word in text", sa + `app.doShellScript('grep -c rm notes.txt')`, level.Dangerous},

		// Writing a file is dangerous; removing data outside the Trash destructive.
		{"write to", sa + `var f = app.openForAccess(Path('/tmp/log.txt'), {writePermission: true}); app.write('x', {to: f}); app.closeAccess(f)`, level.Dangerous},
		{"open for access read", sa + `var f = app.openForAccess(Path('/tmp/log.txt')); app.read(f)`, level.Safe},
		{"NSString write", `ObjC.import('Foundation'); $('hi').writeToFileAtomicallyEncodingError('/tmp/hi.txt', true, 4, null)`, level.Dangerous},
		{"createFile", `ObjC.import('Foundation'); $.NSFileManager.defaultManager.createFileAtPathContentsAttributes('/tmp/a', $(), $())`, level.Dangerous},
		{"copy", `ObjC.import('Foundation'); $.NSFileManager.defaultManager.copyItemAtPathToPathError('/tmp/a', '/tmp/b', null)`, level.Dangerous},
		{"removeItem", `ObjC.import('Foundation'); $.NSFileManager.defaultManager.removeItemAtPathError('/tmp/a', null)`, level.Destructive},
		{"trashItem", `ObjC.import('Foundation'); $.NSFileManager.defaultManager.trashItemAtURLResultingItemURLError($.NSURL.fileURLWithPath('/tmp/a'), null, null)`, level.Dangerous},
		{"Finder delete", `var f = Application('Finder'); f.delete(f.desktop.files['a.txt'])`, level.Dangerous},
		{"System Events delete file", `var se = Application('System Events'); se.delete(se.files['/tmp/a.txt'])`, level.Destructive},
		{"System Events delete by method", `Application('System Events').folders.byName('/tmp/old').delete()`, level.Destructive},
		{"System Events delete disk item var", `var se = Application('System Events'); var d = se.diskItems.byName('/tmp/a'); se.delete(d)`, level.Destructive},
		{"System Events delete login item", `var se = Application('System Events'); se.delete(se.loginItems.byName('Music'))`, level.Dangerous},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := risk.JXA(tt.src, env)
			if v.Level != tt.want {
				t.Errorf("%q: %v (%s), want %v", tt.src, v.Level, strings.Join(v.Texts(), " | "), tt.want)
			}
		})
	}
}

// TestNotCode: names that merely look like the globals that run code do
// not fire — a class's constructor and methods, a Map's delete — while the
// same names that really build and run code still do.
func TestNotCode(t *testing.T) {
	env := testEnv(t)
	tests := []struct {
		name, src string
		min, max  level.Level
	}{
		{"class constructor", "class Invoice {\n  constructor(items) { this.items = items; }\n  total() { return this.items.length; }\n}\nconst inv = new Invoice([1, 2]);\nconsole.log(inv.total());", level.Safe, level.Safe},
		{"subclass", "class A { constructor(n) { this.n = n; } }\nclass B extends A { constructor(s) { super('b'); this.s = s; } get area() { return this.s ** 2; } static unit() { return new B(1); } }\nconsole.log(B.unit().area);", level.Safe, level.Safe},
		{"class expression", "var A = class extends Object { constructor(x) { super(); this.x = x; } eval(s) { return s.length; } };\nnew A(1);", level.Safe, level.Safe},
		{"methods named like globals", "class Shell { doShellScript(cmd) { return cmd.trim(); } system(x) { return x; } remove(k) { return k; } }\nnew Shell();", level.Safe, level.Safe},
		{"object literal method", "var calc = { eval(expr) { return expr.length; } };\nconsole.log(calc.eval('1 + 2'));", level.Safe, level.Caution},
		{"map delete", "var seen = new Map(); seen.set('a', 1); seen.delete('a');", level.Safe, level.Safe},
		{"set delete", "const s = new Set([1, 2]); s.delete(1);", level.Safe, level.Safe},

		{"eval then block", "eval(atob(x))\n{}", level.Destructive, level.Blocked},
		{"eval in a block after a label", "lbl: { eval(atob(x))\n{} }", level.Destructive, level.Blocked},
		{"eval in an arrow body", "var f = () => { eval(atob(x))\n{} }; f();", level.Destructive, level.Blocked},
		{"eval in a static block", "class A { static { eval(atob(x))\n{} } }", level.Destructive, level.Blocked},
		{"eval in a computed key", "class A { [eval(atob(x))]() {} }", level.Destructive, level.Blocked},
		{"eval in a default", "class A { m(a = eval(atob(x))) {} }", level.Destructive, level.Blocked},
		{"constructor of a function", "var F = (function(){}).constructor; F(atob(x))();", level.Destructive, level.Blocked},
		{"new Function", "new Function(atob(x))();", level.Destructive, level.Blocked},
		{"method doShellScript called", "var app = Application.currentApplication(); app.includeStandardAdditions = true;\nclass S { doShellScript(c) { return c; } }\napp.doShellScript('rm -rf ~/Documents/x');", level.Destructive, level.Blocked},
		{"map reassigned to Finder", "var m = new Map(); m = Application('Finder'); m.delete(m.desktop.files['a.txt']);", level.Dangerous, level.Blocked},
		{"NSAppleScript", "ObjC.import('Foundation'); $.NSAppleScript.alloc.initWithSource(atob(x)).executeAndReturnError(null);", level.Destructive, level.Blocked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := risk.JXA(tt.src, env)
			if v.Level < tt.min || v.Level > tt.max {
				t.Errorf("%q: %v (%s), want %v..%v", tt.src, v.Level, strings.Join(v.Texts(), " | "), tt.min, tt.max)
			}
		})
	}
}

// TestSecretsAndEgress: every reason that reads a credential has a rule id
// starting secret., every way out one starting egress. (the facade rates a
// verdict with both as a secret sent out).
func TestSecretsAndEgress(t *testing.T) {
	env := testEnv(t)
	tests := []struct {
		name, src, prefix string
	}{
		{"ssh key read", sa + `var k = app.read('~/.ssh/id_ed25519')`, "secret."},
		{"NSString key read", `ObjC.import('Foundation'); var k = $.NSString.stringWithContentsOfFileEncodingError('~/.aws/credentials', 4, null)`, "secret."},
		{"keychain", `ObjC.import('Security'); var r = Ref(); $.SecItemCopyMatching(q, r)`, "secret."},
		{"password prompt", sa + `var p = app.displayDialog('Password:', {defaultAnswer: '', hiddenAnswer: true})`, "secret."},
		{"open location", sa + `app.openLocation('https://example.com/?q=' + k)`, "egress."},
		{"open URL", `ObjC.import('AppKit'); $.NSWorkspace.sharedWorkspace.openURL($.NSURL.URLWithString('https://example.com/'))`, "egress."},
		{"mail send", `var m = Application('Mail'); var msg = m.OutgoingMessage({subject: 'k', content: k}); m.outgoingMessages.push(msg); msg.send()`, "egress."},
		{"messages send", `Application('Messages').send(k, {to: Application('Messages').buddies['x']})`, "egress."},
		{"clipboard", sa + `app.setTheClipboardTo(k)`, "egress."},
		{"network", `ObjC.import('Foundation'); $.NSData.dataWithContentsOfURL($.NSURL.URLWithString('https://example.com/' + k))`, "egress."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := risk.JXA(tt.src, env)
			for _, r := range v.Reasons {
				if strings.HasPrefix(r.Rule, tt.prefix) {
					return
				}
			}
			t.Errorf("%q: no rule starting %s in %v", tt.src, tt.prefix, rules(v))
		})
	}
	// Opening a file that runs is not a way out: it is hidden code.
	v := risk.JXA(`Application('Finder').open(Path('/Users/me/Downloads/setup.command'))`, env)
	if v.Level < level.Dangerous || slices.ContainsFunc(v.Reasons, func(r risk.Reason) bool { return strings.HasPrefix(r.Rule, "egress.") }) {
		t.Errorf("open of a .command: %v %v, want dangerous and no egress", v.Level, rules(v))
	}
}

// TestKeysNotShell: text typed into an application that is not a terminal
// is keys, not a command; typed into a terminal, or where the analyzer
// cannot tell which application is in front, it is read as shell.
func TestKeysNotShell(t *testing.T) {
	env := testEnv(t)
	const se = "var se = Application('System Events');\n"
	tests := []struct {
		name, src string
		shell     bool // the typed text is analysed as a shell command
	}{
		{"no terminal", se + "Application('TextEdit').activate();\nse.keystroke('rm -rf ~/Documents');", false},
		{"code palette after terminal quit", se + "Application('Terminal').quit();\nApplication('Visual Studio Code').activate();\nse.keystroke('>');\nse.keystroke('rm -rf ~/Documents');", false},
		{"code after terminal", se + "Application('Terminal').activate();\nApplication('Visual Studio Code').activate();\nse.keystroke('rm -rf ~/Documents');", false},
		{"process frontmost", se + "Application('Terminal').activate();\nse.processes['Code'].frontmost = true;\nse.keystroke('rm -rf ~/Documents');", false},
		{"terminal", se + "Application('Terminal').activate();\nse.keystroke('rm -rf ~/Documents');", true},
		{"terminal after code", se + "Application('Visual Studio Code').activate();\nApplication('Terminal').activate();\nse.keystroke('rm -rf ~/Documents');", true},
		{"iterm by variable", se + "var it = Application('iTerm');\nit.activate();\nse.keystroke('rm -rf ~/Documents');", true},
		{"terminal process frontmost", se + "Application('TextEdit').activate();\nse.processes.byName('Terminal').frontmost = true;\nse.keystroke('rm -rf ~/Documents');", true},
		{"terminal in a function", se + "function t() { Application('Terminal').activate(); }\nApplication('TextEdit').activate();\nt();\nse.keystroke('rm -rf ~/Documents');", true},
		{"keystroke in a function", se + "Application('Terminal').activate();\nfunction k(s) { se.keystroke(s); }\nApplication('TextEdit').activate();\nk('rm -rf ~/Documents');", true},
		{"no focus seen", se + "Application('Terminal');\nse.keystroke('rm -rf ~/Documents');", true},
		{"computed front", se + "Application('Terminal');\nApplication(name).activate();\nse.keystroke('rm -rf ~/Documents');", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := risk.JXA(tt.src, env)
			shell := slices.ContainsFunc(v.Reasons, func(r risk.Reason) bool { return strings.HasPrefix(r.Rule, "shell.") })
			if shell != tt.shell {
				t.Errorf("%q: %v %v; typed text read as shell: %v, want %v", tt.src, v.Level, rules(v), shell, tt.shell)
			}
			if tt.shell && v.Level < level.Destructive {
				t.Errorf("%q: %v, want destructive (rm -rf typed into a terminal)", tt.src, v.Level)
			}
		})
	}
}

// TestDoScript: Terminal's doScript runs shell, read as such; another
// application's doScript runs a script Airlock cannot see.
func TestDoScript(t *testing.T) {
	env := testEnv(t)
	for _, tt := range []struct {
		src   string
		want  level.Level
		shell bool
	}{
		{"Application('Terminal').doScript('ls ~/Desktop')", level.Caution, true},
		{"var t = Application('Terminal'); t.doScript('rm -rf ~/Documents/x')", level.Destructive, true},
		{"Application('Script Editor').doScript('display dialog \"hi\"')", level.Dangerous, false},
		{"Application('Adobe InDesign 2024').doScript('app.documents.add()', {language: 'javascript'})", level.Dangerous, false},
		{"x.doScript('ls ~/Desktop')", level.Caution, true},
	} {
		v := risk.JXA(tt.src, env)
		shell := slices.ContainsFunc(v.Reasons, func(r risk.Reason) bool { return strings.HasPrefix(r.Rule, "shell.") || r.Rule == "jxa.terminal" })
		if v.Level != tt.want || shell != tt.shell {
			t.Errorf("%q: %v %v, want %v (read as shell: %v)", tt.src, v.Level, rules(v), tt.want, tt.shell)
		}
	}
}

// TestHiddenCodeAndRemoval: code loaded from where Airlock cannot see it,
// applications launched from a path, files cut short, and security
// preferences changed through System Events.
func TestHiddenCodeAndRemoval(t *testing.T) {
	env := testEnv(t)
	for _, tt := range []struct {
		src  string
		want level.Level
	}{
		{"var lib = Library('Helpers'); lib.run()", level.Dangerous},
		{"ObjC.import('Foundation'); $.NSBundle.bundleWithPath('/tmp/x.bundle').load", level.Dangerous},
		{"ObjC.import('Foundation'); $.NSBundle.bundleWithPath('/tmp/x.bundle').loadAndReturnError(null)", level.Dangerous},
		{"var img = Application('Image Events'); var f = img.open('/tmp/a.png'); f.load", level.Caution},
		{"Application('/tmp/evil.app').activate()", level.Dangerous},
		{"var e = Application('/Users/me/Downloads/Helper.app'); e.launch()", level.Dangerous},
		{"Application('/Applications/Safari.app').activate()", level.Safe},
		{"Application('Macintosh HD:Applications:Safari.app:').activate()", level.Safe},
		{"Application('Macintosh HD:Users:me:Downloads:Helper.app:').activate()", level.Dangerous},
		{"ObjC.import('Foundation'); var h = $.NSFileHandle.fileHandleForWritingAtPath('/tmp/a'); h.truncateFileAtOffset(0)", level.Destructive},
		{sa + "var f = app.openForAccess(Path('/tmp/a'), {writePermission: true}); app.setEof(f, {to: 0})", level.Destructive},
		{"var se = Application('System Events'); se.securityPreferences.automaticLogin = true", level.Destructive},
		{"var se = Application('System Events'); se.securityPreferences().requirePasswordToWake = false", level.Destructive},
		{"var se = Application('System Events'); se.appearancePreferences.darkMode = true", level.Caution},
		{"var se = Application('System Events'); var fa = se.FolderAction({name: 'x', path: '/Users/me/Downloads'}); se.folderActions.push(fa)", level.Destructive},
		{"var se = Application('System Events'); se.attachActionTo('/Users/me/Downloads', {using: '/Users/me/x.scpt'})", level.Destructive},
	} {
		if v := risk.JXA(tt.src, env); v.Level != tt.want {
			t.Errorf("%q: %v %v, want %v", tt.src, v.Level, rules(v), tt.want)
		}
	}
}
