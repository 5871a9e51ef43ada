// Package bridge is Airlock's platform layer: it carries out desktop actions
// and runs the processes the gate has approved, on macOS (darwinkit:
// NSWorkspace, NSPasteboard, NSFileManager, NSAppleScript in a helper child)
// and on Linux (gio, xdg-open, notify-send, espeak-ng, xclip or wl-copy,
// D-Bus). It owns:
//
//   - Desktop, whose methods are app/internal/execute's Desktop contract;
//   - RunArgv, the one way a process is started: an argument vector, never a
//     shell line, in a process group of its own that is killed as a whole
//     when the context ends (the kill switch); an action (Command.Contain)
//     starts in a session of its own, and on Linux nothing it starts
//     outlives it, wherever it went (KillEscaped, contain_linux.go);
//   - the AppleScript helper protocol (AppleScriptHelper), the enhanced
//     script errors (ScriptError, Classify) and the script builder
//     (AppleScriptString and friends).
//
// It holds no policy and must never let a value change the meaning of a
// script: values reach scripts as argv, stdin or Apple event parameters,
// never spliced into source or a shell line. It imports nothing from app/.
// Darwin code lives in *_darwin.go files, Linux code in *_linux.go, the rest
// in *_other.go; bridge/darwincheck type-checks the darwin files on any OS.
package bridge

// App identifies a running application, as the context lock records it.
type App struct {
	BundleID string // "com.apple.Safari"; on Linux the path of its executable
	Name     string // the localized name shown to the user (Linux: the process name)
	PID      int
}
