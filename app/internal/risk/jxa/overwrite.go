package jxa

import "github.com/airlockhq/airlock/app/internal/risk/effect"

// replacing rates an application's duplicate or move given replacing:
// anything but false, which overwrites the items of the same name at the
// destination, as AppleScript's with replacing does.
func (an *jsAn) replacing(u use, c jsCall) {
	if v := jsOptionValue(c.all, "replacing"); len(v) > 0 && !(len(v) == 1 && v[0].text == "false") {
		an.add(effect.Of(effect.Overwrite), "jxa.replacing", u.sp, "REPLACE: overwrites existing items of the same name")
	}
}

// jsOptionIs reports the options object among args giving key the literal
// string want ({new: 'openFileAlarm'}, {saving: 'yes'}).
func jsOptionIs(args []jsToken, key, want string) bool {
	v := jsOptionValue(args, key)
	return len(v) == 1 && v[0].kind == jsString && v[0].val == want
}

// objectVar reports a variable every definition of which is an object
// literal ({save: …}): the script's own object, not an application's.
func (an *jsAn) objectVar(t jsToken) bool {
	ds := an.defs[t.text]
	if t.kind != jsIdent || len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		if len(d.expr) == 0 || d.expr[0].text != "{" || jsMatch(d.expr, 0) != len(d.expr)-1 {
			return false
		}
	}
	return true
}
