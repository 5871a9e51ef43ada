package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/level"
)

// TestShellWorkLinear checks that nested command substitutions, in words,
// redirections, assignments, here-strings and case patterns, are analysed
// once each: the work of depth-40 nesting grows linearly, not
// exponentially. It counts work units, not time.
func TestShellWorkLinear(t *testing.T) {
	shapes := map[string]func(d int) string{
		"word":       func(d int) string { return "echo " + strings.Repeat("$(", d) + "ls" + strings.Repeat(")", d) },
		"quoted":     func(d int) string { return "echo " + strings.Repeat(`"$(`, d) + "ls" + strings.Repeat(`)"`, d) },
		"redirect":   func(d int) string { return "echo " + strings.Repeat("$(echo > ", d) + "ls" + strings.Repeat(")", d) },
		"append":     func(d int) string { return strings.Repeat("$(cat >> ", d) + "f" + strings.Repeat(")", d) },
		"assign":     func(d int) string { return strings.Repeat("$(x=", d) + "ls" + strings.Repeat(")", d) },
		"export":     func(d int) string { return strings.Repeat("$(export PATH=", d) + "ls" + strings.Repeat(")", d) },
		"herestring": func(d int) string { return strings.Repeat("$(cat <<< ", d) + "ls" + strings.Repeat(")", d) },
		"input":      func(d int) string { return strings.Repeat("$(cat < ", d) + "f" + strings.Repeat(")", d) },
		"default":    func(d int) string { return strings.Repeat("${x:-$(", d) + "ls" + strings.Repeat(")}", d) },
		"braces":     func(d int) string { return strings.Repeat("{a,$(", d) + "ls" + strings.Repeat(")}", d) },
		"brace-copy": func(d int) string { return "echo " + strings.Repeat("{a,b}$(echo ", d) + "ls" + strings.Repeat(")", d) },
		"case":       func(d int) string { return strings.Repeat("case x in $(", d) + "ls" + strings.Repeat(") ) ;; esac", d) },
		"heredoc":    func(d int) string { return strings.Repeat("$(sh <<EOF\n$(", d) + "ls" + strings.Repeat(")\nEOF\n)", d) },
	}
	for name, shape := range shapes {
		work := func(d int) int {
			var v Verdict
			sh := &shellShared{}
			shellRun(&v, shape(d), nil, nil, 0, sh)
			return sh.work
		}
		w10, w40 := work(10), work(40)
		// Linear: four times the depth costs about four times the work
		// (plus the bytes of the input); exponential would be 2^30 times.
		if w40 > 8*w10+100 || w40 > 5000 {
			t.Errorf("%s: work %d at depth 10, %d at depth 40: not linear", name, w10, w40)
		}
	}
}

// TestShellBudget checks that an input past the work budget is rated
// destructive as too complex, and that the analysis stops.
func TestShellBudget(t *testing.T) {
	var v Verdict
	sh := &shellShared{work: maxWork - 10}
	shellRun(&v, strings.Repeat("ls; ", 100), nil, nil, 0, sh)
	if v.Level != level.Destructive {
		t.Fatalf("over budget: got %v, want destructive", v.Level)
	}
	found := false
	for _, r := range v.Reasons {
		found = found || r.Rule == "shell.too-complex"
	}
	if !found {
		t.Fatalf("over budget: no shell.too-complex reason in %v", v)
	}
	if sh.work > maxWork+10 {
		t.Fatalf("analysis went on past the budget: %d units", sh.work)
	}
}

func BenchmarkMvdanParseTiny(b *testing.B) {
	p := bashParsers.Get().(*syntax.Parser)
	for i := 0; i < b.N; i++ {
		p.Parse(strings.NewReader("df -h '__AIRLOCK_Q__' | tail -1"), "")
	}
}
