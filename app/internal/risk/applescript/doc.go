// Package applescript rates AppleScript, ASObjC included: Rate is its
// entry point, which the risk facade calls for an AppleScript and for one
// nested in another language (osascript -e, run script …).
//
// The script is lexed into normalised tokens (lex.go, kw.go), the
// variables, handlers and applications it names are collected
// (analyze.go, handlers.go), and every statement is matched against the
// verb table (rules.go): a reviewer changes what a command is rated there.
// Shell text handed to `do shell script` goes to the shell analyzer
// through rate.Languages (shell.go), never to a package of its own.
package applescript
