package action_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
)

// validTests has at least one valid form of every command: the input line,
// the canonical argument values and the canonical text.
var validTests = []struct {
	in    string
	args  []string
	canon string
}{
	{`MOVE_FILE "~/a.txt" "~/Documents/a.txt"`, []string{"~/a.txt", "~/Documents/a.txt"}, ""},
	{`move_file ~/a.txt ~/b.txt`, []string{"~/a.txt", "~/b.txt"}, `MOVE_FILE "~/a.txt" "~/b.txt"`},
	{"\tMove_File\t\"~/My Files/a b.txt\"   \"~/x\"  ", []string{"~/My Files/a b.txt", "~/x"}, `MOVE_FILE "~/My Files/a b.txt" "~/x"`},
	{`COPY_FILE "~/a" "~/b"`, []string{"~/a", "~/b"}, ""},
	{`DELETE_FILE "~/Desktop/old.log"`, []string{"~/Desktop/old.log"}, ""},
	{`CREATE_FOLDER "~/Projects/new"`, []string{"~/Projects/new"}, ""},
	{`OPEN_FILE "~/notes.md"`, []string{"~/notes.md"}, ""},
	{`OPEN_FILE "~/notes.md" "TextEdit"`, []string{"~/notes.md", "TextEdit"}, ""},
	{`REVEAL_IN_FINDER "~/Downloads"`, []string{"~/Downloads"}, ""},
	{`WRITE_FILE "~/a.txt" "hello\nworld"`, []string{"~/a.txt", "hello\nworld"}, ""},
	{`WRITE_FILE "~/a.txt" ""`, []string{"~/a.txt", ""}, ""},
	{`WRITE_FILE "~/a.txt" "line\n"`, []string{"~/a.txt", "line\n"}, "WRITE_FILE \"~/a.txt\" <<END\nline\nEND"},
	{"APPEND_FILE \"~/log.txt\" <<EOF\nentry\nEOF", []string{"~/log.txt", "entry\n"}, "APPEND_FILE \"~/log.txt\" <<END\nentry\nEND"},
	{`APPEND_FILE "~/log.txt" "tab\there \"quoted\" back\\slash # not a comment"`, []string{"~/log.txt", "tab\there \"quoted\" back\\slash # not a comment"}, ""},
	{"WRITE_DOC \"~/doc.md\" <<END\n# Title\n\n  indented\nEND", []string{"~/doc.md", "# Title\n\n  indented\n"}, ""},
	{"WRITE_DOC \"~/empty.md\" <<END\nEND", []string{"~/empty.md", ""}, `WRITE_DOC "~/empty.md" ""`},
	{"WRITE_DOC \"~/doc.md\" <<END\nEND \n END\nEND", []string{"~/doc.md", "END \n END\n"}, ""},
	{"WRITE_DOC \"~/doc.md\" <<END_2\nEND\nEND1\nEND_2", []string{"~/doc.md", "END\nEND1\n"}, "WRITE_DOC \"~/doc.md\" <<END2\nEND\nEND1\nEND2"},
	{`SEND_EMAIL "bob@example.com" "Hi" "See you"`, []string{"bob@example.com", "Hi", "See you"}, ""},
	{`SEND_EMAIL "a@x.com,b@y.com ,  c@z.org" "Hi" "x"`, []string{"a@x.com, b@y.com, c@z.org", "Hi", "x"}, `SEND_EMAIL "a@x.com, b@y.com, c@z.org" "Hi" "x"`},
	{"SEND_EMAIL \"bob@example.com\" \"Report\" <<BODY\nHi Bob,\nattached.\nBODY", []string{"bob@example.com", "Report", "Hi Bob,\nattached.\n"}, "SEND_EMAIL \"bob@example.com\" \"Report\" <<END\nHi Bob,\nattached.\nEND"},
	{`OPEN_URL "https://example.com/?q=a b"`, []string{"https://example.com/?q=a b"}, ""},
	{`OPEN_URL https://example.com`, []string{"https://example.com"}, `OPEN_URL "https://example.com"`},
	{`COPY_TO_CLIPBOARD "some text"`, []string{"some text"}, ""},
	{`COPY_TO_CLIPBOARD ""`, []string{""}, ""},
	{`OPEN_APP "Visual Studio Code"`, []string{"Visual Studio Code"}, ""},
	{`OPEN_APP Safari`, []string{"Safari"}, `OPEN_APP "Safari"`},
	{`QUIT_APP "Safari"`, []string{"Safari"}, ""},
	{`ACTIVATE_APP "Finder"`, []string{"Finder"}, ""},
	{`RELEASE_LOCK "Safari"`, []string{"Safari"}, ""},
	{`NOTIFY "Airlock" "Done"`, []string{"Airlock", "Done"}, ""},
	{`NOTIFY "Airlock" "Done" "Glass"`, []string{"Airlock", "Done", "Glass"}, ""},
	{`SPEAK "Hello there"`, []string{"Hello there"}, ""},
	{`SET_VOLUME 50`, []string{"50"}, ""},
	{`SET_VOLUME 0`, []string{"0"}, ""},
	{`SET_VOLUME 100`, []string{"100"}, ""},
	{`SET_VOLUME "007"`, []string{"7"}, `SET_VOLUME 7`},
	{`DO_NOT_DISTURB ON`, []string{"ON"}, ""},
	{`do_not_disturb off`, []string{"OFF"}, `DO_NOT_DISTURB OFF`},
	{`DO_NOT_DISTURB "On"`, []string{"ON"}, `DO_NOT_DISTURB ON`},
	{`RUN_SHORTCUT "Morning"`, []string{"Morning"}, ""},
	{`RUN_SHORTCUT "Resize" "~/a.png"`, []string{"Resize", "~/a.png"}, ""},
	{`CREATE_EVENT "Standup" "2024-01-28 14:00" "2024-01-28 15:00"`, []string{"Standup", "2024-01-28 14:00", "2024-01-28 15:00"}, ""},
	{`CREATE_EVENT "Call" "2024-01-28T14:00" "2024-01-28 14:00:00"`, []string{"Call", "2024-01-28 14:00", "2024-01-28 14:00"}, `CREATE_EVENT "Call" "2024-01-28 14:00" "2024-01-28 14:00"`},
	{`CREATE_EVENT "Call" "2024-02-29 23:59:30" "2024-03-01T00:00:01"`, []string{"Call", "2024-02-29 23:59:30", "2024-03-01 00:00:01"}, `CREATE_EVENT "Call" "2024-02-29 23:59:30" "2024-03-01 00:00:01"`},
	{`CREATE_REMINDER "Buy milk"`, []string{"Buy milk"}, ""},
	{`CREATE_REMINDER "Buy milk" "2024-01-28 14:00"`, []string{"Buy milk", "2024-01-28 14:00"}, ""},
}

