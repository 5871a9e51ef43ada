package jxa_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/jxa"
)

// TestAutoRunContract walks the table: a method that may rate below
// Dangerous (its own level, or its example's verdict) has a closed options
// model — an options record with a key its row does not list makes the call
// Dangerous — and each key it lists is one the analyzer accepts. A method
// that runs code never rates below Dangerous when that code is computed
// (TestMethodsCodeNeverSafe).
func TestAutoRunContract(t *testing.T) {
	env := testEnv(t)
	for _, r := range jxa.Rows() {
		src := exampleFor(r)
		v := risk.JXA(src, env)
		if r.Level >= level.Dangerous && v.Level >= level.Dangerous {
			continue
		}
		if r.Elems {
			continue // its arguments are elements, not options (push, LoginItem({…}))
		}
		t.Run(r.Name, func(t *testing.T) {
			call := r.Name + "("
			at := strings.Index(src, call)
			if at < 0 {
				t.Fatalf("%q does not call %s", src, r.Name)
			}
			closeAt := matchParen(src, at+len(call)-1)
			if closeAt < 0 {
				t.Fatalf("%q: unbalanced call of %s", src, r.Name)
			}
			with := func(record string) string {
				sep := ", "
				if strings.TrimSpace(src[at+len(call):closeAt]) == "" {
					sep = ""
				}
				return src[:closeAt] + sep + record + src[closeAt:]
			}
			for _, bad := range []string{"{xyzzyOption: 1}", "{[k]: 1}", "{...opts}", "{'with space': 1}"} {
				w := risk.JXA(with(bad), env)
				if w.Level < level.Dangerous || !slices.Contains(rules(w), "jxa.option-unmodelled") {
					t.Errorf("%s given %s: %v %v, want dangerous (an option Airlock does not model)", r.Name, bad, w.Level, rules(w))
				}
			}
			for _, o := range r.Opts {
				w := risk.JXA(with("{"+o+": 1}"), env)
				if slices.Contains(rules(w), "jxa.option-unmodelled") {
					t.Errorf("%s given its modelled option %s: still unmodelled", r.Name, o)
				}
			}
		})
	}
}

// matchParen returns the index of the ) closing the ( at s[open], skipping
// quoted text.
func matchParen(s string, open int) int {
	depth := 0
	var quote byte
	for i := open; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// TestKnownAppCommands: a command to an application Airlock knows is rated
// by the table, or by the application's verbs in the facts; one it does not
// model is Dangerous. Reads (JXA's x.name()) and JavaScript on the values
// they return are not commands.
func TestKnownAppCommands(t *testing.T) {
	env := testEnv(t)
	tests := []struct {
		name, src string
		want      level.Level
	}{
		{"unknown with arguments", "Application('Finder').frobnicate(1)", level.Dangerous},
		{"unknown through a variable", "var f = Application('Finder');\nf.desktop.frobnicate('x')", level.Dangerous},
		{"a verb of the facts", "Application('Finder').erase(Application('Finder').disks['X'])", level.Destructive},
		{"shortcut run", "Application('Shortcuts Events').shortcuts.byName('x').run()", level.Dangerous},
		{"app verb", "var m = Application('Mail'); m.importMailMailbox({at: '/tmp/x'})", level.Safe},
		{"property read then JavaScript", "var u = Application('Safari').windows[0].currentTab.url().substring(0, 5)", level.Safe},
		{"whose and forEach", "var c = Application('Calendar');\nc.calendars.byName('W').events.whose({summary: 'x'})().forEach(function (e) { console.log(e.summary()); })", level.Safe},
		{"element made", "var n = Application('Notes'); var x = n.Note({name: 'a', body: 'b'});", level.Safe},
		{"standard additions", "var se = Application('System Events'); se.includeStandardAdditions = true; se.displayNotification('hi', {withTitle: 'x'})", level.Safe},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v := risk.JXA(tt.src, env); v.Level != tt.want {
				t.Errorf("%q: %v %v, want %v", tt.src, v.Level, rules(v), tt.want)
			}
		})
	}
}
