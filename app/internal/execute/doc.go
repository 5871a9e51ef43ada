// Package execute carries out actions the gate has already judged and the
// person has already approved: the portable file operations in plain Go, the
// running of a process from an argument vector, and everything else through a
// Desktop that the bridge implements.
//
// It owns:
//   - file operations that are never half-done: a write goes to a temporary
//     file beside its target and is renamed into place; a folder is copied to
//     a temporary name and renamed; on failure the temporary is removed;
//   - the rule that nothing is unlinked: a delete, and the old version of an
//     overwritten or replaced file, go to the Trash first (Trasher; the
//     freedesktop trash on Linux);
//   - the review of what a command or script run unasked changed in its
//     copy-on-write layer (changes.go): applied by the same rules, what
//     plants code held for the person, nothing lost, everything recorded
//     for Undo;
//   - processes run from an argument vector, never through a shell, each in a
//     process group of its own that is killed as a whole (SIGKILL) when the
//     context is cancelled, which is how the kill switch stops them (the
//     process code itself is the bridge's: bridge.RunArgv).
//
// The kill switch is a context: the gate derives the context of every Run
// and RunArgv from one it cancels, and everything in flight stops — process
// groups are killed, a copy stops between two reads, the Desktop returns.
//
// It never decides. It does not rate risk, consult the autonomy level or ask
// anyone: only the gate calls it, after the decision. What it does check, at
// the moment of execution and again after the gate did, is the sanitiser's
// hard rules on every path (defence in depth: a symbolic link swapped in
// after the assessment must not redirect a write into a credential store),
// and then it uses the path so that nothing can change what it names
// between that check and the use: from the sandbox root down, no element
// is followed if it is a link (at.go).
package execute
