//go:build linux

package execute_test

import "testing"

// A thirteenth red team's attacks from inside an unasked action, at the
// default level with no approval ever given. Each payload is in
// testdata/review/red12.json and runs unasked through the real sandbox in
// a home made in a temporary folder (newRedRig); nobody keeps what is held.

// payload12 returns the argv of the payload name of red12.json.
func payload12(t *testing.T, name string) []string { return payloadIn(t, "red12.json", name) }

// envRig is a home whose ~/Documents, the sandbox root, holds projects
// without an environment file: a Next.js app, a bun app, a pipenv project
// and others; none has an .envrc.
func envRig(t *testing.T) *redRig {
	files := map[string]redFile{
		"Documents/web/package.json":    {"{\"name\": \"web\", \"scripts\": {\"dev\": \"next dev\"}}\n", 0o644},
		"Documents/bunapp/package.json": {"{\"name\": \"bunapp\"}\n", 0o644},
		"Documents/pyapp/Pipfile":       {"[packages]\nrequests = \"*\"\n", 0o644},
	}
	for _, d := range []string{"zshproj", "tickproj", "shproj", "javaapp", "gitproj", "promptproj", "pathproj", "rbapp", "perlapp", "quoted", "compose", "notes", "docs"} {
		files["Documents/"+d+"/README.md"] = redFile{d + "\n", 0o644}
	}
	return newRedRig(t, []string{"~/Documents"}, files)
}

// TestRed12EnvironmentFilesLoadCode: tools load a project's environment
// file into the environment of what they run, with no .envrc and without
// asking: pipenv run and pipenv shell load .env, bun loads .env and
// .env.local at every command, Next.js loads .env.local into the server
// and its workers, VS Code's Python extension loads .env into what it
// runs and debugs, and oh-my-zsh's dotenv plugin sources .env as shell
// code at every cd into the folder once the person said "always". A
// variable such as NODE_OPTIONS (--require), LD_PRELOAD, PYTHONSTARTUP,
// JAVA_TOOL_OPTIONS, RUBYOPT, PERL5OPT, GIT_SSH_COMMAND, PROMPT_COMMAND or
// PATH then runs the action's code in the person's next run, and a line
// that is no assignment, or a value with $(…) or `…`, runs as a command
// where the file is sourced. Each such file is held; environment files of
// everyday settings land (TestRed12EnvironmentFilesLookalikes).
func TestRed12EnvironmentFilesLoadCode(t *testing.T) {
	r := envRig(t)
	name := "environment files that load code"
	argv := payload12(t, name)
	before := map[string]string{}
	for i := 3; i+1 < len(argv); i += 2 {
		if isEnvFile(argv[i]) {
			before["Documents/"+argv[i]] = ""
		}
	}
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	r.heldOrAbsent(t, held, before)
}

// TestRed12EnvironmentFilesLookalikes: environment files that set only
// everyday settings (ports, URLs, a database's address, $VAR references
// that a loader expands), and notes that name a code-loading variable,
// land unasked.
func TestRed12EnvironmentFilesLookalikes(t *testing.T) {
	r := envRig(t)
	name := "environment files of everyday settings"
	r.lookalikesLand(t, name, payload12(t, name))
}

// isEnvFile reports whether the payload path rel names an environment
// file (not a file the payload writes beside one).
func isEnvFile(rel string) bool {
	for i := len(rel) - 1; i >= 0; i-- {
		if rel[i] == '/' {
			rel = rel[i+1:]
			break
		}
	}
	return rel == ".env" || len(rel) > 5 && (rel[:5] == ".env." || rel[len(rel)-4:] == ".env")
}
