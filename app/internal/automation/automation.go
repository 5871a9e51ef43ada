package automation

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Bounds of an automation.
const (
	MaxName        = 40 // characters
	MaxAutomations = 50
	MaxCooldown    = 24 * time.Hour
	// DefaultCooldown is the cooldown of an automation that names none
	// (or of an "every" schedule, its interval if that is shorter).
	DefaultCooldown = time.Hour
	// MaxAskBytes bounds a request in words, as the gate's model client
	// does.
	MaxAskBytes = llm.MaxRequestBytes
	// MaxRunBytes bounds a fixed plan: it lives in settings.json, which
	// is at most 64 KiB.
	MaxRunBytes = 16 << 10
)

// ClientPrefix begins the client name every run of an automation is made
// under ("automation: NAME"): the approval popups, the history and the
// menu show it. No socket client may take a name that begins with it.
const ClientPrefix = "automation: "

// Automation is one of the person's scheduled requests: either a request
// in words (Ask), which the gate's model turns into a plan at each run, or a
// fixed Action DSL plan (Run). Each run goes through the gate exactly as the
// person's own request would: parsed, sanitised, rated and decided afresh,
// with the approvals, the kill switch and the history as usual.
type Automation struct {
	Name     string
	Ask      string // a request in words; or
	Run      string // a fixed plan in the Action DSL
	Schedule Schedule
	// Cooldown is the least time between two starts of a run; a due time
	// that comes sooner is skipped, and so is "Run now". A schedule missed
	// while the computer slept runs at wake only within it.
	Cooldown time.Duration
	Enabled  bool
}

// Kind is "ask" for a request in words, "run" for a fixed plan.
func (a Automation) Kind() string {
	if a.Run != "" {
		return KindRun
	}
	return KindAsk
}

// The kinds of automation.
const (
	KindAsk = "ask"
	KindRun = "run"
)

// Text is the request in words or the plan.
func (a Automation) Text() string {
	if a.Run != "" {
		return a.Run
	}
	return a.Ask
}

// Client is the name the automation's runs are made under.
func (a Automation) Client() string { return ClientPrefix + a.Name }

// Fingerprint identifies the automation's content: its name, kind and text.
// Remembered grants made for one of its runs belong to it (the gate's
// identity for its runs is built from it), so that an automation changed
// in any way never inherits them.
func (a Automation) Fingerprint() string {
	h := sha256.Sum256([]byte(strings.ToLower(a.Name) + "\x00" + a.Kind() + "\x00" + a.Text()))
	return hex.EncodeToString(h[:12])
}

// DefaultCooldownFor is the cooldown an automation with schedule s gets
// when it names none: DefaultCooldown, or the interval of an "every"
// schedule if that is shorter.
func DefaultCooldownFor(s Schedule) time.Duration {
	if iv := s.Interval(); iv > 0 && iv < DefaultCooldown {
		return iv
	}
	return DefaultCooldown
}

// FieldError is what is wrong with one field of an automation or a list of
// them. Field is the path below the list ("[2].schedule"; "" for the list
// as a whole), Value the value as written and escaped for display ("" if
// none), and Offset, when decoding, the byte offset of the value in the
// decoded text (-1 when not known).
type FieldError struct {
	Field  string
	Value  string
	Reason string
	Offset int
}

