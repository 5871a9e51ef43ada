package facts

import (
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// The Objective-C bridges (AppleScriptObjC's `current application's
// NSFileManager's …`, JXA's $.NSFileManager…) reach every class of the
// system frameworks. These tables say what the classes and methods an
// analyzer rates do; a method on a class that is not a Value class, and is
// not in ObjCMethods, is one the analyzers do not model, and they rate it
// Dangerous.

// ObjCClass is what a class is to the analyzers.
type ObjCClass struct {
	// Value: a class of values (text, numbers, dates, collections,
	// formatting). Its methods change nothing outside the script, except
	// those ObjCMethods names (writeToFile: …), which are rated wherever
	// they are called.
	Value bool
	What  string // what the class does, for warnings; "" for Value classes
}

// ObjCClasses are the classes the analyzers know, by name.
var ObjCClasses = map[string]ObjCClass{
	// Values: text, numbers, dates, collections, formatting, geometry.
	"NSString": {Value: true}, "NSMutableString": {Value: true}, "NSAttributedString": {Value: true},
	"NSMutableAttributedString": {Value: true}, "NSCharacterSet": {Value: true}, "NSScanner": {Value: true},
	"NSRegularExpression": {Value: true}, "NSPredicate": {Value: true}, "NSSortDescriptor": {Value: true},
	"NSNumber": {Value: true}, "NSDecimalNumber": {Value: true}, "NSNumberFormatter": {Value: true},
	"NSDate": {Value: true}, "NSDateFormatter": {Value: true}, "NSISO8601DateFormatter": {Value: true},
	"NSDateComponents": {Value: true}, "NSDateComponentsFormatter": {Value: true}, "NSDateInterval": {Value: true},
	"NSCalendar": {Value: true}, "NSTimeZone": {Value: true}, "NSLocale": {Value: true},
	"NSByteCountFormatter": {Value: true}, "NSMeasurementFormatter": {Value: true}, "NSPersonNameComponentsFormatter": {Value: true},
	"NSArray": {Value: true}, "NSMutableArray": {Value: true}, "NSDictionary": {Value: true},
	"NSMutableDictionary": {Value: true}, "NSSet": {Value: true}, "NSMutableSet": {Value: true},
	"NSCountedSet": {Value: true}, "NSOrderedSet": {Value: true}, "NSMutableOrderedSet": {Value: true},
	"NSIndexSet": {Value: true}, "NSMutableIndexSet": {Value: true}, "NSValue": {Value: true}, "NSNull": {Value: true},
	"NSData": {Value: true}, "NSMutableData": {Value: true}, "NSUUID": {Value: true},
	"NSJSONSerialization": {Value: true}, "NSPropertyListSerialization": {Value: true},
	"NSURL": {Value: true}, "NSURLComponents": {Value: true}, "NSURLQueryItem": {Value: true},
	"NSXMLDocument": {Value: true}, "NSXMLElement": {Value: true},
	"NSXMLNode": {Value: true}, "NSColor": {Value: true}, "NSFont": {Value: true}, "NSImage": {Value: true},
	"NSBitmapImageRep": {Value: true}, "NSScreen": {Value: true}, "NSThread": {Value: true},
	"NSProcessInfo": {Value: true}, "NSHost": {Value: true}, "NSAlert": {Value: true}, "NSOpenPanel": {Value: true},
	"NSSavePanel": {Value: true}, "NSSound": {Value: true}, "NSSpeechSynthesizer": {Value: true},
	"NSTextView": {Value: true}, "NSTextField": {Value: true}, "NSButton": {Value: true}, "NSWindow": {Value: true},
	"NSView": {Value: true}, "NSMenu": {Value: true}, "NSMenuItem": {Value: true}, "NSStatusBar": {Value: true},
	"NSApplication": {Value: true}, "NSEvent": {Value: true}, "NSTimer": {Value: true}, "NSRunLoop": {Value: true},
	"NSLinguisticTagger": {Value: true}, "NSOrthography": {Value: true}, "NSSpellChecker": {Value: true},
	"NSMetadataQuery": {Value: true}, "NSMetadataItem": {Value: true}, "NSFormatter": {Value: true},
	"NSExpression": {Value: true}, "NSNotification": {Value: true}, "NSError": {Value: true},
	"NSObject": {Value: true}, "NSPasteboard": {Value: true}, "NSPasteboardItem": {Value: true},

	// Classes that act: what they do, and their methods the analyzers
	// rate in ObjCMethods; any other method of theirs is Dangerous.
	"NSFileManager":                   {What: "manages files"},
	"NSFileHandle":                    {What: "reads and writes files"},
	"NSFileWrapper":                   {What: "reads and writes files"},
	"NSKeyedArchiver":                 {What: "writes archives"},
	"NSWorkspace":                     {What: "opens files, URLs and applications"},
	"NSWorkspaceOpenConfiguration":    {Value: true},
	"NSRunningApplication":            {What: "controls running applications"},
	"NSTask":                          {What: "runs programs"},
	"NSUserUnixTask":                  {What: "runs script files"},
	"NSUserAppleScriptTask":           {What: "runs script files"},
	"NSUserAutomatorTask":             {What: "runs Automator workflows"},
	"NSAppleScript":                   {What: "runs AppleScript"},
	"OSAScript":                       {What: "runs AppleScript or JavaScript"},
	"NSAppleEventDescriptor":          {What: "sends raw Apple events"},
	"NSBundle":                        {What: "loads code"},
	"NSUserDefaults":                  {What: "reads and writes preferences"},
	"NSURLSession":                    {What: "sends and fetches over the network"},
	"NSURLConnection":                 {What: "sends and fetches over the network"},
	"NSURLRequest":                    {What: "describes a network request"},
	"NSMutableURLRequest":             {What: "describes a network request"},
	"NSHTTPCookieStorage":             {What: "holds the session cookies (secrets)"},
	"NSSharingService":                {What: "sends items through a sharing service"},
	"NSDistributedNotificationCenter": {What: "posts notifications to other processes"},
	"NSNotificationCenter":            {What: "posts notifications"},
	"SBApplication":                   {What: "sends commands to applications (Scripting Bridge)"},
	"NSUserNotificationCenter":        {What: "shows notifications"},
	"CWWiFiClient":                    {What: "controls Wi-Fi"},
	"SFAuthorization":                 {What: "obtains administrator rights"},
}

// ObjCEffect is what a method does.
type ObjCEffect uint8

// How the analyzers look at a method: each call has its ObjCMethod.Does
// at least; some look further (the path written, the program run).
const (
	ObjCRead        ObjCEffect = iota + 1 // reads a file: its path is rated as a read
	ObjCWrite                             // writes a file: its path is rated as a write
	ObjCCopy                              // copies a file: the second path is written
	ObjCMove                              // moves a file, without the Finder's undo
	ObjCRemove                            // deletes permanently, not to the Trash
	ObjCTrash                             // moves to the Trash
	ObjCAttributes                        // changes permissions, owners or flags
	ObjCTask                              // runs a program (its path and arguments are a command)
	ObjCScript                            // runs the script text it is given
	ObjCScriptFile                        // runs a script file that is not analysed
	ObjCLoadCode                          // loads native code into the script's process
	ObjCOpen                              // opens a URL or file (a runnable file runs)
	ObjCNetwork                           // sends or fetches over the network
	ObjCClipboard                         // replaces the clipboard
	ObjCDefaults                          // writes preferences (security settings among them)
	ObjCResource                          // sets a file's resource value (quarantine among them)
	ObjCQuit                              // quits or kills an application
	ObjCSecret                            // reads secrets (cookies)
	ObjCEvent                             // sends a raw Apple event
	ObjCClassLookup                       // looks a class up by name
	ObjCSend                              // sends items as the user (mail, messages, AirDrop)
	ObjCInert                             // reads or waits: changes nothing outside the script
)

// ObjCMethod is what a method does: the analyzers' way of looking further
// (Effect), and the effect a call has at least (Does), whose level the
// calibration table gives.
type ObjCMethod struct {
	Effect ObjCEffect
	Does   effect.Effect // what a call does, at least
	What   string
	On     string // the classes whose method this is, space-separated, when another class has one of the same name ("": any)
}

var ObjCMethods = map[string]ObjCMethod{
	"removeItemAtPath":                        {ObjCRemove, effect.Of(effect.Remove), "deletes permanently (not to the Trash), folders included", ""},
	"removeItemAtURL":                         {ObjCRemove, effect.Of(effect.Remove), "deletes permanently (not to the Trash), folders included", ""},
	"trashItemAtURL":                          {ObjCTrash, effect.Of(effect.Trash), "moves an item to the Trash", ""},
	"recycleURLs":                             {ObjCTrash, effect.Of(effect.Trash), "moves items to the Trash", ""},
	"performFileOperation":                    {ObjCRemove, effect.Of(effect.Remove), "performs a file operation (destroy, recycle, move) chosen by name", ""},
	"writeToFile":                             {ObjCWrite, effect.Of(effect.Overwrite), "writes a file", ""},
	"writeToURL":                              {ObjCWrite, effect.Of(effect.Overwrite), "writes a file", ""},
	"createFileAtPath":                        {ObjCWrite, effect.Of(effect.Overwrite), "writes a file", ""},
	"fileHandleForWritingAtPath":              {ObjCWrite, effect.Of(effect.Overwrite), "opens a file to write it", ""},
	"fileHandleForWritingToURL":               {ObjCWrite, effect.Of(effect.Overwrite), "opens a file to write it", ""},
	"fileHandleForUpdatingAtPath":             {ObjCWrite, effect.Of(effect.Overwrite), "opens a file to write it", ""},
	"fileHandleForUpdatingURL":                {ObjCWrite, effect.Of(effect.Overwrite), "opens a file to write it", ""},
	"archiveRootObject":                       {ObjCWrite, effect.Of(effect.Overwrite), "writes an archive to a file", ""},
	"createSymbolicLinkAtPath":                {ObjCWrite, effect.Of(effect.Overwrite), "makes a symbolic link", ""},
	"createSymbolicLinkAtURL":                 {ObjCWrite, effect.Of(effect.Overwrite), "makes a symbolic link", ""},
	"replaceItemAtURL":                        {ObjCWrite, effect.Of(effect.Overwrite), "replaces a file", ""},
	"createDirectoryAtPath":                   {ObjCWrite, effect.Of(effect.Create), "makes a folder", ""},
	"createDirectoryAtURL":                    {ObjCWrite, effect.Of(effect.Create), "makes a folder", ""},
	"copyItemAtPath":                          {ObjCCopy, effect.Of(effect.Create), "copies files", ""},
	"copyItemAtURL":                           {ObjCCopy, effect.Of(effect.Create), "copies files", ""},
	"linkItemAtPath":                          {ObjCCopy, effect.Of(effect.Create), "links files", ""},
	"linkItemAtURL":                           {ObjCCopy, effect.Of(effect.Create), "links files", ""},
	"moveItemAtPath":                          {ObjCMove, effect.Of(effect.Change, effect.Forced), "moves files, with no undo (not through the Finder)", ""},
	"moveItemAtURL":                           {ObjCMove, effect.Of(effect.Change, effect.Forced), "moves files, with no undo (not through the Finder)", ""},
	"setAttributes":                           {ObjCAttributes, effect.Of(effect.Overwrite), "changes a file's permissions, owner or flags", ""},
	"changeFileAttributes":                    {ObjCAttributes, effect.Of(effect.Overwrite), "changes a file's permissions, owner or flags", ""},
	"stringWithContentsOfFile":                {ObjCRead, effect.Of(effect.Read), "reads a file", ""},
	"stringWithContentsOfURL":                 {ObjCRead, effect.Of(effect.Read), "reads a file or URL", ""},
	"dataWithContentsOfFile":                  {ObjCRead, effect.Of(effect.Read), "reads a file", ""},
	"dataWithContentsOfURL":                   {ObjCRead, effect.Of(effect.Read), "reads a file or URL", ""},
	"initWithContentsOfFile":                  {ObjCRead, effect.Of(effect.Read), "reads a file", ""},
	"initWithContentsOfURL":                   {ObjCRead, effect.Of(effect.Read), "reads a file or URL", ""},
	"contentsAtPath":                          {ObjCRead, effect.Of(effect.Read), "reads a file", ""},
	"contentsOfDirectoryAtPath":               {ObjCRead, effect.Of(effect.Read), "lists a folder", ""},
	"fileHandleForReadingAtPath":              {ObjCRead, effect.Of(effect.Read), "opens a file to read it", ""},
	"dictionaryWithContentsOfFile":            {ObjCRead, effect.Of(effect.Read), "reads a file", ""},
	"arrayWithContentsOfFile":                 {ObjCRead, effect.Of(effect.Read), "reads a file", ""},
	"launchedTaskWithLaunchPath":              {ObjCTask, effect.Of(effect.Shell), "runs a program", ""},
	"launchedTaskWithExecutableURL":           {ObjCTask, effect.Of(effect.Shell), "runs a program", ""},
	"setLaunchPath":                           {ObjCTask, effect.Of(effect.Shell), "sets the program a task runs", ""},
	"setExecutableURL":                        {ObjCTask, effect.Of(effect.Shell), "sets the program a task runs", ""},
	"launch":                                  {ObjCTask, effect.Of(effect.Shell), "runs a program", "NSTask"},
	"launchAndReturnError":                    {ObjCTask, effect.Of(effect.Shell), "runs a program", ""},
	"executeWithArguments":                    {ObjCScriptFile, effect.Of(effect.RunUnseen), "runs a script file", ""},
	"executeWithAppleEvent":                   {ObjCScriptFile, effect.Of(effect.RunUnseen), "runs a script file", ""},
	"executeWithInput":                        {ObjCScriptFile, effect.Of(effect.RunUnseen), "runs a workflow", ""},
	"initWithSource":                          {ObjCScript, effect.Of(effect.Run), "compiles script text", ""},
	"executeAndReturnError":                   {ObjCScript, effect.Of(effect.Run), "runs a script", ""},
	"executeAppleEvent":                       {ObjCScript, effect.Of(effect.Run), "runs a script", ""},
	"compileAndReturnError":                   {ObjCScript, effect.Of(effect.Run), "compiles a script", ""},
	"bundleWithPath":                          {ObjCLoadCode, effect.Of(effect.LoadCode), "names a bundle of native code", ""},
	"bundleWithURL":                           {ObjCLoadCode, effect.Of(effect.LoadCode), "names a bundle of native code", ""},
	"load":                                    {ObjCLoadCode, effect.Of(effect.LoadCode), "loads native code into the script's process", "NSBundle"},
	"loadAndReturnError":                      {ObjCLoadCode, effect.Of(effect.LoadCode), "loads native code into the script's process", ""},
	"principalClass":                          {ObjCLoadCode, effect.Of(effect.LoadCode), "loads native code into the script's process", "NSBundle"},
	"openURL":                                 {ObjCOpen, effect.Of(effect.Launch), "opens a URL or file", ""},
	"openURLs":                                {ObjCOpen, effect.Of(effect.Launch), "opens URLs or files", ""},
	"openFile":                                {ObjCOpen, effect.Of(effect.Launch), "opens a file", ""},
	"openApplicationAtURL":                    {ObjCOpen, effect.Of(effect.Launch), "opens an application", ""},
	"launchApplication":                       {ObjCOpen, effect.Of(effect.Launch), "opens an application", ""},
	"launchAppWithBundleIdentifier":           {ObjCOpen, effect.Of(effect.Launch), "opens an application", ""},
	"launchApplicationAtURL":                  {ObjCOpen, effect.Of(effect.Launch), "opens an application", ""},
	"dataTaskWithURL":                         {ObjCNetwork, effect.Of(effect.Fetch), "fetches from the network", ""},
	"dataTaskWithRequest":                     {ObjCNetwork, effect.Of(effect.Upload), "sends a request over the network", ""},
	"uploadTaskWithRequest":                   {ObjCNetwork, effect.Of(effect.Upload), "uploads over the network", ""},
	"downloadTaskWithURL":                     {ObjCNetwork, effect.Of(effect.Fetch), "downloads from the network", ""},
	"sendSynchronousRequest":                  {ObjCNetwork, effect.Of(effect.Upload), "sends a request over the network", ""},
	"sendAsynchronousRequest":                 {ObjCNetwork, effect.Of(effect.Upload), "sends a request over the network", ""},
	"setHTTPBody":                             {ObjCNetwork, effect.Of(effect.Upload), "sends data over the network", ""},
	"setString":                               {ObjCClipboard, effect.Of(effect.Egress), "replaces the clipboard", "NSPasteboard"},
	"setData":                                 {ObjCClipboard, effect.Of(effect.Egress), "replaces the clipboard", "NSPasteboard"},
	"writeObjects":                            {ObjCClipboard, effect.Of(effect.Egress), "replaces the clipboard", "NSPasteboard"},
	"clearContents":                           {ObjCClipboard, effect.Of(effect.Egress), "empties the clipboard", "NSPasteboard"},
	"setObject":                               {ObjCDefaults, effect.Of(effect.Setting), "stores a value", "NSUserDefaults"},
	"setBool":                                 {ObjCDefaults, effect.Of(effect.Setting), "stores a value", "NSUserDefaults"},
	"setInteger":                              {ObjCDefaults, effect.Of(effect.Setting), "stores a value", "NSUserDefaults"},
	"setFloat":                                {ObjCDefaults, effect.Of(effect.Setting), "stores a value", "NSUserDefaults"},
	"setDouble":                               {ObjCDefaults, effect.Of(effect.Setting), "stores a value", "NSUserDefaults"},
	"setValue":                                {ObjCDefaults, effect.Of(effect.Setting), "stores a value", "NSUserDefaults"},
	"setPersistentDomain":                     {ObjCDefaults, effect.Of(effect.Overwrite), "replaces an application's preferences", ""},
	"removePersistentDomainForName":           {ObjCDefaults, effect.Of(effect.Overwrite), "deletes an application's preferences", ""},
	"removeObjectForKey":                      {ObjCDefaults, effect.Of(effect.Setting), "removes a value", "NSUserDefaults"},
	"setResourceValue":                        {ObjCResource, effect.Of(effect.Change), "changes a file's properties", ""},
	"setResourceValues":                       {ObjCResource, effect.Of(effect.Change), "changes a file's properties", ""},
	"terminate":                               {ObjCQuit, effect.Of(effect.Quit), "quits an application", "NSRunningApplication"},
	"forceTerminate":                          {ObjCQuit, effect.Of(effect.Signal, effect.Forced), "kills an application, losing unsaved work", "NSRunningApplication"},
	"cookies":                                 {ObjCSecret, effect.Of(effect.ReadSecret), "reads the session cookies", "NSHTTPCookieStorage"},
	"cookiesForURL":                           {ObjCSecret, effect.Of(effect.ReadSecret), "reads the session cookies", ""},
	"environment":                             {ObjCSecret, effect.Of(effect.ReadNamedSecret), "reads the whole environment, where tokens and keys are kept", "NSProcessInfo"},
	"sendEventWithOptions":                    {ObjCEvent, effect.Of(effect.Unknown), "sends a raw Apple event", ""},
	"NSClassFromString":                       {ObjCClassLookup, effect.Of(effect.Lookup), "looks a class up by name", ""},
	"performWithItems":                        {ObjCSend, effect.Of(effect.Send), "sends items as you", ""},
	"waitUntilExit":                           {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"terminationStatus":                       {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"terminationReason":                       {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"isRunning":                               {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"standardOutput":                          {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"setStandardOutput":                       {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"standardError":                           {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"setStandardError":                        {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"standardInput":                           {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"setStandardInput":                        {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"interrupt":                               {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"suspend":                                 {ObjCInert, effect.Of(effect.Read), "", "NSTask"},
	"resume":                                  {ObjCInert, effect.Of(effect.Read), "", "NSTask NSURLSession"},
	"readDataToEndOfFile":                     {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"readDataToEndOfFileAndReturnError":       {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"readDataOfLength":                        {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"availableData":                           {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"closeFile":                               {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"closeAndReturnError":                     {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"fileHandleForReading":                    {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"fileHandleForWriting":                    {ObjCInert, effect.Of(effect.Read), "", "NSFileHandle"},
	"defaultManager":                          {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"fileExistsAtPath":                        {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"isReadableFileAtPath":                    {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"isWritableFileAtPath":                    {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"isExecutableFileAtPath":                  {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"isDeletableFileAtPath":                   {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"attributesOfItemAtPath":                  {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"attributesOfFileSystemForPath":           {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"contentsOfDirectoryAtURL":                {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"subpathsOfDirectoryAtPath":               {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"enumeratorAtPath":                        {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"enumeratorAtURL":                         {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"displayNameAtPath":                       {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"homeDirectoryForCurrentUser":             {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"URLsForDirectory":                        {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"URLForDirectory":                         {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"currentDirectoryPath":                    {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"temporaryDirectory":                      {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"fileSystemRepresentationWithPath":        {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"contentsEqualAtPath":                     {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"destinationOfSymbolicLinkAtPath":         {ObjCInert, effect.Of(effect.Read), "", "NSFileManager"},
	"sharedWorkspace":                         {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"frontmostApplication":                    {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"runningApplications":                     {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"URLForApplicationWithBundleIdentifier":   {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"fullPathForApplication":                  {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"iconForFile":                             {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"isFilePackageAtPath":                     {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"activeApplication":                       {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"selectFile":                              {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"activateFileViewerSelectingURLs":         {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"typeOfFile":                              {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"desktopImageURLForScreen":                {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"notificationCenter":                      {ObjCInert, effect.Of(effect.Read), "", "NSWorkspace"},
	"runningApplicationsWithBundleIdentifier": {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"currentApplication":                      {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"localizedName":                           {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"bundleIdentifier":                        {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication NSBundle"},
	"bundleURL":                               {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication NSBundle"},
	"executableURL":                           {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"processIdentifier":                       {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"isActive":                                {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"isHidden":                                {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"isTerminated":                            {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"activateWithOptions":                     {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"hide":                                    {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"unhide":                                  {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"launchDate":                              {ObjCInert, effect.Of(effect.Read), "", "NSRunningApplication"},
	"standardUserDefaults":                    {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"initWithSuiteName":                       {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"objectForKey":                            {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"stringForKey":                            {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"boolForKey":                              {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"integerForKey":                           {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"floatForKey":                             {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"doubleForKey":                            {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"arrayForKey":                             {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"dictionaryForKey":                        {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"dataForKey":                              {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"URLForKey":                               {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"stringArrayForKey":                       {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"synchronize":                             {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"dictionaryRepresentation":                {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"persistentDomainForName":                 {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"registerDefaults":                        {ObjCInert, effect.Of(effect.Read), "", "NSUserDefaults"},
	"sharedSession":                           {ObjCInert, effect.Of(effect.Read), "", "NSURLSession"},
	"sessionWithConfiguration":                {ObjCInert, effect.Of(effect.Read), "", "NSURLSession"},
	"cancel":                                  {ObjCInert, effect.Of(effect.Read), "", "NSURLSession"},
	"requestWithURL":                          {ObjCInert, effect.Of(effect.Read), "", "NSURLRequest NSMutableURLRequest"},
	"initWithURL":                             {ObjCInert, effect.Of(effect.Read), "", "NSURLRequest NSMutableURLRequest"},
	"setHTTPMethod":                           {ObjCInert, effect.Of(effect.Read), "", "NSURLRequest NSMutableURLRequest"},
	"HTTPMethod":                              {ObjCInert, effect.Of(effect.Read), "", "NSURLRequest NSMutableURLRequest"},
	"URL":                                     {ObjCInert, effect.Of(effect.Read), "", "NSURLRequest NSMutableURLRequest"},
	"setTimeoutInterval":                      {ObjCInert, effect.Of(effect.Read), "", "NSURLRequest NSMutableURLRequest"},
	"mainBundle":                              {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"bundlePath":                              {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"infoDictionary":                          {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"objectForInfoDictionaryKey":              {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"pathForResource":                         {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"URLForResource":                          {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"resourcePath":                            {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"localizedStringForKey":                   {ObjCInert, effect.Of(effect.Read), "", "NSBundle"},
	"source":                                  {ObjCInert, effect.Of(effect.Read), "", "NSAppleScript OSAScript"},
	"isCompiled":                              {ObjCInert, effect.Of(effect.Read), "", "NSAppleScript OSAScript"},
	"sharedHTTPCookieStorage":                 {ObjCInert, effect.Of(effect.Read), "", "NSHTTPCookieStorage"},
	"defaultCenter":                           {ObjCInert, effect.Of(effect.Read), "", "NSNotificationCenter NSDistributedNotificationCenter"},
	"addObserver":                             {ObjCInert, effect.Of(effect.Read), "", "NSNotificationCenter NSDistributedNotificationCenter"},
	"removeObserver":                          {ObjCInert, effect.Of(effect.Read), "", "NSNotificationCenter NSDistributedNotificationCenter"},
	"defaultUserNotificationCenter":           {ObjCInert, effect.Of(effect.Read), "", "NSUserNotificationCenter"},
	"deliverNotification":                     {ObjCInert, effect.Of(effect.Read), "", "NSUserNotificationCenter"},
	"setDesktopImageURL":                      {ObjCDefaults, effect.Of(effect.Setting), "changes the desktop picture", ""},
}

// ObjCReturns are the classes the inert methods that read return, by the
// first part of their selector: what a script then calls on the result is
// rated on that class (the attributes of a file are a dictionary, not the
// file manager; the frontmost application is an NSRunningApplication, not
// the workspace). A method not here returns an object of its receiver's
// class, as far as the analyzers tell.
var ObjCReturns = map[string]string{
	"frontmostApplication": "NSRunningApplication", "currentApplication": "NSRunningApplication",
	"runningApplications": "NSArray", "runningApplicationsWithBundleIdentifier": "NSArray", "activeApplication": "NSDictionary",
	"attributesOfItemAtPath": "NSDictionary", "attributesOfFileSystemForPath": "NSDictionary",
	"contentsOfDirectoryAtPath": "NSArray", "contentsOfDirectoryAtURL": "NSArray", "subpathsOfDirectoryAtPath": "NSArray",
	"enumeratorAtPath": "NSArray", "enumeratorAtURL": "NSArray", "displayNameAtPath": "NSString",
	"URLForApplicationWithBundleIdentifier": "NSURL", "fullPathForApplication": "NSString", "iconForFile": "NSImage",
	"typeOfFile": "NSString", "desktopImageURLForScreen": "NSURL", "localizedName": "NSString", "bundleIdentifier": "NSString",
	"bundleURL": "NSURL", "executableURL": "NSURL", "launchDate": "NSDate", "processIdentifier": "NSNumber",
	"isActive": "NSNumber", "isHidden": "NSNumber", "isTerminated": "NSNumber", "homeDirectoryForCurrentUser": "NSURL",
	"URLsForDirectory": "NSArray", "URLForDirectory": "NSURL", "currentDirectoryPath": "NSString", "temporaryDirectory": "NSURL",
	"fileExistsAtPath": "NSNumber", "isReadableFileAtPath": "NSNumber", "isWritableFileAtPath": "NSNumber",
	"isExecutableFileAtPath": "NSNumber", "isDeletableFileAtPath": "NSNumber", "contentsEqualAtPath": "NSNumber",
	"destinationOfSymbolicLinkAtPath": "NSString", "contentsAtPath": "NSData", "readDataToEndOfFile": "NSData",
	"availableData": "NSData", "readDataOfLength": "NSData", "stringForKey": "NSString", "boolForKey": "NSNumber",
	"integerForKey": "NSNumber", "floatForKey": "NSNumber", "doubleForKey": "NSNumber", "arrayForKey": "NSArray",
	"dictionaryForKey": "NSDictionary", "dataForKey": "NSData", "URLForKey": "NSURL", "stringArrayForKey": "NSArray",
	"dictionaryRepresentation": "NSDictionary", "persistentDomainForName": "NSDictionary", "infoDictionary": "NSDictionary",
	"bundlePath": "NSString", "resourcePath": "NSString", "pathForResource": "NSString", "URLForResource": "NSURL",
	"objectForInfoDictionaryKey": "NSObject", "terminationStatus": "NSNumber", "isRunning": "NSNumber",
}

// ObjCReturnOf is the class the method sel (in any bridge's spelling)
// returns, when ObjCReturns says.
func ObjCReturnOf(sel string) (string, bool) {
	key, _, ok := LookupObjCMethod(sel)
	if !ok {
		return "", false
	}
	c, ok := ObjCReturns[key]
	return c, ok
}

// ObjCSecuritySettings are the preference domains, and keys, whose change
// through NSUserDefaults weakens a security control: changing them is
// Destructive. A key of "" stands for every key of the domain.
var ObjCSecuritySettings = map[string][]string{
	"com.apple.screensaver":              {"askForPassword", "askForPasswordDelay"},
	"com.apple.LaunchServices":           {"LSQuarantine"},
	"com.apple.alf":                      {""},
	"com.apple.security":                 {""},
	"com.apple.security.GKAutoRearm":     {""},
	"com.apple.loginwindow":              {"autoLoginUser", "LoginHook", "LogoutHook", "DisableFDEAutoLogin"},
	"com.apple.SoftwareUpdate":           {"AutomaticCheckEnabled", "ConfigDataInstall", "CriticalUpdateInstall", "AutomaticDownload"},
	"com.apple.commerce":                 {"AutoUpdate"},
	"com.apple.xprotect":                 {""},
	"com.apple.MCX":                      {""},
	"com.apple.Safari":                   {"WarnAboutFraudulentWebsites", "AutoOpenSafeDownloads"},
	"com.apple.TimeMachine":              {"DoNotOfferNewDisksForBackup"},
	"/Library/Preferences/com.apple.alf": {""},
}

// ObjCSecuritySetting reports whether writing key in the preference domain
// changes a security control (ObjCSecuritySettings); case is not
// significant, and an empty domain or key matches nothing.
func ObjCSecuritySetting(domain, key string) bool {
	for d, keys := range ObjCSecuritySettings {
		if !strings.EqualFold(d, domain) && !strings.EqualFold(strings.TrimSuffix(d, ".plist"), strings.TrimSuffix(domain, ".plist")) {
			continue
		}
		for _, k := range keys {
			if k == "" || strings.EqualFold(k, key) {
				return true
			}
		}
	}
	return false
}

// LookupObjCClass finds a class by name, whatever its case (AppleScript
// reads names without it).
func LookupObjCClass(name string) (string, ObjCClass, bool) {
	key, ok := objcFold().classes[strings.ToLower(name)]
	if !ok {
		return "", ObjCClass{}, false
	}
	return key, ObjCClasses[key], true
}

// LookupObjCMethod finds a method by its selector, in any of the bridges'
// spellings: removeItemAtPath, removeItemAtPath:error:,
// removeItemAtPath_error_, or JXA's removeItemAtPathError (the first part
// followed by an upper-case letter); case is not significant in the first
// three. It returns the first part, as ObjCMethods holds it.
func LookupObjCMethod(sel string) (string, ObjCMethod, bool) {
	f := objcFold()
	low := strings.ToLower(sel)
	if i := strings.IndexAny(low, ":_"); i >= 0 {
		low = low[:i]
	}
	if key, ok := f.methods[low]; ok {
		return key, ObjCMethods[key], true
	}
	// JXA: the parts joined, each after the first capitalised.
	for n := len(sel) - 1; n > 0; n-- {
		if c := sel[n]; c < 'A' || c > 'Z' {
			continue
		}
		if key, ok := f.methods[strings.ToLower(sel[:n])]; ok && key == sel[:n] {
			return key, ObjCMethods[key], true
		}
	}
	return "", ObjCMethod{}, false
}

// objcFold indexes the tables by lower-case name.
var objcFold = sync.OnceValue(func() (f struct{ classes, methods map[string]string }) {
	f.classes = make(map[string]string, len(ObjCClasses))
	for k := range ObjCClasses {
		f.classes[strings.ToLower(k)] = k
	}
	f.methods = make(map[string]string, len(ObjCMethods))
	for k := range ObjCMethods {
		f.methods[strings.ToLower(k)] = k
	}
	return f
})

// ObjCFrameworks are the system frameworks a script may load (lower case,
// without .framework): their classes are in ObjCClasses or rated as
// unknown, and loading them runs nothing of the script's choosing.
var ObjCFrameworks = map[string]bool{
	"foundation": true, "appkit": true, "coreservices": true, "coregraphics": true, "coreimage": true,
	"quartz": true, "quartzcore": true, "imageio": true, "pdfkit": true, "corelocation": true,
	"eventkit": true, "contacts": true, "avfoundation": true, "coremedia": true, "corewlan": true,
	"corefoundation": true, "security": true, "webkit": true, "naturallanguage": true, "vision": true,
	"carbon": true, "applicationservices": true, "coretext": true, "coreaudio": true, "iokit": true,
	"osakit": true, "scriptingbridge": true, "gameplaykit": true, "mapkit": true, "photos": true,
	"usernotifications": true, "uniformtypeidentifiers": true, "systemconfiguration": true,
}
