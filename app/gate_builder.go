package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/airlockhq/airlock/bridge"
)

// Files in the data directory.
const (
	settingsFile = policy.SettingsFile
	historyFile  = datadir.HistoryFile
)

// gateOptions say how to build the gate.
type gateOptions struct {
	// prompter asks the person. With broker false and no prompter, the gate
	// has no approver at all (serve --prompter=none).
	prompter approval.Prompter
	// broker makes an approval broker even without a prompter, so that the
	// menu can list pending requests; with a nil prompter the broker
	// refuses every request as approval-required (fails closed).
	broker bool
}

// builtGate is the gate and everything it was built from, ready to serve:
// what `airlock serve` and the menu-bar app share.
type builtGate struct {
	dir          string // the data directory
	settingsPath string
	settings     policy.Settings
	store        *history.Store
	broker       *approval.Broker // nil when the gate has no approver
	grants       *policy.Grants
	events       *gate.Fanout
	gate         *gate.Gate
	srv          *ipc.Server
	box          *sandbox.Box // the OS sandbox of commands and scripts
	roots        []string     // the sandbox roots as the gate uses them (resolved)
	dash         *dashLink    // the menu-bar app's dashboard, once it serves
	undo         *undoConfirm // how an undo asks the person (set before the socket serves)
	// force is what a settings reload changes (settings, roots and box
	// above are as the gate started); reload is how a reload asks the
	// person (set before the socket serves); launch resolves launches for
	// the analyzers of every reloaded environment.
	force  inForce
	reload *settingsConfirm
	launch facts.Resolver

	// settingsMu is held by every change of the settings file (the level,
	// the automations), each a read, a change and a write.
	settingsMu sync.Mutex
	// scheduler runs the automations; book makes the person's changes of
	// them (its Confirm is set before the socket serves). stopScheduler,
	// once runScheduler has started it, stops it and waits for its runs.
	scheduler     *automation.Scheduler
	book          *automation.Book
	stopScheduler func()
}

// buildGate reads the settings, opens the key store and the history, builds
// the gate and binds its socket. On error nothing is left open. Close
// releases it all.
func buildGate(opts gateOptions) (*builtGate, error) {
	started := time.Now()
	dir, err := datadir.Data()
	if err != nil {
		return nil, err
	}
	if err := datadir.Ensure(dir); err != nil {
		return nil, err
	}
	b := &builtGate{dir: dir, settingsPath: filepath.Join(dir, settingsFile), grants: policy.NewGrants(nil), events: &gate.Fanout{},
		dash: &dashLink{}, undo: &undoConfirm{}, reload: &settingsConfirm{}}
	b.settings, err = policy.LoadSettings(b.settingsPath)
	if err != nil {
		return nil, err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("finding the home folder: %w", err)
	}
	// Airlock's own files and this gate's process are in env, for every
	// rule that keeps actions away from them: the analyzers and the file
	// actions.
	env, err := b.settings.Env(home, os.Getpid())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.settingsPath, err)
	}
	paths := env.Paths
	b.roots = paths.Roots
	if err := ownFilesOutsideSandbox(paths, dir); err != nil {
		return nil, fmt.Errorf("%s: sandbox roots: %w", b.settingsPath, err)
	}
	b.box, err = newSandbox(home, paths, dir)
	if err != nil {
		return nil, err
	}
	desk, err := bridge.NewDesktop(bridge.Options{})
	if err != nil {
		return nil, err
	}
	b.launch = gate.Handlers(desk)
	env.Launch = b.launch
	b.force.settings, b.force.roots, b.force.box, b.force.env = b.settings, b.roots, b.box, env
	exec, err := gate.DefaultExecutor(paths, desk, b.box)
	if err != nil {
		return nil, err
	}
	keys, err := secrets.Open()
	if err != nil {
		return nil, fmt.Errorf("opening the key store (the history is encrypted with a key kept there): %w", err)
	}
	b.store, err = history.Open(filepath.Join(dir, historyFile), keys)
	if err != nil {
		return nil, err
	}
	var approver gate.Approver
	if opts.prompter != nil || opts.broker {
		b.broker = approval.NewBroker(opts.prompter, approval.Options{Timeout: b.settings.ApprovalTimeout})
		approver = b.broker
	}
	b.gate = gate.New(gate.Config{
		Env:      env,
		Exec:     exec,
		History:  b.store,
		Approver: approver,
		Grants:   b.grants,
		LLM: func(context.Context) (llm.Config, error) {
			s, _, _ := b.force.current()
			return modelConfig(s, keys)
		},
		Frontmost: frontmost{desk},
		Autonomy:  b.settings.Autonomy,
		Rules:     b.settings.Rules,
		Events:    b.events.Emit,
		Sandbox:   b.box,
		NoScripts: noScripts(),
		KeepRule:  b.keepRule,
	})
	b.startAutomations(env)
	b.srv, err = ipc.Listen(dir, gateHandler{g: b.gate, store: b.store, book: b.book, dash: b.dash, undo: b.undo,
		reload: func(ctx context.Context) (reloadReport, error) { return b.reloadSettings(ctx, b.reload.confirm) }})
	if err != nil {
		b.store.Close()
		return nil, err
	}
	// This gate now holds the lock and serves no one yet: what the history
	// shows as in flight was left so by a gate that stopped (crashed, was
	// killed). Mark it, so the history never shows it as still pending.
	if _, err := b.store.MarkInterrupted(context.Background()); err != nil {
		b.srv.Close()
		b.store.Close()
		return nil, err
	}
	// Likewise the copy-on-write layers of actions such a gate ran and
	// never reviewed: the person's files were never touched by them.
	if n, err := sandbox.RemoveStale(boxSettings(home, paths, dir).Staging, started); err != nil || n > 0 {
		slog.Info("removed the unreviewed changes of actions a stopped gate ran", "layers", n, "error", err)
	}
	return b, nil
}

