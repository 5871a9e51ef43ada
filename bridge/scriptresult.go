package bridge

import (
	"fmt"
	"strings"
)

// scriptValue is an AppleScript result as the helper reads it from its
// Apple event descriptor (helper_darwin.go): text, a list, or a record.
// NSAppleScript's descriptor gives text only for values that coerce to it,
// so a list or a record would come back as "" without this.
type scriptValue struct {
	Text     string        // a value that coerces to text (text, numbers, booleans, dates, …)
	List     []scriptValue // a list's items; with IsList
	IsList   bool
	Fields   []scriptField // a record's fields, in order; with IsRecord
	IsRecord bool
}

// scriptField is one field of a record: its label (a user-defined name, or
// the four-character code of a property such as "pnam") and its value.
type scriptField struct {
	Key   string
	Value scriptValue
}

// formatScriptValue writes v as osascript writes a result (its default,
// human-readable style): a list's items separated by ", ", nested lists
// flattened into it; a record as "label:value" pairs separated by ", ";
// an empty list or record as nothing.
func formatScriptValue(v scriptValue) string {
	var b strings.Builder
	writeScriptValue(&b, v)
	return b.String()
}

func writeScriptValue(b *strings.Builder, v scriptValue) {
	switch {
	case v.IsList:
		first := true
		for _, it := range v.List {
			if it.IsList && len(it.List) == 0 || it.IsRecord && len(it.Fields) == 0 {
				continue
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			writeScriptValue(b, it)
		}
	case v.IsRecord:
		for i, f := range v.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Key)
			b.WriteByte(':')
			writeScriptValue(b, f.Value)
		}
	default:
		b.WriteString(v.Text)
	}
}

// fourCC writes a four-character code (a record's property label) as its
// characters, those that are not printable ASCII as ⟨0xXX⟩.
func fourCC(c uint32) string {
	var b strings.Builder
	for _, ch := range []byte{byte(c >> 24), byte(c >> 16), byte(c >> 8), byte(c)} {
		if ch < 0x20 || ch > 0x7e {
			fmt.Fprintf(&b, "⟨0x%02X⟩", ch)
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}
