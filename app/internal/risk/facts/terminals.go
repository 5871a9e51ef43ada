package facts

// Terminals are the applications whose windows run what is typed into
// them, by lower-case name and bundle identifier.
var Terminals = map[string]bool{
	"terminal": true, "iterm": true, "iterm2": true, "warp": true, "ghostty": true, "kitty": true,
	"alacritty": true, "wezterm": true, "hyper": true, "tabby": true,
	"com.apple.terminal": true, "com.googlecode.iterm2": true, "dev.warp.warp-stable": true,
	"com.mitchellh.ghostty": true, "net.kovidgoyal.kitty": true, "org.alacritty": true,
	"io.alacritty": true, "com.github.wez.wezterm": true, "co.zeit.hyper": true, "org.tabby": true,
}

// CommandRunners are the names that mark an application opened with open
// -a as a terminal or script runner, which runs the command given after
// --args: a lower-case name containing one of them is one.
var CommandRunners = []string{"terminal", "iterm", "warp", "alacritty", "kitty", "ghostty", "wezterm", "hyper", "tabby",
	"rio", "script editor", "xterm", "cool-retro-term"}

// ScriptRunners are the applications, by lower-case name, that run the
// files they open.
var ScriptRunners = map[string]bool{"script editor": true, "script debugger": true, "automator": true,
	"python launcher": true, "python launcher 3": true, "jar launcher": true, "installer": true, "shortcuts": true,
	"applet launcher": true, "osascript": true}
