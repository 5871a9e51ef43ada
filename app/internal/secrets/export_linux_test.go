//go:build linux

package secrets

// CloseSession ends ks's session with the Secret Service, as a process
// that exits does: the stress test opens a thousand stores.
func CloseSession(ks KeyStore) {
	s := ks.(*secretService)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.svc.CloseSession(s.session)
}
