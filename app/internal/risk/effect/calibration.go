package effect

import "github.com/airlockhq/airlock/app/internal/level"

// The calibration table: the one place where effects become levels
// (DESIGN.md, "Risk levels and decisions"). Every analyzer reports effects
// and takes their level from here; nothing else in the analyzers names a
// level for an effect.
//
// An effect's level is the highest level among the rows of its kind whose
// mods it has all of: a kind's base row (no mods) is what the kind weighs
// alone, and a row with mods says which facts make it weigh more. Mods
// only ever raise: a fact that makes an effect lighter is a kind of its own
// (Create is not a lighter Overwrite).
var calibration = []struct {
	kind  Kind
	mods  Mod
	level level.Level
	why   string
}{
	{Read, 0, level.Safe, "reads and prints: no side effect (what it prints goes back to the agent: secrets are ReadSecret)"},
	{Read, Session, level.Caution, "reads the system's own files: what they say of the computer goes back to the agent"},
	{ReadSecret, 0, level.Dangerous, "a secret printed goes back to the agent"},
	{Lookup, 0, level.Safe, "asks without changing anything"},

	{Create, 0, level.Caution, "a new item: nothing the person had is lost"},
	{Create, Planted, level.Destructive, "persistence: code the person will run later (DESIGN.md)"},
	{Create, Bulk | Computed, level.Dangerous, "many items at places computed at run time"},
	{Create, Unconfined, level.Dangerous, "an application copies items outside the home and the roots, where no walk looks: what the sandbox hides among them is hidden there no longer"},
	{Change, 0, level.Caution, "changes in place, reversibly"},
	{Change, Bulk, level.Dangerous, "changes many items at once"},
	{Change, Planted, level.Destructive, "persistence: changes code the person will run later"},
	{Overwrite, 0, level.Dangerous, "seed 003's file_write: what the file held is replaced"},
	{Overwrite, Planted, level.Destructive, "persistence: code the person will run later"},
	{Trash, 0, level.Dangerous, "deletes go to the Trash: hard to reverse, not irreversible (DESIGN.md)"},
	{Trash, Bulk, level.Destructive, "bulk delete: many items at once (seed 000)"},
	{Remove, 0, level.Destructive, "seed 003: permanent removal of data"},

	{Run, 0, level.Caution, "runs code Airlock read: that code's own effects are rated too"},
	{Run, Computed, level.Destructive, "the code is computed at run time: it may be anything"},
	{Shell, 0, level.Dangerous, "seed 000: a shell command is never below dangerous"},
	{Shell, Computed, level.Destructive, "the command is computed at run time: it may be anything"},
	{RunUnseen, 0, level.Dangerous, "the auto-run contract: code Airlock cannot see"},
	{RunUnseen, Computed, level.Destructive, "the code is chosen at run time"},
	{RunComputed, 0, level.Destructive, "code built at run time (downloaded, decoded, spliced): it may be anything"},
	{LoadCode, 0, level.Dangerous, "other programs run code it chose"},
	{LoadCode, Planted, level.Destructive, "persistence: every program started later loads it"},

	{Fetch, 0, level.Caution, "fetches: the address is all that leaves"},
	{Fetch, Runnable, level.Destructive, "runs what it downloads"},
	{Egress, 0, level.Caution, "data leaves by a way the person can see (a page, the clipboard)"},
	{Send, 0, level.Dangerous, "sends as the person: cannot be recalled"},
	{Send, Bulk, level.Destructive, "bulk email: many recipients (seed 000)"},
	{Upload, 0, level.Dangerous, "files leave the computer"},
	{Connect, 0, level.Dangerous, "another machine drives the connection"},
	{Connect, Terminal, level.Destructive, "a shell handed to another machine"},

	{Launch, 0, level.Caution, "launches an installed app, or a viewer on an inert file"},
	{Launch, Computed, level.Dangerous, "what starts is computed at run time"},
	{Launch, Terminal, level.Dangerous, "a terminal or script runner starts"},
	{Launch, Runnable, level.Destructive, "the OS runs a program Airlock does not confine"},
	{Input, 0, level.Caution, "types or clicks: lands in the app in front (the context lock checks it)"},
	{Input, Terminal, level.Dangerous, "typed into a terminal, where it runs as commands"},
	{AppState, 0, level.Caution, "changes an application's state, reversibly"},
	{Quit, 0, level.Caution, "quits an application, which may ask to save"},
	{Quit, Bulk, level.Dangerous, "quits applications in a loop: unsaved work may be lost"},
	{Signal, 0, level.Caution, "asks processes to stop"},
	{Signal, Forced, level.Dangerous, "force-kills: unsaved work is lost"},
	{Signal, Session, level.Dangerous, "the session or every process of a user"},
	{Signal, Computed, level.Dangerous, "a process chosen at run time may be Airlock's own"},
	{Setting, 0, level.Caution, "changes a setting the person can change back"},
	{Setting, Session, level.Dangerous, "changes how the whole computer behaves"},
	{Power, 0, level.Dangerous, "shuts down, restarts, logs out or sleeps: unsaved work may be lost"},

	{Install, 0, level.Dangerous, "installs software: its code runs later"},
	{Admin, 0, level.Dangerous, "runs as root or another user"},
	{Account, 0, level.Destructive, "creates or deletes accounts, grants admin rights (DESIGN.md)"},
	{SecurityOff, 0, level.Destructive, "weakens an OS security control (DESIGN.md)"},
	{Persist, 0, level.Destructive, "persistence: runs again later by itself (DESIGN.md)"},
	{Disk, 0, level.Destructive, "erases, formats or partitions a disk"},

	{Unknown, 0, level.Dangerous, "fail closed: what cannot be told is at least dangerous (DESIGN.md)"},
	{Unknown, Computed, level.Destructive, "what runs is computed at run time: it may be anything"},
	{Refused, 0, level.Blocked, "the sanitiser refuses it: never offered for approval"},

	{SecretOut, 0, level.Destructive, "sending a secret anywhere (DESIGN.md)"},

	// fx-as (AppleScript and ASObjC).
	{Change, Forced, level.Dangerous, "changes without the undo the person would have: a move outside the Finder, with no way back"},
	{Admin, Session, level.Destructive, "root over the whole system: sudo, su, with administrator privileges (seed 000: sudo is critical)"},

	// fx-jxa (the lead merges the parts' blocks).
	{HoldSecret, 0, level.Caution, "the secret is the agent's already; only a way out makes it leave (SecretOut)"},
	{Show, 0, level.Safe, "shows or says: nothing changes, nothing leaves"},
	{Decode, 0, level.Safe, "decodes: nothing changes; code run from what it decoded is rated where it runs"},

	// The shell analyzer's block (fx-shell).
	{ReadNamedSecret, 0, level.Caution, "only a name says it may be a secret; one that leaves is SecretOut all the same"},
	{Change, Session, level.Dangerous, "changes items of the system itself, or the home folder as a whole"},
	{Change, Bulk | Session, level.Destructive, "changes everything under the home folder or the system (chmod -R, chown -R)"},
	{Change, Bulk | Computed, level.Destructive, "changes every item a pattern or computed value matches: it may be anything"},
	{Input, Computed, level.Dangerous, "lands in whatever app is in front, which no context lock checks: it may be a terminal"},
	{Exhaust, 0, level.Destructive, "the Mac stops answering and must be restarted: everything unsaved is lost"},

	// Hand-offs: a server, daemon or other session runs the code for the
	// action (tmux run-shell, screen -X exec, COPY … PROGRAM, emacsclient
	// --eval), where no sandbox of Airlock's confines it.
	{Run, Unconfined, level.Dangerous, "analysed code, but run outside the sandbox: if the analysis is wrong, nothing contains it"},
	{Shell, Unconfined, level.Dangerous, "a command line run outside the sandbox, with the person's full rights"},
	{RunUnseen, Unconfined, level.Destructive, "code no analyzer reads, run outside the sandbox: neither layer holds"},
}

