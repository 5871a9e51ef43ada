package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// HelperFlag, as the first argument, makes airlock serve one AppleScript
// and exit: `airlock --applescript-helper` (AppleScriptHelper).
const HelperFlag = "--applescript-helper"

// Limits of the helper protocol.
const (
	maxHelperRequest = 16 << 20 // the request on stdin: a 10 MB email body fits
	maxHelperResult  = 1 << 20  // the script's result, cut at a character boundary
	maxHelperAnswer  = 4 << 20  // the answer on stdout: the result escaped as JSON fits
)

// helperRequest is what the parent writes on the helper's stdin: the script
// and the values for its run handler travel as JSON data, never as source
// (and not on the command line, which is size-limited and visible to ps).
type helperRequest struct {
	Source  string   `json:"source"`
	Argv    []string `json:"argv"`
	Compile bool     `json:"compile,omitempty"` // compile only; never run
}

// helperAnswer is the helper's one JSON object on stdout. Exactly one of
// OK, Error and Problem is set.
type helperAnswer struct {
	OK          bool         `json:"ok,omitempty"`
	Result      string       `json:"result,omitempty"`      // with OK: the result as text
	Truncated   bool         `json:"truncated,omitempty"`   // with OK: the result was cut at maxHelperResult
	Error       *ScriptError `json:"error,omitempty"`       // the script failed to compile or run
	Problem     string       `json:"problem,omitempty"`     // the helper could not try (bad request, no macOS)
	Unavailable bool         `json:"unavailable,omitempty"` // with Problem: this platform cannot run AppleScript
}

// interpreter compiles, and unless compile is set runs, one AppleScript.
// A script error is a *ScriptError; any other error means the script could
// not be tried.
type interpreter func(src string, argv []string, compile bool) (result string, err error)

// AppleScriptHelper is what `airlock --applescript-helper` runs: it reads one
// JSON request ({"source": …, "argv": […], "compile": bool}) from stdin,
// compiles the source with NSAppleScript and, unless compile is set, runs
// it with argv as the arguments of its run handler; then it writes one JSON
// object to stdout: {"ok":true,"result":…}, {"error":{"number":…,
// "message":…}} or {"problem":…}. It returns the exit status: 0 ok, 1 a
// script error, 2 a problem. args are the arguments after HelperFlag; there
// must be none.
//
// On macOS it must be called from the main goroutine before anything else
// runs (NSAppleScript is bound to the main thread, and this package locks
// the main goroutine to it). Elsewhere it answers {"problem":"…needs macOS",
// "unavailable":true}.
func AppleScriptHelper(stdin io.Reader, stdout io.Writer, args []string) int {
	return serveHelper(stdin, stdout, args, interpret)
}

// serveHelper is AppleScriptHelper with the interpreter given.
func serveHelper(stdin io.Reader, stdout io.Writer, args []string, interp interpreter) int {
	answer := func(a helperAnswer, code int) int {
		b, err := json.Marshal(a)
		if err != nil {
			b = []byte(`{"problem":"encoding the answer failed"}`)
			code = 2
		}
		stdout.Write(append(b, '\n'))
		return code
	}
	problem := func(format string, a ...any) int {
		return answer(helperAnswer{Problem: fmt.Sprintf(format, a...)}, 2)
	}
	if len(args) > 0 {
		return problem("the helper takes no arguments (the script and its values come on stdin), got %d", len(args))
	}
	req, err := decodeRequest(stdin)
	if err != nil {
		return problem("%v", err)
	}
	result, err := interp(req.Source, req.Argv, req.Compile)
	var se *ScriptError
	switch {
	case errors.As(err, &se):
		return answer(helperAnswer{Error: se}, 1)
	case errors.Is(err, ErrUnavailable):
		return answer(helperAnswer{Problem: err.Error(), Unavailable: true}, 2)
	case err != nil:
		return problem("%v", err)
	}
	a := helperAnswer{OK: true, Result: result}
	if len(result) > maxHelperResult {
		cut := maxHelperResult
		for cut > 0 && !utf8.RuneStart(result[cut]) {
			cut--
		}
		a.Result, a.Truncated = result[:cut], true
	}
	return answer(a, 0)
}

