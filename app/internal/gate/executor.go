package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/bridge"
)

// The bridge's Desktop is the executor's: the method sets match.
var _ execute.Desktop = (*bridge.Desktop)(nil)

// DefaultExecutor builds the executor for this machine: the portable file
// operations inside the sandbox, deletes and overwrites to the user's Trash,
// desktop actions through desk (nil: bridge.NewDesktop with its defaults),
// and commands and scripts confined by box (nil: commands unconfined and
// scripts refused, which only tests want). It lives here, not in main, so
// that only the gate ever holds an executor.
//
// The Trash is ~/.Trash on macOS (execute.HomeTrash) and the freedesktop.org
// home trash elsewhere (execute.FreedesktopTrash, in $XDG_DATA_HOME or
// ~/.local/share); both take an item by name in its open folder, never by
// a path something could redirect, and refuse an item on another disk
// rather than copy it.
func DefaultExecutor(paths *sanitize.Config, desk *bridge.Desktop, box *sandbox.Box) (Executor, error) {
	if paths == nil {
		return nil, fmt.Errorf("building the executor: no sandbox configured")
	}
	if desk == nil {
		d, err := bridge.NewDesktop(bridge.Options{})
		if err != nil {
			return nil, fmt.Errorf("building the executor: %w", err)
		}
		desk = d
	}
	var trash execute.Trasher
	if runtime.GOOS == "darwin" {
		trash = execute.HomeTrash(filepath.Join(paths.Home, ".Trash"))
	} else {
		dataHome := os.Getenv("XDG_DATA_HOME")
		if dataHome == "" || !filepath.IsAbs(dataHome) {
			dataHome = filepath.Join(paths.Home, ".local", "share")
		}
		trash = execute.FreedesktopTrash(dataHome)
	}
	return &execute.Executor{Desktop: desk, Trash: trash, Paths: paths, Sandbox: box}, nil
}

// Handlers resolves launches for the analyzers (risk.Env.Launch) through
// desk, as the executor resolves them right before it launches: so a
// verdict is of the program that would start.
func Handlers(desk *bridge.Desktop) facts.Resolver { return execute.Handlers(desk) }
