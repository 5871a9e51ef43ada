package risk

import (
	"context"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/shell"
)

// Shell rates a shell script or command line (package shell).
func Shell(src string, env *Env) Verdict {
	var v Verdict
	env, end := begin(env, context.Background())
	shell.Into(&v, src, env, nil, 0)
	end(&v)
	literalSecrets(&v, src) // secrets.go
	combine(&v)
	v.Sort()
	return v
}

// ShellArgv rates a command given as an argument vector: no shell reads it,
// so nothing in it is shell syntax.
func ShellArgv(argv []string, env *Env) Verdict {
	v, _ := ShellArgvContext(context.Background(), argv, env)
	return v
}

// ShellArgvContext is ShellArgv under ctx, bounded and stopped as
// AssessContext says.
func ShellArgvContext(ctx context.Context, argv []string, env *Env) (Verdict, error) {
	return ShellArgvIn(ctx, argv, "", env)
}

// ShellArgvIn is ShellArgvContext for a command run in the folder dir
// (absolute; "" is the home): its relative paths are read from there.
func ShellArgvIn(ctx context.Context, argv []string, dir string, env *Env) (Verdict, error) {
	var v Verdict
	if len(argv) == 0 {
		v.Found(effect.Of(effect.Unknown), "shell.empty", Span{}, "empty command")
		return v, nil
	}
	env, end := begin(env, ctx)
	shell.ArgvIn(&v, argv, dir, env)
	err := end(&v)
	literalSecrets(&v, strings.Join(argv, " ")) // secrets.go
	combine(&v)
	v.Sort()
	return v, err
}
