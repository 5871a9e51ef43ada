package action

import (
	"strconv"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Kind is the kind of value an argument holds; it decides how the parser
// validates and canonicalises the argument.
type Kind int

const (
	KindPath     Kind = iota // a file system path; non-empty
	KindURL                  // a URL; non-empty (the sanitiser checks the scheme)
	KindText                 // free text; may be empty
	KindApp                  // an application name; non-empty
	KindNumber               // a decimal integer within [Min, Max]
	KindEnum                 // one of Enum, case-insensitive, canonically upper case
	KindDatetime             // "YYYY-MM-DD HH:MM" or "YYYY-MM-DD HH:MM:SS"
	KindEmails               // comma-separated bare addresses, canonically "a@x.com, b@y.com"
)

var kindNames = [...]string{"path", "url", "text", "app", "number", "enum", "datetime", "email list"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// ArgSpec describes one argument of a command.
type ArgSpec struct {
	Name     string
	Kind     Kind
	Optional bool     // may be left out; optional arguments are always trailing
	Heredoc  bool     // may be given as a heredoc (<<END ... END)
	Enum     []string // KindEnum: the allowed values, upper case
	Min, Max int      // KindNumber: the allowed range, inclusive

	// notBefore names an earlier datetime argument this one must not
	// precede (an event's end and its start).
	notBefore string
}

// Command describes one command of the DSL. Commands are shared; callers
// must not modify them.
type Command struct {
	Name    string      // canonical, upper case
	Group   string      // heading for documentation, e.g. "File operations"
	Args    []ArgSpec   // in order
	Class   level.Level // base risk class; the risk package may escalate it
	Help    string      // one line, for the model's prompt and the README
	Preview string      // template for Action.Preview, see preview.go
}

// Limits on untrusted input.
const (
	MaxPlanBytes    = 1 << 20    // plan text outside heredoc bodies, in bytes
	MaxHeredocBytes = 10_000_000 // one heredoc body, in bytes
	MaxActions      = 1000       // actions in one plan
	MaxStringRunes  = 10_000     // one argument that is not a heredoc, in characters
	MaxListItems    = 100        // addresses in one email list
)

// Group names, in documentation order.
const (
	groupFiles    = "File operations"
	groupDocs     = "Documents"
	groupComms    = "Communication"
	groupApps     = "App control"
	groupNotify   = "Notifications"
	groupSystem   = "System"
	groupShortcut = "Shortcuts"
	groupCalendar = "Calendar and reminders"
)

func argPath(name string) ArgSpec { return ArgSpec{Name: name, Kind: KindPath} }
func argText(name string) ArgSpec { return ArgSpec{Name: name, Kind: KindText} }
func argApp(name string) ArgSpec  { return ArgSpec{Name: name, Kind: KindApp} }
func argBody(name string) ArgSpec { return ArgSpec{Name: name, Kind: KindText, Heredoc: true} }
func optional(a ArgSpec) ArgSpec {
	a.Optional = true
	return a
}

var registry = []*Command{
	{
		Name: "MOVE_FILE", Group: groupFiles, Class: level.Caution,
		Args:    []ArgSpec{argPath("from"), argPath("to")},
		Help:    "Move or rename a file or folder.",
		Preview: "Move {from} → {to}",
	},
	{
		Name: "COPY_FILE", Group: groupFiles, Class: level.Caution,
		Args:    []ArgSpec{argPath("from"), argPath("to")},
		Help:    "Copy a file or folder.",
		Preview: "Copy {from} → {to}",
	},
	{
		Name: "DELETE_FILE", Group: groupFiles, Class: level.Dangerous,
		Args:    []ArgSpec{argPath("path")},
		Help:    "Move a file or folder to the Trash.",
		Preview: "Move {path} to the Trash",
	},
	{
		Name: "CREATE_FOLDER", Group: groupFiles, Class: level.Caution,
		Args:    []ArgSpec{argPath("path")},
		Help:    "Create a folder, and any missing parent folders.",
		Preview: "Create folder {path}",
	},
	{
		Name: "OPEN_FILE", Group: groupFiles, Class: level.Caution,
		Args:    []ArgSpec{argPath("path"), optional(argApp("app"))},
		Help:    "Open a file with its default app, or with the named app.",
		Preview: "Open {path}[ with {app}]",
	},
	{
		Name: "REVEAL_IN_FINDER", Group: groupFiles, Class: level.Safe,
		Args:    []ArgSpec{argPath("path")},
		Help:    "Show a file or folder in a Finder window.",
		Preview: "Reveal {path} in Finder",
	},
	{
		Name: "WRITE_FILE", Group: groupDocs, Class: level.Dangerous,
		Args:    []ArgSpec{argPath("path"), argBody("content")},
		Help:    "Create or overwrite a file with the given content.",
		Preview: "Write {content:chars} to {path}",
	},
	{
		Name: "APPEND_FILE", Group: groupDocs, Class: level.Dangerous,
		Args:    []ArgSpec{argPath("path"), argBody("content")},
		Help:    "Append content to the end of a file, creating it if needed.",
		Preview: "Append {content:chars} to {path}",
	},
	{
		Name: "WRITE_DOC", Group: groupDocs, Class: level.Dangerous,
		Args:    []ArgSpec{argPath("path"), argBody("content")},
		Help:    "Write a document (Markdown or plain text), usually as a heredoc.",
		Preview: "Write document {path} ({content:lines})",
	},
	{
		Name: "SEND_EMAIL", Group: groupComms, Class: level.Dangerous,
		Args:    []ArgSpec{{Name: "to", Kind: KindEmails}, argText("subject"), argBody("body")},
		Help:    "Send an email; \"to\" is a comma-separated list of addresses.",
		Preview: "Email \"{subject}\" to {to}",
	},
	{
		Name: "OPEN_URL", Group: groupComms, Class: level.Caution,
		Args:    []ArgSpec{{Name: "url", Kind: KindURL}},
		Help:    "Open a web address in the default browser.",
		Preview: "Open {url}",
	},
	{
		Name: "COPY_TO_CLIPBOARD", Group: groupComms, Class: level.Caution,
		Args:    []ArgSpec{argText("text")},
		Help:    "Put text on the clipboard.",
		Preview: "Copy {text:chars} to the clipboard",
	},
	{
		Name: "OPEN_APP", Group: groupApps, Class: level.Caution,
		Args:    []ArgSpec{argApp("app")},
		Help:    "Launch an app.",
		Preview: "Open {app}",
	},
	{
		Name: "QUIT_APP", Group: groupApps, Class: level.Caution,
		Args:    []ArgSpec{argApp("app")},
		Help:    "Ask an app to quit.",
		Preview: "Quit {app}",
	},
	{
		Name: "ACTIVATE_APP", Group: groupApps, Class: level.Caution,
		Args:    []ArgSpec{argApp("app")},
		Help:    "Bring a running app to the front.",
		Preview: "Bring {app} to the front",
	},
	{
		Name: "RELEASE_LOCK", Group: groupApps, Class: level.Caution,
		Args: []ArgSpec{argApp("app")},
		Help: "Release the context lock to switch to app on purpose: the next action that types or clicks " +
			"locks onto app, and is refused if another app is in front.",
		Preview: "Release the context lock to switch to {app}",
	},
	{
		Name: "NOTIFY", Group: groupNotify, Class: level.Safe,
		Args:    []ArgSpec{argText("title"), argText("message"), optional(argText("sound"))},
		Help:    "Show a notification, optionally with a named sound.",
		Preview: "Notify \"{title}\"",
	},
	{
		Name: "SPEAK", Group: groupNotify, Class: level.Safe,
		Args:    []ArgSpec{argText("text")},
		Help:    "Say text aloud.",
		Preview: "Speak \"{text}\"",
	},
	{
		Name: "SET_VOLUME", Group: groupSystem, Class: level.Caution,
		Args:    []ArgSpec{{Name: "level", Kind: KindNumber, Min: 0, Max: 100}},
		Help:    "Set the output volume, in percent (0-100).",
		Preview: "Set volume to {level}%",
	},
	{
		Name: "DO_NOT_DISTURB", Group: groupSystem, Class: level.Caution,
		Args:    []ArgSpec{{Name: "state", Kind: KindEnum, Enum: []string{"ON", "OFF"}}},
		Help:    "Turn Do Not Disturb on or off.",
		Preview: "Turn Do Not Disturb {state}",
	},
	{
		Name: "RUN_SHORTCUT", Group: groupShortcut, Class: level.Dangerous,
		Args:    []ArgSpec{argText("name"), optional(argText("input"))},
		Help:    "Run a Shortcuts shortcut by name, optionally with input text.",
		Preview: "Run shortcut \"{name}\"",
	},
	{
		Name: "CREATE_EVENT", Group: groupCalendar, Class: level.Caution,
		Args: []ArgSpec{
			argText("title"),
			{Name: "start", Kind: KindDatetime},
			{Name: "end", Kind: KindDatetime, notBefore: "start"},
		},
		Help:    "Add a calendar event; times are \"YYYY-MM-DD HH:MM\", local time.",
		Preview: "Create event \"{title}\" {start}–{end}",
	},
	{
		Name: "CREATE_REMINDER", Group: groupCalendar, Class: level.Caution,
		Args:    []ArgSpec{argText("title"), optional(ArgSpec{Name: "due", Kind: KindDatetime})},
		Help:    "Add a reminder, optionally due at \"YYYY-MM-DD HH:MM\", local time.",
		Preview: "Create reminder \"{title}\"",
	},
}

var (
	byName     = make(map[string]*Command, len(registry))
	maxNameLen int
)

func init() {
	for _, c := range registry {
		byName[c.Name] = c
		maxNameLen = max(maxNameLen, len(c.Name))
	}
}

// Commands returns every command, in registry order (grouped as in the
// documentation). The slice is a copy; the commands are shared.
func Commands() []*Command {
	return append([]*Command(nil), registry...)
}

// Lookup finds a command by name, ignoring ASCII case.
func Lookup(name string) (*Command, bool) {
	if len(name) > maxNameLen {
		return nil, false
	}
	var buf [32]byte
	b := append(buf[:0], name...)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	c, ok := byName[string(b)] // no allocation for the lookup
	return c, ok
}

// required is the number of arguments that may not be left out.
func (c *Command) required() int {
	n := 0
	for _, a := range c.Args {
		if !a.Optional {
			n++
		}
	}
	return n
}

// argIndex returns the position of the named argument, or -1.
func (c *Command) argIndex(name string) int {
	for i, a := range c.Args {
		if a.Name == name {
			return i
		}
	}
	return -1
}
