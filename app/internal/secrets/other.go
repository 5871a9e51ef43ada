//go:build !darwin && !linux

package secrets

import "runtime"

// Open returns an error wrapping ErrUnavailable: Airlock knows no key store
// on this system, and it keeps keys nowhere else.
func Open() (KeyStore, error) {
	return nil, unavailable("no key store on %s", runtime.GOOS)
}
