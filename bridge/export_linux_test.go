package bridge

import "time"

// For the tests of the zenity popups.
var (
	ZenityApproval = zenityApproval
	ZenityEntry    = zenityEntry
	ZenityEnv      = zenityEnv
	EntryResult    = entryResult
	QuestionResult = questionResult
)

const MaxArgText = maxArgText

// ZenityQuestion is the argument list of a question.
func ZenityQuestion(title, text, yes, no string, early, timeout time.Duration) []string {
	return zenityQuestion(question{title: title, text: text, yes: yes, no: no}, early, timeout)
}

// ApprovalResult names the choice zenity's answer means: deny, approve or
// remember.
func ApprovalResult(stdout, stderr string, code int) (string, error) {
	c, err := approvalResult(stdout, stderr, code)
	return [...]string{"deny", "approve", "remember"}[c], err
}
