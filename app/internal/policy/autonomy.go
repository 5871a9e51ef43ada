package policy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Autonomy is how much the gate may do without asking (seed 003). The zero
// value is AskAll; the default setting is SmartDefault.
type Autonomy int

const (
	AskAll       Autonomy = 0 // Level 0: ask for every action
	SmartDefault Autonomy = 1 // Level 1, the default: ask for dangerous and destructive actions
	FullAuto     Autonomy = 2 // Level 2 (seed 002's "Safety Mode disabled"): ask only for destructive actions
)

var autonomyNames = [...]string{"0 (ask all)", "1 (smart default)", "2 (full auto)"}

// Valid reports whether a is one of the three levels.
func (a Autonomy) Valid() bool { return a >= AskAll && a <= FullAuto }

func (a Autonomy) String() string {
	if !a.Valid() {
		return fmt.Sprintf("autonomy(%d)", int(a))
	}
	return autonomyNames[a]
}

// ParseAutonomy reads a level as a digit ("1"), as String writes it
// ("1 (smart default)") or by its name ("ask all", "smart default",
// "full-auto"), in any case.
func ParseAutonomy(s string) (Autonomy, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for a, name := range autonomyNames {
		if t == name {
			return Autonomy(a), nil
		}
	}
	t = strings.ReplaceAll(t, "-", " ")
	switch t {
	case "ask all":
		return AskAll, nil
	case "smart default", "smart", "default":
		return SmartDefault, nil
	case "full auto":
		return FullAuto, nil
	}
	if n, err := strconv.Atoi(t); err == nil && Autonomy(n).Valid() {
		return Autonomy(n), nil
	}
	return SmartDefault, fmt.Errorf("unknown autonomy level %q (want 0, 1 or 2)", s)
}

// Decision is what the gate does with an action before running it.
type Decision int

const (
	Refuse Decision = iota // never run, never offered for approval
	Ask                    // run only after the person approves
	Auto                   // run without asking
)

func (d Decision) String() string {
	switch d {
	case Auto:
		return "auto"
	case Ask:
		return "ask"
	case Refuse:
		return "refused"
	}
	return fmt.Sprintf("decision(%d)", int(d))
}

// Decide applies seed 003's autonomy matrix. Blocked is refused at every
// level and destructive is asked at every level (the non-negotiables); a
// level outside the scale is refused and an unknown autonomy asks, so a
// corrupt value never runs anything unasked.
func Decide(a Autonomy, risk level.Level) Decision {
	switch {
	case risk < level.Safe || risk >= level.Blocked:
		return Refuse
	case risk == level.Destructive:
		return Ask
	}
	switch a {
	case SmartDefault:
		if risk >= level.Dangerous {
			return Ask
		}
		return Auto
	case FullAuto:
		return Auto
	}
	return Ask
}

// ErrApprovalRequired is wrapped by the error of an action that needs the
// person's approval when no approver is available (seed 001): it does not
// run.
var ErrApprovalRequired = errors.New("approval required")

// NoApprover returns the error for an action of the given risk that must be
// approved while nobody can be asked. It wraps ErrApprovalRequired.
func NoApprover(risk level.Level) error {
	return fmt.Errorf("%w: a %s action needs the person's approval and no approver is available", ErrApprovalRequired, risk)
}
