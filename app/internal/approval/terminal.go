package approval

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/bridge"
)

// DefaultTTY is the controlling terminal, where the terminal prompter asks.
const DefaultTTY = "/dev/tty"

// invalidTries is how many unrecognised answers a question takes before it
// denies.
const invalidTries = 3

// Terminal is a Prompter that asks on a terminal device, by default the
// process's controlling terminal. It never reads standard input, which may
// be wired to an agent. Requests are shown one at a time, in the order they
// arrive; only a line typed after a question is shown can answer it.
type Terminal struct {
	f         *os.File
	lines     chan line     // what the person typed; closed when reading fails
	asked     chan struct{} // a question was shown: resumes reading after end of input
	closed    chan struct{} // closed by Close
	closeOnce sync.Once
	turn      chan struct{} // holds a token while a request is shown
	now       func() time.Time
}

// line is one line read from the terminal and when it was read.
type line struct {
	text string
	eof  bool // end of input: Ctrl-D on an empty line, or a hang-up
	at   time.Time
}

// NewTerminal opens tty (DefaultTTY when empty) for reading and writing and
// starts reading it. It refuses anything that is not a character device, such
// as a pipe or a regular file an agent could fill.
func NewTerminal(tty string) (*Terminal, error) {
	if tty == "" {
		tty = DefaultTTY
	}
	f, err := os.OpenFile(tty, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the terminal to ask on: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening the terminal to ask on: %w", err)
	}
	if fi.Mode()&os.ModeCharDevice == 0 {
		f.Close()
		return nil, fmt.Errorf("opening the terminal to ask on: %s is not a terminal", tty)
	}
	t := &Terminal{f: f, lines: make(chan line, 8), asked: make(chan struct{}, 1), closed: make(chan struct{}), turn: make(chan struct{}, 1), now: time.Now}
	go t.read()
	return t, nil
}

// Close closes the terminal; prompts in progress and later ones deny.
func (t *Terminal) Close() error {
	t.closeOnce.Do(func() { close(t.closed) })
	return t.f.Close()
}

// read reads lines for as long as the terminal gives them. It never blocks on
// a full channel: a line nobody is waiting for is stale and is dropped. End
// of input (Ctrl-D, or a terminal that hung up) is passed on as a line with
// eof set, and reading resumes only when the next question is asked, so a
// terminal that keeps returning end of input denies each question once
// rather than spinning. Any other error ends reading for good.
func (t *Terminal) read() {
	defer close(t.lines)
	r := bufio.NewReader(t.f)
	for {
		s, err := r.ReadString('\n')
		switch {
		case err == nil:
			if len(s) > 64 {
				s = s[:64] // an answer is a word; the rest cannot change it
			}
			t.offer(line{text: strings.TrimRight(s, "\r\n"), at: time.Now()})
		case errors.Is(err, io.EOF):
			// A partial line before end of input is no answer.
			t.offer(line{eof: true, at: time.Now()})
			select {
			case <-t.asked:
			case <-t.closed:
				return
			}
		default:
			return
		}
	}
}

func (t *Terminal) offer(l line) {
	select {
	case t.lines <- l:
	default:
	}
}

