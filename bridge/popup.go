package bridge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/glyph"
)

// Window titles. They are fixed, so that tests (and people) can find the
// windows; nothing a model wrote ever goes into a title.
const (
	ApprovalTitle   = "Airlock — approval needed"
	ConfirmTitle    = "Airlock — confirm a destructive action"
	EditTitle       = "Airlock — edit the plan"
	EditErrorsTitle = "Airlock — your edit does not parse"
)

// Button labels shared by every platform.
const (
	labelApprove   = "Approve"
	labelDeny      = "Deny"
	labelEdit      = "Edit…"
	labelUseEdit   = "Use my edit"
	labelEditAgain = "Edit again"
	labelCancel    = "Cancel"
	labelRule      = "Approve, and always allow here"
)

// DefaultArmDelay is how long an approval popup is shown before Approve
// counts, when ApprovalPopup.ArmDelay is zero.
const DefaultArmDelay = 1500 * time.Millisecond

// ErrNoPopups means this machine cannot show popups: no display, no zenity,
// or an OS the bridge has no popups for.
var ErrNoPopups = errors.New("popups are not available")

// PopupItem is one action in an approval popup. Every text field is shown
// exactly, with characters that could hide or disguise text (control and
// bidi format characters, bad UTF-8) made visible as ⟨U+XXXX⟩.
type PopupItem struct {
	Number  int      // the action's number in its plan, from 1
	Level   string   // the risk level's name: "dangerous"
	Preview string   // one line in words
	Text    string   // the exact action text, shown in full (scrollable)
	Reasons []string // why it needs approval
	// RunsAnyway says the item would run without a yes at the person's
	// level: the popup shows it so the whole plan is seen, and says so.
	RunsAnyway bool
	// Confirm asks for a confirmation of this item on its own, after the
	// popup is approved; without it the item does not run. Items with it are
	// the destructive ones: the popup lists them first.
	Confirm bool
	// Authenticate asks, after the item's own yes, for the device owner's
	// authentication (Authenticate: Touch ID or the login password); without
	// it the item does not run. Only for a Confirm item, and only where
	// OwnerAuthAvailable: elsewhere the item never runs.
	Authenticate bool
}

// ApprovalPopup is what an approval popup shows.
type ApprovalPopup struct {
	Client string // the name the client gave itself: "mcp: claude-desktop"
	// Program is the client's program as the OS vouched for it
	// ("/usr/bin/foo (pid 123)"); "" shows that it is not verified.
	Program  string
	Tool     string // what carries the actions: "plan", "AppleScript"; "" for a plan made from Asked
	Asked    string // the request in words a model made the plan from, if it did
	Items    []PopupItem
	Deadline time.Time     // the popup closes and denies then; zero: no deadline
	ArmDelay time.Duration // Approve counts only after the popup was shown this long; 0: DefaultArmDelay
	// AllowRemember offers "allow again this session". ShowApproval never
	// reports Remember for a popup with a Confirm item.
	AllowRemember bool
	// AllowRule, when not "", offers "always allow this exact command
	// here" and says in words the rule it would keep (the command, the
	// folder, the client). ShowApproval never reports Rule for a popup
	// with a Confirm item. Linux only for now: the macOS alert does not
	// offer it.
	AllowRule string
	// AllowEdit offers Edit: the person may choose to edit the plan's text
	// (EditText) instead of answering.
	AllowEdit bool
	// EditedBy, for a plan the person edited, says who edited it and where.
	EditedBy string
}

// PopupAnswer is what the person chose.
type PopupAnswer struct {
	Approve  bool   // the popup was approved and at least one item may run
	Items    []bool // per item: may it run; all false unless Approve
	Remember bool   // "allow again this session" was chosen with Approve
	// Rule: "always allow this exact command here" was chosen with
	// Approve (only in a popup that offered it). Keeping the rule asks the
	// person once more, elsewhere.
	Rule bool
	// Edit: the person chose Edit (only in a popup that offered it) and
	// answered nothing; Approve is false.
	Edit bool
}

