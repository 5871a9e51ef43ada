package bundle_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"howett.net/plist"

	"github.com/airlockhq/airlock/app/internal/bundle"
)

func readRepo(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../../" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestVersionFromGit(t *testing.T) {
	for _, tc := range []struct {
		describe       string
		commits        int
		version, build string
	}{
		{"v1.2.3", 10, "1.2.3", "10"},
		{"v1.2.3-4-gabcdef0-dirty", 14, "1.2.3", "14"},
		{"0.9.12", 3, "0.9.12", "3"},
		{"edd7703", 69, "0.0.0", "69"},              // no tag yet
		{"edd7703-dirty", 69, "0.0.0", "69"},        // no tag, edited
		{"v1.2", 5, "0.0.0", "5"},                   // not X.Y.Z
		{"v1.2.3<evil>", 5, "0.0.0", "5"},           // nothing odd passes
		{"", -1, "0.0.0", "0"},                      // not a git checkout
		{"v12345.0.0", 1, "0.0.0", "1"},             // out of range
		{"v1.2.3+build.7", 2, "1.2.3", "2"},         // semver metadata
		{" v2.0.0\n", 8, "2.0.0", "8"},              // as the shell gives it
		{"v3.0.0-rc.1-2-g1234567", 9, "3.0.0", "9"}, // a pre-release
	} {
		v, b := bundle.VersionFromGit(tc.describe, tc.commits)
		if v != tc.version || b != tc.build {
			t.Errorf("VersionFromGit(%q, %d) = %q, %q; want %q, %q", tc.describe, tc.commits, v, b, tc.version, tc.build)
		}
	}
}

// The repository's template renders to a valid plist with the values given,
// and the repository's entitlements are valid.
func TestRenderTheRepositoryTemplate(t *testing.T) {
	out, err := bundle.Render(readRepo(t, "Info.plist.tmpl"), bundle.Info{BundleID: bundle.DefaultBundleID, Version: "1.4.0", Build: "212"})
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if _, err := plist.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"CFBundleIdentifier": "dev.airlock.Airlock", "CFBundleShortVersionString": "1.4.0",
		"CFBundleVersion": "212", "LSUIElement": true, "CFBundleExecutable": "airlock", "LSMinimumSystemVersion": "12.0"} {
		if d[k] != want {
			t.Errorf("%s = %#v, want %#v", k, d[k], want)
		}
	}
	if err := bundle.ValidateEntitlements(readRepo(t, "entitlements.plist")); err != nil {
		t.Error(err)
	}
}

func TestRenderRefusesValuesThatCouldChangeThePlist(t *testing.T) {
	tmpl := readRepo(t, "Info.plist.tmpl")
	for _, info := range []bundle.Info{
		{BundleID: "dev.airlock</string><key>x</key><string>", Version: "1.0.0", Build: "1"},
		{BundleID: "Airlock", Version: "1.0.0", Build: "1"},
		{BundleID: "dev.airlock.Airlock", Version: "1.0.0&", Build: "1"},
		{BundleID: "dev.airlock.Airlock", Version: "1.0.0", Build: "1.2.3.4"},
		{BundleID: "dev.airlock.Airlock", Version: "", Build: "1"},
	} {
		if _, err := bundle.Render(tmpl, info); !errors.Is(err, bundle.ErrInvalid) {
			t.Errorf("Render(%+v) = %v, want ErrInvalid", info, err)
		}
	}
	if _, err := bundle.Render([]byte("{{.Missing}}"), bundle.Info{BundleID: "a.b", Version: "1", Build: "1"}); err == nil {
		t.Error("a template naming an unknown field rendered")
	}
}

// Each required key, removed or given a wrong value, fails validation and
// is named in the error.
func TestValidate(t *testing.T) {
	good, err := bundle.Render(readRepo(t, "Info.plist.tmpl"), bundle.Info{BundleID: "dev.airlock.Airlock", Version: "1.0.0", Build: "1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, key string
		value     any // nil: remove the key
	}{
		{"no identifier", "CFBundleIdentifier", nil},
		{"wrong executable", "CFBundleExecutable", "Airlock"},
		{"not an app", "CFBundlePackageType", "BNDL"},
		{"version as a number", "CFBundleShortVersionString", uint64(1)},
		{"build with words", "CFBundleVersion", "1 beta"},
		{"a Dock icon", "LSUIElement", false},
		{"LSUIElement as text", "LSUIElement", "true"},
		{"no Apple events reason", "NSAppleEventsUsageDescription", " "},
		{"macOS 11", "LSMinimumSystemVersion", "11.7"},
		{"no minimum", "LSMinimumSystemVersion", nil},
		{"no retina", "NSHighResolutionCapable", nil},
		{"no name", "CFBundleName", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d map[string]any
			if _, err := plist.Unmarshal(good, &d); err != nil {
				t.Fatal(err)
			}
			if tc.value == nil {
				delete(d, tc.key)
			} else {
				d[tc.key] = tc.value
			}
			data, err := plist.MarshalIndent(d, plist.XMLFormat, "\t")
			if err != nil {
				t.Fatal(err)
			}
			err = bundle.Validate(data)
			if !errors.Is(err, bundle.ErrInvalid) || !strings.Contains(err.Error(), tc.key) {
				t.Errorf("Validate = %v; want ErrInvalid naming %s", err, tc.key)
			}
		})
	}
	var d map[string]any
	plist.Unmarshal(good, &d)
	binary, _ := plist.Marshal(d, plist.BinaryFormat)
	if err := bundle.Validate(binary); !errors.Is(err, bundle.ErrInvalid) {
		t.Errorf("a binary plist: %v", err)
	}
	if err := bundle.Validate([]byte("<plist><dict><key>x</key>")); !errors.Is(err, bundle.ErrInvalid) {
		t.Errorf("a broken plist: %v", err)
	}
}

func TestValidateEntitlements(t *testing.T) {
	for _, tc := range []struct {
		name string
		ent  map[string]any
		ok   bool
	}{
		{"apple events", map[string]any{"com.apple.security.automation.apple-events": true}, true},
		{"no apple events", map[string]any{}, false},
		{"apple events off", map[string]any{"com.apple.security.automation.apple-events": false}, false},
		{"sandboxed", map[string]any{"com.apple.security.automation.apple-events": true, "com.apple.security.app-sandbox": true}, false},
	} {
		data, _ := plist.MarshalIndent(tc.ent, plist.XMLFormat, "\t")
		if err := bundle.ValidateEntitlements(data); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// FuzzValidate checks that the validator never panics on any input.
func FuzzValidate(f *testing.F) {
	f.Add(readRepoF(f, "Info.plist.tmpl"))
	f.Add([]byte(`<plist version="1.0"><dict><key>LSUIElement</key><true/></dict></plist>`))
	f.Add([]byte("bplist00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		bundle.Validate(data)
		bundle.ValidateEntitlements(data)
	})
}

func readRepoF(f *testing.F, name string) []byte {
	b, err := os.ReadFile("../../../" + name)
	if err != nil {
		f.Fatal(err)
	}
	return b
}
