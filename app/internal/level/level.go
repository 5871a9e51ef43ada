// Package level is Airlock's one risk scale, shared by the command registry,
// the analyzers and (later) the policy. It holds no judgement of its own.
//
// The scale is seed 003's, with seed 000's names mapped onto it as DESIGN.md
// says: none → Safe, low and medium → Caution, high → Dangerous, critical →
// Destructive. Blocked sits above the scale: the sanitiser refuses the
// action and it is never offered for approval.
package level

import (
	"fmt"
	"strings"
)

// Level is a risk level. The zero value is Safe; the order is meaningful, so
// levels compare with < and >.
type Level int

const (
	Safe        Level = iota // read-only, no side effects
	Caution                  // side effects, reversible
	Dangerous                // significant, hard to reverse
	Destructive              // irreversible, high impact
	Blocked                  // refused outright; never offered for approval
)

var names = [...]string{"safe", "caution", "dangerous", "destructive", "blocked"}

func (l Level) String() string {
	if l < Safe || l > Blocked {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return names[l]
}

// Parse reads a level by its name ("dangerous") or by seed 000's name
// ("high"), in any case.
func Parse(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "safe", "none":
		return Safe, nil
	case "caution", "low", "medium":
		return Caution, nil
	case "dangerous", "high":
		return Dangerous, nil
	case "destructive", "critical":
		return Destructive, nil
	case "blocked":
		return Blocked, nil
	}
	return Safe, fmt.Errorf("unknown risk level %q (want safe, caution, dangerous, destructive or blocked)", s)
}

// MarshalText writes the level's name, so levels read well in JSON.
func (l Level) MarshalText() ([]byte, error) {
	if l < Safe || l > Blocked {
		return nil, fmt.Errorf("invalid risk level %d", int(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText accepts what Parse accepts.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Max returns the higher of a and b.
func Max(a, b Level) Level {
	if a > b {
		return a
	}
	return b
}
