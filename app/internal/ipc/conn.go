package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// conn is one client connection. Its reader (serve) reads and decodes
// frames; one worker goroutine runs the requests, one at a time. Either
// ending the connection cancels ctx, which is what tells a handler its
// client is gone: context.Cause(ctx) is ErrClientGone then, or, when the
// server closes, an error saying the gate is shutting down.
type conn struct {
	s      *Server
	nc     *net.UnixConn
	ctx    context.Context // carries the peer (PeerFrom)
	cancel context.CancelCauseFunc

	wmu sync.Mutex // serialises writes to nc, and guards call.done

	mu         sync.Mutex
	busy       bool      // a request is in flight; guarded by mu
	frameStart time.Time // when the frame being read began, zero between frames; guarded by mu
	lastSeen   time.Time // when a frame last began or a response was last sent; guarded by mu
}

// call is one request in flight, so notify can tell that it is over.
type call struct {
	done bool // the response has been written; guarded by conn.wmu
}

// ErrClientGone is the cause (context.Cause) of a handler's context when its
// client disconnected or its connection broke: the client withdrew what it
// asked for.
var ErrClientGone = errors.New("the client disconnected")

// errShuttingDown is the cause of every handler's context once the server
// closes.
var errShuttingDown = errors.New("the gate is shutting down")

func newConn(s *Server, nc *net.UnixConn, peer Peer) *conn {
	ctx, cancel := context.WithCancelCause(withPeer(s.ctx, peer))
	return &conn{s: s, nc: nc, ctx: ctx, cancel: cancel, lastSeen: time.Now()}
}

// idleSince reports whether c has no request in flight and, if so, since
// when it has waited (a client half-way through a frame counts as waiting
// since that frame began).
func (c *conn) idleSince() (bool, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.busy, c.lastSeen
}

// refuse answers a connection that will not be served, and closes it.
func (c *conn) refuse(err *RPCError) {
	c.writeError(nil, err, nil)
	c.cancel(err)
	c.nc.Close()
}

// serve reads requests until the connection ends, the client breaks a
// rule (which gets an error frame, then the connection is closed) or the
// server closes.
func (c *conn) serve() {
	work := make(chan Request, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for req := range work {
			c.handle(req)
		}
	}()
	defer func() {
		c.cancel(ErrClientGone)
		c.nc.Close()
		close(work)
		<-done
	}()

	fr := newFrameReader(c.nc)
	for {
		frame, err := c.readFrame(fr)
		if err != nil {
			var rerr *RPCError
			if errors.As(err, &rerr) {
				c.writeError(nil, rerr, nil)
			}
			return
		}
		req, err := DecodeRequest(frame)
		if err != nil {
			rerr := &RPCError{Code: CodeInvalidRequest, Message: "invalid request"}
			errors.As(err, &rerr)
			c.writeError(req.ID, rerr, nil)
			return
		}
		if !c.claim() {
			c.writeError(req.ID, &RPCError{Code: CodeBusy, Message: "one request at a time: wait for the response before sending the next"}, nil)
			continue
		}
		work <- req
	}
}

// readFrame waits for the next frame: without a deadline while a request is
// in flight, for IdleTimeout otherwise; once its first byte is in, the whole
// frame must follow within FrameTimeout. It returns an *RPCError for a frame
// the client must be told about, and other errors when the connection just
// ends.
func (c *conn) readFrame(fr *frameReader) ([]byte, error) {
	c.setFrameStart(time.Time{})
	if err := fr.start(); err != nil {
		return nil, err
	}
	c.setFrameStart(time.Now())
	frame, err := fr.next()
	switch {
	case err == nil:
		return frame, nil
	case errors.Is(err, errFrameTooLarge):
		return nil, invalid(CodeInvalidRequest, "frame larger than %d bytes", MaxFrame)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, invalid(CodeInvalidRequest, "frame not completed within %v", c.s.frameTimeout())
	}
	return nil, err // the connection ended, perhaps mid-frame: nobody to tell
}

func (c *conn) setFrameStart(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frameStart = t
	if !t.IsZero() {
		c.lastSeen = t
	}
	c.setDeadlineLocked()
}

// claim marks a request in flight; it reports false if one already is.
func (c *conn) claim() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy {
		return false
	}
	c.busy = true
	c.setDeadlineLocked()
	return true
}

func (c *conn) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy = false
	c.lastSeen = time.Now()
	c.setDeadlineLocked()
}

func (c *conn) setDeadlineLocked() {
	var d time.Time
	switch {
	case !c.frameStart.IsZero():
		d = c.frameStart.Add(c.s.frameTimeout())
	case c.busy:
		// No limit while the response is on its way.
	default:
		d = time.Now().Add(c.s.idleTimeout())
	}
	c.nc.SetReadDeadline(d)
}

