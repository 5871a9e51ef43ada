//go:build linux

package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge"
)

// lsDesktop is a Mac's desktop as far as scripts and Launch Services go,
// on Linux: it resolves an application's name as Launch Services does,
// a bundle of that name it has seen anywhere (the home's Applications
// folder, a project of the roots) before the installed one (a bundle
// of higher version wins), the system's own apps at their places, and
// nothing else; it runs a script as the bridge does, confined by what it
// is given (the real sandbox), and records what it started.
type lsDesktop struct {
	execute.Desktop
	home string

	mu      sync.Mutex
	started []string
}

// lsInstalled are the apps of a Mac the look-alikes tell, where macOS keeps them.
var lsInstalled = map[string]string{
	"music": "/System/Applications/Music.app", "finder": "/System/Library/CoreServices/Finder.app",
	"system events": "/System/Library/CoreServices/System Events.app", "safari": "/Applications/Safari.app",
	"textedit": "/System/Applications/TextEdit.app",
}

func (d *lsDesktop) FileHandler(path, app string) (bridge.Handler, error) {
	if path != "" || app == "" {
		return bridge.Handler{}, bridge.ErrNoHandler
	}
	var found string
	_ = filepath.WalkDir(d.home, func(p string, e os.DirEntry, err error) error {
		if err != nil || found != "" {
			return filepath.SkipDir
		}
		if e.IsDir() && strings.EqualFold(e.Name(), app+".app") {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	if found != "" {
		return bridge.Handler{Path: found, Name: app, ID: "com.example." + strings.ToLower(strings.ReplaceAll(app, " ", "")),
			Program: filepath.Join(found, "Contents", "MacOS", app), UserOwned: true}, nil
	}
	if p, ok := lsInstalled[strings.ToLower(app)]; ok {
		return bridge.Handler{Path: p, Name: app, ID: "com.apple." + strings.ToLower(strings.ReplaceAll(app, " ", "")),
			Program: filepath.Join(p, "Contents", "MacOS", app)}, nil
	}
	return bridge.Handler{}, bridge.ErrNoHandler
}

func (d *lsDesktop) run(src string, confine execute.Confine) (string, error) {
	c, done, err := confine(execute.Command{Argv: []string{"/bin/true"}})
	if err != nil {
		return "", err
	}
	defer done()
	if _, _, err := execute.RunArgv(context.Background(), c); err != nil {
		return "", err
	}
	d.mu.Lock()
	d.started = append(d.started, src)
	d.mu.Unlock()
	return "", nil
}

func (d *lsDesktop) RunAppleScript(_ context.Context, src string, _ []string, confine execute.Confine) (string, error) {
	return d.run(src, confine)
}

func (d *lsDesktop) RunJXA(_ context.Context, src string, _ []string, confine execute.Confine) (string, error) {
	return d.run(src, confine)
}

// newAppsRig is newSecretRig's home and sandbox with lsDesktop as the
// executor's desktop.
func newAppsRig(t *testing.T) (*gate.Gate, *lsDesktop, string) {
	t.Helper()
	env, home := sandbox(t)
	data := filepath.Join(home, ".local", "share", "airlock")
	if err := os.MkdirAll(filepath.Join(home, "Documents", "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	box, _ := sandboxedExecutor(t, env, home, data)
	d := &lsDesktop{Desktop: execute.Unavailable(), home: home}
	ex := &execute.Executor{Desktop: d, Trash: execute.FreedesktopTrash(filepath.Join(home, ".local", "share")), Paths: env.Paths, Sandbox: box}
	return gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: policy.SmartDefault, Sandbox: box}), d, home
}

// submitApp submits tc unasked, {{HOME}} in its argv the rig's home, and
// returns its report and error.
func submitApp(t *testing.T, g *gate.Gate, home string, tc red14Argv) (gate.Report, error) {
	t.Helper()
	argv := make([]string, len(tc.Argv))
	for i, a := range tc.Argv {
		argv[i] = strings.ReplaceAll(a, "{{HOME}}", home)
	}
	rep, err := g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: tc.Kind, Plan: tc.Plan, Argv: argv}, nil)
	t.Logf("%s: %s, risk %s, %v", tc.Name, rep.Status, rep.Risk, err)
	return rep, err
}

// TestHoles16ScriptTellsPlantedApp: a script run unasked tells an
// application by its name; Launch Services answers with the bundle of
// that name it knows, one an earlier unasked action made in a project
// of the roots among them (the first submission makes Notes Helper.app
// and a Safari.app there), and the system starts it outside every
// sandbox to receive the events. The analyzers rate a name as the app
// (tell application "Notes Helper" to activate: Safe), so each ran. Each
// is now not started: the name resolves, right before the script
// starts, to no installed application (execute.ErrAppNotInstalled);
// a name nothing answers to is refused too.
func TestHoles16ScriptTellsPlantedApp(t *testing.T) { plantedAppsRefused(t, "holes16") }

// TestHoles16ScriptTellsInstalledApp: scripts that tell Music, the
// Finder, System Events or Safari, installed where macOS keeps them, or
// no application, start unasked as before.
func TestHoles16ScriptTellsInstalledApp(t *testing.T) {
	installedAppsStart(t, "holes16", red14Argv{Name: "Safari, installed", Kind: "applescript", Plan: `tell application "Safari" to get URL of current tab of window 1`})
}

// plantedAppsRefused submits the Plant cases of testdata/dir/apps.json
// unasked, which make app bundles outside the install folders, then each
// Launch case, which names one: none may start one unasked (the person
// may be asked). The gate reports the action's failure as text.
func plantedAppsRefused(t *testing.T, dir string) {
	var cases struct{ Plant, Launch []red14Argv }
	readJSON(t, &cases, dir, "apps.json")
	g, d, home := newAppsRig(t)
	for _, tc := range cases.Plant {
		if rep, err := submitApp(t, g, home, tc); err != nil || rep.Status != "ok" {
			t.Fatalf("%s: %s, %v", tc.Name, rep.Status, err)
		}
	}
	for _, tc := range cases.Launch {
		t.Run(tc.Name, func(t *testing.T) {
			rep, err := submitApp(t, g, home, tc)
			started := d.takeStarted()
			if rep.Status == "pending" || rep.Status == "asked" {
				return // the person is asked: not unasked
			}
			if started || err == nil || !strings.Contains(err.Error(), execute.ErrAppNotInstalled.Error()) {
				t.Errorf("HOLE: started unasked (%s, %v)", rep.Status, err)
			}
		})
	}
}

// installedAppsStart submits the Lookalikes cases of
// testdata/dir/apps.json, and more: each names installed applications
// only, and starts unasked.
func installedAppsStart(t *testing.T, dir string, more ...red14Argv) {
	var cases struct{ Lookalikes []red14Argv }
	readJSON(t, &cases, dir, "apps.json")
	g, d, home := newAppsRig(t)
	for _, tc := range append(cases.Lookalikes, more...) {
		t.Run(tc.Name, func(t *testing.T) {
			_, err := submitApp(t, g, home, tc)
			if started := d.takeStarted(); !started || err != nil {
				t.Errorf("not started: %v", err)
			}
		})
	}
}

// takeStarted reports whether an app was started since it was last
// asked.
func (d *lsDesktop) takeStarted() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	started := len(d.started) > 0
	d.started = nil
	return started
}
