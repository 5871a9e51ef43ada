package jxa

import "github.com/airlockhq/airlock/app/internal/risk/effect"

// The rules of JXA: one row per method (or object, or option key) the
// analyzer rates, keyed by its name as a script spells it. A name that is
// not here is rated by what it is called on: a command to an application
// Airlock does not know is Dangerous, and so is one a known application
// does not model (apps, commands.go); the rest is plain JavaScript.
//
// A row says what calling the method does (fx, an effect: its level is the
// calibration table's, effect.Calibrate), what else its function may find
// (does), its rule id, the arguments that are paths it reads or writes,
// the keys of the options records it models (opts: any other is Dangerous), what a reference
// to it that is not followed to its call implies (ref; follow: variables
// holding one are followed, var f = app.doShellScript; f(…)), and, where a
// table cannot say it, the function that reads its arguments (rate). A map
// literal with constant keys: the compiler refuses a second row for a name.
//
// To change how a JXA method is rated, change its row here; methods.go holds
// the functions rows name.
var methods = map[string]*method{
	// Code: shells, programs, scripts and JavaScript built from strings.
	"doShellScript": {fx: effect.Of(effect.Shell), does: []effect.Kind{effect.Admin}, rule: "jxa.shell", follow: true, ref: effect.Of(effect.Shell, effect.Computed), opts: []string{"administratorPrivileges", "withPrompt", "userName", "password", "alteringLineEndings"}, rate: rDoShellScript},
	"doScript":      {fx: effect.Of(effect.Run), does: []effect.Kind{effect.RunUnseen}, rule: "jxa.terminal", follow: true, ref: effect.Of(effect.RunUnseen), opts: []string{"in"}, rate: rDoScript},
	"system":        {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},
	"popen":         {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},
	"execv":         {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},
	"execve":        {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},
	"execvp":        {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},
	"execl":         {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},
	"execlp":        {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},
	"posix_spawn":   {fx: effect.Of(effect.Shell), rule: "jxa.system", cfunc: true, follow: true, ref: effect.Of(effect.Shell, effect.Computed), rate: rCShell},

	"eval":                   {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, ref: effect.Of(effect.Run, effect.Computed), rate: rEvalCall},
	"Function":               {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, ref: effect.Of(effect.Run, effect.Computed), rate: rEvalCall},
	"constructor":            {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, rate: rEvalCall},
	"runScript":              {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, ref: effect.Of(effect.Run, effect.Computed), opts: []string{"in", "withParameters"}, rate: rEvalCall},
	"initWithSource":         {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, rate: rEvalCall},
	"initWithSourceError":    {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, rate: rEvalCall},
	"initWithSourceLanguage": {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, rate: rEvalCall},
	"setTimeout":             {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, rate: rEvalCall},
	"setInterval":            {fx: effect.Of(effect.Run), rule: "jxa.eval", follow: true, rate: rEvalCall},

	// iTerm's new windows, tabs and panes run the command their options give.
	"createWindowWithDefaultProfile":      {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"createWindowWithProfile":             {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"createTabWithDefaultProfile":         {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"createTabWithProfile":                {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitVerticallyWithDefaultProfile":   {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitHorizontallyWithDefaultProfile": {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitVerticallyWithProfile":          {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitHorizontallyWithProfile":        {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitVerticallyWithSameProfile":      {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},
	"splitHorizontallyWithSameProfile":    {fx: effect.Of(effect.Run), rule: "jxa.terminal", opts: []string{"command"}, rate: rTerminalCommand},

	// NSObject's performSelector…: the method its first argument names.
	"performSelector":                                    {fx: effect.Of(effect.Unknown), does: []effect.Kind{effect.Run}, rule: "jxa.objc-perform", follow: true, rate: rPerformSelector},
	"performSelectorWithObject":                          {fx: effect.Of(effect.Unknown), does: []effect.Kind{effect.Run}, rule: "jxa.objc-perform", follow: true, rate: rPerformSelector},
	"performSelectorWithObjectWithObject":                {fx: effect.Of(effect.Unknown), does: []effect.Kind{effect.Run}, rule: "jxa.objc-perform", follow: true, rate: rPerformSelector},
	"performSelectorWithObjectAfterDelay":                {fx: effect.Of(effect.Unknown), does: []effect.Kind{effect.Run}, rule: "jxa.objc-perform", rate: rPerformSelector},
	"performSelectorOnMainThreadWithObjectWaitUntilDone": {fx: effect.Of(effect.Unknown), does: []effect.Kind{effect.Run}, rule: "jxa.objc-perform", rate: rPerformSelector},
	"performSelectorInBackgroundWithObject":              {fx: effect.Of(effect.Unknown), does: []effect.Kind{effect.Run}, rule: "jxa.objc-perform", rate: rPerformSelector},

	"doJavaScript": {fx: effect.Of(effect.RunUnseen), rule: "jxa.javascript", text: "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session", follow: true, ref: effect.Of(effect.RunUnseen), opts: []string{"in"}, rate: rCalled},
	"execute":      {fx: effect.Of(effect.RunUnseen), rule: "jxa.javascript", text: "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session", follow: true, ref: effect.Of(effect.RunUnseen), opts: []string{"javascript"}, rate: rCalled},

	"NSTask":                              {fx: effect.Of(effect.Shell), rule: "jxa.nstask", rate: rNstaskRef},
	"launchedTaskWithLaunchPathArguments": {fx: effect.Of(effect.Shell), rule: "jxa.nstask", follow: true, rate: rNstaskRef},
	"launchedTaskWithExecutableURLArgumentsErrorTerminationHandler": {fx: effect.Of(effect.Shell), rule: "jxa.nstask", rate: rNstaskRef},
	"NSClassFromString":          {fx: effect.Of(effect.Unknown), does: []effect.Kind{effect.Run}, rule: "jxa.objc-class", follow: true, rate: rClassFromString},
	"NSUserUnixTask":             {fx: effect.Of(effect.RunUnseen), rule: "jxa.user-task", rate: rUserTaskRef},
	"NSUserAppleScriptTask":      {fx: effect.Of(effect.RunUnseen), rule: "jxa.user-task", rate: rUserTaskRef},
	"NSUserAutomatorTask":        {fx: effect.Of(effect.RunUnseen), rule: "jxa.user-task", rate: rUserTaskRef},
	"initWithURLError":           {fx: effect.Of(effect.RunUnseen, effect.Computed), rule: "jxa.script-file-computed", rate: rScriptFile},
	"initWithContentsOfURLError": {fx: effect.Of(effect.RunUnseen), rule: "jxa.script-file", rate: rScriptFile},
	"loadScript":                 {fx: effect.Of(effect.RunUnseen), rule: "jxa.load-script", text: "LOAD SCRIPT: %s loads a compiled script that is not analysed", follow: true, ref: effect.Of(effect.RunUnseen), rate: rCalled},
	"storeScript":                {fx: effect.Of(effect.Overwrite), rule: "jxa.store-script", text: "STORE SCRIPT: %s writes a compiled script to disk", follow: true, ref: effect.Of(effect.Overwrite), opts: []string{"in", "replacing"}, rate: rCalled},
	"Library":                    {fx: effect.Of(effect.RunUnseen), rule: "jxa.library", text: "SCRIPT: Library loads a script library from ~/Library/Script Libraries, which Airlock does not analyse", rate: rAlways},
	"loadAndReturnError":         {fx: effect.Of(effect.RunUnseen), rule: "jxa.bundle-load", text: "CODE: %s loads a bundle's code into the script", follow: true, ref: effect.Of(effect.RunUnseen), rate: rAlways},
	"load":                       {fx: effect.Of(effect.RunUnseen), rule: "jxa.bundle-load", rate: rBundleLoad},
	"dlopen":                     {fx: effect.Of(effect.RunUnseen), rule: "jxa.bundle-load", text: "CODE: %s loads a library's code into the script", cfunc: true, follow: true, ref: effect.Of(effect.RunUnseen), rate: rAlways},
	"bindFunction":               {fx: effect.Of(effect.Run), rule: "jxa.bind-function", follow: true, rate: rBindFunction},

	// Files: writes, removals and reads, with the arguments that are paths.
	"write":         {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Run}, rule: "jxa.write", follow: true, opts: []string{"to", "startingAt", "as", "text", "newline"}, rate: rWriteText},
	"openForAccess": {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Read}, rule: "jxa.write", follow: true, opts: []string{"writePermission"}, rate: rOpenForAccess},

	"writeToFileAtomicallyEncodingError":                              {fx: effect.Of(effect.Overwrite), rule: "jxa.write", follow: true, writes: []int{0}, rate: rFileOp},
	"writeToFileAtomically":                                           {fx: effect.Of(effect.Overwrite), rule: "jxa.write", follow: true, writes: []int{0}, rate: rFileOp},
	"writeToURLAtomicallyEncodingError":                               {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"writeToURLAtomically":                                            {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"writeToFileOptionsError":                                         {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"writeToURLOptionsError":                                          {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"createFileAtPathContentsAttributes":                              {fx: effect.Of(effect.Overwrite), rule: "jxa.write", follow: true, writes: []int{0}, rate: rFileOp},
	"createDirectoryAtPathWithIntermediateDirectoriesAttributesError": {fx: effect.Of(effect.Create), rule: "jxa.mkdir", text: "MKDIR: %s creates folders", writes: []int{0}, rate: rFileOp},
	"createDirectoryAtURLWithIntermediateDirectoriesAttributesError":  {fx: effect.Of(effect.Create), rule: "jxa.mkdir", text: "MKDIR: %s creates folders", writes: []int{0}, rate: rFileOp},
	"createSymbolicLinkAtPathWithDestinationPathError":                {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Read}, rule: "jxa.write", reads: []int{1}, writes: []int{0}, rate: rFileOp},
	"createSymbolicLinkAtURLWithDestinationURLError":                  {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Read}, rule: "jxa.write", reads: []int{1}, writes: []int{0}, rate: rFileOp},
	"linkItemAtURLToURLError":                                         {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Read}, rule: "jxa.write", reads: []int{0}, writes: []int{1}, rate: rFileOp},
	"moveItemAtPathToPathError":                                       {fx: effect.Of(effect.Overwrite), rule: "jxa.write", follow: true, writes: []int{0, 1}, rate: rFileOp},
	"moveItemAtURLToURLError":                                         {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0, 1}, rate: rFileOp},
	"copyItemAtPathToPathError":                                       {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Read}, rule: "jxa.write", follow: true, reads: []int{0}, writes: []int{1}, rate: rFileOp},
	"copyItemAtURLToURLError":                                         {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Read}, rule: "jxa.write", reads: []int{0}, writes: []int{1}, rate: rFileOp},
	"linkItemAtPathToPathError":                                       {fx: effect.Of(effect.Overwrite), does: []effect.Kind{effect.Read}, rule: "jxa.write", reads: []int{0}, writes: []int{1}, rate: rFileOp},

	"removeItemAtPathError":               {fx: effect.Of(effect.Remove), rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: effect.Of(effect.Remove), rate: rAlways},
	"removeItemAtURLError":                {fx: effect.Of(effect.Remove), rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: effect.Of(effect.Remove), rate: rAlways},
	"removeItemAtPath":                    {fx: effect.Of(effect.Remove), rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: effect.Of(effect.Remove), rate: rAlways},
	"removeItemAtURL":                     {fx: effect.Of(effect.Remove), rule: "jxa.remove", text: "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", follow: true, ref: effect.Of(effect.Remove), rate: rAlways},
	"unlink":                              {fx: effect.Of(effect.Remove), rule: "jxa.unlink", cfunc: true, follow: true, ref: effect.Of(effect.Remove), rate: rCDelete},
	"remove":                              {fx: effect.Of(effect.Remove), rule: "jxa.unlink", cfunc: true, follow: true, ref: effect.Of(effect.Remove), rate: rCDelete},
	"rmdir":                               {fx: effect.Of(effect.Remove), rule: "jxa.unlink", cfunc: true, follow: true, ref: effect.Of(effect.Remove), rate: rCDelete},
	"truncate":                            {fx: effect.Of(effect.Remove), rule: "jxa.truncate", cfunc: true, follow: true, ref: effect.Of(effect.Remove), rate: rCDelete},
	"truncateFileAtOffset":                {fx: effect.Of(effect.Remove), rule: "jxa.truncate", text: "TRUNCATE: %s cuts a file short, destroying its contents", follow: true, ref: effect.Of(effect.Remove), rate: rAlways},
	"truncateAtOffsetError":               {fx: effect.Of(effect.Remove), rule: "jxa.truncate", text: "TRUNCATE: %s cuts a file short, destroying its contents", follow: true, ref: effect.Of(effect.Remove), rate: rAlways},
	"setEof":                              {fx: effect.Of(effect.Remove), rule: "jxa.truncate", text: "TRUNCATE: %s sets where a file ends, destroying what lies past it", follow: true, ref: effect.Of(effect.Remove), opts: []string{"to"}, rate: rAlways},
	"fileHandleForWritingAtPath":          {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"fileHandleForUpdatingAtPath":         {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"fileHandleForWritingToURLError":      {fx: effect.Of(effect.Overwrite), rule: "jxa.write", writes: []int{0}, rate: rFileOp},
	"trashItemAtURLResultingItemURLError": {fx: effect.Of(effect.Trash), rule: "jxa.trash", text: "DELETE: moves an item to the Trash", follow: true, ref: effect.Of(effect.Trash), rate: rAlways},
	"delete":                              {fx: effect.Of(effect.Trash), does: []effect.Kind{effect.Remove}, rule: "jxa.delete", follow: true, ref: effect.Of(effect.Trash), rate: rDeleteItems},
	"move":                                {fx: effect.Of(effect.Change), does: []effect.Kind{effect.Trash, effect.Overwrite}, rule: "jxa.move", follow: true, opts: []string{"to", "replacing", "positionedAt", "routingSuppressed"}, rate: rMoveItems},
	"empty":                               {fx: effect.Of(effect.Remove, effect.Bulk), rule: "jxa.empty-trash", text: "EMPTY TRASH: Permanently deletes all items in Trash", follow: true, ref: effect.Of(effect.Remove, effect.Bulk), rate: rCalled},
	"emptyTrash":                          {fx: effect.Of(effect.Remove, effect.Bulk), rule: "jxa.empty-trash", text: "EMPTY TRASH: Permanently deletes all items in Trash", follow: true, ref: effect.Of(effect.Remove, effect.Bulk), rate: rCalled},

	"read":                                  {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", follow: true, reads: []int{0}, opts: []string{"from", "for", "to", "until", "before", "usingDelimiter", "usingDelimiters", "as"}, rate: rFileRead},
	"stringWithContentsOfFileEncodingError": {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"stringWithContentsOfFile":              {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"dataWithContentsOfFile":                {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"contentsAtPath":                        {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	// The other ways Foundation reads a file whole, or opens it to read:
	// a property list or JSON file read as a dictionary or array prints
	// what it holds as surely as a string does.
	"dictionaryWithContentsOfFile":              {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"arrayWithContentsOfFile":                   {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"initWithContentsOfFile":                    {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"initWithContentsOfFileEncodingError":       {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"stringWithContentsOfFileUsedEncodingError": {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"initWithContentsOfFileUsedEncodingError":   {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"dataWithContentsOfFileOptionsError":        {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"initWithContentsOfFileOptionsError":        {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"fileHandleForReadingAtPath":                {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"inputStreamWithFileAtPath":                 {fx: effect.Of(effect.ReadSecret), does: []effect.Kind{effect.Read}, rule: "secret.jxa.read", reads: []int{0}, rate: rFileRead},
	"dataWithContentsOfURL":                     {fx: effect.Of(effect.Fetch), does: []effect.Kind{effect.Read}, rule: "egress.jxa.network", reads: []int{0}, rate: rFileRead},
	"stringWithContentsOfURLEncodingError":      {fx: effect.Of(effect.Fetch), does: []effect.Kind{effect.Read}, rule: "egress.jxa.network", reads: []int{0}, rate: rFileRead},

	// The network, mail and messages.
	"dataTaskWithURL":     {fx: effect.Of(effect.Fetch), rule: "egress.jxa.network", text: "NETWORK: fetches from the network", rate: rAlways},
	"dataTaskWithRequest": {fx: effect.Of(effect.Fetch), rule: "egress.jxa.network", text: "NETWORK: fetches from the network", rate: rAlways},
	"curl":                {fx: effect.Of(effect.Fetch), rule: "egress.jxa.network", text: "NETWORK: fetches from the network", rate: rAlways},
	// The Keychain, through the Security framework on $.
	"SecItemCopyMatching":                  {fx: effect.Of(effect.ReadSecret), rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: effect.Of(effect.ReadSecret), rate: rAlways},
	"SecKeychainFindGenericPassword":       {fx: effect.Of(effect.ReadSecret), rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: effect.Of(effect.ReadSecret), rate: rAlways},
	"SecKeychainFindInternetPassword":      {fx: effect.Of(effect.ReadSecret), rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: effect.Of(effect.ReadSecret), rate: rAlways},
	"SecKeychainItemCopyContent":           {fx: effect.Of(effect.ReadSecret), rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: effect.Of(effect.ReadSecret), rate: rAlways},
	"SecKeychainItemCopyAttributesAndData": {fx: effect.Of(effect.ReadSecret), rule: "secret.jxa.keychain", text: "KEYCHAIN: %s reads passwords or keys from the Keychain", cfunc: true, follow: true, ref: effect.Of(effect.ReadSecret), rate: rAlways},

	"send": {fx: effect.Of(effect.Send), rule: "egress.jxa.send", follow: true, ref: effect.Of(effect.Send), rate: rSendMessage},

	// Opening files, applications and URLs.
	"openLocation":                          {fx: effect.Of(effect.Egress), rule: "egress.jxa.open-url", follow: true, rate: rOpenCall},
	"openFile":                              {fx: effect.Of(effect.Launch), rule: "jxa.open", follow: true, rate: rOpenCall},
	"openURL":                               {fx: effect.Of(effect.Launch), rule: "jxa.open", follow: true, rate: rOpenCall},
	"openFileWithApplication":               {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"launchApplication":                     {fx: effect.Of(effect.Launch), rule: "jxa.open", follow: true, rate: rOpenCall},
	"openURLConfigurationCompletionHandler": {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"openURLsWithApplicationAtURLConfigurationCompletionHandler":                            {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"openApplicationAtURLConfigurationCompletionHandler":                                    {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"launchAppWithBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifier":    {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"openFileWithApplicationAndDeactivate":                                                  {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"openURLWithAppBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifier":   {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"openURLsWithAppBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifiers": {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"openURLsWithApplicationAtURLOptionsConfigurationError":                                 {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"launchApplicationAtURLOptionsConfigurationError":                                       {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},
	"launchApplicationShowIconAutolaunch":                                                   {fx: effect.Of(effect.Launch), rule: "jxa.open", rate: rOpenCall},

	// The user interface: keys, clicks, dialogs, the clipboard.
	"systemAttribute":         {fx: effect.Of(effect.ReadNamedSecret), rule: "secret.jxa.environment", follow: true, ref: effect.Of(effect.ReadNamedSecret), rate: rEnvRead},
	"environment":             {fx: effect.Of(effect.ReadNamedSecret), rule: "secret.jxa.environment", elems: true, rate: rProcessEnv},                                                    // a property: no options record to model
	"getenv":                  {fx: effect.Of(effect.ReadNamedSecret), rule: "secret.jxa.environment", cfunc: true, follow: true, ref: effect.Of(effect.ReadNamedSecret), rate: rEnvRead}, // var e = $.getenv; e('GITHUB_TOKEN')
	"keystroke":               {fx: effect.Of(effect.Input), does: []effect.Kind{effect.Shell}, rule: "jxa.keystroke", follow: true, opts: []string{"using"}, rate: rKeystroke},
	"keyCode":                 {fx: effect.Of(effect.Input), rule: "jxa.keycode", follow: true, opts: []string{"using"}, rate: rKeyCode},
	"keyDown":                 {fx: effect.Of(effect.Input), rule: "jxa.keycode", text: "KEY CODE: Simulates key presses", follow: true, rate: rAlways},
	"keyUp":                   {fx: effect.Of(effect.Input), rule: "jxa.keycode", text: "KEY CODE: Simulates key presses", follow: true, rate: rAlways},
	"click":                   {fx: effect.Of(effect.Input), rule: "jxa.click", follow: true, opts: []string{"at"}, rate: rClick},
	"perform":                 {fx: effect.Of(effect.Input), rule: "jxa.click", follow: true, rate: rClick},
	"hiddenAnswer":            {fx: effect.Of(effect.ReadSecret), rule: "secret.jxa.password-prompt", text: "PASSWORD PROMPT: asks for hidden input (a password) in a dialog that can imitate the system: possible phishing", rate: rOption},
	"administratorPrivileges": {fx: effect.Of(effect.Admin, effect.Session), rule: "jxa.admin", text: "ADMIN: runs a shell command with administrator privileges, as root (seed 000: sudo is critical)", rate: rOption},
	"setTheClipboardTo":       {fx: effect.Of(effect.Egress), rule: "egress.jxa.clipboard", text: "CLIPBOARD: replaces the clipboard", follow: true, rate: rAlways},
	"setVolume":               {fx: effect.Of(effect.Setting), rule: "jxa.volume", text: "VOLUME: changes the sound volume", follow: true, opts: []string{"outputVolume", "inputVolume", "alertVolume", "outputMuted"}, rate: rAlways},

	// The system: power, applications, login items.
	"shutDown": {fx: effect.Of(effect.Power), rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: effect.Of(effect.Power), rate: rCalled},
	"shutdown": {fx: effect.Of(effect.Power), rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: effect.Of(effect.Power), rate: rCalled},
	"restart":  {fx: effect.Of(effect.Power), rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: effect.Of(effect.Power), rate: rCalled},
	"sleep":    {fx: effect.Of(effect.Power), rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: effect.Of(effect.Power), rate: rCalled},
	"logOut":   {fx: effect.Of(effect.Power), rule: "jxa.power", text: "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac", follow: true, ref: effect.Of(effect.Power), rate: rCalled},
	"quit":     {fx: effect.Of(effect.Quit), rule: "jxa.quit", follow: true, opts: []string{"saving"}, rate: rQuitApp},

	"loginItems":     {fx: effect.Of(effect.Persist), rule: "jxa.login-item", text: "PERSISTENCE: adds a login item that starts at every login", follow: true, rate: rLoginItems},
	"folderActions":  {fx: effect.Of(effect.Persist), rule: "jxa.folder-action", text: "PERSISTENCE: attaches a folder action, a script that runs whenever the folder changes", follow: true, rate: rLoginItems},
	"LoginItem":      {fx: effect.Of(effect.Persist), rule: "jxa.login-item", text: "PERSISTENCE: adds a login item that starts at every login", follow: true, elems: true, rate: rLoginItem},
	"FolderAction":   {fx: effect.Of(effect.Persist), rule: "jxa.folder-action", text: "PERSISTENCE: attaches a folder action, a script that runs whenever the folder changes", follow: true, elems: true, rate: rLoginItem},
	"Rule":           {fx: effect.Of(effect.Change, effect.Bulk), rule: "jxa.mail-rule", text: "MAIL RULE: acts on every incoming message from now on", follow: true, elems: true, rate: rLoginItem},
	"OpenFileAlarm":  {fx: effect.Of(effect.Persist), rule: "jxa.file-alarm", text: "ALARM: makes a calendar alarm that opens a file (runs it) when the event fires, after this action is over (persistence)", follow: true, elems: true, rate: rLoginItem},
	"openFileAlarms": {fx: effect.Of(effect.Persist), rule: "jxa.file-alarm", text: "ALARM: makes a calendar alarm that opens a file (runs it) when the event fires, after this action is over (persistence)", follow: true, rate: rLoginItems},
	"attachActionTo": {fx: effect.Of(effect.Persist), rule: "jxa.folder-action", text: "PERSISTENCE: attaches a folder action, a script that runs whenever the folder changes", opts: []string{"using"}, rate: rAlways},

	// Application state: the Standard Suite and media commands.
	"make":             {fx: effect.Of(effect.AppState), does: []effect.Kind{effect.Persist}, rule: "jxa.make", follow: true, opts: []string{"new", "at", "withData", "withProperties"}, rate: rAppCommand},
	"push":             {fx: effect.Of(effect.AppState), does: []effect.Kind{effect.Persist}, rule: "jxa.push", follow: true, elems: true, rate: rAppCommand},
	"duplicate":        {fx: effect.Of(effect.AppState), does: []effect.Kind{effect.Overwrite}, rule: "jxa.duplicate", follow: true, opts: []string{"to", "replacing", "routingSuppressed", "exactCopy", "withProperties"}, rate: rAppCommand},
	"open":             {fx: effect.Of(effect.Launch), rule: "jxa.open", follow: true, opts: []string{"using", "withProperties"}, rate: rAppCommand},
	"close":            {fx: effect.Of(effect.AppState), does: []effect.Kind{effect.Overwrite}, rule: "jxa.close", opts: []string{"saving", "savingIn"}, rate: rAppCommand},
	"save":             {fx: effect.Of(effect.Overwrite), rule: "jxa.save", opts: []string{"in", "as"}, rate: rAppCommand},
	"print":            {fx: effect.Of(effect.AppState), rule: "jxa.print", opts: []string{"printDialog", "withProperties"}, rate: rAppCommand},
	"play":             {fx: effect.Of(effect.AppState), rule: "jxa.play", opts: []string{"once"}, rate: rAppCommand},
	"pause":            {fx: effect.Of(effect.AppState), rule: "jxa.pause", rate: rAppCommand},
	"playpause":        {fx: effect.Of(effect.AppState), rule: "jxa.playpause", rate: rAppCommand},
	"stop":             {fx: effect.Of(effect.AppState), rule: "jxa.stop", rate: rAppCommand},
	"nextTrack":        {fx: effect.Of(effect.AppState), rule: "jxa.nexttrack", rate: rAppCommand},
	"previousTrack":    {fx: effect.Of(effect.AppState), rule: "jxa.previoustrack", rate: rAppCommand},
	"backTrack":        {fx: effect.Of(effect.AppState), rule: "jxa.backtrack", rate: rAppCommand},
	"fastForward":      {fx: effect.Of(effect.AppState), rule: "jxa.fastforward", rate: rAppCommand},
	"rewind":           {fx: effect.Of(effect.AppState), rule: "jxa.rewind", rate: rAppCommand},
	"resume":           {fx: effect.Of(effect.AppState), rule: "jxa.resume", rate: rAppCommand},
	"reload":           {fx: effect.Of(effect.AppState), rule: "jxa.reload", rate: rAppCommand},
	"startScreenSaver": {fx: effect.Of(effect.AppState), rule: "jxa.startscreensaver", rate: rAppCommand},
	"eject":            {fx: effect.Of(effect.AppState), rule: "jxa.eject", rate: rAppCommand},
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
	// fx is what calling the method does: the effect of the row's own
	// finding (always, called, option …) and of a selector naming it
	// (performSelector). Its level is the calibration table's.
	fx     effect.Effect
	does   []effect.Kind // what else the row's function may find, beyond fx: for the reviewer and the contract tests
	rule   string        // the finding's rule id
	text   string        // its warning, for the rows rated by always and called (%s: the method's name)
	cfunc  bool          // a C function: rated only when called on $ (ObjC.import, bindFunction)
	follow bool          // a variable holding a reference to it is followed (var f = app.delete; f(…))
	ref    effect.Effect // what a reference to it that is not followed to a call implies (zero: nothing)

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
	rEnvRead
	rProcessEnv
	nRaters
)

// raters are the functions the rows name, by their rater. They are set in
// init, not by the variable's own initialiser: the functions reach the
// table again (eval's through Rate), and a package variable may not refer
// to itself.
var raters [nRaters]func(*jsAn, use)

func init() {
	raters = [nRaters]func(*jsAn, use){
		rDoShellScript:   (*jsAn).doShellScript,
		rDoScript:        (*jsAn).doScript,
		rCShell:          (*jsAn).cShell,
		rEvalCall:        (*jsAn).evalCall,
		rCalled:          (*jsAn).called,
		rNstaskRef:       (*jsAn).nstaskRef,
		rClassFromString: (*jsAn).classFromString,
		rUserTaskRef:     (*jsAn).userTaskRef,
		rScriptFile:      (*jsAn).scriptFile,
		rBindFunction:    (*jsAn).bindFunction,
		rWriteText:       (*jsAn).writeText,
		rOpenForAccess:   (*jsAn).openForAccess,
		rFileOp:          (*jsAn).fileOp,
		rAlways:          (*jsAn).always,
		rCDelete:         (*jsAn).cDelete,
		rDeleteItems:     (*jsAn).deleteItems,
		rMoveItems:       (*jsAn).moveItems,
		rFileRead:        (*jsAn).fileRead,
		rSendMessage:     (*jsAn).sendMessage,
		rOpenCall:        (*jsAn).openCall,
		rKeystroke:       (*jsAn).keystroke,
		rKeyCode:         (*jsAn).keyCode,
		rClick:           (*jsAn).click,
		rOption:          (*jsAn).option,
		rQuitApp:         (*jsAn).quitApp,
		rLoginItems:      (*jsAn).loginItems,
		rLoginItem:       (*jsAn).loginItem,
		rAppCommand:      (*jsAn).appCommand,
		rBundleLoad:      (*jsAn).bundleLoad,
		rTerminalCommand: (*jsAn).terminalCommand,
		rPerformSelector: (*jsAn).performSelector,
		rEnvRead:         (*jsAn).envRead,
		rProcessEnv:      (*jsAn).processEnv,
	}
}

// run calls the function r names.
func (r rater) run(an *jsAn, u use) {
	if r > rNone && r < nRaters && raters[r] != nil {
		raters[r](an, u)
		return
	}
	// A row naming no function (TestMethodsTable refuses one).
	an.add(effect.Of(effect.Unknown, effect.Computed), "jxa.unrated", u.sp, "%s is not rated: Airlock's table has no function for it", u.r.name)
}
