package approval_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/creack/pty"
)

// screen is the person's side of a pty: it collects what the terminal
// prompter shows and types answers.
type screen struct {
	t      *testing.T
	master *os.File

	mu     sync.Mutex
	cond   *sync.Cond
	out    bytes.Buffer // everything shown, with the pty's \r removed; guarded by mu
	mark   int          // how far waitFor has consumed; guarded by mu
	closed bool         // guarded by mu
}

// newScreen opens a pty pair and a Terminal on its slave side.
func newScreen(t *testing.T) (*screen, *approval.Terminal) {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	term, err := approval.NewTerminal(slave.Name())
	if err != nil {
		t.Fatal(err)
	}
	slave.Close() // the terminal holds its own descriptor
	s := &screen{t: t, master: master}
	s.cond = sync.NewCond(&s.mu)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			s.mu.Lock()
			s.out.Write(bytes.ReplaceAll(buf[:n], []byte("\r"), nil))
			if err != nil {
				s.closed = true
			}
			s.cond.Broadcast()
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// A safety net so that a broken prompter fails the test rather than
	// hanging it; no test depends on how fast anything is.
	stopNet := time.AfterFunc(20*time.Second, func() {
		s.mu.Lock()
		s.closed = true
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	t.Cleanup(func() {
		stopNet.Stop()
		term.Close()
		master.Close()
	})
	return s, term
}

// waitFor waits until want is shown after the last thing waited for, and
// returns everything shown up to and including it.
func (s *screen) waitFor(want string) string {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		rest := s.out.String()[s.mark:]
		if i := strings.Index(rest, want); i >= 0 {
			s.mark += i + len(want)
			return rest[:i+len(want)]
		}
		if s.closed {
			s.t.Fatalf("never shown %q; screen after the last mark:\n%s", want, rest)
		}
		s.cond.Wait()
	}
}

// all returns everything shown so far.
func (s *screen) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

func (s *screen) typeLine(answer string) {
	s.t.Helper()
	if _, err := s.master.WriteString(answer + "\n"); err != nil {
		s.t.Fatal(err)
	}
}

type promptResult struct {
	a   approval.Answer
	err error
}

func prompt(ctx context.Context, term *approval.Terminal, r approval.Request) <-chan promptResult {
	done := make(chan promptResult, 1)
	go func() {
		a, err := term.Prompt(ctx, r, shownAt(r.Deadline))
		done <- promptResult{a, err}
	}()
	return done
}

// shownAt is a ShownFunc for a prompt called without a broker: the request
// is shown with the deadline it was given.
func shownAt(deadline time.Time) approval.ShownFunc {
	return func() time.Time { return deadline }
}

func timedRequest(items ...approval.Item) approval.Request {
	r := request(items...)
	r.ID = "call-42"
	r.Created = time.Now()
	r.Deadline = r.Created.Add(5 * time.Minute)
	return r
}

func TestTerminalShowsTheExactAction(t *testing.T) {
	s, term := newScreen(t)
	script := "tell application \"Finder\"\n\tempty trash\x1b[2J\nend tell \u202egnp.exe"
	r := timedRequest(
		approval.Item{Index: 1, Preview: "Notify: Done", Text: `NOTIFY "Done" "Moved"`, Risk: level.Caution, Reasons: []string{"shows a notification"}},
		approval.Item{Index: 2, Preview: "Run an AppleScript", Text: script, Risk: level.Dangerous, Reasons: []string{"Finder: empty trash", "hides \x1b[8m text"}},
	)
	r.Client = "mcp: claude-desktop"
	done := prompt(context.Background(), term, r)
	shown := s.waitFor("Approve all 2 actions? [y/N, a = yes and allow again this session]")
	for _, want := range []string{
		"Asked by: mcp: claude-desktop\n",
		"Tool:     run_plan\n",
		"Call:     call-42\n",
		"  1. [caution] Notify: Done\n",
		"       │ NOTIFY \"Done\" \"Moved\"\n",
		"       • shows a notification\n",
		"  2. [dangerous] Run an AppleScript\n",
		"       │ tell application \"Finder\"\n",
		"       │ \tempty trash⟨U+001B⟩[2J\n",
		"       │ end tell ⟨U+202E⟩gnp.exe\n",
		"       • Finder: empty trash\n",
		"       • hides ⟨U+001B⟩[8m text\n",
		"no answer denies",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("prompt lacks %q:\n%s", want, shown)
		}
	}
	if strings.ContainsAny(shown, "\x1b\u202e") {
		t.Errorf("a raw escape or bidi override reached the terminal:\n%q", shown)
	}
	m := regexp.MustCompile(`Time left: (\S+);`).FindStringSubmatch(shown)
	if m == nil {
		t.Fatalf("no countdown:\n%s", shown)
	}
	if d, err := time.ParseDuration(m[1]); err != nil || d > 5*time.Minute || d < 4*time.Minute {
		t.Errorf("countdown %q for a deadline five minutes away", m[1])
	}
	s.typeLine("y")
	res := <-done
	if res.err != nil || res.a.Outcome != approval.Approved || fmt.Sprint(res.a.Items) != "[true true]" || res.a.Remember {
		t.Fatalf("Prompt = %+v, %v", res.a, res.err)
	}
	s.waitFor("→ approved.")
}

