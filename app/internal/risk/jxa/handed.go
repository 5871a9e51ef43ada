package jxa

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// What a script hands an application to copy, move, attach or send is
// read by the app outside every sandbox; rate.Env.Handed is told each
// such item as the path the analyzer folds it to, or "" for one it cannot
// name (an item of a Finder listing by index, a path joined from the
// clipboard), so the executor can check them against the files it hides,
// which the analyzer cannot know (a private key known by its content).
// Ratings do not depend on it.

// handedItems tells env.Handed the items an application's duplicate or
// move (u) is given, paths as moved folds them. Only the Finder's and
// System Events' (or an application named at run time) items are files
// when none is named: Music's duplicate copies a track.
func (an *jsAn) handedItems(u use, paths []string) {
	an.handedAt(u.toks, u.r.i, paths)
}

// handedAt is handedItems for the chain ending at toks[i]: an item renamed
// (item.name = …) is handed to the app too.
func (an *jsAn) handedAt(toks []jsToken, i int, paths []string) {
	if an.env == nil || an.env.Handed == nil || an.tellHanded(paths) {
		return
	}
	apps := an.chainApps(toks, i)
	files := len(apps) == 0 && i > 0 && an.itemChain(toks, i)
	for _, a := range apps {
		key := facts.AppKey(facts.LowerName(nil, a))
		files = files || forwarders[string(key)] || forwarders[facts.AppIDs[string(key)]]
	}
	if files {
		an.env.Handed("")
	}
}

// handedFile tells env.Handed the file v (an attachment's fileName, a
// file sent) is: the paths it folds to, or "" for none.
func (an *jsAn) handedFile(v []jsToken) {
	if an.env == nil || an.env.Handed == nil {
		return
	}
	if !an.tellHanded(an.argPaths(v)) {
		an.env.Handed("")
	}
}

// tellHanded tells env.Handed each whole path of paths, and whether there
// was one.
func (an *jsAn) tellHanded(paths []string) bool {
	told := false
	for _, p := range paths {
		if p == "" || strings.Contains(p, rate.HoleUnquoted) || strings.Contains(p, "__AIRLOCK_") {
			continue
		}
		an.env.Handed(strings.TrimPrefix(p, "file://"))
		told = true
	}
	return told
}

// itemChain reports a chain ending at toks[i] that names file system
// items by the Finder's and System Events' elements (files[0], items …)
// when no application is seen at its root: a variable holding a listing.
func (an *jsAn) itemChain(toks []jsToken, i int) bool {
	for _, t := range toks[jsChainStart(toks, i) : i+1] {
		if t.kind == jsIdent && (fileSpecs[t.text] || folderSpecs[t.text] || itemCollections[t.text]) {
			return true
		}
	}
	return false
}

// printed tells env.Handed the file an application's print (c) is given:
// the app reads it to print it (to a network printer, a PDF printer's
// folder). A document of the app's own (te.print(te.documents[0])) is no
// file.
func (an *jsAn) printed(c jsCall) {
	if len(c.first) > 0 && (an.fileValue(c.first, 0) || len(an.itemPaths(c.first, 0)) > 0) {
		an.handedFile(c.first)
	}
}
