package action_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/level"
)

// The registry as the spec gives it: name, arguments, base class.
var specRegistry = []struct {
	name  string
	args  string // name:kind, "?" for optional, "<<" for heredoc-capable
	class level.Level
}{
	{"MOVE_FILE", "from:path to:path", level.Caution},
	{"COPY_FILE", "from:path to:path", level.Caution},
	{"DELETE_FILE", "path:path", level.Dangerous},
	{"CREATE_FOLDER", "path:path", level.Caution},
	{"OPEN_FILE", "path:path app:app?", level.Caution},
	{"REVEAL_IN_FINDER", "path:path", level.Safe},
	{"WRITE_FILE", "path:path content:text<<", level.Dangerous},
	{"APPEND_FILE", "path:path content:text<<", level.Dangerous},
	{"WRITE_DOC", "path:path content:text<<", level.Dangerous},
	{"SEND_EMAIL", "to:email_list subject:text body:text<<", level.Dangerous},
	{"OPEN_URL", "url:url", level.Caution},
	{"COPY_TO_CLIPBOARD", "text:text", level.Caution},
	{"OPEN_APP", "app:app", level.Caution},
	{"QUIT_APP", "app:app", level.Caution},
	{"ACTIVATE_APP", "app:app", level.Caution},
	{"RELEASE_LOCK", "app:app", level.Caution},
	{"NOTIFY", "title:text message:text sound:text?", level.Safe},
	{"SPEAK", "text:text", level.Safe},
	{"SET_VOLUME", "level:number", level.Caution},
	{"DO_NOT_DISTURB", "state:enum", level.Caution},
	{"RUN_SHORTCUT", "name:text input:text?", level.Dangerous},
	{"CREATE_EVENT", "title:text start:datetime end:datetime", level.Caution},
	{"CREATE_REMINDER", "title:text due:datetime?", level.Caution},
}

