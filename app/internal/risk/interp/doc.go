// Package interp reads the program text an interpreter is given on its
// command line or its input — python -c, perl -e, ruby -e, php -r, node
// -e, swift -e, lua -e, Rscript -e, a Tcl script on tclsh's input — and
// says what it does, as effects of the shared vocabulary (package effect;
// Effect.Shared): the files it removes, writes, appends to
// and reads, the commands it runs, whether it talks to the network, runs
// code built from text or decodes data. It does not rate them: the shell
// analyzer gives each effect the level the same effect gets in shell (a
// removal is rm's, a write a redirection's), so the same facts get the
// same level in every language.
//
// It is a tokenizer per language (strings, comments, identifiers, the
// interpolations inside strings) and a reader of calls, not a parser: it
// recognises the calls of its tables (apis.go) by their qualified names,
// follows imports, aliases and simple assignments, and works out the
// paths their arguments name where the code spells them (literals, the
// home folder by its usual names, joins and concatenations). Whatever it
// cannot read stays unread: the shell analyzer keeps inline code it cannot
// see at least Dangerous, so an effect this package misses is never made
// Safe. Every input is bounded (MaxTokens, MaxEffects, the nesting of
// interpolations) and nothing here does I/O.
package interp
