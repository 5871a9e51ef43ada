package facts

import "github.com/airlockhq/airlock/app/internal/level"

// App is what the analyzers know of one scriptable application: its name
// for warnings and the commands of its dictionary that need a level of
// their own. Commands that are neither in Verbs, in GenericVerbs nor in
// AppVerbs are unknown, and unknown commands are Dangerous.
type App struct {
	Title string
	Verbs map[string]level.Level
}

// GenericVerbs are the Standard Suite: every scriptable application has
// them. The verb rules rate the ones with side effects (delete, move …).
var GenericVerbs = map[string]bool{
	"activate": true, "launch": true, "run": true, "reopen": true, "quit": true, "get": true,
	"set": true, "count": true, "exists": true, "open": true, "close": true, "save": true,
	"print": true, "make": true, "duplicate": true, "delete": true, "move": true, "select": true,
	"reveal": true, "copy": true,
}

// AppVerbs are commands of known applications' dictionaries that do what
// their name says and no more (media control, navigation, showing things).
var AppVerbs = map[string]bool{
	"play": true, "pause": true, "playpause": true, "stop": true, "next": true, "previous": true,
	"back": true, "fast": true, "rewind": true, "resume": true, "reload": true, "search": true,
	"show": true, "add": true, "import": true, "export": true, "start": true, "check": true,
	"synchronize": true, "reply": true, "forward": true, "redirect": true, "refresh": true,
	"update": true, "sort": true, "arrange": true, "clean": true, "go": true, "open": true,
	"url": true, "openurl": true, "geturl": true, "login": true, "hide": true, "unhide": true,
	"zoom": true, "fetch": true, "mark": true, "find": true, "convert": true, "scale": true,
	"rotate": true, "flip": true, "crop": true, "pad": true, "view": true, "switch": true,
	"present": true, "cancel": true, "bounce": true, "expose": true, "edit": true, "paste": true,
	"cut": true, "undo": true, "redo": true, "save": true, "set": true, "do": true,
}

// StandardAdditions are the commands of AppleScript itself and of its
// scripting additions that may start a statement outside any tell block.
var StandardAdditions = map[string]bool{
	"display": true, "choose": true, "say": true, "beep": true, "delay": true, "log": true,
	"activate": true, "path": true, "current": true, "info": true, "list": true, "mount": true,
	"random": true, "round": true, "offset": true, "summarize": true, "localized": true, "time": true,
	"system": true, "do": true, "run": true, "load": true, "store": true, "read": true, "write": true,
	"open": true, "close": true, "get": true, "set": true, "copy": true, "count": true, "error": true,
	"ascii": true, "set-volume": true, "the": true, "clipboard": true, "quit": true, "launch": true,
	"tell": true,
}

