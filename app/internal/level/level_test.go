package level_test

import (
	"encoding/json"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

func TestParseNames(t *testing.T) {
	tests := []struct {
		in   string
		want level.Level
	}{
		{"safe", level.Safe}, {"none", level.Safe},
		{"caution", level.Caution}, {"LOW", level.Caution}, {"medium", level.Caution},
		{"Dangerous", level.Dangerous}, {"high", level.Dangerous},
		{"destructive", level.Destructive}, {"critical", level.Destructive},
		{"blocked", level.Blocked},
	}
	for _, tt := range tests {
		got, err := level.Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := level.Parse("severe"); err == nil {
		t.Error(`Parse("severe") succeeded; want an error`)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for l := level.Safe; l <= level.Blocked; l++ {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var back level.Level
		if err := json.Unmarshal(b, &back); err != nil || back != l {
			t.Errorf("round trip of %v via %s = %v, %v", l, b, back, err)
		}
	}
	if _, err := json.Marshal(level.Level(9)); err == nil {
		t.Error("marshalling an invalid level succeeded")
	}
}

func TestOrder(t *testing.T) {
	if !(level.Safe < level.Caution && level.Caution < level.Dangerous &&
		level.Dangerous < level.Destructive && level.Destructive < level.Blocked) {
		t.Fatal("levels are out of order")
	}
	if level.Max(level.Caution, level.Destructive) != level.Destructive {
		t.Fatal("Max picked the lower level")
	}
}
