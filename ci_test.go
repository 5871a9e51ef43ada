package airlock_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every package .ci/run can install, in the order it decides about them.
var allPackages = []string{
	"make", "gcc", "git", "dbus", "dbus-daemon", "gnome-keyring", "xvfb", "xdotool", "zenity",
	"x11-apps", "imagemagick", "xclip", "libnotify-bin", "libglib2.0-bin", "gsettings-desktop-schemas", "chromium",
}

// What each tool prints when it is the real one, as Debian 12 installs it.
var realTools = map[string]string{
	"make":                 "GNU Make 4.3",
	"git":                  "git version 2.39.5",
	"dbus-run-session":     "dbus-run-session 1.14.10",
	"dbus-daemon":          "D-Bus Message Bus Daemon 1.14.10",
	"gnome-keyring-daemon": "gnome-keyring-daemon: 42.1",
	"Xvfb":                 "use: X [:<display>] [option]\n-screen scrn WxHxD        set screen's width, height, depth",
	"xdotool":              "xdotool version 3.20160805.1",
	"zenity":               "cannot open display:", // says nothing useful without a display
	"xwd":                  "xwd:  unable to open display ''",
	"convert":              "Version: ImageMagick 6.9.11-60 Q16 x86_64 2021-01-25 https://imagemagick.org",
	"xclip":                "xclip version 0.13",
	"notify-send":          "notify-send 0.8.1",
	"gio":                  "Usage:\n  gio COMMAND [ARGS…]",
	"gsettings": "Usage:\n  gsettings --version\n  list-schemas              List installed schemas\n" +
		"org.gnome.desktop.interface\norg.gnome.desktop.notifications",
	"chromium": "Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)",
}

// The stand-in this machine image ships as /usr/local/bin/convert.
const standInConvert = "convert: ImageMagick is not installed here, and this stand-in only prints a PNG: " +
	"convert FILE.png ppm:-. For anything else: apt-get install imagemagick"

// TestCIInstallDecisions runs `.ci/run --plan` on PATHs of shims and checks
// which Debian packages it would install: a tool is judged by what it does,
// never by its name on PATH.
func TestCIInstallDecisions(t *testing.T) {
	base := baseTools(t)
	for _, tc := range []struct {
		name  string
		tools map[string]string // tool → what it prints; absent means not on PATH
		dpkg  bool              // dpkg-query owns zenity and xwd to their packages
		want  []string
	}{
		{"the machine image: every tool real but convert a stand-in", with(realTools, "convert", standInConvert), true, []string{"imagemagick"}},
		{"everything real", realTools, true, nil},
		{"nothing installed but a C compiler", nil, false, without(allPackages, "gcc")},
		{"every tool a stand-in", allStandIns(), false, allPackages},
		{"zenity and xwd present but not from their packages", realTools, false, []string{"zenity", "x11-apps"}},
		{"gsettings without the notifications schema", with(realTools, "gsettings", "Usage:\n  list-schemas\norg.gnome.desktop.interface"), true, []string{"gsettings-desktop-schemas"}},
		{"gio missing", with(realTools, "gio", ""), true, []string{"libglib2.0-bin"}},
		{"chromium a wrapper without the browser", with(realTools, "chromium", "chromium: not found"), true, []string{"chromium"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, target := range base {
				if _, shimmed := tc.tools[name]; shimmed {
					continue
				}
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			for name, says := range tc.tools {
				if says != "" {
					shim(t, dir, name, "cat <<'EOF'\n"+says+"\nEOF\n")
				}
			}
			if tc.dpkg {
				shim(t, dir, "dpkg-query", `case "$2" in
*/zenity) echo "zenity: $2" ;;
*/xwd) echo "x11-apps: $2" ;;
*) echo "dpkg-query: no path found matching pattern $2" >&2; exit 1 ;;
esac
`)
			}
			cmd := exec.Command(base["bash"], ".ci/run", "--plan")
			cmd.Env = []string{"PATH=" + dir, "HOME=" + t.TempDir(), "LC_ALL=C"}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Fatalf(".ci/run --plan: %v\n%s", err, stderr.String())
			}
			got := strings.Fields(string(out))
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("plan %q, want %q", got, tc.want)
			}
		})
	}
}

// baseTools finds what .ci/run itself needs (bash and a few coreutils) and
// a working C compiler, which the shims leave alone.
func baseTools(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range []string{"bash", "grep", "timeout", "readlink", "dirname", "mktemp", "rm", "cat", "gcc", "as", "ld"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s is not installed: %v", name, err)
		}
		out[name] = p
	}
	return out
}

// shim writes a script called name into dir. It never writes through an
// existing file (a link to a real tool must never be overwritten).
func shim(t *testing.T, dir, name, body string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("#!/bin/sh\n" + body); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func with(m map[string]string, k, v string) map[string]string {
	out := map[string]string{}
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

func allStandIns() map[string]string {
	out := map[string]string{"gcc": "gcc: a stand-in that compiles nothing"}
	for name := range realTools {
		out[name] = name + ": a stand-in that is not the real program"
	}
	return out
}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}
