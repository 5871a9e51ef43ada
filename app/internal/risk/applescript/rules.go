package applescript

import (
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// asRule is one verb rule: a pattern over normalised words, and what a
// match means.
type asRule struct {
	pat []asElem
	row *verb
}

// asElem is one element of a pattern: the words it accepts.
type asElem struct {
	alts     []kwID
	optional bool
}

// match returns how many tokens the pattern covers at st[i:], or 0.
func (r *asRule) match(st []asToken, i int) int {
	j := i
	for _, el := range r.pat {
		if j < len(st) && (st[j].kind == asWord || st[j].kind == asEvent) &&
			(containsKW(el.alts, st[j].kw) || el.optional && st[j].tlen == 0) {
			// An «event» code Airlock does not know (text "") fills an
			// optional element.
			j++
			continue
		}
		if !el.optional {
			return 0
		}
	}
	return j - i
}

func containsKW(list []kwID, k kwID) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

// pattern compiles "delete (every|all) [the] (file|folder)".
func pattern(v *vocabulary, s string) []asElem {
	var out []asElem
	for _, el := range strings.Fields(s) {
		e := asElem{optional: strings.HasPrefix(el, "[")}
		for _, w := range strings.Split(strings.Trim(el, "[]()"), "|") {
			e.alts = append(e.alts, v.intern(w))
		}
		out = append(out, e)
	}
	return out
}

func isHead(st []asToken, i int) bool {
	if i == 0 {
		return true
	}
	p := st[i-1]
	if p.isOp('(') {
		return true
	}
	if p.kind != asWord {
		return false
	}
	switch p.kw {
	case kwTo, kwThen, kwElse, kwTry, kwIgnoring, kwResponses, kwReturn:
		return true
	}
	return false
}

// bulkObject reports whether the object after a verb names many things:
// every/all/plural nouns, contents of, a variable set to such a thing, or
// anything at all inside a loop over such a thing.
func (an *asAn) bulkObject(st []asToken, from int) (bool, string) {
	if an.loopBulk() {
		return true, "inside a loop over many items"
	}
	seen := 0
	for j := from; j < len(st) && seen < 5; j++ {
		t := st[j]
		if t.kind == asOp && (t.op == '(' || t.op == '-' || t.op == opPoss) || t.kind == asNumber {
			continue
		}
		if t.kind != asWord && t.kind != asVar {
			break
		}
		seen++
		if t.kw.has(kfBulk) {
			return true, an.text(t)
		}
		switch t.kw {
		case kwThe, kwOf, kwA, kwGet, kwIts, kwMy, kwSome:
			continue
		case kwTo, kwFrom, kwWith, kwIn, kwAt, kwInto:
			return false, ""
		}
		if an.bulkVar(an.name(t), 0) {
			return true, an.text(t)
		}
	}
	return false, ""
}

var bulkWords = set(`every all entire contents items files folders documents notes events reminders
	messages contacts people calendars photos tracks mailboxes aliases disks whose where thru through
	windows processes applications accounts albums playlists records rows slides tabs bookmarks`)

// bulkVar reports a variable assigned (or looped over) a collection.
func (an *asAn) bulkVar(name asName, depth int) bool {
	if depth > 3 {
		return false
	}
	s := an.lookup(name)
	if s == nil {
		return false // nothing assigned to it
	}
	if s.bulk != 0 {
		return s.bulk > 0
	}
	s.bulk = -1 // while resolving: a self-reference adds nothing
	b := an.bulkVarDefs(name, depth)
	if s = an.lookup(name); b {
		s.bulk = 1
	}
	return b
}

func (an *asAn) bulkVarDefs(name asName, depth int) bool {
	for d := an.firstDef(name); d >= 0; d = an.defList[d].next {
		for _, x := range an.defList[d].expr {
			if x.kind != asWord && x.kind != asVar {
				continue
			}
			if x.kw.has(kfBulk) || x.kw == kwSelection {
				return true
			}
			if xn := an.name(x); xn != name && an.bulkVar(xn, depth+1) {
				return true
			}
		}
	}
	return false
}

// loopBulk reports being inside a repeat over a collection.
func (an *asAn) loopBulk() bool {
	for i := range an.stack {
		if an.stack[i].bulk {
			return true
		}
	}
	return false
}

func span2(st []asToken, i, n int) Span {
	return Span{Start: int(st[i].start), End: int(st[i+n-1].end)}
}

func verbDelete(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := span2(st, i, 1)
	an.deletes++
	if what := an.homeFolder(st[i+1:]); what != "" {
		an.add(effect.Of(effect.Trash, effect.Bulk), "as.delete-home-folder", sp, "BULK DELETE: deletes %s and everything in it", what)
		return
	}
	if bulk, what := an.bulkObject(st, i+1); bulk {
		noun := "files/folders"
		for _, t := range st[i+1 : min(len(st), i+5)] {
			switch an.text(t) {
			case "event", "events", "reminder", "reminders", "calendar", "calendars":
				an.add(effect.Of(effect.Remove, effect.Bulk), "as.bulk-delete-calendar", sp, "BULK DELETE CALENDAR: Deletes multiple calendar events/reminders (%s)", what)
				return
			case "note", "notes", "contact", "contacts", "person", "people":
				an.add(effect.Of(effect.Remove, effect.Bulk), "as.bulk-delete-notes", sp, "BULK DELETE: Deletes multiple notes or contacts (%s)", what)
				return
			case "message", "messages", "mailbox", "mailboxes":
				noun = "messages"
			}
		}
		an.add(effect.Of(effect.Trash, effect.Bulk), "as.bulk-delete", sp, "BULK DELETE: This will delete multiple %s (%s). This action may be irreversible.", noun, what)
		return
	}
	if app != nil && app.known != nil && app.known.Title != "Finder" {
		// Outside the Finder nothing goes to the Trash; deleting a
		// container deletes all it holds.
		for _, t := range st[i+1 : min(len(st), i+4)] {
			switch w := an.text(t); w {
			case "calendar", "mailbox", "list", "account", "playlist", "album", "folder", "group", "notebook":
				if app.known.Title != "System Events" || t.kw == kwFolder {
					an.add(effect.Of(effect.Remove, effect.Bulk), "as.delete-container", sp, "DELETE: deletes the %s %s and everything in it, permanently", appTitle(app), w)
					return
				}
			}
		}
		if app.known.Title == "System Events" && !hasWord(st[i+1:min(len(st), i+4)], kwLogin) {
			an.add(effect.Of(effect.Remove), "as.delete-permanent", sp, "DELETE: System Events deletes files permanently (not to the Trash)")
			return
		}
	}

	for _, t := range st[i+1 : min(len(st), i+4)] {
		if t.kw == kwLogin {
			an.add(effect.Of(effect.Setting, effect.Session), "as.login-item", sp, "DELETE: removes a login item")
			return
		}
	}
	an.add(effect.Of(effect.Trash), "as.delete", sp, "DELETE: Will delete a file or folder (goes to Trash)")
}

func verbMove(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := span2(st, i, 1)
	an.destination(st, i)
	an.handed(verbObject(st, i), app)
	bulk, what := an.bulkObject(st, i+1)
	trash := false
	isTrash := func(t asToken) bool {
		return t.kw == kwTrash || t.kind == asString && strings.Contains(strings.ToLower(an.str(t)), ".trash")
	}
	for j := i + 1; j < len(st); j++ {
		if st[j].kind == asWord && st[j].kw == kwTo {
			for k := j + 1; k < len(st) && k < j+5; k++ {
				if isTrash(st[k]) {
					trash = true
				}
				for d := an.firstDef(an.name(st[k])); d >= 0 && (st[k].kind == asWord || st[k].kind == asVar); d = an.defList[d].next {
					for _, x := range an.defList[d].expr {
						trash = trash || isTrash(x)
					}
				}
			}
		}
	}
	if home := an.homeFolder(st[i+1:]); home != "" {
		// With everything in it: bulk; to the Trash, a bulk delete.
		e := effect.Of(effect.Change, effect.Bulk)
		if trash {
			e = effect.Of(effect.Trash, effect.Bulk)
		}
		an.add(e, "as.move-home-folder", sp, "MOVE: moves %s, with everything in it", home)
	}
	switch {
	case bulk && trash:
		an.add(effect.Of(effect.Trash, effect.Bulk), "as.bulk-trash", sp, "BULK DELETE: moves multiple items (%s) to the Trash", what)
	case trash:
		an.add(effect.Of(effect.Trash), "as.trash", sp, "DELETE: moves items to the Trash")
	case bulk:
		an.add(effect.Of(effect.Change, effect.Bulk), "as.bulk-move", sp, "BULK MOVE: Will move multiple files/folders (%s)", what)
	default:
		an.add(effect.Of(effect.Change), "as.move", sp, "MOVE: moves files or objects")
	}
}

func verbDuplicate(an *asAn, st []asToken, i, n int, app *asApp) {
	an.destination(st, i)
	an.handed(verbObject(st, i), app)
	if bulk, _ := an.bulkObject(st, i+1); bulk {
		an.add(effect.Of(effect.Create, effect.Bulk), "as.bulk-duplicate", span2(st, i, 1), "BULK DUPLICATE: May use significant disk space")
		return
	}
	an.add(effect.Of(effect.Create), "as.duplicate", span2(st, i, 1), "DUPLICATE: makes a copy")
}

func verbEmpty(an *asAn, st []asToken, i, n int, app *asApp) {
	if n == 1 && isHead(st, i) && app != nil && app.known != nil && app.known.Title == "Finder" {
		an.add(effect.Of(effect.Remove, effect.Bulk), "as.empty-trash", span2(st, i, 1), "EMPTY TRASH: Permanently deletes all items in Trash")
	}
}

func verbSend(an *asAn, st []asToken, i, n int, app *asApp) {
	if n == 1 {
		// send (POSIX file "…") to buddy …, send f to …: the app reads the
		// file it is handed, outside every sandbox, and sends it.
		an.pathArgs(st[i+1:], false)
		an.sends++
		if an.bulkRecipients {
			an.add(effect.Of(effect.Send, effect.Bulk), "egress.as.bulk-email", span2(st, i, 1), "BULK EMAIL: sends to recipients added in a loop")
			return
		}
		if bulk, _ := an.bulkObject(st, i+1); bulk {
			an.add(effect.Of(effect.Send, effect.Bulk), "egress.as.bulk-email", span2(st, i, 1), "BULK EMAIL: Will send multiple emails")
			return
		}
		an.add(effect.Of(effect.Send), "egress.as.send", span2(st, i, 1), "SEND: sends an email or message as you")
	}
}

func verbPower(an *asAn, st []asToken, i, n int, app *asApp) {
	an.add(effect.Of(effect.Power), "as.power", span2(st, i, n), "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac")
}

func verbQuit(an *asAn, st []asToken, i, n int, app *asApp) {
	if n == 1 && an.loopBulk() {
		an.add(effect.Of(effect.Quit, effect.Bulk), "as.quit-all", span2(st, i, 1), "QUIT ALL APPS: quits applications in a loop")
		return
	}
	if n == 1 && isHead(st, i) {
		an.add(effect.Of(effect.Quit), "as.quit", span2(st, i, 1), "QUIT: quits an application")
	}
}

func verbKeystroke(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := span2(st, i, 1)
	an.add(effect.Of(effect.Input), "as.keystroke", sp, "KEYSTROKE: Simulates keyboard input")
	an.settingsInput(sp)
	an.keyCombo(st, i, app)
	// Typed after Command-Space: the start of a terminal's name launches it.
	if an.spotlight && i+1 < len(st) && st[i+1].kind == asString && !hasWord(st[i+1:], kwUsing) {
		if typed := strings.ToLower(strings.TrimSpace(an.str(st[i+1]))); len(typed) >= 3 {
			for name := range facts.Terminals {
				if strings.HasPrefix(name, typed) {
					an.terminal = true
					an.spotlight = false
					an.front, an.frontTerminal = name, true
					an.add(effect.Of(effect.Launch, effect.Terminal), "as.spotlight-terminal", sp, "KEYSTROKE: opens a terminal through Spotlight; what is typed next runs as a command")
					return
				}
			}
		}
	}
	// A Command shortcut can bring another application to the front
	// (Command-Tab, Command-Space …): which one is no longer known.
	if an.front != "" && hasWord(st[i+1:], kwUsing) && an.hasText(st[i+1:], "command") {
		an.front, an.frontTerminal = "", false
	}
	// Text typed while a terminal is in use runs as a command; a key
	// combination (keystroke "t" using command down) types nothing.
	if i+1 < len(st) && !hasWord(st[i+1:], kwUsing) {
		switch {
		case scriptRunners[strings.ToLower(an.front)]:
			// Typed into a script editor: code it runs with Command-R or
			// its Run button, rated as run script of that text.
			an.typedIntoRunner(st, i+1, sp, an.front)
		case an.front != "" && !an.frontTerminal:
			// Typed into an application the script brought to the front
			// (a text editor, a code editor's palette): keys, not shell.
		case an.frontTerminal || an.front == "" && an.terminal:
			an.typedIntoTerminal(st, i+1, sp)
		default:
			an.typedUnknown(st, i+1, sp)
		}
	}
}

// scriptRunners are the applications that run the AppleScript typed into
// their document (Command-R, the Run button).
var scriptRunners = map[string]bool{"script editor": true, "script debugger": true, "applescript editor": true}

// typedIntoRunner rates text typed into a script editor as the code it
// is; text computed at run time is code Airlock cannot see.
func (an *asAn) typedIntoRunner(st []asToken, from int, sp Span, runner string) {
	variants, whole := an.template(st[from:], 0)
	if whole {
		an.add(effect.Of(effect.RunUnseen), "as.typed-script", sp, "CODE: puts code computed at run time into %s, which runs it", runner)
		return
	}
	for _, c := range variants {
		if strings.Contains(c, rate.HoleUnquoted) || strings.Contains(c, rate.HoleQuoted) {
			an.add(effect.Of(effect.RunUnseen), "as.typed-script", sp, "CODE: puts code computed at run time into %s, which runs it", runner)
			continue
		}
		an.v.Merge(appleScriptAt(c, an.env, an.depth+1), &sp)
	}
}

// uiValue rates set value of <a UI element> to <text>: text put into
// another application's window, as if typed there.
func (an *asAn) uiValue(st []asToken, to int) {
	sp := stmtSpan(st)
	proc := ""
	for k := 1; k+1 < to; k++ {
		if st[k].kw == kwProcess && st[k+1].kind == asString {
			proc = an.str(st[k+1])
		}
	}
	for f := len(an.stack) - 1; f >= 0 && proc == ""; f-- {
		proc = an.stack[f].proc
	}
	an.add(effect.Of(effect.Input), "as.set-value", sp, "SET VALUE: puts text into a window, as if typed")
	switch {
	case scriptRunners[strings.ToLower(proc)]:
		an.typedIntoRunner(st, to+1, sp, proc)
	case facts.IsTerminal(proc):
		an.typedIntoTerminal(st, to+1, sp)
	case isSettingsApp(proc):
		an.settingsUI = true
		an.settingsInput(sp)
	}
}

// typedUnknown rates text typed where the script says nothing of which
// application is in front: only what reads as a destructive command
// counts (prose is not shell), at Dangerous.
func (an *asAn) typedUnknown(st []asToken, from int, sp Span) {
	if variants, whole := an.template(st[from:], 0); !whole {
		// Typed where no terminal is seen: only what reads as a
		// destructive command counts (prose is not shell).
		for _, c := range variants {
			var w Verdict
			an.shellInto(&w, c, sp)
			if w.Level >= level.Destructive {
				an.add(effect.Of(effect.Input, effect.Terminal), "as.typed-command", sp, "KEYSTROKE: types what reads as a destructive shell command (%s)", rate.Display(c))
			}
		}
	}
}

// noteFront notes the application a statement brings to the front:
// activate (of the application told, or named), or a process set
// frontmost. Text typed after goes to it.
func (an *asAn) noteFront(st []asToken, i int, app *asApp) {
	name := ""
	for j := i + 1; j+1 < len(st) && j < i+4; j++ {
		if (st[j].kw == kwApplication || st[j].kw == kwApp || st[j].kw == kwProcess) && st[j+1].kind == asString {
			name = an.str(st[j+1])
		}
	}
	if name == "" {
		for j := 0; j+1 < len(st) && j < i; j++ {
			if st[j].kw == kwProcess && st[j+1].kind == asString {
				name = an.str(st[j+1])
			}
		}
	}
	if name == "" && app != nil && !app.dynamic {
		name = app.name
		if app.known != nil {
			name = app.known.Title
		}
	}
	if name == "" || strings.EqualFold(name, "System Events") {
		return
	}
	an.front, an.frontTerminal = name, facts.IsTerminal(name)
}

func verbKey(an *asAn, st []asToken, i, n int, app *asApp) {
	if an.front != "" && hasWord(st[i+1:], kwUsing) && an.hasText(st[i+1:], "command") {
		an.front, an.frontTerminal = "", false // Command-Tab …: the front is not known
	}
	an.add(effect.Of(effect.Input), "as.keycode", span2(st, i, n), "KEY CODE: Simulates key presses")
	an.settingsInput(span2(st, i, n))
	an.keyCombo(st, i, app)
}

// isSettingsApp reports the name of the app whose window changes the
// computer's settings, security among them.
func isSettingsApp(s string) bool {
	s = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s), ".app"))
	return s == "system settings" || s == "system preferences"
}

