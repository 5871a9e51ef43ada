// Package action owns Airlock's Action DSL: the one registry of commands a
// model may ask for, a strict parser for plans written in the DSL, a
// canonical printer and one-line human previews.
//
// A plan is line based; each line is a command and its arguments:
//
//	# Tidy the desktop and tell me when done
//	MOVE_FILE "~/Desktop/report.pdf" "~/Documents/report.pdf"
//	WRITE_DOC "~/Documents/notes.md" <<END
//	# Notes
//	Moved the report.
//	END
//	NOTIFY "Airlock" "Done"
//
// Parsing is all or nothing: a plan with any error is rejected as a whole and
// every error found (up to a limit) is reported with its line number. The
// input is treated as untrusted: its size, the number of actions and the
// length of every argument are bounded, parsing takes time linear in the
// size of the input and it never panics.
//
// The package only describes actions. It never executes anything and does
// no I/O; rejecting dangerous content (the sanitiser) and rating risk beyond
// each command's base class (the risk package) happen elsewhere.
package action
