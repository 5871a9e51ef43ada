package shell

import (
	"strings"
	"testing"
)

// TestLoadsTable checks every language of Loads: a name for the person,
// endings a file name is matched against (lower case, starting with a
// dot), and an interpreter of Runs's that names it.
func TestLoadsTable(t *testing.T) {
	named := map[string]bool{"deno": true, "sh": true} // denoRuns and sourceRuns
	for _, m := range []*interpModel{pythonModel, nodeModel, rubyModel, perlModel, phpModel, luaModel, rscriptModel, tclModel, shellModel, osascriptModel} {
		if m.loads != "" {
			named[m.loads] = true
		}
	}
	for key, f := range Loads {
		if f.Lang == "" || len(f.Exts) == 0 || f.Script != "" {
			t.Errorf("%s: %+v", key, f)
		}
		for _, x := range f.Exts {
			if !strings.HasPrefix(x, ".") || strings.ToLower(x) != x {
				t.Errorf("%s: ending %q is not a lower-case .ext", key, x)
			}
		}
		if !named[key] {
			t.Errorf("%s: no interpreter names it", key)
		}
	}
	for key := range named {
		if _, ok := Loads[key]; !ok {
			t.Errorf("an interpreter names %q, which Loads does not have", key)
		}
	}
}