// ShowApproval shows p and waits for the person. Deny is the default: the
// Return and Escape keys, closing the popup, the deadline, ctx ending and
// any error deny, and an error is returned for all but the person's own
// denial and the deadline. When ctx ends the popup is closed at once. After
// an approval each Confirm item is asked about on its own (ConfirmTitle);
// a no, or no answer, leaves that item out.
//
// It must not be called on the main thread on macOS, whose main loop must be
// running (the menu-bar app's); see popup_darwin.go.
func ShowApproval(ctx context.Context, p ApprovalPopup) (PopupAnswer, error) {
	deny := PopupAnswer{Items: make([]bool, len(p.Items))}
	if len(p.Items) == 0 {
		return deny, errors.New("approval popup: no action to show")
	}
	if p.ArmDelay <= 0 {
		p.ArmDelay = DefaultArmDelay
	}
	if !p.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, p.Deadline)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return deny, deadlineOK(err)
	}
	c, err := showApproval(ctx, p)
	if err != nil || c == choiceDeny || (c == choiceEdit && !p.AllowEdit) {
		return deny, deadlineOK(err)
	}
	if c == choiceEdit {
		deny.Edit = true
		return deny, nil
	}
	a := PopupAnswer{Items: make([]bool, len(p.Items)), Remember: c == choiceApproveRemember && p.AllowRemember,
		Rule: c == choiceApproveRule && p.AllowRule != "" && ruleOffered}
	for i, it := range p.Items {
		if !it.Confirm {
			a.Items[i] = true
			continue
		}
		a.Remember, a.Rule = false, false
		yes, err := ask(ctx, confirmItemQuestion(p, it, time.Now()))
		if err != nil {
			return deny, deadlineOK(err)
		}
		if yes && it.Authenticate {
			yes, err = ownerAllows(ctx, fmt.Sprintf("run action %d, which cannot be undone", it.Number))
			if err != nil {
				return deny, deadlineOK(err)
			}
		}
		a.Items[i] = yes
	}
	for _, ok := range a.Items {
		a.Approve = a.Approve || ok
	}
	if !a.Approve {
		return deny, nil
	}
	return a, nil
}

// ownerAllows asks for the owner's authentication: a cancelled or failed
// one is a no; an error is returned only when it could not be asked for (or
// ctx ended), which denies the whole popup.
func ownerAllows(ctx context.Context, reason string) (bool, error) {
	err := authenticateOwner(ctx, reason)
	var ae *OwnerAuthError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ae) && ctx.Err() == nil:
		return false, nil
	}
	return false, err
}

// authenticateOwner is Authenticate; tests replace it.
var authenticateOwner = Authenticate

// Confirm asks a yes-or-no question, such as "Switch to Level 2?". No is
// the default: Return, Escape, closing and ctx ending say no. yes labels
// the button that says yes; it counts only after DefaultArmDelay.
func Confirm(ctx context.Context, title, text, yes string) (bool, error) {
	if yes == "" {
		yes = "Yes"
	}
	return ask(ctx, question{title: title, text: shownBlock(text), yes: yes, no: "No", arm: DefaultArmDelay})
}

// AskText asks for a line of text, such as the request for "Automate…".
// It returns ok false when the person cancels (Escape, Cancel, closing) or
// ctx ends. Return submits what was typed.
func AskText(ctx context.Context, title, prompt string) (text string, ok bool, err error) {
	return askText(ctx, title, shownBlock(prompt))
}

// ShowText shows text read-only and scrollable in a window titled title,
// with a button that closes it, and waits until the person closes it or
// ctx ends (which closes it at once; ShowText then returns nil, as it does
// when the person closes it). The text goes to the window only: on Linux
// through a pipe to zenity's standard input, on macOS into the window
// itself; never to a file or a command line. Characters that could hide or
// disguise text are made visible as in the approval popup.
func ShowText(ctx context.Context, title, text string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := showText(ctx, shownLine(title), shownBlock(text))
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// EditPopup is the editor the approval popup's Edit opens: the text behind
// a request, for the person to change.
type EditPopup struct {
	Client string // the name the client gave itself, as in the approval popup
	What   string // what the text is, in words: "plan", "AppleScript"
	Text   string // the text to edit, as it would run
	// Errors say why the person's last edit (Text) was refused, line by
	// line. EditText shows them first and asks whether to edit again.
	Errors   []string
	Deadline time.Time // the request's: the editor closes then; zero: none
}

// EditText lets the person edit p.Text and returns what they left there
// when they chose "Use my edit"; ok is false when they cancel (Cancel,
// Escape, closing the window), at the deadline, and when ctx ends (the
// editor is closed at once; the error is then ctx's). With p.Errors it first shows them and asks
// "Edit again" or "Cancel" (the default). The text reaches the editor and
// comes back only through the window (Linux: zenity's standard input and
// output; macOS: the alert's own text view), never a file or a command
// line; characters that could hide or disguise text are shown as in the
// approval popup (⟨U+202E⟩), so the person edits what they see, and that
// is what comes back. On macOS "Use my edit" counts only a press of the
// person's own mouse (PersonPressed), as Approve does.
func EditText(ctx context.Context, p EditPopup) (text string, ok bool, err error) {
	if !p.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, p.Deadline)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return "", false, deadlineOK(err)
	}
	if len(p.Errors) > 0 {
		again, err := ask(ctx, editErrorsQuestion(p, time.Now()))
		if err != nil || !again {
			return "", false, deadlineOK(err)
		}
	}
	// Line ends as an editor writes them: CRLF is one line end to every
	// parser here, and would otherwise show as ⟨U+000D⟩ on every line.
	text, ok, err = editText(ctx, p, shownBlock(strings.ReplaceAll(p.Text, "\r\n", "\n")))
	if err != nil || !ok || ctx.Err() != nil {
		return "", false, deadlineOK(err)
	}
	return text, true, nil
}

