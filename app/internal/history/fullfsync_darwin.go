//go:build darwin

package history

import "github.com/mattn/go-sqlite3"

// On macOS fsync does not flush the drive's cache; F_FULLFSYNC does.
// SQLite uses it for commits and checkpoints once these are on.
func init() {
	connectHook = func(c *sqlite3.SQLiteConn) error {
		_, err := c.Exec("PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON;", nil)
		return err
	}
}
