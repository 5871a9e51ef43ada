package risk

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// appInfo is what the analyzer knows of one scriptable application: its
// name for warnings and the commands of its dictionary that need a level
// of their own. Commands that are neither here, in genericVerbs nor in
// appVerbs are unknown, and unknown commands are Dangerous.
type appInfo struct {
	title string
	verbs map[string]level.Level
}

// genericVerbs are the Standard Suite: every scriptable application has
// them. The verb rules rate the ones with side effects (delete, move …).
var genericVerbs = set(`activate launch run reopen quit get set count exists open close save print make
	duplicate delete move select reveal copy`)

// appVerbs are commands of known applications' dictionaries that do what
// their name says and no more (media control, navigation, showing things).
var appVerbs = set(`play pause playpause stop next previous back fast rewind resume reload search show
	add import export start check synchronize reply forward redirect refresh update sort arrange clean
	go open url openurl geturl login hide unhide zoom fetch mark find convert scale rotate flip crop pad
	view switch present cancel bounce expose edit paste cut undo redo save set do`)

// standardAdditions are the commands of AppleScript itself and of its
// scripting additions that may start a statement outside any tell block.
var standardAdditions = set(`display choose say beep delay log activate path current info list mount
	random round offset summarize localized time system do run load store read write open close get set
	copy count error ascii set-volume the clipboard quit launch tell`)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

func verbs(spec string) map[string]level.Level {
	m := map[string]level.Level{}
	for _, f := range strings.Fields(spec) {
		name, lv, _ := strings.Cut(f, "=")
		l := level.Safe
		switch lv {
		case "c":
			l = level.Caution
		case "d":
			l = level.Dangerous
		case "x":
			l = level.Destructive
		}
		m[name] = l
	}
	return m
}

// apps lists the applications the analyzer knows, by lower-case name.
var apps = map[string]*appInfo{
	"finder":             {"Finder", verbs(`eject=c empty=x erase=x restart=d shut=d sleep=d update clean=c arrange=c sort reveal select open=c`)},
	"system events":      {"System Events", verbs(`keystroke=c key=c click=c perform=c start=c stop=c sleep=d restart=d shut=d log=d delete=d make=c do=c`)},
	"music":              {"Music", verbs(`play=c pause=c playpause=c stop=c next=c previous=c back=c fast=c rewind=c resume=c add=c refresh convert=c`)},
	"itunes":             {"iTunes", verbs(`play=c pause=c playpause=c stop=c next=c previous=c back=c fast=c rewind=c resume=c add=c`)},
	"spotify":            {"Spotify", verbs(`play=c pause=c playpause=c next=c previous=c play=c`)},
	"safari":             {"Safari", verbs(`do=d search=c show=c add=c email=c`)},
	"google chrome":      {"Google Chrome", verbs(`execute=d reload=c go=c stop=c`)},
	"chromium":           {"Chromium", verbs(`execute=d reload=c go=c stop=c`)},
	"brave browser":      {"Brave Browser", verbs(`execute=d reload=c go=c stop=c`)},
	"microsoft edge":     {"Microsoft Edge", verbs(`execute=d reload=c go=c stop=c`)},
	"arc":                {"Arc", verbs(`execute=d reload=c go=c focus=c`)},
	"firefox":            {"Firefox", verbs(`openurl=c geturl=c`)},
	"mail":               {"Mail", verbs(`send=d check=c synchronize=c reply=c forward=c redirect=c import=c extract=c`)},
	"microsoft outlook":  {"Microsoft Outlook", verbs(`send=d reply=c forward=c sync=c`)},
	"messages":           {"Messages", verbs(`send=d login=c logout=c`)},
	"notes":              {"Notes", verbs(`show=c`)},
	"reminders":          {"Reminders", verbs(`show=c`)},
	"calendar":           {"Calendar", verbs(`show=c reload=c switch=c view=c`)},
	"ical":               {"iCal", verbs(`show=c reload=c switch=c view=c`)},
	"contacts":           {"Contacts", verbs(`add=c remove=c show=c`)},
	"address book":       {"Address Book", verbs(`add=c remove=c show=c`)},
	"photos":             {"Photos", verbs(`add=c import=c export=c spotlight start=c stop=c search next=c previous=c`)},
	"keynote":            {"Keynote", verbs(`start=c stop=c show=c export=c`)},
	"pages":              {"Pages", verbs(`export=c`)},
	"numbers":            {"Numbers", verbs(`export=c`)},
	"textedit":           {"TextEdit", verbs(``)},
	"preview":            {"Preview", verbs(``)},
	"quicktime player":   {"QuickTime Player", verbs(`play=c pause=c stop=c start=c export=c trim=c new=d`)},
	"terminal":           {"Terminal", verbs(`do=c`)},
	"iterm":              {"iTerm", verbs(`write=c create=c split=c select=c`)},
	"iterm2":             {"iTerm", verbs(`write=c create=c split=c select=c`)},
	"shortcuts events":   {"Shortcuts", verbs(`run=d`)},
	"shortcuts":          {"Shortcuts", verbs(`run=d`)},
	"system settings":    {"System Settings", verbs(`reveal=c authorize=c`)},
	"system preferences": {"System Preferences", verbs(`reveal=c authorize=c`)},
	"image events":       {"Image Events", verbs(`scale=c rotate=c flip=c crop=c pad=c`)},
	"script editor":      {"Script Editor", verbs(`compile=c execute=d`)},
	"xcode":              {"Xcode", verbs(`build=c clean=c test=c run=c stop=c`)},
	"simulator":          {"Simulator", verbs(``)},
	"tv":                 {"TV", verbs(`play=c pause=c playpause=c stop=c next=c previous=c`)},
	"podcasts":           {"Podcasts", verbs(`play=c pause=c playpause=c`)},
	"vlc":                {"VLC", verbs(`play=c stop=c next=c previous=c fullscreen=c`)},
	"loginwindow":        {"loginwindow", verbs(``)},
	"dock":               {"Dock", verbs(``)},
	"systemuiserver":     {"SystemUIServer", verbs(``)},
	"zoom.us":            {"Zoom", verbs(``)},
	"slack":              {"Slack", verbs(``)},
	"microsoft word":     {"Microsoft Word", verbs(``)},
	"microsoft excel":    {"Microsoft Excel", verbs(``)},
	"things3":            {"Things", verbs(`show=c`)},
	"omnifocus":          {"OmniFocus", verbs(`synchronize=c`)},
	"automator":          {"Automator", verbs(`execute=d`)},
	"console":            {"Console", verbs(``)},
	"activity monitor":   {"Activity Monitor", verbs(``)},
	"app store":          {"App Store", verbs(``)},
	"maps":               {"Maps", verbs(``)},
	"facetime":           {"FaceTime", verbs(``)},
	"books":              {"Books", verbs(``)},
	"news":               {"News", verbs(``)},
}

// appIDs maps bundle identifiers to names.
var appIDs = map[string]string{
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

func init() {
	apps["iterm 2"] = apps["iterm"]
	apps["chrome"] = apps["google chrome"]
	apps["system events.app"] = apps["system events"]
}
