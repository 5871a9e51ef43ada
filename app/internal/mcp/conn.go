package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine bounds one line of input, in bytes: the largest tool call
// (MaxSource of text, every byte escaped as \u00XX) fits with room to spare.
const MaxLine = 8 << 20

// lineTransport is `airlock mcp`'s stdio transport: newline-delimited
// JSON-RPC 2.0, one message per line, as the SDK's IOTransport speaks it,
// except that bad input ends nothing. The SDK's transport ends the session at
// the first line that is not a message, and with it `airlock mcp`; an agent
// that depends on the server would lose its tools to one stray line. Here
// the transport reads the lines itself, answers what cannot be a message
// with the JSON-RPC error for it, and hands the rest to the SDK:
//
//   - a line that is not JSON: -32700 (parse error), id null;
//   - JSON that is not a JSON-RPC 2.0 request, notification or response (not
//     an object, no "jsonrpc": "2.0", an id that is neither a string nor a
//     number …): -32600 (invalid request), with its id when it has a usable
//     one;
//   - a batch (a JSON array; MCP has had none since 2025-06-18): -32600 for
//     each request in it, under its id, in one array as JSON-RPC answers a
//     batch; its notifications are dropped unanswered; an empty batch gets
//     one -32600;
//   - a line longer than MaxLine: -32600, id null.
//
// Requests for methods the server does not have reach the SDK, which
// answers -32601 (method not found). Blank lines are skipped.
type lineTransport struct {
	r io.Reader
	w io.Writer
	// eof is set when r ended: the client hung up.
	eof atomic.Bool
}

func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{w: t.w, eof: &t.eof, incoming: make(chan jsonrpc.Message), closed: make(chan struct{})}
	go c.readLoop(t.r)
	return c, nil
}

// lineConn is one session's connection; see lineTransport.
type lineConn struct {
	eof      *atomic.Bool
	incoming chan jsonrpc.Message // closed by readLoop when input ends
	closed   chan struct{}        // closed by Close
	close    sync.Once
	readErr  error // set by readLoop before it closes incoming

	wmu sync.Mutex // serialises writes: one line at a time
	w   io.Writer
}

func (c *lineConn) SessionID() string { return "" }

// Read returns the next message the SDK should handle. When the input has
// ended it returns io.EOF.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case m, ok := <-c.incoming:
		if !ok {
			return nil, c.readErr
		}
		return m, nil
	}
}

// Write writes one message as one line.
func (c *lineConn) Write(_ context.Context, m jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeLine(b)
}

func (c *lineConn) writeLine(b []byte) error {
	select {
	case <-c.closed:
		return sdk.ErrConnectionClosed
	default:
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(b, '\n'))
	return err
}

// Close stops delivering messages. It cannot interrupt a read of standard
// input in progress; that read's goroutine ends with the input.
func (c *lineConn) Close() error {
	c.close.Do(func() { close(c.closed) })
	return nil
}

// readLoop reads lines until the input ends or the connection closes,
// answering bad ones and passing messages on.
func (c *lineConn) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br)
		switch {
		case errors.Is(err, errLineTooLong):
			c.answer(invalid(nil, fmt.Sprintf("line %d is longer than %d bytes", n, MaxLine)))
			continue
		case err != nil && len(line) == 0:
			if errors.Is(err, io.EOF) {
				c.eof.Store(true)
				err = io.EOF
			}
			c.readErr = err
			close(c.incoming)
			return
		}
		// A last line without its newline is still a line.
		if m := c.decode(line, n); m != nil {
			select {
			case c.incoming <- m:
			case <-c.closed:
				return
			}
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its line ending. A line longer than
// MaxLine is read to its end and dropped (errLineTooLong).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// decode returns the message on line n, or nil when there is none to pass
// on (a blank line, or bad input, which it has answered).
func (c *lineConn) decode(line []byte, n int) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		c.answer(errorReply{JSONRPC: "2.0", ID: null, Error: wireError{Code: jsonrpc.CodeParseError,
			Message: fmt.Sprintf("parse error: line %d is not JSON (%v)", n, err)}})
		return nil
	}
	switch line[0] {
	case '[':
		c.refuseBatch(line, n)
		return nil
	case '{':
	default:
		c.answer(invalid(nil, fmt.Sprintf("line %d is JSON but not a JSON-RPC message (an object)", n)))
		return nil
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.answer(invalid(usableID(line), fmt.Sprintf("line %d is not a JSON-RPC 2.0 message: %v", n, err)))
		return nil
	}
	return m
}

// refuseBatch answers a batch: MCP has none (the 2025-06-18 revision removed
// them), so each request in it is refused under its own id.
func (c *lineConn) refuseBatch(line []byte, n int) {
	var items []json.RawMessage
	if err := json.Unmarshal(line, &items); err != nil {
		c.answer(invalid(nil, fmt.Sprintf("line %d: %v", n, err)))
		return
	}
	if len(items) == 0 {
		c.answer(invalid(nil, fmt.Sprintf("line %d is an empty batch", n)))
		return
	}
	msg := fmt.Sprintf("line %d is a JSON-RPC batch, which MCP does not have: send each message on a line of its own", n)
	var replies []errorReply
	for _, it := range items {
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method json.RawMessage `json:"method"`
		}
		isObject := bytes.HasPrefix(bytes.TrimSpace(it), []byte("{")) && json.Unmarshal(it, &probe) == nil
		if isObject && probe.Method != nil && probe.ID == nil {
			continue // a notification: never answered
		}
		replies = append(replies, invalid(usableID(it), msg))
	}
	if len(replies) == 0 {
		return
	}
	b, err := json.Marshal(replies)
	if err == nil {
		c.writeLine(b)
	}
}

// answer writes an error reply. A client that went away is no reason to
// stop reading: the read loop ends with the input.
func (c *lineConn) answer(r errorReply) {
	b, err := json.Marshal(r)
	if err == nil {
		c.writeLine(b)
	}
}

var null = json.RawMessage("null")

// errorReply is a JSON-RPC error response; unlike the SDK's Response it can
// carry a null id, as a reply to what had no usable id must.
type errorReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   wireError       `json:"error"`
}

type wireError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func invalid(id json.RawMessage, msg string) errorReply {
	if id == nil {
		id = null
	}
	return errorReply{JSONRPC: "2.0", ID: id, Error: wireError{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + msg}}
}

// maxEchoedID bounds an id echoed in an error reply, in bytes.
const maxEchoedID = 256

// usableID is the id of the JSON object item when it is a string or a
// number short enough to echo, else nil.
func usableID(item []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(item, &probe) != nil || len(probe.ID) == 0 || len(probe.ID) > maxEchoedID {
		return nil
	}
	switch probe.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return probe.ID
	}
	return nil
}
