package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
)

// MaxAttempts is how many replies Plan asks for: the first, and one more
// when the first plan does not parse.
const MaxAttempts = 2

// Result is what Plan got from the model.
type Result struct {
	Model    string       // the model that answered
	Reply    string       // the last reply, as the model wrote it
	Plan     string       // the plan extracted from it: what goes to the gate
	Parsed   *action.Plan // the parsed plan; nil when it did not parse
	Attempts int          // replies asked for: 1 or 2
	Tokens   int          // completion tokens over all attempts, as the server counted them
}

// NoAction reports whether the model found nothing to do: the plan parsed
// and has no actions.
func (r Result) NoAction() bool { return r.Parsed != nil && len(r.Parsed.Actions) == 0 }

// Plan asks the model for a plan for pc's request, extracts it from the
// reply (Extract) and parses it strictly (action.Parse). When it does not
// parse, the model is asked once more, shown the plan as read and the
// line-numbered errors (RetryPrompt). progress, if not nil, is called when
// each attempt starts (Tokens 0) and as its reply streams.
//
// The error is nil when the plan parsed. A plan that still does not parse
// is an error wrapping ErrBadPlan, returned with the Result (Plan set,
// Parsed nil) so the caller can record what the model proposed. Any other
// error means no usable reply.
func (c *Client) Plan(ctx context.Context, pc PromptContext, progress func(Progress)) (Result, error) {
	var res Result
	if strings.TrimSpace(pc.Request) == "" {
		return res, errors.New("the request is empty: say what should be done")
	}
	if len(pc.Request) > MaxRequestBytes {
		return res, fmt.Errorf("the request is longer than %d bytes", MaxRequestBytes)
	}
	if len(pc.Caller) > MaxContextBytes {
		return res, fmt.Errorf("the caller's context is longer than %d bytes", MaxContextBytes)
	}
	msgs := Messages(pc)
	var perr error
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		res.Attempts = attempt
		var onProgress func(Progress)
		if progress != nil {
			model, err := c.Model(ctx)
			if err != nil {
				return res, err
			}
			progress(Progress{Model: model, Attempt: attempt})
			onProgress = func(p Progress) { p.Attempt = attempt; progress(p) }
		}
		reply, err := c.Chat(ctx, msgs, onProgress)
		if err != nil {
			return res, err
		}
		res.Model, res.Reply = reply.Model, reply.Content
		res.Tokens += reply.CompletionTokens
		res.Plan = Extract(reply.Content)
		var errs action.Errors
		if strings.TrimSpace(res.Plan) == "" {
			errs = action.Errors{{Msg: "the reply held no plan: answer with the plan, or " + NoAction}}
		} else {
			p, err := action.Parse(res.Plan)
			if err == nil {
				res.Parsed = p
				return res, nil
			}
			if !errors.As(err, &errs) {
				errs = action.Errors{{Msg: err.Error()}}
			}
		}
		perr = errs
		msgs = append(msgs, Message{Role: RoleAssistant, Content: reply.Content},
			Message{Role: RoleUser, Content: RetryPrompt(res.Plan, errs)})
	}
	e := errorf(ErrBadPlan, "the model's plan does not parse, even when asked again: %s", firstLines(perr.Error(), 3))
	e.err = perr
	return res, e
}

// firstLines returns at most n lines of s, joined with "; ".
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "; ")
}
