package llm

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// Errors callers branch on. The errors this package returns wrap one of
// them and say, in words safe to show the person, what to do.
var (
	ErrUnreachable   = errors.New("the model server is not reachable")
	ErrUnauthorized  = errors.New("the model server refused the request's credentials")
	ErrModelNotFound = errors.New("the model is not installed on the server")
	ErrNoModels      = errors.New("the model server lists no models")
	ErrReplyTooLarge = errors.New("the model's reply is too large")
	ErrBadReply      = errors.New("the model server's reply does not follow its protocol")
	ErrServer        = errors.New("the model server reported an error")
	ErrTimeout       = errors.New("the model took too long")
	ErrCancelled     = errors.New("the model request was cancelled")
	ErrBadPlan       = errors.New("the model's reply is not a valid plan")
)

// Error is an error of this package: Msg is safe to show the person (it
// holds no key, and text from the server is redacted and cut short), Kind is
// one of the sentinel errors above.
type Error struct {
	Kind error
	Msg  string
	err  error // the cause, if any, for errors.Is/As
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.err != nil {
		return []error{e.Kind, e.err}
	}
	return []error{e.Kind}
}

func errorf(kind error, format string, a ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, a...)}
}

// ModelChoiceError is returned when no model is configured and the server
// lists more than one: the person must choose (settings, or --model).
type ModelChoiceError struct {
	Endpoint string
	Models   []string // sorted
}

func (e *ModelChoiceError) Error() string {
	const show = 10
	list := e.Models
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(" and %d more", len(e.Models)-show)
	}
	return fmt.Sprintf("no model is chosen and %s has %d: %s%s; choose one with --model NAME or the llmModel setting",
		e.Endpoint, len(e.Models), strings.Join(list, ", "), more)
}

// serverText makes text that came from the server fit an error message:
// secrets redacted, anything not printable replaced, at most 200 characters.
func serverText(s string) string {
	s = redact.String(s)
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 200 {
			b.WriteString("…")
			break
		}
		if !unicode.IsPrint(r) {
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}
