package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/airlockhq/airlock/app/internal/execute"
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
// The Trash is NSFileManager's on macOS (through desk, which reports where
// the item went) and the freedesktop.org home trash elsewhere
// (execute.FreedesktopTrash, in $XDG_DATA_HOME or ~/.local/share), which
// refuses an item on another disk rather than copy it.
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
	var trash execute.Trasher = desktopTrash{desk}
	if runtime.GOOS != "darwin" {
		dataHome := os.Getenv("XDG_DATA_HOME")
		if dataHome == "" || !filepath.IsAbs(dataHome) {
			dataHome = filepath.Join(paths.Home, ".local", "share")
		}
		trash = execute.FreedesktopTrash(dataHome)
	}
	return &execute.Executor{Desktop: desk, Trash: trash, Paths: paths, Sandbox: box}, nil
}

// desktopTrash is the bridge's Trash as an execute.Trasher.
type desktopTrash struct{ d *bridge.Desktop }

func (t desktopTrash) Trash(ctx context.Context, path string) (string, error) {
	return t.d.MoveToTrash(ctx, path)
}
