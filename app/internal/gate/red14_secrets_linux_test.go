//go:build linux

package gate_test

import "testing"

// TestRed14SecretsUnderEditorNames: the twins of a secret file the
// thirteenth team found (.env~, server.key.bak, ".env copy") are hidden as
// the file they copy, but not those by the other names tools give them:
// the numbered backups GNU cp, mv and install make with
// --backup=numbered, and Emacs with version-control set (.env.~1~,
// id_ed25519.~12~), and the swap files Vim keeps beside a file being
// edited, left behind when it ends unsaved (.env.swp, .id_rsa.swp,
// .server.key.swo), each of which holds the file's text. Each was read
// unasked and printed in a shape the redactor does not know (od -c); the
// test FAILS when a secret comes back from an unasked command.
func TestRed14SecretsUnderEditorNames(t *testing.T) {
	secretTwinsHidden(t, "red14", "backups.json")
}

// TestRed14EditorNamesLookalikes: numbered backups and swap files of
// files that hold no secret (code, a public key, notes) are read unasked,
// as the files they copy.
func TestRed14EditorNamesLookalikes(t *testing.T) {
	twinLookalikesRead(t, "red14", "backups-lookalikes.json")
}
