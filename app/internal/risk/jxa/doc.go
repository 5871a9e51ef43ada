// Package jxa rates JavaScript for Automation (osascript -l JavaScript):
// it lexes the script, follows the values of its variables and the
// references to its methods, and rates every method it calls by one table,
// methods in rules.go: the row of a method names what it does, as an effect
// (runs code, writes, removes, sends …: package effect's vocabulary), its
// rule id, and the function that reads its arguments when what it does
// depends on them. Levels come from the one calibration table
// (effect.Calibrate), never from this package. A reviewer who wants to
// change what a JXA method is found to do opens rules.go; how much that
// weighs, effect/calibration.go.
//
// Its contract is the risk facade's: it never returns Safe for a script it
// cannot fully understand. Code built at run time, method names computed
// at run time, commands to applications Airlock does not know are at least
// Dangerous. Shell, AppleScript and JXA nested in a script reach the other
// analyzers through rate.Languages; nothing here imports another language.
package jxa
