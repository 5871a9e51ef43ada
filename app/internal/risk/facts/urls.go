package facts

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Scheme is what opening a URL of one scheme does: its effect and the
// warning that says why.
type Scheme struct {
	Does effect.Effect
	Why  string
}

// Schemes are the URL schemes the analyzers know, lower case: web pages
// and links into everyday apps let data leave as the person can see it;
// scripts run unseen code, remote schemes connect, settings panes change
// the computer, and local files and data cannot be told. A scheme not
// here hands the URL to an application that may act on it: unknown.
var Schemes = map[string]Scheme{
	"http":                      {Does: effect.Of(effect.Egress), Why: "opens a web page"},
	"https":                     {Does: effect.Of(effect.Egress), Why: "opens a web page"},
	"mailto":                    {Does: effect.Of(effect.Egress), Why: "opens a web page"},
	"spotify":                   {Does: effect.Of(effect.Egress), Why: "opens a link in spotify"},
	"zoommtg":                   {Does: effect.Of(effect.Egress), Why: "opens a link in zoommtg"},
	"zoomus":                    {Does: effect.Of(effect.Egress), Why: "opens a link in zoomus"},
	"slack":                     {Does: effect.Of(effect.Egress), Why: "opens a link in slack"},
	"obsidian":                  {Does: effect.Of(effect.Egress), Why: "opens a link in obsidian"},
	"notion":                    {Does: effect.Of(effect.Egress), Why: "opens a link in notion"},
	"things":                    {Does: effect.Of(effect.Egress), Why: "opens a link in things"},
	"bear":                      {Does: effect.Of(effect.Egress), Why: "opens a link in bear"},
	"drafts":                    {Does: effect.Of(effect.Egress), Why: "opens a link in drafts"},
	"omnifocus":                 {Does: effect.Of(effect.Egress), Why: "opens a link in omnifocus"},
	"raycast":                   {Does: effect.Of(effect.Egress), Why: "opens a link in raycast"},
	"msteams":                   {Does: effect.Of(effect.Egress), Why: "opens a link in msteams"},
	"discord":                   {Does: effect.Of(effect.Egress), Why: "opens a link in discord"},
	"itms-apps":                 {Does: effect.Of(effect.Egress), Why: "opens a link in itms-apps"},
	"macappstore":               {Does: effect.Of(effect.Egress), Why: "opens a link in macappstore"},
	"music":                     {Does: effect.Of(effect.Egress), Why: "opens a link in music"},
	"podcasts":                  {Does: effect.Of(effect.Egress), Why: "opens a link in podcasts"},
	"maps":                      {Does: effect.Of(effect.Egress), Why: "opens a link in maps"},
	"facetime":                  {Does: effect.Of(effect.Egress), Why: "opens a link in facetime"},
	"facetime-audio":            {Does: effect.Of(effect.Egress), Why: "opens a link in facetime-audio"},
	"tel":                       {Does: effect.Of(effect.Egress), Why: "opens a link in tel"},
	"sms":                       {Does: effect.Of(effect.Egress), Why: "opens a link in sms"},
	"webcal":                    {Does: effect.Of(effect.Egress), Why: "opens a link in webcal"},
	"x-apple-reminderkit":       {Does: effect.Of(effect.Egress), Why: "opens a link in x-apple-reminderkit"},
	"ical":                      {Does: effect.Of(effect.Egress), Why: "opens a link in ical"},
	"file":                      {Does: effect.Of(effect.Unknown), Why: "file: URL opens a local file or application"},
	"javascript":                {Does: effect.Of(effect.RunUnseen), Why: "javascript: URL runs script"},
	"vbscript":                  {Does: effect.Of(effect.RunUnseen), Why: "javascript: URL runs script"},
	"data":                      {Does: effect.Of(effect.Unknown), Why: "data: URL carries its own content"},
	"blob":                      {Does: effect.Of(effect.Unknown), Why: "data: URL carries its own content"},
	"x-apple.systempreferences": {Does: effect.Of(effect.Setting, effect.Session), Why: "opens a System Settings pane"},
	"x-apple-systempreferences": {Does: effect.Of(effect.Setting, effect.Session), Why: "opens a System Settings pane"},
	"applescript":               {Does: effect.Of(effect.RunUnseen), Why: "applescript: URL runs or connects to something"},
	"x-apple-script":            {Does: effect.Of(effect.RunUnseen), Why: "x-apple-script: URL runs or connects to something"},
	"shortcuts":                 {Does: effect.Of(effect.RunUnseen), Why: "shortcuts: URL runs or connects to something"},
	"ssh":                       {Does: effect.Of(effect.Connect), Why: "ssh: URL runs or connects to something"},
	"vnc":                       {Does: effect.Of(effect.Connect), Why: "vnc: URL runs or connects to something"},
	"smb":                       {Does: effect.Of(effect.Connect), Why: "smb: URL runs or connects to something"},
	"afp":                       {Does: effect.Of(effect.Connect), Why: "afp: URL runs or connects to something"},
	"ftp":                       {Does: effect.Of(effect.Connect), Why: "ftp: URL runs or connects to something"},
	"sftp":                      {Does: effect.Of(effect.Connect), Why: "sftp: URL runs or connects to something"},
	"telnet":                    {Does: effect.Of(effect.Connect), Why: "telnet: URL runs or connects to something"},
	"vscode":                    {Does: effect.Of(effect.Unknown), Why: "vscode: URL hands over to the editor and its extensions, which clone, install and run what it names"},
	"vscode-insiders":           {Does: effect.Of(effect.Unknown), Why: "vscode: URL hands over to the editor and its extensions, which clone, install and run what it names"},
	"x-man-page":                {Does: effect.Of(effect.Launch, effect.Terminal), Why: "x-man-page: URL runs or connects to something"},
}

// SchemeEffect is what opening a URL of the lower-case scheme does, and
// why: a scheme Schemes does not list hands the URL to an application
// that may act on it, which cannot be told.
func SchemeEffect(scheme string) (effect.Effect, string) {
	if s, ok := Schemes[scheme]; ok {
		return s.Does, s.Why
	}
	return effect.Of(effect.Unknown), scheme + ": URL hands over to an application that may act on it"
}

// URLScheme returns the scheme s starts with: lower-case letters, digits,
// + - and . before a colon. Callers lower-case s first.
func URLScheme(s string) (string, bool) {
	i := strings.Index(s, ":")
	if i <= 0 {
		return "", false
	}
	for _, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return "", false
		}
	}
	return s[:i], true
}