func (e *FieldError) Error() string {
	var b strings.Builder
	if e.Field != "" {
		b.WriteString(strings.TrimPrefix(e.Field, "."))
		if e.Value != "" {
			b.WriteString(" is " + e.Value)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Validate checks every field of a, as settings.json and `airlock
// automations add` take them. A plan must parse (its errors are given with
// their lines); whether it is blocked depends on the settings it runs
// under, and is for Assess.
func (a Automation) Validate() error {
	bad := func(field, value, reason string) error {
		return &FieldError{Field: "." + field, Value: quoteDisplay(value), Reason: reason, Offset: -1}
	}
	if err := CheckName(a.Name); err != nil {
		return bad("name", a.Name, err.Error())
	}
	switch {
	case a.Ask == "" && a.Run == "":
		return &FieldError{Reason: `needs "ask" (a request in words) or "run" (a plan in the Action DSL)`, Offset: -1}
	case a.Ask != "" && a.Run != "":
		return &FieldError{Reason: `has both "ask" and "run": an automation is a request in words or a plan, not both`, Offset: -1}
	case a.Ask != "":
		if err := checkAsk(a.Ask); err != nil {
			return bad("ask", a.Ask, err.Error())
		}
	default:
		if err := checkPlan(a.Run); err != nil {
			return bad("run", "", err.Error())
		}
	}
	if !a.Schedule.Valid() {
		return &FieldError{Field: ".schedule", Reason: "is missing: " + scheduleHelp, Offset: -1}
	}
	if err := CheckCooldown(a.Cooldown, a.Schedule); err != nil {
		return bad("cooldown", formatDuration(a.Cooldown), err.Error())
	}
	return nil
}

// CheckName checks an automation's name: 1 to MaxName letters, digits,
// spaces and - _ . ' characters, beginning and ending with a letter or
// digit. Names are compared without regard to case.
func CheckName(name string) error {
	if name == "" {
		return errors.New("is empty")
	}
	if !utf8.ValidString(name) {
		return errors.New("is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(name); n > MaxName {
		return fmt.Errorf("is longer than %d characters", MaxName)
	}
	for _, r := range name {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r):
		case r == ' ', r == '-', r == '_', r == '.', r == '\'':
		default:
			return fmt.Errorf("has the character %q: use letters, digits, spaces and - _ . '", r)
		}
	}
	first, _ := utf8.DecodeRuneInString(name)
	last, _ := utf8.DecodeLastRuneInString(name)
	for _, r := range []rune{first, last} {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return errors.New("must begin and end with a letter or digit")
		}
	}
	if strings.Contains(name, "  ") {
		return errors.New("has two spaces in a row")
	}
	return nil
}

func checkAsk(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("is blank: say what should be done")
	}
	if len(s) > MaxAskBytes {
		return fmt.Errorf("is longer than %d bytes", MaxAskBytes)
	}
	if !utf8.ValidString(s) {
		return errors.New("is not valid UTF-8")
	}
	for _, r := range s {
		if (unicode.IsControl(r) && r != '\n' && r != '\t') || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("has an invisible or control character (%U)", r)
		}
	}
	return nil
}

// checkPlan parses a plan; the error lists its problems with their lines.
func checkPlan(src string) error {
	if strings.TrimSpace(src) == "" {
		return errors.New("is empty")
	}
	if len(src) > MaxRunBytes {
		return fmt.Errorf("is longer than %d bytes (settings.json holds it)", MaxRunBytes)
	}
	p, err := action.Parse(src)
	if err != nil {
		var es action.Errors
		if errors.As(err, &es) {
			return fmt.Errorf("does not parse: %s", strings.Join(lineErrors(es), "; "))
		}
		return fmt.Errorf("does not parse: %v", err)
	}
	if len(p.Actions) == 0 {
		return errors.New("has no actions: only comments or blank lines")
	}
	return nil
}

func lineErrors(es action.Errors) []string {
	out := make([]string, len(es))
	for i, e := range es {
		if e.Line > 0 {
			out[i] = fmt.Sprintf("plan line %d: %s", e.Line, e.Msg)
		} else {
			out[i] = e.Msg
		}
	}
	return out
}

// CheckCooldown checks a cooldown for schedule s: from 0 to MaxCooldown,
// and for an "every" schedule no longer than its interval (a longer one
// would skip every other run).
func CheckCooldown(d time.Duration, s Schedule) error {
	switch {
	case d < 0:
		return errors.New("is negative")
	case d > MaxCooldown:
		return fmt.Errorf("is longer than %s", formatDuration(MaxCooldown))
	case s.Interval() > 0 && d > s.Interval():
		return fmt.Errorf("is longer than the interval of %q: it would skip runs (make it %s or less)", s.String(), formatDuration(s.Interval()))
	}
	return nil
}

// ValidateList checks every automation of a list and that no two share a
// name (compared without regard to case). Errors are *FieldError, their
// Field beginning with the index: "[2].name".
func ValidateList(list []Automation) error {
	if len(list) > MaxAutomations {
		return &FieldError{Reason: fmt.Sprintf("has %d automations: at most %d", len(list), MaxAutomations), Offset: -1}
	}
	seen := map[string]int{}
	for i, a := range list {
		if err := a.Validate(); err != nil {
			var fe *FieldError
			if errors.As(err, &fe) {
				fe.Field = fmt.Sprintf("[%d]%s", i, fe.Field)
			}
			return err
		}
		key := strings.ToLower(a.Name)
		if j, dup := seen[key]; dup {
			return &FieldError{Field: fmt.Sprintf("[%d].name", i), Value: quoteDisplay(a.Name),
				Reason: fmt.Sprintf("repeats the name of automation [%d]", j), Offset: -1}
		}
		seen[key] = i
	}
	return nil
}

// Find returns the index of the automation called name in list (compared
// without regard to case), or -1.
func Find(list []Automation, name string) int {
	for i, a := range list {
		if strings.EqualFold(a.Name, name) {
			return i
		}
	}
	return -1
}

// quoteDisplay is s as an error message shows a value: in JSON's quotes,
// with invisible and control characters escaped (sanitize.Display).
func quoteDisplay(s string) string {
	if s == "" {
		return ""
	}
	b, _ := json.Marshal(s)
	return sanitize.Display(string(b))
}
