package bridge_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/bridge"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Desktop files are found by id before name, in XDG order, and a file in an
// earlier folder hides one with its id in a later folder.
func TestFindDesktopFile(t *testing.T) {
	root := t.TempDir()
	home, sys := filepath.Join(root, "home"), filepath.Join(root, "sys")
	app := func(name, extra string) string {
		return "[Desktop Entry]\nType=Application\nName=" + name + "\nExec=/bin/" + name + "\n" + extra
	}
	writeFiles(t, root, map[string]string{
		"home/applications/firefox.desktop":           app("Firefox Mine", ""),
		"sys/applications/firefox.desktop":            app("Firefox", ""),
		"sys/applications/org.gnome.Nautilus.desktop": app("Files", "DBusActivatable=true\n"),
		"sys/applications/kde/dolphin.desktop":        app("Dolphin", "[Desktop Action new]\nName=New Window\n"),
		"sys/applications/files.desktop":              app("Not Files", ""),
		"home/applications/hidden.desktop":            app("Hidden", "Hidden=true\n"),
		"sys/applications/hidden.desktop":             app("Hidden Sys", ""),
		"sys/applications/link.desktop":               "[Desktop Entry]\nType=Link\nName=Link\nURL=https://example.com\n",
		"sys/applications/other.txt":                  app("Other", ""),
	})
	dirs := []string{home, sys}
	tests := []struct {
		app      string
		wantPath string // relative to root; "" means not found
		wantDBus bool
	}{
		{"firefox", "home/applications/firefox.desktop", false},
		{"FIREFOX.desktop", "home/applications/firefox.desktop", false},
		{"Firefox Mine", "home/applications/firefox.desktop", false},
		{"Firefox", "home/applications/firefox.desktop", false}, // the id, case ignored; the system file is hidden
		{"files", "sys/applications/files.desktop", false},      // the id wins over a Name
		{"Files", "sys/applications/files.desktop", false},      // case does not matter
		{"org.gnome.nautilus", "sys/applications/org.gnome.Nautilus.desktop", true},
		{"kde-dolphin", "sys/applications/kde/dolphin.desktop", false},
		{"Dolphin", "sys/applications/kde/dolphin.desktop", false},
		{"New Window", "", false}, // an action's Name is not the app's
		{"hidden", "", false},
		{"Hidden Sys", "", false},
		{"link", "", false},
		{"other", "", false},
		{"../sys/applications/firefox", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		e, err := bridge.FindDesktopFile(tt.app, dirs)
		if tt.wantPath == "" {
			if err == nil {
				t.Errorf("%q: found %s, want none", tt.app, e.Path)
			}
			continue
		}
		if err != nil || e.Path != filepath.Join(root, tt.wantPath) || e.DBusActivatable != tt.wantDBus {
			t.Errorf("%q: %+v, %v; want %s (D-Bus %v)", tt.app, e, err, tt.wantPath, tt.wantDBus)
		}
	}
	if _, err := bridge.FindDesktopFile("nothing", dirs); !errors.Is(err, bridge.ErrNoSuchApp) {
		t.Errorf("a missing app: %v, want ErrNoSuchApp", err)
	}
}

func TestFindAppBundle(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Applications/Safari.app/Contents/Info.plist":             "",
		"System/Utilities/Terminal.app/Contents/Info.plist":       "",
		"Applications/Utilities/Terminal.app/Contents/Info.plist": "",
		"Applications/NotABundle.app":                             "a file, not a bundle",
	})
	dirs := []string{filepath.Join(root, "Applications"), filepath.Join(root, "Applications/Utilities"), filepath.Join(root, "System/Utilities")}
	tests := []struct{ app, want string }{
		{"Safari", "Applications/Safari.app"},
		{"safari.app", "Applications/Safari.app"},
		{"Terminal", "Applications/Utilities/Terminal.app"},
		{"NotABundle", ""},
		{"Utilities/Terminal", ""},
		{"..", ""},
		{"Missing", ""},
	}
	for _, tt := range tests {
		got, err := bridge.FindAppBundle(tt.app, dirs)
		if tt.want == "" {
			if err == nil {
				t.Errorf("%q: found %s", tt.app, got)
			}
			continue
		}
		if err != nil || got != filepath.Join(root, tt.want) {
			t.Errorf("%q: %q, %v; want %s", tt.app, got, err, tt.want)
		}
	}
}
