package history

import (
	"database/sql"

	"github.com/mattn/go-sqlite3"
)

// driverName is go-sqlite3 registered with the platform's connect hook.
const driverName = "airlock-history-sqlite3"

// connectHook runs on every new connection; fullfsync_darwin.go sets it.
var connectHook func(*sqlite3.SQLiteConn) error

func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		if connectHook == nil {
			return nil
		}
		return connectHook(c)
	}})
}
