package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The verb table: every AppleScript command the analyzer rates by its
// words, one row each. This is the file a reviewer opens to change what a
// command is rated.
//
// A row's Pattern is matched on the normalised words of a statement, at
// every word (Head: only where a command can start): "(a|b)" is one of the
// words, "[a]" a word that may be missing. Every row whose pattern
// matches applies, in the order of this table. A row with Fn fnFlat adds
// its ID with its Effect and its Text; any other row names the function
// that rates what a table cannot say (which object, which application,
// which parameters), and its Effect is what ID says on its Example. No
// row names a level: the calibration table (effect.Calibrate) gives each
// effect its own.
//
// Params are the labelled parameters the command reads (its option
// model): a parameter that writes, deletes, sends or runs code has a row
// of its own (with replacing, with administrator privileges; Part rows),
// so no parameter goes unrated. A row whose match can stay below
// Dangerous (not Always, or an Effect below it) is held to its Params by
// the auto-run contract: a `with x`/`without x` it does not list makes it
// Dangerous (checkParams). Example is a statement the row matches, inside
// `tell application App` when App is set, and on which it must add ID at
// Effect's level at least: table_internal_test.go runs every one, so a row
// no input can reach, one that no longer rates what it says, or one whose
// option model is not enforced, fails.
//
// The Objective-C bridge's classes and methods are facts/objc.go's table
// (objc.go applies it); shell text goes to the shell analyzer.
var verbs = []verb{
	{Pattern: "delete", Head: true, Fn: fnDelete, Effect: effect.Of(effect.Trash), Always: true, ID: "as.delete",
		Params: "from in of", App: "Finder", Example: `delete file "a.txt" of desktop`},
	{Pattern: "move", Fn: fnMove, Effect: effect.Of(effect.Change), Always: true, ID: "as.move",
		Params: "to with replacing positioned at", App: "Finder", Example: `move file "a.txt" of desktop to folder "b" of desktop`},
	{Pattern: "duplicate (every|all)", Effect: effect.Of(effect.Create, effect.Bulk), Always: true, ID: "as.bulk-duplicate",
		Text: "BULK DUPLICATE: May use significant disk space", App: "Finder", Example: `duplicate every file of desktop`},
	{Pattern: "duplicate", Fn: fnDuplicate, Effect: effect.Of(effect.Create), Always: true, ID: "as.duplicate",
		Params: "to with replacing with exact", App: "Finder", Example: `duplicate file "a.txt" of desktop`},
	{Pattern: "empty [the] trash", Effect: effect.Of(effect.Remove, effect.Bulk), Always: true, ID: "as.empty-trash",
		Text: "EMPTY TRASH: Permanently deletes all items in Trash", App: "Finder", Example: `empty the trash`},
	{Pattern: "empty", Fn: fnEmpty, Effect: effect.Of(effect.Remove, effect.Bulk), Always: false, ID: "as.empty-trash",
		App: "Finder", Params: "with security", Example: `empty`},
	{Pattern: "erase", Head: true, Effect: effect.Of(effect.Disk), Always: true, ID: "as.erase",
		Text: "ERASE: erases a disk", App: "Finder", Example: `erase disk "X"`},
	{Pattern: "send (every|all) (message|messages|mail|mails|email|emails|outgoing)", Effect: effect.Of(effect.Send, effect.Bulk), Always: true, ID: "egress.as.bulk-email",
		Text: "BULK EMAIL: Will send multiple emails", App: "Mail", Example: `send every outgoing message`},
	{Pattern: "send", Fn: fnSend, Effect: effect.Of(effect.Send), Always: true, ID: "egress.as.send",
		Params: "to", App: "Mail", Example: `send m`},
	{Pattern: "shut down", Head: true, Fn: fnPower, Effect: effect.Of(effect.Power), Always: true, ID: "as.power",
		App: "System Events", Example: `shut down`},
	{Pattern: "shutdown", Head: true, Fn: fnPower, Effect: effect.Of(effect.Power), Always: true, ID: "as.power",
		App: "System Events", Example: `shutdown`},
	{Pattern: "restart", Head: true, Fn: fnPower, Effect: effect.Of(effect.Power), Always: true, ID: "as.power",
		App: "System Events", Example: `restart`},
	{Pattern: "sleep", Head: true, Fn: fnPower, Effect: effect.Of(effect.Power), Always: true, ID: "as.power",
		App: "System Events", Example: `sleep`},
	{Pattern: "log out", Head: true, Fn: fnPower, Effect: effect.Of(effect.Power), Always: true, ID: "as.power",
		App: "System Events", Example: `log out`},
	{Pattern: "logout", Head: true, Fn: fnPower, Effect: effect.Of(effect.Power), Always: true, ID: "as.power",
		App: "System Events", Example: `logout`},
	{Pattern: "quit (every|all) (application|applications|app|apps|process|processes)", Effect: effect.Of(effect.Quit, effect.Bulk), Always: true, ID: "as.quit-all",
		Text: "QUIT ALL APPS: Will quit multiple applications", App: "System Events", Example: `quit every application`},
	{Pattern: "quit", Fn: fnQuit, Effect: effect.Of(effect.Quit), Always: false, ID: "as.quit",
		Params: "saving", App: "TextEdit", Example: `quit`},
	{Pattern: "keystroke", Fn: fnKeystroke, Effect: effect.Of(effect.Input), Always: true, ID: "as.keystroke",
		Params: "using", App: "System Events", Example: `keystroke "a"`},
	{Pattern: "key (code|down|up)", Fn: fnKey, Effect: effect.Of(effect.Input), Always: true, ID: "as.keycode",
		Params: "using", App: "System Events", Example: `key code 0`},
	{Pattern: "click", Head: true, Fn: fnClick, Effect: effect.Of(effect.Input), Always: true, ID: "as.click",
		Params: "at", App: "System Events", Example: `click button "OK" of window 1 of process "TextEdit"`},
	{Pattern: "perform [action]", Head: true, Fn: fnPerform, Effect: effect.Of(effect.Input), Always: true, ID: "as.perform",
		App: "System Events", Params: "of", Example: `perform action "AXPress" of button "OK" of window 1 of process "TextEdit"`},
	{Pattern: "do shell script", Fn: fnDoShellScript, Effect: effect.Of(effect.Shell), Always: true, ID: "as.shell",
		Params: "as user name password with administrator privileges altering line endings", Example: `do shell script "ls"`},
	{Pattern: "do script", Fn: fnDoScript, Effect: effect.Of(effect.Run), Always: true, ID: "as.terminal",
		Params: "in", App: "Terminal", Example: `do script "ls"`},
	{Pattern: "write text", Fn: fnWriteText, Effect: effect.Of(effect.Run), Always: true, ID: "as.terminal",
		Params: "newline", App: "iTerm", Example: `write text "ls"`},
	{Pattern: "create (window|tab) with [default|same] profile", Fn: fnTerminalCommand, Effect: effect.Of(effect.Run), Always: true, ID: "as.terminal",
		Params: "command", App: "iTerm", Example: `create window with default profile command "ls"`},
	{Pattern: "split (vertically|horizontally) with [default|same] profile", Fn: fnTerminalCommand, Effect: effect.Of(effect.Run), Always: true, ID: "as.terminal",
		Params: "command", App: "iTerm", Example: `split vertically with default profile command "ls"`},
	{Pattern: "write contents of file", Effect: effect.Of(effect.RunUnseen), Always: true, ID: "as.terminal-file",
		Text: "TERMINAL: types a file's contents into a live iTerm shell, where they run unseen", App: "iTerm", Example: `write contents of file "/tmp/x"`},
	{Pattern: "do javascript", Effect: effect.Of(effect.RunUnseen), Always: true, ID: "as.javascript",
		Text: "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session", App: "Safari", Example: `do JavaScript "1" in document 1`},
	{Pattern: "execute", Fn: fnExecute, Effect: effect.Of(effect.RunUnseen), Always: false, ID: "as.execute",
		App: "Google Chrome", Params: "javascript", Example: `execute front window's active tab`},
	{Pattern: "with replacing", Part: true, Effect: effect.Of(effect.Overwrite), Always: true, ID: "as.replacing",
		Text: "REPLACE: overwrites existing items of the same name", App: "Finder", Example: `duplicate file "a" of desktop to folder "b" of desktop with replacing`},
	{Pattern: "replacing (yes|true)", Part: true, Effect: effect.Of(effect.Overwrite), Always: true, ID: "as.replacing",
		Text: "REPLACE: overwrites existing items of the same name", App: "Finder", Example: `duplicate file "a" of desktop to folder "b" of desktop replacing yes`},
	{Pattern: "replacing", Part: true, Fn: fnReplacingGiven, Effect: effect.Of(effect.Overwrite), Always: false, ID: "as.replacing",
		App: "Finder", Example: `«event coreclon» file "a" of desktop given «class insh»:folder "b" of desktop, «class alrp»:true`},
	{Pattern: "run script", Fn: fnRunScript, Effect: effect.Of(effect.Run), Always: true, ID: "as.run-script",
		Params: "with parameters in", Example: `run script "1 + 1"`},
	{Pattern: "load script", Effect: effect.Of(effect.RunUnseen), Always: true, ID: "as.load-script",
		Text: "LOAD SCRIPT: loads a compiled script that is not analysed", Example: `load script file "x.scpt"`},
	{Pattern: "store script", Effect: effect.Of(effect.Overwrite), Always: true, ID: "as.store-script",
		Text: "STORE SCRIPT: writes a compiled script to disk", Example: `store script s in file "x.scpt"`},
	{Pattern: "with administrator privileges", Part: true, Effect: effect.Of(effect.Admin, effect.Session), Always: true, ID: "as.admin",
		Text: "ADMIN: runs with administrator privileges (as root): sudo, by AppleScript", Example: `do shell script "ls" with administrator privileges`},
	{Pattern: "administrator privileges", Part: true, Fn: fnAdminBare, Effect: effect.Of(effect.Admin, effect.Session), Always: false, ID: "as.admin",
		Example: `do shell script "ls" administrator privileges true`},
	{Pattern: "display dialog", Fn: fnDialog, Effect: effect.Of(effect.ReadSecret), Always: false, ID: "secret.as.password-prompt",
		Params: "default answer with hidden answer buttons default button cancel button with title with icon giving up after", Example: `display dialog "Password?" default answer "" with hidden answer`},
	{Pattern: "set eof", Fn: fnSetEOF, Effect: effect.Of(effect.Overwrite), Always: true, ID: "as.set-eof",
		Params: "to", Example: `set eof f to 0`},
	{Pattern: "set [the] clipboard", Fn: fnClipboard, Effect: effect.Of(effect.Egress), Always: true, ID: "egress.as.clipboard",
		Params: "to", Example: `set the clipboard to "x"`},
	{Pattern: "set volume", Effect: effect.Of(effect.Setting), Always: true, ID: "as.volume",
		Text: "VOLUME: changes the sound volume", Params: "output volume input volume alert volume with output muted", Example: `set volume 3`},
	{Pattern: "open location", Fn: fnOpenLocation, Effect: effect.Of(effect.Egress), Always: true, ID: "egress.as.open-url",
		Params: "error reporting", Example: `open location "https://example.com"`},
	{Pattern: "openurl", Fn: fnOpenLocation, Effect: effect.Of(effect.Egress), Always: true, ID: "egress.as.open-url",
		Example: `OpenURL "https://example.com"`},
	{Pattern: "geturl", Fn: fnOpenLocation, Effect: effect.Of(effect.Egress), Always: true, ID: "egress.as.open-url",
		Example: `GetURL "https://example.com"`},
	{Pattern: "make [new] login item", Effect: effect.Of(effect.Persist), Always: true, ID: "as.login-item",
		Text: "PERSISTENCE: adds a login item that starts at every login", App: "System Events", Example: `make new login item at end with properties {path:"/Applications/X.app"}`},
	// make: as.make-file for a file on disk (makesFile), Dangerous when it is
	// made with data.
	{Pattern: "make", Fn: fnMake, Effect: effect.Of(effect.Create), Always: true, ID: "as.make",
		Params: "new at with properties with data", App: "Notes", Example: `make new note with properties {name:"x"}`},
	{Pattern: "write", Fn: fnWrite, Effect: effect.Of(effect.Overwrite), Always: false, ID: "as.write",
		Params: "to for starting at as", Example: `write "x" to f`},
	{Pattern: "open for access", Fn: fnOpenForAccess, Effect: effect.Of(effect.Overwrite), Always: false, ID: "as.write",
		Params: "with write permission", Example: `open for access file "/tmp/x" with write permission`},
	{Pattern: "save", Head: true, Fn: fnSave, Effect: effect.Of(effect.Overwrite), Always: true, ID: "as.save",
		Params: "in as", App: "TextEdit", Example: `save document 1 in POSIX file "/tmp/x.rtf"`},
	{Pattern: "saving yes", Part: true, Effect: effect.Of(effect.Overwrite), Always: true, ID: "as.save",
		Text: "SAVE: saves the documents it closes", App: "TextEdit", Example: `close every document saving yes`},
	{Pattern: "export", Head: true, Effect: effect.Of(effect.Overwrite), Always: true, ID: "as.export",
		Text: "EXPORT: writes files", App: "Photos", Example: `export (get selection) to POSIX file "/tmp/out"`},
	{Pattern: "read", Fn: fnRead, Effect: effect.Of(effect.Read), Always: true,
		Params: "from for to before until using delimiter as", Example: `read file "/tmp/x"`},
	{Pattern: "eject", Head: true, Effect: effect.Of(effect.Setting), Always: true, ID: "as.eject",
		Text: "EJECT: ejects disks", Params: "", App: "Finder", Example: `eject disk "X"`},
	{Pattern: "mount volume", Effect: effect.Of(effect.Setting), Always: true, ID: "as.mount",
		Text: "MOUNT: mounts a volume", Params: "on server in AppleTalk zone as user name with password", Example: `mount volume "smb://host/share"`},
	{Pattern: "system attribute", Fn: fnSystemAttribute, Effect: effect.Of(effect.ReadNamedSecret), Always: false, ID: "secret.as.environment",
		Params: "", Example: `system attribute "GITHUB_TOKEN"`},
	{Pattern: "password", Part: true, Fn: fnPassword, Effect: effect.Of(effect.ReadSecret), Always: false, ID: "secret.as.keychain",
		App: "Keychain Scripting", Params: "of", Example: `get password of first key of current keychain`},
	{Pattern: "run", Fn: fnRun, Effect: effect.Of(effect.RunUnseen), Always: false, ID: "as.shortcut",
		Params: "with input", App: "Shortcuts Events", Example: `run shortcut "x"`},
	{Pattern: "open", Fn: fnOpen, Effect: effect.Of(effect.Launch, effect.Runnable), Always: false, ID: "as.launch-default",
		Params: "using with properties", App: "Finder", Example: `open file "a.txt" of desktop`},
	// System Events reads a property list or XML file for the script,
	// outside every sandbox: a secret there is read (dataFile).
	{Pattern: "property list file", Part: true, Fn: fnDataFile, Effect: effect.Of(effect.Read), Always: false,
		App: "System Events", Example: `get value of property list item "token" of property list file "/Users/me/app/.env.plist"`},
	{Pattern: "xml file", Part: true, Fn: fnDataFile, Effect: effect.Of(effect.Read), Always: false,
		App: "System Events", Example: `get contents of XML file "/Users/me/app/.env.xml"`},
	{Pattern: "attach [action]", Fn: fnAttach, Effect: effect.Of(effect.Persist), Always: false, ID: "as.folder-action",
		App: "System Events", Params: "to using", Example: `attach action to folder "x" using "y.scpt"`},
}

