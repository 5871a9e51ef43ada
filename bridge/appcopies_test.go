package bridge

import "testing"

func TestStrayCopy(t *testing.T) {
	for _, tc := range []struct {
		copies []string
		want   string
	}{
		{[]string{"/Applications/Safari.app"}, ""},
		{[]string{"/Applications/Safari.app", "/Users/me/Documents/proj/Safari.app"}, "/Users/me/Documents/proj/Safari.app"},
		{[]string{"/System/Applications/Music.app", "/Volumes/Image/Music.app"}, "/Volumes/Image/Music.app"},
		{[]string{"/SYSTEM/Library/CoreServices/Finder.app"}, ""},
		{[]string{"/Applications/../Users/me/X.app"}, "/Applications/../Users/me/X.app"},
		{[]string{"Applications/X.app"}, "Applications/X.app"},
		{nil, ""},
	} {
		if got := strayCopy(tc.copies); got != tc.want {
			t.Errorf("strayCopy(%q) = %q, want %q", tc.copies, got, tc.want)
		}
	}
}
