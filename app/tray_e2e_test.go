package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/airlockhq/airlock/bridge/xtest"
)

// The menu-bar app's end-to-end tests run the real binary with no
// subcommand on a private D-Bus session bus that the test owns: a
// gnome-keyring holds the history's key, and the test registers itself as
// the org.kde.StatusNotifierWatcher, so systray registers its item with it.
// The test then reads the menu through com.canonical.dbusmenu (GetLayout),
// clicks items with its Event method, and submits plans through the socket
// with `airlock run`.

// bus is a private session bus with an unlocked keyring and a
// StatusNotifierWatcher.
type bus struct {
	t       *testing.T
	addr    string
	conn    *dbus.Conn
	items   chan registration
	signals chan *dbus.Signal
}

type registration struct {
	sender string
	at     time.Time
}

// watcher is the test's org.kde.StatusNotifierWatcher: it records who
// registers.
type watcher struct{ items chan registration }

func (w *watcher) RegisterStatusNotifierItem(sender dbus.Sender, path string) *dbus.Error {
	w.items <- registration{string(sender), time.Now()}
	return nil
}

// newBus starts dbus-daemon and gnome-keyring for w and adds the bus to w's
// environment. With watch, the test registers its watcher on it.
func newBus(t *testing.T, w *world, watch bool) *bus {
	t.Helper()
	for _, tool := range []string{"dbus-daemon", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (.ci/run installs it): %v", tool, err)
		}
	}
	// A runtime directory of its own keeps this world's keyring apart from
	// any other gnome-keyring-daemon still running.
	runtimeDir, err := os.MkdirTemp("", "airlock-run")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtimeDir) })
	w.env = append(w.env, "XDG_RUNTIME_DIR="+runtimeDir)
	daemon := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	daemon.Env = w.env
	out, err := daemon.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	b := &bus{t: t, addr: strings.TrimSpace(line), items: make(chan registration, 8), signals: make(chan *dbus.Signal, 64)}
	w.env = append(w.env, "DBUS_SESSION_BUS_ADDRESS="+b.addr)
	keyring := exec.Command("gnome-keyring-daemon", "--unlock", "--components=secrets")
	keyring.Env = w.env
	keyring.Stdin = strings.NewReader("e2e-password")
	if out, err := keyring.CombinedOutput(); err != nil {
		t.Fatalf("gnome-keyring-daemon: %v\n%s", err, out)
	}
	b.conn, err = dbus.Connect(b.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.conn.Close() })
	// gnome-keyring creates the login collection after --unlock has
	// returned; the app refuses to start without it.
	login := b.conn.Object("org.freedesktop.secrets", "/org/freedesktop/secrets/collection/login")
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := login.GetProperty("org.freedesktop.Secret.Collection.Locked"); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the keyring's login collection never appeared: %v", err)
		}
	}
	if watch {
		if err := b.conn.Export(&watcher{b.items}, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
			t.Fatal(err)
		}
		if reply, err := b.conn.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
			t.Fatalf("owning org.kde.StatusNotifierWatcher: %v, %v", reply, err)
		}
	}
	if err := b.conn.AddMatchSignal(dbus.WithMatchInterface("com.canonical.dbusmenu"), dbus.WithMatchMember("LayoutUpdated")); err != nil {
		t.Fatal(err)
	}
	b.conn.Signal(b.signals)
	return b
}

// app is a running `airlock` menu-bar app.
type app struct {
	cmd     *exec.Cmd
	started time.Time
	mu      sync.Mutex
	out     bytes.Buffer
}

func (w *world) startApp() *app {
	w.t.Helper()
	a := &app{cmd: exec.Command(w.bin)}
	a.cmd.Env = w.env
	a.cmd.Stdout = &syncWriter{a}
	a.cmd.Stderr = &syncWriter{a}
	a.started = time.Now()
	if err := a.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { a.stop(w.t) })
	return a
}

type syncWriter struct{ a *app }

func (s *syncWriter) Write(p []byte) (int, error) {
	s.a.mu.Lock()
	defer s.a.mu.Unlock()
	return s.a.out.Write(p)
}