// Prompt shows r and asks for an answer: y or yes approves (a, or always,
// approves and asks to remember it for the session when no item is
// destructive and a grant can hold); n, no, an empty line, end of input, the
// deadline or ctx ending deny; anything else is asked again, with the time
// left, up to three times. Each destructive item of an approved request then
// needs "yes" typed in full, or it does not run. r's time starts when its
// turn comes and it is written out (shown is called then). The terminal
// offers no Edit; a request that offers nothing but an edit is denied.
func (t *Terminal) Prompt(ctx context.Context, r Request, shown ShownFunc) (Answer, error) {
	select {
	case t.turn <- struct{}{}:
	case <-ctx.Done():
		return Answer{}, ctx.Err()
	}
	defer func() { <-t.turn }()
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}

	if len(r.Items) == 0 {
		// Only an edit is offered, and the terminal cannot edit.
		return Answer{Outcome: Denied}, errors.New("the terminal prompter cannot edit a plan")
	}
	r.Deadline = shown()
	var b strings.Builder
	writeRequest(&b, r, t.now())
	destructive := 0
	for _, it := range r.Items {
		if it.Risk >= level.Destructive {
			destructive++
		}
	}
	q := question{text: "Approve? [y/N]", yes: []string{"y", "yes"}}
	if len(r.Items) > 1 {
		q.text = fmt.Sprintf("Approve all %d actions? [y/N]", len(r.Items))
	}
	if destructive == 0 && !r.NoRemember {
		q.text = strings.TrimSuffix(q.text, "[y/N]") + "[y/N, a = yes and allow again this session]"
		q.always = []string{"a", "always"}
	}
	if _, err := io.WriteString(t.f, b.String()); err != nil {
		return Answer{}, fmt.Errorf("showing the request: %w", err)
	}
	yes, remember, err := t.ask(ctx, r, q)
	if err != nil {
		return Answer{Outcome: Denied}, err
	}
	if !yes {
		t.say("→ denied.")
		return Answer{Outcome: Denied}, nil
	}
	a := Answer{Outcome: Approved, Items: make([]bool, len(r.Items)), Remember: remember}
	for i, it := range r.Items {
		if it.Risk < level.Destructive {
			a.Items[i] = true
			continue
		}
		dq := question{text: fmt.Sprintf("Type yes to run item %d (destructive), or no to skip it:", it.Index), yes: []string{"yes"}}
		ok, _, err := t.ask(ctx, r, dq)
		if err != nil {
			return Answer{Outcome: Denied}, err
		}
		if !ok {
			t.say(fmt.Sprintf("→ item %d will not run.", it.Index))
		}
		a.Items[i] = ok
	}
	t.say(summary(r, a))
	return a, nil
}

// question is one thing the terminal asks.
type question struct {
	text   string
	yes    []string // answers that approve
	always []string // answers that approve and remember
}

// ask asks q until it gets an answer: yes, or no (which includes too many
// unclear answers). Lines read before q was shown are ignored, so type-ahead
// cannot answer it. It returns an error when ctx ends or input does.
func (t *Terminal) ask(ctx context.Context, r Request, q question) (yes, remember bool, err error) {
	for try := 1; ; try++ {
		// shown is taken before the question is written: a line read after
		// it appeared is then never mistaken for type-ahead, however the
		// writer and the reader are scheduled.
		shown := time.Now()
		if _, err := io.WriteString(t.f, q.text+" "); err != nil {
			return false, false, fmt.Errorf("asking: %w", err)
		}
		select {
		case t.asked <- struct{}{}:
		default:
		}
		ans, err := t.answer(ctx, r, shown)
		if err != nil {
			return false, false, err
		}
		switch {
		case contains(q.yes, ans):
			return true, false, nil
		case contains(q.always, ans):
			return true, true, nil
		case ans == "" || ans == "n" || ans == "no":
			return false, false, nil
		case try >= invalidTries:
			t.say("→ no clear answer.")
			return false, false, nil
		}
		words := append(append([]string(nil), q.yes...), q.always...)
		t.say(fmt.Sprintf("Please answer %s or no. %s.", strings.Join(words, ", "), timeLeft(r.Deadline, t.now())))
	}
}

