package shell

import "github.com/airlockhq/airlock/app/internal/risk/rate"

// The shared core's names, as the rest of this package reads them.
type (
	Verdict = rate.Verdict
	Reason  = rate.Reason
	Span    = rate.Span
	Env     = rate.Env
)
