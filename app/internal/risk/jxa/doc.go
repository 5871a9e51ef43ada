// Package jxa rates JavaScript for Automation (osascript -l JavaScript):
// it lexes the script, follows the values of its variables and the
// references to its methods, and rates every method it calls by one table,
// methods in rules.go: the row of a method names what it does (runs code,
// writes, deletes, sends …), its level and its rule id, and the function
// that reads its arguments when the level depends on them. A reviewer who
// wants to change how a JXA method is rated opens rules.go.
//
// Its contract is the risk facade's: it never returns Safe for a script it
// cannot fully understand. Code built at run time, method names computed
// at run time, commands to applications Airlock does not know are at least
// Dangerous. Shell, AppleScript and JXA nested in a script reach the other
// analyzers through rate.Languages; nothing here imports another language.
package jxa
