package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"sync/atomic"
	"time"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/logs"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/spf13/pflag"
)

// cmdDashboard is `airlock dashboard`: it asks the running app to open the
// dashboard in the browser (the app opens it itself: the link never passes
// through this process), or with --print prints a link that opens a
// read-only session. The socket is open to every program of the user,
// agents included, so that printed link can show no more than `airlock
// history` already does, and changes nothing.
// dashboardFlags declares airlock dashboard's flags.
func dashboardFlags(fs *pflag.FlagSet) runFunc {
	printLink := fs.Bool("print", false, "print a one-time, read-only link instead of opening the browser")
	return func(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, stderr io.Writer) error {
		return cmdDashboard(ctx, fs, printLink, stdout, stderr)
	}
}

func cmdDashboard(ctx context.Context, fs *pflag.FlagSet, printLink *bool, stdout, stderr io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	raw, err := c.Call(ctx, "dashboard", ipc.DashboardParams{Print: *printLink}, nil)
	if err != nil {
		return err
	}
	var res ipc.DashboardResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("reading the gate's answer: %w", err)
	}
	if *printLink {
		fmt.Fprintln(stdout, res.URL)
		fmt.Fprintf(stderr, "airlock: a read-only link: it opens the dashboard once, within %s. "+
			"To change a setting there, open it from Airlock's menu (Dashboard…) or with `airlock dashboard`.\n",
			dashboard.OpenCodeLifetime)
		return nil
	}
	fmt.Fprintf(stdout, "airlock: opened the dashboard in your browser (%s)\n", res.Address)
	return nil
}

// dashLink is the menu-bar app's dashboard as the socket's handler reaches
// it: empty until the dashboard serves, and always in `airlock serve`,
// which has none.
type dashLink struct{ p atomic.Pointer[dashEnd] }

func (l *dashLink) get() *dashEnd {
	if l == nil {
		return nil
	}
	return l.p.Load()
}

// dashEnd is a serving dashboard and the opener of the person's browser.
type dashEnd struct {
	srv     *dashboard.Server
	openURL func(ctx context.Context, url string) error
}

// openTimeout bounds how long opening the browser may take.
const openTimeout = 30 * time.Second

// openBrowser opens the dashboard in the person's browser with a link to a
// full session, minted for this opening only, asked for by from (the menu,
// or a socket client). The link goes to the opener and nowhere else: an
// error that quotes it is rewritten without its code.
func (d *dashEnd) openBrowser(ctx context.Context, from dashboard.Asker) error {
	link, err := d.srv.Link(from)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), openTimeout)
	defer cancel()
	if err := d.openURL(ctx, link); err != nil {
		return errors.New(strings.ReplaceAll(err.Error(), link, d.srv.Address()+"open?code=…"))
	}
	return nil
}

// errNoDashboard is the socket's answer where there is no dashboard.
var errNoDashboard = &ipc.RPCError{Code: ipc.CodeServerError,
	Message: "this gate has no dashboard: it comes with the menu-bar app (airlock), not airlock serve"}

// Dashboard answers the socket's dashboard method. Opening hands the link
// to the app's own opener, never to the client; a client that asks for a
// link to print gets a read-only one.
func (h gateHandler) Dashboard(ctx context.Context, p ipc.DashboardParams) (ipc.DashboardResult, error) {
	d := h.dash.get()
	if d == nil {
		return ipc.DashboardResult{}, errNoDashboard
	}
	res := ipc.DashboardResult{Address: d.srv.Address()}
	if p.Print {
		link, err := d.srv.Link(dashboard.ClientPrint)
		res.URL = link
		return res, err
	}
	if err := d.openBrowser(ctx, dashboard.ClientOpen); err != nil {
		log.Printf("dashboard: opening it in the browser: %v", err)
		return res, &ipc.RPCError{Code: ipc.CodeServerError,
			Message: "the dashboard could not be opened in the browser (the app's log says why); `airlock dashboard --print` prints a read-only link"}
	}
	res.Opened = true
	return res, nil
}

// startDashboard serves the dashboard of the menu-bar app until ctx ends,
// and makes it reachable from the socket. A dashboard that cannot start is
// logged and left out: the menu and the socket still work.
func startDashboard(ctx context.Context, b *builtGate, trust *tray.Trust, openURL func(ctx context.Context, url string) error) *dashEnd {
	var automations dashboard.Automations
	if b.book != nil {
		automations = bookAutomations{b.book}
	}
	srv, err := dashboard.Listen(dashboard.Config{
		History: b.store,
		Status: func() dashboard.Status {
			st := b.gate.Status()
			return dashboard.Status{Autonomy: st.Autonomy, Killed: st.Killed}
		},
		Settings: func() dashboard.Settings {
			s, roots, _ := b.force.current()
			return dashboard.Settings{AllowedApps: s.AllowedApps, Roots: roots, Rules: ruleViews(s.Rules)}
		},
		RemoveRule:  b.removeAllowRule,
		Automations: automations,
		Confirm:     confirmDashboard(trust),
		Logf:        logs.Printf("dashboard"),
	})
	if err != nil {
		log.Printf("dashboard: %v (the menu and the socket still work)", err)
		return nil
	}
	go func() {
		if err := srv.Serve(); err != nil {
			log.Printf("dashboard: %v", err)
		}
	}()
	context.AfterFunc(ctx, func() { srv.Close() })
	d := &dashEnd{srv: srv, openURL: openURL}
	b.dash.p.Store(d)
	log.Printf("airlock: dashboard serving on %s (menu: Dashboard…, or `airlock dashboard`)", srv.Address())
	return d
}
