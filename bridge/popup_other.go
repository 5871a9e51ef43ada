//go:build !darwin && !linux

package bridge

import "context"

// Outside macOS and Linux the bridge has no popups: every approval denies.

// ruleOffered says whether the approval popup offers "always allow this
// exact command here" (ApprovalPopup.AllowRule) on this platform: no popups here.
const ruleOffered = false

const popupName = ""

func popupsAvailable() error { return ErrNoPopups }

func prepareApprovalPopup() {}

func showApproval(context.Context, ApprovalPopup) (choice, error) { return choiceDeny, ErrNoPopups }

func ask(context.Context, question) (bool, error) { return false, ErrNoPopups }

func askText(context.Context, string, string) (string, bool, error) { return "", false, ErrNoPopups }

func showText(context.Context, string, string) error { return ErrNoPopups }

func editText(context.Context, EditPopup, string) (string, bool, error) {
	return "", false, ErrNoPopups
}
