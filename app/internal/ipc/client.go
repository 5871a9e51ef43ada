package ipc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Client is a connection to a running gate. Calls on one client run one at
// a time; use a client per concurrent caller.
type Client struct {
	mu     sync.Mutex // held for a whole call
	nc     *net.UnixConn
	fr     *frameReader
	nextID int64
	broken error // why the connection can no longer be used; guarded by mu
}

// Dial connects to the gate listening in dir, the data directory, and
// checks that it runs as this user. When none listens the error wraps
// ErrNotRunning and says how to start one.
func Dial(dir string) (*Client, error) {
	path := filepath.Join(dir, SocketName)
	nc, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
		return nil, fmt.Errorf("%w: start it with `airlock serve` or open Airlock (nothing listens on %s)", ErrNotRunning, path)
	}
	if err != nil {
		return nil, fmt.Errorf("connecting to the gate: %w", err)
	}
	if err := samePeer(nc, path); err != nil {
		nc.Close()
		return nil, fmt.Errorf("connecting to the gate: %w", err)
	}
	return &Client{nc: nc, fr: newFrameReader(nc)}, nil
}

// Kill trips the kill switch of the gate listening in dir, through its kill
// socket (KillSocketName), and returns the kill's result. Nothing on the
// gate's socket can hold it up: not a connection limit, not idle clients,
// not requests in flight. It checks, as Dial does, that the gate runs as
// this user. When none listens the error wraps ErrNotRunning.
func Kill(ctx context.Context, dir string) (json.RawMessage, error) {
	path := filepath.Join(dir, KillSocketName)
	var nc *net.UnixConn
	for {
		var err error
		nc, err = net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%w: nothing listens on %s", ErrNotRunning, path)
		}
		if errors.Is(err, syscall.EAGAIN) { // its backlog is full for a moment
			select {
			case <-time.After(time.Millisecond):
				continue
			case <-ctx.Done():
				return nil, fmt.Errorf("tripping the kill switch: %w", ctx.Err())
			}
		}
		if err != nil {
			return nil, fmt.Errorf("tripping the kill switch: %w", err)
		}
		break
	}
	if err := samePeer(nc, path); err != nil {
		nc.Close()
		return nil, fmt.Errorf("tripping the kill switch: %w", err)
	}
	c := &Client{nc: nc, fr: newFrameReader(nc)}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	res, rerr, err := c.read(json.RawMessage(killID), nil)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("tripping the kill switch: %w", err)
	}
	if rerr != nil {
		return nil, rerr
	}
	return res, nil
}

// Close closes the connection. A call in flight on the gate is cancelled.
func (c *Client) Close() error {
	err := c.nc.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken == nil {
		c.broken = ErrClosed
	}
	return err
}

// Call calls method with params (nil for none) and returns the result. For
// a submit or an ask, onNotify (if not nil) gets the params of each
// notification the gate sends before the result, in order. An error
// response is returned as
// an *RPCError. When ctx is done before the response, the connection is
// closed — which cancels the call on the gate — and ctx's error returned.
// After that, or any error that is not an *RPCError, the client is done:
// further calls fail with ErrClosed. The gate also closes the connection
// after refusing a request outright (codes -32700 to -32600).
func (c *Client) Call(ctx context.Context, method string, params any, onNotify func(json.RawMessage)) (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil, fmt.Errorf("calling %s: %w", method, c.broken)
	}
	c.nextID++
	id := json.RawMessage(strconv.FormatInt(c.nextID, 10))
	frame, err := Request{ID: id, Method: method, Params: params}.Encode()
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { c.nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	res, rerr, err := c.roundTrip(frame, id, onNotify)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		c.broken = ErrClosed
		c.nc.Close()
		return nil, fmt.Errorf("calling %s: %w", method, err)
	}
	if rerr != nil {
		return nil, rerr
	}
	return res, nil
}

// reply is any frame from the gate: a response or a notification.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// roundTrip writes frame and reads until the response to id, or an error
// response with a null id (the gate refusing the connection or a frame),
// passing notifications to onNotify. An *RPCError is an answer; err means
// the connection failed.
func (c *Client) roundTrip(frame []byte, id json.RawMessage, onNotify func(json.RawMessage)) (json.RawMessage, *RPCError, error) {
	if _, err := c.nc.Write(frame); err != nil {
		// The gate may have refused the connection with a frame and closed it.
		if res, rerr, rdErr := c.read(id, onNotify); rdErr == nil {
			return res, rerr, nil
		}
		return nil, nil, err
	}
	return c.read(id, onNotify)
}

func (c *Client) read(id json.RawMessage, onNotify func(json.RawMessage)) (json.RawMessage, *RPCError, error) {
	for {
		if err := c.fr.start(); err != nil {
			return nil, nil, closedErr(err)
		}
		b, err := c.fr.next()
		if err != nil {
			return nil, nil, closedErr(err)
		}
		var r reply
		if err := json.Unmarshal(b, &r); err != nil || r.JSONRPC != "2.0" {
			return nil, nil, fmt.Errorf("reading the gate's reply: not a JSON-RPC 2.0 frame")
		}
		switch {
		case r.ID == nil && r.Method == EventMethod:
			if onNotify != nil {
				onNotify(r.Params)
			}
			continue
		case r.Error != nil && (bytes.Equal(r.ID, id) || bytes.Equal(r.ID, []byte("null"))):
			e := &RPCError{Code: r.Error.Code, Message: r.Error.Message}
			if len(r.Error.Data) > 0 {
				e.Data = r.Error.Data
			}
			return nil, e, nil
		case bytes.Equal(r.ID, id) && r.Result != nil:
			return r.Result, nil, nil
		}
		return nil, nil, fmt.Errorf("reading the gate's reply: a frame that answers no request of ours")
	}
}

func closedErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return fmt.Errorf("the gate closed the connection: %w", ErrClosed)
	}
	return fmt.Errorf("reading the gate's reply: %w", err)
}

// samePeer checks that the process listening on path, at the other end of
// nc, runs as this user: a client tells nothing to another user's socket.
func samePeer(nc *net.UnixConn, path string) error {
	uid, err := peerUID(nc)
	if err == nil && uid != os.Getuid() {
		err = fmt.Errorf("the process listening on %s runs as uid %d, not as this user", path, uid)
	}
	return err
}
