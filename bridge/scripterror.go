package bridge

import (
	"fmt"
	"slices"
	"strings"
)

// ScriptError is an error an AppleScript or JXA script reported, as
// NSAppleScript's error dictionary (or osascript's last line) gives it.
// Error() adds the steps that fix the common kinds (seed 000's enhanced
// error messages).
type ScriptError struct {
	Number  int    `json:"number"`            // NSAppleScriptErrorNumber, e.g. -1743
	Message string `json:"message"`           // NSAppleScriptErrorMessage
	Brief   string `json:"brief,omitempty"`   // NSAppleScriptErrorBriefMessage
	App     string `json:"app,omitempty"`     // NSAppleScriptErrorAppName
	Start   int    `json:"start,omitempty"`   // NSAppleScriptErrorRange: offset in the source
	Length  int    `json:"length,omitempty"`  // NSAppleScriptErrorRange: length; 0 means no range
	Compile bool   `json:"compile,omitempty"` // the script did not compile (it never ran)
}

func (e *ScriptError) Error() string {
	msg := strings.TrimSpace(e.Message)
	if msg == "" {
		msg = strings.TrimSpace(e.Brief)
	}
	if msg == "" {
		msg = "the script failed"
	}
	s := fmt.Sprintf("%s (error %d)", msg, e.Number)
	if e.Length > 0 {
		s += fmt.Sprintf(" at characters %d-%d", e.Start+1, e.Start+e.Length)
	}
	if fix := e.Kind().Fix(e.App); fix != "" {
		s += ". " + fix
	}
	return s
}

// Kind classifies the error; see Classify.
func (e *ScriptError) Kind() ErrorKind { return Classify(e.Number, e.Message) }

// ErrorKind is one of seed 000's ten kinds of common script error.
type ErrorKind int

const (
	KindOther                ErrorKind = iota // none of the ten
	KindAppNotRunning                         // the target application is not running
	KindAutomationPermission                  // not allowed to send Apple events to the app
	KindFileAccess                            // the file system refused
	KindAccessibility                         // UI scripting without Accessibility permission
	KindSyntax                                // the script does not compile
	KindNotUnderstood                         // the app does not know the command
	KindCantGet                               // the object named does not exist
	KindTimeout                               // an Apple event was not answered in time
	KindUserCancelled                         // the person pressed Cancel
	KindMissingValue                          // a value the script used was missing value
)

var kindNames = [...]string{
	KindOther:                "other",
	KindAppNotRunning:        "app not running",
	KindAutomationPermission: "automation permission",
	KindFileAccess:           "file access",
	KindAccessibility:        "accessibility",
	KindSyntax:               "syntax",
	KindNotUnderstood:        "not understood",
	KindCantGet:              "can't get",
	KindTimeout:              "timeout",
	KindUserCancelled:        "user cancelled",
	KindMissingValue:         "missing value",
}

func (k ErrorKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("ErrorKind(%d)", int(k))
	}
	return kindNames[k]
}

// The System Settings panes the fixes open.
const (
	paneAutomation    = "x-apple.systempreferences:com.apple.preference.security?Privacy_Automation"
	paneFullDisk      = "x-apple.systempreferences:com.apple.preference.security?Privacy_AllFiles"
	paneAccessibility = "x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility"
)

// Fix says how to fix an error of kind k, naming app (the application the
// error came from; "" when unknown) and the System Settings pane to open
// where a permission is missing. It is "" for KindOther.
func (k ErrorKind) Fix(app string) string {
	target := "the app"
	if app != "" {
		target = app
	}
	switch k {
	case KindAppNotRunning:
		return fmt.Sprintf("%s is not running: open it first, or start the script's tell block with `activate`", target)
	case KindAutomationPermission:
		return fmt.Sprintf("Airlock may not control %s yet: in System Settings → Privacy & Security → Automation, turn on %s under Airlock (%s), then run it again", target, target, paneAutomation)
	case KindFileAccess:
		return fmt.Sprintf("macOS refused access to the file: in System Settings → Privacy & Security → Full Disk Access (or Files and Folders), allow Airlock (%s), and check the file's permissions", paneFullDisk)
	case KindAccessibility:
		return fmt.Sprintf("controlling menus, keys or windows needs Accessibility permission: in System Settings → Privacy & Security → Accessibility, turn on Airlock (%s)", paneAccessibility)
	case KindSyntax:
		return "the script does not compile: check that quotes and parentheses are balanced, every `tell` has its `end tell`, and app and command names are spelled as in the app's dictionary"
	case KindNotUnderstood:
		return fmt.Sprintf("%s does not know that command: open its dictionary in Script Editor (File → Open Dictionary…) and use a command it lists", target)
	case KindCantGet:
		return "the object does not exist or is named differently: check its name, that its window or document is open, and that an index is in range"
	case KindTimeout:
		return fmt.Sprintf("%s did not answer in time: check it is not showing a dialog, or wrap the slow command in `with timeout of 300 seconds … end timeout`", target)
	case KindUserCancelled:
		return "the script was cancelled (Cancel or ⌘-period); nothing needs fixing"
	case KindMissingValue:
		return "a value the script used was missing value (empty): check that what it reads exists before using it"
	}
	return ""
}

// classRule maps error numbers, or words in the message, to a kind. The
// first rule that matches wins, so the specific rules come first: -1719 is
// "invalid index" unless its message is about assistive access, and a "can't
// get" of missing value is about the missing value.
type classRule struct {
	kind    ErrorKind
	numbers []int
	words   []string // matched in the lower-cased message, typographic apostrophes made plain
}

var classRules = []classRule{
	{KindAccessibility, []int{-25211}, []string{"assistive access"}},
	{KindAutomationPermission, []int{-1743}, []string{"not authorized to send apple events", "not allowed to send apple events", "not authorised to send apple events"}},
	{KindAppNotRunning, []int{-600, -609}, []string{"isn't running", "is not running"}},
	{KindUserCancelled, []int{-128}, []string{"user canceled", "user cancelled"}},
	{KindTimeout, []int{-1712}, []string{"timed out"}},
	{KindMissingValue, nil, []string{"missing value"}},
	{KindSyntax, []int{-2740, -2741}, []string{"syntax error", " but found "}},
	{KindNotUnderstood, []int{-1708}, []string{"doesn't understand", "does not understand"}},
	{KindCantGet, []int{-1728, -1719}, []string{"can't get"}},
	{KindFileAccess, []int{-5000, -54, -61, -10004}, []string{"operation not permitted", "permission denied", "access not allowed", "privilege violation"}},
}

// Classify returns the kind of a script error from its number and message.
// Either may be missing: an error number alone, or words in the message
// alone (osascript and some apps give one without the other), suffice.
func Classify(number int, message string) ErrorKind {
	msg := strings.ToLower(strings.NewReplacer("’", "'", "‘", "'").Replace(message))
	for _, r := range classRules {
		if number != 0 && slices.Contains(r.numbers, number) {
			return r.kind
		}
		for _, w := range r.words {
			if strings.Contains(msg, w) {
				return r.kind
			}
		}
	}
	return KindOther
}
