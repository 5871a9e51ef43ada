package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// DefaultExecutor builds the executor for this machine: the portable file
// operations inside the sandbox, deletes and overwrites to the user's Trash,
// and desktop actions through the bridge. It lives here, not in main, so
// that only the gate ever holds an executor.
//
// Until the bridge lands, desktop actions answer "not available on this
// platform", and so does the Trash on macOS (NSWorkspace's recycle comes
// with the bridge): deletes and overwrites there fail rather than unlink.
func DefaultExecutor(paths *sanitize.Config) (Executor, error) {
	if paths == nil {
		return nil, fmt.Errorf("building the executor: no sandbox configured")
	}
	var trash execute.Trasher = noTrash{}
	if runtime.GOOS != "darwin" {
		dataHome := os.Getenv("XDG_DATA_HOME")
		if dataHome == "" || !filepath.IsAbs(dataHome) {
			dataHome = filepath.Join(paths.Home, ".local", "share")
		}
		trash = execute.FreedesktopTrash(dataHome)
	}
	return &execute.Executor{Desktop: execute.Unavailable(), Trash: trash, Paths: paths}, nil
}

// noTrash refuses: without a Trash, nothing is deleted or overwritten.
type noTrash struct{}

func (noTrash) Trash(_ context.Context, path string) (string, error) {
	return "", fmt.Errorf("moving %s to the Trash: %w", path, execute.ErrUnavailable)
}
