//go:build linux

package bridge

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// On Linux popups are zenity dialogs (tested with zenity 3.44). What zenity
// can and cannot do decides their shape:
//
//   - The approval popup is a --text-info dialog: the whole request, every
//     action's exact text included, in a scrollable read-only text view, read
//     from a pipe (--filename=/dev/fd/3; never the command line, so its size
//     has no limit and nothing in it is parsed as an option, markup or
//     escape). zenity reads that file before it shows its window, which is
//     what lets a spare popup start before its request (popup_linux.go).
//     Its arguments therefore depend only on which buttons it has.
//   - zenity's OK button is the default button (Return) and its Cancel
//     button answers Escape and closing the window, so both deny: OK is
//     labelled Deny and Cancel keeps its name. Approve is an extra button,
//     which zenity reports by printing its label and exiting with status 1.
//     zenity cannot keep Tab from reaching it, so Tab then Return or space
//     approves: a deliberate choice, unlike a stray Return.
//   - zenity cannot disable a button for a while. Instead an Approve that
//     arrives before the arm delay has passed does not count: the popup is
//     shown again with a line saying why, and Approve counts in the new one
//     once the delay has passed there.
//   - zenity cannot update its text, so the countdown is the time left when
//     the popup was shown and the clock time at which it denies; the
//     caller's context kills it then. Questions also get --timeout, as a
//     backstop should Airlock hang; the approval popup cannot (it is started
//     before its deadline is known). If Airlock dies, the parent-death
//     signal closes every popup.
//   - zenity reads a --filename file only up to the first byte that is not
//     UTF-8, and shows an empty box when it cannot open it; shownBlock makes
//     the text valid UTF-8, and an answer from a popup that said it could
//     not read its text is an error (popup_linux.go), never an approval.
//   - Questions (a destructive item's own confirmation, Confirm) are
//     --question dialogs with --default-cancel, so Return and Escape say no,
//     and --no-markup, which also keeps zenity from expanding backslash
//     escapes. The entry dialog (AskText) expands backslash escapes and
//     underscores (mnemonics) in its prompt, so those are doubled.
//   - Titles are fixed strings; model-derived text is passed only through
//     the text view, or through --text= arguments after shownBlock/shownLine
//     made every control and format character visible and excerpt bounded
//     its length.
const (
	zenityDeny     = labelDeny
	zenityCancel   = "Cancel"
	zenityApprove  = labelApprove
	zenityRemember = "Approve, and allow again this session"
	zenityRule     = labelRule
	zenityEdit     = labelEdit
)

// zenity's exit statuses.
const (
	zenityOK      = 0 // OK button, or Return
	zenityClosed  = 1 // Cancel, Escape, closing the window, or an extra button (label on stdout)
	zenityTimeout = 5 // --timeout ran out
)

// maxArgText bounds a text passed as an argument: far below the kernel's
// 128 KiB limit on one argument, and more than a dialog that cannot scroll
// can show.
const maxArgText = 8 << 10

// zenityApproval returns the arguments of the approval popup (without the
// --filename its text is read from) and that text. early, when not zero,
// says that the previous popup's Approve came that soon after it appeared.
func zenityApproval(p ApprovalPopup, early time.Duration, now time.Time) (args []string, text string) {
	args = []string{
		"--text-info",
		"--title=" + ApprovalTitle,
		"--width=760",
		"--height=560",
		"--font=Monospace 10",
		"--ok-label=" + zenityDeny,
		"--cancel-label=" + zenityCancel,
	}
	if p.AllowEdit {
		// Left of the approving buttons, which keep their places.
		args = append(args, "--extra-button="+zenityEdit)
	}
	if p.AllowRule != "" && !hasConfirm(p.Items) {
		args = append(args, "--extra-button="+zenityRule)
	}
	if p.AllowRemember && !hasConfirm(p.Items) {
		args = append(args, "--extra-button="+zenityRemember)
	}
	args = append(args, "--extra-button="+zenityApprove)

	var b strings.Builder
	if early > 0 {
		fmt.Fprintf(&b, "⚠ Approve was pressed %v after the previous popup appeared, before it could be read, so it did not count. Read the request, then choose again.\n\n", early.Round(10*time.Millisecond))
	}
	fmt.Fprintf(&b, "Deny is the default: Return, Escape, Deny, Cancel, closing this window and the time running out all deny. Approve counts once this window has been shown for %v.\n", p.ArmDelay)
	if p.AllowEdit {
		b.WriteString("Edit… opens the text below to change it; your edit is then judged from scratch, as your own plan, before anything runs.\n")
	}
	b.WriteString("\n")
	b.WriteString(p.details(now))
	return args, b.String()
}