func TestParseValid(t *testing.T) {
	covered := map[string]bool{}
	for _, tt := range validTests {
		p := mustParse(t, tt.in)
		if len(p.Actions) != 1 {
			t.Fatalf("Parse(%q) gave %d actions", tt.in, len(p.Actions))
		}
		a := p.Actions[0]
		covered[a.Cmd.Name] = true
		if a.Line != 1 {
			t.Errorf("Parse(%q): line %d, want 1", tt.in, a.Line)
		}
		if !reflect.DeepEqual(a.Args, tt.args) {
			t.Errorf("Parse(%q) args = %q, want %q", tt.in, a.Args, tt.args)
		}
		canon := tt.canon
		if canon == "" {
			canon = tt.in
		}
		if got := a.String(); got != canon {
			t.Errorf("Parse(%q).String() =\n%s\nwant\n%s", tt.in, got, canon)
		}
		checkRoundTrip(t, p)
	}
	for _, c := range action.Commands() {
		if !covered[c.Name] {
			t.Errorf("no valid test for %s", c.Name)
		}
	}
}

func TestArg(t *testing.T) {
	a := mustParse(t, `OPEN_FILE "~/a.txt"`).Actions[0]
	if v, ok := a.Arg("path"); !ok || v != "~/a.txt" {
		t.Errorf(`Arg("path") = %q, %v`, v, ok)
	}
	if v, ok := a.Arg("app"); ok {
		t.Errorf(`Arg("app") = %q, true; want absent`, v)
	}
	if _, ok := a.Arg("nope"); ok {
		t.Error(`Arg("nope") found`)
	}
	if _, ok := (action.Action{}).Arg("path"); ok {
		t.Error("zero Action has an argument")
	}
}

