//go:build linux

package gate_test

import "testing"

// red14 refused OPEN_FILE, unasked, of a file the sandbox hides for its
// content, compared by the path as the walk spelled it; macOS's disks
// ignore case, and the same key named in another case opened in the
// viewer there. The executor now compares in any case (hiddenAt; the
// scripts' test, TestRed15bScriptNamesHiddenKeyInOtherForms, fails on
// main through the same comparison). Linux has no file by the twin's
// name, so the analyzer asks already and no test here can show the Mac's
// hole: testdata/red15b/open-hidden.json's hidden cases are kept for a
// Mac. Its look-alike runs here.

// TestRed15bOpenHiddenSecretInAnotherCaseLookalikes: a certificate with
// capitals in its name, beside the key, opens unasked in the viewer.
func TestRed15bOpenHiddenSecretInAnotherCaseLookalikes(t *testing.T) {
	openLookalikes(t, "red15b")
}
