package facts

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Scheme is what opening a URL of one scheme does: the level it implies
// and the warning that says why.
type Scheme struct {
	Level level.Level
	Why   string
}

// Schemes are the URL schemes the analyzers know, lower case: web pages
// and links into everyday apps are Caution; local files, scripts, data,
// settings panes and remote connections are Dangerous. A scheme not here
// hands the URL to an application that may act on it: Dangerous.
var Schemes = map[string]Scheme{
	"http":                      {level.Caution, "opens a web page"},
	"https":                     {level.Caution, "opens a web page"},
	"mailto":                    {level.Caution, "opens a web page"},
	"spotify":                   {level.Caution, "opens a link in spotify"},
	"zoommtg":                   {level.Caution, "opens a link in zoommtg"},
	"zoomus":                    {level.Caution, "opens a link in zoomus"},
	"slack":                     {level.Caution, "opens a link in slack"},
	"obsidian":                  {level.Caution, "opens a link in obsidian"},
	"notion":                    {level.Caution, "opens a link in notion"},
	"things":                    {level.Caution, "opens a link in things"},
	"bear":                      {level.Caution, "opens a link in bear"},
	"drafts":                    {level.Caution, "opens a link in drafts"},
	"omnifocus":                 {level.Caution, "opens a link in omnifocus"},
	"raycast":                   {level.Caution, "opens a link in raycast"},
	"msteams":                   {level.Caution, "opens a link in msteams"},
	"discord":                   {level.Caution, "opens a link in discord"},
	"vscode":                    {level.Caution, "opens a link in vscode"},
	"itms-apps":                 {level.Caution, "opens a link in itms-apps"},
	"macappstore":               {level.Caution, "opens a link in macappstore"},
	"music":                     {level.Caution, "opens a link in music"},
	"podcasts":                  {level.Caution, "opens a link in podcasts"},
	"maps":                      {level.Caution, "opens a link in maps"},
	"facetime":                  {level.Caution, "opens a link in facetime"},
	"facetime-audio":            {level.Caution, "opens a link in facetime-audio"},
	"tel":                       {level.Caution, "opens a link in tel"},
	"sms":                       {level.Caution, "opens a link in sms"},
	"webcal":                    {level.Caution, "opens a link in webcal"},
	"x-apple-reminderkit":       {level.Caution, "opens a link in x-apple-reminderkit"},
	"ical":                      {level.Caution, "opens a link in ical"},
	"file":                      {level.Dangerous, "file: URL opens a local file or application"},
	"javascript":                {level.Dangerous, "javascript: URL runs script"},
	"vbscript":                  {level.Dangerous, "javascript: URL runs script"},
	"data":                      {level.Dangerous, "data: URL carries its own content"},
	"blob":                      {level.Dangerous, "data: URL carries its own content"},
	"x-apple.systempreferences": {level.Dangerous, "opens a System Settings pane"},
	"x-apple-systempreferences": {level.Dangerous, "opens a System Settings pane"},
	"applescript":               {level.Dangerous, "applescript: URL runs or connects to something"},
	"x-apple-script":            {level.Dangerous, "x-apple-script: URL runs or connects to something"},
	"shortcuts":                 {level.Dangerous, "shortcuts: URL runs or connects to something"},
	"ssh":                       {level.Dangerous, "ssh: URL runs or connects to something"},
	"vnc":                       {level.Dangerous, "vnc: URL runs or connects to something"},
	"smb":                       {level.Dangerous, "smb: URL runs or connects to something"},
	"afp":                       {level.Dangerous, "afp: URL runs or connects to something"},
	"ftp":                       {level.Dangerous, "ftp: URL runs or connects to something"},
	"sftp":                      {level.Dangerous, "sftp: URL runs or connects to something"},
	"telnet":                    {level.Dangerous, "telnet: URL runs or connects to something"},
	"x-man-page":                {level.Dangerous, "x-man-page: URL runs or connects to something"},
}

// SchemeRisk rates opening a URL of the lower-case scheme.
func SchemeRisk(scheme string) (level.Level, string) {
	if s, ok := Schemes[scheme]; ok {
		return s.Level, s.Why
	}
	return level.Dangerous, scheme + ": URL hands over to an application that may act on it"
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