func TestParseEmptyPlans(t *testing.T) {
	for _, src := range []string{
		"", "\n", "# No action needed", "# No action needed\n", "  # indented comment\n\n\t\n",
		"\r\n# comment\r\n", "\uFEFF# No action needed\n",
	} {
		p := mustParse(t, src)
		if len(p.Actions) != 0 {
			t.Errorf("Parse(%q) = %d actions, want none", src, len(p.Actions))
		}
		if p.String() != "" {
			t.Errorf("empty plan prints as %q", p.String())
		}
	}
}

func TestParseLayout(t *testing.T) {
	src := "# Tidy up\r\n" +
		"\r\n" +
		"NOTIFY \"Airlock\" \"Starting\"\r\n" +
		"WRITE_DOC \"~/notes.md\" <<END\r\n" +
		"# Notes\r\n" +
		"not a command: MOVE_FILE a b\r\n" +
		"END\r\n" +
		"   # comment after a heredoc\n" +
		"OPEN_FILE \"~/notes.md\"" // no final newline
	p := mustParse(t, src)
	want := []struct {
		line int
		name string
	}{{3, "NOTIFY"}, {4, "WRITE_DOC"}, {9, "OPEN_FILE"}}
	if len(p.Actions) != len(want) {
		t.Fatalf("got %d actions, want %d", len(p.Actions), len(want))
	}
	for i, w := range want {
		if a := p.Actions[i]; a.Line != w.line || a.Cmd.Name != w.name {
			t.Errorf("action %d = %s at line %d, want %s at line %d", i, a.Cmd.Name, a.Line, w.name, w.line)
		}
	}
	if body, _ := p.Actions[1].Arg("content"); body != "# Notes\nnot a command: MOVE_FILE a b\n" {
		t.Errorf("CRLF heredoc body = %q", body)
	}
	checkRoundTrip(t, p)
}

