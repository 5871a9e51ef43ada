//go:build !darwin && !linux

package bridge

import (
	"context"
	"time"
)

// Outside macOS and Linux the bridge has no desktop: every action answers
// with an *UnavailableError.

func (d *Desktop) Frontmost(context.Context) (App, error) {
	return App{}, &UnavailableError{Action: "tell the frontmost app"}
}
func (d *Desktop) OpenURL(context.Context, string) error {
	return &UnavailableError{Action: "open a URL"}
}
func (d *Desktop) OpenFile(context.Context, string, string) error {
	return &UnavailableError{Action: "open a file"}
}
func (d *Desktop) Reveal(context.Context, string) error {
	return &UnavailableError{Action: "reveal a file"}
}
func (d *Desktop) SetClipboard(context.Context, string) error {
	return &UnavailableError{Action: "set the clipboard"}
}
func (d *Desktop) OpenApp(context.Context, string) error {
	return &UnavailableError{Action: "open an app"}
}
func (d *Desktop) QuitApp(context.Context, string) error {
	return &UnavailableError{Action: "quit an app"}
}
func (d *Desktop) ActivateApp(context.Context, string) error {
	return &UnavailableError{Action: "activate an app"}
}
func (d *Desktop) Notify(context.Context, string, string, string) error {
	return &UnavailableError{Action: "show a notification"}
}
func (d *Desktop) Speak(context.Context, string) error {
	return &UnavailableError{Action: "speak text"}
}
func (d *Desktop) SetVolume(context.Context, int) error {
	return &UnavailableError{Action: "set the volume"}
}
func (d *Desktop) DoNotDisturb(context.Context, bool) error {
	return &UnavailableError{Action: "set Do Not Disturb"}
}
func (d *Desktop) RunShortcut(context.Context, string, string) (string, error) {
	return "", needsMacOS("run a shortcut")
}
func (d *Desktop) CreateEvent(context.Context, string, time.Time, time.Time) error {
	return needsMacOS("create a calendar event")
}
func (d *Desktop) CreateReminder(context.Context, string, *time.Time) error {
	return needsMacOS("create a reminder")
}
func (d *Desktop) SendEmail(context.Context, []string, string, string) error {
	return needsMacOS("send an email")
}
func (d *Desktop) Trash(context.Context, string) error {
	return &UnavailableError{Action: "move a file to the Trash"}
}
func (d *Desktop) MoveToTrash(context.Context, string) (string, error) {
	return "", &UnavailableError{Action: "move a file to the Trash"}
}
func (d *Desktop) RunAppleScript(context.Context, string, []string, Confine) (string, error) {
	return "", needsMacOS("run AppleScript")
}
func (d *Desktop) RunJXA(context.Context, string, []string, Confine) (string, error) {
	return "", needsMacOS("run JavaScript for Automation")
}
func (d *Desktop) ValidateAppleScript(context.Context, string) error {
	return needsMacOS("check AppleScript")
}
