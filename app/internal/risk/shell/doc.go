// Package shell rates shell scripts and command lines (sh, bash, zsh) for
// the risk facade: Into analyses a script, Argv an argument vector.
//
// The script is parsed with mvdan.cc/sh; each simple command, once its
// wrappers (sudo, env, xargs, timeout …) are peeled off, is looked up in
// one table, commands in table.go, whose row says what the program does
// with its options and operands and how bad that is. A reviewer who wants
// to change how a program is rated opens table.go; a row that needs more
// than a table can say names a function, kept in the rows_*.go files.
//
// It fails closed: shell it cannot parse, a command name computed at run
// time, a program that is not in the table or an option its row does not
// model is at least Dangerous, never Safe. Scripts nested in the shell
// (osascript -e, sh -c, eval) go to their analyzers through
// rate.Env.Languages; this package imports no other language.
//
// Runs (runs.go) answers another question about the same parse: which files
// a command line hands control to, so that a remembered approval can pin
// their content. It models a few dozen interpreters and build tools and
// otherwise asks the table; whatever it cannot name for certain it says so.
package shell