// settingsInput rates input that lands in the settings app's window: which
// setting it changes (the firewall, a privacy permission) is not known.
func (an *asAn) settingsInput(sp Span) {
	if an.settingsUI || isSettingsApp(an.front) {
		an.add(effect.Of(effect.Setting, effect.Session), "as.settings-ui", sp, "INPUT: clicks or types into System Settings: changes a setting of the computer (security ones too), which one cannot be told")
	}
}

func verbClick(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := span2(st, i, 1)
	an.add(effect.Of(effect.Input), "as.click", sp, "CLICK: Simulates a mouse click")
	an.settingsInput(sp)
	an.menuLabels(st[i+1:], sp)
}

func verbPerform(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := span2(st, i, n)
	an.add(effect.Of(effect.Input), "as.perform", sp, "PERFORM: Triggers an interface action")
	an.settingsInput(sp)
	an.menuLabels(st[i+n:], sp)
}

func verbExecute(an *asAn, st []asToken, i, n int, app *asApp) {
	for _, t := range st[i:] {
		if t.kw == kwJavascript {
			an.add(effect.Of(effect.RunUnseen), "as.javascript", span2(st, i, 1), "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session")
			return
		}
	}
	if isHead(st, i) {
		an.add(effect.Of(effect.RunUnseen), "as.execute", span2(st, i, 1), "EXECUTE: runs something in %s", appTitle(app))
		for _, t := range st[i+1:] {
			if t.kind == asString && codeDeletes(an.str(t)) {
				an.add(effect.Of(effect.Remove), "as.execute-code", span2(st, i, 1), "EXECUTE: the code it runs deletes files (%s)", rate.Display(an.str(t)))
			}
		}
	}
}