// verb is one row of the verb table.
type verb struct {
	Pattern string // the words it matches
	Head    bool   // only where a command can start (isHead)
	Part    bool   // a parameter or word of another command, not a command: its options are that command's
	Fn      verbFn // fnFlat, or the function that rates a match
	// Effect is what the command does: a flat row adds it; a function's
	// row is what ID says in Example (the function finds more: the
	// object, the application, the parameters).
	Effect effect.Effect
	// Always: every match adds Effect at least. Without it a match may
	// add nothing (a word that is not the command there, a dialog with no
	// hidden answer), so the auto-run contract holds it to Params.
	Always  bool
	ID      string // the rule id it adds (a function adds others besides)
	Text    string // a flat row's warning
	Params  string // the labelled parameters the command reads
	App     string // the application Example is told to ("": none)
	Example string // a statement the row rates with ID at Effect's level at least
}

// mayStayBelowDangerous reports a row a match of which can stay below
// Dangerous: the auto-run contract holds such a command to its Params (a
// labelled parameter it does not list makes it Dangerous: checkParams).
func (r *verb) mayStayBelowDangerous() bool {
	return !r.Always || r.Effect.Level() < level.Dangerous
}

// verbFn names the function that rates a row's match: rows name
// functions, so the table stays data (and the vocabulary, built from it,
// depends on no function).
type verbFn uint8

