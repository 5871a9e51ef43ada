package gate

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// Live output: what a running command prints reaches its client as it
// comes (EventOutput), not only in the result once it has ended. The
// result stays what it was, redacted whole; the live copy is redacted
// too, and bounded, so a command that floods its output can neither grow
// the gate's memory nor its client's.
//
// A secret printed in pieces must not leave in pieces: the live copy goes
// out in whole lines (a line is held until its end comes), and a block of
// lines the redactor reads as one (a PEM private key, a run of lines each
// of which is base64 or hex, as wrapped output is) is held until it ends.
// What is held is bounded too: a block larger than maxHeld is not shown
// live at all (a note says so; the result has it, redacted), and a line
// longer than maxLine goes out cut at its last blank.

// Bounds of the live output of one action.
const (
	// maxLivePending bounds what the pipes have handed over and the sender
	// has not yet taken, per stream: past it bytes are dropped, counted,
	// and the drop is noted in the stream.
	maxLivePending = 256 << 10
	// maxLiveTotal bounds what one action sends live, both streams
	// together; past it a note says the rest is in the result.
	maxLiveTotal = 1 << 20
	// maxLiveChunk bounds the text of one output event.
	maxLiveChunk = 16 << 10
	// liveEvery is the least time between two sends of one action's
	// output: a flood goes out in few, large events.
	liveEvery = 100 * time.Millisecond
	// maxHeld bounds a held block (see above); maxLine a line.
	maxHeld = 64 << 10
	maxLine = 8 << 10
)

// The values of Event.Stream.
const (
	StreamStdout = "stdout"
	StreamStderr = "stderr"
)

// liveOutput takes what a command prints (write, from the pipes'
// goroutines, never blocking) and sends it, redacted and bounded, through
// send from a goroutine of its own. close sends what is left and waits for
// that goroutine: after it returns send is never called again.
type liveOutput struct {
	send  func(stream, text string)
	every time.Duration

	mu      sync.Mutex
	pending [2][]byte // guarded by mu; handed over, not yet taken
	dropped [2]int    // guarded by mu; bytes lost to a full pending buffer
	ended   bool      // guarded by mu; close was called

	wake    chan struct{} // buffered 1: something is pending
	closing chan struct{} // closed by close
	done    chan struct{} // closed when the sender has ended

	// Owned by the sender's goroutine.
	lines [2]lineRedactor
	sent  int
	full  bool // maxLiveTotal reached, and said
}

// streamNames are the streams by index: stdout 0, stderr 1.
var streamNames = [2]string{StreamStdout, StreamStderr}

func newLiveOutput(send func(stream, text string)) *liveOutput {
	l := &liveOutput{send: send, every: liveEvery, wake: make(chan struct{}, 1), closing: make(chan struct{}), done: make(chan struct{})}
	go l.run()
	return l
}

// write takes p from stream stdout (stderr false) or stderr. It copies p,
// never blocks, and drops what does not fit.
func (l *liveOutput) write(p []byte, stderr bool) {
	i := 0
	if stderr {
		i = 1
	}
	l.mu.Lock()
	if !l.ended {
		room := maxLivePending - len(l.pending[i])
		n := min(max(room, 0), len(p))
		l.pending[i] = append(l.pending[i], p[:n]...)
		l.dropped[i] += len(p) - n
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// close sends what is left, as the command has ended, and returns once
// the last of it is sent.
func (l *liveOutput) close() {
	l.mu.Lock()
	l.ended = true
	l.mu.Unlock()
	close(l.closing)
	<-l.done
}

// run is the sender: it takes what is pending, at most once per l.every,
// until close.
func (l *liveOutput) run() {
	defer close(l.done)
	var last time.Time
	for {
		select {
		case <-l.wake:
			// Gather what comes until the period is out into one send,
			// unless the command ends first.
			if wait := l.every - time.Since(last); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-l.closing:
					t.Stop()
				}
			}
		case <-l.closing:
		}
		l.mu.Lock()
		ended := l.ended
		took, dropped := l.pending, l.dropped
		l.pending, l.dropped = [2][]byte{}, [2]int{}
		l.mu.Unlock()
		for i := range took {
			if dropped[i] == 0 {
				l.emit(i, l.lines[i].feed(string(took[i]), ended))
				continue
			}
			// What was taken ends where bytes were lost: the line (or
			// block) it ends in, and the rest of that line after the
			// loss, would be read as one line they are not, so neither
			// is shown.
			text := l.lines[i].feed(string(took[i]), false)
			l.lines[i].gap()
			text += fmt.Sprintf("\n[%d bytes not shown live: the command printed faster than they could be sent; the result has them]\n", dropped[i])
			l.emit(i, text)
		}
		last = time.Now()
		if ended {
			return
		}
	}
}

