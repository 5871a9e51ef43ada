package jxa

import "github.com/airlockhq/airlock/app/internal/level"

// The rules of JXA: one row per method (or object, or option key) the
// analyzer rates, keyed by its name as a script spells it. A name that is
// not here is rated by what it is called on: a command to an application
// Airlock does not know is Dangerous, and so is one a known application
// does not model (apps, commands.go); the rest is plain JavaScript.
//
// A row says what the method does (does), its level and rule id when it is
// called, the arguments that are paths it reads or writes, the keys of the
// options records it models (opts: any other is Dangerous), what a reference
// to it that is not followed to its call implies (ref; follow: variables
// holding one are followed, var f = app.doShellScript; f(…)), and, where a
// table cannot say it, the function that reads its arguments (rate). A map
// literal with constant keys: the compiler refuses a second row for a name.
//
// To change how a JXA method is rated, change its row here; methods.go holds
// the functions rows name.
var methods = map[string]*method{
	// Code: shells, programs, scripts and JavaScript built from strings.
	"doShellScript": {does: runsShell, level: level.Dangerous, rule: "jxa.shell", follow: true, ref: level.Destructive, opts: []string{"administratorPrivileges", "withPrompt", "userName", "password", "alteringLineEndings"}, rate: rDoShellScript},
	"doScript":      {does: runsShell, level: level.Caution, rule: "jxa.terminal", follow: true, ref: level.Dangerous, opts: []string{"in"}, rate: rDoScript},
	"system":        {does: runsShell, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},
	"popen":         {does: runsShell, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},
	"execv":         {does: runsCode, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},
	"execve":        {does: runsCode, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},
	"execvp":        {does: runsCode, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},
	"execl":         {does: runsCode, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},
	"execlp":        {does: runsCode, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},
	"posix_spawn":   {does: runsCode, level: level.Dangerous, rule: "jxa.system", cfunc: true, follow: true, ref: level.Destructive, rate: rCShell},

	"eval":                   {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, ref: level.Destructive, rate: rEvalCall},
	"Function":               {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, ref: level.Destructive, rate: rEvalCall},
	"constructor":            {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, rate: rEvalCall},
	"runScript":              {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, ref: level.Destructive, opts: []string{"in", "withParameters"}, rate: rEvalCall},
	"initWithSource":         {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, rate: rEvalCall},
	"initWithSourceError":    {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, rate: rEvalCall},
	"initWithSourceLanguage": {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, rate: rEvalCall},
	"setTimeout":             {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, rate: rEvalCall},
	"setInterval":            {does: runsCode, level: level.Caution, rule: "jxa.eval", follow: true, rate: rEvalCall},

	// iTerm's new windows, tabs and panes run the command their options give.
	"createWindowWithDefaultProfile":      {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"createWindowWithProfile":             {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"createTabWithDefaultProfile":         {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"createTabWithProfile":                {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitVerticallyWithDefaultProfile":   {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitHorizontallyWithDefaultProfile": {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitVerticallyWithProfile":          {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitHorizontallyWithProfile":        {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitVerticallyWithSameProfile":      {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitHorizontallyWithSameProfile":    {does: runsShell, level: level.Caution, rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},

	// NSObject's performSelector…: the method its first argument names.
	"performSelector":                                    {does: runsCode, level: level.Dangerous, rule: "jxa.objc-perform", follow: true, rate: rPerformSelector},
	"performSelectorWithObject":                          {does: runsCode, level: level.Dangerous, rule: "jxa.objc-perform", follow: true, rate: rPerformSelector},
	"performSelectorWithObjectWithObject":                {does: runsCode, level: level.Dangerous, rule: "jxa.objc-perform", follow: true, rate: rPerformSelector},
	"performSelectorWithObjectAfterDelay":                {does: runsCode, level: level.Dangerous, rule: "jxa.objc-perform", rate: rPerformSelector},
	"performSelectorOnMainThreadWithObjectWaitUntilDone": {does: runsCode, level: level.Dangerous, rule: "jxa.objc-perform", rate: rPerformSelector},
	"performSelectorInBackgroundWithObject":              {does: runsCode, level: level.Dangerous, rule: "jxa.objc-perform", rate: rPerformSelector},

	"doJavaScript": {does: runsCode, level: level.Dangerous, rule: "jxa.javascript", text: "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session", follow: true, ref: level.Dangerous, opts: []string{"in"}, rate: rCalled},
	"execute":      {does: runsCode, level: level.Dangerous, rule: "jxa.javascript", text: "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session", follow: true, ref: level.Dangerous, opts: []string{"javascript"}, rate: rCalled},

	"NSTask":                              {does: runsCode, level: level.Dangerous, rule: "jxa.nstask", rate: rNstaskRef},
	"launchedTaskWithLaunchPathArguments": {does: runsCode, level: level.Dangerous, rule: "jxa.nstask", follow: true, rate: rNstaskRef},
	"launchedTaskWithExecutableURLArgumentsErrorTerminationHandler": {does: runsCode, level: level.Dangerous, rule: "jxa.nstask", rate: rNstaskRef},
	"NSClassFromString":          {does: runsCode, level: level.Dangerous, rule: "jxa.objc-class", follow: true, rate: rClassFromString},
	"NSUserUnixTask":             {does: runsCode, level: level.Dangerous, rule: "jxa.user-task", rate: rUserTaskRef},
	"NSUserAppleScriptTask":      {does: runsCode, level: level.Dangerous, rule: "jxa.user-task", rate: rUserTaskRef},
	"NSUserAutomatorTask":        {does: runsCode, level: level.Dangerous, rule: "jxa.user-task", rate: rUserTaskRef},
	"initWithURLError":           {does: runsCode, level: level.Destructive, rule: "jxa.script-file-computed", rate: rScriptFile},
	"initWithContentsOfURLError": {does: runsCode, level: level.Dangerous, rule: "jxa.script-file", rate: rScriptFile},
	"Library":                    {does: runsCode, level: level.Dangerous, rule: "jxa.library", text: "SCRIPT: Library loads a script library from ~/Library/Script Libraries, which Airlock does not analyse", rate: rAlways},
	"loadAndReturnError":         {does: runsCode, level: level.Dangerous, rule: "jxa.bundle-load", text: "CODE: %s loads a bundle's code into the script", follow: true, ref: level.Dangerous, rate: rAlways},
	"load":                       {does: runsCode, level: level.Dangerous, rule: "jxa.bundle-load", rate: rBundleLoad},
	"dlopen":                     {does: runsCode, level: level.Dangerous, rule: "jxa.bundle-load", text: "CODE: %s loads a library's code into the script", cfunc: true, follow: true, ref: level.Dangerous, rate: rAlways},
	"bindFunction":               {does: runsCode, level: level.Caution, rule: "jxa.bind-function", follow: true, rate: rBindFunction},

	// Files: writes, removals and reads, with the arguments that are paths.
	"write":         {does: writes | runsShell, level: level.Dangerous, rule: "jxa.write", follow: true, opts: []string{"to", "startingAt", "as", "text", "newline"}, rate: rWriteText},
	"openForAccess": {does: writes | reads, level: level.Dangerous, rule: "jxa.write", follow: true, opts: []string{"writePermission"}, rate: rOpenForAccess},

	"writeToFileAtomicallyEncodingError":                              {does: writes, level: level.Dangerous, rule: "jxa.write", follow: true, writes: []int{0}, rate: rFileOp},
	"writeToFileAtomically":                                           {does: writes, level: level.Dangerous, rule: "jxa.write", follow: true, writes: []int{0}, rate: rFileOp},
	"writeToURLAtomicallyEncodingError":                               {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"writeToURLAtomically":                                            {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"writeToFileOptionsError":                                         {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"writeToURLOptionsError":                                          {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"createFileAtPathContentsAttributes":                              {does: writes, level: level.Dangerous, rule: "jxa.write", follow: true, writes: []int{0}, rate: rFileOp},
	"createDirectoryAtPathWithIntermediateDirectoriesAttributesError": {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"createDirectoryAtURLWithIntermediateDirectoriesAttributesError":  {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"createSymbolicLinkAtPathWithDestinationPathError":                {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"moveItemAtPathToPathError":                                       {does: writes, level: level.Dangerous, rule: "jxa.write", follow: true, writes: []int{0, 1}, rate: rFileOp},
	"moveItemAtURLToURLError":                                         {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0, 1}, rate: rFileOp},
	"copyItemAtPathToPathError":                                       {does: writes, level: level.Dangerous, rule: "jxa.write", follow: true, reads: []int{0}, writes: []int{1}, rate: rFileOp},
	"copyItemAtURLToURLError":                                         {does: writes, level: level.Dangerous, rule: "jxa.write", reads: []int{0}, writes: []int{1}, rate: rFileOp},
	"linkItemAtPathToPathError":                                       {does: writes, level: level.Dangerous, rule: "jxa.write", reads: []int{0}, writes: []int{1}, rate: rFileOp},

	"removeItemAtPathError":               {does: deletes, level: level.Destructive, rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: level.Destructive, rate: rAlways},
	"removeItemAtURLError":                {does: deletes, level: level.Destructive, rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: level.Destructive, rate: rAlways},
	"removeItemAtPath":                    {does: deletes, level: level.Destructive, rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: level.Destructive, rate: rAlways},
	"removeItemAtURL":                     {does: deletes, level: level.Destructive, rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: level.Destructive, rate: rAlways},
	"unlink":                              {does: deletes, level: level.Destructive, rule: "jxa.unlink", cfunc: true, follow: true, ref: level.Destructive, rate: rCDelete},
	"remove":                              {does: deletes, level: level.Destructive, rule: "jxa.unlink", cfunc: true, follow: true, ref: level.Destructive, rate: rCDelete},
	"rmdir":                               {does: deletes, level: level.Destructive, rule: "jxa.unlink", cfunc: true, follow: true, ref: level.Destructive, rate: rCDelete},
	"truncate":                            {does: deletes, level: level.Destructive, rule: "jxa.truncate", cfunc: true, follow: true, ref: level.Destructive, rate: rCDelete},
	"truncateFileAtOffset":                {does: deletes, level: level.Destructive, rule: "jxa.truncate", text: "TRUNCATE: %s cuts a file short, destroying its contents", follow: true, ref: level.Destructive, rate: rAlways},
	"truncateAtOffsetError":               {does: deletes, level: level.Destructive, rule: "jxa.truncate", text: "TRUNCATE: %s cuts a file short, destroying its contents", follow: true, ref: level.Destructive, rate: rAlways},
	"setEof":                              {does: deletes, level: level.Destructive, rule: "jxa.truncate", text: "TRUNCATE: %s sets where a file ends, destroying what lies past it", follow: true, ref: level.Destructive, opts: []string{"to"}, rate: rAlways},
	"fileHandleForWritingAtPath":          {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"fileHandleForUpdatingAtPath":         {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"fileHandleForWritingToURLError":      {does: writes, level: level.Dangerous, rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"trashItemAtURLResultingItemURLError": {does: deletes, level: level.Dangerous, rule: "jxa.trash", text: "DELETE: moves an item to the Trash", follow: true, ref: level.Dangerous, rate: rAlways},
	"delete":                              {does: deletes, level: level.Dangerous, rule: "jxa.delete", follow: true, ref: level.Dangerous, rate: rDeleteItems},
	"move":                                {does: writes | deletes, level: level.Caution, rule: "jxa.move", follow: true, opts: []string{"to", "replacing", "positionedAt", "routingSuppressed"}, rate: rMoveItems},
	"empty":                               {does: deletes, level: level.Destructive, rule: "jxa.empty-trash", text: "EMPTY TRASH: Permanently deletes all items in Trash", follow: true, ref: level.Destructive, rate: rCalled},
	"emptyTrash":                          {does: deletes, level: level.Destructive, rule: "jxa.empty-trash", text: "EMPTY TRASH: Permanently deletes all items in Trash", follow: true, ref: level.Destructive, rate: rCalled},

	"read":                                  {does: reads, level: level.Dangerous, rule: "secret.jxa.read", follow: true, reads: []int{0}, opts: []string{"from", "for", "to", "until", "before", "usingDelimiter", "usingDelimiters", "as"}, rate: rFileRead},
	"stringWithContentsOfFileEncodingError": {does: reads, level: level.Dangerous, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"stringWithContentsOfFile":              {does: reads, level: level.Dangerous, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"dataWithContentsOfFile":                {does: reads, level: level.Dangerous, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"contentsAtPath":                        {does: reads, level: level.Dangerous, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"dataWithContentsOfURL":                 {does: reads | network, level: level.Caution, rule: "egress.jxa.network", reads: []int{0}, rate: rFileRead},
	"stringWithContentsOfURLEncodingError":  {does: reads | network, level: level.Caution, rule: "egress.jxa.network", reads: []int{0}, rate: rFileRead},

	// The network, mail and messages.
	"dataTaskWithURL":     {does: network, level: level.Caution, rule: "egress.jxa.network", text: "NETWORK: fetches from the network", rate: rAlways},
	"dataTaskWithRequest": {does: network, level: level.Caution, rule: "egress.jxa.network", text: "NETWORK: fetches from the network", rate: rAlways},
	"curl":                {does: network, level: level.Caution, rule: "egress.jxa.network", text: "NETWORK: fetches from the network", rate: rAlways},
	// The Keychain, through the Security framework on $.
	"SecItemCopyMatching":                  {does: reads, level: level.Dangerous, rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: level.Dangerous, rate: rAlways},
	"SecKeychainFindGenericPassword":       {does: reads, level: level.Dangerous, rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: level.Dangerous, rate: rAlways},
	"SecKeychainFindInternetPassword":      {does: reads, level: level.Dangerous, rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: level.Dangerous, rate: rAlways},
	"SecKeychainItemCopyContent":           {does: reads, level: level.Dangerous, rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: level.Dangerous, rate: rAlways},
	"SecKeychainItemCopyAttributesAndData": {does: reads, level: level.Dangerous, rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: level.Dangerous, rate: rAlways},

	"send": {does: sends, level: level.Dangerous, rule: "egress.jxa.send", follow: true, ref: level.Dangerous, rate: rSendMessage},

	// Opening files, applications and URLs.
	"openLocation":                          {does: opens, level: level.Caution, rule: "egress.jxa.open-url", follow: true, rate: rOpenCall},
	"openFile":                              {does: opens, level: level.Caution, rule: "jxa.open", follow: true, rate: rOpenCall},
	"openURL":                               {does: opens, level: level.Caution, rule: "jxa.open", follow: true, rate: rOpenCall},
	"openFileWithApplication":               {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"launchApplication":                     {does: opens, level: level.Caution, rule: "jxa.open", follow: true, rate: rOpenCall},
	"openURLConfigurationCompletionHandler": {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"openURLsWithApplicationAtURLConfigurationCompletionHandler":                            {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"openApplicationAtURLConfigurationCompletionHandler":                                    {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"launchAppWithBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifier":    {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"openFileWithApplicationAndDeactivate":                                                  {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"openURLWithAppBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifier":   {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"openURLsWithAppBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifiers": {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"openURLsWithApplicationAtURLOptionsConfigurationError":                                 {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"launchApplicationAtURLOptionsConfigurationError":                                       {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},
	"launchApplicationShowIconAutolaunch":                                                   {does: opens, level: level.Caution, rule: "jxa.open", rate: rOpenCall},

	// The user interface: keys, clicks, dialogs, the clipboard.
	"keystroke":               {does: ui | runsShell, level: level.Caution, rule: "jxa.keystroke", follow: true, opts: []string{"using"}, rate: rKeystroke},
	"keyCode":                 {does: ui, level: level.Caution, rule: "jxa.keycode", follow: true, opts: []string{"using"}, rate: rKeyCode},
	"keyDown":                 {does: ui, level: level.Caution, rule: "jxa.keycode", text: "KEY CODE: Simulates key presses", follow: true, rate: rAlways},
	"keyUp":                   {does: ui, level: level.Caution, rule: "jxa.keycode", text: "KEY CODE: Simulates key presses", follow: true, rate: rAlways},
	"click":                   {does: ui, level: level.Caution, rule: "jxa.click", follow: true, opts: []string{"at"}, rate: rClick},
	"perform":                 {does: ui, level: level.Caution, rule: "jxa.click", follow: true, rate: rClick},
	"hiddenAnswer":            {does: ui, level: level.Dangerous, rule: "secret.jxa.password-prompt", text: "PASSWORD PROMPT: asks for hidden input (a password) in a dialog that can imitate the system: possible phishing", rate: rOption},
	"administratorPrivileges": {does: runsShell, level: level.Destructive, rule: "jxa.admin", text: "ADMIN: runs a shell command with administrator privileges, as root (seed 000: sudo is critical)", rate: rOption},
	"setTheClipboardTo":       {does: ui, level: level.Caution, rule: "egress.jxa.clipboard", text: "CLIPBOARD: replaces the clipboard", follow: true, rate: rAlways},
	"setVolume":               {does: ui, level: level.Caution, rule: "jxa.volume", text: "VOLUME: changes the sound volume", follow: true, opts: []string{"outputVolume", "inputVolume", "alertVolume", "outputMuted"}, rate: rAlways},

	// The system: power, applications, login items.
	"shutDown": {does: power, level: level.Dangerous, rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: level.Dangerous, rate: rCalled},
	"shutdown": {does: power, level: level.Dangerous, rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: level.Dangerous, rate: rCalled},
	"restart":  {does: power, level: level.Dangerous, rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: level.Dangerous, rate: rCalled},
	"sleep":    {does: power, level: level.Dangerous, rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: level.Dangerous, rate: rCalled},
	"logOut":   {does: power, level: level.Dangerous, rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: level.Dangerous, rate: rCalled},
	"quit":     {does: state, level: level.Caution, rule: "jxa.quit", follow: true, opts: []string{"saving"}, rate: rQuitApp},

	"loginItems":     {does: persists, level: level.Destructive, rule: "jxa.login-item", text: "PERSISTENCE: adds a login item that starts at every login", follow: true, rate: rLoginItems},
	"folderActions":  {does: persists, level: level.Destructive, rule: "jxa.folder-action", text: "PERSISTENCE: attaches a folder action, a script that runs whenever the folder changes", follow: true, rate: rLoginItems},
	"LoginItem":      {does: persists, level: level.Destructive, rule: "jxa.login-item", text: "PERSISTENCE: adds a login item that starts at every login", follow: true, elems: true, rate: rLoginItem},
	"FolderAction":   {does: persists, level: level.Destructive, rule: "jxa.folder-action", text: "PERSISTENCE: attaches a folder action, a script that runs whenever the folder changes", follow: true, elems: true, rate: rLoginItem},
	"attachActionTo": {does: persists, level: level.Destructive, rule: "jxa.folder-action", text: "PERSISTENCE: attaches a folder action, a script that runs whenever the folder changes", opts: []string{"using"}, rate: rAlways},

	// Application state: the Standard Suite and media commands.
	"make":             {does: state | persists, level: level.Caution, rule: "jxa.make", follow: true, opts: []string{"new", "at", "withData", "withProperties"}, rate: rAppCommand},
	"push":             {does: state | persists, level: level.Caution, rule: "jxa.push", follow: true, elems: true, rate: rAppCommand},
	"duplicate":        {does: state, level: level.Caution, rule: "jxa.duplicate", follow: true, opts: []string{"to", "replacing", "routingSuppressed", "exactCopy", "withProperties"}, rate: rAppCommand},
	"open":             {does: opens, level: level.Caution, rule: "jxa.open", follow: true, opts: []string{"using", "withProperties"}, rate: rAppCommand},
	"close":            {does: state, level: level.Caution, rule: "jxa.close", opts: []string{"saving", "savingIn"}, rate: rAppCommand},
	"save":             {does: state, level: level.Caution, rule: "jxa.save", opts: []string{"in", "as"}, rate: rAppCommand},
	"print":            {does: state, level: level.Caution, rule: "jxa.print", opts: []string{"printDialog", "withProperties"}, rate: rAppCommand},
	"play":             {does: state, level: level.Caution, rule: "jxa.play", opts: []string{"once"}, rate: rAppCommand},
	"pause":            {does: state, level: level.Caution, rule: "jxa.pause", rate: rAppCommand},
	"playpause":        {does: state, level: level.Caution, rule: "jxa.playpause", rate: rAppCommand},
	"stop":             {does: state, level: level.Caution, rule: "jxa.stop", rate: rAppCommand},
	"nextTrack":        {does: state, level: level.Caution, rule: "jxa.nexttrack", rate: rAppCommand},
	"previousTrack":    {does: state, level: level.Caution, rule: "jxa.previoustrack", rate: rAppCommand},
	"backTrack":        {does: state, level: level.Caution, rule: "jxa.backtrack", rate: rAppCommand},
	"fastForward":      {does: state, level: level.Caution, rule: "jxa.fastforward", rate: rAppCommand},
	"rewind":           {does: state, level: level.Caution, rule: "jxa.rewind", rate: rAppCommand},
	"resume":           {does: state, level: level.Caution, rule: "jxa.resume", rate: rAppCommand},
	"reload":           {does: state, level: level.Caution, rule: "jxa.reload", rate: rAppCommand},
	"startScreenSaver": {does: state, level: level.Caution, rule: "jxa.startscreensaver", rate: rAppCommand},
	"eject":            {does: state, level: level.Caution, rule: "jxa.eject", rate: rAppCommand},
}

// rowOf returns the row of name, or a row rating nothing (rate rNone).
// Most names a script uses are no row: a look-up first checks the length
// and first byte against those of the rows.
func rowOf(name string) *method {
	if len(name) == 0 || len(name) >= len(rowShapes) || rowShapes[len(name)][name[0]>>6]&(1<<(name[0]&63)) == 0 {
		return &noRow
	}
	if m := methods[name]; m != nil {
		return m
	}
	return &noRow
}

var noRow method

// rowShapes marks, by length, the first bytes of the rows' names.
var rowShapes = func() (s [96][4]uint64) {
	for name := range methods {
		if len(name) < len(s) {
			s[len(name)][name[0]>>6] |= 1 << (name[0] & 63)
		}
	}
	return s
}()

// method is one row of methods.
type method struct {
	does   effect      // what the method does
	level  level.Level // the level of its finding when called
	rule   string      // that finding's rule id
	text   string      // its warning, for the rows rated by always and called (%s: the method's name)
	cfunc  bool        // a C function: rated only when called on $ (ObjC.import, bindFunction)
	follow bool        // a variable holding a reference to it is followed (var f = app.delete; f(…))
	ref    level.Level // what a reference to it that is not followed to a call implies

	reads, writes []int // the arguments that are paths the method reads, writes

	// opts are the keys of the options records ({key: value} arguments)
	// the method takes and the analyzer models: a closed list. A record
	// with any other key, or a key it cannot read, is Dangerous.
	opts  []string
	elems bool // its arguments are elements or their properties (push, LoginItem({…})), never options

	// rate names the function that reads the call and adds what it
	// finds (raters). Every row has one.
	rate rater
}

// effect is what a method does, for the reviewer and the contract tests.
type effect uint16

const (
	runsCode  effect = 1 << iota // runs a program or code Airlock reads only through its arguments
	runsShell                    // runs a shell command (or types one into a terminal)
	writes                       // writes files
	deletes                      // removes data (to the Trash or not)
	reads                        // reads files
	network                      // talks to the network
	sends                        // sends mail or messages as the person
	opens                        // opens a file, application or URL
	ui                           // drives the user interface
	power                        // shuts down, restarts, logs out, sleeps
	persists                     // makes something run at every login
	state                        // changes an application's state
)

// rater names a function of methods.go: rows name them by these constants,
// because the functions look rows up, and a table may not refer to itself.
type rater uint8

const (
	rNone rater = iota // the zero value: a row that forgot its function
	rDoShellScript
	rDoScript
	rCShell
	rEvalCall
	rCalled
	rNstaskRef
	rClassFromString
	rUserTaskRef
	rScriptFile
	rBindFunction
	rWriteText
	rOpenForAccess
	rFileOp
	rAlways
	rCDelete
	rDeleteItems
	rMoveItems
	rFileRead
	rSendMessage
	rOpenCall
	rKeystroke
	rKeyCode
	rClick
	rOption
	rQuitApp
	rLoginItems
	rLoginItem
	rAppCommand
	rBundleLoad
	rTerminalCommand
	rPerformSelector
	nRaters
)

// run calls the function r names. (A switch, not an array of functions:
// the functions reach the table again, eval's through Rate, and a
// package variable may not refer to itself.)
func (r rater) run(an *jsAn, u use) {
	switch r {
	case rDoShellScript:
		an.doShellScript(u)
	case rDoScript:
		an.doScript(u)
	case rCShell:
		an.cShell(u)
	case rEvalCall:
		an.evalCall(u)
	case rCalled:
		an.called(u)
	case rNstaskRef:
		an.nstaskRef(u)
	case rClassFromString:
		an.classFromString(u)
	case rUserTaskRef:
		an.userTaskRef(u)
	case rScriptFile:
		an.scriptFile(u)
	case rBindFunction:
		an.bindFunction(u)
	case rWriteText:
		an.writeText(u)
	case rOpenForAccess:
		an.openForAccess(u)
	case rFileOp:
		an.fileOp(u)
	case rAlways:
		an.always(u)
	case rCDelete:
		an.cDelete(u)
	case rDeleteItems:
		an.deleteItems(u)
	case rMoveItems:
		an.moveItems(u)
	case rFileRead:
		an.fileRead(u)
	case rSendMessage:
		an.sendMessage(u)
	case rOpenCall:
		an.openCall(u)
	case rKeystroke:
		an.keystroke(u)
	case rKeyCode:
		an.keyCode(u)
	case rClick:
		an.click(u)
	case rOption:
		an.option(u)
	case rQuitApp:
		an.quitApp(u)
	case rLoginItems:
		an.loginItems(u)
	case rLoginItem:
		an.loginItem(u)
	case rAppCommand:
		an.appCommand(u)
	case rBundleLoad:
		an.bundleLoad(u)
	case rTerminalCommand:
		an.terminalCommand(u)
	case rPerformSelector:
		an.performSelector(u)
	default: // a row naming no function (TestMethodsTable refuses one)
		an.add(level.Destructive, "jxa.unrated", u.sp, "%s is not rated: Airlock's table has no function for it", u.r.name)
	}
}
