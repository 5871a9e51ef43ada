//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// TestAutomationsEndToEnd runs the menu-bar app with a temporary home on a
// private Xvfb display and D-Bus session, with an automation in
// settings.json that runs a fixed plan at login. The plan runs through the
// real gate, and the history records it under "automation: hello". Then an
// agent's `airlock automations add` only opens the confirmation popup: the
// person's Escape leaves the settings as they were, their click on the yes
// button adds the automation; "Run now" runs it through the gate; the
// menu's items, clicked over D-Bus, turn off at once and only ask to turn
// on; after the kill switch nothing runs.
func TestAutomationsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary, zenity and Xvfb")
	}
	xtest.Need(t, "zenity", "dbus-daemon", "gnome-keyring-daemon")
	d := xtest.Start(t)
	artifacts := xtest.ArtifactDir(t)
	w := newWorld(t, `{
  "autonomy": 1,
  "approvalTimeout": "30s",
  "automations": [
    {"name": "hello", "run": ["CREATE_FOLDER \"~/Documents/from-automation\""], "schedule": "at login"}
  ]
}`)
	w.env = d.Env(w.env)
	b := newBus(t, w, true)
	a := w.startApp()
	reg := b.registered(a)
	const patience = 15 * time.Second
	settings := filepath.Join(w.home, "airlock-data", "settings.json")

	// At login the plan runs through the gate, as "automation: hello".
	awaitFile(t, filepath.Join(w.home, "Documents", "from-automation"), a)
	rec := awaitHistory(t, w, "automation: hello", "CREATE_FOLDER")
	if rec.Status != "ok" || rec.Decision != "auto" || rec.Risk != "caution" {
		t.Errorf("the automation's record: %+v", rec)
	}
	if rec.Program == "" || !strings.Contains(rec.Program, "scheduler") {
		t.Errorf("the automation's program: %q", rec.Program)
	}
	out, code := w.client("", "automations", "list")
	if code != 0 || !strings.Contains(out, "hello") || !strings.Contains(out, "ok ") {
		t.Fatalf("automations list: exit %d\n%s", code, out)
	}
	b.awaitMenu(reg.sender, "the automations", hasItem("Automations (1 of 1 on)"))
	b.awaitMenu(reg.sender, "hello's last result", hasItem("Last: ok "))

	// An agent adds an automation: the popup opens, and nothing else
	// happens until the person answers. Escape is no.
	planFile := filepath.Join(t.TempDir(), "tidy.plan")
	if err := os.WriteFile(planFile, []byte("CREATE_FOLDER \"~/Documents/Inbox\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const title = `Airlock — add the automation "tidy"?`
	add := []string{"automations", "add", "tidy", "--schedule", "every 2h", "--run", planFile}
	ch := w.clientAsync("", add...)
	popup := d.WaitWindow(t, title, patience)
	if s, err := policy.LoadSettings(settings); err != nil || len(s.Automations) != 1 {
		t.Fatalf("while the popup is open the settings hold %+v, %v", s.Automations, err)
	}
	d.Screenshot(t, filepath.Join(artifacts, "automation-add-confirm.png"))
	d.Key(t, popup, "Escape")
	r := wait(t, ch)
	if r.code != 1 || !strings.Contains(r.out, "needs the person's yes") {
		t.Fatalf("an add the person refused: exit %d\n%s", r.code, r.out)
	}
	if s, err := policy.LoadSettings(settings); err != nil || len(s.Automations) != 1 {
		t.Fatalf("after the refusal the settings hold %+v, %v", s.Automations, err)
	}

	// The person clicks the yes button (after the arm delay): added.
	ch = w.clientAsync("", add...)
	popup = d.WaitWindow(t, title, patience, popup)
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, popup, xtest.LastButtonDX, xtest.ButtonDY)
	r = wait(t, ch)
	if r.code != 0 || !strings.Contains(r.out, `added "tidy": every 2h`) || !strings.Contains(r.out, "rated caution") {
		t.Fatalf("an add the person confirmed: exit %d\n%s", r.code, r.out)
	}
	s, err := policy.LoadSettings(settings)
	if err != nil || len(s.Automations) != 2 || s.Automations[1].Name != "tidy" || !s.Automations[1].Enabled {
		t.Fatalf("after the yes the settings hold %+v, %v", s.Automations, err)
	}
	b.awaitMenu(reg.sender, "tidy in the menu", hasItem("tidy — every 2h"))

	// Run now: through the gate as "automation: tidy".
	out, code = w.client("", "automations", "run-now", "tidy")
	if code != 0 || !strings.HasPrefix(out, "tidy: ok (request ") {
		t.Fatalf("run-now: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(w.home, "Documents", "Inbox")); err != nil {
		t.Errorf("run-now did not run the plan: %v", err)
	}
	awaitHistory(t, w, "automation: tidy", "CREATE_FOLDER")

	// Turning off needs no popup; after the kill switch nothing runs.
	if out, code := w.client("", "automations", "disable", "hello"); code != 0 {
		t.Fatalf("disable: exit %d\n%s", code, out)
	}
	if d.Windows(t, `Airlock — turn on the automation "hello"?`) != nil {
		t.Error("turning off opened a popup")
	}

	// The menu, clicked over D-Bus as any program of the session can:
	// turning all off happens at once; turning hello (an item of its own
	// submenu) on only opens the popup.
	b.click(reg.sender, "Automations are on — turn all off")
	b.awaitMenu(reg.sender, "all paused", hasItem("Automations are off — turn on…"))
	if s, err := policy.LoadSettings(settings); err != nil || s.AutomationEnabled {
		t.Fatalf("after turning all off from the menu: %v, switch %v", err, s.AutomationEnabled)
	}
	b.click(reg.sender, "Off — turn on…")
	on := d.WaitWindow(t, `Airlock — turn on the automation "hello"?`, patience)
	d.Screenshot(t, filepath.Join(artifacts, "automation-enable-confirm.png"))
	d.Key(t, on, "Escape")
	b.awaitMenu(reg.sender, "the refusal", hasItem(`"hello" was not turned on`))
	if s, err := policy.LoadSettings(settings); err != nil || s.Automations[0].Enabled {
		t.Fatalf("after the refusal hello is %+v, %v", s.Automations[0], err)
	}
	b.click(reg.sender, "Automations are off — turn on…")
	on = d.WaitWindow(t, "Airlock — turn automations on?", patience)
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, on, xtest.LastButtonDX, xtest.ButtonDY)
	b.awaitMenu(reg.sender, "all on again", hasItem("Automations are on — turn all off"))
	if out, code := w.client("", "kill"); code != 0 {
		t.Fatalf("kill: exit %d\n%s", code, out)
	}
	out, code = w.client("", "automations", "run-now", "tidy")
	if code != 1 || !strings.Contains(out, "kill switch") {
		t.Fatalf("run-now after the kill: exit %d\n%s", code, out)
	}
	b.awaitMenu(reg.sender, "Run now off", hasItem("Run now (off while the kill switch is on)"))
}

// awaitFile waits until path exists.
func awaitFile(t *testing.T, path string, a *app) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared; the app printed:\n%s", path, a.output())
		}
	}
}

// awaitHistory waits until `airlock history` has a finished record of
// client whose action begins with act, and returns it.
func awaitHistory(t *testing.T, w *world, client, act string) historyRecord {
	t.Helper()
	var out string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var code int
		out, code = w.client("", "history", "--json")
		if code != 0 {
			continue
		}
		var recs []historyRecord
		if err := json.Unmarshal([]byte(out), &recs); err != nil {
			t.Fatalf("history --json: %v\n%s", err, out)
		}
		for _, r := range recs {
			if r.Client == client && strings.HasPrefix(r.Action, act) && r.Status != "pending" {
				return r
			}
		}
	}
	t.Fatalf("the history has no finished %s of %q:\n%s", act, client, out)
	return historyRecord{}
}
