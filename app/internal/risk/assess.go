package risk

import (
	"context"
	"fmt"
	"strings"
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
	v, _ := AssessContext(context.Background(), kind, input, env)
	return v
}

// AssessContext is Assess under ctx, the submission's context, which the
// kill switch cancels. Every assessment is bounded: scripts nested in
// scripts (sh -c, eval, source, osascript -e, do shell script, run script,
// doShellScript, eval, Function …) are followed at most MaxDepth (package rate) deep and
// MaxAnalysed bytes in all; past either the verdict is destructive, "too
// deeply nested to analyse" or "too much to analyse". The analysis looks at
// ctx at every nested script and in its long loops; once ctx has ended it
// stops and returns an error wrapping ErrStopped, and its verdict must not
// be used. At most GOMAXPROCS assessments run at once; the others wait (an
// ended ctx ends the wait too).
func AssessContext(ctx context.Context, kind Kind, input string, env *Env) (Verdict, error) {
	var v Verdict
	if len(input) > maxInput {
		v.Found(refused, "input.too-large", Span{}, "blocked: input is %d bytes; the limit is %d", len(input), maxInput)
		return v, nil
	}
	env, end := begin(env, ctx)
	switch kind {
	case KindAppleScript:
		v = AppleScript(input, env)
	case KindJXA:
		v = JXA(input, env)
	case KindShell:
		v = Shell(input, env)
	case KindDSL:
		v = DSL(input, env)
	case KindPath:
		v = PathTarget(input, env)
	default:
		v.Found(refused, "input.kind", Span{}, "blocked: unknown kind %q", string(kind))
	}
	err := end(&v)
	combine(&v)
	v.Sort()
	return v, err
}
