package execute

import "testing"

// TestHiddenInAnyCase: what the sandbox hides is compared in any case, as
// APFS and HFS+ open a file by a name in another case (OPEN_FILE's
// hiddenFromLaunch and the scripts' namedIn share it); paths that
// differ by more than case, or only share a prefix, are not hidden.
func TestHiddenInAnyCase(t *testing.T) {
	hidden := []string{"/Users/ann/Downloads/prod.pem", "/Users/ann/Documents/old/.kube"}
	for p, want := range map[string]bool{
		"/Users/ann/Downloads/prod.pem":         true,
		"/Users/ann/downloads/PROD.PEM":         true,
		"/users/ANN/Documents/OLD/.KUBE/config": true,
		"/Users/ann/Downloads/prod.pem.txt":     false,
		"/Users/ann/Downloads/prod":             false,
		"/Users/ann/Documents/old/.kube2":       false,
		"/Users/ann/Downloads":                  false,
	} {
		if got := hiddenAt(p, hidden) != ""; got != want {
			t.Errorf("hiddenAt(%s) found one: %v, want %v", p, got, want)
		}
	}
}

// TestNamedHiddenByItsEnd: a literal names a hidden file by its end (a
// name with an extension, a path below a folder, HFS or POSIX, in any
// case); a bare word that ends a hidden path (a hidden object store's
// "objects", a copied store's "config") or a name only part of one
// (".pem", "rod.pem") names none.
func TestNamedHiddenByItsEnd(t *testing.T) {
	hidden := []string{"/h/Downloads/prod.pem", "/h/Documents/proj/.git/objects", "/h/Documents/old/.kube/config"}
	for s, want := range map[string]string{
		"prod.pem":              "/h/Downloads/prod.pem",
		"Downloads:PROD.pem":    "/h/Downloads/prod.pem",
		"./prod.pem":            "/h/Downloads/prod.pem",
		".git/objects":          "/h/Documents/proj/.git/objects",
		".kube/config":          "/h/Documents/old/.kube/config",
		"objects":               "",
		"config":                "",
		".pem":                  "",
		"rod.pem":               "",
		"/h/Documents/prod.pem": "",
		"":                      "",
	} {
		if got := newHiddenSet(hidden).named(s, nil); got != want {
			t.Errorf("named(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestUnescapeLiteral: a script's literal is read with its escapes as
// JavaScript reads them; broken escapes stay letters.
func TestUnescapeLiteral(t *testing.T) {
	for in, want := range map[string]string{
		`\x70rod\u002epem`:     "prod.pem",
		`\u{70}rod.pem`:        "prod.pem",
		`a\"b\\c`:              `a"b\c`,
		`\xZZ.pem`:             "xZZ.pem",
		`\u12`:                 "u12",
		`\u{110000}x`:          "u{110000}x",
		`plain/path/no.escape`: "plain/path/no.escape",
		`trailing\`:            `trailing\`,
	} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}