func TestTerminalAnswers(t *testing.T) {
	tests := []struct {
		name     string
		answers  []string
		want     approval.Outcome
		remember bool
		shows    string
	}{
		{"y", []string{"y"}, approval.Approved, false, "→ approved."},
		{"YES", []string{"YES"}, approval.Approved, false, "→ approved."},
		{"spaced yes", []string{"  yes "}, approval.Approved, false, "→ approved."},
		{"always", []string{"a"}, approval.Approved, true, "allowed again this session"},
		{"n", []string{"n"}, approval.Denied, false, "→ denied."},
		{"Return denies", []string{""}, approval.Denied, false, "→ denied."},
		{"no", []string{"No"}, approval.Denied, false, "→ denied."},
		{"unclear then yes", []string{"maybe", "y"}, approval.Approved, false, "→ approved."},
		{"three unclear answers deny", []string{"ok", "sure", "yep"}, approval.Denied, false, "no clear answer"},
		{"y with junk", []string{"y please", "n"}, approval.Denied, false, "→ denied."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, term := newScreen(t)
			done := prompt(context.Background(), term, timedRequest())
			s.waitFor("Approve? [y/N, a = yes and allow again this session]")
			for i, ans := range tt.answers {
				if i > 0 {
					shown := s.waitFor("Please answer y, yes, a, always or no. Time left: ")
					if !strings.Contains(shown, ans0(tt.answers, i)) {
						t.Errorf("the re-ask does not follow the answer %q:\n%s", tt.answers[i-1], shown)
					}
				}
				s.typeLine(ans)
			}
			res := <-done
			if res.err != nil || res.a.Outcome != tt.want || res.a.Remember != tt.remember {
				t.Fatalf("Prompt = %+v, %v; want %v remember=%v", res.a, res.err, tt.want, tt.remember)
			}
			if tt.want == approval.Denied && len(res.a.Items) != 0 {
				t.Fatalf("a denial lets items run: %v", res.a.Items)
			}
			s.waitFor(tt.shows)
		})
	}
}

// ans0 is the answer before answers[i], as the pty echoes it.
func ans0(answers []string, i int) string { return answers[i-1] + "\n" }

func TestTerminalDestructiveNeedsItsOwnYes(t *testing.T) {
	plan := []approval.Item{item(1, level.Caution, "a"), item(2, level.Destructive, "EMPTY_TRASH"), item(3, level.Dangerous, "c")}
	tests := []struct {
		name    string
		answers []string // after the plan's y
		items   string
		shows   string
	}{
		{"yes in full", []string{"yes"}, "[true true true]", "→ approved."},
		{"y is not enough", []string{"y", "yes"}, "[true true true]", "→ approved."},
		{"no skips it", []string{"no"}, "[true false true]", "→ approved item(s) 1, 3; not item(s) 2."},
		{"Return skips it", []string{""}, "[true false true]", "item 2 will not run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, term := newScreen(t)
			done := prompt(context.Background(), term, timedRequest(plan...))
			shown := s.waitFor("Approve all 3 actions? [y/N]")
			if strings.Contains(shown, "allow again") {
				t.Error("remembering is offered for a plan with a destructive item")
			}
			s.typeLine("y")
			for i, ans := range tt.answers {
				if i == 0 {
					s.waitFor("Type yes to run item 2 (destructive), or no to skip it:")
				} else {
					s.waitFor("Please answer yes or no.")
				}
				s.typeLine(ans)
			}
			res := <-done
			if res.err != nil || res.a.Outcome != approval.Approved || fmt.Sprint(res.a.Items) != tt.items {
				t.Fatalf("Prompt = %+v, %v; want items %s", res.a, res.err, tt.items)
			}
			s.waitFor(tt.shows)
		})
	}
	t.Run("always is no answer here", func(t *testing.T) {
		s, term := newScreen(t)
		done := prompt(context.Background(), term, timedRequest(plan...))
		s.waitFor("[y/N]")
		s.typeLine("a")
		s.waitFor("Please answer y, yes or no.")
		s.typeLine("n")
		if res := <-done; res.a.Outcome != approval.Denied || res.a.Remember {
			t.Fatalf("Prompt = %+v", res.a)
		}
	})
}

