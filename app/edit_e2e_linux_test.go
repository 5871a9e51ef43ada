package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// TestEndToEndEdit: `airlock serve --prompter=popup` under Xvfb; a client
// submits a dangerous plan; the person presses Edit in the popup, rewrites
// the plan in zenity's editor (first into something that does not parse,
// which comes back with its errors), and approves their edit when it is
// asked about again. Only the edit runs; the client is told so; the
// history keeps both plans, linked, and who edited.
func TestEndToEndEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary, zenity and Xvfb")
	}
	xtest.Need(t, "zenity", "dbus-daemon", "gnome-keyring-daemon")
	d := xtest.Start(t)
	w := newWorld(t, `{"approvalTimeout": "60s"}`)
	gateOut := startPopupGate(t, w, d, "serve", "--prompter=popup")
	doc := filepath.Join(w.home, "Documents")
	artifacts := xtest.ArtifactDir(t)
	const patience = 15 * time.Second

	// Is this client's program verified here (then the popup offers
	// "allow again", and Edit sits left of it)?
	out, code := w.client(`NOTIFY "a" "b"`, "run", "--dry-run", "-")
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	editDX := xtest.EditAloneButtonDX
	if out, _ := w.client("", "history", "--json"); strings.Contains(out, `"program"`) {
		editDX = xtest.EditButtonDX
	}

	run := w.clientAsync(`WRITE_FILE "~/Documents/theirs.txt" "from the agent"`, "run", "-")
	popup := d.WaitWindow(t, bridge.ApprovalTitle, patience)
	d.Screenshot(t, filepath.Join(artifacts, "edit-e2e-popup.png"))
	d.Click(t, popup, editDX, xtest.ButtonDY)

	// An edit that does not parse comes back with its errors.
	editor := d.WaitWindow(t, bridge.EditTitle, patience)
	d.Key(t, editor, "ctrl+a")
	d.Type(t, editor, `WRITE_FIEL "~/Documents/mine.txt" "from the person"`)
	d.Click(t, editor, xtest.LastButtonDX, xtest.ButtonDY)
	errs := d.WaitWindow(t, bridge.EditErrorsTitle, patience)
	d.Screenshot(t, filepath.Join(artifacts, "edit-e2e-errors.png"))
	d.Click(t, errs, xtest.LastButtonDX, xtest.ButtonDY)

	editor = d.WaitWindow(t, bridge.EditTitle, patience, editor)
	d.Key(t, editor, "ctrl+a")
	d.Type(t, editor, `WRITE_FILE "~/Documents/mine.txt" "from the person"`)
	d.Click(t, editor, xtest.LastButtonDX, xtest.ButtonDY)

	// The edit is dangerous too: asked about again, as an edit.
	again := d.WaitWindow(t, bridge.ApprovalTitle, patience, popup)
	d.Screenshot(t, filepath.Join(artifacts, "edit-e2e-again.png"))
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, again, xtest.LastButtonDX, xtest.ButtonDY)

	r := wait(t, run)
	if r.code != 0 || !strings.Contains(r.out, "approval: edited") || !strings.Contains(r.out, "the person's edit of request") {
		t.Fatalf("run: exit %d\n%s\ngate:\n%s", r.code, r.out, gateOut.String())
	}
	if b, err := os.ReadFile(filepath.Join(doc, "mine.txt")); err != nil || string(b) != "from the person" {
		t.Errorf("mine.txt: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(doc, "theirs.txt")); !os.IsNotExist(err) {
		t.Errorf("the plan the person edited away ran: %v", err)
	}

	out, code = w.client("", "history", "--json")
	var records []historyRecord
	if code != 0 || json.Unmarshal([]byte(out), &records) != nil || len(records) < 3 {
		t.Fatalf("history: exit %d\n%s", code, out)
	}
	edit, orig := records[0], records[1]
	if orig.Approval != "edited" || orig.Status != "edited" || !strings.Contains(orig.Action, "theirs.txt") {
		t.Errorf("the original: %+v", orig)
	}
	if edit.EditOf != orig.Request || edit.EditedBy != "the person, in the approval popup (zenity)" ||
		edit.Approval != "approved" || edit.Status != "ok" || !strings.Contains(edit.Action, "mine.txt") {
		t.Errorf("the edit: %+v", edit)
	}
	if out, code := w.client("", "audit", "verify"); code != 0 {
		t.Errorf("audit verify: exit %d\n%s", code, out)
	}
}
