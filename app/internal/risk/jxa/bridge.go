package jxa

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// The ObjC bridge beyond the analyzer's own rows: a method reached from a
// class that acts ($.NSWorkspace, $.NSUserDefaults …, directly or through
// a variable holding one) is rated by the tables AppleScriptObjC is rated
// by (facts.ObjCMethods), so the same call has the same level in both
// languages; a method called on such a class that neither table models is
// Dangerous, by the auto-run contract (facts.ObjCClasses: "any other
// method of theirs is Dangerous").

// bridgeMember rates the member toks[i] (after a ".") that has no row of
// its own, when the chain it ends starts at an acting class or at a class
// no table knows.
func (an *jsAn) bridgeMember(toks []jsToken, i int) {
	name := toks[i].text
	called := i+1 < len(toks) && toks[i+1].text == "("
	_, m, known := facts.LookupObjCMethod(name)
	if !known && !called || known && m.Effect == facts.ObjCInert {
		return // a property, or a method that changes nothing: no chain to follow
	}
	class, ok := an.bridgeClass(toks, i)
	if !ok && known && m.Effect == facts.ObjCClipboard && i >= 1 && toks[i-1].text == "." {
		// NSPasteboard is a value class, but its writes replace the
		// clipboard, a way out, as AppleScriptObjC's are rated.
		class, ok = "NSPasteboard", true
	}
	if !ok {
		return
	}
	sp := jsSpan(toks[i])
	if known {
		if m.Effect == facts.ObjCDefaults {
			an.bridgeDefaults(toks, i, name, m)
			return
		}
		// Zero-argument methods are properties in JXA (t.launch): a
		// known method acts whether it is called or read.
		an.add(m.Does, "jxa.objc-method", sp, "OBJC: %s (%s) %s", name, class, m.What)
		if called && (m.Effect == facts.ObjCWrite || m.Effect == facts.ObjCAttributes) {
			// replaceItemAtURL…(~/.zshrc, …), setAttributes…(…, ~/.ssh):
			// the paths it is given are written, where a start-up file
			// or a credential store is worse than a write.
			c := an.invocation(toks, i)
			all := make([]int, len(c.args))
			for k := range all {
				all[k] = k
			}
			an.pathArgs(c, true, all...)
		}
		return
	}
	if called && !jsNoArgs(toks, i+1) || called && bridgeActs(name) {
		an.add(effect.Of(effect.Unknown), "jxa.objc-unmodelled", sp, "OBJC: %s's method %s is not one Airlock models: cannot tell what it does", class, name)
	}
}

// jsNoArgs reports a call with nothing between its parentheses: f().
func jsNoArgs(toks []jsToken, open int) bool {
	return open+1 < len(toks) && toks[open+1].text == ")"
}

