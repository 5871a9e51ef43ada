package shell

import (
	"sort"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// The auto-run contract (DESIGN.md, "Risk levels"): a program may be rated
// Safe or Caution only with every option it is given modelled. These tests
// walk the table and try, for every row, an option no manual lists: the
// verdict must be at least Dangerous. Rows whose every word is data (echo,
// test, the shell's builtins, the tools that only print) say so with
// freeWords, and are listed in table.go for review, not here.

// unmodelledOptions are options no program in the table has.
var unmodelledOptions = []string{"--airlock-unmodelled", "-Ж"}

// optionsOwnFunction are the rows whose function reads the options it
// knows (the ones that send, write or run, from their manuals) but has no
// closed list yet: an option it does not know is taken as harmless. They
// break the contract for options nobody listed, and are the work left:
// each needs a closed list (opts) before it can leave this list. A row
// that keeps the contract may not join it.
var optionsOwnFunction = map[string]bool{
	"git": true,
}

// TestContractOwnFunctionListIsCurrent: a row on optionsOwnFunction that
// keeps the contract must leave it, so the list only shrinks.
func TestContractOwnFunctionListIsCurrent(t *testing.T) {
	for name := range optionsOwnFunction {
		if _, ok := commands[name]; !ok {
			t.Errorf("optionsOwnFunction lists %q, which has no row", name)
			continue
		}
		var v Verdict
		Argv(&v, []string{name, "--airlock-unmodelled", "x"}, nil)
		if v.Level >= level.Dangerous && commands[name].opts != nil {
			t.Errorf("%q keeps the contract now: remove it from optionsOwnFunction", name)
		}
	}
}

func TestContractUnmodelledOptionIsDangerous(t *testing.T) {
	var names []string
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := commands[name]
		if r.opts != nil && r.opts.free || name == "wrapper-alone" || name == "command" || optionsOwnFunction[name] {
			continue
		}
		for _, opt := range unmodelledOptions {
			probes := [][]string{{name, opt, "x"}}
			if r.opts == nil || !r.opts.cmdAt {
				probes = append(probes, []string{name, "x", opt}) // after a command (cmdAt) it is that command's word
			}
			for s, e := range r.subs {
				if weight(e) <= level.Caution && s != "" {
					probes = append(probes, []string{name, s, opt})
				}
			}
			for _, argv := range probes {
				var v Verdict
				Argv(&v, argv, nil)
				if v.Level < level.Dangerous {
					t.Errorf("%s: %v, want at least dangerous: an option the row does not model (%s)", strings.Join(argv, " "), v.Level, strings.Join(v.Texts(), " | "))
				}
			}
		}
	}
}

// TestContractRowsWithoutModelTakeNoOptions: a Safe or Caution row of the
// table that names no option model takes none: any option is Dangerous.
func TestContractRowsWithoutModelTakeNoOptions(t *testing.T) {
	for name, r := range commands {
		if r.run != nil || r.opts != nil || weight(r.fx) > level.Caution && r.subs == nil {
			continue
		}
		var v Verdict
		Argv(&v, []string{name, "-a"}, nil)
		if v.Level < level.Dangerous {
			t.Errorf("%s -a: %v, want dangerous (no option model)", name, v.Level)
		}
	}
}
