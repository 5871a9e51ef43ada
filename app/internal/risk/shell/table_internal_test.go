package shell

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// A duplicate key in commands does not compile (a map literal with
// constant keys). These tests refuse what the compiler lets through: rows
// no input reaches, keys no command name matches, rows that say nothing or
// say something that is never read.

// realHyphenated are programs whose name is another row's name, a hyphen
// and more: real programs, not a rule for one use of the other (the old
// table's "awk-safe" or "terraform-plan", which no command is called).
var realHyphenated = map[string]bool{
	"ssh-keygen": true, "ssh-add": true, "ssh-copy-id": true, "docker-compose": true, "xcode-select": true,
}

// TestTableKeysAreCommandNames: a key must be what commandName makes of
// a command word (the lower-case base name), or no command reaches it.
func TestTableKeysAreCommandNames(t *testing.T) {
	for name := range commands {
		if name == "" || commandName(name) != name || strings.ContainsAny(name, " \t\n=") {
			t.Errorf("row %q: no command name is %q (commandName gives %q)", name, name, commandName(name))
		}
		if i := strings.IndexByte(name, '-'); i > 0 && !realHyphenated[name] {
			if _, ok := commands[name[:i]]; ok {
				t.Errorf("row %q: is named like a use of %q, not a program; rate that use in %q's row (or list a real program in realHyphenated)", name, name[:i], name[:i])
			}
		}
	}
	for name := range realHyphenated {
		if _, ok := commands[name]; !ok {
			t.Errorf("realHyphenated lists %q, which has no row", name)
		}
	}
}

// TestTableRowsReachable: every row is reached by a command line that
// starts with its name, through the wrappers peel strips (a row for a
// wrapper such as caffeinate would never be used).
func TestTableRowsReachable(t *testing.T) {
	var v Verdict
	a := newShellAn(&v, nil, nil, 0, "", nil)
	a.sh = &a.own
	for name := range commands {
		reached := false
		for _, rest := range [][]string{{"x"}, {"-v", "x"}, nil} {
			words := []word{{s: name}}
			for _, r := range rest {
				words = append(words, word{s: r})
			}
			if got, _, _, _ := a.peel(words, Span{}, false); got == name {
				reached = true
				break
			}
		}
		if !reached {
			t.Errorf("row %q: no command line reaches it (a wrapper of that name runs its arguments instead)", name)
		}
	}
}

// TestTableRowsSaySomething: a custom row says nothing else (what else it
// said would never be read); a row above Safe says why; a row with subs
// or writes is not also custom.
func TestTableRowsSaySomething(t *testing.T) {
	for name, r := range commands {
		switch {
		case r.run != nil && (r.fx.Kind != 0 || r.why != "" || r.subs != nil || r.writes):
			t.Errorf("row %q: has a function and an effect, reason, subs or writes that the function hides", name)
		case r.run == nil && weight(r.fx) > level.Safe && r.why == "":
			t.Errorf("row %q: does %v without saying why", name, r.fx)
		case r.subs != nil && r.why == "":
			t.Errorf("row %q: rates by subcommand without saying what the others do", name)
		case weight(r.fx) > level.Destructive:
			t.Errorf("row %q: a program is never %v by its name alone", name, weight(r.fx))
		}
	}
}

// TestTableRowsUsed: every row changes what the analyzer says of its
// program, compared with a program it does not know. A row the analyzer
// never consults would leave the command unknown.
func TestTableRowsUsed(t *testing.T) {
	for name := range commands {
		var v Verdict
		Argv(&v, []string{name, "x"}, nil)
		for _, r := range v.Reasons {
			if r.Rule == "shell.unknown-command" && strings.Contains(r.Text, `"`+name+`"`) {
				t.Errorf("row %q: the analyzer calls %q unknown", name, name)
			}
		}
	}
}