func (a *app) output() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.out.String()
}

func (a *app) stop(t *testing.T) {
	if a.cmd.ProcessState != nil {
		return
	}
	a.cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- a.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the app exited with %v after an interrupt:\n%s", err, a.output())
		}
	case <-time.After(10 * time.Second):
		a.cmd.Process.Kill()
		<-done
		t.Errorf("the app did not stop within 10 s of an interrupt:\n%s", a.output())
	}
}

// withoutDisplay is env without DISPLAY and WAYLAND_DISPLAY.
func withoutDisplay(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			out = append(out, kv)
		}
	}
	return out
}

// awaitOutput waits until the app has printed want.
func (a *app) awaitOutput(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(a.output(), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the app never printed %q:\n%s", want, a.output())
		}
	}
}

// registered waits for the app's item to register with the watcher.
func (b *bus) registered(a *app) registration {
	b.t.Helper()
	select {
	case r := <-b.items:
		return r
	case <-time.After(30 * time.Second):
		b.t.Fatalf("the app never registered its menu-bar item; it printed:\n%s", a.output())
	}
	return registration{}
}

// menuItem is one entry of a dbusmenu layout.
type menuItem struct {
	id       int32
	label    string
	enabled  bool
	visible  bool
	checked  bool
	children []menuItem
}

// layout reads the whole menu of the item registered by sender.
func (b *bus) layout(sender string) []menuItem {
	b.t.Helper()
	var rev uint32
	var root struct {
		ID       int32
		Props    map[string]dbus.Variant
		Children []dbus.Variant
	}
	err := b.conn.Object(sender, "/StatusNotifierItem/menu").Call("com.canonical.dbusmenu.GetLayout", 0,
		int32(0), int32(-1), []string{}).Store(&rev, &root)
	if err != nil {
		b.t.Fatalf("GetLayout: %v", err)
	}
	return children(root.Children)
}

func children(vs []dbus.Variant) []menuItem {
	var out []menuItem
	for _, v := range vs {
		f := v.Value().([]any)
		props := f[1].(map[string]dbus.Variant)
		it := menuItem{id: f[0].(int32), enabled: true, visible: true}
		if l, ok := props["label"]; ok {
			it.label = l.Value().(string)
		}
		if e, ok := props["enabled"]; ok {
			it.enabled = e.Value().(bool)
		}
		if e, ok := props["visible"]; ok {
			it.visible = e.Value().(bool)
		}
		if s, ok := props["toggle-state"]; ok {
			it.checked = s.Value().(int32) == 1
		}
		if typ, ok := props["type"]; ok && typ.Value().(string) == "separator" {
			it.label = "---"
		}
		it.children = children(f[2].([]dbus.Variant))
		out = append(out, it)
	}
	return out
}

// find returns the first visible item whose label starts with prefix, at
// any depth.
func find(items []menuItem, prefix string) (menuItem, bool) {
	for _, it := range items {
		if it.visible && strings.HasPrefix(it.label, prefix) {
			return it, true
		}
		if c, ok := find(it.children, prefix); ok {
			return c, true
		}
	}
	return menuItem{}, false
}

func (b *bus) mustFind(sender, prefix string) menuItem {
	b.t.Helper()
	items := b.layout(sender)
	it, ok := find(items, prefix)
	if !ok {
		b.t.Fatalf("the menu has no item %q:\n%s", prefix, dump(items, ""))
	}
	return it
}

func dump(items []menuItem, indent string) string {
	var s strings.Builder
	for _, it := range items {
		fmt.Fprintf(&s, "%s%q enabled=%v visible=%v checked=%v\n", indent, it.label, it.enabled, it.visible, it.checked)
		s.WriteString(dump(it.children, indent+"  "))
	}
	return s.String()
}

