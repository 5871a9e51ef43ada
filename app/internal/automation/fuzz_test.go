package automation_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
)

// FuzzParseSchedule checks that the schedule parser, which reads text a
// program may have written (settings.json, `airlock automations add`),
// never panics; that what it accepts is valid and reads back the same from
// its canonical form; and that its next time is after, and at most eight
// days after, any time.
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{
		"weekdays 09:00", "daily 18:30", "mon,wed,fri 08:15", "fri-mon 7:05", "every 2h", "every 30m",
		"every 1h30m", "at login", "weekends 23:59", "every 5m", "every 24h", "sunday,monday 00:00",
		"mon,,fri 09:00", "every -1h", "daily 24:00", "at", "every 1e9h", "thu-thu 12:00",
	} {
		f.Add(s, int64(1741600000))
	}
	loc := time.FixedZone("test", 3600)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		s, err := automation.ParseSchedule(text)
		if err != nil {
			if s.Valid() {
				t.Fatalf("%q: an error and a valid schedule %v", text, s)
			}
			return
		}
		if !s.Valid() {
			t.Fatalf("%q: accepted but not valid", text)
		}
		again, err := automation.ParseSchedule(s.String())
		if err != nil || again != s {
			t.Fatalf("%q: canonical %q reads back as %v, %v", text, s, again, err)
		}
		if s.AtLogin() {
			return
		}
		// Any time from 1970 to 2100.
		unix = unix % (130 * 365 * 24 * 3600)
		if unix < 0 {
			unix = -unix
		}
		for _, l := range []*time.Location{loc, berlin} {
			tm := time.Unix(unix, 0).In(l)
			next := s.Next(tm)
			if !next.After(tm) || next.Sub(tm) > 8*24*time.Hour {
				t.Fatalf("%q.Next(%v) = %v", s, tm, next)
			}
		}
	})
}

// FuzzDecodeList checks that the settings' automations decoder never
// panics, and that what it accepts is valid and writes back to text that
// reads as the same list.
func FuzzDecodeList(f *testing.F) {
	for _, s := range []string{
		`[]`,
		`[{"name": "a", "ask": "tidy my desktop", "schedule": "weekdays 09:00"}]`,
		`[{"name": "b", "run": ["NOTIFY \"hi\" \"there\""], "schedule": "every 2h", "cooldown": "30m", "enabled": false}]`,
		`[{"name": "c", "run": "NOTIFY \"a\" \"b\"\nSPEAK \"x\"", "schedule": "at login", "cooldown": "0s"}]`,
		`[{"name": "d", "ask": "x", "run": "y", "schedule": "daily 10:00"}]`,
		`[{"name": "e", "ask": "x", "schedule": "daily 10:00"}, {"name": "E", "ask": "y", "schedule": "daily 11:00"}]`,
		`[{"name": "f", "ask": "x", "schedule": "daily 10:00", "name": "g"}]`,
		`{"name": "h"}`, `[1]`, `[{"name": "i", "ask": "x", "schedule": "every 30m", "cooldown": "2h"}]`,
		`[{"name": "j", "run": ["WRITE_DOC \"~/Documents/a.md\" <<END", "hello", "END"], "schedule": "sat 08:00"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		list, err := automation.DecodeList(data)
		if err != nil {
			if fe, ok := err.(*automation.FieldError); !ok || fe.Offset < 0 || fe.Offset > len(data) {
				t.Fatalf("%q: error %#v is not a *FieldError with an offset in the input", data, err)
			}
			return
		}
		if err := automation.ValidateList(list); err != nil {
			t.Fatalf("%q: accepted an invalid list: %v", data, err)
		}
		out, err := automation.EncodeList(list, "")
		if err != nil {
			t.Fatalf("%q: cannot write %+v: %v", data, list, err)
		}
		back, err := automation.DecodeList(out)
		if err != nil || !reflect.DeepEqual(back, list) {
			t.Fatalf("%q: wrote %s, read back %+v, %v; want %+v", data, out, back, err, list)
		}
	})
}