// Apps lists the applications the analyzers know, by lower-case name
// (spellings of one application each have an entry).
var Apps = map[string]*App{
	"finder":             {Title: "Finder", Verbs: map[string]level.Level{"eject": level.Caution, "empty": level.Destructive, "erase": level.Destructive, "restart": level.Dangerous, "shut": level.Dangerous, "sleep": level.Dangerous, "update": level.Safe, "clean": level.Caution, "arrange": level.Caution, "sort": level.Safe, "reveal": level.Safe, "select": level.Safe, "open": level.Caution}},
	"system events":      {Title: "System Events", Verbs: map[string]level.Level{"keystroke": level.Caution, "key": level.Caution, "click": level.Caution, "perform": level.Caution, "start": level.Caution, "stop": level.Caution, "sleep": level.Dangerous, "restart": level.Dangerous, "shut": level.Dangerous, "log": level.Dangerous, "delete": level.Dangerous, "make": level.Caution, "do": level.Caution}},
	"system events.app":  {Title: "System Events", Verbs: map[string]level.Level{"keystroke": level.Caution, "key": level.Caution, "click": level.Caution, "perform": level.Caution, "start": level.Caution, "stop": level.Caution, "sleep": level.Dangerous, "restart": level.Dangerous, "shut": level.Dangerous, "log": level.Dangerous, "delete": level.Dangerous, "make": level.Caution, "do": level.Caution}},
	"music":              {Title: "Music", Verbs: map[string]level.Level{"play": level.Caution, "pause": level.Caution, "playpause": level.Caution, "stop": level.Caution, "next": level.Caution, "previous": level.Caution, "back": level.Caution, "fast": level.Caution, "rewind": level.Caution, "resume": level.Caution, "add": level.Caution, "refresh": level.Safe, "convert": level.Caution}},
	"itunes":             {Title: "iTunes", Verbs: map[string]level.Level{"play": level.Caution, "pause": level.Caution, "playpause": level.Caution, "stop": level.Caution, "next": level.Caution, "previous": level.Caution, "back": level.Caution, "fast": level.Caution, "rewind": level.Caution, "resume": level.Caution, "add": level.Caution}},
	"spotify":            {Title: "Spotify", Verbs: map[string]level.Level{"play": level.Caution, "pause": level.Caution, "playpause": level.Caution, "next": level.Caution, "previous": level.Caution}},
	"safari":             {Title: "Safari", Verbs: map[string]level.Level{"do": level.Dangerous, "search": level.Caution, "show": level.Caution, "add": level.Caution, "email": level.Caution}},
	"google chrome":      {Title: "Google Chrome", Verbs: map[string]level.Level{"execute": level.Dangerous, "reload": level.Caution, "go": level.Caution, "stop": level.Caution}},
	"chrome":             {Title: "Google Chrome", Verbs: map[string]level.Level{"execute": level.Dangerous, "reload": level.Caution, "go": level.Caution, "stop": level.Caution}},
	"chromium":           {Title: "Chromium", Verbs: map[string]level.Level{"execute": level.Dangerous, "reload": level.Caution, "go": level.Caution, "stop": level.Caution}},
	"brave browser":      {Title: "Brave Browser", Verbs: map[string]level.Level{"execute": level.Dangerous, "reload": level.Caution, "go": level.Caution, "stop": level.Caution}},
	"microsoft edge":     {Title: "Microsoft Edge", Verbs: map[string]level.Level{"execute": level.Dangerous, "reload": level.Caution, "go": level.Caution, "stop": level.Caution}},
	"arc":                {Title: "Arc", Verbs: map[string]level.Level{"execute": level.Dangerous, "reload": level.Caution, "go": level.Caution, "focus": level.Caution}},
	"firefox":            {Title: "Firefox", Verbs: map[string]level.Level{"openurl": level.Caution, "geturl": level.Caution}},
	"mail":               {Title: "Mail", Verbs: map[string]level.Level{"send": level.Dangerous, "check": level.Caution, "synchronize": level.Caution, "reply": level.Caution, "forward": level.Caution, "redirect": level.Caution, "import": level.Caution, "extract": level.Caution}},
	"microsoft outlook":  {Title: "Microsoft Outlook", Verbs: map[string]level.Level{"send": level.Dangerous, "reply": level.Caution, "forward": level.Caution, "sync": level.Caution}},
	"messages":           {Title: "Messages", Verbs: map[string]level.Level{"send": level.Dangerous, "login": level.Caution, "logout": level.Caution}},
	"notes":              {Title: "Notes", Verbs: map[string]level.Level{"show": level.Caution}},
	"reminders":          {Title: "Reminders", Verbs: map[string]level.Level{"show": level.Caution}},
	"calendar":           {Title: "Calendar", Verbs: map[string]level.Level{"show": level.Caution, "reload": level.Caution, "switch": level.Caution, "view": level.Caution}},
	"ical":               {Title: "iCal", Verbs: map[string]level.Level{"show": level.Caution, "reload": level.Caution, "switch": level.Caution, "view": level.Caution}},
	"contacts":           {Title: "Contacts", Verbs: map[string]level.Level{"add": level.Caution, "remove": level.Caution, "show": level.Caution}},
	"address book":       {Title: "Address Book", Verbs: map[string]level.Level{"add": level.Caution, "remove": level.Caution, "show": level.Caution}},
	"photos":             {Title: "Photos", Verbs: map[string]level.Level{"add": level.Caution, "import": level.Caution, "export": level.Caution, "spotlight": level.Safe, "start": level.Caution, "stop": level.Caution, "search": level.Safe, "next": level.Caution, "previous": level.Caution}},
	"keynote":            {Title: "Keynote", Verbs: map[string]level.Level{"start": level.Caution, "stop": level.Caution, "show": level.Caution, "export": level.Caution}},
	"pages":              {Title: "Pages", Verbs: map[string]level.Level{"export": level.Caution}},
	"numbers":            {Title: "Numbers", Verbs: map[string]level.Level{"export": level.Caution}},
	"textedit":           {Title: "TextEdit", Verbs: map[string]level.Level{}},
	"preview":            {Title: "Preview", Verbs: map[string]level.Level{}},
	"quicktime player":   {Title: "QuickTime Player", Verbs: map[string]level.Level{"play": level.Caution, "pause": level.Caution, "stop": level.Caution, "start": level.Caution, "export": level.Caution, "trim": level.Caution, "new": level.Dangerous}},
	"terminal":           {Title: "Terminal", Verbs: map[string]level.Level{"do": level.Caution}},
	"iterm":              {Title: "iTerm", Verbs: map[string]level.Level{"write": level.Caution, "create": level.Caution, "split": level.Caution, "select": level.Caution}},
	"iterm 2":            {Title: "iTerm", Verbs: map[string]level.Level{"write": level.Caution, "create": level.Caution, "split": level.Caution, "select": level.Caution}},
	"iterm2":             {Title: "iTerm", Verbs: map[string]level.Level{"write": level.Caution, "create": level.Caution, "split": level.Caution, "select": level.Caution}},
	"shortcuts events":   {Title: "Shortcuts", Verbs: map[string]level.Level{"run": level.Dangerous}},
	"shortcuts":          {Title: "Shortcuts", Verbs: map[string]level.Level{"run": level.Dangerous}},
	"system settings":    {Title: "System Settings", Verbs: map[string]level.Level{"reveal": level.Caution, "authorize": level.Caution}},
	"system preferences": {Title: "System Preferences", Verbs: map[string]level.Level{"reveal": level.Caution, "authorize": level.Caution}},
	"image events":       {Title: "Image Events", Verbs: map[string]level.Level{"scale": level.Caution, "rotate": level.Caution, "flip": level.Caution, "crop": level.Caution, "pad": level.Caution}},
	"script editor":      {Title: "Script Editor", Verbs: map[string]level.Level{"compile": level.Caution, "execute": level.Dangerous}},
	"xcode":              {Title: "Xcode", Verbs: map[string]level.Level{"build": level.Caution, "clean": level.Caution, "test": level.Caution, "run": level.Caution, "stop": level.Caution}},
	"simulator":          {Title: "Simulator", Verbs: map[string]level.Level{}},
	"tv":                 {Title: "TV", Verbs: map[string]level.Level{"play": level.Caution, "pause": level.Caution, "playpause": level.Caution, "stop": level.Caution, "next": level.Caution, "previous": level.Caution}},
	"podcasts":           {Title: "Podcasts", Verbs: map[string]level.Level{"play": level.Caution, "pause": level.Caution, "playpause": level.Caution}},
	"vlc":                {Title: "VLC", Verbs: map[string]level.Level{"play": level.Caution, "stop": level.Caution, "next": level.Caution, "previous": level.Caution, "fullscreen": level.Caution}},
	"loginwindow":        {Title: "loginwindow", Verbs: map[string]level.Level{}},
	"dock":               {Title: "Dock", Verbs: map[string]level.Level{}},
	"systemuiserver":     {Title: "SystemUIServer", Verbs: map[string]level.Level{}},
	"zoom.us":            {Title: "Zoom", Verbs: map[string]level.Level{}},
	"slack":              {Title: "Slack", Verbs: map[string]level.Level{}},
	"microsoft word":     {Title: "Microsoft Word", Verbs: map[string]level.Level{}},
	"microsoft excel":    {Title: "Microsoft Excel", Verbs: map[string]level.Level{}},
	"things3":            {Title: "Things", Verbs: map[string]level.Level{"show": level.Caution}},
	"omnifocus":          {Title: "OmniFocus", Verbs: map[string]level.Level{"synchronize": level.Caution}},
	"automator":          {Title: "Automator", Verbs: map[string]level.Level{"execute": level.Dangerous}},
	"console":            {Title: "Console", Verbs: map[string]level.Level{}},
	"activity monitor":   {Title: "Activity Monitor", Verbs: map[string]level.Level{}},
	"app store":          {Title: "App Store", Verbs: map[string]level.Level{}},
	"maps":               {Title: "Maps", Verbs: map[string]level.Level{}},
	"facetime":           {Title: "FaceTime", Verbs: map[string]level.Level{}},
	"books":              {Title: "Books", Verbs: map[string]level.Level{}},
	"news":               {Title: "News", Verbs: map[string]level.Level{}},
}

