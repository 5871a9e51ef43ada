// Package risk rates what an action would do, on the one scale of package
// level. It owns the analyzers for Action DSL plans, AppleScript, JXA and
// shell; the rules they share (verdicts, the Env, the bounds of an
// assessment, path zones, the guard of Airlock's own files) are in package
// rate, the facts they share in package facts.
//
// Its contract: it never returns Safe for input it cannot parse or cannot
// fully understand. Text computed at run time, unknown application commands,
// raw «event» codes it does not know and shell it cannot parse are at least
// Dangerous. Every verdict carries its reasons, and each reason the span of
// the input that triggered it.
//
// RunFiles names what an action runs besides its own text (the script a
// python3 command runs, the makefile make reads), for a remembered approval
// to pin; it never claims to know when it cannot say for certain.
//
// The analyzers are pure functions of their input and an Env; the only I/O
// anywhere below is the sanitiser's symlink resolution for DSL paths and
// rate.Env.Presence, which asks the disk whether a file a command would
// replace (cp, mv, a > redirection …) exists: an overwrite destroys it.
// WithSelf, which makes an Env (policy.Settings.Env calls it), reads the
// environment once, to learn where Airlock's own files are and which
// process is its gate: no action of any kind may touch those (rate/guard.go).
package risk
