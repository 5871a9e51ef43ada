package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A loop over one glob hands its variable each match in turn:
//
//	for f in ~/.*; do cat "$f"; done
//
// reads every hidden file of the home, as cat ~/.* does, although no
// command line names them. So where a loop's list is one unquoted pattern,
// "$f" in its body is read as that pattern:
// what the commands in the loop's body do with it is rated as what they
// would do with the pattern's matches.

// bindLoopGlob binds the loop's variable to its pattern while its body is
// analysed, when its list is one unquoted pattern (an assignment in the
// body counts for nothing: rated as the pattern, it fails closed); the
// returned function restores what was bound before (an enclosing loop's).
func (a *shellAn) bindLoopGlob(it *syntax.WordIter) func() {
	name := it.Name.Value
	if len(it.Items) != 1 {
		return func() {}
	}
	pat, ok := unquotedGlob(it.Items[0])
	if !ok {
		return func() {}
	}
	if a.loopGlobs == nil {
		a.loopGlobs = map[string]string{}
	}
	prev, had := a.loopGlobs[name]
	a.loopGlobs[name] = pat
	return func() {
		if had {
			a.loopGlobs[name] = prev
		} else {
			delete(a.loopGlobs, name)
		}
	}
}

// unquotedGlob returns w's text when it is wholly unquoted literal text
// with glob characters: ~/.*, ~/Documents/*.txt.
func unquotedGlob(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(l.Value)
	}
	s := b.String()
	return s, strings.ContainsAny(s, "*?[") && !strings.Contains(s, "\\")
}
