package execute_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/bridge"
)

// A launch is rated again right before it starts, with the handler and the
// file as they are then: above the level it was assessed at, nothing starts.
func TestLaunchCheckedAgain(t *testing.T) {
	runner := bridge.Handler{ID: "zutty", Name: "zutty", Program: "/usr/bin/zutty"}
	planted := bridge.Handler{ID: "org.gnome.Evince", Name: "Document Viewer", Program: "/home/x/.local/bin/evince", UserOwned: true}
	for _, tc := range []struct {
		name     string
		src      string
		content  string
		mode     os.FileMode
		handlers map[string]bridge.Handler
		assessed level.Level
		wantErr  bool
	}{
		{"an inert file in a viewer", `OPEN_FILE "~/Documents/notes"`, "hello", 0o644, nil, level.Caution, false},
		{"the file became executable", `OPEN_FILE "~/Documents/notes"`, "hello", 0o755, nil, level.Caution, true},
		{"the file became a script", `OPEN_FILE "~/Documents/notes"`, "#!/bin/sh\nid\n", 0o644, nil, level.Caution, true},
		{"a script the person approved to open in a viewer", `OPEN_FILE "~/Documents/notes"`, "#!/bin/sh\n", 0o755, nil, level.Dangerous, false},
		{"the default app became a terminal", `OPEN_FILE "~/Documents/notes"`, "hello", 0o644, map[string]bridge.Handler{"": runner}, level.Caution, true},
		{"the default app became a terminal, approved as a viewer", `OPEN_FILE "~/Documents/notes"`, "hello", 0o644, map[string]bridge.Handler{"": runner}, level.Dangerous, true},
		{"a terminal the person approved", `OPEN_FILE "~/Documents/notes"`, "hello", 0o644, map[string]bridge.Handler{"": runner}, level.Destructive, false},
		{"a viewer planted in the home folder", `OPEN_FILE "~/Documents/notes"`, "hello", 0o644, map[string]bridge.Handler{"": planted}, level.Caution, true},
		{"an app planted in the home folder", `OPEN_APP "evince"`, "", 0o644, map[string]bridge.Handler{"evince": planted}, level.Caution, true},
		{"a web page in a browser", `OPEN_URL "https://example.com/"`, "", 0o644, nil, level.Caution, false},
		{"a web page in a terminal", `OPEN_URL "https://example.com/"`, "", 0o644, map[string]bridge.Handler{"web": runner}, level.Caution, true},
		{"a file URL is its file", `OPEN_URL "file://HOME/Documents/notes"`, "#!/bin/sh\n", 0o644, nil, level.Caution, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, "Documents/notes", tc.content)
			if err := os.Chmod(filepath.Join(s.home, "Documents/notes"), tc.mode); err != nil {
				t.Fatal(err)
			}
			r := &recorder{handlers: tc.handlers}
			if tc.handlers != nil {
				for k, v := range viewers {
					if _, ok := r.handlers[k]; !ok {
						r.handlers[k] = v
					}
				}
			}
			s.ex.Desktop = r
			a := s.parse(t, tc.src)
			_, err := s.ex.RunAssessed(context.Background(), a, tc.assessed)
			if tc.wantErr {
				if !errors.Is(err, execute.ErrLaunchChanged) {
					t.Fatalf("RunAssessed: %v, want ErrLaunchChanged", err)
				}
				if len(r.calls) != 0 {
					t.Fatalf("launched anyway: %q", r.calls)
				}
				return
			}
			if err != nil || len(r.calls) != 1 {
				t.Fatalf("RunAssessed: %v, calls %q; want one launch", err, r.calls)
			}
		})
	}
}
