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
// The buttons: the "no" button (Deny) is added first, so it is NSAlert's
// default: the rightmost, drawn as the default, answering Return, and the
// window's initial first responder; Escape is caught by a local key
// monitor and also says no. The "yes" button (Approve, or a confirmation's
// yes) sits left of it, has no key equivalent, refuses first responder (Tab
// cannot reach it) and is enabled only after the arm delay. It and the
// "allow again" box raise trust, so they count only a press that
// PersonPressed says came from the person's own mouse: an accessibility
// press or a click posted by another process leaves the popup open, says
// so, and answers nothing. The countdown is a label updated every second.
//
// Airlock is an agent app (LSUIElement): it is not active while the person
// works elsewhere, and a window it shows without activating gets no
// keyboard focus, so Return and Escape would go to the app in front. So it
// asks to be activated before showing a popup: NSApp's activate on macOS 14
// and later, activateIgnoringOtherApps: before. Since macOS 14 activation is
// cooperative: the system may decline a request from an app the person is
// not using (it grants it when the active app yields, or the person clicked
// Airlock's menu). When it declines, the popup still appears above other
// windows (the modal panel level), and the person's first click on it makes
// it key; until then Return and Escape go to the other app, which can only
// leave the popup unanswered (its deadline denies), never approve it.

// ruleOffered says whether the approval popup offers "always allow this
// exact command here" (ApprovalPopup.AllowRule) on this platform: a second
// checkbox in the alert's accessory view, under the text (the alert's own
// checkbox is "allow again this session"). Ticking it raises trust, so it
// counts only the person's own mouse, as the other box does, and the gate
// asks once more before it keeps the rule.
const ruleOffered = true

const popupName = "macOS alert"

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
		guarded:  true,
	}
	if p.AllowRemember && !hasConfirm(p.Items) {
		s.remember = "Allow again this session"
	}
	if p.AllowRule != "" && !hasConfirm(p.Items) {
		s.rule = "Always allow this exact command here (kept in your settings: " + shownLine(p.AllowRule) + "; asked once more)"
	}
	if p.AllowEdit {
		s.edit = labelEdit
		s.info += " Edit… opens the text to change it; your edit is then judged from scratch, as your own plan."
	}
	r, err := showAlert(ctx, s)
	switch {
	case err != nil:
		return choiceDeny, err
	case r.edit:
		return choiceEdit, nil
	case !r.yes:
		return choiceDeny, nil
	case r.rule:
		return choiceApproveRule, nil
	case r.remember:
		return choiceApproveRemember, nil
	}
	return choiceApprove, nil
}

// editText shows text in an editable text view of an alert; "Use my edit"
// (guarded: only the person's own mouse) returns what the view holds then.
// Return inserts a new line there; Escape and Cancel cancel.
func editText(ctx context.Context, p EditPopup, text string) (string, bool, error) {
	what := orWhat(p.What)
	s := alertSpec{
		title:    EditTitle,
		message:  "Edit the " + what + " from " + shownLine(orUnknown(p.Client)),
		info:     "Use my edit: Airlock judges your edit from scratch, as your own " + what + ", before anything runs. Cancel (Escape) goes back.",
		details:  text,
		editable: true,
		yes:      labelUseEdit,
		no:       labelCancel,
		deadline: p.Deadline,
		guarded:  true,
		wide:     true,
	}
	r, err := showAlert(ctx, s)
	if err != nil || !r.yes {
		return "", false, err
	}
	return r.text, true, nil
}