// handle runs one request and writes its response.
func (c *conn) handle(req Request) {
	cl := new(call)
	var res any
	var err error
	h := c.s.h
	switch req.Method {
	case "submit":
		notify := func(v any) error { return c.notify(cl, v) }
		res, err = h.Submit(c.ctx, req.Params.(SubmitParams), notify)
	case "ask":
		notify := func(v any) error { return c.notify(cl, v) }
		res, err = h.Ask(c.ctx, req.Params.(AskParams), notify)
	case "status":
		res, err = h.Status(c.ctx)
	case "history":
		res, err = h.History(c.ctx, req.Params.(HistoryParams))
	case "kill":
		res, err = h.Kill(c.ctx)
	case "automations":
		res, err = h.Automations(c.ctx, req.Params.(AutomationsParams))
	case "dashboard":
		if dh, ok := h.(DashboardHandler); ok {
			res, err = dh.Dashboard(c.ctx, req.Params.(DashboardParams))
		} else {
			err = &RPCError{Code: CodeServerError, Message: "this gate has no dashboard: it comes with the menu-bar app (airlock), not airlock serve"}
		}
	case "undo":
		if uh, ok := h.(UndoHandler); ok {
			res, err = uh.Undo(c.ctx, req.Params.(UndoParams))
		} else {
			err = &RPCError{Code: CodeServerError, Message: "this gate cannot undo"}
		}
	case "settings":
		if sh, ok := h.(SettingsHandler); ok {
			res, err = sh.Settings(c.ctx, req.Params.(SettingsParams))
		} else {
			err = &RPCError{Code: CodeServerError, Message: "this gate cannot reload its settings: restart it"}
		}
	default: // DecodeRequest lets no other method through
		err = fmt.Errorf("no handler for method %q", req.Method)
	}
	c.release()
	c.respond(req, res, err, cl)
}

// respond writes the response to req: its result res, or err. A non-nil
// cl is the call it ends.
func (c *conn) respond(req Request, res any, err error, cl *call) {
	if err != nil {
		w, hidden := wire(err)
		if hidden && c.s.ErrorLog != nil {
			c.s.ErrorLog(req.Method, err)
		}
		c.writeError(req.ID, &RPCError{Code: w.Code, Message: w.Message, Data: w.Data}, cl)
		return
	}
	b, merr := json.Marshal(resultFrame{JSONRPC: "2.0", ID: req.ID, Result: res})
	if merr == nil && len(b)+1 > MaxFrame {
		merr = fmt.Errorf("result of %d bytes does not fit in a frame", len(b))
	}
	if merr != nil {
		if c.s.ErrorLog != nil {
			c.s.ErrorLog(req.Method, fmt.Errorf("encoding the result: %w", merr))
		}
		c.writeError(req.ID, &RPCError{Code: CodeInternal, Message: "internal error"}, cl)
		return
	}
	c.write(b, cl)
}

// notify writes one notification for the call cl.
func (c *conn) notify(cl *call, v any) error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	b, err := json.Marshal(notification{JSONRPC: "2.0", Method: EventMethod, Params: v})
	if err != nil {
		return fmt.Errorf("encoding an event: %w", err)
	}
	if len(b)+1 > MaxFrame {
		return fmt.Errorf("encoding an event: %d bytes does not fit in a frame", len(b))
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if cl.done {
		return fmt.Errorf("sending an event after the response: %w", ErrClosed)
	}
	return c.writeLocked(b)
}

// writeError writes an error response; a nil id is sent as null. A non-nil
// cl is the call it ends.
func (c *conn) writeError(id json.RawMessage, e *RPCError, cl *call) {
	b, err := json.Marshal(errorFrame{JSONRPC: "2.0", ID: id, Error: wireError{Code: e.Code, Message: e.Message, Data: e.Data}})
	if err == nil && len(b)+1 > MaxFrame {
		err = errors.New("too large")
	}
	if err != nil { // the Data a handler chose cannot be sent
		b, _ = json.Marshal(errorFrame{JSONRPC: "2.0", ID: id, Error: wireError{Code: e.Code, Message: e.Message}})
	}
	c.write(b, cl)
}

// write writes frame b (without its newline) and, if cl is not nil, marks
// that call done so no notification can follow its response.
func (c *conn) write(b []byte, cl *call) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if cl != nil {
		cl.done = true
	}
	c.writeLocked(b)
}

// writeLocked writes b and a newline within WriteTimeout. A client that
// does not take it in time, or a broken connection, ends the connection.
func (c *conn) writeLocked(b []byte) error {
	c.nc.SetWriteDeadline(time.Now().Add(c.s.writeTimeout()))
	_, err := c.nc.Write(append(b, '\n'))
	if err != nil {
		c.cancel(ErrClientGone)
		c.nc.Close()
		return fmt.Errorf("writing to the client: %w", err)
	}
	return nil
}