// editErrorsQuestion asks whether to edit again an edit that was refused.
func editErrorsQuestion(p EditPopup, now time.Time) question {
	var b strings.Builder
	fmt.Fprintf(&b, "Your edit of the %s from %s does not parse, so nothing of it ran:\n\n", shownLine(orWhat(p.What)), shownLine(orUnknown(p.Client)))
	for _, e := range p.Errors {
		fmt.Fprintf(&b, "• %s\n", shownLine(e))
	}
	fmt.Fprintf(&b, "\nEdit again opens your edit to fix it; Cancel (the default: Return, Escape) denies the %s. %s",
		shownLine(orWhat(p.What)), deadlineLine(p.Deadline, now))
	return question{title: EditErrorsTitle, text: excerpt(b.String(), 40, 4000), yes: labelEditAgain, no: labelCancel}
}

func orWhat(s string) string {
	if s == "" {
		return "plan"
	}
	return s
}

// PopupName says which kind of popup asks the person here ("zenity",
// "macOS alert"), for the record of who edited a plan; "" where there are
// none.
func PopupName() string { return popupName }

// PopupsAvailable says why this process cannot show popups, or nil.
func PopupsAvailable() error { return popupsAvailable() }

// PrepareApprovalPopup gets the first approval popup ready ahead of its
// request, so that it appears as fast as later ones: on Linux it starts a
// spare zenity (popup_linux.go); on macOS, where the popup is an NSAlert in
// this process, there is nothing to prepare. It does nothing where popups
// are unavailable and returns at once.
func PrepareApprovalPopup() { prepareApprovalPopup() }

// choice is the person's answer to the approval popup itself.
type choice int

const (
	choiceDeny choice = iota
	choiceApprove
	choiceApproveRemember
	choiceEdit        // the person chose Edit; nothing is approved
	choiceApproveRule // approve, and keep a rule that always allows it here
)

// question is a yes-or-no popup whose default is no.
type question struct {
	title, text string
	yes, no     string        // button labels
	arm         time.Duration // yes counts only after the question was shown this long
	warning     bool          // shown with a warning icon: what it asks about cannot be undone
}