func verbAdminBare(an *asAn, st []asToken, i, n int, app *asApp) {
	if i > 0 && (st[i-1].kw == kwWith || st[i-1].kw == kwWithout) {
		return // the row of its own, or none asked
	}
	if i+n < len(st) && st[i+n].kind == asWord && an.text(st[i+n]) == "false" {
		return // administrator privileges false
	}
	an.add(effect.Of(effect.Admin, effect.Session), "as.admin", span2(st, i, n), "ADMIN: runs with administrator privileges (as root): sudo, by AppleScript")
}

func verbDialog(an *asAn, st []asToken, i, n int, app *asApp) {
	for j := i + 2; j+1 < len(st); j++ {
		if st[j].kw == kwHidden && st[j+1].kw == kwAnswer && (j == 0 || st[j-1].kw != kwWithout) {
			an.add(effect.Of(effect.ReadSecret), "secret.as.password-prompt", span2(st, i, n), "PASSWORD PROMPT: asks for hidden input (a password) in a dialog that can imitate the system: possible phishing")
			return
		}
	}
}

// verbReplacingGiven rates the labelled form of with replacing: given
// «class alrp»:true (replacing:yes).
func verbReplacingGiven(an *asAn, st []asToken, i, n int, app *asApp) {
	if k := i + n; k+1 < len(st) && st[k].isOp(':') && st[k+1].kind == asWord {
		if v := an.text(st[k+1]); v == "true" || v == "yes" {
			an.add(effect.Of(effect.Overwrite), "as.replacing", span2(st, i, n+2), "REPLACE: overwrites existing items of the same name")
		}
	}
}

func verbSetEOF(an *asAn, st []asToken, i, n int, app *asApp) {
	// set eof f to 0 then write: the usual way to overwrite a file. With
	// nothing written, the file is emptied.
	if an.writesFile() {
		an.add(effect.Of(effect.Overwrite), "as.set-eof", span2(st, i, n), "OVERWRITE: set eof cuts a file's contents before writing it anew")
		return
	}
	an.add(effect.Of(effect.Remove), "as.set-eof", span2(st, i, n), "TRUNCATE: set eof empties a file and nothing is written back")
}

func verbClipboard(an *asAn, st []asToken, i, n int, app *asApp) {
	an.add(effect.Of(effect.Egress), "egress.as.clipboard", span2(st, i, n), "CLIPBOARD: replaces the clipboard")
	if k := i + n; k+1 < len(st) && st[k].kw == kwTo && st[k+1].kind == asString {
		an.clipboard = an.str(st[k+1])
	}
}

func verbMake(an *asAn, st []asToken, i, n int, app *asApp) {
	if n == 1 && !(i+2 < len(st) && st[i+2].kw == kwLogin || i+1 < len(st) && st[i+1].kw == kwLogin) {
		if an.makesFile(st, i+1, app) {
			// Finder and System Events never make a file over an existing
			// one: an empty new file loses and holds nothing, like a new
			// folder; one made with data is a file written.
			if hasWord(st[i+1:], kwContents) || an.hasText(st[i+1:], "data") {
				an.add(effect.Of(effect.Overwrite), "as.make-file", span2(st, i, 1), "MAKE: writes a new file on disk")
			} else {
				an.add(effect.Of(effect.Create), "as.make-file", span2(st, i, 1), "MAKE: creates a new, empty file")
			}
		} else {
			an.add(effect.Of(effect.Create), "as.make", span2(st, i, 1), "MAKE: creates a new %s", an.nextNoun(st, i+1))
		}
	}
	makeDetails(an, st, i, n, app)
}

// aliasTo rates make new alias file … to X (the Finder) and make new alias
// … to X (System Events): a file that stands for X, under the alias's
// name (with properties {name: …}, or X's name and " alias"), which an
// app given it (open, Quick Look, an attachment) follows to X, outside
// every sandbox: a secret's alias is the secret under a name that may say
// nothing, checked as a copy of it is (secretItems).
func (an *asAn) aliasTo(st []asToken, i int, app *asApp) {
	if app == nil || app.known == nil || app.known.Title != "Finder" && app.known.Title != "System Events" {
		return
	}
	head := st[i+1 : min(len(st), i+4)]
	if !hasWord(head, kwAlias) {
		return
	}
	j := ownTo(st, i)
	if j < 0 || j+1 >= len(st) {
		return
	}
	target := st[j+1:]
	target = target[:exprEnd(target)]
	name := ""
	for k := i + 1; k+2 < len(st); k++ {
		if st[k].kind == asWord && st[k].kw == kwName && st[k+1].isOp(':') && st[k+2].kind == asString {
			name = an.str(st[k+2])
		}
	}
	an.secretItems(target, tokSpan(st[i]), func(old string) string {
		if name != "" {
			return name
		}
		return old + " alias"
	})
}

// makesFile reports `make [new] file …` (a file, text file, property list
// file …) outside the applications whose "file" is no file on disk (a
// Calendar file alarm).
func (an *asAn) makesFile(st []asToken, j int, app *asApp) bool {
	if app != nil && app.known != nil && app.known.Title != "Finder" && app.known.Title != "System Events" {
		return false
	}
	for k := j; k < len(st) && k < j+4; k++ {
		t := st[k]
		if t.kind != asWord {
			return false
		}
		switch {
		case t.kw == kwFile:
			return k+1 >= len(st) || st[k+1].kw != kwAlarm
		case t.kw == kwNew || t.kw == kwA || t.kw == kwThe || an.text(t) == "text" || an.text(t) == "property" || an.text(t) == "list":
			continue
		}
		return false
	}
	return false
}

func verbWrite(an *asAn, st []asToken, i, n int, app *asApp) {
	if i+1 < len(st) && st[i+1].kw == kwText {
		return
	}
	an.add(effect.Of(effect.Overwrite), "as.write", span2(st, i, 1), "WRITE: writes to a file")
	an.pathArgs(st[i+1:], true)
}

// verbOpenForAccess rates open for access: with write permission it
// creates the file or opens it to be written, a file write.
func verbOpenForAccess(an *asAn, st []asToken, i, n int, app *asApp) {
	write := hasWordSeq(st[i+n:], kwWrite, kwPermission) && !hasWordSeq(st[i+n:], kwWithout, kwWrite)
	if write {
		an.add(effect.Of(effect.Overwrite), "as.write", span2(st, i, n), "WRITE: opens a file to write it (creating it if it does not exist)")
	}
	an.pathArgs(st[i+n:], write)
}

// verbSave rates save: a document written to its file, or to the file
// or folder named after in/as.
func verbSave(an *asAn, st []asToken, i, n int, app *asApp) {
	an.add(effect.Of(effect.Overwrite), "as.save", span2(st, i, n), "SAVE: writes a document to a file")
	an.pathArgs(st[i+n:], true)
}

func verbRead(an *asAn, st []asToken, i, n int, app *asApp) {
	an.pathArgs(st[i+1:], false)
}

// verbDataFile rates the property list or XML file System Events reads
// for the script (property list file "…", XML file "…"): the app reads it
// outside every sandbox, so a secret there is read (a write to it is
// setObject's).
func verbDataFile(an *asAn, st []asToken, i, n int, app *asApp) {
	rest := st[i+n:]
	an.pathArgs(rest[:exprEnd(rest)], false)
	an.handedPath(rest[:exprEnd(rest)]) // System Events reads it (handed.go)
}

