package execute

import (
	"os"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// EscapeTrashPath is escapeTrashPath, for the tests.
var EscapeTrashPath = escapeTrashPath

// FailSync makes every flush of a written file fail with err until the
// returned function restores it.
func FailSync(err error) (restore func()) {
	old := syncFile
	syncFile = func(*os.File) error { return err }
	return func() { syncFile = old }
}

// gitTestEnv is the environment the tests run git in, outside the sandbox:
// the test's home, no system config, and a fixed author, so that commits
// are made alike in every test.
func gitTestEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ann", "GIT_AUTHOR_EMAIL=ann@example.com", "GIT_COMMITTER_NAME=Ann", "GIT_COMMITTER_EMAIL=ann@example.com"}
}

// GitTestEnv is gitTestEnv, for the tests outside the package.
var GitTestEnv = gitTestEnv

// SetHomeBounds sets the bounds of e's index of the home outside the roots
// (homesecrets.go): entries of one folder and secret files of one folder.
func SetHomeBounds(e *Executor, folderEntries, secrets int) {
	e.home.mu.Lock()
	defer e.home.mu.Unlock()
	e.home.folderLimit, e.home.secrets = folderEntries, secrets
}

// SetStoreBytes bounds the bytes e's check of git's objects inflates in
// one part of a store, or one bundle or pack (gitpack.go).
func SetStoreBytes(e *Executor, n int64) {
	e.stores.mu.Lock()
	defer e.stores.mu.Unlock()
	e.stores.bytes = n
}

// SetMemoryReserve replaces the floor of the memory an unasked action must
// leave available (diskfloor.go) until the returned function restores it.
func SetMemoryReserve(f func(total, availableAtStart uint64) uint64) (restore func()) {
	old := memoryReserveOf
	memoryReserveOf = f
	return func() { memoryReserveOf = old }
}

// SetUnaskedTime replaces the time limit of an action that runs unasked
// (timelimit.go) until the returned function restores it.
func SetUnaskedTime(d time.Duration) (restore func()) {
	old := unaskedTime
	unaskedTime = d
	return func() { unaskedTime = old }
}

// MacUnaskedGrant returns g with what e adds to the grant of an action
// that runs unasked before it starts (hideSecrets), with the places only a
// look finds (lookedPlants) as on a Mac, whatever this system, for the
// tests of the Seatbelt profile made of it.
func (e *Executor) MacUnaskedGrant(g sandbox.Grant) (sandbox.Grant, error) {
	_, err := e.hideSecrets(&g)
	if !lookFirst {
		g.Plants = append(g.Plants, e.lookedPlants()...)
	}
	return g, err
}
