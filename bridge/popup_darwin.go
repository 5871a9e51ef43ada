//go:build darwin

package bridge

import (
	"context"
	"time"

	"github.com/progrium/darwinkit/dispatch"
	"github.com/progrium/darwinkit/helper/action"
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// On macOS popups are NSAlerts shown without a modal loop (MACOS.md,
// "Approval popup"). Every AppKit object is made and touched only in blocks
// on the main queue, which the menu-bar app's main loop (systray.Run)
// serves; the calling goroutine waits on a channel. So these functions must
// not be called on the main thread, and in a process whose main loop does
// not run (airlock serve) they would wait until ctx ends and deny.
//
// The buttons: the "no" button is first, so it is the default, and has
// Return as its key equivalent; Escape is caught by a local key monitor and
// also says no. The "yes" button has no key equivalent, refuses first
// responder (Tab cannot reach it) and is enabled only after the arm delay.
// The countdown is a label in the accessory view, updated every second.

func popupsAvailable() error { return nil }

func prepareApprovalPopup() {}

func showApproval(ctx context.Context, p ApprovalPopup) (choice, error) {
	s := alertSpec{
		title:    ApprovalTitle,
		message:  p.summary() + ".",
		info:     "Deny is the default: Return, Escape and the time running out deny. Approve runs every action listed below.",
		details:  p.details(time.Now()),
		yes:      labelApprove,
		no:       labelDeny,
		arm:      p.ArmDelay,
		deadline: p.Deadline,
		critical: true,
	}
	if p.AllowRemember && !hasConfirm(p.Items) {
		s.remember = "Allow again this session"
	}
	r, err := showAlert(ctx, s)
	switch {
	case err != nil || !r.yes:
		return choiceDeny, err
	case r.remember:
		return choiceApproveRemember, nil
	}
	return choiceApprove, nil
}

func ask(ctx context.Context, q question) (bool, error) {
	s := alertSpec{title: q.title, message: q.title, info: q.text, yes: q.yes, no: q.no, arm: q.arm, critical: true}
	if dl, ok := ctx.Deadline(); ok {
		s.deadline = dl
	}
	r, err := showAlert(ctx, s)
	return r.yes && err == nil, err
}

func askText(ctx context.Context, title, prompt string) (string, bool, error) {
	r, err := showAlert(ctx, alertSpec{title: title, message: title, info: prompt, yes: "OK", no: "Cancel", input: true})
	if err != nil || !r.yes {
		return "", false, err
	}
	return r.text, true, nil
}

// alertSpec is one non-modal alert.
type alertSpec struct {
	title, message, info string
	details              string // the scrollable read-only text; "" for none
	yes, no              string // button labels; no is the default
	arm                  time.Duration
	deadline             time.Time // for the countdown; zero: none
	remember             string    // the checkbox's title; "" for none
	critical             bool
	input                bool // a text field; Return submits (yes), Escape cancels
}

type alertResult struct {
	yes, remember bool
	text          string
}

// alertUI is a shown alert. Its fields are touched only on the main queue.
type alertUI struct {
	alert     appkit.Alert
	yes       appkit.Button
	countdown appkit.TextField
	input     appkit.TextField
	monitor   objc.Object
	closed    bool
}

// escapeKeyCode is the Escape key's virtual key code (kVK_Escape).
const escapeKeyCode = 53

func showAlert(ctx context.Context, s alertSpec) (alertResult, error) {
	results := make(chan alertResult, 1)
	ui := &alertUI{}
	main := dispatch.MainQueue()
	shown := make(chan struct{})
	main.DispatchAsync(func() {
		ui.show(s, results)
		close(shown)
	})

	// The arm delay counts from when the window is on screen, not from
	// when it was asked for: a busy main queue must not shorten it.
	var arm *time.Timer
	defer func() {
		if arm != nil {
			arm.Stop()
		}
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-shown:
			shown = nil // a nil channel never fires again
			arm = time.AfterFunc(s.arm, func() {
				main.DispatchAsync(func() {
					if !ui.closed && !ui.yes.IsNil() {
						ui.yes.SetEnabled(true)
					}
				})
			})
		case r := <-results:
			return r, nil
		case <-tick.C:
			if s.deadline.IsZero() {
				continue
			}
			text := timeLeft(s.deadline, time.Now())
			main.DispatchAsync(func() {
				if !ui.closed && !ui.countdown.IsNil() {
					ui.countdown.SetStringValue(text)
				}
			})
		case <-ctx.Done():
			main.DispatchAsync(ui.close)
			return alertResult{}, ctx.Err()
		}
	}
}