// errorTests covers each kind of error; want is the whole error text.
var errorTests = []struct {
	name string
	in   string
	want string
}{
	{"unknown command", "NOTIFY a b\nSPEAK x\nMOVEFILE \"a\" \"b\"", `line 3: unknown command "MOVEFILE" (did you mean MOVE_FILE?)`},
	{"unknown lower case", "delete_fil x", `line 1: unknown command "delete_fil" (did you mean DELETE_FILE?)`},
	{"unknown far", "FROBNICATE x", `line 1: unknown command "FROBNICATE"`},
	{"unknown unicode fold", "ſpeak x", `line 1: unknown command "ſpeak" (did you mean SPEAK?)`},
	{"quoted command", `"SPEAK" x`, `line 1: expected a command name at the start of the line, got the quoted string "SPEAK"`},
	{"too few", "\n\nMOVE_FILE \"a\"", "line 3: MOVE_FILE takes 2 arguments (from, to), got 1"},
	{"too few none", "SPEAK", "line 1: SPEAK takes 1 argument (text), got 0"},
	{"too many", `DELETE_FILE "a" "b"`, "line 1: DELETE_FILE takes 1 argument (path), got 2"},
	{"too many optional", `OPEN_FILE a b c`, "line 1: OPEN_FILE takes 1 or 2 arguments (path, [app]), got 3"},
	{"too few optional", `NOTIFY a`, "line 1: NOTIFY takes 2 or 3 arguments (title, message, [sound]), got 1"},
	{"unterminated quote", `SPEAK "hello`, "line 1: unterminated quoted string (opened at column 7)"},
	{"unterminated by backslash", `SPEAK "hello\`, "line 1: unterminated quoted string (opened at column 7)"},
	{"bad escape", `SPEAK "a\qb"`, `line 1: unknown escape "\q" in quoted string (column 9); only \" \\ \n and \t are allowed`},
	{"bad escape r", `SPEAK "a\r"`, `line 1: unknown escape "\r" in quoted string (column 9); only \" \\ \n and \t are allowed`},
	{"bad escape control", "SPEAK \"\\\x01\"", `line 1: unknown escape (backslash followed by U+0001) in quoted string (column 8); only \" \\ \n and \t are allowed`},
	{"quote in bare word", `SPEAK ab"c"`, "line 1: unexpected quote inside a bare word (column 9); quote the whole argument"},
	{"no space after quote", `MOVE_FILE "a""b"`, "line 1: missing space after closing quote (column 14)"},
	{"unterminated heredoc", "SPEAK x\nWRITE_DOC \"a\" <<END\nbody\nEND \n END", `line 2: heredoc <<END is not terminated: no line "END" before the end of the plan`},
	{"heredoc not allowed", "MOVE_FILE \"a\" <<END\nb\nEND", `line 1: MOVE_FILE: to cannot be a heredoc (usage: MOVE_FILE "from" "to")`},
	{"heredoc not allowed mid", "SEND_EMAIL \"a@b.c\" <<END \"x\"\nEND", "line 1: heredoc marker <<END must be the last thing on the line (column 20)"},
	{"heredoc for subject", "SEND_EMAIL \"a@b.c\" <<END\nsubject\nEND", `line 1: SEND_EMAIL takes 3 arguments (to, subject, body), got 2`},
	{"bad heredoc tag", "WRITE_DOC a <<1X", `line 1: invalid heredoc marker "<<1X" (column 13); write <<END, with a tag of letters, digits and _ not starting with a digit`},
	{"bare heredoc marker", "WRITE_DOC a <<", `line 1: invalid heredoc marker "<<" (column 13); write <<END, with a tag of letters, digits and _ not starting with a digit`},
	{"not a number", "SET_VOLUME loud", `line 1: SET_VOLUME: level must be a whole number, got "loud"`},
	{"decimal", "SET_VOLUME 5.5", `line 1: SET_VOLUME: level must be a whole number, got "5.5"`},
	{"plus sign", "SET_VOLUME +5", `line 1: SET_VOLUME: level must be a whole number, got "+5"`},
	{"out of range", "SET_VOLUME 101", `line 1: SET_VOLUME: level must be between 0 and 100, got "101"`},
	{"negative", "SET_VOLUME -1", `line 1: SET_VOLUME: level must be between 0 and 100, got "-1"`},
	{"huge number", "SET_VOLUME 99999999999999999999999", `line 1: SET_VOLUME: level must be between 0 and 100, got "99999999999999999999999"`},
	{"bad enum", "DO_NOT_DISTURB maybe", `line 1: DO_NOT_DISTURB: state must be ON or OFF, got "maybe"`},
	{"bad date", `CREATE_REMINDER "x" "tomorrow"`, `line 1: CREATE_REMINDER: due must be a valid date and time like "2024-01-28 14:00", got "tomorrow"`},
	{"bad date one-digit hour", `CREATE_REMINDER "x" "2024-01-28 4:00"`, `line 1: CREATE_REMINDER: due must be a valid date and time like "2024-01-28 14:00", got "2024-01-28 4:00"`},
	{"bad date Feb 30", `CREATE_REMINDER "x" "2024-02-30 10:00"`, `line 1: CREATE_REMINDER: due must be a valid date and time like "2024-01-28 14:00", got "2024-02-30 10:00"`},
	{"bad date hour 24", `CREATE_EVENT "x" "2024-01-28 24:00" "2024-01-29 01:00"`, `line 1: CREATE_EVENT: start must be a valid date and time like "2024-01-28 14:00", got "2024-01-28 24:00"`},
	{"bad date zone", `CREATE_REMINDER "x" "2024-01-28 14:00Z"`, `line 1: CREATE_REMINDER: due must be a valid date and time like "2024-01-28 14:00", got "2024-01-28 14:00Z"`},
	{"end before start", `CREATE_EVENT "Standup" "2024-01-28 15:00" "2024-01-28 14:59:59"`, "line 1: CREATE_EVENT: end (2024-01-28 14:59:59) is before start (2024-01-28 15:00)"},
	{"bad email", `SEND_EMAIL "bob" "s" "b"`, `line 1: SEND_EMAIL: to: "bob" is not a valid email address`},
	{"display name", `SEND_EMAIL "Bob <bob@example.com>" "s" "b"`, `line 1: SEND_EMAIL: to: "Bob <bob@example.com>" must be a bare address like name@example.com, without a display name or angle brackets`},
	{"angle brackets", `SEND_EMAIL "a@x.com, <bob@example.com>" "s" "b"`, `line 1: SEND_EMAIL: to: "<bob@example.com>" must be a bare address like name@example.com, without a display name or angle brackets`},
	{"email comment", `SEND_EMAIL "bob@example.com (Bob)" "s" "b"`, `line 1: SEND_EMAIL: to: "bob@example.com (Bob)" must be a bare address like name@example.com, without a display name or angle brackets`},
	{"empty address", `SEND_EMAIL "a@x.com,,b@y.com" "s" "b"`, `line 1: SEND_EMAIL: to has an empty address in "a@x.com,,b@y.com"`},
	{"empty list", `SEND_EMAIL "" "s" "b"`, `line 1: SEND_EMAIL: to must not be empty`},
	{"too many recipients", `SEND_EMAIL "` + strings.Repeat("a@x.com,", 100) + `b@x.com" "s" "b"`, "line 1: SEND_EMAIL: to has 101 addresses (the limit is 100)"},
	{"empty path", `DELETE_FILE ""`, "line 1: DELETE_FILE: path must not be empty"},
	{"empty app", `OPEN_APP ""`, "line 1: OPEN_APP: app must not be empty"},
	{"empty url", `OPEN_URL ""`, "line 1: OPEN_URL: url must not be empty"},
	{"too long string", `SPEAK "` + strings.Repeat("é", 10_001) + `"`, "line 1: SPEAK: text is too long (10001 characters; the limit is 10000)"},
	{"invalid UTF-8", "SPEAK x\nSPEAK \"ab\xff\"", "line 2: invalid UTF-8 (column 10)"},
	{"invalid UTF-8 in heredoc", "WRITE_DOC a <<END\nok\nb\xc3\nEND", "line 3: invalid UTF-8 (column 2)"},
	{"lone CR", "SPEAK \"a\rb\"", "line 1: carriage return inside a line (column 9); only CRLF line endings are allowed"},
	{"CR CR LF", "SPEAK x\r\r\n", "line 1: carriage return inside a line (column 8); only CRLF line endings are allowed"},
	{"trailing comment", `SPEAK "x" # say x`, "line 1: SPEAK takes 1 argument (text), got 4"},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := action.Parse(tt.in)
			if p != nil {
				t.Errorf("got a plan with %d actions; want none", len(p.Actions))
			}
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.want {
				t.Errorf("error =\n%s\nwant\n%s", err, tt.want)
			}
			var errs action.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error is %T, want action.Errors", err)
			}
		})
	}
}