func verbRun(an *asAn, st []asToken, i, n int, app *asApp) {
	if n == 1 && isHead(st, i) && app != nil && app.known != nil && app.known.Title == "Shortcuts" && (i+1 >= len(st) || st[i+1].kw != kwScript) {
		an.add(effect.Of(effect.RunUnseen), "as.shortcut", span2(st, i, 1), "SHORTCUT: runs a shortcut whose actions cannot be inspected")
		return
	}
	if n != 1 || !isHead(st, i) || i+1 >= len(st) || st[i+1].kw == kwScript {
		return
	}
	sp := span2(st, i, 1)
	switch {
	case hasWord(st[i+1:min(len(st), i+4)], kwShortcut) || app != nil && app.known != nil && app.known.Title == "Shortcuts":
		an.add(effect.Of(effect.RunUnseen), "as.shortcut", sp, "SHORTCUT: runs a shortcut whose actions cannot be inspected")
	case app != nil && (app.dynamic || app.known == nil):
		an.add(effect.Of(effect.Unknown), "as.run", sp, "RUN: runs something inside %s, which Airlock does not know", appTitle(app))
	}
}

func verbAttach(an *asAn, st []asToken, i, n int, app *asApp) {
	if isHead(st, i) && hasWord(st[i:], kwFolder) {
		an.add(effect.Of(effect.Persist), "as.folder-action", span2(st, i, n), "PERSISTENCE: attaches a Folder Action script that runs whenever the folder changes")
	}
}

// makeDetails rates what `make` makes: a property list at a persistence
// place, a web page, a Mail rule, a Folder Action, a Script Editor
// document's code, a file alarm.
func makeDetails(an *asAn, st []asToken, i, n int, app *asApp) {
	// make new attachment with properties {file name: …}: the file is
	// read (by Mail, outside every sandbox) and goes with the message;
	// anything else made at a path is written there (make new property
	// list file at "~/Library/LaunchAgents/…").
	attachment := an.hasText(st[i+1:min(len(st), i+4)], "attachment")
	an.pathArgs(st[i+1:], !attachment)
	an.handedData(st, i)
	for k := i + 1; attachment && k+3 < len(st); k++ {
		// {file name:(POSIX file (POSIX path of (path to home folder) &
		// ".netrc"))}: the path the value folds to, which the record's
		// other words keep pathArgs from folding.
		if st[k].kw == kwFile && st[k+1].kw == kwName && st[k+2].isOp(':') {
			val := st[k+3:]
			if p := an.foldPath(val[:exprEnd(val)], 0); p != "" {
				an.pathLit(p, tokSpan(st[k+3]), false, false)
			}
			an.handedFile(val[:exprEnd(val)])
		}
	}
	for j := i + 1; j+1 < len(st) && j < i+6; j++ {
		if st[j].kind == asWord && st[j].kw == kwAt {
			// at folder ((path to library folder as text) & "LaunchAgents")
			if p := an.foldPath(st[j+1:], 0); p != "" {
				an.pathLit(p, tokSpan(st[j+1]), true, false)
			}
			break
		}
	}
	an.urlProps(st[i+1:], span2(st, i, 1))
	an.aliasTo(st, i, app)
	if app != nil && app.known != nil && app.known.Title == "Mail" && hasWord(st[i:min(len(st), i+4)], kwRule) {
		if hasWord(st, kwForward) || hasWord(st, kwRedirect) {
			an.add(effect.Of(effect.Persist), "as.mail-rule", span2(st, i, 1), "MAIL RULE: forwards every incoming message from now on (persistent exfiltration)")
		} else {
			an.add(effect.Of(effect.Change, effect.Bulk), "as.mail-rule", span2(st, i, 1), "MAIL RULE: acts on every incoming message from now on")
		}
	}
	if an.loopBulk() && hasWord(st[i:min(len(st), i+5)], kwRecipient) {
		an.bulkRecipients = true
	}
	if hasWordSeq(st[i:min(len(st), i+5)], kwFolder, kwAction) {
		an.add(effect.Of(effect.Persist), "as.folder-action", span2(st, i, 1), "PERSISTENCE: makes a Folder Action whose script runs whenever the folder changes")
	}
	if app != nil && app.known != nil && app.known.Title == "Script Editor" {
		// make new document with properties {contents:"…"}: code to run.
		for k := i + 1; k+2 < len(st); k++ {
			if st[k].kw == kwContents && st[k+1].op == ':' && st[k+2].kind == asString {
				sp := span2(st, k+2, 1)
				an.v.Merge(appleScriptAt(an.str(st[k+2]), an.env, an.depth+1), &sp)
			}
		}
	}
	for j := i + 1; j+1 < len(st) && j < i+5; j++ {
		if st[j].kw == kwFile && st[j+1].kw == kwAlarm || st[j].kw == kwOpen && st[j+1].kw == kwFile {
			// Scheduled to run after this action is over, as at(1): persistence.
			an.add(effect.Of(effect.Persist), "as.file-alarm", span2(st, i, 1), "ALARM: makes a calendar alarm that opens a file (runs it) when the event fires, after this action is over (persistence)")
			return
		}
	}
}

func (an *asAn) nextNoun(st []asToken, j int) string {
	for ; j < len(st); j++ {
		if st[j].kind == asWord && st[j].kw != kwNew && st[j].kw != kwA && st[j].kw != kwThe {
			return an.text(st[j])
		}
	}
	return "object"
}

func appTitle(app *asApp) string {
	switch {
	case app == nil:
		return "the script"
	case app.known != nil:
		return app.known.Title
	}
	return app.name
}

// mayBePath reports whether s has a byte of a path, / : or ~ (what
// strings.ContainsAny(s, "/:~") says, without building its set each
// time: pathArgs asks for every literal of every path argument).
func mayBePath(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == ':' || c == '~' {
			return true
		}
	}
	return false
}

// pathArgs rates literal paths (POSIX file "…", "…") in a read or write.
func (an *asAn) pathArgs(st []asToken, write bool) {
	// Each literal path, and where it stands, as it is found. A literal
	// that is no path, or the same path at the same place as the one
	// before (one variable's definitions often fold to the same path),
	// adds nothing.
	var last struct {
		s    string
		sp   Span
		tail bool // it follows an &: the end of a path computed at run time
	}
	seen := false
	lit := func(s string, sp Span, tail bool) {
		if !mayBePath(s) {
			return // a name ("Screenshots"), not a path
		}
		if seen && s == last.s && sp == last.sp && tail == last.tail {
			return
		}
		seen, last.s, last.sp, last.tail = true, s, sp, tail
		an.pathLit(s, sp, write, tail)
	}
	for k, t := range st {
		switch t.kind {
		case asString:
			lit(an.str(t), tokSpan(t), k > 0 && st[k-1].isOp('&'))
		case asWord, asVar:
			// open for access f / write x to f: follow the variable one step.
			for d := an.firstDef(an.name(t)); d >= 0; d = an.defList[d].next {
				expr := an.defList[d].expr
				for j, x := range expr {
					if x.kind == asString {
						lit(an.str(x), tokSpan(x), j > 0 && expr[j-1].isOp('&'))
					}
				}
			}
		}
	}
	// Paths built from path to … anchors: (path to home folder as text) & ".zshrc".
	for _, t := range st {
		if (t.kind == asWord || t.kind == asVar) && an.isVar(an.name(t)) {
			for d := an.firstDef(an.name(t)); d >= 0; d = an.defList[d].next {
				if p := an.foldDef(d); p != "" {
					lit(p, tokSpan(t), false)
				}
			}
		}
	}
	if p := an.foldPath(st, 0); p != "" && len(st) > 0 {
		lit(p, tokSpan(st[0]), false)
	}
}

// pathLit rates the literal path s found at sp.
func (an *asAn) pathLit(s string, sp Span, write, tail bool) {
	pv := an.pathVerdict(s, write, tail)
	for _, f := range pv.findings {
		an.finding(f, sp)
	}
	switch z := pv.zone; {
	case write && z.Persist != "":
		an.add(effect.Of(effect.Overwrite, effect.Planted), "as.persistence", sp, "writes %s: %s runs code automatically (persistence)", rate.Display(s), z.Persist)
	case write && (z.Kind == rate.ZoneSystem || z.Kind == rate.ZoneCredential):
		an.add(effect.Of(effect.Overwrite, effect.Planted), "as.protected-write", sp, "writes %s, inside %s", rate.Display(s), z.Detail)
	case !write:
		if what, ok := z.SecretRead(); ok {
			an.add(effect.Of(effect.ReadSecret), "secret.as.read", sp, "reads %s, inside %s", rate.Display(s), what)
		}
	}
}

// pathVerdict is what pathArgs finds of one literal path, whatever its
// place: its zone and the guard's findings.
type pathVerdict struct {
	zone     rate.Zone
	findings []rate.Finding
}