// show builds and shows the alert; it runs on the main queue.
func (ui *alertUI) show(s alertSpec, results chan<- alertResult) {
	objc.WithAutoreleasePool(func() {
		a := appkit.NewAlert()
		a.Retain() // released by close
		ui.alert = a
		if s.critical {
			a.SetAlertStyle(appkit.AlertStyleCritical)
		} else {
			a.SetAlertStyle(appkit.AlertStyleWarning)
		}
		a.SetMessageText(s.message)
		a.SetInformativeText(s.info)

		no := a.AddButtonWithTitle(s.no)
		yes := a.AddButtonWithTitle(s.yes)
		ui.yes = yes
		if s.input {
			yes.SetKeyEquivalent("\r")
			no.SetKeyEquivalent("")
		} else {
			no.SetKeyEquivalent("\r")
			yes.SetKeyEquivalent("")
			yes.SetRefusesFirstResponder(true)
			yes.SetEnabled(s.arm <= 0)
		}
		if s.remember != "" {
			a.SetShowsSuppressionButton(true)
			a.SuppressionButton().SetTitle(s.remember)
			a.SuppressionButton().SetState(appkit.ControlStateValueOff)
		}

		const width = 560.0
		height := 24.0
		if s.details != "" {
			height += 300
		}
		view := appkit.NewViewWithFrame(rect(0, 0, width, height))
		if s.details != "" {
			scroll := appkit.NewScrollViewWithFrame(rect(0, 0, width, 296))
			scroll.SetHasVerticalScroller(true)
			scroll.SetHasHorizontalScroller(false)
			scroll.SetBorderType(appkit.BezelBorder)
			text := appkit.NewTextViewWithFrame(rect(0, 0, width, 296))
			text.SetEditable(false)
			text.SetSelectable(true)
			text.SetVerticallyResizable(true)
			text.SetAutoresizingMask(appkit.ViewWidthSizable)
			text.SetFont(appkit.Font_MonospacedSystemFontOfSizeWeight(11, appkit.FontWeightRegular))
			text.SetString(s.details)
			scroll.SetDocumentView(text)
			view.AddSubview(scroll)
		}
		if s.input {
			ui.input = appkit.TextField_TextFieldWithString("")
			ui.input.SetFrame(rect(0, 0, width, 24))
			view.AddSubview(ui.input)
		} else {
			ui.countdown = appkit.TextField_LabelWithString(timeLeft(s.deadline, time.Now()))
			ui.countdown.SetFrame(rect(0, height-20, width, 20))
			view.AddSubview(ui.countdown)
		}
		a.SetAccessoryView(view)
		a.Layout()

		finish := func(yes bool) {
			if ui.closed {
				return
			}
			r := alertResult{yes: yes}
			if yes && s.remember != "" {
				r.remember = a.SuppressionButton().State() == appkit.ControlStateValueOn
			}
			if yes && s.input {
				r.text = ui.input.StringValue()
			}
			ui.close()
			select {
			case results <- r:
			default:
			}
		}
		action.Set(no, func(objc.Object) { finish(false) })
		action.Set(yes, func(objc.Object) { finish(true) })

		w := a.Window()
		w.SetTitle(s.title)
		w.SetLevel(appkit.ModalPanelWindowLevel)
		w.SetCollectionBehavior(appkit.WindowCollectionBehaviorCanJoinAllSpaces | appkit.WindowCollectionBehaviorFullScreenAuxiliary)
		ui.monitor = appkit.Event_AddLocalMonitorForEventsMatchingMaskHandler(appkit.EventMaskKeyDown, func(e appkit.Event) appkit.Event {
			if ui.closed || e.KeyCode() != escapeKeyCode {
				return e
			}
			if ew := e.Window(); ew.IsNil() || ew.WindowNumber() != w.WindowNumber() {
				return e
			}
			finish(false)
			return appkit.Event{} // swallowed
		})
		w.MakeKeyAndOrderFront(nil)
		w.OrderFrontRegardless()
		if s.input {
			w.MakeFirstResponder(ui.input)
		}
	})
}

// close takes the alert off the screen at once and releases it in a later
// block, as close may run inside one of its buttons' actions. It runs on
// the main queue; only its first call does anything.
func (ui *alertUI) close() {
	if ui.closed || ui.alert.IsNil() {
		ui.closed = true
		return
	}
	ui.closed = true
	if !ui.monitor.IsNil() {
		appkit.Event_RemoveMonitor(ui.monitor)
	}
	ui.alert.Window().OrderOut(nil)
	a := ui.alert
	dispatch.MainQueue().DispatchAsync(func() { a.Release() })
}

func rect(x, y, w, h float64) foundation.Rect {
	return foundation.Rect{Origin: foundation.Point{X: x, Y: y}, Size: foundation.Size{Width: w, Height: h}}
}
