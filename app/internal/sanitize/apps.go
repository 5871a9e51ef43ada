package sanitize

import (
	"fmt"
	"strings"
	"unicode"
)

// AnyApp, as the only entry of the allowed apps (the allowedApps setting),
// lets every application be opened, quit and brought to the front.
const AnyApp = "*"

// appsSetting names the setting in messages.
const appsSetting = "allowedApps (settings.json)"

// appList is a compiled list of allowed applications.
type appList struct {
	any  bool
	keys map[string]bool // appKey of each entry
}

// AppName refuses what cannot be an application's name or bundle id: text
// Strict refuses, an empty name, white space at either end, a path (a
// slash), and a name that starts with "." or "-" (a hidden file, an
// option). The bridge opens apps by name or bundle id only; anything else
// would be read as something else.
func AppName(name string) error {
	if r := appName(name); r != nil {
		return r
	}
	return nil
}

func appName(name string) *Refusal {
	if r := strict("app", name); r != nil {
		return r
	}
	switch {
	case name == "":
		return &Refusal{Rule: RuleEmpty, Arg: name, Detail: "is empty; an app name is needed"}
	case strings.TrimFunc(name, isSpaceLike) != name:
		return &Refusal{Rule: RuleNotAppName, Arg: name, Detail: "begins or ends with white space; not allowed in an app name"}
	case strings.Contains(name, "/"):
		return &Refusal{Rule: RuleNotAppName, Arg: name, Detail: "is a path; name the app (\"Safari\") or its bundle id (\"com.apple.Safari\")"}
	case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-"):
		return &Refusal{Rule: RuleNotAppName, Arg: name, Detail: "starts with \".\" or \"-\"; not an app name"}
	}
	return nil
}

func isSpaceLike(r rune) bool { return unicode.IsSpace(r) || isLookalikeSpace(r) }

// appKey is how two app names compare: without a trailing ".app", then as
// the allow lists compare path elements (allowKey: NFC and simple case
// folding, what a default APFS volume and the bridge's own look-up treat
// as one name, and no more). So "safari" and "Safari.app" are Safari, while
// "Sаfari" with a Cyrillic а, " Safari" and "Safari Technology Preview"
// are not. A bundle id compares only with a bundle id.
func appKey(name string) string {
	if n := len(name); n > len(".app") && strings.EqualFold(name[n-len(".app"):], ".app") {
		name = name[:n-len(".app")]
	}
	return allowKey(name)
}

// SameApp reports whether a and b name the same application as AppAllowed
// compares names.
func SameApp(a, b string) bool { return appKey(a) == appKey(b) }

// WithApps returns a copy of c that allows only the applications apps
// names (the allowedApps setting) to be opened, quit or brought to the
// front: see App. An empty list allows none; AnyApp alone allows every
// one. Each entry must pass AppName, and AnyApp may only stand alone. c
// itself is not changed. A Config never given a list (NewConfig alone)
// has no such limit.
func (c *Config) WithApps(apps []string) (*Config, error) {
	if c == nil {
		return nil, fmt.Errorf("allowed apps: no configuration")
	}
	if r := List("allowedApps", apps); r != nil {
		return nil, fmt.Errorf("allowed apps: %w", r)
	}
	l := &appList{keys: map[string]bool{}}
	for _, a := range apps {
		if a == AnyApp {
			if len(apps) > 1 {
				return nil, fmt.Errorf("allowed apps: %q (any app) must be the only entry", AnyApp)
			}
			l.any = true
			continue
		}
		if r := appName(a); r != nil {
			return nil, fmt.Errorf("allowed apps: %w", r)
		}
		l.keys[appKey(a)] = true
	}
	out := *c
	out.apps = l
	return &out, nil
}

// App refuses, with a *Refusal under RuleAppNotAllowed, an application the
// allowed apps (WithApps) do not list, and with AppName's refusal
// something that is no app name. It is the one place the allowed apps are
// compared with a name: the DSL's OPEN_APP, QUIT_APP, ACTIVATE_APP and
// OPEN_FILE's app, and AppleScript's tell application targets, all ask
// here. A nil Config, or one without a list, refuses only what AppName
// does.
func (c *Config) App(name string) error {
	if r := appName(name); r != nil {
		return r
	}
	if c == nil || c.apps == nil || c.apps.any || c.apps.keys[appKey(name)] {
		return nil
	}
	detail := "is not in " + appsSetting
	if len(c.apps.keys) == 0 {
		detail += ", which is empty: no app may be opened, quit or brought to the front"
	}
	return &Refusal{Rule: RuleAppNotAllowed, Arg: name, Detail: detail, shown: quoted(name)}
}

// AppAllowed is App as an answer and a reason: ok, or why not, as
// `"Terminal" is not in allowedApps (settings.json)`, to be shown to the
// person (the name quoted and escaped by Display).
func (c *Config) AppAllowed(name string) (ok bool, reason string) {
	err := c.App(name)
	if err == nil {
		return true, ""
	}
	return false, strings.TrimPrefix(err.Error(), "blocked: ")
}

// quoted is Display(s), always in double quotes.
func quoted(s string) string {
	d := Display(s)
	if strings.HasPrefix(d, `"`) {
		return d
	}
	return `"` + d + `"`
}
