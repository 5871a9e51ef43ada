package bridge

import "testing"

func TestFormatScriptValue(t *testing.T) {
	text := func(s string) scriptValue { return scriptValue{Text: s} }
	list := func(items ...scriptValue) scriptValue { return scriptValue{IsList: true, List: items} }
	record := func(fields ...scriptField) scriptValue { return scriptValue{IsRecord: true, Fields: fields} }
	tests := []struct {
		name string
		v    scriptValue
		want string
	}{
		{"text", text("hello"), "hello"},
		{"empty text", text(""), ""},
		{"a list", list(text("a"), text("1"), text("true")), "a, 1, true"},
		{"an empty list", list(), ""},
		{"nested lists flatten", list(text("1"), list(text("2"), text("3")), list(), text("4")), "1, 2, 3, 4"},
		{"a record", record(scriptField{"name", text("Alice")}, scriptField{"age", text("30")}), "name:Alice, age:30"},
		{"a record with a list", record(scriptField{"pnam", text("Finder")}, scriptField{"ids", list(text("1"), text("2"))}), "pnam:Finder, ids:1, 2"},
		{"a list of records", list(record(scriptField{"a", text("1")}), record(scriptField{"b", text("2")})), "a:1, b:2"},
		{"an empty record", record(), ""},
	}
	for _, tt := range tests {
		if got := formatScriptValue(tt.v); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFourCC(t *testing.T) {
	for c, want := range map[uint32]string{0x706e616d: "pnam", 0x75737266: "usrf", 0x00ff4142: "⟨0x00⟩⟨0xFF⟩AB"} {
		if got := fourCC(c); got != want {
			t.Errorf("fourCC(%#x) = %q, want %q", c, got, want)
		}
	}
}
