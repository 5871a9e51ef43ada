package tray_test

import (
	"context"
	"errors"
	"testing"

	"github.com/airlockhq/airlock/app/internal/tray"
)

// "Dashboard…" is in the menu whatever the state, clickable where the app
// can open the dashboard.
func TestBuildDashboardItem(t *testing.T) {
	for _, can := range []bool{false, true} {
		for _, s := range []tray.State{{CanOpenDashboard: can}, {Killed: true, CanOpenDashboard: can}} {
			var found []tray.Item
			for _, it := range tray.Build(s).Items {
				if it.Action.Kind == tray.OpenDashboard {
					found = append(found, it)
				}
			}
			if len(found) != 1 || found[0].Title != tray.DashboardTitle || found[0].Enabled != can {
				t.Errorf("state %+v: dashboard items %+v, want one %q enabled %v", s, found, tray.DashboardTitle, can)
			}
		}
	}
}

// Clicking it opens the dashboard through the app; a failure says what
// failed, and with no opener nothing happens but an error.
func TestOpenDashboard(t *testing.T) {
	opened := 0
	errBrowser := errors.New("xdg-open: no browser")
	var fail error
	app := tray.New(tray.Config{OpenDashboard: func(context.Context) error { opened++; return fail }})
	if err := app.Do(context.Background(), tray.Action{Kind: tray.OpenDashboard}); err != nil || opened != 1 {
		t.Errorf("Do: %v, opened %d times", err, opened)
	}
	fail = errBrowser
	if err := app.Do(context.Background(), tray.Action{Kind: tray.OpenDashboard}); !errors.Is(err, errBrowser) {
		t.Errorf("a failing opener: %v", err)
	}
	if err := tray.New(tray.Config{}).Do(context.Background(), tray.Action{Kind: tray.OpenDashboard}); err == nil {
		t.Error("no opener, and no error")
	}
}
