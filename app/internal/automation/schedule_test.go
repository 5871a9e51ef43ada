package automation_test

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin, for the daylight-saving days

	"github.com/airlockhq/airlock/app/internal/automation"
)

func TestParseSchedule(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string // canonical form; "" when an error is expected
		err   string // a part of the error
	}{
		{"weekdays", "weekdays 09:00", "weekdays 09:00", ""},
		{"daily", "daily 18:30", "daily 18:30", ""},
		{"days list", "mon,wed,fri 08:15", "mon,wed,fri 08:15", ""},
		{"days list with spaces", "Mon, Wed , FRI  8:15", "mon,wed,fri 08:15", ""},
		{"full day names", "monday,tuesday 07:05", "mon,tue 07:05", ""},
		{"range", "mon-fri 09:00", "weekdays 09:00", ""},
		{"wrapping range", "fri-mon 10:00", "mon,fri,sat,sun 10:00", ""},
		{"all days named", "mon,tue,wed,thu,fri,sat,sun 00:00", "daily 00:00", ""},
		{"weekends", "sat,sun 23:59", "weekends 23:59", ""},
		{"every hours", "every 2h", "every 2h", ""},
		{"every minutes", "every 30m", "every 30m", ""},
		{"every mixed", "EVERY 1h30m", "every 1h30m", ""},
		{"every in minutes is shortened", "every 120m", "every 2h", ""},
		{"at login", "at login", "at login", ""},
		{"at login spaced", "  At   Login ", "at login", ""},

		{"empty", "", "", "is empty"},
		{"blank", "   ", "", "is empty"},
		{"no time", "weekdays", "", "has no time of day"},
		{"bad hour", "daily 24:00", "", `"24:00" is not a time of day`},
		{"bad minute", "daily 09:60", "", "is not a time of day"},
		{"one-digit minute", "daily 9:5", "", "is not a time of day"},
		{"am pm", "daily 9am", "", "is not a time of day"},
		{"signed hour", "daily +9:00", "", "is not a time of day"},
		{"unknown day", "funday 09:00", "", `"funday" is not a day`},
		{"empty day", "mon,,fri 09:00", "", "empty day"},
		{"bad range", "mon-xyz 09:00", "", `"xyz" is not a day`},
		{"at other", "at 09:00", "", `"at" must be followed by "login"`},
		{"every nothing", "every", "", "one interval"},
		{"every two words", "every 2 hours", "", "one interval"},
		{"every unit missing", "every 2", "", "is not an interval"},
		{"every negative", "every -2h", "", "is not an interval"},
		{"every too short", "every 1m", "", "at least 5m"},
		{"every seconds", "every 300s", "every 5m", ""},
		{"every not whole minutes", "every 5m30s", "", "whole minutes"},
		{"every too long", "every 25h", "", "at most 24h"},
		{"every zero", "every 0m", "", "at least"},
		{"too long", "daily 09:00" + strings.Repeat(" ", 100), "", "longer than"},
		{"control character", "daily\x0009:00", "", "has no time of day"},
		{"control character in the days", "mon\x00,fri 09:00", "", "is not a day"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := automation.ParseSchedule(tt.input)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseSchedule(%q) = %v, %v; want an error with %q", tt.input, s, err, tt.err)
				}
				if s.Valid() {
					t.Errorf("the schedule of an error is valid: %v", s)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSchedule(%q): %v", tt.input, err)
			}
			if got := s.String(); got != tt.want {
				t.Errorf("ParseSchedule(%q) = %q, want %q", tt.input, got, tt.want)
			}
			again, err := automation.ParseSchedule(s.String())
			if err != nil || again != s {
				t.Errorf("the canonical form %q reads back as %v, %v", s, again, err)
			}
		})
	}
}

