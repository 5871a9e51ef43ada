package bridge_test

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
)

// The calendar and reminder scripts build dates from these four numbers with
// makeDate: year, month, day and seconds since local midnight.
func TestDateArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   time.Time
		want []string
	}{
		{"midnight", time.Date(2026, 1, 31, 0, 0, 0, 0, time.Local), []string{"2026", "1", "31", "0"}},
		{"last second", time.Date(2026, 12, 1, 23, 59, 59, 0, time.Local), []string{"2026", "12", "1", "86399"}},
		{"leap day afternoon", time.Date(2028, 2, 29, 13, 5, 7, 999, time.Local), []string{"2028", "2", "29", "47107"}},
	} {
		if got := bridge.DateArgs(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: DateArgs(%v) = %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
	// A time in another zone is given in local time: the person's calendar.
	in := time.Date(2026, 6, 1, 12, 0, 0, 0, time.FixedZone("X", 5*3600))
	l := in.Local()
	want := []string{strconv.Itoa(l.Year()), strconv.Itoa(int(l.Month())), strconv.Itoa(l.Day()), strconv.Itoa(l.Hour()*3600 + l.Minute()*60 + l.Second())}
	if got := bridge.DateArgs(in); !reflect.DeepEqual(got, want) {
		t.Errorf("DateArgs(%v) = %v, want local %v", in, got, want)
	}
}
