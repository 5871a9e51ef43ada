package facts

import (
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// App is what the analyzers know of one scriptable application: its name
// for warnings and the commands of its dictionary that need an effect of
// their own. Commands that are neither in Does, in GenericVerbs nor in
// AppVerbs are unknown, and unknown commands are Dangerous.
type App struct {
	Title string
	Does  map[string]effect.Effect // what each command of its dictionary does
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
	"finder":                  {Title: "Finder", Does: map[string]effect.Effect{"eject": effect.Of(effect.AppState), "empty": effect.Of(effect.Remove), "erase": effect.Of(effect.Disk), "restart": effect.Of(effect.Power), "shut": effect.Of(effect.Power), "sleep": effect.Of(effect.Power), "update": effect.Of(effect.Read), "clean": effect.Of(effect.AppState), "arrange": effect.Of(effect.AppState), "sort": effect.Of(effect.Read), "reveal": effect.Of(effect.Read), "select": effect.Of(effect.Read), "open": effect.Of(effect.Launch)}},
	"system events":           {Title: "System Events", Does: map[string]effect.Effect{"keystroke": effect.Of(effect.Input), "key": effect.Of(effect.Input), "click": effect.Of(effect.Input), "perform": effect.Of(effect.Input), "start": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "sleep": effect.Of(effect.Power), "restart": effect.Of(effect.Power), "shut": effect.Of(effect.Power), "log": effect.Of(effect.Power), "delete": effect.Of(effect.Trash), "make": effect.Of(effect.Create), "do": effect.Of(effect.Run)}},
	"font book":               {Title: "Font Book", Does: map[string]effect.Effect{"add": effect.Of(effect.Create), "remove": effect.Of(effect.Trash), "validate": effect.Of(effect.Read)}},
	"system information":      {Title: "System Information", Does: map[string]effect.Effect{}},
	"image capture":           {Title: "Image Capture", Does: map[string]effect.Effect{}},
	"calculator":              {Title: "Calculator", Does: map[string]effect.Effect{}},
	"stickies":                {Title: "Stickies", Does: map[string]effect.Effect{}},
	"disk utility":            {Title: "Disk Utility", Does: map[string]effect.Effect{"erase": effect.Of(effect.Disk)}},
	"screenshot":              {Title: "Screenshot", Does: map[string]effect.Effect{}},
	"digital color meter":     {Title: "Digital Color Meter", Does: map[string]effect.Effect{}},
	"dictionary":              {Title: "Dictionary", Does: map[string]effect.Effect{}},
	"photo booth":             {Title: "Photo Booth", Does: map[string]effect.Effect{}},
	"voice memos":             {Title: "Voice Memos", Does: map[string]effect.Effect{}},
	"freeform":                {Title: "Freeform", Does: map[string]effect.Effect{}},
	"weather":                 {Title: "Weather", Does: map[string]effect.Effect{}},
	"clock":                   {Title: "Clock", Does: map[string]effect.Effect{}},
	"stocks":                  {Title: "Stocks", Does: map[string]effect.Effect{}},
	"home":                    {Title: "Home", Does: map[string]effect.Effect{}},
	"tips":                    {Title: "Tips", Does: map[string]effect.Effect{}},
	"grapher":                 {Title: "Grapher", Does: map[string]effect.Effect{}},
	"voiceover utility":       {Title: "VoiceOver Utility", Does: map[string]effect.Effect{}},
	"bluetooth file exchange": {Title: "Bluetooth File Exchange", Does: map[string]effect.Effect{}},
	"database events":         {Title: "Database Events", Does: map[string]effect.Effect{}},
	"screen sharing":          {Title: "Screen Sharing", Does: map[string]effect.Effect{}},
	"archive utility":         {Title: "Archive Utility", Does: map[string]effect.Effect{}},
	"keychain scripting":      {Title: "Keychain Scripting", Does: map[string]effect.Effect{"unlock": effect.Of(effect.AppState), "lock": effect.Of(effect.AppState)}},
	"system events.app":       {Title: "System Events", Does: map[string]effect.Effect{"keystroke": effect.Of(effect.Input), "key": effect.Of(effect.Input), "click": effect.Of(effect.Input), "perform": effect.Of(effect.Input), "start": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "sleep": effect.Of(effect.Power), "restart": effect.Of(effect.Power), "shut": effect.Of(effect.Power), "log": effect.Of(effect.Power), "delete": effect.Of(effect.Trash), "make": effect.Of(effect.Create), "do": effect.Of(effect.Run)}},
	"music":                   {Title: "Music", Does: map[string]effect.Effect{"play": effect.Of(effect.AppState), "pause": effect.Of(effect.AppState), "playpause": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "next": effect.Of(effect.AppState), "previous": effect.Of(effect.AppState), "back": effect.Of(effect.AppState), "fast": effect.Of(effect.AppState), "rewind": effect.Of(effect.AppState), "resume": effect.Of(effect.AppState), "add": effect.Of(effect.Create), "refresh": effect.Of(effect.Read), "convert": effect.Of(effect.Create)}},
	"itunes":                  {Title: "iTunes", Does: map[string]effect.Effect{"play": effect.Of(effect.AppState), "pause": effect.Of(effect.AppState), "playpause": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "next": effect.Of(effect.AppState), "previous": effect.Of(effect.AppState), "back": effect.Of(effect.AppState), "fast": effect.Of(effect.AppState), "rewind": effect.Of(effect.AppState), "resume": effect.Of(effect.AppState), "add": effect.Of(effect.Create)}},
	"spotify":                 {Title: "Spotify", Does: map[string]effect.Effect{"play": effect.Of(effect.AppState), "pause": effect.Of(effect.AppState), "playpause": effect.Of(effect.AppState), "next": effect.Of(effect.AppState), "previous": effect.Of(effect.AppState)}},
	"safari":                  {Title: "Safari", Does: map[string]effect.Effect{"do": effect.Of(effect.RunUnseen), "search": effect.Of(effect.AppState), "show": effect.Of(effect.AppState), "add": effect.Of(effect.Create), "email": effect.Of(effect.Create)}},
	"google chrome":           {Title: "Google Chrome", Does: map[string]effect.Effect{"execute": effect.Of(effect.RunUnseen), "reload": effect.Of(effect.AppState), "go": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState)}},
	"chrome":                  {Title: "Google Chrome", Does: map[string]effect.Effect{"execute": effect.Of(effect.RunUnseen), "reload": effect.Of(effect.AppState), "go": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState)}},
	"chromium":                {Title: "Chromium", Does: map[string]effect.Effect{"execute": effect.Of(effect.RunUnseen), "reload": effect.Of(effect.AppState), "go": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState)}},
	"brave browser":           {Title: "Brave Browser", Does: map[string]effect.Effect{"execute": effect.Of(effect.RunUnseen), "reload": effect.Of(effect.AppState), "go": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState)}},
	"microsoft edge":          {Title: "Microsoft Edge", Does: map[string]effect.Effect{"execute": effect.Of(effect.RunUnseen), "reload": effect.Of(effect.AppState), "go": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState)}},
	"arc":                     {Title: "Arc", Does: map[string]effect.Effect{"execute": effect.Of(effect.RunUnseen), "reload": effect.Of(effect.AppState), "go": effect.Of(effect.AppState), "focus": effect.Of(effect.AppState)}},
	"firefox":                 {Title: "Firefox", Does: map[string]effect.Effect{"openurl": effect.Of(effect.AppState), "geturl": effect.Of(effect.AppState)}},
	"mail":                    {Title: "Mail", Does: map[string]effect.Effect{"send": effect.Of(effect.Send), "check": effect.Of(effect.Fetch), "synchronize": effect.Of(effect.Fetch), "reply": effect.Of(effect.Create), "forward": effect.Of(effect.Create), "redirect": effect.Of(effect.Create), "import": effect.Of(effect.Create), "extract": effect.Of(effect.Create)}},
	"microsoft outlook":       {Title: "Microsoft Outlook", Does: map[string]effect.Effect{"send": effect.Of(effect.Send), "reply": effect.Of(effect.Create), "forward": effect.Of(effect.Create), "sync": effect.Of(effect.Fetch)}},
	"messages":                {Title: "Messages", Does: map[string]effect.Effect{"send": effect.Of(effect.Send), "login": effect.Of(effect.AppState), "logout": effect.Of(effect.AppState)}},
	"notes":                   {Title: "Notes", Does: map[string]effect.Effect{"show": effect.Of(effect.AppState)}},
	"reminders":               {Title: "Reminders", Does: map[string]effect.Effect{"show": effect.Of(effect.AppState)}},
	"calendar":                {Title: "Calendar", Does: map[string]effect.Effect{"show": effect.Of(effect.AppState), "reload": effect.Of(effect.AppState), "switch": effect.Of(effect.AppState), "view": effect.Of(effect.AppState)}},
	"ical":                    {Title: "iCal", Does: map[string]effect.Effect{"show": effect.Of(effect.AppState), "reload": effect.Of(effect.AppState), "switch": effect.Of(effect.AppState), "view": effect.Of(effect.AppState)}},
	"contacts":                {Title: "Contacts", Does: map[string]effect.Effect{"add": effect.Of(effect.Create), "remove": effect.Of(effect.Change), "show": effect.Of(effect.AppState)}},
	"address book":            {Title: "Address Book", Does: map[string]effect.Effect{"add": effect.Of(effect.Create), "remove": effect.Of(effect.Change), "show": effect.Of(effect.AppState)}},
	"photos":                  {Title: "Photos", Does: map[string]effect.Effect{"add": effect.Of(effect.Create), "import": effect.Of(effect.Create), "export": effect.Of(effect.Create), "spotlight": effect.Of(effect.Read), "start": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "search": effect.Of(effect.Read), "next": effect.Of(effect.AppState), "previous": effect.Of(effect.AppState)}},
	"keynote":                 {Title: "Keynote", Does: map[string]effect.Effect{"start": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "show": effect.Of(effect.AppState), "export": effect.Of(effect.Create)}},
	"pages":                   {Title: "Pages", Does: map[string]effect.Effect{"export": effect.Of(effect.Create)}},
	"numbers":                 {Title: "Numbers", Does: map[string]effect.Effect{"export": effect.Of(effect.Create)}},
	"textedit":                {Title: "TextEdit", Does: map[string]effect.Effect{}},
	"preview":                 {Title: "Preview", Does: map[string]effect.Effect{}},
	"quicktime player":        {Title: "QuickTime Player", Does: map[string]effect.Effect{"play": effect.Of(effect.AppState), "pause": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "start": effect.Of(effect.AppState), "export": effect.Of(effect.Create), "trim": effect.Of(effect.Change), "new": effect.Of(effect.ReadSecret)}},
	"terminal":                {Title: "Terminal", Does: map[string]effect.Effect{"do": effect.Of(effect.Run)}},
	"iterm":                   {Title: "iTerm", Does: map[string]effect.Effect{"write": effect.Of(effect.Run), "create": effect.Of(effect.AppState), "split": effect.Of(effect.AppState), "select": effect.Of(effect.AppState)}},
	"iterm 2":                 {Title: "iTerm", Does: map[string]effect.Effect{"write": effect.Of(effect.Run), "create": effect.Of(effect.AppState), "split": effect.Of(effect.AppState), "select": effect.Of(effect.AppState)}},
	"iterm2":                  {Title: "iTerm", Does: map[string]effect.Effect{"write": effect.Of(effect.Run), "create": effect.Of(effect.AppState), "split": effect.Of(effect.AppState), "select": effect.Of(effect.AppState)}},
	"shortcuts events":        {Title: "Shortcuts", Does: map[string]effect.Effect{"run": effect.Of(effect.RunUnseen)}},
	"shortcuts":               {Title: "Shortcuts", Does: map[string]effect.Effect{"run": effect.Of(effect.RunUnseen)}},
	"system settings":         {Title: "System Settings", Does: map[string]effect.Effect{"reveal": effect.Of(effect.AppState), "authorize": effect.Of(effect.AppState)}},
	"system preferences":      {Title: "System Preferences", Does: map[string]effect.Effect{"reveal": effect.Of(effect.AppState), "authorize": effect.Of(effect.AppState)}},
	"image events":            {Title: "Image Events", Does: map[string]effect.Effect{"scale": effect.Of(effect.Change), "rotate": effect.Of(effect.Change), "flip": effect.Of(effect.Change), "crop": effect.Of(effect.Change), "pad": effect.Of(effect.Change)}},
	"script editor":           {Title: "Script Editor", Does: map[string]effect.Effect{"compile": effect.Of(effect.AppState), "execute": effect.Of(effect.RunUnseen)}},
	"xcode":                   {Title: "Xcode", Does: map[string]effect.Effect{"build": effect.Of(effect.AppState), "clean": effect.Of(effect.AppState), "test": effect.Of(effect.AppState), "run": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState)}},
	"simulator":               {Title: "Simulator", Does: map[string]effect.Effect{}},
	"tv":                      {Title: "TV", Does: map[string]effect.Effect{"play": effect.Of(effect.AppState), "pause": effect.Of(effect.AppState), "playpause": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "next": effect.Of(effect.AppState), "previous": effect.Of(effect.AppState)}},
	"podcasts":                {Title: "Podcasts", Does: map[string]effect.Effect{"play": effect.Of(effect.AppState), "pause": effect.Of(effect.AppState), "playpause": effect.Of(effect.AppState)}},
	"vlc":                     {Title: "VLC", Does: map[string]effect.Effect{"play": effect.Of(effect.AppState), "stop": effect.Of(effect.AppState), "next": effect.Of(effect.AppState), "previous": effect.Of(effect.AppState), "fullscreen": effect.Of(effect.AppState)}},
	"loginwindow":             {Title: "loginwindow", Does: map[string]effect.Effect{}},
	"dock":                    {Title: "Dock", Does: map[string]effect.Effect{}},
	"systemuiserver":          {Title: "SystemUIServer", Does: map[string]effect.Effect{}},
	"zoom.us":                 {Title: "Zoom", Does: map[string]effect.Effect{}},
	"slack":                   {Title: "Slack", Does: map[string]effect.Effect{}},
	"microsoft word":          {Title: "Microsoft Word", Does: map[string]effect.Effect{}},
	"microsoft excel":         {Title: "Microsoft Excel", Does: map[string]effect.Effect{}},
	"things3":                 {Title: "Things", Does: map[string]effect.Effect{"show": effect.Of(effect.AppState)}},
	"omnifocus":               {Title: "OmniFocus", Does: map[string]effect.Effect{"synchronize": effect.Of(effect.Fetch)}},
	"automator":               {Title: "Automator", Does: map[string]effect.Effect{"execute": effect.Of(effect.RunUnseen)}},
	"console":                 {Title: "Console", Does: map[string]effect.Effect{}},
	"activity monitor":        {Title: "Activity Monitor", Does: map[string]effect.Effect{}},
	"app store":               {Title: "App Store", Does: map[string]effect.Effect{}},
	"maps":                    {Title: "Maps", Does: map[string]effect.Effect{}},
	"facetime":                {Title: "FaceTime", Does: map[string]effect.Effect{}},
	"books":                   {Title: "Books", Does: map[string]effect.Effect{}},
	"news":                    {Title: "News", Does: map[string]effect.Effect{}},
}

// AppIDs maps bundle identifiers and creator codes, lower case, to a key
// of Apps.
var AppIDs = map[string]string{
	"com.apple.fontbook": "font book", "com.apple.systemprofiler": "system information", "com.apple.image_capture": "image capture",
	"com.apple.calculator": "calculator", "com.apple.stickies": "stickies", "com.apple.diskutility": "disk utility",
	"com.apple.screenshot.launcher": "screenshot", "com.apple.digitalcolormeter": "digital color meter",
	"com.apple.dictionary": "dictionary", "com.apple.photo booth": "photo booth", "com.apple.voicememos": "voice memos",
	"com.apple.freeform": "freeform", "com.apple.weather": "weather", "com.apple.clock": "clock", "com.apple.stocks": "stocks",
	"com.apple.home": "home", "com.apple.tips": "tips", "com.apple.grapher": "grapher", "com.apple.voiceoverutility": "voiceover utility",
	"com.apple.bluetoothfileexchange": "bluetooth file exchange", "com.apple.screensharing": "screen sharing",
	"com.apple.archiveutility": "archive utility",
	"com.apple.finder":         "finder", "com.apple.systemevents": "system events", "com.apple.music": "music",
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
