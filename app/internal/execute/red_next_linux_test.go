//go:build linux

package execute_test

import (
	"testing"
)

// A fourth red team's attacks from inside an unasked action, at the
// default level with no approval ever given: the next members of the
// classes the earlier teams found. Each payload is in
// testdata/review/next.json and runs unasked through the real sandbox in
// a home made in a temporary folder (newRedRig); nobody keeps what is held.

// payloadNext returns the argv of the payload name of next.json.
func payloadNext(t *testing.T, name string) []string { return payloadIn(t, "next.json", name) }

// nextPlantRig is a home whose Documents folder, the sandbox root, holds a
// Python project with a virtual environment, a Rust, a Node.js, a Java, an
// R and a Ruby project, each with the files its tools already had.
func nextPlantRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/py/main.py":                                  {"print('hi')\n", 0o644},
		"Documents/py/venv/pyvenv.cfg":                          {"home = /usr/bin\ninclude-system-site-packages = false\n", 0o644},
		"Documents/py/venv/bin/activate.fish":                   {"set -gx VIRTUAL_ENV venv\n", 0o644},
		"Documents/rs/Cargo.toml":                               {"[package]\nname = \"rs\"\n", 0o644},
		"Documents/rs/src/main.rs":                              {"fn main() {}\n", 0o644},
		"Documents/app/package.json":                            {"{\"name\": \"app\"}\n", 0o644},
		"Documents/app/.claude/hooks/format.sh":                 {"npx prettier --write .\n", 0o644},
		"Documents/jv/gradle/wrapper/gradle-wrapper.properties": {"distributionUrl=https\\://services.gradle.org/distributions/gradle-8.10-bin.zip\n", 0o644},
		"Documents/r/.Rprofile":                                 {"source('renv/activate.R')\n", 0o644},
		"Documents/r/renv/activate.R":                           {"local({ version <- '1.0.7' })\n", 0o644},
		"Documents/rb/Gemfile":                                  {"source 'https://rubygems.org'\n", 0o644},
	})
}

// TestRedNextPlants: files other tools run from a project folder, by
// themselves or at the person's every command there: the other
// activation scripts of a virtual environment (fish, csh), the venv's
// pyvenv.cfg (its home is where Python takes its standard library from),
// pylint's init-hook and mypy's plugins, PEP 582's installed packages,
// rust-toolchain's path (the cargo and rustc every build and the editor's
// rust-analyzer run), mise's hooks (run on entering the folder) and
// .tool-versions' path: versions, the MCP servers and hooks of other
// agents and editors (VS Code, Cursor, Gemini CLI, Zed, Helix), the
// scripts a Claude Code hook runs, Yarn's Plug'n'Play loader, the Gradle
// and Maven wrappers' settings, renv's activation script (sourced by the
// .Rprofile at every R start) and irb's and pry's files of the folder.
// Each is held like a .envrc.
func TestRedNextPlants(t *testing.T) {
	r := nextPlantRig(t)
	argv := payloadNext(t, "tools that run a folder's files")
	before := map[string]string{}
	for i := 3; i+1 < len(argv); i += 2 {
		rel := "Documents/" + argv[i]
		old := r.read(rel)
		if old == "<missing>" {
			old = ""
		}
		before[rel] = old
	}
	res, held, err := r.runArgv(t, "tools that run a folder's files", argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	r.heldOrAbsent(t, held, before)
}

// TestRedNextPlantsLookalikes: files named like those of TestRedNextPlants
// that no tool runs (notes, sources, an editor's recommendations, an
// agent's rules and commands) land unasked, without the person.
func TestRedNextPlantsLookalikes(t *testing.T) {
	r := nextPlantRig(t)
	argv := payloadNext(t, "look-alikes of those files")
	res, held, err := r.runArgv(t, "look-alikes of those files", argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	if len(held) > 0 {
		t.Errorf("look-alikes were held for the person: %q", held)
	}
	for i := 3; i+1 < len(argv); i += 2 {
		if got := r.read("Documents/" + argv[i]); got != argv[i+1] {
			t.Errorf("%s did not land: %q", argv[i], got)
		}
	}
}