// zenityIconArg is the argument that shows the warning icon, for the zenity
// whose `zenity --version` printed out: zenity 3 names a themed icon with
// --icon-name, zenity 4 dropped that option and takes --icon (a name or a
// file); an option a version does not know makes zenity fail, which would
// deny. So the version is read from what zenity says, never guessed from
// the distribution, and "" (the default question icon) when it cannot be
// read.
func zenityIconArg(out string) string {
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		major, rest, ok := strings.Cut(line, ".")
		if !ok || major == "" || rest == "" || strings.Trim(major, "0123456789") != "" || !strings.ContainsAny(rest[:1], "0123456789") {
			continue // GTK's warnings, a blank line
		}
		switch n, err := strconv.Atoi(major); {
		case err != nil:
		case n == 3:
			return "--icon-name=dialog-warning"
		case n >= 4:
			return "--icon=dialog-warning"
		}
		return ""
	}
	return ""
}

// zenityQuestion returns the arguments of a yes-or-no question whose
// default is no, with icon (zenityIconArg) when the question is a
// warning. timeout is the time left; zero means none.
func zenityQuestion(q question, early, timeout time.Duration, icon string) []string {
	text := q.text
	if early > 0 {
		text = fmt.Sprintf("⚠ Your yes came %v after this appeared, before it could be read, so it did not count. Answer again.\n\n%s", early.Round(10*time.Millisecond), text)
	}
	args := []string{
		"--question",
		"--title=" + shownLine(q.title),
		"--text=" + excerpt(shownBlock(text), math.MaxInt, maxArgText),
		"--no-markup",
		"--default-cancel",
		"--width=560",
		"--ok-label=" + shownLine(q.yes),
		"--cancel-label=" + shownLine(q.no),
	}
	if q.warning && icon != "" {
		args = append(args, icon)
	}
	if timeout > 0 {
		args = append(args, timeoutArg(timeout))
	}
	return args
}

// zenityViewer returns the arguments of a read-only text window whose text
// comes on standard input. zenity's text-info always has two buttons (OK
// and Cancel); here both close it, so both say so.
func zenityViewer(title string) []string {
	return []string{
		"--text-info",
		"--title=" + title,
		"--width=900",
		"--height=600",
		"--font=Monospace 10",
		"--ok-label=Close",
		"--cancel-label=Close",
	}
}

// zenityEditor returns the arguments of the editor Edit opens: an editable
// text window whose text comes on standard input and which prints the
// edited text on standard output when its OK button (Use my edit) is
// pressed. Return inserts a new line there; Escape, Cancel and closing it
// cancel.
func zenityEditor() []string {
	return []string{
		"--text-info",
		"--editable",
		"--title=" + EditTitle,
		"--width=900",
		"--height=600",
		"--font=Monospace 10",
		"--ok-label=" + labelUseEdit,
		"--cancel-label=" + labelCancel,
	}
}

// zenityEntry returns the arguments of a text entry dialog.
func zenityEntry(title, prompt string) []string {
	return []string{
		"--entry",
		"--title=" + shownLine(title),
		"--text=" + entryEscape(excerpt(shownBlock(prompt), math.MaxInt, maxArgText)),
		"--width=520",
		"--ok-label=OK",
		"--cancel-label=Cancel",
	}
}

// entryEscape undoes what zenity's entry dialog does to its prompt: it
// expands backslash escapes (g_strcompress) and takes an underscore as a
// mnemonic marker.
func entryEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `_`, `__`).Replace(s)
}