// deadlineOK turns a context that reached its deadline into no error: a
// popup nobody answered in time is a denial, not a failure.
func deadlineOK(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// Text limits for what cannot scroll: a confirmation shows the start of the
// item's text (the whole of it was in the approval popup).
const (
	confirmLines = 12
	confirmBytes = 1200
)

// confirmItemQuestion asks about one destructive item of an approved popup.
func confirmItemQuestion(p ApprovalPopup, it PopupItem, now time.Time) question {
	var b strings.Builder
	fmt.Fprintf(&b, "Action %d is %s and needs its own yes.\n\n", it.Number, shownLine(it.Level))
	fmt.Fprintf(&b, "%s\n\n", shownLine(it.Preview))
	text := shownBlock(it.Text)
	if ex := excerpt(text, confirmLines, confirmBytes); ex != text {
		text = ex + "\n(The approval popup showed all of it.)"
	}
	b.WriteString(text)
	for _, r := range it.Reasons {
		fmt.Fprintf(&b, "\n• %s", shownLine(r))
	}
	fmt.Fprintf(&b, "\n\nAsked by %s. %s", shownLine(orUnknown(p.Client)), deadlineLine(p.Deadline, now))
	fmt.Fprintf(&b, "\nSkip (the default: Return, Escape) leaves it out; the rest of the plan still runs.")
	return question{
		title:   ConfirmTitle,
		text:    b.String(),
		yes:     fmt.Sprintf("Run action %d", it.Number),
		no:      "Skip it",
		arm:     p.ArmDelay,
		warning: true,
	}
}

// excerpt cuts s to at most maxLines lines and about maxBytes bytes, on a
// character boundary, and says how much it left out.
func excerpt(s string, maxLines, maxBytes int) string {
	cut := len(s)
	if n := strings.Count(s, "\n"); n >= maxLines {
		i := 0
		for range maxLines {
			i += strings.IndexByte(s[i:], '\n') + 1
		}
		cut = i - 1
	}
	if cut > maxBytes {
		cut = maxBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	if cut == len(s) {
		return s
	}
	return fmt.Sprintf("%s\n… (%d more bytes not shown here)", s[:cut], len(s)-cut)
}

// summary is the popup's headline: "cli asks to run 3 actions (dangerous,
// destructive)".
func (p ApprovalPopup) summary() string {
	n := "1 action"
	if len(p.Items) != 1 {
		n = fmt.Sprintf("%d actions", len(p.Items))
	}
	levels := make([]string, 0, len(p.Items))
	for _, it := range p.Items {
		l := shownLine(it.Level)
		if !contains(levels, l) {
			levels = append(levels, l)
		}
	}
	// The highest first: the headline leads with what matters most.
	slices.SortStableFunc(levels, func(a, b string) int { return levelRank(b) - levelRank(a) })
	return fmt.Sprintf("%s asks to run %s (%s)", shownLine(orUnknown(p.Client)), n, strings.Join(levels, ", "))
}

// details is the popup's full text: who asked, when it denies by itself,
// and every item with its level, preview, reasons and exact text, the
// destructive ones (Confirm) first, each under its number in the plan. The
// deadline is given as a clock time, which stays true however long the
// text is on screen (zenity cannot update it; the macOS popup shows a live
// countdown beside it).
func (p ApprovalPopup) details(now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s.\n", p.summary())
	fmt.Fprintf(&b, "Asked by: %s\n", shownLine(orUnknown(p.Client)))
	fmt.Fprintf(&b, "Program:  %s\n", shownLine(programOrUnverified(p.Program)))
	if p.Asked != "" {
		fmt.Fprintf(&b, "Request:  %s\n", shownLine(p.Asked))
	}
	if p.Tool != "" {
		fmt.Fprintf(&b, "Tool:     %s\n", shownLine(p.Tool))
	}
	if p.EditedBy != "" {
		fmt.Fprintf(&b, "Edited:   by %s; judged again from scratch, as your own plan\n", shownLine(p.EditedBy))
	}
	fmt.Fprintf(&b, "%s\n", deadlineLine(p.Deadline, now))
	if p.AllowRule != "" && ruleOffered && !hasConfirm(p.Items) {
		fmt.Fprintf(&b, "Always:   \"%s\" keeps a rule in your settings: %s (asked once more first)\n", labelRule, shownLine(p.AllowRule))
	}
	items := destructiveFirst(p.Items)
	mixed := slices.ContainsFunc(items, func(it PopupItem) bool { return it.RunsAnyway })
	if n := countConfirm(items); n > 0 && n < len(items) {
		fmt.Fprintf(&b, "\n%d of the %d actions cannot be undone; they are listed first.\n", n, len(items))
	}
	for _, it := range items {
		fmt.Fprintf(&b, "\n%d. [%s] %s\n", it.Number, shownLine(it.Level), shownLine(it.Preview))
		if it.Confirm {
			b.WriteString("   ⚠ cannot be undone: asked about again on its own after Approve\n")
		}
		if mixed {
			if it.RunsAnyway {
				b.WriteString("   runs at your level without a yes; shown so you see the whole plan\n")
			} else {
				b.WriteString("   needs your yes\n")
			}
		}
		for _, r := range it.Reasons {
			fmt.Fprintf(&b, "   • %s\n", shownLine(r))
		}
		for _, ln := range strings.Split(shownBlock(it.Text), "\n") {
			fmt.Fprintf(&b, "   │ %s\n", ln)
		}
	}
	return b.String()
}

// levelRank orders the risk levels' names, lowest first; a name it does
// not know ranks above them all (it is shown first, never hidden).
func levelRank(name string) int {
	switch name {
	case "safe":
		return 0
	case "caution":
		return 1
	case "dangerous":
		return 2
	case "destructive":
		return 3
	case "blocked":
		return 4
	}
	return 5
}

// destructiveFirst returns items with the Confirm ones (destructive) first,
// each group in plan order.
func destructiveFirst(items []PopupItem) []PopupItem {
	out := make([]PopupItem, 0, len(items))
	for _, it := range items {
		if it.Confirm {
			out = append(out, it)
		}
	}
	for _, it := range items {
		if !it.Confirm {
			out = append(out, it)
		}
	}
	return out
}

func countConfirm(items []PopupItem) int {
	n := 0
	for _, it := range items {
		if it.Confirm {
			n++
		}
	}
	return n
}

// deadlineLine says when the popup denies by itself, as a clock time, and
// how long that was from now (when the popup appeared).
func deadlineLine(deadline, now time.Time) string {
	if deadline.IsZero() {
		return "No time limit."
	}
	at := deadline.Local().Format("15:04:05")
	left := deadline.Sub(now).Round(time.Second)
	if left <= 0 {
		return fmt.Sprintf("No answer by %s denies it: the time is up.", at)
	}
	return fmt.Sprintf("No answer by %s denies it (%v after this appeared).", at, left)
}

// timeLeft says how long is left and when the popup denies by itself: the
// live countdown of the macOS popup, updated every second.
func timeLeft(deadline, now time.Time) string {
	if deadline.IsZero() {
		return "No time limit."
	}
	left := deadline.Sub(now).Round(time.Second)
	if left < 0 {
		left = 0
	}
	return fmt.Sprintf("Time left: %v; no answer by %s denies it.", left, deadline.Local().Format("15:04:05"))
}

// programOrUnverified is the client's verified program, or says there is
// none: the name is then only the client's own claim.
func programOrUnverified(s string) string {
	if s == "" {
		return "(not verified: the name above is the client's own claim)"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown client)"
	}
	return s
}

func hasConfirm(items []PopupItem) bool {
	for _, it := range items {
		if it.Confirm {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// shownLine returns s for a one-line field: every character that could
// hide, reorder or fake text — control characters including newline and
// tab, format characters (bidi overrides, zero-width), line and paragraph
// separators, the byte-order mark — and bytes that are not UTF-8 are shown
// as ⟨U+XXXX⟩ or ⟨0xXX⟩, so the person reads the exact text.
func shownLine(s string) string { return shown(s, false) }

// EscapeBlock is shownBlock for callers outside the bridge that show model
// text (the terminal prompter): nothing in the result but newlines and tabs
// can move the cursor, and nothing can hide, reorder or fake text.
func EscapeBlock(s string) string { return shownBlock(s) }

// shownBlock is shownLine for multi-line text: it keeps newlines and tabs
// and shows a carriage return as ⟨U+000D⟩.
func shownBlock(s string) string { return shown(s, true) }

func shown(s string, block bool) string {
	clean := utf8.ValidString(s)
	prev := rune(-1)
	for _, r := range s {
		if hidden(prev, r, block) {
			clean = false
			break
		}
		prev = r
	}
	disguised := glyph.Disguised(s)
	if clean && disguised == nil {
		return s
	}
	var b strings.Builder
	prev = -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "⟨0x%02X⟩", s[i])
			r = -1 // what follows an escape follows "⟩"
		case hidden(prev, r, block), disguised[i]:
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			r = -1
		default:
			b.WriteString(s[i : i+n])
		}
		prev = r
		i += n
	}
	return b.String()
}

// hidden reports a rune that is not shown as itself, after the rune prev
// (-1 at the start). Besides control, format and separator characters,
// that is every character drawn as nothing or as a space other than U+0020
// (glyph.Blank: the Hangul fillers, the combining grapheme joiner …:
// "build\u3164.py" drew as "build.py", another file; a no-break space, so
// "rm\u00a0-rf" is one word that reads as two), and a variation selector except the one
// right after a character it changes the look of (an emoji's "❤️", a
// kanji's variant, a Mongolian letter's form): after anything else, or a
// second one, it changes nothing the person can see.
func hidden(prev, r rune, block bool) bool {
	switch {
	case block && (r == '\n' || r == '\t'):
		return false
	case r == utf8.RuneError:
		return true
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case glyph.Blank(r):
		return true
	case unicode.Is(unicode.Variation_Selector, r):
		return !glyph.Varies(prev)
	}
	return false
}