const (
	fnFlat verbFn = iota
	fnDelete
	fnMove
	fnDuplicate
	fnEmpty
	fnSend
	fnPower
	fnQuit
	fnKeystroke
	fnKey
	fnClick
	fnPerform
	fnDoShellScript
	fnDoScript
	fnWriteText
	fnExecute
	fnRunScript
	fnAdminBare
	fnReplacingGiven
	fnDialog
	fnSetEOF
	fnClipboard
	fnOpenLocation
	fnMake
	fnWrite
	fnOpenForAccess
	fnSave
	fnRead
	fnRun
	fnOpen
	fnAttach
	fnPassword
	fnTerminalCommand
	fnSystemAttribute
	fnDataFile
	fnCount // the number of functions
)

// call runs the function fn names.
func (fn verbFn) call(an *asAn, st []asToken, i, n int, app *asApp) {
	if fn == fnFlat || fn >= fnCount || verbFns[fn] == nil {
		panic("applescript: verb function out of range")
	}
	verbFns[fn](an, st, i, n, app)
}

// verbFns are the functions rows name, by verbFn. They are filled in by
// init, not by the variable's own value: the functions reach the table
// again through nested scripts, and Go refuses a variable whose value
// depends on itself.
var verbFns [fnCount]func(an *asAn, st []asToken, i, n int, app *asApp)

