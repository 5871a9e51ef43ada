package automation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Bounds of a schedule.
const (
	MaxScheduleBytes = 100             // the text of a schedule
	MinEvery         = 5 * time.Minute // the shortest "every" interval
	MaxEvery         = 24 * time.Hour  // the longest; for more, name the days
)

// Schedule is when an automation runs: on chosen days at a time of day
// ("weekdays 09:00"), every interval counted from midnight ("every 2h"), or
// once each time Airlock starts ("at login"). The zero Schedule is not
// valid; ParseSchedule makes them.
//
// Times are wall-clock times in the computer's time zone, so a schedule
// keeps to the clock across daylight-saving changes: "daily 09:00" is at
// 09:00 on the day the clocks change too. A time the change skips (02:30 on
// the night the clocks go forward) is run when the clocks reach it (03:30);
// a time the change repeats (02:30 on the night they go back) is run once,
// the second time the clock shows it.
type Schedule struct {
	kind  scheduleKind
	days  uint8         // bit d set: runs on time.Weekday(d); for kindDays
	at    int           // minutes after midnight; for kindDays
	every time.Duration // for kindEvery
}

type scheduleKind int

const (
	kindNone scheduleKind = iota
	kindDays
	kindEvery
	kindLogin
)

const (
	allDays  uint8 = 0b1111111
	weekdays uint8 = 0b0111110 // Monday to Friday
	weekends uint8 = 0b1000001 // Sunday and Saturday
)

// dayNames are the days as a schedule may name them, Sunday first as
// time.Weekday counts.
var dayNames = [7][]string{
	{"sun", "sunday"},
	{"mon", "monday"},
	{"tue", "tues", "tuesday"},
	{"wed", "wednesday"},
	{"thu", "thur", "thurs", "thursday"},
	{"fri", "friday"},
	{"sat", "saturday"},
}

// scheduleHelp is how a schedule is written, for error messages.
const scheduleHelp = `write "daily 18:30", "weekdays 09:00", "weekends 10:00", "mon,wed,fri 08:15", "every 2h", "every 30m" or "at login"`

// ParseSchedule reads a schedule. Case and spacing do not matter:
//
//	at login                  each time Airlock starts
//	every 30m | every 2h      counted from midnight: every 2h is 00:00, 02:00 … 22:00
//	daily 18:30               every day at 18:30 (24-hour clock)
//	weekdays 09:00            Monday to Friday
//	weekends 10:00            Saturday and Sunday
//	mon,wed,fri 08:15         the days named; a range such as mon-thu too
//
// An "every" interval is whole minutes from 5m to 24h. The error says what
// was wrong, without repeating the input.
func ParseSchedule(text string) (Schedule, error) {
	if len(text) > MaxScheduleBytes {
		return Schedule{}, fmt.Errorf("is longer than %d bytes", MaxScheduleBytes)
	}
	fields := strings.Fields(strings.ToLower(text))
	if len(fields) == 0 {
		return Schedule{}, errors.New("is empty: " + scheduleHelp)
	}
	switch fields[0] {
	case "at":
		if len(fields) == 2 && fields[1] == "login" {
			return Schedule{kind: kindLogin}, nil
		}
		return Schedule{}, errors.New(`"at" must be followed by "login" (for a time of day, write "daily 09:00")`)
	case "every":
		return parseEvery(fields[1:])
	}
	if len(fields) < 2 {
		return Schedule{}, fmt.Errorf("has no time of day: %s", scheduleHelp)
	}
	at, err := parseClock(fields[len(fields)-1])
	if err != nil {
		return Schedule{}, err
	}
	days, err := parseDays(strings.Join(fields[:len(fields)-1], ""))
	if err != nil {
		return Schedule{}, err
	}
	return Schedule{kind: kindDays, days: days, at: at}, nil
}

func parseEvery(fields []string) (Schedule, error) {
	if len(fields) != 1 {
		return Schedule{}, errors.New(`"every" must be followed by one interval, like "every 30m" or "every 2h"`)
	}
	d, err := time.ParseDuration(fields[0])
	if err != nil || strings.HasPrefix(fields[0], "-") || strings.HasPrefix(fields[0], "+") {
		return Schedule{}, fmt.Errorf("%s is not an interval: write it like 30m, 2h or 1h30m", strconv.Quote(fields[0]))
	}
	switch {
	case d%time.Minute != 0:
		return Schedule{}, fmt.Errorf("every %s: the interval must be whole minutes", fields[0])
	case d < MinEvery:
		return Schedule{}, fmt.Errorf("every %s: the interval must be at least %s", fields[0], formatDuration(MinEvery))
	case d > MaxEvery:
		return Schedule{}, fmt.Errorf("every %s: the interval must be at most %s (for longer, name the days: \"mon,thu 09:00\")", fields[0], formatDuration(MaxEvery))
	}
	return Schedule{kind: kindEvery, every: d}, nil
}

