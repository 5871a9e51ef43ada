package ipc

import (
	"context"
	"encoding/json"

	"github.com/airlockhq/airlock/app/internal/llm"
)

// SocketName is the gate's socket in the data directory.
const SocketName = "gate.sock"

// KillSocketName is the gate's kill socket in the data directory: the kill
// switch's reserved path. Connecting to it trips the switch. The gate reads
// nothing from it, so no request of any kind can be sent through it, and
// nothing stands before it: no connection limit, no idle client, no request
// in flight on the gate's socket. Its peer is checked like the socket's
// (only the user the gate runs as), and its mode is 0600. The gate answers
// with one frame, a JSON-RPC response with the id "kill" whose result is
// Handler.Kill's (or an error response), and closes the connection. Kill
// is its client.
const KillSocketName = "kill.sock"

// killID is the id of the kill socket's one response.
const killID = `"kill"`

// LockName is the file in the data directory a running gate holds an
// exclusive lock on; it contains the gate's process id.
const LockName = "gate.lock"

// MaxFrame bounds one frame, newline included, in both directions.
const MaxFrame = 1 << 20

// MaxArgv bounds SubmitParams.Argv, in items.
const MaxArgv = 100

// SubmitKinds are the values SubmitParams.Kind may take ("" means "dsl").
var SubmitKinds = []string{"dsl", "applescript", "jxa", "command"}

// MaxClientName bounds SubmitParams.Client, in bytes.
const MaxClientName = 64

// MaxHistoryLimit bounds HistoryParams.Limit.
const MaxHistoryLimit = 1000

// Methods is the exact, closed set of methods a client may call. Nothing
// here approves, denies, changes the autonomy level or resumes after a
// kill, and nothing may be added that does. ask is a submission in words:
// the model's plan is then decided and approved like any other.
// automations may only ask: a change of the automations that raises trust
// (adding one, turning one or all on) is made only after the person's yes
// in Airlock's own confirmation popup, as from the menu; one that lowers it
// (removing, turning off) is made at once, like kill. dashboard opens the
// dashboard in the person's browser, or returns a read-only link to it: it
// shows what history already returns, and every change made there waits
// for the person's yes in a popup. undo may only ask too: what a request
// changed on disk is put back only after the person's yes in the same
// popup. settings may only ask as well: a reload puts in force at once only
// what lowers trust; what raises it waits for the person's yes in that
// popup, and without it none of the reload is in force.
var Methods = []string{"submit", "ask", "status", "history", "kill", "automations", "dashboard", "undo", "settings"}

// SettingsOps are the values SettingsParams.Op may take.
var SettingsOps = []string{"reload"}

// SettingsParams are the params of settings.
type SettingsParams struct {
	// Op is one of SettingsOps: reload has the gate read settings.json
	// again.
	Op string `json:"op"`
}

// SettingsHandler is a Handler that serves the settings method. The server
// answers settings with an error saying the gate cannot reload when its
// Handler is not one.
type SettingsHandler interface {
	// Settings reloads the settings file. A reload that raises trust (a
	// root, an app or an allow rule added, a higher level …) is put in
	// force only after the person's yes in Airlock's own confirmation
	// popup, never on the client's word; a file that does not read changes
	// nothing.
	Settings(ctx context.Context, p SettingsParams) (any, error)
}

// AutomationOps are the values AutomationsParams.Op may take.
var AutomationOps = []string{"list", "add", "remove", "enable", "disable", "run-now", "on", "off"}

// Bounds of AutomationsParams, in bytes.
const (
	MaxAutomationName     = 64
	MaxAutomationSchedule = 100
	MaxAutomationCooldown = 32
)

// Bounds of AskParams, in bytes (the gate's model client has the same).
const (
	MaxAskRequest = llm.MaxRequestBytes
	MaxAskContext = llm.MaxContextBytes
)

// EventMethod is the method of the notifications a submit or an ask
// streams.
const EventMethod = "event"

