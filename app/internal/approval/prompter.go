package approval

import (
	"context"
	"sync"
	"time"
)

// A Prompter shows a request to the person and returns their answer.
//
// An implementation must show, before it can be answered, which client
// asked (the name it gave and, when known, its verified program), every
// item's exact text, risk level and reasons, and the deadline; it must make
// denying the default (Return, Escape, closing the window, end of input) and
// ask for a separate confirmation of each destructive item it approves. It
// must read the answer only from the person — never from standard input or
// anything else an agent can write to.
//
// A request with Edit may be answered Edited instead: the person chose to
// edit its text, and Answer.Text is what they wrote, taken from Airlock's
// own editor as the person left it (never from anything an agent can
// write to), and Answer.By says which popup. A prompter that cannot edit
// ignores Edit, and denies a request that offers nothing but an edit (no
// Items). Edit, like Approve, counts only when the person chose it.
//
// The request's time runs from when the person can see it, not from when it
// was submitted: Prompt must call shown once it is about to put r on screen
// (right before the window is mapped or the text is written, with nothing
// left to wait for but that) and show the deadline shown returns. Calling it
// again returns the same deadline. Until shown is called the request waits
// its turn with no deadline of its own (the broker bounds that wait with
// Options.MaxWait). An approval from a Prompt that never called shown is
// refused: nobody can have approved what was never shown.
//
// Prompt must return promptly once ctx is done (the request timed out, was
// answered elsewhere, withdrawn by its client, or the kill switch tripped);
// whatever it returns then is ignored. Returning an error, or any outcome
// other than Approved, denies the request. Prompt may be called from several
// goroutines at once; an implementation that can show one request at a time
// must serialise them, and calls shown only when a request's turn comes.
type Prompter interface {
	Prompt(ctx context.Context, r Request, shown ShownFunc) (Answer, error)
}

// ShownFunc tells the broker that a request is now on screen and returns its
// deadline. It is safe to call from any goroutine, more than once.
type ShownFunc func() (deadline time.Time)

// Script is a Prompter for tests: it answers from a list or a function and
// records every request it was shown. It shows each request at once: it
// calls shown before it records or answers it.
type Script struct {
	answer func(ctx context.Context, r Request) (Answer, error)

	mu      sync.Mutex
	shown   []Request // guarded by mu
	answers []Answer  // guarded by mu
}

// Scripted returns a Prompter that gives answers in order, one per request.
// Once they run out it waits until the request's context ends, as a person
// who never answers.
func Scripted(answers ...Answer) *Script { return &Script{answers: answers} }

// ScriptedFunc returns a Prompter that answers each request with f. f is
// given the request as shown, its Deadline set.
func ScriptedFunc(f func(ctx context.Context, r Request) (Answer, error)) *Script {
	return &Script{answer: f}
}

func (s *Script) Prompt(ctx context.Context, r Request, shown ShownFunc) (Answer, error) {
	r.Deadline = shown()
	s.mu.Lock()
	r.Items = append([]Item(nil), r.Items...)
	s.shown = append(s.shown, r)
	f := s.answer
	var next *Answer
	if f == nil && len(s.answers) > 0 {
		next = &s.answers[0]
		s.answers = s.answers[1:]
	}
	s.mu.Unlock()
	switch {
	case f != nil:
		return f(ctx, r)
	case next != nil:
		return *next, nil
	}
	<-ctx.Done()
	return Answer{}, ctx.Err()
}

// Shown returns the requests the prompter was shown, in order.
func (s *Script) Shown() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.shown...)
}