func TestWholePlanRejected(t *testing.T) {
	src := "NOTIFY \"a\" \"b\"\nSPEAK \"hi\"\nSET_VOLUME 150\nOPEN_APP \"Safari\"\n"
	p, err := action.Parse(src)
	if p != nil || err == nil {
		t.Fatalf("Parse = %v, %v; want no plan and an error", p, err)
	}
	if err.Error() != "line 3: SET_VOLUME: level must be between 0 and 100, got \"150\"" {
		t.Errorf("error = %v", err)
	}
}

func TestAllErrorsReportedSorted(t *testing.T) {
	src := strings.Join([]string{
		`SPEAK "ok"`,
		`MOVE_FILE "a"`,                    // 2
		`WRITE_DOC "x" <<END`,              // 3
		"bad \xff utf8 in body",            // 4
		`END`,                              // 5
		`WRITE_DOC "" <<END`,               // 6: empty path, body skipped
		`BOGUS "in a body, not a command"`, // 7
		`END`,                              // 8
		`SPEAK "a\z" <<END`,                // 9: bad escape; body still skipped
		`NOPE`,                             // 10
		`END`,                              // 11
		`SET_VOLUME 500`,                   // 12
		`CREATE_EVENT t "2024-13-01 10:00" "2024-01-01 10:00"`, // 13
	}, "\n")
	_, err := action.Parse(src)
	var errs action.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v", err)
	}
	var lines []int
	for _, e := range errs {
		lines = append(lines, e.Line)
	}
	if want := []int{2, 4, 6, 9, 12, 13}; !reflect.DeepEqual(lines, want) {
		t.Errorf("error lines = %v, want %v\n%v", lines, want, err)
	}
}

