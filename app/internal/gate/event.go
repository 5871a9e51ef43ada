package gate

import "time"

// Event types. The approval broker has its own events (awaiting_approval,
// approved, denied, timeout, killed, keyed by callId); these follow one
// submission through the pipeline, for its client and for the menu.
const (
	EventAssessed         = "assessed"          // an action was rated and decided
	EventAwaitingApproval = "awaiting_approval" // the plan waits for the person
	EventApproval         = "approval"          // the person answered, or time ran out
	EventStarted          = "started"           // an action began executing
	EventResult           = "result"            // an action ended
	EventDone             = "done"              // the submission ended
	EventKilled           = "killed"            // the kill switch was tripped
	EventResumed          = "resumed"           // the kill switch was reset
	EventAutonomy         = "autonomy"          // the autonomy level was changed (Status has the new one)
)

// Event is one step of the pipeline. Text in it has been redacted.
type Event struct {
	Type     string    `json:"type"`
	Request  string    `json:"request,omitempty"`
	Index    int       `json:"index"`
	Preview  string    `json:"preview,omitempty"`
	Risk     string    `json:"risk,omitempty"`
	Reasons  []string  `json:"reasons,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Approval string    `json:"approval,omitempty"`
	Status   string    `json:"status,omitempty"`
	Output   string    `json:"output,omitempty"`
	Error    string    `json:"error,omitempty"`
	Time     time.Time `json:"time"`
}
