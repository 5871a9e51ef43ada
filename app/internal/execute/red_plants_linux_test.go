//go:build linux

package execute_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A third red team's plants: files an unasked action leaves in a sandbox
// root that run later, without the person, by tools other than git and
// the editors the persistence table names. Each payload is in
// testdata/review/red3.json and runs unasked through the real sandbox in a
// home made in a temporary folder (newRedRig); nobody keeps what is held.

// payload3 returns the argv of the payload name of red3.json.
func payload3(t *testing.T, name string) []string { return payloadIn(t, "red3.json", name) }

// plantRig is a home whose Documents folder, the sandbox root, holds a
// Mercurial and a Jujutsu repository, a Python project with a virtual
// environment and a Node.js project with its installed packages.
func plantRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/hgrepo/.hg/requires":   {"revlogv1\nstore\n", 0o644},
		"Documents/hgrepo/README":         {"readme\n", 0o644},
		"Documents/jjrepo/.jj/repo/store": {"", 0},
		"Documents/jjrepo/README":         {"readme\n", 0o644},
		"Documents/app/package.json":      {"{\"name\": \"app\"}\n", 0o644},
		"Documents/app/index.ts":          {"console.log('hi')\n", 0o644},
		"Documents/py/util.py":            {"def add(a, b):\n    return a + b\n", 0o644},
		"Documents/py/main.py":            {"import util\nprint(util.add(1, 2))\n", 0o644},
		"Documents/py/venv/lib/python3.12/site-packages/requests/__init__.py": {"__version__ = '2.32.3'\n", 0o644},
		"Documents/py/node_modules/left-pad/index.js":                         {"module.exports = (s) => s\n", 0o644},
	})
}

// runIn runs the red3 payload name unasked from the home's folder rel and
// returns what was held (relative to the home); nobody keeps any of it.
func (r *redRig) runIn(t *testing.T, name, rel string) []string {
	t.Helper()
	argv := payload3(t, name)
	res, held, err := r.runArgv(t, name, argv, rel)
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	return held
}

// heldOrAbsent fails for each of rels (relative to the home) that the
// action changed and the review applied without the person: not held,
// and now in the home with what the action wrote. before is what each
// held before the action ("" for nothing).
func (r *redRig) heldOrAbsent(t *testing.T, held []string, before map[string]string) {
	t.Helper()
	isHeld := func(rel string) bool {
		return slices.ContainsFunc(held, func(h string) bool { return h == rel || strings.HasPrefix(rel, h+"/") })
	}
	for rel, old := range before {
		now := r.read(rel)
		if old == "" {
			old = "<missing>"
		}
		if now != old && !isHeld(rel) {
			t.Errorf("%s was changed without the person: it runs later (held: %q)", rel, held)
		}
	}
}

// plantsHeld runs argv, a payload that writes each pair of its arguments
// from argv[3] on (a path below ~/Documents, then what it writes there),
// unasked in ~/Documents, and fails for each of those files the review
// applied without the person (heldOrAbsent, against what each held before).
func (r *redRig) plantsHeld(t *testing.T, name string, argv []string) {
	t.Helper()
	before := map[string]string{}
	for i := 3; i+1 < len(argv); i += 2 {
		rel := "Documents/" + argv[i]
		old := r.read(rel)
		if old == "<missing>" {
			old = ""
		}
		before[rel] = old
	}
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	r.heldOrAbsent(t, held, before)
}

// lookalikesLand runs argv, a payload of the same form as plantsHeld's,
// unasked in ~/Documents, and fails unless nothing was held for the
// person and each file landed with what the action wrote.
func (r *redRig) lookalikesLand(t *testing.T, name string, argv []string) {
	t.Helper()
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	if len(held) > 0 {
		t.Errorf("look-alikes were held for the person: %q", held)
	}
	for i := 3; i+1 < len(argv); i += 2 {
		if got := r.read("Documents/" + argv[i]); got != argv[i+1] {
			t.Errorf("Documents/%s did not land: %q", argv[i], got)
		}
	}
}

// TestRedPlantsOtherTools: Mercurial runs a repository's .hg/hgrc hooks
// at every hg command (shell prompts run hg status on entering the
// folder); Jujutsu runs .jj/repo/config.toml's pager and aliases at every
// jj command; bun runs bunfig.toml's preload at every bun run and test;
// Claude Code runs the hooks of a project's .claude/settings.json when it
// starts there. Each is held like a .git/config or a .envrc.
func TestRedPlantsOtherTools(t *testing.T) {
	r := plantRig(t)
	held := r.runIn(t, "other version control and tools", "Documents")
	r.heldOrAbsent(t, held, map[string]string{
		"Documents/hgrepo/.hg/hgrc":             "",
		"Documents/jjrepo/.jj/repo/config.toml": "",
		"Documents/app/bunfig.toml":             "",
		"Documents/app/.claude/settings.json":   "",
	})
}

// TestRedPlantsBytecode: Python runs __pycache__/util.cpython-3NN.pyc
// instead of util.py when the header's size and time match the source's:
// an action that writes one changes what `python main.py` runs, while the
// source the person reads stays as it was.
func TestRedPlantsBytecode(t *testing.T) {
	r := plantRig(t)
	held := r.runIn(t, "bytecode beside the source", "Documents/py")
	es, _ := os.ReadDir(r.p("Documents/py/__pycache__"))
	for _, e := range es {
		rel := "Documents/py/__pycache__/" + e.Name()
		r.heldOrAbsent(t, held, map[string]string{rel: ""})
	}
	if len(es) == 0 && !slices.ContainsFunc(held, func(h string) bool { return strings.Contains(h, "__pycache__") }) {
		t.Fatalf("the payload wrote no bytecode (held: %q)", held)
	}

	// The plant is real: kept by the person, an import of util in the
	// temporary home runs the bytecode, not the source.
	k := plantRig(t)
	if _, _, err := k.runArgvKeep(t, "bytecode beside the source", payload3(t, "bytecode beside the source"), "Documents/py", true); err != nil {
		t.Fatalf("run: %v", err)
	}
	py := exec.Command("/usr/bin/python3", "-c", "import util")
	py.Dir, py.Env = k.p("Documents/py"), []string{"HOME=" + k.home, "PATH=/usr/bin:/bin"}
	if out, err := py.CombinedOutput(); err != nil {
		t.Fatalf("import util: %v: %s", err, out)
	}
	if !k.exists("Documents/py/pwned-by-pyc") {
		t.Errorf("the kept bytecode did not run instead of util.py: the payload is no plant")
	}
}

// TestRedPlantsInstalledDependency: the packages a project installed
// (a virtual environment's site-packages, node_modules) run at every start
// of the project, and nobody reads them: git ignores them, the person
// reviews their own code. A rewrite of one is held.
func TestRedPlantsInstalledDependency(t *testing.T) {
	r := plantRig(t)
	held := r.runIn(t, "installed dependency rewritten", "Documents/py")
	r.heldOrAbsent(t, held, map[string]string{
		"Documents/py/venv/lib/python3.12/site-packages/requests/__init__.py": "__version__ = '2.32.3'\n",
		"Documents/py/node_modules/left-pad/index.js":                         "module.exports = (s) => s\n",
	})
}