func TestTerminalEndOfInputDenies(t *testing.T) {
	s, term := newScreen(t)
	done := prompt(context.Background(), term, timedRequest())
	s.waitFor("[y/N")
	s.master.WriteString("\x04") // Ctrl-D on an empty line
	res := <-done
	if res.err == nil || res.a.Outcome == approval.Approved {
		t.Fatalf("Prompt after Ctrl-D = %+v, %v", res.a, res.err)
	}
	s.waitFor("end of input: denied.")

	// Ctrl-D denied that request only; the terminal still asks.
	done = prompt(context.Background(), term, timedRequest())
	s.waitFor("[y/N")
	s.typeLine("y")
	if res := <-done; res.a.Outcome != approval.Approved {
		t.Fatalf("the prompt after Ctrl-D = %+v, %v", res.a, res.err)
	}

	// A terminal that goes away denies what it was asking and all after.
	done = prompt(context.Background(), term, timedRequest())
	s.waitFor("[y/N")
	term.Close()
	if res := <-done; res.err == nil || res.a.Outcome == approval.Approved {
		t.Fatalf("Prompt on a closed terminal = %+v, %v", res.a, res.err)
	}
	if _, err := term.Prompt(context.Background(), timedRequest(), shownAt(time.Now().Add(time.Minute))); err == nil {
		t.Fatal("a prompt on a closed terminal did not fail")
	}
}

func TestTerminalContextEnds(t *testing.T) {
	s, term := newScreen(t)

	// Withdrawn before the deadline: the broker resolved it elsewhere.
	ctx, cancel := context.WithCancel(context.Background())
	done := prompt(ctx, term, timedRequest())
	s.waitFor("[y/N")
	cancel()
	if res := <-done; !errors.Is(res.err, context.Canceled) || res.a.Outcome == approval.Approved {
		t.Fatalf("Prompt after cancel = %+v, %v", res.a, res.err)
	}
	s.waitFor("withdrawn")

	// At the deadline.
	r := timedRequest()
	r.Deadline = time.Now()
	ctx, cancel = context.WithDeadline(context.Background(), r.Deadline.Add(50*time.Millisecond))
	defer cancel()
	done = prompt(ctx, term, r)
	s.waitFor("Time left: 0s")
	if res := <-done; !errors.Is(res.err, context.DeadlineExceeded) || res.a.Outcome == approval.Approved {
		t.Fatalf("Prompt past its deadline = %+v, %v", res.a, res.err)
	}
	s.waitFor("time is up: denied.")

	// The terminal is free for the next request.
	done = prompt(context.Background(), term, timedRequest())
	s.waitFor("[y/N")
	s.typeLine("y")
	if res := <-done; res.a.Outcome != approval.Approved {
		t.Fatalf("next prompt = %+v, %v", res.a, res.err)
	}
}

// TestTerminalSerialises starts two prompts at once: the second is shown only
// after the first is answered, never interleaved with it.
func TestTerminalSerialises(t *testing.T) {
	s, term := newScreen(t)
	var starts sync.WaitGroup
	starts.Add(1)
	results := make(chan promptResult, 2)
	for _, id := range []string{"first-call", "second-call"} {
		go func() {
			r := timedRequest()
			r.ID = id
			starts.Wait()
			a, err := term.Prompt(context.Background(), r, shownAt(r.Deadline))
			results <- promptResult{a, err}
		}()
	}
	starts.Done()
	for range 2 {
		shown := s.waitFor("[y/N, a = yes and allow again this session]")
		if n := strings.Count(shown, "Call:"); n != 1 {
			t.Fatalf("%d requests shown before one question:\n%s", n, shown)
		}
		s.typeLine("y")
		s.waitFor("→ approved.")
	}
	for range 2 {
		if res := <-results; res.a.Outcome != approval.Approved {
			t.Fatalf("Prompt = %+v, %v", res.a, res.err)
		}
	}
	// Each request's header, question and outcome come together.
	blocks := strings.Split(s.all(), "── Airlock: approval needed")
	if len(blocks) != 3 {
		t.Fatalf("%d headers, want 2:\n%s", len(blocks)-1, s.all())
	}
	for _, b := range blocks[1:] {
		if strings.Count(b, "Call:") != 1 || strings.Count(b, "→ approved.") != 1 {
			t.Errorf("interleaved prompt:\n%s", b)
		}
	}
}

