package action_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/action"
)

var previewTests = []struct {
	in   string
	want string
}{
	{`MOVE_FILE "~/a.txt" "~/Documents/a.txt"`, "Move ~/a.txt → ~/Documents/a.txt"},
	{`COPY_FILE "~/a.txt" "~/b.txt"`, "Copy ~/a.txt → ~/b.txt"},
	{`DELETE_FILE "~/old.log"`, "Move ~/old.log to the Trash"},
	{`CREATE_FOLDER "~/Projects/x"`, "Create folder ~/Projects/x"},
	{`OPEN_FILE "~/a.md"`, "Open ~/a.md"},
	{`OPEN_FILE "~/a.md" "TextEdit"`, "Open ~/a.md with TextEdit"},
	{`REVEAL_IN_FINDER "~/Downloads"`, "Reveal ~/Downloads in Finder"},
	{`WRITE_FILE "~/a.txt" "héllo"`, "Write 5 characters to ~/a.txt"},
	{`WRITE_FILE "~/a.txt" "x"`, "Write 1 character to ~/a.txt"},
	{`WRITE_FILE "~/a.txt" ""`, "Write 0 characters to ~/a.txt"},
	{`APPEND_FILE "~/log" "entry\n"`, "Append 6 characters to ~/log"},
	{"WRITE_DOC \"~/n.md\" <<END\n# T\n\nbody\nEND", "Write document ~/n.md (3 lines)"},
	{"WRITE_DOC \"~/n.md\" <<END\none\nEND", "Write document ~/n.md (1 line)"},
	{`WRITE_DOC "~/n.md" "a\nb"`, "Write document ~/n.md (2 lines)"},
	{`WRITE_DOC "~/n.md" ""`, "Write document ~/n.md (0 lines)"},
	{`SEND_EMAIL "a@x.com,b@y.com" "Weekly report" "hi"`, `Email "Weekly report" to a@x.com, b@y.com`},
	{`OPEN_URL "https://example.com"`, "Open https://example.com"},
	{`COPY_TO_CLIPBOARD "abc"`, "Copy 3 characters to the clipboard"},
	{`OPEN_APP "Safari"`, "Open Safari"},
	{`QUIT_APP "Safari"`, "Quit Safari"},
	{`ACTIVATE_APP "Finder"`, "Bring Finder to the front"},
	{`RELEASE_LOCK "Safari"`, "Release the context lock to switch to Safari"},
	{`NOTIFY "Airlock" "Done" "Glass"`, `Notify "Airlock"`},
	{`SPEAK "Hello"`, `Speak "Hello"`},
	{`SET_VOLUME 30`, "Set volume to 30%"},
	{`DO_NOT_DISTURB off`, "Turn Do Not Disturb OFF"},
	{`RUN_SHORTCUT "Morning" "input"`, `Run shortcut "Morning"`},
	{`CREATE_EVENT "Standup" "2024-01-28T14:00" "2024-01-28 15:00"`, `Create event "Standup" 2024-01-28 14:00–2024-01-28 15:00`},
	{`CREATE_REMINDER "Buy milk" "2024-01-28 14:00"`, `Create reminder "Buy milk"`},
	// Control characters, separators and bidi controls are escaped.
	{`SPEAK "a\nb\tc"`, `Speak "a\nb\tc"`},
	{"SPEAK \"a\x00b\x7f\u0085c\u2028d\u202ee\"", `Speak "a\x00b\x7f\x85c\u2028d\u202ee"`},
	{`NOTIFY "evil\" title" "m"`, `Notify "evil" title"`},
	// Long text is cut at the end.
	{`SPEAK "` + strings.Repeat("abcdefghij", 7) + `"`, `Speak "` + strings.Repeat("abcdefghij", 5) + `abcdefghi…"`},
	{`SPEAK "` + strings.Repeat("x", 60) + `"`, `Speak "` + strings.Repeat("x", 60) + `"`},
	// An escape is never cut in half.
	{`SPEAK "` + strings.Repeat("x", 58) + `\n"`, `Speak "` + strings.Repeat("x", 58) + `\n"`},
	{`SPEAK "` + strings.Repeat("x", 58) + `\nyz"`, `Speak "` + strings.Repeat("x", 58) + `…"`},
	// Long paths are cut in the middle to 120 characters, keeping the file name.
	{`DELETE_FILE "/` + strings.Repeat("d/", 100) + `file.txt"`, "Move /" + strings.Repeat("d/", 29) + "…" + strings.Repeat("d/", 26) + "file.txt to the Trash"},
}

func TestPreview(t *testing.T) {
	covered := map[string]bool{}
	for _, tt := range previewTests {
		a := mustParse(t, tt.in).Actions[0]
		covered[a.Cmd.Name] = true
		if got := a.Preview(); got != tt.want {
			t.Errorf("Preview of %q =\n%s\nwant\n%s", tt.in, got, tt.want)
		}
	}
	for _, c := range action.Commands() {
		if !covered[c.Name] {
			t.Errorf("no preview test for %s", c.Name)
		}
	}
}

func TestPreviewLongEmailList(t *testing.T) {
	var addrs []string
	for i := 0; i < 100; i++ {
		addrs = append(addrs, "person"+string(rune('a'+i%26))+"@example.com")
	}
	a := mustParse(t, `SEND_EMAIL "`+strings.Join(addrs, ",")+`" "Hi" "x"`).Actions[0]
	got := a.Preview()
	if !strings.HasPrefix(got, `Email "Hi" to persona@example.com, personb@example.com, `) || !strings.HasSuffix(got, " more") {
		t.Errorf("preview = %q", got)
	}
	if !strings.HasSuffix(got, "persone@example.com and 95 more") {
		t.Errorf("preview = %q; want the first 5 and 95 more", got)
	}
}

// Previews are one line and bounded in length whatever the values.
func TestPreviewAlwaysOneLine(t *testing.T) {
	nasty := strings.Repeat("\n\r\t\x00\u2028\u2029\u0085\u202e\u2066x\xff", 2000)
	for _, c := range action.Commands() {
		args := make([]string, len(c.Args))
		for i := range args {
			args[i] = nasty
		}
		a := action.Action{Cmd: c, Args: args}
		p := a.Preview()
		if strings.ContainsAny(p, "\n\r\u0085\u2028\u2029\u202e\u2066") || !utf8.ValidString(p) {
			t.Errorf("%s: preview %q is not one clean line", c.Name, p)
		}
		if n := utf8.RuneCountInString(p); n > 400 {
			t.Errorf("%s: preview has %d characters", c.Name, n)
		}
	}
	if (action.Action{}).Preview() != "" {
		t.Error("zero Action has a preview")
	}
}