// answer waits for the first line typed after shown, lower-cased and trimmed.
func (t *Terminal) answer(ctx context.Context, r Request, shown time.Time) (string, error) {
	for {
		select {
		case <-ctx.Done():
			if !t.now().Before(r.Deadline) {
				t.say("\n→ time is up: denied.")
			} else {
				t.say("\n→ ended elsewhere (answered from the menu, withdrawn by its client or stopped by the kill switch): not approved here.")
			}
			return "", ctx.Err()
		case l, ok := <-t.lines:
			if !ok {
				t.say("\n→ the terminal is gone: denied.")
				return "", errors.New("reading the answer: the terminal is closed")
			}
			if l.at.Before(shown) {
				continue
			}
			if l.eof {
				t.say("\n→ end of input: denied.")
				return "", errors.New("reading the answer: end of input")
			}
			return strings.ToLower(strings.TrimSpace(l.text)), nil
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (t *Terminal) say(s string) { io.WriteString(t.f, s+"\n") }

// writeRequest writes what the person must see before answering.
func writeRequest(b *strings.Builder, r Request, now time.Time) {
	b.WriteString("\n── Airlock: approval needed ─────────────────────────────\n")
	fmt.Fprintf(b, "Asked by: %s\n", orUnknown(r.Client))
	fmt.Fprintf(b, "Program:  %s\n", programOrUnknown(r.Program))
	if r.Asked != "" {
		fmt.Fprintf(b, "Request:  %s\n", visible(r.Asked))
	}
	if r.Tool != "" {
		fmt.Fprintf(b, "Tool:     %s\n", visible(r.Tool))
	}
	fmt.Fprintf(b, "Call:     %s\n", visible(r.ID))
	fmt.Fprintf(b, "%s; no answer denies.\n", timeLeft(r.Deadline, now))
	if r.NoRemember && r.NoRememberWhy != "" {
		fmt.Fprintf(b, "Not offered: allow again this session (%s).\n", visible(r.NoRememberWhy))
	}
	b.WriteString("\n")
	mixed := anyRunsAnyway(r.Items)
	for _, it := range r.Items {
		fmt.Fprintf(b, "%3d. [%s] %s\n", it.Index, it.Risk, visible(it.Preview))
		if mixed {
			fmt.Fprintf(b, "       %s\n", yesNote(it))
		}
		for _, ln := range strings.Split(it.Text, "\n") {
			fmt.Fprintf(b, "       │ %s\n", visible(ln))
		}
		for _, why := range it.ShownReasons() {
			fmt.Fprintf(b, "       • %s\n", visible(why))
		}
	}
	b.WriteString("\n")
}

// anyRunsAnyway reports whether some items would run without a yes: the
// list then says of each whether it needs one.
func anyRunsAnyway(items []Item) bool {
	for _, it := range items {
		if it.RunsAnyway {
			return true
		}
	}
	return false
}

// yesNote says whether an item needs the person's yes.
func yesNote(it Item) string {
	if it.RunsAnyway {
		return "(runs at this level without your yes; shown so you see the whole plan)"
	}
	return "(needs your yes)"
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown client)"
	}
	return visible(s)
}

// programOrUnknown is the verified program of the client, or says that
// there is none: the name above it is then all there is, and it is the
// client's own claim.
func programOrUnknown(s string) string {
	if s == "" {
		return "(not verified: the name above is the client's own claim)"
	}
	return visible(s)
}

// timeLeft says how long until the deadline, to the second.
func timeLeft(deadline, now time.Time) string {
	left := deadline.Sub(now).Round(time.Second)
	if left < 0 {
		left = 0
	}
	return fmt.Sprintf("Time left: %v", left)
}

// summary says what the answer lets run.
func summary(r Request, a Answer) string {
	var ran, skipped []string
	for i, it := range r.Items {
		if a.Items[i] {
			ran = append(ran, fmt.Sprint(it.Index))
		} else {
			skipped = append(skipped, fmt.Sprint(it.Index))
		}
	}
	switch {
	case len(ran) == 0:
		return "→ denied."
	case len(skipped) == 0:
		if a.Remember {
			return "→ approved; allowed again this session."
		}
		return "→ approved."
	}
	return fmt.Sprintf("→ approved item(s) %s; not item(s) %s.", strings.Join(ran, ", "), strings.Join(skipped, ", "))
}

// visible is one line of model or client text as the terminal shows it:
// newlines, control, format and separator characters and bytes that are not
// UTF-8 are shown as ⟨U+XXXX⟩ or ⟨0xXX⟩ (tabs are kept, for indentation), so
// the person reads the exact text and nothing can rewrite the screen or fake
// a line.
func visible(s string) string {
	return bridge.EscapeBlock(strings.ReplaceAll(s, "\n", "⟨U+000A⟩"))
}