func init() {
	verbFns = [fnCount]func(an *asAn, st []asToken, i, n int, app *asApp){
		fnDelete:          verbDelete,
		fnMove:            verbMove,
		fnDuplicate:       verbDuplicate,
		fnEmpty:           verbEmpty,
		fnSend:            verbSend,
		fnPower:           verbPower,
		fnQuit:            verbQuit,
		fnKeystroke:       verbKeystroke,
		fnKey:             verbKey,
		fnClick:           verbClick,
		fnPerform:         verbPerform,
		fnDoShellScript:   verbDoShellScript,
		fnDoScript:        verbDoScript,
		fnWriteText:       verbWriteText,
		fnExecute:         verbExecute,
		fnRunScript:       verbRunScript,
		fnAdminBare:       verbAdminBare,
		fnReplacingGiven:  verbReplacingGiven,
		fnDialog:          verbDialog,
		fnSetEOF:          verbSetEOF,
		fnClipboard:       verbClipboard,
		fnOpenLocation:    verbOpenLocation,
		fnMake:            verbMake,
		fnWrite:           verbWrite,
		fnOpenForAccess:   verbOpenForAccess,
		fnSave:            verbSave,
		fnRead:            verbRead,
		fnRun:             verbRun,
		fnOpen:            verbOpen,
		fnAttach:          verbAttach,
		fnPassword:        verbPassword,
		fnTerminalCommand: verbTerminalCommand,
		fnSystemAttribute: verbSystemAttribute,
		fnDataFile:        verbDataFile,
	}
}

