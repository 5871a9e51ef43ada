package applescript

import (
	"context"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// TestObjC tries to slip AppleScriptObjC past the analyzer, and checks
// that everyday Foundation use is not over-rated. Every case is a script
// the analyzer only reads.
func TestObjC(t *testing.T) {
	tests := []rated{
		{"remove, colon form", "use framework \"Foundation\"\nset fm to current application's NSFileManager's defaultManager()\nfm's removeItemAtPath:\"/tmp/x\" |error|:(missing value)",
			level.Destructive, level.Blocked, "as.objc-remove"},
		{"remove, underscore form", "use framework \"Foundation\"\ncurrent application's NSFileManager's defaultManager()'s removeItemAtPath_error_(\"/tmp/x\", missing value)",
			level.Destructive, level.Blocked, "as.objc-remove"},
		{"remove, no use line", "set fm to current application's NSFileManager's defaultManager()\nfm's removeItemAtURL:u |error|:(missing value)",
			level.Destructive, level.Blocked, "as.objc-remove"},
		{"remove through a property alias", "use framework \"Foundation\"\nproperty NSFileManager : a reference to current application's NSFileManager\nset m to NSFileManager's defaultManager()\nm's removeItemAtPath:p |error|:(missing value)",
			level.Destructive, level.Blocked, "as.objc-remove"},
		{"remove, mixed case", "use framework \"Foundation\"\nset fm to current application's nsfilemanager's defaultManager()\nfm's REMOVEITEMATPATH:\"/tmp/x\" |error|:(missing value)",
			level.Destructive, level.Blocked, "as.objc-remove"},
		{"unknown method of an acting class", "use framework \"Foundation\"\nset fm to current application's NSFileManager's defaultManager()\nfm's unmountVolumeAtURL:u options:0 completionHandler:(missing value)",
			level.Dangerous, level.Blocked, "as.objc-unknown"},
		{"unknown class", "use framework \"Foundation\"\nset x to current application's NSFrobnicator's new()\nx's frobnicate()",
			level.Dangerous, level.Blocked, "as.objc-unknown"},
		{"class by a computed name", "use framework \"Foundation\"\nset cls to current application's NSClassFromString(someName)\nset t to cls's alloc()'s init()\nt's go()",
			level.Dangerous, level.Blocked, "as.objc-class"},
		{"class by a folded name", "use framework \"Foundation\"\nset cls to current application's NSClassFromString(\"NS\" & \"Task\")\nset t to cls's alloc()'s init()\nt's setLaunchPath:\"/bin/ls\"\nt's |launch|()",
			level.Dangerous, level.Blocked, "as.objc-task"},
		{"task with computed arguments", "use framework \"Foundation\"\nset t to current application's NSTask's launchedTaskWithLaunchPath:\"/bin/sh\" arguments:{\"-c\", x}",
			level.Destructive, level.Blocked, "as.objc-task-computed"},
		{"task with arguments set in a cycle", "use framework \"Foundation\"\nset a to b\nset b to a\ncurrent application's NSTask's launchedTaskWithLaunchPath:\"/bin/ls\" arguments:a",
			level.Destructive, level.Blocked, "as.objc-task-computed"},
		{"task rm", "use framework \"Foundation\"\ncurrent application's NSTask's launchedTaskWithLaunchPath:\"/bin/rm\" arguments:{\"-f\", \"/tmp/a\"}",
			level.Destructive, level.Blocked, "as.objc-task-destructive"},
		{"task by URL", "use framework \"Foundation\"\nset t to current application's NSTask's new()\nt's setExecutableURL:(current application's NSURL's fileURLWithPath:\"/usr/bin/sudo\")\nt's setArguments:{\"id\"}\nt's launchAndReturnError:(missing value)",
			level.Destructive, level.Blocked, "as.objc-task-destructive"},
		{"script source nested", "use framework \"Foundation\"\nset s to current application's NSAppleScript's alloc()'s initWithSource:\"tell application \\\"Finder\\\" to empty trash\"\ns's executeAndReturnError:(missing value)",
			level.Destructive, level.Blocked, "as.empty-trash"},
		{"script source computed", "use framework \"Foundation\"\nset s to current application's NSAppleScript's alloc()'s initWithSource:(read f)\ns's executeAndReturnError:(missing value)",
			level.Destructive, level.Blocked, "as.objc-script-computed"},
		{"write a LaunchAgent", "use framework \"Foundation\"\nset d to current application's NSDictionary's dictionary()\nd's writeToFile:\"~/Library/LaunchAgents/x.plist\" atomically:true",
			level.Dangerous, level.Blocked, "as.objc-write"},
		{"security default", "use framework \"Foundation\"\nset ud to current application's NSUserDefaults's alloc()'s initWithSuiteName:\"com.apple.LaunchServices\"\nud's setBool:false forKey:\"LSQuarantine\"",
			level.Destructive, level.Blocked, "as.objc-security"},
		{"quarantine off", "use framework \"Foundation\"\nset u to current application's NSURL's fileURLWithPath:\"/tmp/A.app\"\nu's setResourceValue:(missing value) forKey:(current application's NSURLQuarantinePropertiesKey) |error|:(missing value)",
			level.Destructive, level.Blocked, "as.objc-quarantine"},
		{"open a runnable file", "use framework \"AppKit\"\nset u to current application's NSURL's fileURLWithPath:\"/tmp/Setup.command\"\ncurrent application's NSWorkspace's sharedWorkspace()'s openURL:u",
			level.Destructive, level.Blocked, "as.launch-default"},
		{"load a bundle", "use framework \"Foundation\"\nset b to current application's NSBundle's bundleWithPath:\"/tmp/x.bundle\"\nb's load()",
			level.Dangerous, level.Blocked, "as.objc-load-code"},
		{"unknown framework", "use framework \"Evil\"\nbeep", level.Dangerous, level.Blocked, "as.use-framework"},
		{"script library", "use script \"Helpers\"\nbeep", level.Dangerous, level.Blocked, "as.use-script"},
		{"named script library", "use H : script \"Helpers\"\nbeep", level.Dangerous, level.Blocked, "as.use-script"},

		{"string formatting", "use AppleScript version \"2.4\"\nuse framework \"Foundation\"\nuse scripting additions\nset s to current application's NSString's stringWithString:\"quarterly report\"\nset u to (s's capitalizedString()) as text\ndisplay dialog u",
			level.Safe, level.Caution, ""},
		{"dictionary setObject is no preference", "use framework \"Foundation\"\nset d to current application's NSMutableDictionary's new()\nd's setObject:\"a\" forKey:\"b\"\nset s to (d's objectForKey:\"b\") as text",
			level.Safe, level.Caution, ""},
		{"mutable string setString is no clipboard", "use framework \"Foundation\"\nset m to current application's NSMutableString's new()\nm's setString:\"x\"",
			level.Safe, level.Caution, ""},
		{"read the clipboard", "use framework \"AppKit\"\nset pb to current application's NSPasteboard's generalPasteboard()\nset clip to (pb's stringForType:(current application's NSPasteboardTypeString)) as text",
			level.Safe, level.Caution, ""},
		{"date formatting", "use framework \"Foundation\"\nset df to current application's NSDateFormatter's new()\ndf's setDateFormat:\"yyyy-MM-dd\"\nset stamp to (df's stringFromDate:(current application's NSDate's |date|())) as text",
			level.Safe, level.Caution, ""},
		{"file exists", "use framework \"Foundation\"\nset ok to (current application's NSFileManager's defaultManager()'s fileExistsAtPath:\"/tmp/x\") as boolean",
			level.Safe, level.Caution, ""},
		{"script object handler is no method", "script S\n\ton greet()\n\t\treturn \"hi\"\n\tend greet\nend script\nset g to S's greet()",
			level.Safe, level.Caution, ""},
	}
	checkRated(t, tests)
}

// TestDataLiterals checks that «data» literals holding text are read as
// the text they hold, in each of their types and byte orders.
func TestDataLiterals(t *testing.T) {
	tests := []struct{ code, want string }{
		{"utf868656C6C6F", "hello"},
		{"TEXT68656C6C6F", "hello"},
		{"utxt00680069", "hi"},
		{"utxt68006900", "hi"},
		{"utxtFEFF00680069", "hi"},
		{"utxtFFFE68006900", "hi"},
		{"UTF8 6869", "hi"},
	}
	for _, tt := range tests {
		got, ok := dataText(tt.code)
		if !ok || got != tt.want {
			t.Errorf("dataText(%q) = %q, %v; want %q", tt.code, got, ok, tt.want)
		}
	}
	for _, bad := range []string{"utf8ZZ", "JPEG0011", "utxt001", "ut"} {
		if got, ok := dataText(bad); ok {
			t.Errorf("dataText(%q) = %q, want no text", bad, got)
		}
	}
	env, end := (&Env{}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	// "rm -rf ~/Documents" in hex: do shell script reads the text.
	v := Rate("do shell script («data utf8726D202D7266207E2F446F63756D656E7473» as text)", env, 0)
	if v.Level < level.Destructive || !strings.Contains(v.String(), "rm deletes") {
		t.Errorf("a «data utf8» command: %v, want destructive (rm)", v)
	}
}
