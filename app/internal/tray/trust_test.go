package tray_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// yes is a confirmation popup whose person says yes to everything.
func yes(context.Context, string, string, string) (bool, error) { return true, nil }

// A click on the menu is untrusted input (on Linux any process of the
// session can send one over D-Bus): every change that raises trust happens
// only after the person's yes, and, where policy.NeedsOwner says so, their
// authentication. Changes that lower trust need neither.
func TestRaisingTrustNeedsTheYes(t *testing.T) {
	errPopup := errors.New("popup failed")
	errAuth := errors.New("authentication cancelled")
	type outcome struct {
		changed  bool
		asked    bool // the confirmation was shown
		authed   bool // authentication was asked for
		errIs    error
		noticeIs string
	}
	confirmNo := func(context.Context, string, string, string) (bool, error) { return false, nil }
	confirmErr := func(context.Context, string, string, string) (bool, error) { return true, errPopup }
	authOK := func(context.Context, string) error { return nil }
	authFail := func(context.Context, string) error { return errAuth }
	type answer struct {
		name    string
		confirm func(context.Context, string, string, string) (bool, error)
		auth    func(context.Context, string) error
	}
	answers := []answer{
		{"no popup", nil, authOK},
		{"the person says no", confirmNo, authOK},
		{"the popup fails", confirmErr, authOK},
		{"yes, no owner authentication on this platform", yes, nil},
		{"yes, authenticated", yes, authOK},
		{"yes, authentication refused", yes, authFail},
	}
	changes := []struct {
		name   string
		from   policy.Autonomy
		killed bool
		act    tray.Action
		owner  bool // needs the owner's authentication
	}{
		{"level 0 to 1", policy.AskAll, false, tray.Action{Kind: tray.SetLevel, Level: policy.SmartDefault}, false},
		{"level 1 to 2", policy.SmartDefault, false, tray.Action{Kind: tray.SetLevel, Level: policy.FullAuto}, true},
		{"level 0 to 2", policy.AskAll, false, tray.Action{Kind: tray.SetLevel, Level: policy.FullAuto}, true},
		{"resume after a kill", policy.SmartDefault, true, tray.Action{Kind: tray.Resume}, true},
	}
	for _, ch := range changes {
		for _, an := range answers {
			t.Run(ch.name+"/"+an.name, func(t *testing.T) {
				var asked, authed atomic.Int32
				var confirm func(context.Context, string, string, string) (bool, error)
				if an.confirm != nil {
					confirm = func(ctx context.Context, title, text, yesLabel string) (bool, error) {
						asked.Add(1)
						if title == "" || text == "" || yesLabel == "" {
							t.Errorf("confirmation %q %q %q", title, text, yesLabel)
						}
						return an.confirm(ctx, title, text, yesLabel)
					}
				}
				var auth func(context.Context, string) error
				if an.auth != nil {
					auth = func(ctx context.Context, reason string) error {
						authed.Add(1)
						if reason == "" {
							t.Error("authentication with no reason")
						}
						return an.auth(ctx, reason)
					}
				}
				rg := newRig(t, rigOptions{autonomy: ch.from, confirm: confirm, auth: auth})
				if ch.killed {
					rg.g.Kill()
				}
				err := rg.app.Do(context.Background(), ch.act)

				want := outcome{asked: an.confirm != nil}
				switch {
				case an.confirm == nil:
					want.errIs, want.noticeIs = tray.ErrNotConfirmed, "not confirmed"
				case an.name == "the person says no", an.name == "the popup fails":
					want.errIs, want.noticeIs = tray.ErrNotConfirmed, "not confirmed"
				case ch.owner && an.auth != nil:
					want.authed = true
					if an.name == "yes, authentication refused" {
						want.errIs, want.noticeIs = tray.ErrNotAuthenticated, "not authenticated"
					} else {
						want.changed = true
					}
				default:
					want.changed = true
				}

				st := rg.g.Status()
				changed := !st.Killed && st.Autonomy == int(ch.act.Level)
				if ch.killed {
					changed = !st.Killed
				}
				if changed != want.changed {
					t.Errorf("changed = %v, want %v (err %v, status %+v)", changed, want.changed, err, st)
				}
				if got := asked.Load() > 0; got != want.asked || asked.Load() > 1 {
					t.Errorf("asked %d times, want %v", asked.Load(), want.asked)
				}
				if got := authed.Load() > 0; got != want.authed || authed.Load() > 1 {
					t.Errorf("authentication asked %d times, want %v", authed.Load(), want.authed)
				}
				if want.errIs != nil && !errors.Is(err, want.errIs) || want.errIs == nil && err != nil {
					t.Errorf("err %v, want %v", err, want.errIs)
				}
				if lvl, saved := savedLevel(t, rg.settings); saved != (want.changed && !ch.killed) || saved && lvl != ch.act.Level {
					t.Errorf("settings saved %v at %v", saved, lvl)
				}
				if want.noticeIs != "" {
					rg.r.await(t, "the notice "+want.noticeIs, func(m tray.Menu) bool {
						return strings.Contains(m.Items[0].Title, want.noticeIs)
					})
				}
			})
		}
	}
}