// click sends a dbusmenu "clicked" event for the item with this label.
func (b *bus) click(sender, prefix string) {
	b.t.Helper()
	it := b.mustFind(sender, prefix)
	err := b.conn.Object(sender, "/StatusNotifierItem/menu").Call("com.canonical.dbusmenu.Event", 0,
		it.id, "clicked", dbus.MakeVariant(""), uint32(0)).Err
	if err != nil {
		b.t.Fatalf("clicking %q: %v", prefix, err)
	}
}

// awaitMenu waits, one LayoutUpdated signal at a time, until the menu
// satisfies ok. The app pushes the signal; the test only reads after one.
func (b *bus) awaitMenu(sender, what string, ok func(items []menuItem) bool) {
	b.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		items := b.layout(sender)
		if ok(items) {
			return
		}
		select {
		case <-b.signals:
		case <-deadline:
			b.t.Fatalf("the menu never showed %s:\n%s", what, dump(items, ""))
		}
	}
}

func checkedLevel(items []menuItem) string {
	var out []string
	for _, it := range items {
		if it.checked {
			out = append(out, it.label)
		}
	}
	return strings.Join(out, ",")
}

func hasItem(prefix string) func([]menuItem) bool {
	return func(items []menuItem) bool { _, ok := find(items, prefix); return ok }
}

func (b *bus) tooltip(sender string) string {
	b.t.Helper()
	v, err := b.conn.Object(sender, "/StatusNotifierItem").GetProperty("org.kde.StatusNotifierItem.ToolTip")
	if err != nil {
		b.t.Fatalf("reading the tooltip: %v", err)
	}
	f := v.Value().([]any)
	return f[2].(string)
}

