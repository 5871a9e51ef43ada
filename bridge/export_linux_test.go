package bridge

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// For the tests of the zenity popups.
var (
	ZenityApproval = zenityApproval
	ZenityEntry    = zenityEntry
	ZenityEnv      = zenityEnv
	EntryResult    = entryResult
	QuestionResult = questionResult
	ZenityEditor   = zenityEditor
	EditorResult   = editorResult
)

const MaxArgText = maxArgText

// ZenityQuestion is the argument list of a question.
func ZenityQuestion(title, text, yes, no string, early, timeout time.Duration) []string {
	return zenityQuestion(question{title: title, text: text, yes: yes, no: no}, early, timeout, "")
}

// ApprovalResult names the choice zenity's answer means: deny, approve or
// remember (or edit, rule).
func ApprovalResult(stdout, stderr string, code int) (string, error) {
	c, err := approvalResult(stdout, stderr, code)
	return [...]string{"deny", "approve", "remember", "edit", "rule"}[c], err
}

// SparePopup is the pid of the spare approval popup, or 0 when there is
// none, and whether it is ready: started, and blocked reading its text.
func SparePopup() (pid int, ready bool) {
	spares.mu.Lock()
	s := spares.spare
	spares.mu.Unlock()
	if s == nil || !s.alive() {
		return 0, false
	}
	// Blocked reading its pipe: pipe_read, or pipe_wait on older kernels.
	pid = s.proc.Pid()
	wchan, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/wchan")
	return pid, strings.Contains(string(wchan), "pipe_")
}

var DisplayIdentity = displayIdentity

// ResetSparePopups discards the spare popup and forgets that zenity could
// not read its text from a pipe.
func ResetSparePopups() {
	spares.mu.Lock()
	defer spares.mu.Unlock()
	if spares.spare != nil {
		spares.spare.discard()
		spares.spare = nil
	}
	spares.noFeed.Store(false)
}

// ZenityWarningQuestion is ZenityQuestion for a warning (a destructive
// item's own confirmation), with icon.
func ZenityWarningQuestion(icon string) []string {
	return zenityQuestion(question{title: "t", text: "x", yes: "Run action 1", no: "Skip it", warning: true}, 0, 0, icon)
}

// ZenityIconArg is zenityIconArg.
func ZenityIconArg(out string) string { return zenityIconArg(out) }

// SetAckWait sets how long a warm process has to say it took its command,
// until the returned function restores it.
func SetAckWait(d time.Duration) (restore func()) {
	old := ackWait
	ackWait = d
	return func() { ackWait = old }
}

// SetSpawnerWait sets how long a request waits for the spawner, for the
// test's length, and returns what puts it back.
func SetSpawnerWait(d time.Duration) (restore func()) {
	old := spawnerWait
	spawnerWait = d
	return func() { spawnerWait = old }
}