// AppIDs maps bundle identifiers and creator codes, lower case, to a key
// of Apps.
var AppIDs = map[string]string{
	"com.apple.finder": "finder", "com.apple.systemevents": "system events", "com.apple.music": "music",
	"com.apple.itunes": "itunes", "com.spotify.client": "spotify", "com.apple.safari": "safari",
	"com.google.chrome": "google chrome", "org.mozilla.firefox": "firefox", "com.apple.mail": "mail",
	"com.apple.ichat": "messages", "com.apple.mobilesms": "messages", "com.apple.notes": "notes",
	"com.apple.reminders": "reminders", "com.apple.ical": "calendar", "com.apple.addressbook": "contacts",
	"com.apple.photos": "photos", "com.apple.iwork.keynote": "keynote", "com.apple.iwork.pages": "pages",
	"com.apple.iwork.numbers": "numbers", "com.apple.textedit": "textedit", "com.apple.preview": "preview",
	"com.apple.quicktimeplayerx": "quicktime player", "com.apple.terminal": "terminal",
	"com.googlecode.iterm2": "iterm", "com.apple.shortcuts.events": "shortcuts events", "com.apple.shortcuts": "shortcuts",
	"com.apple.systempreferences": "system preferences", "com.apple.imageevents": "image events",
	"com.apple.scripteditor2": "script editor", "com.apple.dt.xcode": "xcode", "com.apple.loginwindow": "loginwindow",
	"com.microsoft.outlook": "microsoft outlook", "com.brave.browser": "brave browser", "com.microsoft.edgemac": "microsoft edge",
	"company.thebrowser.browser": "arc", "com.apple.dock": "dock", "us.zoom.xos": "zoom.us", "com.tinyspeck.slackmacgap": "slack",
	"com.apple.tv": "tv", "com.apple.podcasts": "podcasts", "org.videolan.vlc": "vlc", "com.apple.automator": "automator",
	"com.apple.systemuiserver": "systemuiserver",
	// Classic four-letter creator codes: application id "MACS" is the Finder.
	"macs": "finder", "sevs": "system events", "trmx": "terminal", "sfri": "safari", "emal": "mail",
	"ttxt": "textedit", "hook": "music", "prvw": "preview", "wrbt": "brave browser", "rimz": "google chrome",
}
