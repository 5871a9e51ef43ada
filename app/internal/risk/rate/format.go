package rate

import (
	"fmt"
	"strconv"
	"strings"
)

// formatWarning is fmt.Sprintf(format, args...) for the warnings the analyzers
// write, made without fmt's machinery where it can be: the verbs %s, %v,
// %d and %q of plain strings and ints, and %%, are written with strconv
// into one buffer. Anything else (a flag, a width, another verb, another
// type — which may have a String method —, a missing or an extra
// argument) goes to fmt, so the text is always fmt's.
func formatWarning(format string, args []any) string {
	var stack [128]byte
	b := stack[:0]
	n := 0
	for i := 0; i < len(format); i++ {
		k := strings.IndexByte(format[i:], '%')
		if k < 0 {
			b = append(b, format[i:]...)
			break
		}
		b = append(b, format[i:i+k]...)
		i += k + 1
		if i == len(format) {
			return fmt.Sprintf(format, args...)
		}
		verb := format[i]
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if n == len(args) {
			return fmt.Sprintf(format, args...)
		}
		var ok bool
		b, ok = appendArg(b, verb, args[n])
		if !ok {
			return fmt.Sprintf(format, args...)
		}
		n++
	}
	if n != len(args) {
		return fmt.Sprintf(format, args...)
	}
	return string(b)
}

// appendArg appends arg formatted by verb, as fmt would, and reports
// whether it could (false: leave it to fmt).
func appendArg(b []byte, verb byte, arg any) ([]byte, bool) {
	switch a := arg.(type) {
	case string:
		switch verb {
		case 's', 'v':
			return append(b, a...), true
		case 'q':
			return strconv.AppendQuote(b, a), true
		}
	case int:
		switch verb {
		case 'd', 'v':
			return strconv.AppendInt(b, int64(a), 10), true
		}
	}
	return b, false
}
