//go:build linux

package execute_test

import "testing"

// A fourteenth red team's attacks from inside an unasked action, at the
// default level with no approval ever given. Each payload is in
// testdata/review/red14.json and runs unasked through the real sandbox in
// a home made in a temporary folder (newRedRig); nobody keeps what is
// held.

// TestRed14PlantsByOtherNames: tool settings that start programs, by
// names the persistence table did not list, each of which landed unasked:
// pnpm's pnpm-workspace.yaml (pnpm reads its settings there as from
// .npmrc: dangerouslyAllowAllBuilds and allowBuilds run install scripts,
// nodeOptions loads code into every script), Continue's .continuerc.json
// (applied over its settings: MCP servers it starts), a Build Server
// Protocol connection file .bsp/*.json (the IDE starts its argv when it
// opens the project) and RuboCop's .rubocop.yml (its require loads Ruby
// at every check, which editors run on opening a file, as .pylintrc's
// init-hook). Each is held like .npmrc, .continue/mcpServers and
// .pylintrc.
func TestRed14PlantsByOtherNames(t *testing.T) {
	r := red4PlantRig(t)
	name := "tool settings by other names that start programs"
	argv := payloadIn(t, "red14.json", name)
	before := map[string]string{}
	for i := 3; i+1 < len(argv); i += 2 {
		before["Documents/"+argv[i]] = ""
	}
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	r.heldOrAbsent(t, held, before)
}

// TestRed14PlantsByOtherNamesLookalikes: files named like those above
// that no tool reads as its settings land unasked, without the person.
func TestRed14PlantsByOtherNamesLookalikes(t *testing.T) {
	r := red4PlantRig(t)
	name := "look-alikes of the tool settings by other names"
	r.lookalikesLand(t, name, payloadIn(t, "red14.json", name))
}