func TestErrorCap(t *testing.T) {
	src := strings.Repeat("SET_VOLUME 101\n", 80)
	_, err := action.Parse(src)
	var errs action.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v", err)
	}
	if len(errs) != 51 {
		t.Fatalf("got %d errors, want 50 and a summary", len(errs))
	}
	if errs[49].Line != 50 || errs[50].Line != 0 || errs[50].Error() != "and 30 more errors" {
		t.Errorf("last errors: %v, %v", errs[49], errs[50])
	}
	if !strings.HasSuffix(err.Error(), "\nline 50: SET_VOLUME: level must be between 0 and 100, got \"101\"\nand 30 more errors") {
		t.Errorf("error text ends %q", err.Error()[len(err.Error())-120:])
	}
}

func TestLimits(t *testing.T) {
	t.Run("too many actions", func(t *testing.T) {
		src := strings.Repeat("SPEAK \"x\"\n", action.MaxActions)
		if p := mustParse(t, src); len(p.Actions) != action.MaxActions {
			t.Fatalf("%d actions", len(p.Actions))
		}
		_, err := action.Parse(src + "# fine\nSPEAK \"one too many\"\nSPEAK \"and another\"\n")
		if err == nil || err.Error() != "line 1002: too many actions (the limit is 1000)" {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("plan too large", func(t *testing.T) {
		comment := "#" + strings.Repeat("x", 1022) + "\n"
		src := strings.Repeat(comment, 1024) // exactly 1 MiB
		mustParse(t, src)
		_, err := action.Parse(src + "SPEAK x\n")
		if err == nil || err.Error() != "line 1025: plan text outside heredoc bodies is larger than 1048576 bytes" {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("input too large", func(t *testing.T) {
		src := strings.Repeat("\n", action.MaxPlanBytes+action.MaxHeredocBytes+1)
		_, err := action.Parse(src)
		if err == nil || err.Error() != "plan is too large: 11048577 bytes (the limit is 11048576)" {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("heredoc too large", func(t *testing.T) {
		line := strings.Repeat("y", 999) + "\n"
		body := strings.Repeat(line, action.MaxHeredocBytes/1000) // exactly the limit
		p := mustParse(t, "WRITE_FILE \"a\" <<END\n"+body+"END\n")
		if v, _ := p.Actions[0].Arg("content"); len(v) != action.MaxHeredocBytes {
			t.Fatalf("body of %d bytes", len(v))
		}
		_, err := action.Parse("WRITE_FILE \"a\" <<END\n" + body + "z\nEND\nSET_VOLUME 200\n")
		want := "line 1: heredoc <<END body is larger than 10000000 bytes\nline 10004: SET_VOLUME: level must be between 0 and 100, got \"200\""
		if err == nil || err.Error() != want {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("string at the limit", func(t *testing.T) {
		mustParse(t, `SPEAK "`+strings.Repeat("é", action.MaxStringRunes)+`"`)
		// The limit is on the value, not the escaped text.
		mustParse(t, `SPEAK "`+strings.Repeat(`\"`, action.MaxStringRunes)+`"`)
		// Heredocs are not held to it.
		mustParse(t, "WRITE_DOC a <<END\n"+strings.Repeat("x", 3*action.MaxStringRunes)+"\nEND")
	})
	t.Run("email list at the limit", func(t *testing.T) {
		mustParse(t, `SEND_EMAIL "`+strings.Repeat("a@x.com,", 99)+`b@x.com" "s" "b"`)
	})
	t.Run("canonical form too large", func(t *testing.T) {
		// Raw tabs inside quotes are printed as \t, doubling the text: the
		// plan is within limits as written but not canonically, and must be
		// refused rather than produce a canonical form Parse rejects.
		line := "SPEAK \"" + strings.Repeat("\t", 1000) + "\"\n"
		src := strings.Repeat(line, 1000)
		if len(src) > action.MaxPlanBytes {
			t.Fatalf("test plan is %d bytes", len(src))
		}
		_, err := action.Parse(src)
		if err == nil || !strings.HasPrefix(err.Error(), "plan is too large: written canonically it has 2009000 bytes outside heredoc bodies") {
			t.Errorf("error = %v", err)
		}
		// Half as much fits and round-trips.
		p := mustParse(t, strings.Repeat(line, 500))
		checkRoundTrip(t, p)
	})
}

func TestHeredocSkippedAfterBadLine(t *testing.T) {
	// When a heredoc's command line cannot be read, its body is still
	// skipped, so body lines are not reported as unknown commands...
	_, err := action.Parse("WRITE_DOC \"a\\x\" <<END\nnot a command\nEND\nSPEAK x\n")
	if err == nil || err.Error() != `line 1: unknown escape "\x" in quoted string (column 13); only \" \\ \n and \t are allowed` {
		t.Errorf("error = %v", err)
	}
	// ...unless there is no terminator: then the lines are read as usual.
	_, err = action.Parse("SPEAK \"a <<END\nSPEAK x\nSET_VOLUME 300\n")
	want := "line 1: unterminated quoted string (opened at column 7)\nline 3: SET_VOLUME: level must be between 0 and 100, got \"300\""
	if err == nil || err.Error() != want {
		t.Errorf("error = %v", err)
	}
}

func TestErrorsType(t *testing.T) {
	errs := action.Errors{{Line: 3, Msg: "a"}, {Msg: "b"}}
	if errs.Error() != "line 3: a\nb" {
		t.Errorf("Errors.Error() = %q", errs.Error())
	}
	var e error = action.LineError{Line: 7, Msg: "x"}
	if e.Error() != "line 7: x" {
		t.Errorf("LineError.Error() = %q", e.Error())
	}
}

func TestParseLinear(t *testing.T) {
	// Inputs built to be slow for a careless parser; each must finish quickly.
	// (Timing is not asserted; the race detector and CI would show a blow-up.)
	inputs := map[string]string{
		"many tokens":    "SPEAK " + strings.Repeat("a ", 400_000),
		"long bare word": "SPEAK " + strings.Repeat("a", 1_000_000),
		"many escapes":   `SPEAK "` + strings.Repeat(`\n`, 400_000) + `"`,
		"many errors":    strings.Repeat("X\n", 500_000),
		"many bad heredocs": strings.Repeat("SPEAK \"\\q <<END\n", 60_000) +
			strings.Repeat("ENDX\n", 100_000),
		"END-ish body": "WRITE_DOC a <<X\n" + strings.Repeat("END1\nEND\nEND3\nEND2\n", 100_000) + "X\n",
	}
	for name, src := range inputs {
		start := time.Now()
		if _, err := action.Parse(src); err == nil && name != "END-ish body" {
			t.Errorf("%s: parsed", name)
		}
		t.Logf("%s: %d bytes in %v", name, len(src), time.Since(start))
	}
	if _, err := action.Parse(inputs["many tokens"]); err == nil || err.Error() != "line 1: SPEAK takes 1 argument (text), got 400000" {
		t.Errorf("many tokens: %v", err)
	}
	p := mustParse(t, inputs["END-ish body"])
	if s := p.String(); !strings.HasPrefix(s, "WRITE_DOC \"a\" <<END4\n") {
		t.Errorf("tag = %q", s[:30])
	}
}