func TestScheduleNext(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		t.Helper()
		// An explicit offset picks one of the two times the clocks show
		// twice on the night they go back.
		if tm, err := time.Parse("2006-01-02 15:04 -0700", s); err == nil {
			return tm.In(berlin)
		}
		tm, err := time.ParseInLocation("2006-01-02 15:04", s, berlin)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		name, schedule, after, want string
	}{
		// 2025-03-07 is a Friday.
		{"weekdays over the weekend", "weekdays 09:00", "2025-03-07 10:00", "2025-03-10 09:00"},
		{"weekdays before the time", "weekdays 09:00", "2025-03-10 08:59", "2025-03-10 09:00"},
		{"strictly after", "weekdays 09:00", "2025-03-10 09:00", "2025-03-11 09:00"},
		{"days list", "mon,wed,fri 08:15", "2025-03-05 08:15", "2025-03-07 08:15"},
		{"days list wraps the week", "mon,wed,fri 08:15", "2025-03-07 09:00", "2025-03-10 08:15"},
		{"one day a week", "sun 07:00", "2025-03-09 07:01", "2025-03-16 07:00"},
		{"daily after the time", "daily 18:30", "2025-03-10 18:31", "2025-03-11 18:30"},
		{"daily over the new year", "daily 00:00", "2025-12-31 23:59", "2026-01-01 00:00"},
		{"every from midnight", "every 2h", "2025-03-10 13:10", "2025-03-10 14:00"},
		{"every on the hour", "every 2h", "2025-03-10 14:00", "2025-03-10 16:00"},
		{"every over midnight", "every 2h", "2025-03-10 23:30", "2025-03-11 00:00"},
		{"every not dividing the day", "every 7h", "2025-03-10 21:30", "2025-03-11 00:00"},
		{"every 30m", "every 30m", "2025-03-10 09:29", "2025-03-10 09:30"},
		{"every 24h", "every 24h", "2025-03-10 00:00", "2025-03-11 00:00"},

		// 2025-03-30: the clocks go from 02:00 CET to 03:00 CEST.
		{"spring: a skipped time runs when the clocks reach it", "daily 02:30", "2025-03-30 00:00", "2025-03-30 03:30"},
		{"spring: and the day after as usual", "daily 02:30", "2025-03-30 03:30", "2025-03-31 02:30"},
		{"spring: a time after the change", "daily 09:00", "2025-03-29 09:00", "2025-03-30 09:00"},
		{"spring: every 30m across the gap", "every 30m", "2025-03-30 01:45", "2025-03-30 03:00"},
		{"spring: every 30m after the gap", "every 30m", "2025-03-30 03:00", "2025-03-30 03:30"},
		{"spring: every 30m once past it", "every 30m", "2025-03-30 03:30", "2025-03-30 04:00"},
		// 2025-10-26: the clocks go from 03:00 CEST back to 02:00 CET.
		{"autumn: a repeated time runs once, the second time", "daily 02:30", "2025-10-26 00:00", "2025-10-26 02:30 +0100"},
		{"autumn: not again that day", "daily 02:30", "2025-10-26 02:30 +0100", "2025-10-27 02:30"},
		{"autumn: the first pass of the hour is not a run", "daily 02:30", "2025-10-26 02:30 +0200", "2025-10-26 02:30 +0100"},
		{"autumn: every hour by the wall clock", "every 1h", "2025-10-26 02:00 +0100", "2025-10-26 03:00"},
		{"autumn: a time after the change", "daily 09:00", "2025-10-25 09:00", "2025-10-26 09:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := automation.ParseSchedule(tt.schedule)
			if err != nil {
				t.Fatal(err)
			}
			after, want := at(tt.after), at(tt.want)
			got := s.Next(after)
			if !got.Equal(want) {
				t.Errorf("%q.Next(%v) = %v, want %v", tt.schedule, after, got, want)
			}
			if !got.After(after) {
				t.Errorf("Next(%v) = %v is not after it", after, got)
			}
		})
	}
	login, _ := automation.ParseSchedule("at login")
	if got := login.Next(time.Now()); !got.IsZero() {
		t.Errorf("at login has a next time: %v", got)
	}
	var zero automation.Schedule
	if zero.Valid() || !zero.Next(time.Now()).IsZero() {
		t.Errorf("the zero Schedule is valid or has a next time")
	}
}

// TestScheduleNextIsSteady walks schedules across a whole year in Berlin
// (both daylight-saving changes): every time Next gives is after the time
// it was asked at, on a day the schedule names, and no two runs of a
// schedule that names a time of day are closer than a day minus an hour.
func TestScheduleNextIsSteady(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"weekdays 09:00", "daily 02:30", "mon,wed,fri 08:15", "every 30m", "every 7h", "every 5m"} {
		s, _ := automation.ParseSchedule(text)
		tm := time.Date(2025, 1, 1, 0, 0, 0, 0, berlin)
		end := tm.AddDate(1, 0, 0)
		var prev time.Time
		for n := 0; tm.Before(end); n++ {
			next := s.Next(tm)
			if !next.After(tm) {
				t.Fatalf("%q.Next(%v) = %v", text, tm, next)
			}
			if next.Sub(tm) > 8*24*time.Hour {
				t.Fatalf("%q.Next(%v) = %v: more than a week later", text, tm, next)
			}
			if s.Interval() == 0 && !prev.IsZero() && next.Sub(prev) < 23*time.Hour {
				t.Fatalf("%q runs at %v and again at %v", text, prev, next)
			}
			if iv := s.Interval(); iv > 0 && !prev.IsZero() && next.Sub(prev) > iv+time.Hour {
				t.Fatalf("%q runs at %v and next at %v", text, prev, next)
			}
			prev, tm = next, next
		}
	}
}
