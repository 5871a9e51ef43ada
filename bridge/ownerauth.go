package bridge

import (
	"context"
	"errors"
	"fmt"
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
	reason = shownLine(strings.TrimSpace(reason))
	if reason == "" {
		return errors.New("owner authentication: no reason to show")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return authenticate(ctx, reason)
}

// OwnerAuthError is how an owner authentication ended without the owner:
// LocalAuthentication's LAError code and its description.
type OwnerAuthError struct {
	Code    int    // LAError: -2 cancelled by the person, -1 failed, …
	Message string // the framework's description, shown as is
}

func (e *OwnerAuthError) Error() string {
	what := laErrors[e.Code]
	if what == "" {
		what = fmt.Sprintf("LocalAuthentication error %d", e.Code)
	}
	if e.Message == "" {
		return "owner authentication: " + what
	}
	return fmt.Sprintf("owner authentication: %s (%s)", what, shownLine(e.Message))
}

// Cancelled reports whether the person, the system or Airlock cancelled
// the prompt, rather than the authentication failing or being impossible.
func (e *OwnerAuthError) Cancelled() bool {
	return e.Code == laUserCancel || e.Code == laSystemCancel || e.Code == laAppCancel || e.Code == laUserFallback
}

// LAError codes (LocalAuthentication's LAError.h).
const (
	laAuthenticationFailed = -1
	laUserCancel           = -2
	laUserFallback         = -3
	laSystemCancel         = -4
	laPasscodeNotSet       = -5
	laBiometryLockout      = -8
	laAppCancel            = -9
	laInvalidContext       = -10
	laNotInteractive       = -1004
)

var laErrors = map[int]string{
	laAuthenticationFailed: "the owner could not be verified",
	laUserCancel:           "cancelled",
	laUserFallback:         "cancelled",
	laSystemCancel:         "cancelled by macOS (another app came to the front)",
	laPasscodeNotSet:       "this Mac has no login password, so its owner cannot be verified",
	laBiometryLockout:      "Touch ID is locked after too many attempts: unlock it with the password first",
	laAppCancel:            "withdrawn",
	laInvalidContext:       "the authentication was already used",
	laNotInteractive:       "macOS would not show the prompt",
}
