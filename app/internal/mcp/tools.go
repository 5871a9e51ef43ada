package mcp

import (
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/risk"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools, by name.
const (
	ToolRunActions     = "run_actions"
	ToolRunAppleScript = "run_applescript"
	ToolRunJXA         = "run_jxa"
	ToolRunCommand     = "run_command"
	ToolAssess         = "assess"
	ToolValidate       = "validate_applescript"
	ToolListActions    = "list_actions"
	ToolStatus         = "status"
)

// MaxSource bounds a plan or a script with its argv, or an input to assess,
// in bytes. It leaves room for JSON escaping within one frame of the gate's
// socket (ipc.MaxFrame).
const MaxSource = 512 << 10

// The arguments of each tool. Their JSON schemas (below) are what the SDK
// validates a call against before the handler sees it: every property is
// listed, and any other (an "approved": true, say) is refused.
type (
	planArgs struct {
		Plan string `json:"plan"`
	}
	scriptArgs struct {
		Source string   `json:"source"`
		Argv   []string `json:"argv,omitempty"`
	}
	commandArgs struct {
		Argv []string `json:"argv"`
		Cwd  string   `json:"cwd,omitempty"`
	}
	validateArgs struct {
		Source string `json:"source"`
	}
	assessArgs struct {
		Kind  string `json:"kind"`
		Input string `json:"input"`
	}
	noArgs struct{}
)

// object is the JSON schema of an object with exactly these properties.
func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// text is a required text of at most MaxSource bytes. The bound is checked
// by the handler, not the schema: the SDK's schema error would quote the
// whole text back to the agent.
func text(desc string) map[string]any {
	return map[string]any{"type": "string", "minLength": 1, "description": desc + " (at most 512 KiB)"}
}

func argv(desc string, minItems int) map[string]any {
	s := map[string]any{
		"type":        "array",
		"items":       map[string]any{"type": "string"},
		"maxItems":    ipc.MaxArgv,
		"description": desc,
	}
	if minItems > 0 {
		s["minItems"] = minItems
	}
	return s
}

func kinds() []string {
	out := make([]string, len(risk.Kinds))
	for i, k := range risk.Kinds {
		out[i] = string(k)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// runAnnotations are those of the run_* tools: they change the person's computer
// and the world beyond it, and running one twice does it twice.
func runAnnotations(title string) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: false, DestructiveHint: ptr(true), IdempotentHint: false, OpenWorldHint: ptr(true)}
}

// readAnnotations are those of the tools that only read: assess and
// list_actions compute from their input, status reads the gate's state.
func readAnnotations(title string) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}
}

const gateNote = " It goes through Airlock's gate on the person's computer: it is checked and rated, " +
	"and anything risky waits until the person approves it in Airlock's own popup. " +
	"You cannot approve anything, and no argument does. Denied, timed out, blocked, " +
	"refused, killed and failed calls are errors; do not retry a denied call unchanged. " +
	"The result gives the risk, the reasons, the decision, the approval and the output " +
	"(bounded, with secrets redacted)."

var (
	runActionsTool = &sdk.Tool{
		Name: ToolRunActions,
		Description: "Run a plan in Airlock's Action DSL: one command per line, its arguments in double quotes " +
			`(escapes \" \\ \n \t), # for comments, long text as a heredoc (<<END … END), paths may start with ~. ` +
			"list_actions gives the commands; assess with kind dsl rates a plan without running it. " +
			"A plan with any blocked action, or that does not parse, is refused whole." + gateNote,
		Annotations: runAnnotations("Run an Airlock action plan"),
		InputSchema: object(map[string]any{
			"plan": text("the plan in the Action DSL"),
		}, "plan"),
	}
	runAppleScriptTool = &sdk.Tool{
		Name: ToolRunAppleScript,
		Description: "Run an AppleScript. Pass values as argv, which the script receives with `on run argv`; " +
			"never splice them into the source." + gateNote,
		Annotations: runAnnotations("Run AppleScript"),
		InputSchema: object(map[string]any{
			"source": text("the AppleScript source"),
			"argv":   argv("values the script's `on run argv` handler receives", 0),
		}, "source"),
	}
	runJXATool = &sdk.Tool{
		Name: ToolRunJXA,
		Description: "Run JavaScript for Automation (JXA). Pass values as argv, which the script receives with " +
			"`function run(argv)`; never splice them into the source." + gateNote,
		Annotations: runAnnotations("Run JavaScript for Automation"),
		InputSchema: object(map[string]any{
			"source": text("the JXA source"),
			"argv":   argv("values the script's `function run(argv)` receives", 0),
		}, "source"),
	}
	runCommandTool = &sdk.Tool{
		Name: ToolRunCommand,
		Description: "Run one program with its arguments, given as an argv array and run without a shell: " +
			"no pipes, redirections, globbing or variable expansion. An argument that is ~ or starts with ~/ " +
			"means the person's home folder: Airlock expands it before rating and showing the command, " +
			"so the person approves the path that is used. A program named without a slash is looked up on " +
			"the PATH Airlock's MCP server was started with, and the path found is what is rated, shown and run." + gateNote,
		Annotations: runAnnotations("Run a command"),
		InputSchema: object(map[string]any{
			"argv": argv(`the program and its arguments, e.g. ["ls", "-l", "~/Documents"] (a leading ~ or ~/ is the home folder)`, 1),
			"cwd": map[string]any{"type": "string", "maxLength": 4096,
				"description": "the absolute folder to run it in (in the home folder or a sandbox root); the home folder when left out"},
		}, "argv"),
	}
	assessTool = &sdk.Tool{
		Name: ToolAssess,
		Description: "Rate a script, command line, plan or path without running it, as `airlock assess --jsonl` does: " +
			"the risk (safe, caution, dangerous, destructive or blocked) and the reasons. " +
			"It runs nothing, asks nobody and works when Airlock is not running.",
		Annotations: readAnnotations("Assess without running"),
		InputSchema: object(map[string]any{
			"kind":  map[string]any{"type": "string", "enum": kinds(), "description": "what input is"},
			"input": map[string]any{"type": "string", "description": "the script, command line, plan or path (at most 512 KiB)"},
		}, "kind", "input"),
	}
	validateTool = &sdk.Tool{
		Name: ToolValidate,
		Description: "Check that an AppleScript compiles, without running it (osacompile's check, done with " +
			"NSAppleScript): whether it is valid, the compiler's error with how to fix the common kinds, and the risk " +
			"it would be rated at if run. Needs macOS; it runs nothing, asks nobody and works when Airlock is not running.",
		Annotations: readAnnotations("Validate AppleScript without running it"),
		InputSchema: object(map[string]any{
			"source": text("the AppleScript source"),
		}, "source"),
	}
	listActionsTool = &sdk.Tool{
		Name: ToolListActions,
		Description: "List the commands of Airlock's Action DSL that run_actions accepts: the syntax, " +
			"the base risk class and what each does. Works when Airlock is not running.",
		Annotations: readAnnotations("List the Action DSL commands"),
		InputSchema: object(map[string]any{}),
	}
	statusTool = &sdk.Tool{
		Name: ToolStatus,
		Description: "Report whether Airlock's gate is running and, if it is, its state: the autonomy level, " +
			"whether the kill switch is on, and how much work is running and waiting for approval.",
		Annotations: readAnnotations("Airlock status"),
		InputSchema: object(map[string]any{}),
	}
)
