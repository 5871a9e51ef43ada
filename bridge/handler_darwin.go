//go:build darwin

package bridge

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/progrium/darwinkit/kernel"
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// FileHandler resolves the application that opens the file at path: app's
// bundle when app is named, else the one Launch Services chooses for the
// file (URLForApplicationToOpenURL:), which is what a double click in
// Finder would start.
func (d *Desktop) FileHandler(path, app string) (Handler, error) {
	action := "open " + path
	if app != "" {
		p, err := appBundle(app)
		if err != nil {
			if path == "" {
				return Handler{}, fmt.Errorf("open %s: %w", app, err)
			}
			return Handler{}, fmt.Errorf("%s with %s: %w", action, app, err)
		}
		return bundleHandler(p), nil
	}
	var appPath string
	objc.WithAutoreleasePool(func() {
		u := appkit.Workspace_SharedWorkspace().URLForApplicationToOpenURL(foundation.URL_FileURLWithPath(path))
		if !u.IsNil() {
			appPath = u.Path()
		}
	})
	if appPath == "" {
		return Handler{}, fmt.Errorf("%s: %w", action, ErrNoHandler)
	}
	return bundleHandler(appPath), nil
}

// URLHandler resolves the application Launch Services chooses for u.
func (d *Desktop) URLHandler(u string) (Handler, error) {
	var appPath string
	objc.WithAutoreleasePool(func() {
		nu := foundation.URL_URLWithString(u)
		if nu.IsNil() {
			return
		}
		if a := appkit.Workspace_SharedWorkspace().URLForApplicationToOpenURL(nu); !a.IsNil() {
			appPath = a.Path()
		}
	})
	if appPath == "" {
		return Handler{}, fmt.Errorf("open %s: %w", u, ErrNoHandler)
	}
	return bundleHandler(appPath), nil
}

// bundleHandler describes the app bundle at p: its identifier, name and
// executable, and whether it lies in the home folder or Launch Services
// knows another copy of it outside the install folders (strayCopy).
func bundleHandler(p string) Handler {
	h := Handler{Path: p, Name: strings.TrimSuffix(lastElem(p), ".app")}
	objc.WithAutoreleasePool(func() {
		b := foundation.Bundle_BundleWithPath(p)
		if b.IsNil() {
			return
		}
		h.ID = b.BundleIdentifier()
		h.Program = b.ExecutablePath()
	})
	if home, err := os.UserHomeDir(); err == nil {
		h.UserOwned = under(p, home)
	}
	if !h.UserOwned && h.ID != "" {
		// Another copy of the app under its identifier, in a folder an
		// action could have written, may be the one Launch Services
		// starts (strayCopy): the app is taken for that one.
		var copies []string
		objc.WithAutoreleasePool(func() {
			for _, u := range appkit.Workspace_SharedWorkspace().URLsForApplicationsWithBundleIdentifier(h.ID) {
				if !u.IsNil() {
					copies = append(copies, u.Path())
				}
			}
		})
		h.UserOwned = strayCopy(copies) != ""
	}
	return h
}

func lastElem(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Launch opens target (a path, a URL, or "" for none) with exactly the app
// h names (openURLs:withApplicationAtURL:…, or openApplicationAtURL:… for
// none). When that app was not already running, what it started is the
// action's: the kill switch (KillEscaped) force-quits it. An app the person
// already had open is never killed; it only shows the file.
func (d *Desktop) Launch(ctx context.Context, h Handler, target string) (Launched, error) {
	action := "open " + target + " with " + h.Name
	if target == "" {
		action = "open " + h.Name
	}
	if err := begin(ctx, action, target); err != nil {
		return Launched{}, err
	}
	if h.Path == "" || h.ID == "" {
		return Launched{}, fmt.Errorf("%s: the app has no bundle identifier", action)
	}
	var wasRunning bool
	objc.WithAutoreleasePool(func() { wasRunning = len(running(h.ID)) > 0 })
	var pid int
	err := await(ctx, action, func(done func(foundation.Error)) {
		cfg := appkit.NewWorkspaceOpenConfiguration()
		appURL := foundation.URL_FileURLWithPath(h.Path)
		handler := func(app appkit.RunningApplication, e foundation.Error) {
			if !app.IsNil() {
				pid = int(app.ProcessIdentifier())
			}
			done(e)
		}
		ws := appkit.Workspace_SharedWorkspace()
		if target == "" {
			ws.OpenApplicationAtURLConfigurationCompletionHandler(appURL, cfg, handler)
			return
		}
		var u foundation.URL
		if strings.HasPrefix(target, "/") {
			u = foundation.URL_FileURLWithPath(target)
		} else {
			u = foundation.URL_URLWithString(target)
		}
		ws.OpenURLsWithApplicationAtURLConfigurationCompletionHandler([]foundation.IURL{u}, appURL, cfg, handler)
	})
	if err != nil {
		return Launched{}, err
	}
	if pid > 0 && !wasRunning {
		launchedMu.Lock()
		launchedApps[pid] = h.ID
		launchedMu.Unlock()
	}
	return Launched{Program: h.Path, PID: pid}, nil
}

// launchedApps holds the apps Launch started that were not running
// before: pid → bundle id. Guarded by launchedMu.
var (
	launchedMu   sync.Mutex
	launchedApps = map[int]string{}
)

// killLaunched force-quits every app Launch started that still runs as the
// same app (its pid still names an app with the bundle id it had, so a
// reused pid is left alone), forgets them, and returns how many it asked to
// quit.
func killLaunched() int {
	launchedMu.Lock()
	apps := launchedApps
	launchedApps = map[int]string{}
	launchedMu.Unlock()
	n := 0
	for pid, id := range apps {
		objc.WithAutoreleasePool(func() {
			ra := appkit.RunningApplication_RunningApplicationWithProcessIdentifier(kernel.Pid(pid))
			if ra.IsNil() || !strings.EqualFold(ra.BundleIdentifier(), id) {
				return
			}
			if ra.ForceTerminate() {
				n++
			}
		})
	}
	return n
}
