package ipc

import (
	"errors"
	"fmt"
)

// ErrAlreadyRunning is returned by Listen when another gate of this user
// holds the lock in the data directory.
var ErrAlreadyRunning = errors.New("another gate is already running for this user")

// ErrNotRunning is returned by Dial when no gate listens in the data
// directory.
var ErrNotRunning = errors.New("no gate is running")

// ErrClosed is returned by Call on a client whose connection has ended, and
// by notify once the request it belongs to is over.
var ErrClosed = errors.New("connection closed")

// UserError is an error whose message is safe to show to a client: it
// carries no secret, path or internal detail. Only errors that are or wrap a
// UserError have their text sent; the server sends UserMessage, never the
// Error text of the wrapping chain.
type UserError interface {
	error
	UserMessage() string
}

// RPCError is a JSON-RPC error. Call returns it for error responses; a
// Handler may return it (or wrap it) to choose the code, message and data a
// client sees. It is a UserError: Message and Data must be safe to show.
// Its Error text is Message alone, as a person reads it; a caller that
// branches on the code reads Code (errors.As).
type RPCError struct {
	Code    int
	Message string
	Data    any
}

func (e *RPCError) Error() string { return e.Message }

// RPCCode returns e.Code.
func (e *RPCError) RPCCode() int { return e.Code }

// UserMessage returns e.Message.
func (e *RPCError) UserMessage() string { return e.Message }

// coder is what a Handler's error implements to choose its code.
type coder interface{ RPCCode() int }

// wire converts err into what a client may see, and reports whether the
// text was withheld (so the caller can log it).
func wire(err error) (w wireError, hidden bool) {
	w.Code = CodeInternal
	var c coder
	if errors.As(err, &c) {
		w.Code = c.RPCCode()
	}
	var u UserError
	if !errors.As(err, &u) {
		w.Message = "internal error"
		return w, true
	}
	w.Message = u.UserMessage()
	if c == nil {
		w.Code = CodeServerError
	}
	var r *RPCError
	if errors.As(err, &r) {
		w.Data = r.Data
	}
	return w, false
}

func invalid(code int, format string, args ...any) *RPCError {
	return &RPCError{Code: code, Message: fmt.Sprintf(format, args...)}
}
