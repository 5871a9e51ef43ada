package bridge

import "time"

// For the tests.
var (
	ShownLine  = shownLine
	ShownBlock = shownBlock
	Excerpt    = excerpt
)

// Details is p's full text as its popup shows it.
func Details(p ApprovalPopup, now time.Time) string { return p.details(now) }

// Summary is p's headline.
func Summary(p ApprovalPopup) string { return p.summary() }

// ConfirmItem is the question that asks about it on its own.
func ConfirmItem(p ApprovalPopup, it PopupItem, now time.Time) (title, text, yes, no string, arm time.Duration) {
	q := confirmItemQuestion(p, it, now)
	return q.title, q.text, q.yes, q.no, q.arm
}
