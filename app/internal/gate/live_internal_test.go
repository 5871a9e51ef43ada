package gate

import (
	"encoding/base64"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// A GitHub token and a private key the redactor knows, for the tests.
const (
	testToken = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	testKey   = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDzX3ZcJ7cD0pYYw4QyZXdvbmRlcmZ1bCBrZXkgZm9yIHRlc3RzIG9ubHk=\n-----END OPENSSH PRIVATE KEY-----\n"
)

// feedAll feeds pieces to a fresh lineRedactor, the last with final, and
// returns what each feed let go.
func feedAll(pieces ...string) []string {
	var r lineRedactor
	out := make([]string, len(pieces))
	for i, p := range pieces {
		out[i] = r.feed(p, i == len(pieces)-1)
	}
	return out
}

// TestLiveRedactsSecretsSplitAcrossPieces: a secret the command prints in
// two pieces (with time between them, so each would go out on its own) is
// never sent in pieces: no piece sent holds any of it, and what is sent is
// redacted as the whole output would be.
func TestLiveRedactsSecretsSplitAcrossPieces(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("token " + testToken + " and more text to wrap the line"))
	wrapped := b64[:40] + "\n" + b64[40:] + "\n"
	for _, tc := range []struct {
		name   string
		pieces []string
		secret []string // no sent piece may hold any of these
	}{
		{"a token cut in two", []string{"build ok\nyour token: " + testToken[:20], testToken[20:] + "\ndone\n", ""},
			[]string{testToken[:20], testToken[20:]}},
		{"a token cut in three", []string{"x " + testToken[:8], testToken[8:30], testToken[30:] + "\n", ""},
			[]string{testToken[:8], testToken[8:30], testToken[30:]}},
		{"a key line by line", append(strings.SplitAfter(testKey, "\n"), "after\n"),
			[]string{"b3BlbnNzaC1rZXktdjEAAAAA", "QyNTUxOQAAACDzX3Zc"}},
		{"a key cut inside its lines", []string{testKey[:50], testKey[50:120], testKey[120:], "after\n"},
			[]string{"b3BlbnNzaC1rZXktdjEAAAAA", "QyNTUxOQAAACDzX3Zc"}},
		{"wrapped base64 of a token", []string{"start\n" + wrapped[:41], wrapped[41:], "end\n"},
			[]string{b64[:40], b64[40:]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sent := feedAll(tc.pieces...)
			whole := strings.Join(sent, "")
			for i, s := range sent {
				for _, sec := range tc.secret {
					if strings.Contains(s, sec) {
						t.Fatalf("piece %d sent %q, which holds %q", i, s, sec)
					}
				}
			}
			if want := redact.String(strings.Join(tc.pieces, "")); whole != want {
				t.Fatalf("sent %q in all, want what the whole output redacts to, %q", whole, want)
			}
			if !strings.Contains(whole, "[redacted:") {
				t.Fatalf("sent %q: no marker", whole)
			}
		})
	}
}

// TestLiveSendsWholeLinesAsTheyCome: a line goes as soon as its end has
// come, a part line waits for its end, and the end of the stream sends it.
func TestLiveSendsWholeLinesAsTheyCome(t *testing.T) {
	got := feedAll("one\ntw", "o\nthr", "ee")
	want := []string{"one\n", "two\n", "three"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sent %q, want %q", got, want)
		}
	}
}

