//go:build linux

package logs

import "github.com/coreos/go-systemd/v22/journal"

// systemSink is the systemd journal when its socket answers
// (/run/systemd/journal/socket), else nil.
func systemSink() (Sink, string) {
	if !journal.Enabled() {
		return nil, ""
	}
	return journalSink{}, "journal"
}

// journalSink sends each entry to the journal in its native protocol:
// MESSAGE, PRIORITY, SYSLOG_IDENTIFIER=airlock and AIRLOCK_CATEGORY.
type journalSink struct{}

func (journalSink) Write(e Entry) error {
	return journal.Send(e.Message, journal.Priority(Priority(e.Level)), JournalFields(e))
}
