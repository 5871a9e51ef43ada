//go:build !linux

package bridge

import (
	"context"
	"errors"
)

// Warm is, on Linux, a process started ahead of the command it stands in
// for (warm_linux.go). Elsewhere there are none: StartWarm fails, and a
// Command's Warm is never used.
type Warm struct{}

var errNoWarm = errors.New("warm processes are Linux only")

// StartWarm fails: warm processes are Linux only.
func StartWarm(Command, []string) (*Warm, error) { return nil, errNoWarm }

// Ready fails: there is no warm process.
func (*Warm) Ready(context.Context) error { return errNoWarm }

// Pid is 0: there is no warm process.
func (*Warm) Pid() int { return 0 }

// Claimed is false: there is no warm process.
func (*Warm) Claimed() bool { return false }

// Gone is true: there is no warm process.
func (*Warm) Gone() bool { return true }

// Close does nothing: there is no warm process.
func (*Warm) Close() {}

func (*Warm) claim(Command, string, int) (*Proc, error) { return nil, errNoWarm }

// Spawner is, on Linux, a process that starts warm processes in this one's
// place (spawner_linux.go). Elsewhere there is none: StartSpawner fails.
type Spawner struct{}

// StartSpawner fails: spawners are Linux only.
func StartSpawner([]string, []string) (*Spawner, error) { return nil, errNoWarm }

// Pid is 0: there is no spawner.
func (*Spawner) Pid() int { return 0 }

// Close does nothing: there is no spawner.
func (*Spawner) Close() {}

// StartWarm fails: warm processes are Linux only.
func (*Spawner) StartWarm(Command, []string) (*Warm, error) { return nil, errNoWarm }