// SubmitParams are the params of submit.
type SubmitParams struct {
	// Client names the program asking, as the approval popup shows it:
	// 1 to MaxClientName bytes of printable text.
	Client string `json:"client"`
	// Kind is what Plan holds: "dsl" (the default), "applescript" or
	// "jxa"; or "command", where Argv is the program and its arguments and
	// Plan is empty.
	Kind string `json:"kind,omitempty"`
	// Plan is the DSL text or script source to run; it must not be empty
	// unless Kind is "command".
	Plan string `json:"plan,omitempty"`
	// Argv is a command's argv, or the arguments a script's run handler
	// receives; at most MaxArgv items.
	Argv []string `json:"argv,omitempty"`
	// DryRun asks for the assessment without running anything.
	DryRun bool `json:"dryRun,omitempty"`
	// Dir is the caller's working folder, absolute: a command runs there
	// (inside the sandbox's view of it) and its relative paths are read
	// from there. "" runs it in the home folder. Commands only.
	Dir string `json:"dir,omitempty"`
	// Path is the caller's PATH: a command's program named without a
	// slash is looked up on its absolute entries, and the path found is
	// what is assessed, shown and run. "" looks it up on the sandbox's
	// PATH when it runs. Commands only; at most MaxPathList bytes.
	Path string `json:"path,omitempty"`
}

// MaxDir bounds SubmitParams.Dir, and MaxPathList SubmitParams.Path, in
// bytes.
const (
	MaxDir      = 4096
	MaxPathList = 32 << 10
)

// AskParams are the params of ask: a request in words for the gate's model
// to turn into a plan.
type AskParams struct {
	// Client names the program asking, as for submit.
	Client string `json:"client"`
	// Request is the person's words: not blank, at most MaxAskRequest bytes.
	Request string `json:"request"`
	// Context is optional context for the model, which it is given as
	// quoted data; at most MaxAskContext bytes.
	Context string `json:"context,omitempty"`
	// Model overrides the configured model; it must pass
	// llm.ValidModelName.
	Model string `json:"model,omitempty"`
	// Endpoint overrides the configured model server; it must pass
	// llm.ParseEndpoint, and never receives the configured API key.
	Endpoint string `json:"endpoint,omitempty"`
	// DryRun asks for the plan and its assessment without running anything.
	DryRun bool `json:"dryRun,omitempty"`
}

// HistoryParams are the params of history.
type HistoryParams struct {
	// Limit is how many records to return, newest first; 0 leaves it to the
	// gate. At most MaxHistoryLimit.
	Limit int `json:"limit"`
}

// AutomationsParams are the params of automations: read or change the
// person's scheduled automations.
type AutomationsParams struct {
	// Op is one of AutomationOps: list them; add one (Name, Ask or Run,
	// Schedule, Cooldown); remove, enable, disable or run-now the one
	// called Name; turn every automation on or off (the global switch).
	Op string `json:"op"`
	// Name names the automation; required except for list, on and off.
	Name string `json:"name,omitempty"`
	// Ask is the request in words, or Run the plan, of the one to add:
	// exactly one of them, and only for add.
	Ask string `json:"ask,omitempty"`
	Run string `json:"run,omitempty"`
	// Schedule is when it runs ("weekdays 09:00"); required for add.
	Schedule string `json:"schedule,omitempty"`
	// Cooldown is the least time between two runs ("30m"); "" for the
	// default. Only for add.
	Cooldown string `json:"cooldown,omitempty"`
}

// DashboardParams are the params of dashboard.
type DashboardParams struct {
	// Print asks for a link the client prints instead of the gate opening
	// the browser. Such a link opens a read-only session: the socket is
	// open to every program of the user, agents included, so what it hands
	// out may show no more than history does.
	Print bool `json:"print,omitempty"`
}

// MaxRequestID bounds UndoParams.Request, in bytes.
const MaxRequestID = 64

// UndoParams are the params of undo.
type UndoParams struct {
	// Request is the id of the request whose changes on disk to undo, as
	// run and history show it: 1 to MaxRequestID bytes of printable text.
	Request string `json:"request"`
}

// UndoHandler is a Handler that serves the undo method. The server answers
// undo with an error saying the gate cannot undo when its Handler is not
// one.
type UndoHandler interface {
	// Undo puts back what the request changed on disk, only after the
	// person's yes in Airlock's own confirmation popup (the menu's): never
	// on the client's word.
	Undo(ctx context.Context, p UndoParams) (any, error)
}

