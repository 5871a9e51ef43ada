package risk

import (
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Kind names what an input is.
type Kind string

// The kinds of input the analyzers take.
const (
	KindAppleScript Kind = "applescript"
	KindJXA         Kind = "jxa"
	KindShell       Kind = "shell"
	KindDSL         Kind = "dsl"
	KindPath        Kind = "path" // the target of a write, move or delete
)

// Kinds lists every kind, for help texts.
var Kinds = []Kind{KindAppleScript, KindJXA, KindShell, KindDSL, KindPath}

// ParseKind reads a kind by name ("javascript" and "js" also mean JXA,
// "sh" and "bash" shell).
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "applescript", "as", "osascript":
		return KindAppleScript, nil
	case "jxa", "javascript", "js":
		return KindJXA, nil
	case "shell", "sh", "bash", "zsh":
		return KindShell, nil
	case "dsl", "plan", "actions":
		return KindDSL, nil
	case "path":
		return KindPath, nil
	}
	return "", fmt.Errorf("unknown kind %q (want applescript, jxa, shell, dsl or path)", s)
}

// maxInput bounds what any analyzer reads (a DSL plan with a 10 MB heredoc
// is the largest legitimate input).
const maxInput = 1<<20 + 10_000_000

// Assess rates input of the given kind.
func Assess(kind Kind, input string, env *Env) Verdict {
	if len(input) > maxInput {
		var v Verdict
		v.add(level.Blocked, "input.too-large", Span{}, "blocked: input is %d bytes; the limit is %d", len(input), maxInput)
		return v
	}
	switch kind {
	case KindAppleScript:
		return AppleScript(input, env)
	case KindJXA:
		return JXA(input, env)
	case KindShell:
		return Shell(input, env)
	case KindDSL:
		return DSL(input, env)
	case KindPath:
		return PathTarget(input, env)
	}
	var v Verdict
	v.add(level.Blocked, "input.kind", Span{}, "blocked: unknown kind %q", string(kind))
	return v
}