// emit sends text of stream i in events of at most maxLiveChunk bytes,
// within maxLiveTotal.
func (l *liveOutput) emit(i int, text string) {
	for text != "" && !l.full {
		if l.sent+len(text) > maxLiveTotal {
			text = cutUTF8(text, maxLiveTotal-l.sent)
			l.full = true
		}
		for text != "" {
			chunk := cutUTF8(text, maxLiveChunk)
			if chunk == "" { // a rune longer than the room left
				break
			}
			l.send(streamNames[i], chunk)
			l.sent += len(chunk)
			text = text[len(chunk):]
		}
		if l.full {
			l.send(streamNames[i], fmt.Sprintf("\n[the live output stops at %d bytes; the result has the rest]\n", maxLiveTotal))
		}
	}
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// end inside a rune.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// lineRedactor turns one stream's text, given in pieces as it comes, into
// redacted text safe to send: whole lines, and whole blocks (see above).
// The zero value is ready.
type lineRedactor struct {
	held string // a block, then a part line, not yet sent
	// skip, when not skipNone, is what goes by unshown: the rest of a
	// block or line too large to hold.
	skip skipping
}

// skipping is what a lineRedactor lets go by unshown, and so where that
// ends.
type skipping int

const (
	skipNone    skipping = iota
	skipKey              // a private key: up to its END line
	skipEncoded          // an encoded block: up to a line that is not
	skipLine             // a line with no blank: up to its end
)

// notShown is the note that stands for what a lineRedactor skips.
var notShown = [...]string{
	skipKey:     "[a private key, not shown live; the result has it, redacted]\n",
	skipEncoded: "[a block of encoded text, not shown live; the result has it, redacted]\n",
	skipLine:    "[a line of more than 64 KiB with no blank, not shown live; the result has it, redacted]\n",
}

// feed takes the next piece of the stream and returns the redacted text
// that may go now; final says the stream has ended, and all that is held
// goes (redacted).
func (r *lineRedactor) feed(s string, final bool) string {
	text := r.held + s
	r.held = ""
	var ready strings.Builder
	blockStart := -1 // in text: where a held block begins, or -1
	block := skipNone
	pos := 0
	for pos < len(text) {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			break
		}
		line := text[pos : pos+nl+1]
		next := pos + nl + 1
		switch {
		case r.skip == skipKey:
			if strings.Contains(line, "-----END") {
				r.skip = skipNone
			}
		case r.skip == skipLine:
			r.skip = skipNone
		case r.skip == skipEncoded:
			if !encodedLine(line) {
				r.skip = skipNone
				continue // the line that ended it is read again, as itself
			}
		case block == skipKey:
			if strings.Contains(line, "-----END") {
				ready.WriteString(text[blockStart:next])
				blockStart, block = -1, skipNone
			}
		case block == skipEncoded:
			if !encodedLine(line) {
				ready.WriteString(text[blockStart:pos])
				blockStart, block = -1, skipNone
				continue // this line is read again, as itself
			}
		case keyBegins(line):
			blockStart, block = pos, skipKey
		case encodedLine(line):
			blockStart, block = pos, skipEncoded
		default:
			ready.WriteString(line)
		}
		pos = next
		if block != skipNone && pos-blockStart > maxHeld {
			ready.WriteString(notShown[block]) // too large to hold
			r.skip = block
			blockStart, block = -1, skipNone
		}
	}
	rest := text[pos:] // a part line, or a block and a part line
	if block != skipNone {
		rest = text[blockStart:]
	}
	switch {
	case final:
		if r.skip == skipNone {
			ready.WriteString(rest)
		}
		rest = ""
	case r.skip != skipNone:
		if len(rest) > maxHeld {
			// What ends the skip has not come: keep only the part line's
			// tail, where a block's END line may begin.
			rest = rest[len(rest)-maxLine:]
		}
	case block != skipNone:
		if len(rest) > maxHeld {
			ready.WriteString(notShown[block])
			r.skip = block
			rest = ""
		}
	case len(rest) > maxLine:
		// A line too long to hold whole: up to its last blank goes, and
		// what follows it stays, for a secret there to be seen whole.
		if cut := safeCut(rest); cut >= 0 {
			ready.WriteString(rest[:cut+1])
			rest = rest[cut+1:]
		} else if len(rest) > maxHeld {
			ready.WriteString(notShown[skipLine])
			r.skip = skipLine
			rest = ""
		}
	}
	r.held = rest
	if ready.Len() == 0 {
		return ""
	}
	return redact.String(ready.String())
}

// maxCutTries bounds the blanks safeCut tries, each a redaction of the
// line three times.
const maxCutTries = 8

// safeCut returns where a line too long to hold (no end yet) may be cut:
// the index of a blank in its first part (before its last maxLine/2
// bytes), or -1 for none. A blank may lie between a name that calls a
// value secret and the value ("db_password = V"), which the redactor
// finds together and not apart; so a blank is taken only where redacting
// the two parts apart gives what redacting the line does, the last such
// of the last maxCutTries blanks.
func safeCut(line string) int {
	whole := ""
	end := len(line) - maxLine/2
	for range maxCutTries {
		cut := strings.LastIndexAny(line[:end], " \t")
		if cut < 0 {
			return -1
		}
		if whole == "" {
			whole = redact.String(line)
		}
		if redact.String(line[:cut+1])+redact.String(line[cut+1:]) == whole {
			return cut
		}
		end = cut
	}
	return -1
}

// gap tells the redactor that bytes of the stream were lost after what it
// was fed: what it holds (a part line, a block) is dropped unshown, and so
// is what comes up to the end of the line the loss cut; a private key it
// was in, held or skipped, is skipped to its END line.
func (r *lineRedactor) gap() {
	first, _, _ := strings.Cut(r.held, "\n")
	switch {
	case r.skip == skipKey || keyBegins(first+"\n"):
		r.skip = skipKey
	default:
		r.skip = skipLine
	}
	r.held = ""
}

// keyBegins reports whether line starts a PEM private key block that it
// does not also end.
func keyBegins(line string) bool {
	i := strings.Index(line, "-----BEGIN")
	return i >= 0 && strings.Contains(line[i:], "PRIVATE KEY") && !strings.Contains(line[i:], "-----END")
}

// encodedLine reports whether line is one the redactor may read as part of
// a wrapped base64 or hex block: at least 16 bytes of those alphabets and
// nothing else but blanks (redact's lineBlocks).
func encodedLine(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) < 16 {
		return false
	}
	if t = strings.TrimRight(t, "="); t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
