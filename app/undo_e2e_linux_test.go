//go:build linux

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// seedUndo plays issue 21's thesis attack into the world's home and
// history, as the gate applies and records an unasked action's changes:
// request "r-thesis" ran `touch empty; mv empty thesis.docx`, removed
// draft.txt and made notes.txt. It writes the history through the world's
// keyring, before the gate starts.
func seedUndo(t *testing.T, w *world, b *bus) {
	t.Helper()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", b.addr)
	ks, err := secrets.Open()
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(w.home, "airlock-data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(filepath.Join(data, "history.db"), ks)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	docs := filepath.Join(w.home, "Documents")
	for name, content := range map[string]string{"thesis.docx": "my thesis, four years of it", "draft.txt": "a draft"} {
		if err := os.WriteFile(filepath.Join(docs, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	upper := filepath.Join(w.home, "layer", "upper")
	if err := os.MkdirAll(upper, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"thesis.docx": "", "notes.txt": "the agent's notes"} {
		if err := os.WriteFile(filepath.Join(upper, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := sanitize.NewConfig(w.home, nil)
	if err != nil {
		t.Fatal(err)
	}
	ex := &execute.Executor{Paths: paths, Trash: execute.FreedesktopTrash(filepath.Join(w.home, ".local/share"))}
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(store.AddRequest(ctx, history.Request{ID: "r-thesis", Client: "agent", Kind: gate.KindCommand, Text: "sh -c 'touch empty; mv empty thesis.docx'"}))
	must(store.AddDecision(ctx, history.Decision{RequestID: "r-thesis", Risk: level.Caution, Autonomy: 1, Decision: "auto"}))
	a, held, err := ex.ApplyChanges(ctx, []ossandbox.Change{
		{Kind: ossandbox.Changed, Path: filepath.Join(docs, "thesis.docx"), Upper: filepath.Join(upper, "thesis.docx"), Mode: 0o644, Was: 0o644},
		{Kind: ossandbox.Removed, Path: filepath.Join(docs, "draft.txt"), Was: 0o644},
		{Kind: ossandbox.Created, Path: filepath.Join(docs, "notes.txt"), Upper: filepath.Join(upper, "notes.txt"), Mode: 0o644, Size: 17},
	}, "request r-thesis, action 1")
	must(err)
	if held != nil {
		t.Fatalf("held %+v", held.Items)
	}
	must(store.AddFileChanges(ctx, gate.FileChangesOf("r-thesis", 0, 0, a.Records)))
	must(store.AddOutcome(ctx, history.Outcome{RequestID: "r-thesis", Status: "ok"}))
}

func (w *world) doc(t *testing.T, name string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.home, "Documents", name))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// awaitServing waits until the app's gate answers on its socket.
func awaitServing(t *testing.T, w *world, a *app) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, code := w.client("", "status"); code == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gate never served; the app printed:\n%s", a.output())
		}
	}
}

// TestUndoEndToEnd: an agent runs `airlock undo` for the request that
// emptied the thesis. The menu-bar app only opens its confirmation popup:
// the person's Escape leaves everything as it is; their click on Undo
// (after the arm delay) puts the thesis and the draft back from the Trash
// and moves the agent's notes there, and the history records the undo.
func TestUndoEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary, zenity and Xvfb")
	}
	xtest.Need(t, "zenity", "dbus-daemon", "gnome-keyring-daemon")
	d := xtest.Start(t)
	artifacts := xtest.ArtifactDir(t)
	w := newWorld(t, `{"autonomy": 1, "approvalTimeout": "30s"}`)
	w.env = d.Env(w.env)
	b := newBus(t, w, true)
	seedUndo(t, w, b)
	if got, _ := w.doc(t, "thesis.docx"); got != "" {
		t.Fatalf("the attack did not empty the thesis: %q", got)
	}
	a := w.startApp()
	b.registered(a)
	awaitServing(t, w, a)
	const patience = 15 * time.Second
	const title = "Airlock — undo request r-thesis?"

	// Nothing to undo: no popup, a clear error.
	if out, code := w.client("", "undo", "r-nothing"); code != 1 || !strings.Contains(out, "nothing to undo") {
		t.Errorf("undo of a request that changed nothing: exit %d\n%s", code, out)
	}

	ch := w.clientAsync("", "undo", "r-thesis")
	popup := d.WaitWindow(t, title, patience)
	d.Screenshot(t, filepath.Join(artifacts, "undo-confirm.png"))
	if got, _ := w.doc(t, "thesis.docx"); got != "" {
		t.Fatalf("the thesis changed while the popup was open: %q", got)
	}
	d.Key(t, popup, "Escape")
	r := wait(t, ch)
	if r.code != 1 || !strings.Contains(r.out, "needs the person's yes") {
		t.Fatalf("an undo the person refused: exit %d\n%s", r.code, r.out)
	}
	if got, _ := w.doc(t, "thesis.docx"); got != "" {
		t.Fatalf("a refused undo changed the thesis: %q", got)
	}

	ch = w.clientAsync("", "undo", "r-thesis")
	popup = d.WaitWindow(t, title, patience, popup)
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, popup, xtest.LastButtonDX, xtest.ButtonDY)
	r = wait(t, ch)
	if r.code != 0 || !strings.Contains(r.out, "undone: "+filepath.Join(w.home, "Documents", "thesis.docx")) || !strings.Contains(r.out, "3 paths undone, 0 not") {
		t.Fatalf("an undo the person confirmed: exit %d\n%s", r.code, r.out)
	}
	if got, _ := w.doc(t, "thesis.docx"); got != "my thesis, four years of it" {
		t.Errorf("after undo the thesis is %q", got)
	}
	if got, _ := w.doc(t, "draft.txt"); got != "a draft" {
		t.Errorf("after undo the draft is %q", got)
	}
	if _, ok := w.doc(t, "notes.txt"); ok {
		t.Errorf("after undo the agent's notes are still there")
	}
	trashed, err := filepath.Glob(filepath.Join(w.home, ".local/share/Trash/files/notes*.txt"))
	if err != nil || len(trashed) != 1 {
		t.Errorf("the agent's notes are not in the Trash: %v, %v", trashed, err)
	}
	rec := awaitHistory(t, w, "the person (airlock undo)", "undo r-thesis")
	if rec.Status != "ok" || rec.Approval != "approved" {
		t.Errorf("the undo's record: %+v", rec)
	}

}

// TestUndoNeedsAPopup: a gate that shows no popup (serve on a terminal)
// refuses every undo, saying why, and changes nothing.
func TestUndoNeedsAPopup(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, `{"approvalTimeout": "10s"}`)
	b := newBus(t, w, false)
	seedUndo(t, w, b)
	w.launchGate()
	out, code := w.client("", "undo", "r-thesis")
	if code != 1 || !strings.Contains(out, "shows none") || !strings.Contains(out, "--prompter=popup") {
		t.Errorf("undo without a popup: exit %d\n%s", code, out)
	}
	if got, _ := w.doc(t, "thesis.docx"); got != "" {
		t.Errorf("the thesis changed: %q", got)
	}
	if out, code := w.client("", "undo", "bad\tid"); code == 0 || !strings.Contains(out, "request must be a request id") {
		t.Errorf("undo of a malformed id: exit %d\n%s", code, out)
	}
}