// Close closes the socket (cancelling what its clients asked for), stops
// the scheduler (withdrawing the automations' runs under way), and then
// closes the history.
func (b *builtGate) Close() error {
	err := b.srv.Close()
	if b.stopScheduler != nil {
		b.stopScheduler()
	}
	return errors.Join(err, b.store.Close())
}

// saveAutonomy persists a level chosen in the menu: it rereads the settings
// file, so that what the person wrote there is kept, and writes it back with
// the new level. A file that no longer reads refuses the change.
func (b *builtGate) saveAutonomy(a policy.Autonomy) error {
	b.settingsMu.Lock()
	defer b.settingsMu.Unlock()
	s, err := policy.LoadSettings(b.settingsPath)
	if err != nil {
		return err
	}
	s.Autonomy = a
	if err := policy.SaveSettings(b.settingsPath, s); err != nil {
		return err
	}
	b.force.mu.Lock()
	b.force.settings.Autonomy = a
	b.force.mu.Unlock()
	return nil
}

// frontmost is the bridge's frontmost app as the context lock reads it.
type frontmost struct{ d *bridge.Desktop }

func (f frontmost) Frontmost(ctx context.Context) (policy.App, error) {
	a, err := f.d.Frontmost(ctx)
	return policy.App(a), err
}

// newSandbox builds the OS sandbox of commands and scripts: the home and
// sandbox roots of the settings, Airlock's own files (the data directory
// with the settings, history and socket; the logs; the program or its
// bundle) hidden, the gate's environment to start from. It probes the
// platform once, here, so that the gate knows before the first action
// whether it can confine.
func newSandbox(home string, paths *sanitize.Config, dataDir string) (*sandbox.Box, error) {
	box, err := sandbox.New(boxSettings(home, paths, dataDir), "")
	if err != nil {
		return nil, fmt.Errorf("the OS sandbox: %w", err)
	}
	box.Available()
	return box, nil
}

// boxSettings are the OS sandbox's settings of a gate with these home,
// sandbox roots and data directory: what newSandbox builds the sandbox
// from, and what airlock doctor and airlock sandbox-profile show.
func boxSettings(home string, paths *sanitize.Config, dataDir string) sandbox.Settings {
	own := []string{dataDir}
	if logs, err := datadir.Logs(); err == nil {
		own = append(own, logs)
	}
	program := ""
	if exe, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		program = programPath(exe)
	}
	// What actions that run unasked change waits in the data folder,
	// which no action sees, until the gate has reviewed it.
	return sandbox.Settings{Home: home, Roots: paths.Roots, Own: own, Program: program, Env: os.Environ(),
		Staging: filepath.Join(dataDir, "changes")}
}

// programPath is what of Airlock an action must not reach: the .app bundle
// the executable lies in, or the executable itself.
func programPath(exe string) string {
	if i := strings.Index(exe, ".app/Contents/MacOS/"); i >= 0 {
		return exe[:i+len(".app")]
	}
	return exe
}

// ownFilesOutsideSandbox refuses sandbox roots that hold Airlock's own files
// (settings, history, socket, logs): a file action the policy lets through
// must never be able to rewrite the settings or trash the history.
func ownFilesOutsideSandbox(paths *sanitize.Config, dataDir string) error {
	own := []string{dataDir}
	if logs, err := datadir.Logs(); err == nil {
		own = append(own, logs)
	}
	for _, p := range own {
		if resolved, err := filepath.EvalSymlinks(p); err == nil {
			p = resolved
		}
		for _, root := range paths.Roots {
			// Case folded, as APFS compares names.
			lp, lr := strings.ToLower(p), strings.ToLower(strings.TrimSuffix(root, "/"))
			if lp == lr || strings.HasPrefix(lp, lr+"/") {
				return fmt.Errorf("the root %s holds Airlock's own files (%s): choose roots that do not", root, p)
			}
		}
	}
	return nil
}

// noScripts says why AppleScript and JXA cannot run on this platform, or ""
// where they can (macOS): the gate then refuses them before it asks.
func noScripts() string {
	if runtime.GOOS == "darwin" {
		return ""
	}
	return "AppleScript and JavaScript for Automation need macOS; on " + runtime.GOOS + " use a command or the Action DSL"
}
