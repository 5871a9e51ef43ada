package bridge

import (
	"context"
	"errors"
	"strings"
)

// ErrNoOwnerAuth is returned by Authenticate where the bridge has no way to
// ask for the device owner's authentication (outside macOS).
var ErrNoOwnerAuth = errors.New("this platform has no owner authentication the bridge can ask for")

// OwnerAuthAvailable reports whether Authenticate can ask here: on macOS
// (LocalAuthentication), not elsewhere.
func OwnerAuthAvailable() bool { return ownerAuthAvailable }

// Authenticate asks for the device owner's authentication, Touch ID or the
// login password (LocalAuthentication's LAPolicyDeviceOwnerAuthentication),
// with reason shown in the system's prompt ("Airlock wants to REASON."),
// and waits for the answer or ctx (which withdraws the prompt). It returns
// nil only when the owner authenticated; a cancelled or failed prompt, a
// Mac with no way to authenticate, ctx ending and every other error refuse.
// Outside macOS it returns ErrNoOwnerAuth.
//
// The prompt is drawn by the system, not by Airlock, so no other process
// of the person's can answer it by posting events to Airlock.
func Authenticate(ctx context.Context, reason string) error {
	reason = strings.TrimSpace(shownLine(reason))
	if reason == "" {
		return errors.New("owner authentication: no reason to show")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return authenticate(ctx, reason)
}
