package sanitize_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// traversalCases: traversal says whether the input must be refused as
// traversal. The others must not be (they may pass or break another rule).
var traversalCases = []struct {
	name      string
	input     string
	traversal bool
}{
	{"dot-dot slash", "../etc/passwd", true},
	{"inside a path", "~/Documents/../.ssh/id_rsa", true},
	{"slash dot-dot", "~/Documents/sub/..", true},
	{"bare", "..", true},
	{"root dot-dot", "/..", true},
	{"absolute", "/Users/x/Documents/../../etc", true},
	{"$HOME", "$HOME/Documents/../.ssh", true},
	{"backslash", `~/Documents/..\..\.ssh`, true},
	{"backslash only", `~/Documents\..\.ssh`, true},
	{"percent lower", "~/Documents/%2e%2e/.ssh", true},
	{"percent mixed case with slash", "~/Documents/%2E%2e%2f.ssh", true},
	{"dots and encoded slash", "~/Documents/..%2f.ssh", true},
	{"dots and encoded slash upper", "~/Documents/..%2F.ssh", true},
	{"encoded backslash", "~/Documents/%2e%2e%5c.ssh", true},
	{"one dot encoded", "~/Documents/.%2e/.ssh", true},
	{"double encoded", "~/Documents/%252e%252e/.ssh", true},
	{"double encoded slash", "~/Documents/..%252f.ssh", true},
	{"triple encoded", "~/Documents/%25252e%25252e/x", true},
	{"trailing encoded", "~/Documents/%2e%2e", true},
	{"IIS unicode escape", "~/Documents/%u002e%u002e/x", true},
	{"overlong encoded", "~/Documents/%c0%ae%c0%ae/x", true},
	{"overlong slash", "~/Documents/..%c0%afx", true},
	{"NUL truncation", "~/Documents/..%00/x", true},
	{"path parameter", "~/Documents/..;/x", true},
	{"fullwidth", "~/Documents/．．／.ssh", true},
	{"fullwidth dots only", "~/Documents/．．/x", true},
	{"one dot leader", "~/Documents/․․/x", true},
	{"two dot leader", "~/Documents/‥/x", true},
	{"small full stop", "~/Documents/﹒﹒/x", true},
	{"fullwidth solidus", "~/Documents/..／x", true},
	{"division slash", "~/Documents/..∕x", true},
	{"fraction slash", "~/Documents/..⁄x", true},
	{"big solidus", "~/Documents/..⧸x", true},
	{"fullwidth reverse solidus", "~/Documents/..＼x", true},
	{"set minus", "~/Documents/..∖x", true},
	{"ideographic full stop", "~/Documents/。。/x", true},
	{"encoded fullwidth", "~/Documents/%EF%BC%8E%EF%BC%8E/x", true},
	{"encoded two dot leader", "~/Documents/%E2%80%A5/x", true},
	{"fullwidth percent", "~/Documents/％２ｅ％２ｅ/x", true},

	{"two dots in a name", "~/Documents/report..final.txt", false},
	{"a..b", "~/Documents/a..b", false},
	{"leading dots", "~/Documents/..hidden", false},
	{"trailing dots", "~/Documents/hidden..", false},
	{"three dots", "~/Documents/...", false},
	{"dot file", "~/Documents/.x/y", false},
	{"single dot", "~/Documents/./x", false},
	{"encoded single dot", "~/Documents/%2e/x", false},
	{"two dot leader in a name", "~/Documents/a‥b", false},
	{"percent in a name", "~/Documents/100%25 done.txt", false},
	{"encoded dots in a name", "~/Documents/v1%2e%2ev2", false},
	{"ellipsis", "~/Documents/wait…/x", false},
}

func TestTraversal(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	for _, tc := range traversalCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Path(tc.input, sanitize.OpRead)
			got := ruleOf(err) == sanitize.RuleTraversal
			if got != tc.traversal {
				t.Errorf("Path(%q) = %v; want traversal %v", tc.input, err, tc.traversal)
			}
		})
	}
	// NewConfig applies the same rule to the home and the roots.
	if _, err := sanitize.NewConfig(h+"/../x", nil); err == nil {
		t.Error("NewConfig accepted a home with ..")
	}
	if _, err := sanitize.NewConfig(h, []string{"~/Documents/%2e%2e/Music"}); ruleOf(err) != sanitize.RuleTraversal {
		t.Errorf("NewConfig root with encoded ..: %v; want traversal", err)
	}
}
