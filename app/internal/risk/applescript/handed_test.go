package applescript_test

import (
	"slices"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/applescript"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// TestHandedSeesItemsAppsRead: the items a script hands an application to
// copy, move, rename, attach, give as data, print or read as a property
// list or XML file are told to Handed,
// as the path the analyzer folds ("" for one it cannot name); the app's
// own objects (a track, a document) are not; and without Handed nothing
// changes.
func TestHandedSeesItemsAppsRead(t *testing.T) {
	const key = "set p to (POSIX path of (path to downloads folder)) & \"pr\" & \"od.pem\"\n"
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`tell application "Finder" to duplicate folder "Downloads" of home to folder "Documents" of home`, []string{"~/Downloads"}},
		{"tell application \"Finder\"\nset x to item 1 of folder \"Downloads\" of home\nduplicate x\nend tell", []string{"~/Downloads"}},
		{`tell application "Finder" to set name of item 1 of folder "Downloads" of home to "notes.txt"`, []string{"~/Downloads"}},
		{key + "tell application \"Mail\"\nset m to make new outgoing message\ntell m to make new attachment with properties {file name:(POSIX file p)} at after the last paragraph\nend tell", []string{"~/Downloads/prod.pem"}},
		{key + "tell application \"Notes\" to tell note 1 to make new attachment with data (POSIX file p)", []string{"~/Downloads/prod.pem"}},
		{key + "tell application \"TextEdit\" to print (POSIX file p) without print dialog", []string{"~/Downloads/prod.pem"}},
		{"tell application \"TextEdit\" to print (POSIX file (the clipboard as text))", []string{""}},
		{key + "tell application \"System Events\" to get contents of property list file p", []string{"~/Downloads/prod.pem"}},
		{"tell application \"System Events\" to get value of XML file (the clipboard as text)", []string{""}},
		{`tell application "System Events" to get value of property list item "x" of property list file "~/Library/Preferences/com.example.plist"`, []string{"~/Library/Preferences/com.example.plist"}},
		{`tell application "Music" to duplicate track 1 of playlist "Library" to playlist "Mix"`, nil},
		{`tell application "TextEdit" to print document 1`, nil},
		{`tell application "Notes" to make new note with data "shopping list"`, nil},
	} {
		var got []string
		applescript.Rate(tc.src, &rate.Env{Handed: func(p string) { got = append(got, p) }}, 0)
		got = slices.Compact(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: handed %q, want %q", tc.src, got, tc.want)
		}
		with := applescript.Rate(tc.src, &rate.Env{Handed: func(string) {}}, 0)
		without := applescript.Rate(tc.src, &rate.Env{}, 0)
		if with.Level != without.Level || len(with.Reasons) != len(without.Reasons) {
			t.Errorf("%q: Handed changed the verdict: %v against %v", tc.src, with, without)
		}
	}
}
