package bridge

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// osascriptPath is where macOS keeps osascript.
const osascriptPath = "/usr/bin/osascript"

// runJXA runs a JavaScript for Automation script with `osascript -l
// JavaScript -`: the source on stdin, argv after the "-" (so none can be
// taken for an option) as the arguments of its run function. It is bounded
// by the script timeout; a script error is a *ScriptError. confine, when not
// nil, confines osascript (see runHelper).
func (d *Desktop) runJXA(ctx context.Context, src string, argv []string, confine Confine) (string, error) {
	const action = "run JavaScript for Automation"
	if err := checkScript(src, argv); err != nil {
		return "", err
	}
	osascript, err := d.tool(action, osascriptPath)
	if err != nil {
		return "", err
	}
	sctx, cancel := d.scriptContext(ctx)
	defer cancel()
	args := append([]string{osascript, "-l", "JavaScript", "-"}, argv...)
	c := Command{Argv: args, Stdin: src}
	if confine != nil {
		confined, done, err := confine(c)
		if err != nil {
			return "", fmt.Errorf("%s: %w", action, err)
		}
		defer done()
		c = confined
	}
	stdout, stderr, err := d.run(sctx, c)
	if err != nil {
		if serr := d.stopError(sctx, ctx, "the JXA script"); serr != nil {
			return "", serr
		}
		if se := parseOSAError(stderr); se != nil {
			return "", se
		}
		return "", fmt.Errorf("the JXA script failed: %w", err)
	}
	return strings.TrimSuffix(stdout, "\n"), nil
}

// osaErrorLine matches osascript's report of a failed script, such as
// "-: execution error: Error: ReferenceError: Can't find variable: x (-2700)"
// or "-:12:15: script error: Expected end of line. (-2741)".
var osaErrorLine = regexp.MustCompile(`(?:execution|script|syntax) error: (.*) \((-?\d+)\)$`)

// parseOSAError reads the script error in osascript's stderr; nil when
// there is none.
func parseOSAError(stderr string) *ScriptError {
	m := osaErrorLine.FindStringSubmatch(lastLine(stderr))
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return nil
	}
	se := &ScriptError{Number: n, Message: m[1]}
	se.Compile = strings.Contains(m[0], "script error") || strings.Contains(m[0], "syntax error")
	return se
}