type pathVerdictKey struct {
	s           string
	write, tail bool
}

// pathVerdict works out what pathArgs finds of the literal s, once per
// analysis: a script names the same few paths again and again (a loop
// unrolled, a block pasted many times).
func (an *asAn) pathVerdict(s string, write, tail bool) *pathVerdict {
	key := pathVerdictKey{s, write, tail}
	if pv, ok := an.paths[key]; ok {
		return pv
	}
	p := s
	guarded := p // HFS paths are read by the guard itself
	switch {
	case !strings.Contains(p, ":") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~"):
	case tail:
		// (path to documents folder as text) & "Archive:": the end of an
		// HFS path, whose first name is a folder, not the volume
		// HFSToPOSIX takes it for ("Archive:" is no whole disk). It is
		// read as a POSIX fragment is, below the home.
		p = strings.ReplaceAll(strings.TrimPrefix(p, ":"), ":", "/")
		if !strings.Contains(p, "/") {
			p += "/"
		}
		guarded = p
	default:
		p = rate.HFSToPOSIX(p)
	}
	z := an.classify(p)
	if z.Kind == rate.ZoneNormal && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && strings.Contains(p, "/") {
		// (path to home folder as text) & "Library/LaunchAgents/x.plist":
		// a fragment under the home.
		z = an.classify("~/" + strings.TrimPrefix(p, "/"))
		guarded = "~/" + strings.TrimPrefix(p, "/")
	}
	u := rate.UseRead
	if write {
		u = rate.UseWrite
	}
	pv := &pathVerdict{zone: z, findings: rate.GuardScriptTail(an.env, guarded, u, tail)}
	if an.paths == nil {
		an.paths = map[pathVerdictKey]*pathVerdict{}
	}
	an.paths[key] = pv
	return pv
}