func TestAppMenuOverDBus(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, `{"autonomy": 2, "approvalTimeout": "10s"}`)
	w.env = withoutDisplay(w.env) // no popups: nothing can be confirmed
	b := newBus(t, w, true)
	a := w.startApp()
	reg := b.registered(a)
	t.Logf("start to item registered: %v", reg.at.Sub(a.started))
	doc := filepath.Join(w.home, "Documents")

	b.awaitMenu(reg.sender, "Level 2 checked", func(items []menuItem) bool { return checkedLevel(items) == "Level 2 — Full auto" })
	if tip := b.tooltip(reg.sender); tip != "Airlock — Level 2 — Full auto" {
		t.Errorf("tooltip %q", tip)
	}

	// Level 2 (from the settings): a dangerous plan runs without a prompt.
	if out, code := w.client(`WRITE_FILE "~/Documents/level2.txt" "ran unasked"`, "run", "-"); code != 0 {
		t.Fatalf("a dangerous plan at level 2: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(doc, "level2.txt")); err != nil {
		t.Fatalf("level2.txt: %v", err)
	}
	b.awaitMenu(reg.sender, "the write in recent activity", func(items []menuItem) bool {
		recent, ok := find(items, "Recent activity")
		return ok && len(recent.children) > 0 && strings.Contains(recent.children[0].label, "ok · Write") &&
			strings.Contains(recent.children[0].label, "level2.txt")
	})

	// Automate… with no popup to type the request into asks nothing and
	// logs why.
	b.awaitMenu(reg.sender, "Automate… enabled", func(items []menuItem) bool {
		it, ok := find(items, "Automate…")
		return ok && it.enabled && it.label == "Automate…"
	})
	b.click(reg.sender, "Automate…")
	a.awaitOutput(t, "automating: asking for the request: popups are unavailable")

	// Level 0 from the menu lowers trust and needs no confirmation: now
	// even a safe plan needs approval, and with no popup wired to ask, it
	// is refused as approval-required.
	b.click(reg.sender, "Level 0")
	b.awaitMenu(reg.sender, "Level 0 checked", func(items []menuItem) bool { return checkedLevel(items) == "Level 0 — Ask for everything" })
	if s, err := os.ReadFile(filepath.Join(w.home, "airlock-data", "settings.json")); err != nil || !strings.Contains(string(s), `"autonomy": 0`) {
		t.Errorf("settings after choosing Level 0: %v\n%s", err, s)
	}
	if out, code := w.client(`CREATE_FOLDER "~/Documents/level0"`, "run", "-"); code != 1 || !strings.Contains(out, "approval required") {
		t.Fatalf("a caution plan at level 0: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(doc, "level0")); !os.IsNotExist(err) {
		t.Fatalf("level0 was created: %v", err)
	}

	// Level 1 and Level 2 raise trust: they need a confirmation, and with
	// no popup to give one the level stays where it is.
	for _, lvl := range []string{"Level 1", "Level 2"} {
		b.click(reg.sender, lvl)
		b.awaitMenu(reg.sender, "the refusal of "+lvl, hasItem("Still at Level 0 — Ask for everything: "+lvl))
		if out, code := w.client(`CREATE_FOLDER "~/Documents/unconfirmed"`, "run", "-"); code != 1 || !strings.Contains(out, "approval required") {
			t.Fatalf("a caution plan after an unconfirmed %s: exit %d\n%s", lvl, code, out)
		}
		if s, _ := os.ReadFile(filepath.Join(w.home, "airlock-data", "settings.json")); !strings.Contains(string(s), `"autonomy": 0`) {
			t.Errorf("settings after an unconfirmed %s:\n%s", lvl, s)
		}
	}

	// Kill from the menu; Resume raises trust, so without a popup to
	// confirm it the kill switch stays on.
	b.click(reg.sender, "Kill switch")
	b.awaitMenu(reg.sender, "Resume", hasItem("Resume"))
	if out, _ := w.client("", "status"); !strings.Contains(out, "KILLED") {
		t.Errorf("status after the menu's kill:\n%s", out)
	}
	if tip := b.tooltip(reg.sender); !strings.Contains(tip, "KILLED") {
		t.Errorf("tooltip while killed: %q", tip)
	}
	if it, ok := find(b.layout(reg.sender), "Automate…"); !ok || it.label != "Automate… (off while the kill switch is on)" || it.enabled {
		t.Errorf("Automate… while killed: %+v", it)
	}
	b.click(reg.sender, "Resume")
	b.awaitMenu(reg.sender, "the refusal to resume", hasItem("Still stopped: Resume was not confirmed"))
	if out, code := w.client(`NOTIFY "a" "b"`, "run", "-"); code != 1 || !strings.Contains(out, "killed") {
		t.Fatalf("a plan after an unconfirmed Resume: exit %d\n%s", code, out)
	}
	// The kill switch over the socket while it is on already.
	if out, code := w.client("", "kill"); code != 0 {
		t.Fatalf("airlock kill: exit %d\n%s", code, out)
	}

	// Open history with no window to show it in shows nothing and writes
	// no report.
	b.click(reg.sender, "Open history")
	a.awaitOutput(t, "opening the history: no window can show it here")
	if _, err := os.Stat(filepath.Join(w.home, "airlock-data", "history.html")); !os.IsNotExist(err) {
		t.Errorf("a history report on disk: %v", err)
	}

	// Quit from the menu ends the app cleanly.
	b.click(reg.sender, "Quit")
	done := make(chan error, 1)
	go func() { done <- a.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("quit: %v\n%s", err, a.output())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the app did not quit:\n%s", a.output())
	}
	// AIRLOCK_LOG=stderr: the log is on the app's stderr. No log file.
	logText := a.output()
	if _, err := os.Stat(filepath.Join(w.home, "airlock-data", "logs")); !os.IsNotExist(err) {
		t.Errorf("the app made a log directory of its own: %v", err)
	}
	for _, want := range []string{"menu ready", "autonomy set to 0", "gate: killed", "needs the person's yes", "airlock: stopped"} {
		if !strings.Contains(string(logText), want) {
			t.Errorf("the log lacks %q:\n%s", want, logText)
		}
	}
}

// With no StatusNotifierWatcher on the bus (no tray host), systray logs that
// it failed to register and the app keeps serving.
func TestAppWithoutATrayHost(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, "")
	newBus(t, w, false)
	a := w.startApp()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(a.output(), "failed to register") {
		if time.Now().After(deadline) {
			t.Fatalf("no word about the missing tray host:\n%s", a.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if out, code := w.client("", "status"); code != 0 || !strings.Contains(out, "accepting work") {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
}

// TestAppFigures measures, on this machine's Linux build, what the issue
// asks to report: start to menu ready, resident memory and CPU while idle.
// It logs the figures and asserts nothing about them. It runs only with
// AIRLOCK_FIGURES=1 (it idles for AIRLOCK_FIGURES_IDLE, default 60s).
func TestAppFigures(t *testing.T) {
	if os.Getenv("AIRLOCK_FIGURES") != "1" {
		t.Skip("set AIRLOCK_FIGURES=1 to measure start time, memory and idle CPU")
	}
	idle := 60 * time.Second
	if s := os.Getenv("AIRLOCK_FIGURES_IDLE"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		idle = d
	}
	// With a display and zenity the app runs as on a desktop: popups
	// available, and so a spare approval popup waiting.
	var d *xtest.Display
	if hasTools("zenity", "Xvfb", "xdotool") {
		d = xtest.Start(t)
	}
	var registered, ready []time.Duration
	for i := range 5 {
		w := newWorld(t, "")
		b := newBus(t, w, true)
		if d != nil {
			w.env = d.Env(w.env)
		}
		a := w.startApp()
		reg := b.registered(a)
		b.layout(reg.sender) // returns once the menu is built
		registered = append(registered, reg.at.Sub(a.started))
		ready = append(ready, time.Since(a.started))
		if i < 4 {
			a.stop(t)
			continue
		}
		pid := a.cmd.Process.Pid
		time.Sleep(2 * time.Second) // let start-up settle
		before := cpuTicks(t, pid)
		var spareTicks int64
		if s := childProcesses(t, pid, "zenity"); len(s) == 1 {
			spareTicks = cpuTicks(t, s[0])
		}
		time.Sleep(idle)
		after := cpuTicks(t, pid)
		t.Logf("idle CPU over %v: %d clock ticks (1 tick = 10 ms at USER_HZ 100)", idle, after-before)
		t.Logf("RSS after idling: %s", rss(t, pid))
		if d == nil {
			t.Log("no display: no spare popup")
			continue
		}
		spares := childProcesses(t, pid, "zenity")
		if len(spares) != 1 {
			t.Errorf("%d zenity processes beside the app, want the one spare popup", len(spares))
			continue
		}
		t.Logf("spare popup: %d clock ticks to start, %d over the idle %v; %s",
			spareTicks, cpuTicks(t, spares[0])-spareTicks, idle, memory(t, spares[0]))
	}
	t.Logf("start to item registered, 5 starts: %v (median %v)", registered, median(registered))
	t.Logf("start to menu readable (GetLayout answered), 5 starts: %v (median %v)", ready, median(ready))
}

// hasTools reports whether every tool is installed.
func hasTools(tools ...string) bool {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			return false
		}
	}
	return true
}

// childProcesses lists the pids of pid's child processes named comm.
func childProcesses(t *testing.T, pid int, comm string) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // gone meanwhile
		}
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || end < open || string(b[open+1:end]) != comm {
			continue
		}
		rest := strings.Fields(string(b[end+2:]))
		if ppid, _ := strconv.Atoi(rest[1]); ppid == pid {
			n, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			pids = append(pids, n)
		}
	}
	return pids
}

// memory is pid's resident, proportional and private memory, from
// /proc/PID/smaps_rollup.
func memory(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && slices.Contains([]string{"Rss", "Pss", "Private_Dirty"}, k) {
			parts = append(parts, k+" "+strings.Join(strings.Fields(v), " "))
		}
	}
	return strings.Join(parts, ", ")
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// cpuTicks is utime + stime of pid, from /proc/PID/stat.
func cpuTicks(t *testing.T, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// Fields after the command name (which is in parentheses and may
	// hold spaces): state is field 3, utime 14, stime 15.
	rest := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	u, _ := strconv.ParseInt(rest[11], 10, 64)
	s, _ := strconv.ParseInt(rest[12], 10, 64)
	return u + s
}

func rss(t *testing.T, pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:"))
		}
	}
	return "unknown"
}
