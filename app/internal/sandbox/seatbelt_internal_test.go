package sandbox

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestPlaceRegex: a place's regular expression, anchored where the place
// starts; names the profile text could not carry are refused, not spliced.
func TestPlaceRegex(t *testing.T) {
	for _, tc := range []struct {
		pl   sanitize.PersistencePlace
		want string
	}{
		{sanitize.PersistencePlace{Under: "/", Elems: []string{"etc", "paths.d"}}, `^/[eE][tT][cC]/[pP][aA][tT][hH](s|S|ſ)\.[dD](/|$)`},
		{sanitize.PersistencePlace{Elems: []string{"*.git", "hooks"}}, `/[^/]*\.[gG][iI][tT]/[hH][oO][oO](k|K|KELVIN)(s|S|ſ)(/|$)`},
		{sanitize.PersistencePlace{Elems: []string{"site-packages", "*.pth"}}, `/(s|S|ſ)[iI][tT][eE]-[pP][aA][cC](k|K|KELVIN)[aA][gG][eE](s|S|ſ)/[^/]*\.[pP][tT][hH](/|$)`},
		{sanitize.PersistencePlace{Under: "/Users/a b", Elems: []string{"*", "x+y"}}, `^/[uU](s|S|ſ)[eE][rR](s|S|ſ)/[aA] [bB]/[^/]+/[xX]\+[yY](/|$)`},
	} {
		tc.want = strings.ReplaceAll(tc.want, "KELVIN", "\u212a")
		got, err := placeRegex(tc.pl)
		if err != nil || got != tc.want {
			t.Errorf("placeRegex(%+v) = %q, %v\nwant %q", tc.pl, got, err, tc.want)
		}
	}
	for _, bad := range []string{`a"b`, "a\nb", "a\x7fb", "a\xffb"} {
		_, err := placeRegex(sanitize.PersistencePlace{Entry: "**/" + bad, Elems: []string{bad}})
		if err == nil || !strings.Contains(err.Error(), "cannot carry") {
			t.Errorf("placeRegex of %q: %v", bad, err)
		}
	}
}