// checkParams enforces the auto-run contract on a command whose match can stay
// below Dangerous: a labelled parameter (with x, without x) that its row's
// Params does not list, and that has no row of its own, is one Airlock
// does not model, so the command is Dangerous.
func (an *asAn) checkParams(r *verb, st []asToken, i, n int) {
	depth := 0
	for j := i + n; j+1 < len(st); j++ {
		t := st[j]
		switch {
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			depth++
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			depth--
		case depth == 0 && t.kind == asWord && (t.kw == kwWith || t.kw == kwWithout) && (st[j+1].kind == asWord || st[j+1].kind == asVar):
			label := an.text(st[j+1])
			if withLabel(r.Params, label) || ownRow(st, j) {
				continue
			}
			an.add(effect.Of(effect.Unknown), "as.unmodelled-param", span2(st, j, 2), "PARAMETER: %s %s of %s is not one Airlock models: cannot tell what it does", an.text(t), rate.Display(label), r.Pattern)
		}
	}
}

// withLabel reports "with label" in a row's Params. It reads the fields
// as they come, without a slice of them: it runs at every labelled
// parameter of a command.
func withLabel(params, label string) bool {
	prev := ""
	for f := range strings.FieldsSeq(params) {
		if prev == "with" && strings.EqualFold(f, label) {
			return true
		}
		prev = f
	}
	return false
}

// ownRow reports a parameter that is a row of the table itself (with
// replacing, with administrator privileges): rated there.
func ownRow(st []asToken, j int) bool {
	for _, r := range vocab.rules[st[j].kw] {
		if r.match(st, j) > 1 {
			return true
		}
	}
	return false
}

// apply rates a match of the row: n tokens at st[i:].
func (r *verb) apply(an *asAn, st []asToken, i, n int, app *asApp) {
	if r.Head && !isHead(st, i) {
		return
	}
	if r.Fn == fnFlat {
		an.addText(r.Effect, r.ID, span2(st, i, n), r.Text)
		return
	}
	r.Fn.call(an, st, i, n, app)
}

// indexVerbs adds the table's words to v and indexes each row by the words
// it can start with, so each word consults only the rows that can match
// there, in the table's order.
func (v *vocabulary) indexVerbs() {
	for k := range verbs {
		pat := pattern(v, verbs[k].Pattern)
		for _, w := range pat[0].alts {
			v.rules[w] = append(v.rules[w], asRule{pat: pat, row: &verbs[k]})
			v.flags[w] |= kfRule
		}
	}
}