// verbDoShellScript rates `do shell script <expr>`: Dangerous at least, then
// the command itself, parsed, and Destructive when it runs one of seed
// 000's programs (shellFloor), whatever the parse says of it. A command
// computed at run time is Destructive: nothing can be known of it.
func verbDoShellScript(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := stmtSpan(st[i:])
	an.add(effect.Of(effect.Shell), "as.shell", span2(st, i, n), "SHELL COMMAND: Review carefully for dangerous operations")
	variants, whole := an.template(st[i+n:], 0)
	if whole {
		an.add(effect.Of(effect.Shell, effect.Computed), "as.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
		return
	}
	for _, cmd := range variants {
		an.shellInto(an.v, cmd, sp)
		if why, fx := shellFloorHit(cmd); why != "" {
			an.add(fx, "as.shell-destructive", sp, "DANGEROUS SHELL COMMAND: Contains destructive shell commands (%s)", why)
		}
	}
}

// verbSystemAttribute rates system attribute NAME, which reads an
// environment variable (or a Gestalt value): one whose name says it holds
// a secret, or one named at run time, is a secret read, as the shell's
// printenv NAME is; with nothing after it, it lists the variables' names.
func verbSystemAttribute(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := span2(st, i, n)
	rest := st[i+n:]
	if len(rest) == 0 || rest[0].kind == asOp && rest[0].op != '(' || rest[0].kind == asWord && !an.isVar(an.name(rest[0])) {
		return // system attribute: the names only
	}
	variants, whole := an.template(rest[:exprEnd(rest)], 0)
	if whole {
		an.add(effect.Of(effect.ReadNamedSecret), "secret.as.environment", sp, "SECRET: system attribute reads an environment variable named at run time, which may hold a token or key")
		return
	}
	for _, name := range variants {
		if rate.SecretVariable(name) {
			// Its value is all it gives back: the secret itself, as the
			// shell's printenv NAME prints it (ReadSecret there too).
			an.add(effect.Of(effect.ReadSecret).On(name), "secret.as.environment", sp, "SECRET: system attribute %s reads a variable that by its name holds a secret", rate.Display(name))
		}
	}
}

// verbPassword rates a password read from Keychain Scripting: a secret.
func verbPassword(an *asAn, st []asToken, i, n int, app *asApp) {
	if app != nil && app.known != nil && app.known.Title == "Keychain Scripting" {
		an.add(effect.Of(effect.ReadSecret), "secret.as.keychain", span2(st, i, n), "KEYCHAIN: reads a password from the Keychain")
	}
}

// verbDoScript is Terminal's do script (terminalText). Told to a script
// runner (Script Editor …), the text is AppleScript it runs; told to
// another application Airlock knows (InDesign, Photoshop …), a script in
// that application's own language, which is not analysed.
func verbDoScript(an *asAn, st []asToken, i, n int, app *asApp) {
	if app == nil || app.dynamic || app.known == nil || facts.IsTerminal(app.known.Title) {
		terminalText(an, st, i, n, "do script", "Terminal")
		return
	}
	sp := stmtSpan(st[i:])
	if !facts.ScriptRunners[strings.ToLower(app.known.Title)] {
		an.add(effect.Of(effect.RunUnseen), "as.do-script", span2(st, i, n), "SCRIPT: do script runs a script inside %s, which Airlock does not analyse", appTitle(app))
		return
	}
	an.add(effect.Of(effect.Run), "as.do-script", span2(st, i, n), "SCRIPT: %s runs script text", appTitle(app))
	variants, whole := an.template(st[i+n:], 0)
	if whole {
		an.add(effect.Of(effect.RunComputed), "as.run-script-computed", sp, "RUN SCRIPT: runs script text computed at run time: cannot tell what it does")
		return
	}
	for _, v := range variants {
		if an.depth+1 > rate.MaxDepth {
			an.add(effect.Of(effect.Unknown, effect.Computed), "as.too-deep", sp, "scripts nested more than %d deep: %s", rate.MaxDepth, rate.TooDeep)
			return
		}
		an.v.Merge(appleScriptAt(v, an.env, an.depth+1), &sp)
	}
}

// verbWriteText is iTerm's write text (terminalText).
func verbWriteText(an *asAn, st []asToken, i, n int, app *asApp) {
	terminalText(an, st, i, n, "write text", "iTerm")
}

// terminalText rates text typed into a live shell (Terminal's do script,
// iTerm's write text). The text is visible in the terminal as it runs, so a
// computed command is Dangerous rather than Destructive; literal commands
// are rated as shell.
func terminalText(an *asAn, st []asToken, i, n int, verb, appName string) {
	sp := stmtSpan(st[i:])
	an.add(effect.Of(effect.Run), "as.terminal", span2(st, i, n), "TERMINAL: %s runs a command in a live %s shell", verb, appName)
	if hasWordSeq(st[i+n:], kwDo, kwShell, kwScript) {
		an.add(effect.Of(effect.RunComputed), "as.terminal-shell-output", sp, "TERMINAL: runs the output of a shell command as a command")
	}
	variants, whole := an.template(st[i+n:], 0)
	if whole {
		// Nothing of the command is in the script: there is nothing to parse.
		an.add(effect.Of(effect.Input, effect.Terminal), "as.terminal-computed", sp, "TERMINAL: runs a command computed at run time in %s", appName)
		return
	}
	for _, cmd := range variants {
		an.shellInto(an.v, cmd, sp)
	}
}

// verbRunScript rates `run script`: a literal is analysed as AppleScript (or
// JavaScript with `in "JavaScript"`), anything else is not visible.
func verbRunScript(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := stmtSpan(st[i:])
	rest := st[i+n:]
	jsLang := false
	for j := 0; j+1 < len(rest); j++ {
		if rest[j].kw == kwIn && rest[j+1].kind == asString && strings.EqualFold(an.str(rest[j+1]), "javascript") {
			jsLang = true
		}
	}
	if len(rest) > 0 && rest[0].kind == asString && (len(rest) == 1 || rest[1].kind != asOp || rest[1].op != '&') {
		if an.depth+1 > rate.MaxDepth {
			an.add(effect.Of(effect.Unknown, effect.Computed), "as.too-deep", sp, "scripts nested more than %d deep: %s", rate.MaxDepth, rate.TooDeep)
			return
		}
		an.add(effect.Of(effect.Run), "as.run-script", span2(st, i, n), "RUN SCRIPT: runs script text")
		var inner Verdict
		if jsLang {
			inner = an.env.Languages().JXA(an.str(rest[0]), an.env, an.depth+1)
		} else {
			inner = appleScriptAt(an.str(rest[0]), an.env, an.depth+1)
		}
		an.v.Merge(inner, &sp)
		return
	}
	if len(rest) > 0 && rest[0].kind == asWord && (rest[0].kw == kwFile || rest[0].kw == kwAlias || rest[0].kw == kwPosix) {
		an.add(effect.Of(effect.RunUnseen), "as.run-script-file", sp, "RUN SCRIPT: runs a script file that is not analysed")
		return
	}
	an.add(effect.Of(effect.RunComputed), "as.run-script-computed", sp, "RUN SCRIPT: runs script text computed at run time: cannot tell what it does")
}

// typedIntoTerminal rates text typed with keystroke while a terminal is in
// use: it is a shell command by other means.
func (an *asAn) typedIntoTerminal(st []asToken, from int, sp Span) {
	variants, whole := an.template(st[from:], 0)
	an.add(effect.Of(effect.Input, effect.Terminal), "as.typed-command", sp, "TERMINAL: types text into a terminal window, where it runs as a command")
	if whole {
		return
	}
	for _, c := range variants {
		an.shellInto(an.v, c, sp)
	}
}

// hasWord reports the word k in st; k must be a named keyword (kwTo …).
func hasWord(st []asToken, k kwID) bool {
	for _, t := range st {
		if t.kind == asWord && t.kw == k {
			return true
		}
	}
	return false
}

// hasWordSeq reports the words ks, one after the other, in st.
func hasWordSeq(st []asToken, ks ...kwID) bool {
	for i := 0; i+len(ks) <= len(st); i++ {
		ok := true
		for k, w := range ks {
			if st[i+k].kind != asWord || st[i+k].kw != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// menuLabels rates the menu items and buttons a UI-scripting statement
// names: each literal, their concatenations, and prefixes ("Empty"); text
// in a whose/where filter or an if around the click by what it can match
// (contains "Trash" can be Empty Trash); and a menu item chosen by
// position or at run time, which could be any command.
func (an *asAn) menuLabels(st []asToken, sp Span) {
	var joined strings.Builder
	check := func(label string, mode byte) {
		if e, what, ok := filterRisk(label, mode); ok && e.Level() > level.Caution {
			an.add(e, "as.click-menu", sp, "CLICK: chooses %q through the interface: %s", rate.Display(label), what)
		}
	}
	// perform action "AXPress" of X: the target is X.
	target := st
	if len(target) > 2 && target[0].kind == asString && target[1].kw == kwOf {
		target = target[2:]
	}
	for len(target) > 0 && target[0].isOp('(') {
		target = target[1:]
	}
	if an.chosenAtRunTime(target) {
		an.add(effect.Of(effect.Unknown), "as.click-menu-positional", sp, "CLICK: chooses a menu item by its position or at run time: cannot tell which command it is")
	}
	// A target held in a variable (a loop over buttons or menu items) is
	// chosen by the conditions around the click.
	if len(target) > 0 && (target[0].kind == asWord || target[0].kind == asVar) && an.isVar(an.name(target[0])) {
		for _, f := range an.stack {
			an.filterLabels(f.cond, check)
		}
	}
	for k, t := range st {
		switch {
		case (t.kind == asWord || t.kind == asVar) && an.isVar(an.name(t)):
			an.varLabels(st, k, check)
		case t.kind == asWord && (t.kw == kwCharacter || t.kw == kwAscii || an.isSub(t)) && k+1 < len(st):
			an.spelledLabels(st, k, check)
		case t.kind == asString:
			check(an.str(t), an.filterMode(st, k))
			joined.WriteString(an.str(t))
		case t.isOp('&'):
			continue
		default:
			if joined.Len() > 0 && (k == 0 || st[k-1].kind == asString) {
				check(joined.String(), 'x')
				joined.Reset()
			}
		}
	}
	if joined.Len() > 0 {
		check(joined.String(), 'x')
	}
}

// varLabels checks the labels the variable st[k] can hold: its values,
// and any text its definitions name (item 2 of picks, where picks is a
// list).
func (an *asAn) varLabels(st []asToken, k int, check func(string, byte)) {
	vs, _ := an.template(st[k:k+1], 0)
	for _, v := range vs {
		if !strings.Contains(v, rate.HoleUnquoted) && !strings.Contains(v, rate.HoleQuoted) {
			check(v, an.filterMode(st, k))
		}
	}
	for d := an.firstDef(an.name(st[k])); d >= 0; d = an.defList[d].next {
		for _, x := range an.defList[d].expr {
			if x.kind == asString {
				check(an.str(x), 'x')
			}
		}
	}
}

// spelledLabels checks text spelled at run time from constants at st[k]:
// character id {…}, lbl().
func (an *asAn) spelledLabels(st []asToken, k int, check func(string, byte)) {
	e := st[k:]
	if e = e[:exprEnd(e)]; len(e) > 1 {
		if vs, whole := an.template(e, 0); !whole {
			for _, v := range vs {
				check(strings.ReplaceAll(v, rate.HoleUnquoted, ""), an.filterMode(st, k))
			}
		}
	}
}

// filterLabels checks the texts a condition compares with.
func (an *asAn) filterLabels(cond []asToken, check func(string, byte)) {
	for k, t := range cond {
		if t.kind == asString {
			check(an.str(t), an.filterMode(cond, k))
		}
	}
}

// filterMode reads how the text at st[k] is compared: 'c' contains, 'p'
// starts with, 's' ends with, 'n' anything but (is not, does not
// contain), 'x' exactly.
func (an *asAn) filterMode(st []asToken, k int) byte {
	w := func(j int) string {
		if j < 0 || j >= len(st) || st[j].kind != asWord {
			return ""
		}
		return an.text(st[j])
	}
	switch {
	case w(k-1) == "contain" && w(k-2) == "not", w(k-1) == "not" && w(k-2) == "is", w(k-1) == "contains" && w(k-2) == "not":
		return 'n'
	case w(k-1) == "contains", w(k-1) == "contain":
		return 'c'
	case w(k-1) == "with" && (w(k-2) == "starts" || w(k-2) == "begins" || w(k-2) == "start" || w(k-2) == "begin"):
		return 'p'
	case w(k-1) == "with" && (w(k-2) == "ends" || w(k-2) == "end"):
		return 's'
	}
	if k > 0 && st[k-1].kind == asOp && (an.text(st[k-1]) == "≠" || an.text(st[k-1]) == "!=" || an.text(st[k-1]) == "<>") {
		return 'n'
	}
	return 'x'
}

// hasText reports the word w in st.
func (an *asAn) hasText(st []asToken, w string) bool {
	for _, t := range st {
		if t.kind == asWord && an.text(t) == w {
			return true
		}
	}
	return false
}

// filterRisk says what choosing a label compared by mode can do: the
// worst command it can match; ok is false when it matches none that is
// risky.
func filterRisk(label string, mode byte) (e effect.Effect, why string, ok bool) {
	best, why, ok := facts.MenuItemEffect(label)
	if mode == 'x' {
		return best, why, ok
	}
	if mode == 'n' {
		return effect.Of(effect.Unknown), "a filter that excludes one label matches any other command", true
	}
	f := strings.ToLower(strings.TrimRight(strings.TrimSpace(label), ".…"))
	if len(f) < 3 {
		return effect.Of(effect.Unknown), "a filter this short matches many commands: cannot tell which", true
	}
	for _, l := range facts.RiskyMenuLabels {
		if mode == 'c' && strings.Contains(l, f) || mode == 'p' && strings.HasPrefix(l, f) || mode == 's' && strings.HasSuffix(l, f) {
			if e, w, hit := facts.MenuItemEffect(l); hit && (!ok || e.Level() > best.Level()) {
				best, why, ok = e, w+" (the filter matches "+l+")", true
			}
		}
	}
	return best, why, ok
}

// chosenAtRunTime reports a menu item reference (the target of a click)
// that does not name its item: menu item 3, menu item -1, last menu item,
// menu item n, or a variable looped over menu items, without a whose or
// where filter that names it.
func (an *asAn) chosenAtRunTime(target []asToken) bool {
	if an.hasText(target, "whose") || an.hasText(target, "where") {
		return false
	}
	if len(target) == 1 && (target[0].kind == asWord || target[0].kind == asVar) {
		// click mi, where mi loops over (menu items of …) or was set to one.
		for d := an.firstDef(an.name(target[0])); d >= 0; d = an.defList[d].next {
			if e := an.defList[d].expr; e != nil && !an.hasText(e, "whose") && !an.hasText(e, "where") {
				for k := 0; k+1 < len(e); k++ {
					if e[k].kw == kwMenu && (e[k+1].kw == kwItem || an.text(e[k+1]) == "items") {
						return true
					}
				}
			}
		}
		return false
	}
	for k := 0; k+2 < len(target); k++ {
		if target[k].kw != kwMenu || target[k+1].kw != kwItem {
			continue
		}
		if k > 0 && target[k-1].kind == asWord {
			switch an.text(target[k-1]) {
			case "first", "last", "middle", "some", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "front", "back":
				return true
			}
		}
		x := target[k+2:]
		switch {
		case x[0].kind == asString:
			return false
		case x[0].kind == asNumber || x[0].isOp('-'):
			return true
		}
		vs, _ := an.template(x[:exprEnd(x)], 0)
		for _, v := range vs {
			v = strings.TrimSpace(v)
			if strings.Contains(v, rate.HoleUnquoted) || strings.Contains(v, rate.HoleQuoted) {
				return true
			}
			if _, err := strconv.Atoi(v); err == nil {
				return true
			}
		}
		return false
	}
	return false
}

// keyCombo rates keyboard shortcuts with a fixed meaning: Command-Shift-
// Delete empties the Trash in the Finder, Command-Delete moves to the
// Trash, Command-Shift-Q (with Option: at once) logs out.
func (an *asAn) keyCombo(st []asToken, i int, app *asApp) {
	var keys []string
	computed := false
	switch {
	case st[i].kw == kwKey && i+2 < len(st) && st[i+1].kw == kwCode:
		keys, computed = an.keyValues(st[i+2:], true)
	case st[i].kw == kwKeystroke && i+1 < len(st):
		keys, computed = an.keyValues(st[i+1:], false)
	default:
		return
	}
	mods := map[string]bool{}
	addMods := func(ts []asToken) {
		for k := 0; k+1 < len(ts); k++ {
			if ts[k+1].kw == kwDown {
				mods[an.text(ts[k])] = true
			}
		}
	}
	addMods(st[i:])
	// using mods, where set mods to {command down, shift down}, or a
	// handler's parameter given them.
	var follow func(t asToken, depth int)
	follow = func(t asToken, depth int) {
		if depth > 3 || t.kind != asWord && t.kind != asVar {
			return
		}
		for d := an.firstDef(an.name(t)); d >= 0; d = an.defList[d].next {
			addMods(an.defList[d].expr)
			for _, x := range an.defList[d].expr {
				if an.name(x) != an.name(t) {
					follow(x, depth+1)
				}
			}
		}
	}
	for k := i; k+1 < len(st); k++ {
		if st[k].kw == kwUsing {
			follow(st[k+1], 0)
		}
	}
	sp := span2(st, i, 1)
	if computed && (mods["command"] || mods["control"]) {
		an.add(effect.Of(effect.Unknown), "as.shortcut-computed", sp, "KEYSTROKE: a shortcut whose key is computed at run time: cannot tell what it does")
	}
	if an.terminal && st[i].kw == kwKey && !mods["command"] && !mods["control"] {
		// Key codes typed into a terminal are a command by other means.
		var typed strings.Builder
		for _, k := range keys {
			if mods["shift"] && facts.Shifted[k] != "" {
				k = facts.Shifted[k]
			}
			if len(k) == 1 {
				typed.WriteString(k)
			}
		}
		an.add(effect.Of(effect.Input, effect.Terminal), "as.typed-command", sp, "TERMINAL: types key codes into a terminal window, where they run as a command")
		if c := typed.String(); strings.TrimSpace(c) != "" {
			an.shellInto(an.v, c, sp)
		}
	}
	for _, key := range keys {
		an.shortcut(key, mods, st, sp)
	}
}

// shortcut rates one key pressed with mods.
func (an *asAn) shortcut(key string, mods map[string]bool, st []asToken, sp Span) {
	if (key == " " || key == "space") && mods["command"] {
		an.spotlight = true // Command-Space: what is typed next launches an app
		return
	}
	switch {
	case key == "delete":
		an.deleteShortcut(mods, sp)
	case key == "q":
		an.quitShortcut(mods, sp)
	case key == "a" && mods["command"]:
		an.selectAll = true
	case key == "v" && mods["command"] && an.terminal && an.clipboard != "":
		// Paste into a terminal: the clipboard's text runs.
		var w Verdict
		an.shellInto(&w, an.clipboard, sp)
		an.v.Merge(w, &sp)
		an.add(effect.Of(effect.Input, effect.Terminal), "as.typed-command", sp, "TERMINAL: pastes the clipboard (%s) into a terminal window, where it runs", rate.Display(an.clipboard))
	case (key == "code:53" || key == "escape") && mods["command"] && mods["option"]:
		an.add(effect.Of(effect.Signal, effect.Forced), "as.shortcut-force-quit", sp, "KEYSTROKE: Command-Option-Escape opens Force Quit")
	}
}

// deleteShortcut rates Delete pressed with mods: in the Finder,
// Command-Shift-Delete empties the Trash and Command-Delete moves the
// selection (everything, after a Select All) to it; in a text editor
// Command-Delete deletes to the line start.
func (an *asAn) deleteShortcut(mods map[string]bool, sp Span) {
	switch {
	case mods["command"] && mods["shift"]:
		// Elsewhere than the Finder what it does is the front application's.
		e := effect.Of(effect.Unknown)
		if an.mentions("finder") {
			e = effect.Of(effect.Remove, effect.Bulk)
		}
		an.add(e, "as.shortcut-empty-trash", sp, "KEYSTROKE: Command-Shift-Delete empties the Trash in the Finder")
	case mods["command"] && an.selectAll && an.mentions("finder"):
		an.add(effect.Of(effect.Trash, effect.Bulk), "as.shortcut-trash-all", sp, "KEYSTROKE: Select All, then Command-Delete in the Finder: moves everything in the window to the Trash")
	case mods["command"] && an.mentions("finder"):
		an.add(effect.Of(effect.Trash), "as.shortcut-trash", sp, "KEYSTROKE: Command-Delete in the Finder moves the selection to the Trash")
	}
}

// quitShortcut rates Q pressed with mods: Command-Q quits the frontmost
// application (one after another, in a loop), Command-Shift-Q logs out,
// Command-Option-Q quits without asking.
func (an *asAn) quitShortcut(mods map[string]bool, sp Span) {
	switch {
	case mods["command"] && mods["shift"]:
		an.add(effect.Of(effect.Power), "as.shortcut-logout", sp, "KEYSTROKE: Command-Shift-Q logs out")
	case mods["command"] && mods["option"]:
		an.add(effect.Of(effect.Signal, effect.Forced), "as.shortcut-quit-all", sp, "KEYSTROKE: Command-Option-Q quits without asking")
	case mods["command"] && an.loopBulk():
		an.add(effect.Of(effect.Quit, effect.Bulk), "as.quit-all", sp, "QUIT ALL APPS: types Command-Q in a loop, quitting one application after another")
	case mods["command"]:
		an.add(effect.Of(effect.Quit), "as.shortcut-quit", sp, "KEYSTROKE: Command-Q quits the frontmost application")
	}
}

// mentions reports whether the script names w as a word or a string, or
// addresses that application by any spelling (application id …).
func (an *asAn) mentions(w string) bool {
	if m, ok := an.mentioned[w]; ok {
		return m
	}
	if an.mentioned == nil {
		an.mentioned = map[string]bool{}
	}
	m := an.mentionsScan(w)
	an.mentioned[w] = m
	return m
}

func (an *asAn) mentionsScan(w string) bool {
	for _, t := range an.lx.toks {
		if t.kind == asWord && an.text(t) == w || t.kind == asString && strings.EqualFold(an.str(t), w) {
			return true
		}
	}
	for _, a := range an.apps {
		if a.known != nil && strings.EqualFold(a.known.Title, w) {
			return true
		}
	}
	return false
}

// codeDeletes spots deletion in code of a language Airlock does not parse
// (Lua, Python, Ruby handed to an application or interpreter).
func codeDeletes(code string) bool {
	low := strings.ToLower(code)
	for _, k := range []string{"rm -rf", "rm -r", "rmtree", "os.remove", "unlink(", "rimraf", "fileutils.rm", "removeitematpath", "rmdir", "os.execute"} {
		if strings.Contains(low, k) {
			return true
		}
	}
	return false
}

// userDomain reports path to … from user domain at term, a part of st:
// the domain follows the term, which ends before from.
func (an *asAn) userDomain(st, term []asToken) bool {
	end := cap(st) - cap(term) + len(term)
	if end < 0 || end > len(st) {
		return true // not a part of st: taken for the home's, never an install folder
	}
	for k := end; k < len(st) && k < end+len(term)+4; k++ {
		if st[k].isOp('&') {
			break
		}
		if st[k].kw == kwUser || strings.EqualFold(an.text(st[k]), "user") {
			return true
		}
	}
	return false
}

// pathAnchors are the folders path to … names, as ~ paths.
var pathAnchors = map[string]string{
	"home": "~/", "library": "~/Library/", "desktop": "~/Desktop/", "documents": "~/Documents/",
	"downloads": "~/Downloads/", "preferences": "~/Library/Preferences/", "application": "~/Library/Application Support/",
	"scripts": "~/Library/Scripts/", "startup": "/", "system": "/System/", "temporary": "/tmp/", "launch": "~/Library/LaunchAgents/",
	// Where applications are installed: an app put there is taken for an
	// installed one (execute.appsInstalled); from user domain, the home's.
	"applications": "/Applications/", "utilities": "/Applications/Utilities/",
}

// foldDef is foldPath(an.defList[d].expr, 0), worked out once per
// definition: a variable set in many places is read in many more.
func (an *asAn) foldDef(d int32) string {
	def := &an.defList[d]
	if !def.folded {
		def.fold, def.folded = an.foldPath(def.expr, 0), true
	}
	return def.fold
}

// foldPath folds a path expression whose start is a path to … anchor:
// (path to home folder as text) & ".zshrc" is ~/.zshrc. It returns "" when
// the expression has no anchor.
func (an *asAn) foldPath(st []asToken, depth int) string {
	var room [128]byte
	b, ok := an.foldPathTo(room[:0], st, depth, false)
	if !ok {
		return "" // no text made: most expressions are no path
	}
	return string(b)
}

// foldPathTo is foldPath appending to b: it returns b and what foldPath
// returns appended, and whether that is a path (not ""); when it is not,
// b as it was. A variable's path is appended in place, not made apart.
// more says that more of the path follows st (st is a variable's
// definition, and the variable is followed by & …).
func (an *asAn) foldPathTo(b []byte, st []asToken, depth int, more bool) ([]byte, bool) {
	n0 := len(b)
	if depth > 3 {
		return b, false
	}
	st = unwrapSpec(st)
	anchored := false
	for rest := st[:exprEnd(st)]; rest != nil; {
		var term []asToken
		term, rest = nextConcat(rest)
		if p, ok := an.finderTerm(posixOf(term), more || rest != nil); ok {
			b = append(b, p...)
			anchored = true
			continue
		}
		for len(term) > 0 && (term[0].op == '(' || term[0].kw == kwPosix || term[0].kw == kwPath && len(term) > 1 && term[1].kw == kwOf || term[0].kw == kwOf || term[0].kw == kwFile) {
			term = term[1:]
		}
		switch {
		case len(term) == 0:
		case term[0].kind == asString:
			frag := an.str(term[0])
			if strings.Contains(frag, ":") && !strings.Contains(frag, "/") {
				frag = strings.ReplaceAll(frag, ":", "/")
			}
			b = append(b, strings.TrimPrefix(frag, "/")...)
		case term[0].kw == kwSystem && len(term) > 2 && term[1].kw == kwAttribute && term[2].kind == asString && an.str(term[2]) == "HOME":
			b = append(b, "~/"...)
			anchored = true
		case len(term) > 2 && strings.EqualFold(an.text(term[0]), "home") && strings.EqualFold(an.text(term[1]), "directory") && term[2].kw == kwOf:
			// home directory of (system info): the home folder's POSIX path.
			b = append(b, "~/"...)
			anchored = true
		case hasWordSeq(term, kwUser, kwName):
			b = append(b, "user"...) // /Users/<short user name>/…: the user's own home
		case term[0].kw == kwPath && len(term) > 2 && term[1].kw == kwTo:
			anchor, ok := pathAnchors[an.text(term[2])]
			if !ok {
				return b[:n0], false
			}
			switch {
			case !strings.HasPrefix(anchor, "~/"):
				if strings.HasPrefix(anchor, "/Applications/") && an.userDomain(st, term) {
					anchor = "~" + anchor // applications folder from user domain: ~/Applications
				}
			case hasWord(term, kwLocal) || hasWord(term, kwSystem) && term[2].kw != kwSystem:
				b = append(b, '/') // from local domain: /Library/…
				anchor = strings.TrimPrefix(anchor, "~/")
			}
			b = append(b, anchor...)
			anchored = true
		case term[0].kind == asWord || term[0].kind == asVar:
			inner := false // the first definition that folds to a path, appended
			for d := an.firstDef(an.name(term[0])); d >= 0 && !inner; d = an.defList[d].next {
				b, inner = an.foldPathTo(b, an.defList[d].expr, depth+1, more || rest != nil)
			}
			if !inner {
				return b[:n0], false
			}
			anchored = true
		default:
			return b[:n0], false
		}
	}
	if !anchored || len(b) == n0 {
		return b[:n0], false
	}
	return b, true
}

// unwrapSpec strips what only names the kind of a path's object around a
// parenthesised path: folder ((path to library folder as text) &
// "LaunchAgents") is the path inside.
func unwrapSpec(st []asToken) []asToken {
	for {
		k := 0
		for k < len(st) && st[k].kind == asWord && (st[k].kw == kwFolder || st[k].kw == kwFile || st[k].kw == kwAlias || st[k].kw == kwItem || st[k].kw == kwPosix || st[k].kw == kwThe) {
			k++
		}
		if k >= len(st) || !st[k].isOp('(') {
			return st
		}
		end := closeParen(st, k)
		if end < 0 || end != len(st)-1 && exprEnd(st[end+1:]) != 0 {
			return st
		}
		st = st[k+1 : end]
	}
}

// closeParen is the index of the ) that closes the ( at st[k], or -1.
func closeParen(st []asToken, k int) int {
	depth := 0
	for j := k; j < len(st); j++ {
		switch {
		case st[j].isOp('(') || st[j].isOp('{'):
			depth++
		case st[j].isOp(')') || st[j].isOp('}'):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// urlProps rates URLs set as properties (set URL of front document to …,
// make new tab with properties {URL:…}): javascript: and file: URLs run or
// open things.
func (an *asAn) urlProps(st []asToken, sp Span) {
	if !hasWord(st, kwUrl) {
		return
	}
	for _, t := range st {
		if t.kind != asString {
			continue
		}
		if scheme, ok := facts.URLScheme(strings.ToLower(strings.TrimSpace(an.str(t)))); ok {
			if e, why := facts.SchemeEffect(scheme); e.Level() > level.Caution {
				an.add(e, "as.url-property", sp, "URL: %s", why)
			}
		}
	}
}

// writesFile reports a write command anywhere in the script (not the
// "with write permission" of open for access).
func (an *asAn) writesFile() bool {
	if an.writes != 0 {
		return an.writes > 0
	}
	an.writes = -1
	toks := an.lx.toks
	for k, t := range toks {
		if t.kind == asWord && t.kw == kwWrite && (k+1 >= len(toks) || toks[k+1].kw != kwPermission) &&
			!(k+1 < len(toks) && toks[k+1].kind == asString && an.str(toks[k+1]) == "") { // write "" writes nothing back
			an.writes = 1
			return true
		}
	}
	return false
}

// homeFolders are the top-level folders of a home: deleting or moving one
// takes everything the person keeps there.
var homeFolders = set(`documents desktop downloads library pictures music movies applications public`)

// homeFolder reports an object that is itself a whole home folder: folder
// "Documents" of home, (path to documents folder), "/Users/me/Documents",
// home. Something inside one (file "a" of folder "Documents" of home) is not.
func (an *asAn) homeFolder(st []asToken) string {
	k := 0
	for k < len(st) && (st[k].kw == kwThe || st[k].op == '(') {
		k++
	}
	if k >= len(st) {
		return ""
	}
	t := st[k]
	switch {
	case t.kind == asWord && t.kw == kwHome && (k+1 >= len(st) || st[k+1].kw != kwOf):
		return "the home folder"
	case t.kind == asWord && t.kw == kwFolder && k+3 < len(st) && st[k+1].kind == asString && st[k+2].kw == kwOf && st[k+3].kw == kwHome:
		if homeFolders[strings.ToLower(an.str(st[k+1]))] {
			return "the home folder " + rate.Display(an.str(st[k+1]))
		}
	case t.kind == asWord && t.kw == kwPath && k+2 < len(st) && st[k+1].kw == kwTo:
		if st[k+2].kw == kwHome {
			return "the home folder"
		}
		if a, ok := pathAnchors[an.text(st[k+2])]; ok && homeFolders[strings.ToLower(strings.Trim(strings.TrimPrefix(a, "~/"), "/"))] {
			return "the home folder " + strings.TrimSuffix(a, "/")
		}
	default:
		// folder "/Users/me/Documents", POSIX file "~/Desktop", "…"
		for k < len(st) && (st[k].kw == kwFolder || st[k].kw == kwPosix || st[k].kw == kwFile || st[k].kw == kwAlias || st[k].kw == kwDisk || st[k].kw == kwItem) {
			k++
		}
		if k < len(st) && st[k].kind == asString && (k+1 >= len(st) || st[k+1].kw != kwOf) {
			p := an.str(st[k])
			if strings.Contains(p, ":") && !strings.HasPrefix(p, "/") {
				p = rate.HFSToPOSIX(p)
			}
			if z := an.classify(strings.TrimRight(p, "/")); z.HomeRoot {
				return rate.Display(an.str(st[k]))
			}
		}
	}
	return ""
}

// classify is classifyPath, remembered for the analysis.
func (an *asAn) classify(p string) rate.Zone {
	if z, ok := an.zones[p]; ok {
		return z
	}
	if an.zones == nil {
		an.zones = map[string]rate.Zone{}
	}
	z := rate.ClassifyPath(an.env, p)
	an.zones[p] = z
	return z
}
