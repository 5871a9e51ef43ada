// Package effect is the vocabulary every analyzer speaks: what an action
// does, as effects with their targets, whatever the language it is written
// in (the Action DSL, AppleScript, ASObjC, JXA, shell, the interpreters'
// inline code). An analyzer finds effects; the one calibration table
// (calibration.go) turns them into levels, so the same fact gets the same
// level in every language (DESIGN.md, "Risk levels"); the sandbox reads the
// same effects to decide what an action may reach (Needs).
package effect

import (
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Kind is what an effect does. The kinds are facts about the action, never
// levels: "removes data outside the Trash", not "destructive".
type Kind uint8

// The kinds of effect. Each has a base row in the calibration table
// (TestEveryKindCalibrated); its name is what the person reads.
const (
	_ Kind = iota

	// Reading.
	Read       // reads files or data and prints them
	ReadSecret // reads a credential, a hidden home file, or output that is a secret
	Lookup     // asks the network or the system a question without changing anything (DNS, a registry)

	// The person's files and data.
	Create    // makes a new file, folder or item
	Change    // changes an item in place, reversibly (a note, a document's text, a file's attributes)
	Overwrite // replaces what an existing file held
	Trash     // moves files or items to the Trash
	Remove    // removes data outside the Trash: unlink, truncate, empty the Trash, drop a table

	// Running code.
	Run         // runs code Airlock reads: what that code does is in the verdict as well
	Shell       // hands a command line to a shell (do shell script, doShellScript): seed 000's floor
	RunUnseen   // runs code Airlock cannot see: a script file, inline code not analysed, build scripts, packages
	RunComputed // runs code or a command built at run time: downloaded, decoded, spliced from text
	LoadCode    // makes other programs load code: LD_PRELOAD, PATH, variables that name programs

	// Leaving the computer.
	Fetch   // fetches from the network
	Egress  // carries data out: a URL opened, the clipboard, a lookup carrying data
	Send    // sends mail or messages as the person
	Upload  // sends files or data to another machine
	Connect // opens a connection that another machine drives, or that runs commands there

	// The session.
	Launch   // makes the OS start a program Airlock does not confine (Target: the file or handler)
	Input    // types, presses keys or clicks as if the person did
	AppState // changes an application's state: plays, makes an item, sets a property
	Quit     // quits applications
	Signal   // stops or signals processes
	Setting  // changes a setting of the computer: volume, defaults, network, the clock
	Power    // shuts down, restarts, logs out or sleeps

	// The system.
	Install     // installs, updates or removes software
	Admin       // runs as root or as another user
	Account     // creates or deletes accounts, grants administrator rights
	SecurityOff // turns off or weakens an OS security control
	Persist     // makes something run again later by itself
	Disk        // erases, formats or partitions a disk

	// What cannot be told.
	Unknown // what it does cannot be told: an unknown program, option, command or application, unparseable text
	Refused // the sanitiser refuses it: system paths, credential stores, invisible characters, sizes

	// Combinations (calibration.go's combos): found over a whole action.
	SecretOut // a secret it reads can leave: a secret read and a way out

	// fx-jxa (the lead merges the parts' blocks).
	HoldSecret // carries a secret written out in its own text (an API key, a token, a password): the agent has it already
	Show       // shows or says something to the person and changes nothing: a notification, speech, a Finder window
	Decode     // decodes data (base64, hex, compression): changes nothing, but what runs next may be what it decoded
	// The shell analyzer's block (fx-shell).
	ReadNamedSecret // reads what by its name may hold a secret: a variable called TOKEN, the whole environment
	Exhaust         // uses up the computer's processes, memory or disk until it must be restarted: a fork bomb

	nKinds // the number of kinds
)

var kindNames = [nKinds]string{
	Read: "read", ReadSecret: "secret read", Lookup: "lookup",
	Create: "create", Change: "change", Overwrite: "overwrite", Trash: "trash", Remove: "remove",
	Run: "run analysed code", Shell: "shell command", RunUnseen: "run unseen code", RunComputed: "run computed code", LoadCode: "load code",
	Fetch: "fetch", Egress: "egress", Send: "send as you", Upload: "upload", Connect: "connect",
	Launch: "launch", Input: "input", AppState: "app state", Quit: "quit", Signal: "signal", Setting: "setting", Power: "power",
	Install: "install", Admin: "admin", Account: "account", SecurityOff: "security off", Persist: "persistence", Disk: "disk",
	Unknown: "unknown", Refused: "refused", SecretOut: "secret out",
	HoldSecret: "secret held", Show: "show", Decode: "decode",
	ReadNamedSecret: "named secret read", Exhaust: "exhaust",
}

func (k Kind) String() string {
	if k > 0 && k < nKinds {
		return kindNames[k]
	}
	return "kind(?)"
}

// Kinds returns every kind, in order.
func Kinds() []Kind {
	out := make([]Kind, 0, nKinds-1)
	for k := Kind(1); k < nKinds; k++ {
		out = append(out, k)
	}
	return out
}

// MarshalText writes a kind by its name.
func (k Kind) MarshalText() ([]byte, error) {
	if k == 0 || k >= nKinds {
		return nil, fmt.Errorf("effect: no kind %d", k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a kind by its name (a history written by this
// version, read back).
func (k *Kind) UnmarshalText(b []byte) error {
	for i := Kind(1); i < nKinds; i++ {
		if kindNames[i] == string(b) {
			*k = i
			return nil
		}
	}
	return fmt.Errorf("effect: unknown kind %q", b)
}

// Mod is a fact about an effect that changes how much it matters: how many
// things it touches, whether its target is known, where it lands. Mods are
// bits; an effect has any number.
type Mod uint16

// The modifiers.
const (
	Bulk       Mod = 1 << iota // many items: a folder and all it holds, a pattern, a loop, everything of a kind
	Computed                   // its target is computed at run time, so it may be anything
	Forced                     // it overrides a safeguard: without asking, force, kill -9
	Session                    // its target is the session or the system itself: all processes, WindowServer, every user
	Terminal                   // it lands in a terminal or a script runner, where text runs as commands
	Runnable                   // its target is runnable: a program, a script, an app, a file the default handler runs
	Planted                    // its target is a place whose contents run later (hooks, start-up files, settings that name programs)
	Unconfined                 // another process runs it for the action — a server, a daemon, another session — outside the sandbox, with the person's full rights
	nMods      = iota
)

var modNames = [nMods]string{"bulk", "computed", "forced", "session", "terminal", "runnable", "planted", "unconfined"}

// String names the mods set, "bulk+computed"; "" for none.
func (m Mod) String() string {
	var b strings.Builder
	for i := 0; i < nMods; i++ {
		if m&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte('+')
			}
			b.WriteString(modNames[i])
		}
	}
	return b.String()
}

// Effect is one thing an action does, with what it acts on.
type Effect struct {
	Kind   Kind   `json:"kind"`
	Mods   Mod    `json:"-"`
	Target string `json:"target,omitempty"` // the path, program, address or application, when known; "" otherwise
}

// Of is an effect of kind k with mods m.
func Of(k Kind, m ...Mod) Effect {
	e := Effect{Kind: k}
	for _, x := range m {
		e.Mods |= x
	}
	return e
}

// On returns e acting on target.
func (e Effect) On(target string) Effect {
	e.Target = target
	return e
}

// With returns e with the mods m added.
func (e Effect) With(m Mod) Effect {
	e.Mods |= m
	return e
}

// Level is what e weighs: the calibration table's answer (calibration.go).
func (e Effect) Level() level.Level { return Calibrate(e.Kind, e.Mods) }

// String is "kind" or "kind (mods)", and " on target" when there is one.
func (e Effect) String() string {
	s := e.Kind.String()
	if e.Mods != 0 {
		s += " (" + e.Mods.String() + ")"
	}
	if e.Target != "" {
		s += " on " + e.Target
	}
	return s
}
