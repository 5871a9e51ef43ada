package jxa

import (
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The applications a script drives, checked against rate.Env.AppAllowed
// as the AppleScript analyzer checks a tell: every name Application(…)
// is given, folded (a variable, a join, a template: appNames), and the
// one NSWorkspace's launchApplication or launchAppWithBundleIdentifier
// starts. An application the check cannot name — Application given a
// name computed at run time, or taken as a value (const A = Application,
// Application.apply(…)), which calls it by a name no call site shows —
// is reported as one the setting may not list. Without AppAllowed (no
// allowedApps setting, and the executor not asking) nothing is added,
// so ratings do not change.

// appAllowed checks the names an application is given at sp.
func (an *jsAn) appAllowed(args []jsToken, sp rate.Span) {
	if an.env == nil || an.env.AppAllowed == nil {
		return
	}
	names := an.appNames(args)
	if len(names) == 0 {
		an.add(effect.Of(effect.Unknown), "jxa.app-not-allowed", sp, "APP: an application named at run time: cannot tell whether the allowedApps setting lists it")
		return
	}
	for _, n := range names {
		if ok, why := an.env.AppAllowed(n); !ok {
			if why == "" {
				why = "it is not in the allowedApps setting"
			}
			an.add(effect.Of(effect.Unknown), "jxa.app-not-allowed", sp, "APP: %s is not allowed: %s (the allowedApps setting)", rate.Display(n), why)
		}
	}
}

// applicationValue reports Application at toks[i] used otherwise than
// called or asked for the current application: taken as a value, it
// names applications no call site shows.
func (an *jsAn) applicationValue(toks []jsToken, i int) {
	if an.env == nil || an.env.AppAllowed == nil || i > 0 && toks[i-1].text == "." {
		return
	}
	if i+1 < len(toks) && toks[i+1].text == "(" {
		return // a call: applicationCall
	}
	if i+2 < len(toks) && toks[i+1].text == "." && toks[i+2].text == "currentApplication" {
		return
	}
	an.add(effect.Of(effect.Unknown), "jxa.app-not-allowed", jsSpan(toks[i]), "APP: Application is used as a value, which drives applications no call names: cannot tell whether the allowedApps setting lists them")
}