func TestTerminalThroughBroker(t *testing.T) {
	s, term := newScreen(t)
	b := approval.NewBroker(term, approval.Options{Timeout: time.Minute})
	events, stop := b.Subscribe(16)
	defer stop()

	asked := make(chan error, 1)
	go func() { _, err := b.Ask(context.Background(), request()); asked <- err }()
	shown := s.waitFor("[y/N")
	if !strings.Contains(shown, "Time left: 1m0s") && !strings.Contains(shown, "Time left: 59s") {
		t.Errorf("the broker's deadline is not shown:\n%s", shown)
	}
	s.typeLine("y")
	if err := <-asked; err != nil {
		t.Fatalf("approved on the terminal, Ask = %v", err)
	}

	// The kill switch withdraws the prompt on the terminal.
	go func() { _, err := b.Ask(context.Background(), request()); asked <- err }()
	s.waitFor("[y/N")
	for e := range events {
		if e.Type == approval.EventAwaiting && len(b.Pending()) == 1 {
			break
		}
	}
	if n := b.KillAll(); n != 1 {
		t.Fatalf("KillAll = %d", n)
	}
	if err := <-asked; !errors.Is(err, approval.ErrKilled) {
		t.Fatalf("Ask after KillAll = %v", err)
	}
	s.waitFor("withdrawn")

	go func() { _, err := b.Ask(context.Background(), request()); asked <- err }()
	s.waitFor("[y/N")
	s.typeLine("")
	if err := <-asked; !errors.Is(err, approval.ErrDenied) {
		t.Fatalf("Return on the terminal, Ask = %v", err)
	}
}

func TestNewTerminalRefusesNonTerminals(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "answers.txt")
	if err := os.WriteFile(file, []byte("y\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{file, fifo, filepath.Join(dir, "missing")} {
		if term, err := approval.NewTerminal(path); err == nil {
			term.Close()
			t.Errorf("NewTerminal(%s) accepted a non-terminal", path)
		}
	}
}

// TestTerminalShowsWhoAndWhat: the verified program is shown beside the
// name the client chose (and said to be missing when it is), a request in
// words is shown with its plan, and "allow again" is not offered when no
// grant could hold.
func TestTerminalShowsWhoAndWhat(t *testing.T) {
	s, term := newScreen(t)
	r := timedRequest()
	r.Client = "mcp: claude-ai"
	r.Program = "/usr/bin/claude (pid 123)"
	r.Asked = "tidy my\u202e desktop"
	r.Tool = ""
	done := prompt(context.Background(), term, r)
	shown := s.waitFor("[y/N")
	for _, want := range []string{"Asked by: mcp: claude-ai\n", "Program:  /usr/bin/claude (pid 123)\n", "Request:  tidy my⟨U+202E⟩ desktop\n"} {
		if !strings.Contains(shown, want) {
			t.Errorf("missing %q in:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "Tool:") {
		t.Errorf("a request in words shows a tool:\n%s", shown)
	}
	s.typeLine("n")
	<-done

	r = timedRequest()
	r.Program, r.NoRemember, r.NoRememberWhy = "", true, "the client's program is not verified"
	done = prompt(context.Background(), term, r)
	shown = s.waitFor("[y/N")
	if !strings.Contains(shown, "Program:  (not verified") {
		t.Errorf("an unverified client is not said to be one:\n%s", shown)
	}
	if !strings.Contains(shown, "Not offered: allow again this session (the client's program is not verified).") {
		t.Errorf("the request does not say why allow again is not offered:\n%s", shown)
	}
	if rest := s.waitFor("]"); strings.Contains(rest, "allow again") {
		t.Errorf("allow again offered for a request no grant could hold: %q", rest)
	}
	s.typeLine("a")
	s.waitFor("Please answer y, yes or no.")
	s.typeLine("n")
	if res := <-done; res.a.Outcome != approval.Denied || res.a.Remember {
		t.Fatalf("Prompt = %+v, %v", res.a, res.err)
	}
}
