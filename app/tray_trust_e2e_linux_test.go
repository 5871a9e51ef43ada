package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// TestTrayIsUntrustedInput drives the menu-bar app's tray over D-Bus, as
// any process of the session can, on a private Xvfb display with zenity:
// the clicks that raise trust (Level 2, Resume after a kill) change nothing
// by themselves, however often they are sent; only the person's answer in
// the confirmation popup (a click there, through XTEST, after the arm
// delay) makes the change. "Open history" shows the report in a window and
// leaves no decrypted copy on disk.
func TestTrayIsUntrustedInput(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary, zenity and Xvfb")
	}
	xtest.Need(t, "zenity", "dbus-daemon", "gnome-keyring-daemon")
	d := xtest.Start(t)
	artifacts := xtest.ArtifactDir(t)
	w := newWorld(t, `{"autonomy": 1, "approvalTimeout": "30s"}`)
	tmp := t.TempDir()
	w.env = append(d.Env(w.env), "TMPDIR="+tmp)
	b := newBus(t, w, true)
	a := w.startApp()
	reg := b.registered(a)
	const patience = 15 * time.Second
	b.awaitMenu(reg.sender, "Level 1 checked", func(items []menuItem) bool { return checkedLevel(items) == "Level 1 — Smart default" })
	settings := filepath.Join(w.home, "airlock-data", "settings.json")
	level := func(want int) {
		t.Helper()
		out, code := w.client("", "status", "--json")
		var st struct{ Autonomy int }
		if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || st.Autonomy != want {
			t.Fatalf("status: exit %d, %v, want autonomy %d:\n%s", code, err, want, out)
		}
		s, err := policy.LoadSettings(settings)
		if err != nil || int(s.Autonomy) != want {
			t.Fatalf("settings: %v, autonomy %d, want %d", err, s.Autonomy, want)
		}
	}

	// Level 2 over D-Bus opens the confirmation popup, and nothing else:
	// the level, the settings and what runs stay as they were. More clicks
	// while it is open are dropped, not queued as more popups.
	l2 := tray.LevelTitle(policy.FullAuto)
	b.click(reg.sender, "Level 2")
	popup := d.WaitWindow(t, l2, patience)
	for range 3 {
		b.click(reg.sender, "Level 2")
	}
	b.click(reg.sender, "Level 1") // the level it is at already: nothing to do
	for deadline := time.Now().Add(patience); strings.Count(a.output(), "another confirmation is open") < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the clicks sent while the popup was open were not refused:\n%s", a.output())
		}
	}
	if ws := d.Windows(t, l2); len(ws) != 1 {
		t.Fatalf("%d confirmation popups, want 1", len(ws))
	}
	level(1)
	if out, code := w.client(`WRITE_FILE "~/Documents/unasked.txt" "x"`, "run", "--dry-run", "-"); code != 0 || !strings.Contains(out, "ask") {
		t.Fatalf("a dangerous plan while Level 2 waits for its yes would not be asked about: exit %d\n%s", code, out)
	}
	d.Screenshot(t, filepath.Join(artifacts, "tray-confirm-level2.png"))
	// The person says no (Escape): still Level 1, and the menu says why.
	d.Key(t, popup, "Escape")
	d.WaitGone(t, l2, popup, patience)
	b.awaitMenu(reg.sender, "the refusal", hasItem("Still at Level 1 — Smart default: Level 2 — Full auto was not confirmed"))
	level(1)

	// The person clicks the popup's yes (after the arm delay): Level 2.
	b.click(reg.sender, "Level 2")
	popup = d.WaitWindow(t, l2, patience, popup)
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, popup, xtest.LastButtonDX, xtest.ButtonDY)
	b.awaitMenu(reg.sender, "Level 2 checked", func(items []menuItem) bool { return checkedLevel(items) == "Level 2 — Full auto" })
	level(2)
	if out, code := w.client(`WRITE_FILE "~/Documents/level2.txt" "ran unasked"`, "run", "-"); code != 0 {
		t.Fatalf("a dangerous plan at Level 2: exit %d\n%s", code, out)
	}

	// After `airlock kill`, Resume over D-Bus opens its popup and resumes
	// nothing.
	if out, code := w.client("", "kill"); code != 0 {
		t.Fatalf("airlock kill: exit %d\n%s", code, out)
	}
	b.awaitMenu(reg.sender, "Resume", hasItem("Resume"))
	b.click(reg.sender, "Resume")
	popup = d.WaitWindow(t, tray.ResumeTitle, patience)
	b.click(reg.sender, "Resume")
	if out, _ := w.client("", "status"); !strings.Contains(out, "KILLED") {
		t.Fatalf("status while Resume waits for its yes:\n%s", out)
	}
	if out, code := w.client(`CREATE_FOLDER "~/Documents/while-asked"`, "run", "-"); code != 1 || !strings.Contains(out, "killed") {
		t.Fatalf("a plan while Resume waits for its yes: exit %d\n%s", code, out)
	}
	d.Screenshot(t, filepath.Join(artifacts, "tray-confirm-resume.png"))
	d.Key(t, popup, "Escape")
	d.WaitGone(t, tray.ResumeTitle, popup, patience)
	b.awaitMenu(reg.sender, "the refusal to resume", hasItem("Still stopped: Resume was not confirmed"))
	if out, _ := w.client("", "status"); !strings.Contains(out, "KILLED") {
		t.Fatalf("status after Resume was refused:\n%s", out)
	}

	// The person's yes resumes.
	b.click(reg.sender, "Resume")
	popup = d.WaitWindow(t, tray.ResumeTitle, patience, popup)
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, popup, xtest.LastButtonDX, xtest.ButtonDY)
	b.awaitMenu(reg.sender, "the kill switch again", hasItem("Kill switch"))
	if out, code := w.client(`CREATE_FOLDER "~/Documents/resumed"`, "run", "-"); code != 0 {
		t.Fatalf("a plan after the confirmed Resume: exit %d\n%s", code, out)
	}

	// Open history shows the report in a window; no file anywhere holds
	// what it shows. The marker is in an action's text, which the history
	// keeps only sealed.
	const marker = "marker-e1d6c0a9"
	if out, code := w.client(`CREATE_FOLDER "~/Documents/`+marker+`"`, "run", "-"); code != 0 {
		t.Fatalf("the marked plan: exit %d\n%s", code, out)
	}
	b.click(reg.sender, "Open history")
	view := d.WaitWindow(t, tray.HistoryTitle, patience)
	b.click(reg.sender, "Open history")
	a.awaitOutput(t, "the history window is already open")
	if ws := d.Windows(t, tray.HistoryTitle); len(ws) != 1 {
		t.Errorf("%d history windows, want 1", len(ws))
	}
	d.Screenshot(t, filepath.Join(artifacts, "tray-history.png"))
	for _, dir := range []string{w.home, tmp} {
		if found := filesHolding(t, dir, marker); len(found) > 0 {
			t.Errorf("files under %s hold the history's text: %q", dir, found)
		}
	}
	d.Key(t, view, "Escape")
	d.WaitGone(t, tray.HistoryTitle, view, patience)
}

// filesHolding lists the regular files under dir whose contents hold s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil // gone meanwhile (a journal)
			}
			return err
		}
		if !e.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(s)) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
