package applescript

// appSpec rates an application named by its path anywhere but a tell's
// target (which tellTarget rates): launch application "/Users/me/X.app",
// run application …, activate application …, set a to application … then
// launch a. The system starts it to receive the command, outside every
// sandbox, as it does for a tell (appAt).
func (an *asAn) appSpec(st []asToken, i int) {
	j := i + 1
	if j >= len(st) || st[j].kind != asString && !st[j].isOp('(') &&
		!((st[j].kind == asWord || st[j].kind == asVar) && st[j].kw == kwNone && an.isVar(an.name(st[j]))) {
		return // application process, application id, application file …: no path
	}
	if name, _, ok := an.foldStrings(st[j:]); ok {
		an.appAt("APPLICATION", name, tokSpan(st[j]))
	} else if p := an.foldPath(st[j:], 0); p != "" {
		an.appAt("APPLICATION", p, tokSpan(st[j]))
	}
}

// hasOp reports an operator op among st.
func hasOp(st []asToken, op byte) bool {
	for _, t := range st {
		if t.isOp(op) {
			return true
		}
	}
	return false
}