// Lowering trust needs no popup: lower levels and the kill switch work with
// none at all.
func TestLoweringTrustAsksNothing(t *testing.T) {
	rg := newRig(t, rigOptions{autonomy: policy.FullAuto, confirm: func(context.Context, string, string, string) (bool, error) {
		t.Error("asked to confirm a change that lowers trust")
		return false, nil
	}})
	for _, lvl := range []policy.Autonomy{policy.SmartDefault, policy.AskAll} {
		if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.SetLevel, Level: lvl}); err != nil {
			t.Fatal(err)
		}
		if got := rg.g.Status().Autonomy; got != int(lvl) {
			t.Errorf("at %d, want %v", got, lvl)
		}
	}
	rg.app.Click(context.Background(), tray.Action{Kind: tray.Kill})
	rg.r.await(t, "killed", func(m tray.Menu) bool { return m.Icon == tray.IconKilled })
}

// One confirmation is open at a time: clicks that arrive meanwhile (a
// process clicking the menu over D-Bus in a loop) are dropped, not queued
// as popups for the person to wade through.
func TestOneConfirmationAtATime(t *testing.T) {
	open := make(chan struct{})
	answer := make(chan bool)
	var calls atomic.Int32
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, confirm: func(ctx context.Context, _, _, _ string) (bool, error) {
		calls.Add(1)
		close(open)
		select {
		case ok := <-answer:
			return ok, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}})
	first := make(chan error, 1)
	go func() {
		first <- rg.app.Do(context.Background(), tray.Action{Kind: tray.SetLevel, Level: policy.FullAuto})
	}()
	<-open
	rg.g.Kill()
	for _, act := range []tray.Action{{Kind: tray.SetLevel, Level: policy.FullAuto}, {Kind: tray.Resume}} {
		if err := rg.app.Do(context.Background(), act); !errors.Is(err, tray.ErrConfirmationOpen) {
			t.Errorf("%+v while a confirmation is open: %v", act, err)
		}
	}
	answer <- true
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d confirmations shown, want 1", n)
	}
	if st := rg.g.Status(); st.Autonomy != int(policy.FullAuto) || !st.Killed {
		t.Errorf("status %+v: want Level 2 (confirmed) and still killed (its click was dropped)", st)
	}
}

// A yes to Resume is a yes to the stop the person saw: if the kill switch is
// tripped again while they are asked, nothing resumes.
func TestResumeIsForTheKillItWasAskedAbout(t *testing.T) {
	var rg *rig
	rg = newRig(t, rigOptions{autonomy: policy.SmartDefault, confirm: func(context.Context, string, string, string) (bool, error) {
		rg.g.Kill() // the hotkey, or `airlock kill`, while the popup is open
		return true, nil
	}})
	rg.g.Kill()
	if err := rg.app.Do(context.Background(), tray.Action{Kind: tray.Resume}); !errors.Is(err, tray.ErrKilledAgain) {
		t.Errorf("err %v, want ErrKilledAgain", err)
	}
	if !rg.g.Status().Killed {
		t.Error("resumed after a second kill the person was not asked about")
	}
	rg.r.await(t, "the notice", func(m tray.Menu) bool { return strings.Contains(m.Items[0].Title, "tripped again") })
}
