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
	EventOutput           = "output"            // a running command printed (Stream, Output); to its client only
	EventResult           = "result"            // an action ended
	EventDone             = "done"              // the submission ended
	EventKilled           = "killed"            // the kill switch was tripped
	EventResumed          = "resumed"           // the kill switch was reset
	EventAutonomy         = "autonomy"          // the autonomy level was changed (Status has the new one)
	EventModel            = "model"             // Ask: the model is asked, streams, answers or fails (Status)
)

// The Status values of an EventModel.
const (
	ModelAsking    = "asking"    // a request went to the model (Attempt 1)
	ModelRetrying  = "retrying"  // the plan did not parse: asked once more (Attempt 2)
	ModelStreaming = "streaming" // the reply is arriving (Tokens so far)
	ModelAnswered  = "answered"  // the reply is in; its plan goes to the gate
	ModelFailed    = "failed"    // no usable reply (Error)
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
	Stream   string    `json:"stream,omitempty"` // EventOutput: StreamStdout or StreamStderr
	Error    string    `json:"error,omitempty"`
	Model    string    `json:"model,omitempty"`   // EventModel: the model's name
	Tokens   int       `json:"tokens,omitempty"`  // EventModel: pieces of the reply so far, about one token each
	Attempt  int       `json:"attempt,omitempty"` // EventModel: 1, or 2 for the retry
	Time     time.Time `json:"time"`
}
