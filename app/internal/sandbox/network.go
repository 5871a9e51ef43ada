package sandbox

import "github.com/airlockhq/airlock/app/internal/sandbox/launcher"

// Network is what an action may reach over the network (the launcher's
// Network says how each platform holds it, and what it leaves open).
type Network = launcher.Network

// The networks an action may be granted.
const (
	NetNone     = launcher.NetNone
	NetInternet = launcher.NetInternet
	NetHost     = launcher.NetHost
)
