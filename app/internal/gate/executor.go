package gate

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// DefaultExecutor builds the executor for this machine: the portable file
// operations inside the sandbox, deletes and overwrites to the user's Trash,
// and desktop actions through the bridge. It lives here, not in main, so
// that only the gate ever holds an executor.
func DefaultExecutor(paths *sanitize.Config) (Executor, error) {
	if paths == nil {
		return nil, fmt.Errorf("building the executor: no sandbox configured")
	}
	dataHome := os.Getenv("XDG_DATA_HOME")
	if dataHome == "" || !filepath.IsAbs(dataHome) {
		dataHome = filepath.Join(paths.Home, ".local", "share")
	}
	return &execute.Executor{Desktop: execute.Unavailable(), Trash: execute.FreedesktopTrash(dataHome), Paths: paths}, nil
}