func ask(ctx context.Context, q question) (bool, error) {
	s := alertSpec{title: q.title, message: q.title, info: q.text, yes: q.yes, no: q.no, arm: q.arm, critical: true, guarded: true}
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

func showText(ctx context.Context, title, text string) error {
	_, err := showAlert(ctx, alertSpec{title: title, message: title, details: text, no: "Close", wide: true})
	return err
}

// alertSpec is one non-modal alert.
type alertSpec struct {
	title, message, info string
	details              string // the scrollable read-only text; "" for none
	yes, no              string // button labels; no is the default; yes "" for none
	arm                  time.Duration
	deadline             time.Time // for the countdown; zero: none
	remember             string    // the checkbox's title; "" for none
	rule                 string    // a second checkbox's title, in the accessory view; "" for none
	critical             bool
	input                bool   // a text field; Return submits (yes), Escape cancels
	guarded              bool   // yes, edit and remember count only the person's own mouse (PersonPressed)
	wide                 bool   // a larger text view (the history, the editor)
	edit                 string // a third button's title (Edit…), left of yes; "" for none
	editable             bool   // details may be edited; Return inserts a new line, and yes returns the text
}

type alertResult struct {
	yes, remember bool
	rule          bool   // the second checkbox (alertSpec.rule) was ticked
	edit          bool   // the edit button was pressed
	text          string // what was typed (input, editable)
}

// alertUI is a shown alert. Its fields are touched only on the main queue.
type alertUI struct {
	alert     appkit.Alert
	yes       appkit.Button
	edit      appkit.Button
	countdown appkit.TextField // the countdown, and why a press did not count
	input     appkit.TextField
	editor    appkit.TextView // the editable details (editable)
	monitor   objc.Object
	guard     pressGuard // the yes button's: armed with it
	boxGuard  pressGuard // the "allow again" box's: armed when shown
	ruleGuard pressGuard // the "always allow here" box's: armed when shown
	editGuard pressGuard // the edit button's: armed when shown
	closed    bool
	authing   bool            // the owner's authentication is being asked for, after a refused press
	ctx       context.Context // showAlert's: ends the authentication with the alert
}

// escapeKeyCode is the Escape key's virtual key code (kVK_Escape).
const escapeKeyCode = 53

func showAlert(ctx context.Context, s alertSpec) (alertResult, error) {
	results := make(chan alertResult, 1)
	ui := &alertUI{ctx: ctx}
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
						ui.guard.arm()
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

// activate asks macOS to make Airlock the active app, so that its popup
// gets the keyboard (see the comment at the top).
func activate() {
	app := appkit.Application_SharedApplication()
	if app.RespondsToSelector(objc.Sel("activate")) { // macOS 14 and later
		objc.Call[objc.Void](app, objc.Sel("activate"))
		return
	}
	app.ActivateIgnoringOtherApps(true)
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
		if s.yes != "" {
			ui.yes = a.AddButtonWithTitle(s.yes)
		}
		if s.edit != "" {
			// Leftmost, away from the default; not reachable by Tab or a
			// key, and enabled at once: it answers nothing by itself.
			ui.edit = a.AddButtonWithTitle(s.edit)
			ui.edit.SetKeyEquivalent("")
			ui.edit.SetRefusesFirstResponder(true)
			ui.editGuard.arm()
		}
		switch {
		case s.editable:
			// Return belongs to the text; only the mouse answers.
			no.SetKeyEquivalent("")
			ui.yes.SetKeyEquivalent("")
			ui.yes.SetRefusesFirstResponder(true)
			ui.yes.SetEnabled(true)
			ui.guard.arm()
		case s.input:
			ui.yes.SetKeyEquivalent("\r")
			no.SetKeyEquivalent("")
		case s.yes != "":
			no.SetKeyEquivalent("\r")
			ui.yes.SetKeyEquivalent("")
			ui.yes.SetRefusesFirstResponder(true)
			ui.yes.SetEnabled(s.arm <= 0)
			if s.arm <= 0 {
				ui.guard.arm()
			}
		default:
			no.SetKeyEquivalent("\r")
		}
		var remember appkit.Button
		if s.remember != "" {
			a.SetShowsSuppressionButton(true)
			remember = a.SuppressionButton()
			remember.SetTitle(s.remember)
			remember.SetState(appkit.ControlStateValueOff)
			remember.SetRefusesFirstResponder(true)
			ui.boxGuard.arm()
		}

		width, textHeight := 560.0, 296.0
		if s.wide {
			width, textHeight = 760.0, 480.0
		}
		height := 24.0
		if s.details != "" {
			height += textHeight + 4
		}
		ruleAt := height - 24 // under the countdown, above the text
		if s.rule != "" {
			height += 24
		}
		view := appkit.NewViewWithFrame(rect(0, 0, width, height))
		if s.details != "" {
			// A scroll view whose document view is a text view that grows
			// with its text and follows the scroll view's width.
			scroll := appkit.TextView_ScrollableTextView()
			scroll.SetFrame(rect(0, 0, width, textHeight))
			scroll.SetHasHorizontalScroller(false)
			scroll.SetBorderType(appkit.BezelBorder)
			text := appkit.TextViewFrom(scroll.DocumentView().Ptr())
			text.SetEditable(s.editable)
			text.SetSelectable(true)
			text.SetFont(appkit.Font_MonospacedSystemFontOfSizeWeight(11, appkit.FontWeightRegular))
			if s.editable {
				// Plain text exactly as typed: no smart quotes or dashes, no
				// replacements or corrections that would change a plan
				// behind the person's back.
				text.SetRichText(false)
				text.SetAutomaticQuoteSubstitutionEnabled(false)
				text.SetAutomaticDashSubstitutionEnabled(false)
				text.SetAutomaticTextReplacementEnabled(false)
				text.SetAutomaticSpellingCorrectionEnabled(false)
				text.SetAutomaticTextCompletionEnabled(false)
				text.SetAutomaticLinkDetectionEnabled(false)
				text.SetAutomaticDataDetectionEnabled(false)
				text.SetSmartInsertDeleteEnabled(false)
				text.SetAllowsUndo(true)
				ui.editor = text
			}
			text.SetString(s.details)
			view.AddSubview(scroll)
		}
		var ruleBox appkit.Button
		if s.rule != "" {
			ruleBox = appkit.NewButtonWithFrame(rect(0, ruleAt, width, 20))
			ruleBox.SetButtonType(appkit.ButtonTypeSwitch)
			ruleBox.SetTitle(s.rule)
			ruleBox.SetState(appkit.ControlStateValueOff)
			ruleBox.SetRefusesFirstResponder(true)
			view.AddSubview(ruleBox)
			ui.ruleGuard.arm()
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
				r.remember = remember.State() == appkit.ControlStateValueOn
			}
			if yes && s.rule != "" {
				r.rule = ruleBox.State() == appkit.ControlStateValueOn
			}
			if yes && s.input {
				r.text = ui.input.StringValue()
			}
			if yes && s.editable && !ui.editor.IsNil() {
				r.text = ui.editor.String()
			}
			ui.close()
			select {
			case results <- r:
			default:
			}
		}
		finishEdit := func() {
			if ui.closed {
				return
			}
			ui.close()
			select {
			case results <- alertResult{edit: true}:
			default:
			}
		}
		// refused says in the popup why a press did not count.
		refused := func(what string, err error) {
			if !ui.countdown.IsNil() {
				ui.countdown.SetTextColor(appkit.Color_SystemRedColor())
				ui.countdown.SetStringValue(what + " did not count: " + err.Error() + ". Click it yourself.")
			}
		}
		action.Set(no, func(objc.Object) { finish(false) })
		if s.yes != "" {
			yes := ui.yes
			action.Set(yes, func(objc.Object) {
				if s.guarded {
					if err := ui.guard.check(yes.View); err != nil {
						refused(s.yes, err)
						// The system's own prompt instead: no process can
						// post events to it (pressOffer).
						if offer := pressOffer(s.yes, OwnerAuthAvailable(), ui.authing); offer != "" {
							ui.authing = true
							ui.countdown.SetStringValue(offer)
							go func() {
								aerr := Authenticate(ui.ctx, offer)
								dispatch.MainQueue().DispatchAsync(func() {
									ui.authing = false
									if aerr == nil {
										finish(true)
									}
								})
							}()
						}
						return
					}
				}
				finish(true)
			})
		}
		if s.edit != "" {
			edit := ui.edit
			action.Set(edit, func(objc.Object) {
				if s.guarded {
					if err := ui.editGuard.check(edit.View); err != nil {
						refused(s.edit, err)
						return
					}
				}
				finishEdit()
			})
		}
		if s.rule != "" && s.guarded {
			action.Set(ruleBox, func(objc.Object) {
				if ruleBox.State() != appkit.ControlStateValueOn {
					return // clearing it lowers trust
				}
				if err := ui.ruleGuard.check(ruleBox.View); err != nil {
					ruleBox.SetState(appkit.ControlStateValueOff)
					refused("Always allow here", err)
				}
			})
		}
		if s.remember != "" && s.guarded {
			action.Set(remember, func(objc.Object) {
				if remember.State() != appkit.ControlStateValueOn {
					return // clearing it lowers trust
				}
				if err := ui.boxGuard.check(remember.View); err != nil {
					remember.SetState(appkit.ControlStateValueOff)
					refused(s.remember, err)
				}
			})
		}

		w := a.Window()
		w.SetTitle(s.title)
		w.SetLevel(appkit.ModalPanelWindowLevel)
		w.SetCollectionBehavior(appkit.WindowCollectionBehaviorCanJoinAllSpaces | appkit.WindowCollectionBehaviorFullScreenAuxiliary)
		// An alert's window is a panel, and panels hide when their app is
		// deactivated: a popup must stay on screen until it is answered.
		w.SetHidesOnDeactivate(false)
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
		w.Center()
		activate()
		w.MakeKeyAndOrderFront(nil)
		w.OrderFrontRegardless()
		switch {
		case s.input:
			w.MakeFirstResponder(ui.input)
		case s.editable && !ui.editor.IsNil():
			w.MakeFirstResponder(ui.editor)
		default:
			w.SetInitialFirstResponder(no)
			w.MakeFirstResponder(no)
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
