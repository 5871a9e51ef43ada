package automation

import "time"

// SetTicked makes s call f after each look at the clock, with the time it
// looked at. Call it before Run.
func SetTicked(s *Scheduler, f func(now time.Time)) { s.ticked = f }
