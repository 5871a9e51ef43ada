//go:build linux

package execute_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
)

// A fifteenth red team's attacks (15b) on red14's refusal of scripts that
// name a file the sandbox hides. Each payload is in
// testdata/review/red15b-scripts.json and runs unasked through the real
// executor and sandbox in a home made in a temporary folder (newRedRig).

// red15bScripts runs each script of the list key unasked in a home whose
// roots hold keys the sandbox hides though their names say nothing, a
// folder linked to theirs (Documents/dl → ../Downloads) and a certificate
// named like one of them elsewhere; it returns each case's error.
func red15bScripts(t *testing.T, key string) map[string]error {
	t.Helper()
	return red15bScriptsIn(t, "red15b-scripts.json", key)
}

// red15bScriptsIn is red15bScripts of the list key of testdata/review/file.
func red15bScriptsIn(t *testing.T, file, key string) map[string]error {
	t.Helper()
	cases := scriptCases(t, file, key)
	r := newRedRig(t, []string{"~/Documents", "~/Downloads"}, map[string]redFile{
		"Downloads/myproj-3f2a1b4c5d6e.json": {"{\n  \"type\": \"service_account\",\n  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCS3CRETscript15\\n-----END PRIVATE KEY-----\\n\"\n}\n", 0o600},
		"Downloads/prod.pem":                 {"-----BEGIN RSA PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDS3CRETscript15\n-----END RSA PRIVATE KEY-----\n", 0o600},
		"Downloads/schl\u00fcssel.pem":       {"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBS3CRETnfcScript15\n-----END EC PRIVATE KEY-----\n", 0o600},
		"Downloads/cert.pem":                 {"-----BEGIN CERTIFICATE-----\nMIIDpublicCertificateBodyReadable15\n-----END CERTIFICATE-----\n", 0o644},
		"Documents/notes/prod.pem":           {"-----BEGIN CERTIFICATE-----\nMIIDpublicCertificateNamedProd15\n-----END CERTIFICATE-----\n", 0o644},
	})
	if err := os.Symlink("../Downloads", r.p("Documents/dl")); err != nil {
		t.Fatal(err)
	}
	return r.runScripts(t, cases, strings.NewReplacer("{{HOME}}", r.home, "{{TILDEUSER}}", "~"+filepath.Base(r.home)))
}

// TestRed15bScriptNamesHiddenKeyInOtherForms: red14 refused a script run
// unasked whose string literals name a hidden file by its whole path; the
// app it drives reads the file outside every sandbox. The same file named
// in the other forms a script has was not refused: relative to the home
// in HFS, joined from its folder and its name (in the script or in argv),
// as file NAME of folder of home, in another case (one file on APFS,
// which ignores case), through a linked folder (with or without a ".."
// after it), and as a file://localhost URL.
func TestRed15bScriptNamesHiddenKeyInOtherForms(t *testing.T) {
	for name, err := range red15bScripts(t, "hidden") {
		if !errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("HOLE: %s: started unasked (%v)", name, err)
		}
	}
}

// TestRed15bScriptNamesHiddenKeyLookalikes: a certificate named like a
// hidden key in another folder, the linked folder itself, a word the
// key's name shares, and a certificate joined from its folder and name,
// are started.
func TestRed15bScriptNamesHiddenKeyLookalikes(t *testing.T) {
	for name, err := range red15bScripts(t, "lookalikes") {
		if errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("%s: not started: %v", name, err)
		}
	}
}

// TestRed15bScriptComputesHiddenKeysName: open (skipped unless
// AIRLOCK_RED_OPEN=1). A script that computes the hidden key's name
// (['p','r','o','d'].join(”) + '.pem') or takes it from the Finder's
// listing of its folder names it in no literal, so namedIn cannot
// see it; the analyzer rates the JXA one Caution (a path computed at run
// time), and on a Mac TextEdit reads the key outside every sandbox. The
// fix: an unasked script whose app is handed a path computed at run time
// is not started while the sandbox hides a file the analyzer cannot know
// (a key known by content, a copied credential store), or the analyzer
// rates such an open Dangerous (red15a's analyzers).
func TestRed15bScriptComputesHiddenKeysName(t *testing.T) {
	for name, err := range red15bScriptsIn(t, "red15b-computed.json", "open") {
		if !errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("HOLE: %s: started unasked (%v)", name, err)
		}
	}
}
