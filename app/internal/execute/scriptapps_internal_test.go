package execute

import (
	"slices"
	"testing"
)

// TestScriptApps: the applications a script tells by a literal, in
// AppleScript's forms and JXA's, each once.
func TestScriptApps(t *testing.T) {
	for _, tc := range []struct {
		kind, src string
		want      []string
	}{
		{KindAppleScript, `tell application "Music" to play`, []string{"Music"}},
		{KindAppleScript, "tell app \"Notes Helper\"\nactivate\nend tell\ntell application id \"com.example.x\" to quit\ntell application \"music\" to pause\ntell application \"Music\" to play", []string{"Notes Helper", "com.example.x", "music"}},
		{KindAppleScript, `tell application "Sa\"fari" to activate`, []string{`Sa"fari`}},
		{KindAppleScript, `return 1`, nil},
		{KindJXA, `Application('Music').play(); Application("Notes Helper").activate(); Application(` + "`Safari`" + `).activate();`, []string{"Music", "Notes Helper", "Safari"}},
		{KindJXA, `Application('\x4eotes Helper').activate()`, []string{"Notes Helper"}},
		{KindJXA, `Application.currentApplication(); Application(name)`, nil},
	} {
		if got := scriptApps(tc.kind, tc.src); !slices.Equal(got, tc.want) {
			t.Errorf("scriptApps(%s, %q) = %q, want %q", tc.kind, tc.src, got, tc.want)
		}
	}
}

// TestOutsideInstalled: on macOS a bundle outside /Applications,
// /System/Applications and CoreServices is taken for an action's.
func TestOutsideInstalled(t *testing.T) {
	for _, tc := range []struct {
		goos, p string
		want    bool
	}{
		{"darwin", "/Applications/Safari.app", false},
		{"darwin", "/System/Applications/Music.app", false},
		{"darwin", "/System/Library/CoreServices/Finder.app", false},
		{"darwin", "/Volumes/Image/Safari.app", true},
		{"darwin", "/Users/Shared/Notes Helper.app", true},
		{"darwin", "/Applications/../Users/me/X.app", true},
		{"darwin", "", false},
		{"linux", "/home/me/.local/share/applications/x.desktop", false},
	} {
		if got := outsideInstalled(tc.goos, tc.p); got != tc.want {
			t.Errorf("outsideInstalled(%s, %q) = %v, want %v", tc.goos, tc.p, got, tc.want)
		}
	}
}