func describeArgs(c *action.Command) string {
	var parts []string
	for _, a := range c.Args {
		s := a.Name + ":" + strings.ReplaceAll(a.Kind.String(), " ", "_")
		if a.Optional {
			s += "?"
		}
		if a.Heredoc {
			s += "<<"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestRegistryMatchesSpec(t *testing.T) {
	cmds := action.Commands()
	if len(cmds) != len(specRegistry) {
		t.Fatalf("registry has %d commands, spec has %d", len(cmds), len(specRegistry))
	}
	for i, want := range specRegistry {
		c := cmds[i]
		if c.Name != want.name {
			t.Errorf("command %d is %s, want %s", i, c.Name, want.name)
			continue
		}
		if got := describeArgs(c); got != want.args {
			t.Errorf("%s args = %q, want %q", c.Name, got, want.args)
		}
		if c.Class != want.class {
			t.Errorf("%s class = %v, want %v", c.Name, c.Class, want.class)
		}
	}
	vol, _ := action.Lookup("SET_VOLUME")
	if a := vol.Args[0]; a.Min != 0 || a.Max != 100 {
		t.Errorf("SET_VOLUME range = %d..%d, want 0..100", a.Min, a.Max)
	}
	dnd, _ := action.Lookup("DO_NOT_DISTURB")
	if got := strings.Join(dnd.Args[0].Enum, ","); got != "ON,OFF" {
		t.Errorf("DO_NOT_DISTURB values = %s, want ON,OFF", got)
	}
}

var groups = []string{"File operations", "Documents", "Communication", "App control",
	"Notifications", "System", "Shortcuts", "Calendar and reminders"}

func TestRegistryInvariants(t *testing.T) {
	nameRE := regexp.MustCompile(`^[A-Z][A-Z_]*$`)
	seen := map[string]bool{}
	groupAt := 0
	for _, c := range action.Commands() {
		if !nameRE.MatchString(c.Name) || seen[c.Name] {
			t.Errorf("bad or duplicate name %q", c.Name)
		}
		seen[c.Name] = true
		// Groups appear in documentation order, each in one run.
		for groupAt < len(groups) && groups[groupAt] != c.Group {
			groupAt++
		}
		if groupAt == len(groups) {
			t.Errorf("%s: group %q unknown or out of order", c.Name, c.Group)
		}
		if c.Help == "" || strings.ContainsAny(c.Help, "\n\r") {
			t.Errorf("%s: help must be one non-empty line", c.Name)
		}
		if len(c.Args) == 0 || len(c.Args) > 4 {
			t.Errorf("%s: %d args", c.Name, len(c.Args))
		}
		argNames := map[string]bool{}
		for i, a := range c.Args {
			argNames[a.Name] = true
			if i > 0 && c.Args[i-1].Optional && !a.Optional {
				t.Errorf("%s: required %s follows an optional argument", c.Name, a.Name)
			}
			if a.Heredoc && (a.Kind != action.KindText || i != len(c.Args)-1) {
				t.Errorf("%s: heredoc-capable %s must be a trailing text argument", c.Name, a.Name)
			}
			if a.Kind == action.KindEnum {
				for _, e := range a.Enum {
					if e != strings.ToUpper(e) || e == "" {
						t.Errorf("%s: enum value %q must be upper case", c.Name, e)
					}
				}
			}
		}
		// Every placeholder names an argument; those outside [...] are required.
		outside := regexp.MustCompile(`\[[^\]]*\]`).ReplaceAllString(c.Preview, "")
		for _, m := range regexp.MustCompile(`\{([a-z]+)(:(chars|lines))?\}`).FindAllStringSubmatch(c.Preview, -1) {
			if !argNames[m[1]] {
				t.Errorf("%s: preview names unknown argument %q", c.Name, m[1])
			}
		}
		for _, m := range regexp.MustCompile(`\{([a-z]+)`).FindAllStringSubmatch(outside, -1) {
			for _, a := range c.Args {
				if a.Name == m[1] && a.Optional {
					t.Errorf("%s: optional %s used outside [...] in preview", c.Name, a.Name)
				}
			}
		}
		if strings.Count(c.Preview, "{") != len(regexp.MustCompile(`\{[a-z]+(:(chars|lines))?\}`).FindAllString(c.Preview, -1)) {
			t.Errorf("%s: malformed placeholder in %q", c.Name, c.Preview)
		}
	}
}

func TestCommandsIsACopy(t *testing.T) {
	a := action.Commands()
	a[0] = nil
	if action.Commands()[0] == nil {
		t.Fatal("Commands returned the registry itself")
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"MOVE_FILE", "move_file", "Move_File", "mOvE_fIlE"} {
		c, ok := action.Lookup(name)
		if !ok || c.Name != "MOVE_FILE" {
			t.Errorf("Lookup(%q) = %v, %v", name, c, ok)
		}
	}
	// Only ASCII case is folded: ſ (long s) and K (Kelvin) upper-case to S and K.
	for _, name := range []string{"MOVE_FILEſ", "move_ſile", "QUIT_APP ", "", "MOVEFILE", "SPEAK\x00", "ſpeak", "quit_app\u212a"} {
		if c, ok := action.Lookup(name); ok {
			t.Errorf("Lookup(%q) = %s, want no command", name, c.Name)
		}
	}
}

func TestKindString(t *testing.T) {
	want := []string{"path", "url", "text", "app", "number", "enum", "datetime", "email list"}
	kinds := []action.Kind{action.KindPath, action.KindURL, action.KindText, action.KindApp,
		action.KindNumber, action.KindEnum, action.KindDatetime, action.KindEmails}
	for i, k := range kinds {
		if k.String() != want[i] {
			t.Errorf("Kind %d = %q, want %q", k, k.String(), want[i])
		}
	}
	if got := action.Kind(42).String(); got != "kind(42)" {
		t.Errorf("invalid kind = %q", got)
	}
}

func TestUsage(t *testing.T) {
	want := map[string]string{
		"MOVE_FILE":       `MOVE_FILE "from" "to"`,
		"OPEN_FILE":       `OPEN_FILE "path" ["app"]`,
		"WRITE_DOC":       `WRITE_DOC "path" "content"|<<END`,
		"SEND_EMAIL":      `SEND_EMAIL "to" "subject" "body"|<<END`,
		"NOTIFY":          `NOTIFY "title" "message" ["sound"]`,
		"SET_VOLUME":      `SET_VOLUME 0-100`,
		"DO_NOT_DISTURB":  `DO_NOT_DISTURB ON|OFF`,
		"CREATE_EVENT":    `CREATE_EVENT "title" "start" "end"`,
		"CREATE_REMINDER": `CREATE_REMINDER "title" ["due"]`,
	}
	for name, w := range want {
		c, _ := action.Lookup(name)
		if got := action.Usage(c); got != w {
			t.Errorf("Usage(%s) = %s, want %s", name, got, w)
		}
	}
}

func TestMarkdown(t *testing.T) {
	md := action.Markdown()
	lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
	if len(lines) != 2+len(action.Commands()) {
		t.Fatalf("Markdown has %d lines, want %d", len(lines), 2+len(action.Commands()))
	}
	if lines[0] != "| Command | Syntax | Risk | Description |" {
		t.Errorf("header = %q", lines[0])
	}
	for i, c := range action.Commands() {
		row := lines[2+i]
		// Unescaped pipes delimit exactly 4 cells.
		if n := strings.Count(strings.ReplaceAll(row, `\|`, ""), "|"); n != 5 {
			t.Errorf("row %q has %d cell separators, want 5", row, n)
		}
		if !strings.Contains(row, "`"+c.Name+"`") || !strings.Contains(row, c.Class.String()) || !strings.Contains(row, c.Help) {
			t.Errorf("row for %s incomplete: %q", c.Name, row)
		}
	}
	if !strings.Contains(md, "`DO_NOT_DISTURB ON\\|OFF`") {
		t.Error("pipes in syntax are not escaped")
	}
}
