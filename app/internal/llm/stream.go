package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// streamEnd is what a stream says besides its content.
type streamEnd struct {
	Model            string
	PromptTokens     int
	CompletionTokens int
}

// ollamaChunk is one line of Ollama's /api/chat stream. The last has Done
// set and the token counts; an error mid-stream comes as {"error": "…"}.
type ollamaChunk struct {
	Model   string `json:"model"`
	Message *struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
	Error           string `json:"error"`
}

// decodeOllama reads Ollama's NDJSON stream from r, passing each piece of
// content to onDelta, until the chunk marked done. No line may be longer
// than maxLine bytes. A stream that ends before done is an error.
func decodeOllama(r io.Reader, maxLine int, onDelta func(string) error) (streamEnd, error) {
	var end streamEnd
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var ch ollamaChunk
		if line[0] != '{' || json.Unmarshal(line, &ch) != nil {
			return end, errorf(ErrBadReply, "line %d of the model server's stream is not a JSON object", n)
		}
		if ch.Error != "" {
			return end, errorf(ErrServer, "the model server stopped with an error: %s", serverText(ch.Error))
		}
		if ch.Model != "" {
			end.Model = ch.Model
		}
		if ch.Message != nil && ch.Message.Content != "" {
			if err := onDelta(ch.Message.Content); err != nil {
				return end, err
			}
		}
		if ch.Done {
			end.PromptTokens, end.CompletionTokens = max(ch.PromptEvalCount, 0), max(ch.EvalCount, 0)
			return end, nil
		}
	}
	if err := scanErr(sc.Err()); err != nil {
		return end, err
	}
	return end, errorf(ErrBadReply, "the model server's stream ended before the model had finished")
}

// openAIChunk is one event of an OpenAI-compatible stream
// (chat.completion.chunk), or, without "stream", the whole completion.
type openAIChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta *struct {
			Content *string `json:"content"`
		} `json:"delta"`
		Message *struct {
			Content *string `json:"content"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// apply passes the chunk's content for choice 0 to onDelta and notes its
// model, usage and whether it finished.
func (ch *openAIChunk) apply(end *streamEnd, onDelta func(string) error) (finished bool, err error) {
	if len(ch.Error) > 0 && string(ch.Error) != "null" {
		return false, errorf(ErrServer, "the model server stopped with an error: %s", serverText(errorText(ch.Error)))
	}
	if ch.Model != "" {
		end.Model = ch.Model
	}
	if u := ch.Usage; u != nil {
		end.PromptTokens, end.CompletionTokens = max(u.PromptTokens, 0), max(u.CompletionTokens, 0)
	}
	for _, c := range ch.Choices {
		if c.Index != 0 {
			continue
		}
		var content *string
		switch {
		case c.Delta != nil:
			content = c.Delta.Content
		case c.Message != nil:
			content = c.Message.Content
		}
		if content != nil && *content != "" {
			if err := onDelta(*content); err != nil {
				return false, err
			}
		}
		if c.FinishReason != nil && *c.FinishReason != "" {
			finished = true
		}
	}
	return finished, nil
}

// decodeSSE reads an OpenAI-compatible server-sent event stream from r,
// passing each piece of content to onDelta, until "data: [DONE]" or the end
// of the stream after a chunk that finished. Comment lines (":") and fields
// other than data are ignored; an event's data lines are joined with "\n".
func decodeSSE(r io.Reader, maxLine int, onDelta func(string) error) (streamEnd, error) {
	var end streamEnd
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var data []byte
	have, finished := false, false
	events := 0
	dispatch := func() (done bool, err error) {
		if !have {
			return false, nil
		}
		payload := data
		data, have = data[:0], false
		events++
		if string(bytes.TrimSpace(payload)) == "[DONE]" {
			return true, nil
		}
		var ch openAIChunk
		if p := bytes.TrimSpace(payload); len(p) == 0 || p[0] != '{' || json.Unmarshal(p, &ch) != nil {
			return false, errorf(ErrBadReply, "event %d of the model server's stream is not a JSON object", events)
		}
		f, err := ch.apply(&end, onDelta)
		finished = finished || f
		return false, err
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if done, err := dispatch(); done || err != nil {
				return end, err
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if string(field) != "data" {
			continue
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if len(data)+len(value) > maxLine {
			return end, errorf(ErrReplyTooLarge, "an event of the model server's stream is larger than %d bytes", maxLine)
		}
		if have {
			data = append(data, '\n')
		}
		data = append(data, value...)
		have = true
	}
	if err := scanErr(sc.Err()); err != nil {
		return end, err
	}
	// The stream ended: take a last event not followed by a blank line.
	if done, err := dispatch(); done || err != nil {
		return end, err
	}
	if finished {
		return end, nil
	}
	return end, errorf(ErrBadReply, "the model server's stream ended before the model had finished")
}

// decodeCompletion reads a whole (not streamed) OpenAI-compatible
// completion, for servers that ignore "stream".
func decodeCompletion(r io.Reader, onDelta func(string) error) (streamEnd, error) {
	var end streamEnd
	var ch openAIChunk
	b, err := io.ReadAll(r)
	if err != nil {
		return end, err
	}
	// r is bounded by the caller to one reply and its envelope, which
	// bounds what decoding it can allocate.
	if p := bytes.TrimSpace(b); len(p) == 0 || p[0] != '{' || json.Unmarshal(p, &ch) != nil {
		return end, errorf(ErrBadReply, "the model server's reply is not a JSON object")
	}
	if _, err := ch.apply(&end, onDelta); err != nil {
		return end, err
	}
	return end, nil
}

// errorText reads an error member: a string, or an object with a message.
func errorText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &o) == nil && o.Message != "" {
		return o.Message
	}
	return string(raw)
}

// scanErr maps a line that does not fit to ErrReplyTooLarge and passes
// other read errors on.
func scanErr(err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return errorf(ErrReplyTooLarge, "a line of the model server's reply is too long")
	}
	return err
}

// boundedReader reads at most limit bytes from r; reading past that is
// an error wrapping ErrReplyTooLarge. seen is called after every read that
// returned data.
type boundedReader struct {
	r        io.Reader
	left     int64
	limit    int64
	seen     func()
	exceeded bool // the reply went past limit: whatever the decoder made of the cut, this is the error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.r.Read(one[:])
		if n > 0 {
			b.exceeded = true
			return 0, b.err()
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if n > 0 && b.seen != nil {
		b.seen()
	}
	return n, err
}

func (b *boundedReader) err() error {
	return errorf(ErrReplyTooLarge, "the model server sent more than %d bytes", b.limit)
}