// DashboardResult is the result of dashboard.
type DashboardResult struct {
	// Address is the dashboard's address, with no secret in it; on its own
	// it opens nothing.
	Address string `json:"address"`
	// Opened is set when the gate opened the dashboard in the browser.
	Opened bool `json:"opened,omitempty"`
	// URL is the one-time link, for Print: it opens a read-only session
	// once, within a few minutes.
	URL string `json:"url,omitempty"`
}

// DashboardHandler is a Handler that serves the dashboard method. The
// server answers dashboard with an error saying the gate has no dashboard
// when its Handler is not one.
type DashboardHandler interface {
	// Dashboard opens the dashboard in the person's browser (the gate's
	// own opener, never the client's), or with p.Print returns a link that
	// opens a read-only session. It must never give a client a link that
	// can change anything.
	Dashboard(ctx context.Context, p DashboardParams) (DashboardResult, error)
}

// Handler is the gate's side of the protocol. The server calls it with
// requests that have already been decoded and checked: the method is one of
// Methods and the params are well-formed and within their bounds.
//
// An implementation must return promptly once ctx is done: ctx is cancelled
// when the client disconnects, when the connection breaks a rule, and when
// the server closes, and Server.Close waits for every handler to return.
// Calls on different connections run concurrently; calls on one connection
// never overlap.
//
// Results are encoded with encoding/json and must fit in MaxFrame; a larger
// one reaches the client as an internal error. An error reaches the client
// with its text only if it is (or wraps) a UserError, and with the code of
// the first error in its chain that has an RPCCode() int method; any other
// error is shown as "internal error" and passed to Server.ErrorLog.
type Handler interface {
	// Submit runs a plan. notify streams a notification (method
	// EventMethod, params v) to the client while the plan runs; it returns an
	// error once the connection is gone or Submit has returned, and is safe
	// to call from several goroutines.
	Submit(ctx context.Context, p SubmitParams, notify func(v any) error) (any, error)
	// Ask has the gate's model turn a request in words into a plan and
	// submits it; notify works as for Submit. It approves nothing.
	Ask(ctx context.Context, p AskParams, notify func(v any) error) (any, error)
	// Status reports the gate's state. It must not change it.
	Status(ctx context.Context) (any, error)
	// History returns recorded requests. It must not change them.
	History(ctx context.Context, p HistoryParams) (any, error)
	// Kill trips the kill switch. Nothing in this protocol can undo it.
	Kill(ctx context.Context) (any, error)
	// Automations reads or changes the automations. A change that raises
	// trust must wait for the person's yes in Airlock's own popup, and fail
	// without it; it must never be made on the client's word.
	Automations(ctx context.Context, p AutomationsParams) (any, error)
}

// Request is one decoded client request.
type Request struct {
	// ID is the client's id, a JSON string or integer, echoed unchanged in
	// the response.
	ID json.RawMessage
	// Method is one of Methods.
	Method string
	// Params is SubmitParams for submit, AskParams for ask, HistoryParams
	// for history, AutomationsParams for automations, DashboardParams for
	// dashboard, UndoParams for undo, SettingsParams for settings, nil for
	// status and kill.
	Params any
}

// The error codes. The standard JSON-RPC codes, then those the transport
// itself uses (-32000 to -32009). A Handler's own codes should come from
// -32010 to -32099.
const (
	CodeParseError     = -32700 // not JSON, or not UTF-8
	CodeInvalidRequest = -32600 // not a valid request, an oversized or stalled frame
	CodeMethodNotFound = -32601 // a method outside Methods
	CodeInvalidParams  = -32602 // params of the wrong shape or out of bounds
	CodeInternal       = -32603 // an error the client may not see

	CodeServerError  = -32000 // a UserError that names no code of its own
	CodeUnauthorized = -32001 // the peer is another user, or cannot be identified
	CodeBusy         = -32002 // too many connections, or a request sent before the last one's response
)

// wire shapes of what the server writes.
type (
	resultFrame struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}
	errorFrame struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"` // null when the request's id is unknown
		Error   wireError       `json:"error"`
	}
	wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}
	notification struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}
)