// timeoutArg is --timeout: a backstop only, one second after the deadline,
// rounded up, at least 1. The deadline itself is kept by killing zenity when
// the context ends (so the answer is a timeout, not a denial); zenity's own
// timer counts whole seconds and can fire up to one early.
func timeoutArg(left time.Duration) string {
	secs := int64(math.Ceil(left.Seconds())) + 1
	if secs < 1 {
		secs = 1
	}
	return fmt.Sprintf("--timeout=%d", secs)
}

// errNoDisplay is zenity's way of failing without a display: status 1, the
// same as Cancel, with a warning on standard error.
var errNoDisplay = fmt.Errorf("%w: zenity cannot open the display", ErrNoPopups)

// approvalResult reads the approval popup's answer from zenity's exit
// status and output. Anything it does not recognise is an error, which
// denies.
func approvalResult(stdout, stderr string, code int) (choice, error) {
	switch code {
	case zenityOK, zenityTimeout:
		return choiceDeny, nil
	case zenityClosed:
		switch strings.TrimSuffix(stdout, "\n") {
		case "":
			if noDisplay(stderr) {
				return choiceDeny, errNoDisplay
			}
			return choiceDeny, nil
		case zenityApprove:
			return choiceApprove, nil
		case zenityRemember:
			return choiceApproveRemember, nil
		case zenityRule:
			return choiceApproveRule, nil
		case zenityEdit:
			return choiceEdit, nil
		}
		return choiceDeny, errors.New("zenity answered with an unknown button")
	}
	return choiceDeny, zenityFailed(code, stderr)
}

// questionResult reads a question's answer.
func questionResult(stderr string, code int) (bool, error) {
	switch code {
	case zenityOK:
		return true, nil
	case zenityClosed:
		if noDisplay(stderr) {
			return false, errNoDisplay
		}
		return false, nil
	case zenityTimeout:
		return false, nil
	}
	return false, zenityFailed(code, stderr)
}

// entryResult reads what was typed into an entry dialog.
func entryResult(stdout, stderr string, code int) (string, bool, error) {
	switch code {
	case zenityOK:
		return strings.TrimSuffix(stdout, "\n"), true, nil
	case zenityClosed:
		if noDisplay(stderr) {
			return "", false, errNoDisplay
		}
		return "", false, nil
	case zenityTimeout:
		return "", false, nil
	}
	return "", false, zenityFailed(code, stderr)
}

// editorResult reads the editor's answer: the text on OK, nothing on
// Cancel, Escape or closing.
func editorResult(stdout, stderr string, code int) (string, bool, error) {
	switch code {
	case zenityOK:
		return stdout, true, nil
	case zenityClosed:
		if noDisplay(stderr) {
			return "", false, errNoDisplay
		}
		return "", false, nil
	case zenityTimeout:
		return "", false, nil
	}
	return "", false, zenityFailed(code, stderr)
}

// viewerResult reads how a text window ended: any button, Escape and
// closing it are all fine.
func viewerResult(stderr string, code int) error {
	switch code {
	case zenityOK, zenityTimeout:
		return nil
	case zenityClosed:
		if noDisplay(stderr) {
			return errNoDisplay
		}
		return nil
	}
	return zenityFailed(code, stderr)
}

func noDisplay(stderr string) bool { return strings.Contains(stderr, "cannot open display") }

func zenityFailed(code int, stderr string) error {
	msg := strings.TrimSpace(stderr)
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return fmt.Errorf("zenity failed (exit status %d): %s", code, shownLine(msg))
}

// zenityEnv is env with a UTF-8 character type: under a non-UTF-8 locale
// zenity rejects non-ASCII arguments ("This option is not available").
func zenityEnv(env []string) []string {
	ctype := lookupEnv(env, "LC_ALL")
	if ctype == "" {
		ctype = lookupEnv(env, "LC_CTYPE")
	}
	if ctype == "" {
		ctype = lookupEnv(env, "LANG")
	}
	if c := strings.ToLower(ctype); strings.Contains(c, "utf-8") || strings.Contains(c, "utf8") {
		return env
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "LC_ALL=") {
			out = append(out, kv)
		}
	}
	return append(out, "LC_ALL=C.UTF-8")
}

// lookupEnv is key's value in env ("" if unset); the last one counts, as
// for exec.
func lookupEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
