package action

import (
	"fmt"
	"github.com/airlockhq/airlock/app/internal/ascii"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Datetime layouts. Input may use a space or a T between date and time and
// may give seconds; the canonical form uses a space and gives seconds only
// when they are not zero, so it depends on the time alone.
const (
	layoutMinutes = "2006-01-02 15:04"
	layoutSeconds = "2006-01-02 15:04:05"
)

// canonical validates one argument value against its spec and returns its
// canonical form; for a datetime it also returns the time. On failure it
// returns a message that does not yet name the command.
func canonical(spec ArgSpec, v string, heredoc bool) (string, time.Time, string) {
	if !heredoc {
		if msg := checkLength(spec, v); msg != "" {
			return "", time.Time{}, msg
		}
	}
	switch spec.Kind {
	case KindPath, KindURL, KindApp:
		if v == "" {
			return "", time.Time{}, fmt.Sprintf("%s must not be empty", spec.Name)
		}
	case KindNumber:
		return canonicalNumber(spec, v)
	case KindEnum:
		for _, e := range spec.Enum {
			if ascii.Upper(v) == e {
				return e, time.Time{}, ""
			}
		}
		return "", time.Time{}, fmt.Sprintf("%s must be %s, got %s", spec.Name, orList(spec.Enum), quoteShort(v))
	case KindDatetime:
		t, ok := parseDatetime(v)
		if !ok {
			return "", time.Time{}, fmt.Sprintf(`%s must be a valid date and time like "2024-01-28 14:00", got %s`, spec.Name, quoteShort(v))
		}
		if v[10] == ' ' && (len(v) == len(layoutMinutes) || v[17:] != "00") {
			return v, t, "" // already canonical
		}
		return formatDatetime(t), t, ""
	case KindEmails:
		c, msg := canonicalEmails(spec, v)
		if msg == "" {
			msg = checkLength(spec, c)
		}
		return c, time.Time{}, msg
	}
	return v, time.Time{}, ""
}

// checkLength enforces MaxStringRunes, cheaply for short values.
func checkLength(spec ArgSpec, v string) string {
	if len(v) <= MaxStringRunes {
		return ""
	}
	if n := utf8.RuneCountInString(v); n > MaxStringRunes {
		return fmt.Sprintf("%s is too long (%d characters; the limit is %d)", spec.Name, n, MaxStringRunes)
	}
	return ""
}

func canonicalNumber(spec ArgSpec, v string) (string, time.Time, string) {
	digits := strings.TrimPrefix(v, "-")
	ok := digits != ""
	for i := 0; i < len(digits); i++ {
		ok = ok && '0' <= digits[i] && digits[i] <= '9'
	}
	if !ok {
		return "", time.Time{}, fmt.Sprintf("%s must be a whole number, got %s", spec.Name, quoteShort(v))
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < spec.Min || n > spec.Max {
		return "", time.Time{}, fmt.Sprintf("%s must be between %d and %d, got %s", spec.Name, spec.Min, spec.Max, quoteShort(v))
	}
	return strconv.Itoa(n), time.Time{}, ""
}

// parseDatetime accepts YYYY-MM-DD HH:MM, YYYY-MM-DDTHH:MM and the same with
// :SS. The shape is checked strictly first, as time.Parse alone would also
// take a one-digit hour.
func parseDatetime(v string) (time.Time, bool) {
	if len(v) != len(layoutMinutes) && len(v) != len(layoutSeconds) {
		return time.Time{}, false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch i {
		case 4, 7:
			if c != '-' {
				return time.Time{}, false
			}
		case 10:
			if c != ' ' && c != 'T' {
				return time.Time{}, false
			}
		case 13, 16:
			if c != ':' {
				return time.Time{}, false
			}
		default:
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
		}
	}
	layout := layoutMinutes
	if len(v) == len(layoutSeconds) {
		layout = layoutSeconds
	}
	t, err := time.Parse(layout, v[:10]+" "+v[11:])
	return t, err == nil
}

func formatDatetime(t time.Time) string {
	if t.Second() != 0 {
		return t.Format(layoutSeconds)
	}
	return t.Format(layoutMinutes)
}

// canonicalEmails checks a comma-separated list of bare addresses and
// returns it as "a@x.com, b@y.com".
func canonicalEmails(spec ArgSpec, v string) (string, string) {
	if n := strings.Count(v, ",") + 1; n > MaxListItems {
		return "", fmt.Sprintf("%s has %d addresses (the limit is %d)", spec.Name, n, MaxListItems)
	}
	var b strings.Builder
	b.Grow(len(v) + strings.Count(v, ","))
	for i, item := range strings.Split(v, ",") {
		item = strings.Trim(item, " \t")
		if item == "" {
			if i == 0 && !strings.Contains(v, ",") {
				return "", fmt.Sprintf("%s must not be empty", spec.Name)
			}
			return "", fmt.Sprintf("%s has an empty address in %s", spec.Name, quoteShort(v))
		}
		addr, err := mail.ParseAddress(item)
		if err != nil {
			return "", fmt.Sprintf("%s: %s is not a valid email address", spec.Name, quoteShort(item))
		}
		if addr.Name != "" || addr.Address != item {
			return "", fmt.Sprintf("%s: %s must be a bare address like name@example.com, without a display name or angle brackets",
				spec.Name, quoteShort(item))
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(item)
	}
	return b.String(), ""
}

// orList writes ["ON", "OFF"] as "ON or OFF" and longer lists as
// "one of A, B, C".
func orList(vals []string) string {
	switch len(vals) {
	case 1:
		return vals[0]
	case 2:
		return vals[0] + " or " + vals[1]
	}
	return "one of " + strings.Join(vals, ", ")
}
