package dashboard

// SecurityHeaders are the headers every response carries, for the browser
// test that checks what they block.
var SecurityHeaders = securityHeaders

// CodesHeld is how many unused codes asker a has.
func (s *Server) CodesHeld(a Asker) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.codes[a-1])
}
