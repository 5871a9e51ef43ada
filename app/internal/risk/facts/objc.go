package facts

import (
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/level"
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

// The effects of methods, each rated by the analyzers as ObjCMethod.Level
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

// ObjCMethod is what a method does and the lowest level it implies.
type ObjCMethod struct {
	Effect ObjCEffect
	Level  level.Level
	What   string
	On     string // the classes whose method this is, space-separated, when another class has one of the same name ("": any)
}

// ObjCMethods are the methods the analyzers rate, by the first part of
// their selector (removeItemAtPath for removeItemAtPath:error:): wherever
// they are called, on a class the analyzers know or not.
var ObjCMethods = map[string]ObjCMethod{
	"removeItemAtPath":                        {ObjCRemove, level.Destructive, "deletes permanently (not to the Trash), folders included", ""},
	"removeItemAtURL":                         {ObjCRemove, level.Destructive, "deletes permanently (not to the Trash), folders included", ""},
	"trashItemAtURL":                          {ObjCTrash, level.Dangerous, "moves an item to the Trash", ""},
	"recycleURLs":                             {ObjCTrash, level.Dangerous, "moves items to the Trash", ""},
	"performFileOperation":                    {ObjCRemove, level.Destructive, "performs a file operation (destroy, recycle, move) chosen by name", ""},
	"writeToFile":                             {ObjCWrite, level.Dangerous, "writes a file", ""},
	"writeToURL":                              {ObjCWrite, level.Dangerous, "writes a file", ""},
	"createFileAtPath":                        {ObjCWrite, level.Dangerous, "writes a file", ""},
	"fileHandleForWritingAtPath":              {ObjCWrite, level.Dangerous, "opens a file to write it", ""},
	"fileHandleForWritingToURL":               {ObjCWrite, level.Dangerous, "opens a file to write it", ""},
	"fileHandleForUpdatingAtPath":             {ObjCWrite, level.Dangerous, "opens a file to write it", ""},
	"fileHandleForUpdatingURL":                {ObjCWrite, level.Dangerous, "opens a file to write it", ""},
	"archiveRootObject":                       {ObjCWrite, level.Dangerous, "writes an archive to a file", ""},
	"createSymbolicLinkAtPath":                {ObjCWrite, level.Dangerous, "makes a symbolic link", ""},
	"createSymbolicLinkAtURL":                 {ObjCWrite, level.Dangerous, "makes a symbolic link", ""},
	"replaceItemAtURL":                        {ObjCWrite, level.Dangerous, "replaces a file", ""},
	"createDirectoryAtPath":                   {ObjCWrite, level.Caution, "makes a folder", ""},
	"createDirectoryAtURL":                    {ObjCWrite, level.Caution, "makes a folder", ""},
	"copyItemAtPath":                          {ObjCCopy, level.Caution, "copies files", ""},
	"copyItemAtURL":                           {ObjCCopy, level.Caution, "copies files", ""},
	"linkItemAtPath":                          {ObjCCopy, level.Caution, "links files", ""},
	"linkItemAtURL":                           {ObjCCopy, level.Caution, "links files", ""},
	"moveItemAtPath":                          {ObjCMove, level.Dangerous, "moves files, with no undo (not through the Finder)", ""},
	"moveItemAtURL":                           {ObjCMove, level.Dangerous, "moves files, with no undo (not through the Finder)", ""},
	"setAttributes":                           {ObjCAttributes, level.Dangerous, "changes a file's permissions, owner or flags", ""},
	"changeFileAttributes":                    {ObjCAttributes, level.Dangerous, "changes a file's permissions, owner or flags", ""},
	"stringWithContentsOfFile":                {ObjCRead, level.Safe, "reads a file", ""},
	"stringWithContentsOfURL":                 {ObjCRead, level.Safe, "reads a file or URL", ""},
	"dataWithContentsOfFile":                  {ObjCRead, level.Safe, "reads a file", ""},
	"dataWithContentsOfURL":                   {ObjCRead, level.Safe, "reads a file or URL", ""},
	"initWithContentsOfFile":                  {ObjCRead, level.Safe, "reads a file", ""},
	"initWithContentsOfURL":                   {ObjCRead, level.Safe, "reads a file or URL", ""},
	"contentsAtPath":                          {ObjCRead, level.Safe, "reads a file", ""},
	"contentsOfDirectoryAtPath":               {ObjCRead, level.Safe, "lists a folder", ""},
	"fileHandleForReadingAtPath":              {ObjCRead, level.Safe, "opens a file to read it", ""},
	"dictionaryWithContentsOfFile":            {ObjCRead, level.Safe, "reads a file", ""},
	"arrayWithContentsOfFile":                 {ObjCRead, level.Safe, "reads a file", ""},
	"launchedTaskWithLaunchPath":              {ObjCTask, level.Dangerous, "runs a program", ""},
	"launchedTaskWithExecutableURL":           {ObjCTask, level.Dangerous, "runs a program", ""},
	"setLaunchPath":                           {ObjCTask, level.Dangerous, "sets the program a task runs", ""},
	"setExecutableURL":                        {ObjCTask, level.Dangerous, "sets the program a task runs", ""},
	"launch":                                  {ObjCTask, level.Dangerous, "runs a program", "NSTask"},
	"launchAndReturnError":                    {ObjCTask, level.Dangerous, "runs a program", ""},
	"executeWithArguments":                    {ObjCScriptFile, level.Dangerous, "runs a script file", ""},
	"executeWithAppleEvent":                   {ObjCScriptFile, level.Dangerous, "runs a script file", ""},
	"executeWithInput":                        {ObjCScriptFile, level.Dangerous, "runs a workflow", ""},
	"initWithSource":                          {ObjCScript, level.Caution, "compiles script text", ""},
	"executeAndReturnError":                   {ObjCScript, level.Caution, "runs a script", ""},
	"executeAppleEvent":                       {ObjCScript, level.Caution, "runs a script", ""},
	"compileAndReturnError":                   {ObjCScript, level.Caution, "compiles a script", ""},
	"bundleWithPath":                          {ObjCLoadCode, level.Dangerous, "names a bundle of native code", ""},
	"bundleWithURL":                           {ObjCLoadCode, level.Dangerous, "names a bundle of native code", ""},
	"load":                                    {ObjCLoadCode, level.Dangerous, "loads native code into the script's process", "NSBundle"},
	"loadAndReturnError":                      {ObjCLoadCode, level.Dangerous, "loads native code into the script's process", ""},
	"principalClass":                          {ObjCLoadCode, level.Dangerous, "loads native code into the script's process", "NSBundle"},
	"openURL":                                 {ObjCOpen, level.Caution, "opens a URL or file", ""},
	"openURLs":                                {ObjCOpen, level.Caution, "opens URLs or files", ""},
	"openFile":                                {ObjCOpen, level.Caution, "opens a file", ""},
	"openApplicationAtURL":                    {ObjCOpen, level.Caution, "opens an application", ""},
	"launchApplication":                       {ObjCOpen, level.Caution, "opens an application", ""},
	"launchAppWithBundleIdentifier":           {ObjCOpen, level.Caution, "opens an application", ""},
	"launchApplicationAtURL":                  {ObjCOpen, level.Caution, "opens an application", ""},
	"dataTaskWithURL":                         {ObjCNetwork, level.Caution, "fetches from the network", ""},
	"dataTaskWithRequest":                     {ObjCNetwork, level.Dangerous, "sends a request over the network", ""},
	"uploadTaskWithRequest":                   {ObjCNetwork, level.Dangerous, "uploads over the network", ""},
	"downloadTaskWithURL":                     {ObjCNetwork, level.Caution, "downloads from the network", ""},
	"sendSynchronousRequest":                  {ObjCNetwork, level.Dangerous, "sends a request over the network", ""},
	"sendAsynchronousRequest":                 {ObjCNetwork, level.Dangerous, "sends a request over the network", ""},
	"setHTTPBody":                             {ObjCNetwork, level.Dangerous, "sends data over the network", ""},
	"setString":                               {ObjCClipboard, level.Caution, "replaces the clipboard", "NSPasteboard"},
	"setData":                                 {ObjCClipboard, level.Caution, "replaces the clipboard", "NSPasteboard"},
	"writeObjects":                            {ObjCClipboard, level.Caution, "replaces the clipboard", "NSPasteboard"},
	"clearContents":                           {ObjCClipboard, level.Caution, "empties the clipboard", "NSPasteboard"},
	"setObject":                               {ObjCDefaults, level.Caution, "stores a value", "NSUserDefaults"},
	"setBool":                                 {ObjCDefaults, level.Caution, "stores a value", "NSUserDefaults"},
	"setInteger":                              {ObjCDefaults, level.Caution, "stores a value", "NSUserDefaults"},
	"setFloat":                                {ObjCDefaults, level.Caution, "stores a value", "NSUserDefaults"},
	"setDouble":                               {ObjCDefaults, level.Caution, "stores a value", "NSUserDefaults"},
	"setValue":                                {ObjCDefaults, level.Caution, "stores a value", "NSUserDefaults"},
	"setPersistentDomain":                     {ObjCDefaults, level.Dangerous, "replaces an application's preferences", ""},
	"removePersistentDomainForName":           {ObjCDefaults, level.Dangerous, "deletes an application's preferences", ""},
	"removeObjectForKey":                      {ObjCDefaults, level.Caution, "removes a value", "NSUserDefaults"},
	"setResourceValue":                        {ObjCResource, level.Caution, "changes a file's properties", ""},
	"setResourceValues":                       {ObjCResource, level.Caution, "changes a file's properties", ""},
	"terminate":                               {ObjCQuit, level.Caution, "quits an application", "NSRunningApplication"},
	"forceTerminate":                          {ObjCQuit, level.Dangerous, "kills an application, losing unsaved work", "NSRunningApplication"},
	"cookies":                                 {ObjCSecret, level.Dangerous, "reads the session cookies", "NSHTTPCookieStorage"},
	"cookiesForURL":                           {ObjCSecret, level.Dangerous, "reads the session cookies", ""},
	"sendEventWithOptions":                    {ObjCEvent, level.Dangerous, "sends a raw Apple event", ""},
	"NSClassFromString":                       {ObjCClassLookup, level.Safe, "looks a class up by name", ""},
	"performWithItems":                        {ObjCSend, level.Dangerous, "sends items as you", ""},
	"waitUntilExit":                           {ObjCInert, level.Safe, "", "NSTask"},
	"terminationStatus":                       {ObjCInert, level.Safe, "", "NSTask"},
	"terminationReason":                       {ObjCInert, level.Safe, "", "NSTask"},
	"isRunning":                               {ObjCInert, level.Safe, "", "NSTask"},
	"standardOutput":                          {ObjCInert, level.Safe, "", "NSTask"},
	"setStandardOutput":                       {ObjCInert, level.Safe, "", "NSTask"},
	"standardError":                           {ObjCInert, level.Safe, "", "NSTask"},
	"setStandardError":                        {ObjCInert, level.Safe, "", "NSTask"},
	"standardInput":                           {ObjCInert, level.Safe, "", "NSTask"},
	"setStandardInput":                        {ObjCInert, level.Safe, "", "NSTask"},
	"interrupt":                               {ObjCInert, level.Safe, "", "NSTask"},
	"suspend":                                 {ObjCInert, level.Safe, "", "NSTask"},
	"resume":                                  {ObjCInert, level.Safe, "", "NSTask NSURLSession"},
	"readDataToEndOfFile":                     {ObjCInert, level.Safe, "", "NSFileHandle"},
	"readDataToEndOfFileAndReturnError":       {ObjCInert, level.Safe, "", "NSFileHandle"},
	"readDataOfLength":                        {ObjCInert, level.Safe, "", "NSFileHandle"},
	"availableData":                           {ObjCInert, level.Safe, "", "NSFileHandle"},
	"closeFile":                               {ObjCInert, level.Safe, "", "NSFileHandle"},
	"closeAndReturnError":                     {ObjCInert, level.Safe, "", "NSFileHandle"},
	"fileHandleForReading":                    {ObjCInert, level.Safe, "", "NSFileHandle"},
	"fileHandleForWriting":                    {ObjCInert, level.Safe, "", "NSFileHandle"},
	"defaultManager":                          {ObjCInert, level.Safe, "", "NSFileManager"},
	"fileExistsAtPath":                        {ObjCInert, level.Safe, "", "NSFileManager"},
	"isReadableFileAtPath":                    {ObjCInert, level.Safe, "", "NSFileManager"},
	"isWritableFileAtPath":                    {ObjCInert, level.Safe, "", "NSFileManager"},
	"isExecutableFileAtPath":                  {ObjCInert, level.Safe, "", "NSFileManager"},
	"isDeletableFileAtPath":                   {ObjCInert, level.Safe, "", "NSFileManager"},
	"attributesOfItemAtPath":                  {ObjCInert, level.Safe, "", "NSFileManager"},
	"attributesOfFileSystemForPath":           {ObjCInert, level.Safe, "", "NSFileManager"},
	"contentsOfDirectoryAtURL":                {ObjCInert, level.Safe, "", "NSFileManager"},
	"subpathsOfDirectoryAtPath":               {ObjCInert, level.Safe, "", "NSFileManager"},
	"enumeratorAtPath":                        {ObjCInert, level.Safe, "", "NSFileManager"},
	"enumeratorAtURL":                         {ObjCInert, level.Safe, "", "NSFileManager"},
	"displayNameAtPath":                       {ObjCInert, level.Safe, "", "NSFileManager"},
	"homeDirectoryForCurrentUser":             {ObjCInert, level.Safe, "", "NSFileManager"},
	"URLsForDirectory":                        {ObjCInert, level.Safe, "", "NSFileManager"},
	"URLForDirectory":                         {ObjCInert, level.Safe, "", "NSFileManager"},
	"currentDirectoryPath":                    {ObjCInert, level.Safe, "", "NSFileManager"},
	"temporaryDirectory":                      {ObjCInert, level.Safe, "", "NSFileManager"},
	"fileSystemRepresentationWithPath":        {ObjCInert, level.Safe, "", "NSFileManager"},
	"contentsEqualAtPath":                     {ObjCInert, level.Safe, "", "NSFileManager"},
	"destinationOfSymbolicLinkAtPath":         {ObjCInert, level.Safe, "", "NSFileManager"},
	"sharedWorkspace":                         {ObjCInert, level.Safe, "", "NSWorkspace"},
	"frontmostApplication":                    {ObjCInert, level.Safe, "", "NSWorkspace"},
	"runningApplications":                     {ObjCInert, level.Safe, "", "NSWorkspace"},
	"URLForApplicationWithBundleIdentifier":   {ObjCInert, level.Safe, "", "NSWorkspace"},
	"fullPathForApplication":                  {ObjCInert, level.Safe, "", "NSWorkspace"},
	"iconForFile":                             {ObjCInert, level.Safe, "", "NSWorkspace"},
	"isFilePackageAtPath":                     {ObjCInert, level.Safe, "", "NSWorkspace"},
	"activeApplication":                       {ObjCInert, level.Safe, "", "NSWorkspace"},
	"selectFile":                              {ObjCInert, level.Safe, "", "NSWorkspace"},
	"activateFileViewerSelectingURLs":         {ObjCInert, level.Safe, "", "NSWorkspace"},
	"typeOfFile":                              {ObjCInert, level.Safe, "", "NSWorkspace"},
	"desktopImageURLForScreen":                {ObjCInert, level.Safe, "", "NSWorkspace"},
	"notificationCenter":                      {ObjCInert, level.Safe, "", "NSWorkspace"},
	"runningApplicationsWithBundleIdentifier": {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"currentApplication":                      {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"localizedName":                           {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"bundleIdentifier":                        {ObjCInert, level.Safe, "", "NSRunningApplication NSBundle"},
	"bundleURL":                               {ObjCInert, level.Safe, "", "NSRunningApplication NSBundle"},
	"executableURL":                           {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"processIdentifier":                       {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"isActive":                                {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"isHidden":                                {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"isTerminated":                            {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"activateWithOptions":                     {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"hide":                                    {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"unhide":                                  {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"launchDate":                              {ObjCInert, level.Safe, "", "NSRunningApplication"},
	"standardUserDefaults":                    {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"initWithSuiteName":                       {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"objectForKey":                            {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"stringForKey":                            {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"boolForKey":                              {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"integerForKey":                           {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"floatForKey":                             {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"doubleForKey":                            {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"arrayForKey":                             {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"dictionaryForKey":                        {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"dataForKey":                              {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"URLForKey":                               {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"stringArrayForKey":                       {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"synchronize":                             {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"dictionaryRepresentation":                {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"persistentDomainForName":                 {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"registerDefaults":                        {ObjCInert, level.Safe, "", "NSUserDefaults"},
	"sharedSession":                           {ObjCInert, level.Safe, "", "NSURLSession"},
	"sessionWithConfiguration":                {ObjCInert, level.Safe, "", "NSURLSession"},
	"cancel":                                  {ObjCInert, level.Safe, "", "NSURLSession"},
	"requestWithURL":                          {ObjCInert, level.Safe, "", "NSURLRequest NSMutableURLRequest"},
	"initWithURL":                             {ObjCInert, level.Safe, "", "NSURLRequest NSMutableURLRequest"},
	"setHTTPMethod":                           {ObjCInert, level.Safe, "", "NSURLRequest NSMutableURLRequest"},
	"HTTPMethod":                              {ObjCInert, level.Safe, "", "NSURLRequest NSMutableURLRequest"},
	"URL":                                     {ObjCInert, level.Safe, "", "NSURLRequest NSMutableURLRequest"},
	"setTimeoutInterval":                      {ObjCInert, level.Safe, "", "NSURLRequest NSMutableURLRequest"},
	"mainBundle":                              {ObjCInert, level.Safe, "", "NSBundle"},
	"bundlePath":                              {ObjCInert, level.Safe, "", "NSBundle"},
	"infoDictionary":                          {ObjCInert, level.Safe, "", "NSBundle"},
	"objectForInfoDictionaryKey":              {ObjCInert, level.Safe, "", "NSBundle"},
	"pathForResource":                         {ObjCInert, level.Safe, "", "NSBundle"},
	"URLForResource":                          {ObjCInert, level.Safe, "", "NSBundle"},
	"resourcePath":                            {ObjCInert, level.Safe, "", "NSBundle"},
	"localizedStringForKey":                   {ObjCInert, level.Safe, "", "NSBundle"},
	"source":                                  {ObjCInert, level.Safe, "", "NSAppleScript OSAScript"},
	"isCompiled":                              {ObjCInert, level.Safe, "", "NSAppleScript OSAScript"},
	"sharedHTTPCookieStorage":                 {ObjCInert, level.Safe, "", "NSHTTPCookieStorage"},
	"defaultCenter":                           {ObjCInert, level.Safe, "", "NSNotificationCenter NSDistributedNotificationCenter"},
	"addObserver":                             {ObjCInert, level.Safe, "", "NSNotificationCenter NSDistributedNotificationCenter"},
	"removeObserver":                          {ObjCInert, level.Safe, "", "NSNotificationCenter NSDistributedNotificationCenter"},
	"defaultUserNotificationCenter":           {ObjCInert, level.Safe, "", "NSUserNotificationCenter"},
	"deliverNotification":                     {ObjCInert, level.Safe, "", "NSUserNotificationCenter"},
	"setDesktopImageURL":                      {ObjCDefaults, level.Caution, "changes the desktop picture", ""},
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