// bridgeActs reports a method name that by its words changes something:
// an unmodelled call with no arguments is rated only then (most are
// getters: frontmostApplication(), runningApplications()).
func bridgeActs(name string) bool {
	low := strings.ToLower(name)
	for _, w := range []string{"remove", "delete", "recycle", "trash", "destroy", "write", "replace", "move", "set", "launch", "run", "exec", "terminate", "kill", "open", "send", "post", "install", "load", "create", "unmount", "eject", "empty", "clear", "reset", "erase"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// bridgeClass is the class the chain ending at toks[i] starts from, when
// it is one that acts (not a Value class) or one no table knows: $.Class…
// or a variable assigned $.Class….
func (an *jsAn) bridgeClass(toks []jsToken, i int) (string, bool) {
	if i < 2 || toks[i-1].text != "." {
		return "", false
	}
	s := jsChainStart(toks, i-2)
	var class string
	if jsUnwrapped(toks[s : i-1]) {
		return "", false
	}
	switch {
	case s+2 < i && jsDollarAt(toks, s) && toks[s+1].text == "." && toks[s+2].kind == jsIdent:
		if toks[s+3].text == "(" {
			return "", false // $.NSHomeDirectory().…: a C function's value
		}
		class = toks[s+2].text
	case toks[s].kind == jsIdent && toks[s].text != "$":
		c, ok := an.varClass(toks[s].text, 0)
		if !ok {
			return "", false
		}
		class = c
	default:
		return "", false
	}
	if class == "" || class[0] < 'A' || class[0] > 'Z' {
		return "", false // $.getenv(…): a C function, rated by its row
	}
	if _, c, known := facts.LookupObjCClass(class); known && c.Value {
		return "", false
	}
	return class, true
}

// jsUnwrapped reports a chain that turns a bridged object into a
// JavaScript value (.js, ObjC.unwrap, ObjC.deepUnwrap): its methods are
// JavaScript's from there on.
func jsUnwrapped(ts []jsToken) bool {
	for k := 0; k+1 < len(ts); k++ {
		if ts[k].text == "." && (ts[k+1].text == "js" || ts[k+1].text == "unwrap" || ts[k+1].text == "deepUnwrap") {
			return true
		}
	}
	return false
}

// varClass is the bridge class a variable's every value starts from:
// var ws = $.NSWorkspace.sharedWorkspace, or another such variable.
func (an *jsAn) varClass(name string, depth int) (string, bool) {
	defs := an.defs[name]
	if len(defs) == 0 || depth > 4 {
		return "", false
	}
	class := ""
	for _, d := range defs {
		e := d.expr
		if jsUnwrapped(e) {
			return "", false
		}
		var c string
		switch {
		case len(e) >= 3 && e[0].text == "$" && e[1].text == "." && e[2].kind == jsIdent:
			c = e[2].text
		case len(e) >= 1 && e[0].kind == jsIdent && e[0].text != name && (len(e) == 1 || e[1].text == "."):
			var ok bool
			if c, ok = an.varClass(e[0].text, depth+1); !ok {
				return "", false
			}
		default:
			return "", false
		}
		if class != "" && c != class {
			return "", false
		}
		class = c
	}
	return class, class != ""
}

// bridgeDefaults rates a preference written through NSUserDefaults as
// AppleScriptObjC's is rated: a security setting of the domain the chain
// names (initWithSuiteName('com.apple.loginwindow')) is SecurityOff;
// another application's preferences are an Overwrite of its file.
func (an *jsAn) bridgeDefaults(toks []jsToken, i int, name string, m facts.ObjCMethod) {
	sp := jsSpan(toks[i])
	domains := an.chainStrings(toks[jsChainStart(toks, i-2):i], 0)
	var keys []string
	if c := an.invocation(toks, i); c.ok {
		for _, a := range c.args {
			for _, t := range a {
				if t.kind == jsString {
					keys = append(keys, t.val)
				}
			}
		}
	}
	for _, d := range domains {
		for _, k := range append(keys, "") {
			if facts.ObjCSecuritySetting(d, k) {
				an.add(effect.Of(effect.SecurityOff), "jxa.objc-security", sp, "SECURITY: %s changes %s %s, a security setting", name, d, k)
				return
			}
		}
	}
	if len(domains) > 0 {
		e := m.Does
		if o := effect.Of(effect.Overwrite); o.Level() > e.Level() {
			e = o
		}
		an.add(e, "jxa.objc-defaults", sp, "PREFERENCES: %s changes the preferences of %s", name, domains[0])
		return
	}
	an.add(m.Does, "jxa.objc-defaults", sp, "PREFERENCES: %s %s", name, m.What)
}

// chainStrings are the string literals of a chain, and of the values of
// the variable it starts from: the domain of
// var u = $.NSUserDefaults.alloc.initWithSuiteName('…'); u.setObjectForKey(…).
func (an *jsAn) chainStrings(ts []jsToken, depth int) []string {
	var out []string
	for _, t := range ts {
		if t.kind == jsString {
			out = append(out, t.val)
		}
	}
	if len(ts) > 0 && ts[0].kind == jsIdent && ts[0].text != "$" && depth < 4 {
		for _, d := range an.defs[ts[0].text] {
			out = append(out, an.chainStrings(d.expr, depth+1)...)
		}
	}
	return out
}