// decodeRequest reads and checks one request: one JSON object with only the
// known fields, nothing after it, at most maxHelperRequest bytes, its text
// UTF-8 without NUL bytes.
func decodeRequest(r io.Reader) (helperRequest, error) {
	var req helperRequest
	b, err := io.ReadAll(io.LimitReader(r, maxHelperRequest+1))
	if err != nil {
		return req, fmt.Errorf("reading the request: %w", err)
	}
	if len(b) > maxHelperRequest {
		return req, fmt.Errorf("the request is larger than %d bytes", maxHelperRequest)
	}
	if err := decodeOne(b, &req); err != nil {
		return req, fmt.Errorf("the request is not valid: %w", err)
	}
	if err := checkScript(req.Source, req.Argv); err != nil {
		return req, err
	}
	return req, nil
}

// decodeAnswer parses the helper's stdout and checks that exactly one kind
// of answer is given.
func decodeAnswer(b []byte) (helperAnswer, error) {
	var a helperAnswer
	if err := decodeOne(b, &a); err != nil {
		return a, err
	}
	n := 0
	for _, set := range []bool{a.OK, a.Error != nil, a.Problem != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return a, errors.New("it gives not exactly one of ok, error and problem")
	}
	if !a.OK && (a.Result != "" || a.Truncated) || a.Problem == "" && a.Unavailable {
		return a, errors.New("it mixes the fields of two kinds of answer")
	}
	return a, nil
}

// decodeOne decodes exactly one JSON value with only known fields into v;
// only white space may follow it.
func decodeOne(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("something follows the JSON object")
	}
	return nil
}

// runHelper runs one AppleScript in a helper child (d.helper HelperFlag) in
// its own process group, bounded by the script timeout, and returns its
// result. A script error is a *ScriptError. confine, when not nil, confines
// the child (an action's script); nil runs it as Airlock's own (a trusted
// bridge call).
func (d *Desktop) runHelper(ctx context.Context, src string, argv []string, compile bool, confine Confine) (string, error) {
	if err := checkScript(src, argv); err != nil {
		return "", err
	}
	if argv == nil {
		argv = []string{}
	}
	req, err := json.Marshal(helperRequest{Source: src, Argv: argv, Compile: compile})
	if err != nil {
		return "", fmt.Errorf("encoding the script for the helper: %w", err)
	}
	if len(req) > maxHelperRequest {
		return "", fmt.Errorf("the script and its arguments are larger than %d bytes", maxHelperRequest)
	}
	sctx, cancel := d.scriptContext(ctx)
	defer cancel()
	c := Command{Argv: []string{d.helper, HelperFlag}, Stdin: string(req), MaxOutput: maxHelperAnswer + 1}
	if confine != nil {
		confined, done, err := confine(c)
		if err != nil {
			return "", fmt.Errorf("the AppleScript: %w", err)
		}
		defer done()
		c = confined
	}
	stdout, _, err := d.run(sctx, c)
	if err != nil {
		if serr := d.stopError(sctx, ctx, "the AppleScript"); serr != nil {
			return "", serr
		}
	}
	if len(stdout) > maxHelperAnswer {
		return "", fmt.Errorf("the AppleScript helper answered with more than %d bytes", maxHelperAnswer)
	}
	ans, derr := decodeAnswer([]byte(stdout))
	if derr != nil {
		if err != nil {
			return "", fmt.Errorf("the AppleScript helper failed: %w", err)
		}
		return "", fmt.Errorf("the AppleScript helper's answer is not valid: %v", derr)
	}
	switch {
	case ans.Error != nil:
		return "", ans.Error
	case ans.Unavailable:
		return "", &UnavailableError{Action: "run AppleScript", Reason: ans.Problem}
	case ans.Problem != "":
		return "", fmt.Errorf("the AppleScript helper could not run the script: %s", strings.TrimSpace(ans.Problem))
	}
	return ans.Result, nil
}