// parseClock reads H:MM or HH:MM on the 24-hour clock.
func parseClock(s string) (int, error) {
	h, m, ok := strings.Cut(s, ":")
	bad := fmt.Errorf("%s is not a time of day: write it on the 24-hour clock, like 09:00 or 18:30", strconv.Quote(s))
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 || !digits(h) || !digits(m) {
		return 0, bad
	}
	hh, _ := strconv.Atoi(h)
	mm, _ := strconv.Atoi(m)
	if hh > 23 || mm > 59 {
		return 0, bad
	}
	return hh*60 + mm, nil
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseDays reads the days part without its spaces: daily, weekdays,
// weekends, or a comma-separated list of days and ranges (fri-mon wraps).
func parseDays(s string) (uint8, error) {
	switch s {
	case "daily", "everyday":
		return allDays, nil
	case "weekdays":
		return weekdays, nil
	case "weekends":
		return weekends, nil
	}
	var mask uint8
	for part := range strings.SplitSeq(s, ",") {
		if part == "" {
			return 0, errors.New("has an empty day between commas: " + scheduleHelp)
		}
		from, to, isRange := strings.Cut(part, "-")
		a, err := parseDay(from)
		if err != nil {
			return 0, err
		}
		b := a
		if isRange {
			if b, err = parseDay(to); err != nil {
				return 0, err
			}
		}
		for d := a; ; d = (d + 1) % 7 {
			mask |= 1 << d
			if d == b {
				break
			}
		}
	}
	return mask, nil
}

func parseDay(s string) (int, error) {
	for d, names := range dayNames {
		for _, n := range names {
			if s == n {
				return d, nil
			}
		}
	}
	return 0, fmt.Errorf("%s is not a day: use mon, tue, wed, thu, fri, sat, sun (or daily, weekdays, weekends); %s", strconv.Quote(s), scheduleHelp)
}

// String is the schedule as ParseSchedule reads it, in its shortest form.
func (s Schedule) String() string {
	switch s.kind {
	case kindLogin:
		return "at login"
	case kindEvery:
		return "every " + formatDuration(s.every)
	case kindDays:
		clock := fmt.Sprintf("%02d:%02d", s.at/60, s.at%60)
		switch s.days {
		case allDays:
			return "daily " + clock
		case weekdays:
			return "weekdays " + clock
		case weekends:
			return "weekends " + clock
		}
		var names []string
		for i := range 7 {
			d := (i + 1) % 7 // Monday first
			if s.days&(1<<d) != 0 {
				names = append(names, dayNames[d][0])
			}
		}
		return strings.Join(names, ",") + " " + clock
	}
	return ""
}

// Valid reports whether s came from ParseSchedule.
func (s Schedule) Valid() bool {
	switch s.kind {
	case kindLogin:
		return true
	case kindEvery:
		return s.every >= MinEvery && s.every <= MaxEvery && s.every%time.Minute == 0
	case kindDays:
		return s.days != 0 && s.days&^allDays == 0 && s.at >= 0 && s.at < 24*60
	}
	return false
}

// AtLogin reports whether s is "at login": it runs when Airlock starts and
// has no next time.
func (s Schedule) AtLogin() bool { return s.kind == kindLogin }

// Interval is the interval of an "every" schedule, 0 for the others.
func (s Schedule) Interval() time.Duration {
	if s.kind == kindEvery {
		return s.every
	}
	return 0
}

// Next returns the first time s is due strictly after t, in t's location,
// or the zero time for "at login" (and for an invalid Schedule).
func (s Schedule) Next(t time.Time) time.Time {
	if !s.Valid() || s.kind == kindLogin {
		return time.Time{}
	}
	loc := t.Location()
	y, m, d := t.Date()
	// Eight days always hold a run of any valid schedule after t; one more
	// in case a daylight-saving change moved a candidate.
	for i := range 9 {
		day := time.Date(y, m, d+i, 12, 0, 0, 0, loc)
		if c, ok := s.nextOn(day, t); ok {
			return c
		}
	}
	return time.Time{} // unreachable for a valid schedule
}

// nextOn is the first time s is due on the date of day strictly after t.
func (s Schedule) nextOn(day, t time.Time) (time.Time, bool) {
	y, m, d := day.Date()
	loc := day.Location()
	switch s.kind {
	case kindDays:
		if s.days&(1<<day.Weekday()) == 0 {
			return time.Time{}, false
		}
		c := time.Date(y, m, d, 0, s.at, 0, 0, loc)
		return c, c.After(t)
	case kindEvery:
		step := int(s.every / time.Minute)
		k := 0
		if ty, tm, td := t.Date(); ty == y && tm == m && td == d {
			k = max(0, (t.Hour()*60+t.Minute())/step-1)
		}
		for ; k*step < 24*60; k++ {
			if c := time.Date(y, m, d, 0, k*step, 0, 0, loc); c.After(t) {
				return c, true
			}
		}
	}
	return time.Time{}, false
}

// formatDuration writes d without the zero units time.Duration.String
// shows: 1h, 30m, 1h30m, 90s.
func formatDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