// TestLiveHoldsBounded: what is held for a block, a key or a line without
// a blank never grows past its bound; what was too large to hold is said,
// not sent, and what follows it is sent again as it comes.
func TestLiveHoldsBounded(t *testing.T) {
	encodedLine := strings.Repeat("QUJD", 19) + "\n" // 77 bytes of base64
	for _, tc := range []struct {
		name  string
		piece string // fed many times
		note  string
	}{
		{"an endless key", "", "[a private key, not shown live"},
		{"an endless encoded block", encodedLine, "[a block of encoded text, not shown live"},
		{"an endless line", strings.Repeat("x", 1000), "[a line of more than 64 KiB with no blank, not shown live"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r lineRedactor
			var sent strings.Builder
			piece := tc.piece
			if piece == "" {
				sent.WriteString(r.feed("-----BEGIN RSA PRIVATE KEY-----\n", false))
				piece = encodedLine
			}
			for range 2000 {
				sent.WriteString(r.feed(piece, false))
				if len(r.held) > maxHeld+len(piece) {
					t.Fatalf("holds %d bytes, past the bound %d", len(r.held), maxHeld)
				}
			}
			if strings.Contains(sent.String(), strings.TrimSpace(piece)) || !strings.Contains(sent.String(), tc.note) {
				t.Fatalf("sent %q, want only the note %q", clip(sent.String()), tc.note)
			}
			after := r.feed("\n-----END RSA PRIVATE KEY-----\nplain words\n", false)
			if !strings.HasSuffix(after, "plain words\n") {
				t.Fatalf("after the block, sent %q; want the plain line", after)
			}
		})
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestLiveFloodIsBounded: a command that prints far faster than its client
// takes it grows neither what is pending nor what is sent past their
// bounds; the drop and the stop are said in the stream, and close sends
// what is left and returns.
func TestLiveFloodIsBounded(t *testing.T) {
	var mu sync.Mutex
	var sent int
	var notes []string
	gate := make(chan struct{})
	l := newLiveOutput(func(stream, text string) {
		<-gate // a slow client
		mu.Lock()
		defer mu.Unlock()
		sent += len(text)
		if strings.Contains(text, "not shown live") || strings.Contains(text, "live output stops") {
			notes = append(notes, text)
		}
	})
	line := []byte(strings.Repeat("y", 99) + "\n")
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 100_000 { // 10 MB
		l.write(line, false)
		l.mu.Lock()
		n := len(l.pending[0])
		l.mu.Unlock()
		if n > maxLivePending {
			t.Fatalf("%d bytes pending, past the bound %d", n, maxLivePending)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 8<<20 {
		t.Fatalf("the heap grew by %d bytes for 10 MB printed", grew)
	}
	close(gate)
	done := make(chan struct{})
	go func() { l.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("close did not return")
	}
	mu.Lock()
	defer mu.Unlock()
	if sent > maxLiveTotal+1024 {
		t.Fatalf("sent %d bytes, past the bound %d", sent, maxLiveTotal)
	}
	if len(notes) == 0 || !strings.Contains(strings.Join(notes, ""), "not shown live") {
		t.Fatalf("the drop was not said: notes %q", notes)
	}
}

// TestLiveCloseSendsTheRest: close sends the part line still held, and
// nothing is sent after close returns.
func TestLiveCloseSendsTheRest(t *testing.T) {
	var mu sync.Mutex
	var got []string
	closed := false
	l := newLiveOutput(func(stream, text string) {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			t.Errorf("sent %q after close", text)
		}
		got = append(got, stream+":"+text)
	})
	l.write([]byte("out line\npart"), false)
	l.write([]byte("err line\n"), true)
	l.close()
	mu.Lock()
	closed = true
	all := strings.Join(got, "|")
	mu.Unlock()
	for _, want := range []string{"stdout:out line\n", "part", "stderr:err line\n"} {
		if !strings.Contains(all, want) {
			t.Fatalf("sent %q, want %q among it", all, want)
		}
	}
}

// FuzzLineRedactor feeds a command's output cut at a chosen place: feed
// never panics, holds no more than its bounds, and what it sends for an
// output given whole is what the redactor makes of it.
func FuzzLineRedactor(f *testing.F) {
	f.Add("one\ntwo "+testToken+"\n", 7)
	f.Add(testKey+"after\n", 40)
	f.Add(strings.Repeat("QUJD", 30)+"\n"+strings.Repeat("QUJD", 30)+"\nx\n", 100)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		var whole lineRedactor
		if got := whole.feed(s, true); got != redact.String(s) && !strings.Contains(got, "not shown live") {
			t.Fatalf("fed whole, sent %q; the redactor makes %q", got, redact.String(s))
		}
		if cut < 0 {
			cut = -cut
		}
		if len(s) > 0 {
			cut %= len(s) + 1
		} else {
			cut = 0
		}
		var r lineRedactor
		r.feed(s[:cut], false)
		if len(r.held) > maxHeld+len(s) {
			t.Fatalf("holds %d bytes", len(r.held))
		}
		r.feed(s[cut:], true)
		if r.held != "" {
			t.Fatalf("holds %q after the end", r.held)
		}
	})
}

// TestLiveGapDropsTheBrokenLine: where bytes were lost (a flood), the part
// line before the loss and the rest of the line after it are not shown (the
// two halves of a token would be read as one line they are not), and a key
// the loss cut is skipped to its END line; what follows is shown again.
func TestLiveGapDropsTheBrokenLine(t *testing.T) {
	var r lineRedactor
	got := r.feed("first\ntoken: "+testToken[:12], false)
	r.gap()
	got += r.feed(testToken[30:]+" more\nnext\n", true)
	if strings.Contains(got, testToken[:12]) || strings.Contains(got, testToken[30:]) || got != "first\nnext\n" {
		t.Fatalf("sent %q; want the lines around the loss only", got)
	}
	var k lineRedactor
	lines := strings.SplitAfter(testKey, "\n")
	got = k.feed(lines[0]+lines[1], false)
	k.gap()
	got += k.feed(lines[2]+lines[3]+"after\n", true)
	if strings.Contains(got, "QyNTUxOQAAACDzX3Zc") || !strings.HasSuffix(got, "after\n") {
		t.Fatalf("sent %q; want nothing of the key, and the line after it", got)
	}
}
