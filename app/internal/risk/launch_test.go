package risk_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// launchTo resolves every file and URL to one handler.
type launchTo facts.Handler

func (l launchTo) FileHandler(string, string) (facts.Handler, error) { return facts.Handler(l), nil }
func (l launchTo) URLHandler(string) (facts.Handler, error)          { return facts.Handler(l), nil }

// The DSL's launches are rated by the program the OS would start and by
// what the file is: the class of issue 20's first attack, whatever the
// handler is called.
func TestDSLLaunches(t *testing.T) {
	preview := facts.Handler{Platform: facts.Darwin, ID: "com.apple.Preview", Name: "Preview", Program: "/System/Applications/Preview.app/Contents/MacOS/Preview"}
	safari := facts.Handler{Platform: facts.Darwin, ID: "com.apple.Safari", Name: "Safari", Program: "/Applications/Safari.app/Contents/MacOS/Safari"}
	unknown := facts.Handler{Platform: facts.Linux, ID: "zutty", Name: "Zutty", Program: "/usr/bin/zutty"}
	planted := preview
	planted.UserOwned = true
	for _, tc := range []struct {
		name    string
		plan    string
		handler facts.Handler
		want    level.Level
	}{
		{"an inert file in a viewer", `OPEN_FILE "~/Documents/report.txt"`, preview, level.Caution},
		{"a file nobody wrote yet, by its name", `OPEN_FILE "~/Documents/later.pdf"`, preview, level.Caution},
		{"an executable file in a viewer", `OPEN_FILE "~/Documents/tool"`, preview, level.Dangerous},
		{"a script without the bit in a viewer", `OPEN_FILE "~/Documents/notes"`, preview, level.Dangerous},
		{"what the plan wrote is a script", "WRITE_FILE \"~/Documents/new.txt\" \"#!/bin/sh\"\nOPEN_FILE \"~/Documents/new.txt\"", preview, level.Dangerous},
		{"a runnable type in a viewer", `OPEN_FILE "~/Documents/report.command"`, preview, level.Dangerous},
		{"an unknown handler", `OPEN_FILE "~/Documents/report.txt"`, unknown, level.Destructive},
		{"a terminal by another name", `OPEN_FILE "~/Documents/report.txt" "Notes Helper"`, facts.Handler{Platform: facts.Darwin, ID: "com.apple.Terminal", Name: "Notes Helper"}, level.Destructive},
		{"a viewer in the home folder", `OPEN_FILE "~/Documents/report.txt"`, planted, level.Destructive},
		{"a folder in a document viewer", `OPEN_FILE "~/Documents"`, preview, level.Destructive},
		{"a web page in a browser", `OPEN_URL "https://example.com/"`, safari, level.Caution},
		{"a web page in something else", `OPEN_URL "https://example.com/"`, unknown, level.Destructive},
		{"a file URL is its file", `OPEN_URL "file:///HOME/Documents/notes"`, preview, level.Dangerous},
		{"an app with nothing to open", `OPEN_APP "Preview"`, preview, level.Caution},
		{"an app in the home folder", `OPEN_APP "Preview"`, planted, level.Dangerous},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := fixtureEnv(t)
			home := env.Paths.Home
			for name, f := range map[string]struct {
				text string
				mode os.FileMode
			}{"tool": {"hello", 0o755}, "notes": {"#!/bin/sh\nid\n", 0o644}, "report.command": {"ls", 0o644}} {
				if err := os.WriteFile(filepath.Join(home, "Documents", name), []byte(f.text), f.mode); err != nil {
					t.Fatal(err)
				}
			}
			env.Launch = launchTo(tc.handler)
			v := risk.DSL(strings.ReplaceAll(tc.plan, "/HOME", home), env)
			if v.Level != tc.want {
				t.Errorf("%s: %v, want %v\n%v", tc.plan, v.Level, tc.want, v.Reasons)
			}
		})
	}
}

// launchNowhere resolves nothing, as a machine without the app or a
// desktop's associations.
type launchNowhere struct{}

func (launchNowhere) FileHandler(string, string) (facts.Handler, error) {
	return facts.Handler{}, errors.New("no application opens it")
}
func (launchNowhere) URLHandler(string) (facts.Handler, error) {
	return facts.Handler{}, errors.New("no application opens it")
}

// TestDSLLaunchesUnresolved: where no handler is found at assessment, the
// executor resolves one right before the launch and refuses it above the
// level assessed (launchFile), so only a viewer can open it: the launch is
// rated as a viewer given the file — by the file still (a runnable type,
// what the plan wrote), and by an app it names that is a runner by name.
func TestDSLLaunchesUnresolved(t *testing.T) {
	for _, tc := range []struct {
		name string
		plan string
		want level.Level
	}{
		{"an inert file", `OPEN_FILE "~/Documents/report.txt"`, level.Caution},
		{"a file nobody wrote yet", `OPEN_FILE "~/Documents/later.pdf"`, level.Caution},
		{"a web page", `OPEN_URL "https://example.com/"`, level.Caution},
		{"a named viewer", `OPEN_FILE "~/Documents/report.txt" "TextEdit"`, level.Caution},
		{"an executable file", `OPEN_FILE "~/Documents/tool"`, level.Dangerous},
		{"a runnable type", `OPEN_FILE "~/Documents/later.command"`, level.Dangerous},
		{"what the plan wrote is a script", "WRITE_FILE \"~/Documents/new.txt\" \"#!/bin/sh\"\nOPEN_FILE \"~/Documents/new.txt\"", level.Dangerous},
		{"a terminal by name", `OPEN_FILE "~/Documents/report.txt" "Terminal"`, level.Destructive},
		{"an app not known by name", `OPEN_FILE "~/Documents/report.txt" "Notes Helper"`, level.Dangerous},
		{"another scheme", `OPEN_URL "x-man-page://ls"`, level.Dangerous},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := fixtureEnv(t)
			if err := os.WriteFile(filepath.Join(env.Paths.Home, "Documents", "tool"), []byte("hello"), 0o755); err != nil {
				t.Fatal(err)
			}
			env.Launch = launchNowhere{}
			v := risk.DSL(tc.plan, env)
			if v.Level != tc.want {
				t.Errorf("%s: %v, want %v\n%v", tc.plan, v.Level, tc.want, v.Reasons)
			}
		})
	}
}