// Calibrate is the level of an effect of kind k with mods m: the highest
// level among the calibration rows of k whose mods m has. A kind without a
// row (none: TestEveryKindCalibrated) would be Dangerous, failing closed.
func Calibrate(k Kind, m Mod) level.Level {
	if int(k) >= len(byKind) || len(byKind[k]) == 0 {
		return level.Dangerous
	}
	l := level.Safe
	for _, r := range byKind[k] {
		if r.mods&m == r.mods && r.level > l {
			l = r.level
		}
	}
	return l
}

// kindRow is a calibration row, filed under its kind.
type kindRow struct {
	mods  Mod
	level level.Level
}

// byKind is the calibration table filed by kind, so that weighing an
// effect reads its kind's few rows, not the whole table.
var byKind = func() [nKinds][]kindRow {
	var t [nKinds][]kindRow
	for _, r := range calibration {
		t[r.kind] = append(t[r.kind], kindRow{r.mods, r.level})
	}
	return t
}()

// Row is one row of the calibration table, for the README and the tests.
type Row struct {
	Kind  Kind
	Mods  Mod
	Level level.Level
	Why   string
}

// Table returns the calibration table's rows, in order.
func Table() []Row {
	out := make([]Row, len(calibration))
	for i, r := range calibration {
		out[i] = Row{r.kind, r.mods, r.level, r.why}
	}
	return out
}

// Ways out: the kinds by which data an action holds can leave the
// computer. A secret read together with any of them is SecretOut.
var waysOut = map[Kind]bool{Fetch: true, Egress: true, Send: true, Upload: true, Connect: true}

// WayOut reports whether an effect of kind k can carry data out.
func WayOut(k Kind) bool { return waysOut[k] }

// Network reports whether an effect of kind k reaches the network: what the
// sandbox gives the network to (Effect.ReachesNetwork says it of one
// effect).
func Network(k Kind) bool {
	switch k {
	case Fetch, Upload, Connect, Lookup:
		return true
	}
	return false
}

// ReachesNetwork reports whether e needs the network: a kind that does
// (Network), or data carried out by the network itself (Egress whose way is
// "network" or "dns", as the shell analyzer names them), not by the
// clipboard or a page the browser opens.
func (e Effect) ReachesNetwork() bool {
	return Network(e.Kind) || e.Kind == Egress && (e.Target == "network" || e.Target == "dns")
}
