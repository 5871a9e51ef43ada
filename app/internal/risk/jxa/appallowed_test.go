package jxa_test

import (
	"slices"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/jxa"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// TestAppAllowedSeesEveryName: AppAllowed is asked of every application
// a script drives, by the name the analyzer folds, and an application it
// cannot name is reported (jxa.app-not-allowed); without AppAllowed
// nothing is added.
func TestAppAllowedSeesEveryName(t *testing.T) {
	for _, tc := range []struct {
		src      string
		names    []string
		computed bool
	}{
		{"Application('Music').play();", []string{"Music"}, false},
		{"const n = 'Notes Helper';\nApplication(n).activate();", []string{"Notes Helper"}, false},
		{"Application('Notes ' + 'Helper').activate();", []string{"Notes Helper"}, false},
		{"const n = 'Notes';\nApplication(`${n} Helper`).activate();", []string{"Notes Helper"}, false},
		{"ObjC.import('AppKit');\n$.NSWorkspace.sharedWorkspace.launchApplication('Notes Helper');", []string{"Notes Helper"}, false},
		{"const A = Application;\nA('Notes Helper').activate();", nil, true},
		{"Application.apply(null, ['Notes Helper']).activate();", nil, true},
		{"function run(argv) { Application(argv[0]).activate(); }", nil, true},
		{"const app = Application.currentApplication();\napp.includeStandardAdditions = true;\napp.displayNotification('hi');", nil, false},
	} {
		var names []string
		env := &rate.Env{AppAllowed: func(n string) (bool, string) { names = append(names, n); return true, "" }}
		v := jxa.Rate(tc.src, env, 0)
		computed := false
		for _, r := range v.Reasons {
			computed = computed || r.Rule == "jxa.app-not-allowed"
		}
		if !slices.Equal(names, tc.names) || computed != tc.computed {
			t.Errorf("%q: asked %q, computed %v; want %q, %v", tc.src, names, computed, tc.names, tc.computed)
		}
		plain := jxa.Rate(tc.src, &rate.Env{}, 0)
		for _, r := range plain.Reasons {
			if r.Rule == "jxa.app-not-allowed" {
				t.Errorf("%q: without AppAllowed: %s", tc.src, r.Text)
			}
		}
	}
}

// TestHandedSeesPrintedFiles: the file an application's print is given,
// and a property list file System Events reads, are told to Handed (folded, or "" when computed at run time); a document of
// the app's own is not.
func TestHandedSeesPrintedFiles(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"const te = Application('TextEdit');\nte.print(Path('/Users/me/Downloads/' + 'pr' + 'od.pem'), {printDialog: false});", []string{"/Users/me/Downloads/prod.pem"}},
		{"const app = Application.currentApplication();\napp.includeStandardAdditions = true;\nconst te = Application('TextEdit');\nte.print(Path(app.theClipboard()));", []string{""}},
		{"const te = Application('TextEdit');\nte.print(te.documents[0]);", nil},
		{"const se = Application('System Events');\nse.propertyListFiles.byName('/Users/me/Downloads/' + 'pr' + 'od.pem').contents.value();", []string{"/Users/me/Downloads/prod.pem"}},
	} {
		var got []string
		jxa.Rate(tc.src, &rate.Env{Handed: func(p string) { got = append(got, p) }}, 0)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: handed %q, want %q", tc.src, got, tc.want)
		}
	}
}
