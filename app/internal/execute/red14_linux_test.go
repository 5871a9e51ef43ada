//go:build linux

package execute_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

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
	name := "tool settings by other names that start programs"
	plantsHeld(t, red4PlantRig(t), name, payloadIn(t, "red14.json", name))
}

// TestRed14PlantsByOtherNamesLookalikes: files named like those above
// that no tool reads as its settings land unasked, without the person.
func TestRed14PlantsByOtherNamesLookalikes(t *testing.T) {
	r := red4PlantRig(t)
	name := "look-alikes of the tool settings by other names"
	r.lookalikesLand(t, name, payloadIn(t, "red14.json", name))
}

// TestRed14CopiedEditorHistory: an editor's local history (VS Code's and
// its forks': User/History/<hash>/<4 letters><extension>) holds a copy of
// every file the person saved, .env and keys included, under names that
// say nothing; a copy of a home kept in the roots (an old Mac's, a
// Linux laptop's) holds it at the same place. Printed as base64 runs
// (grep -o), the secrets have no shape the redactor knows. It is hidden
// wherever it lies below a root, as in the home; a project's folder named
// History is not.
func TestRed14CopiedEditorHistory(t *testing.T) {
	mac := "Downloads/OldMac/Users/ann/Library/Application Support/"
	old := "Documents/old-laptop/home/ann/.config/"
	leaked := redSecretRead(t, map[string][2]string{
		mac + "Code/User/History/-5e1b2c3d/Zx8q":           {"API_KEY=S3CRETvscodeHistoryCopied0014\n", "S3CRETvscodeHistoryCopied0014"},
		mac + "Cursor/User/History/7f3a/Qw3e.env":          {"DB_PASSWORD=S3CRETcursorHistoryCopied0014\n", "S3CRETcursorHistoryCopied0014"},
		mac + "Sublime Text/Local/Session.sublime_session": {"{\"buffers\":[{\"contents\":\"S3CRETsublimeSessionCopied0014\"}]}\n", "S3CRETsublimeSessionCopied0014"},
		old + "Code/User/History/1a2b/AbCd":                {"TOKEN=S3CRETlinuxCodeHistoryCopied0014\n", "S3CRETlinuxCodeHistoryCopied0014"},
	}, map[string][2]string{
		"Documents/proj/History/notes.md": {"the project's history: ProjectHistoryReadable0014\n", "ProjectHistoryReadable0014"},
		"Documents/proj/Local/readme.txt": {"local notes: LocalFolderReadable0014\n", "LocalFolderReadable0014"},
		mac + "Code/User/settings.json":   {"{\"editor.fontSize\": \"CodeSettingsReadable0014\"}\n", "CodeSettingsReadable0014"},
	})
	if len(leaked) > 0 {
		t.Fatalf("HOLE: an unasked read of the roots printed the secrets %q of an editor's local history copied there", leaked)
	}
}

// TestRed14EnvironmentFilesLoadCodeBySourcesAndCommands: an environment
// file that tools load (oh-my-zsh's dotenv plugin sources it into the
// person's shell, so every later command reads it) by variables the
// table did not list: where packages, and the code they run, come from,
// beside pip's, uv's and npm's (Go's GOPROXY and its checksum database
// turned off, bun's registry, Homebrew's API and bottles, Poetry's
// repositories, the composer.json Composer runs the scripts of), commands
// other programs run (fzf's FZF_DEFAULT_COMMAND and its kind, "_COMMAND"
// as git's GIT_SSH_COMMAND), settings files whose entries run commands
// (ripgrep's --pre, starship's custom modules at every prompt) and where
// xdg-open finds the program it opens a file with. Each is held.
func TestRed14EnvironmentFilesLoadCodeBySourcesAndCommands(t *testing.T) {
	name := "environment files that load code, by package sources and commands"
	envFilesHeld(t, name, payloadIn(t, "red14.json", name))
}

// TestRed14EnvironmentFilesLookalikes: environment files of everyday
// settings named like those above (GOOS, a COMMAND_ prefix, a tool's
// version, a URL under POETRY_, BUN_ENV) land unasked.
func TestRed14EnvironmentFilesLookalikes(t *testing.T) {
	r := envRig(t)
	name := "environment files of everyday settings, round 14"
	r.lookalikesLand(t, name, payloadIn(t, "red14.json", name))
}

// red14Script is one case of testdata/review/red14-scripts.json: a script
// whose {{HOME}} is the rig's home.
type red14Script struct {
	Name, Kind, Src string
	Argv            []string
}

// red14Scripts runs each script of the list key unasked in a home whose
// roots hold secrets the sandbox hides though their names say nothing,
// and returns each case's error.
func red14Scripts(t *testing.T, key string) map[string]error {
	t.Helper()
	cases := scriptCases(t, "red14-scripts.json", key)
	r := newRedRig(t, []string{"~/Documents", "~/Downloads"}, map[string]redFile{
		"Downloads/myproj-3f2a1b4c5d6e.json":         {"{\n  \"type\": \"service_account\",\n  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCS3CRETscript14\\n-----END PRIVATE KEY-----\\n\"\n}\n", 0o600},
		"Downloads/prod.pem":                         {"-----BEGIN RSA PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDS3CRETscript14\n-----END RSA PRIVATE KEY-----\n", 0o600},
		"Downloads/cert.pem":                         {"-----BEGIN CERTIFICATE-----\nMIIDpublicCertificateBodyReadable14\n-----END CERTIFICATE-----\n", 0o644},
		"Documents/old-laptop/home/ann/.kube/config": {"apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: S3CRETkubeScript14\n", 0o600},
	})
	return r.runScripts(t, cases, strings.NewReplacer("{{HOME}}", r.home))
}

// scriptCases reads the list key of testdata/review/file.
func scriptCases(t *testing.T, file, key string) []red14Script {
	t.Helper()
	var all map[string][]red14Script
	b, err := os.ReadFile(filepath.Join("testdata", "review", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return all[key]
}

// runScripts runs each script unasked, its text through sub and its
// arguments' {{HOME}} made the rig's home, and returns each case's error.
func (r *redRig) runScripts(t *testing.T, cases []red14Script, sub *strings.Replacer) map[string]error {
	t.Helper()
	errs := map[string]error{}
	for _, c := range cases {
		var argv []string
		for _, a := range c.Argv {
			argv = append(argv, strings.ReplaceAll(a, "{{HOME}}", r.home))
		}
		res, err := r.ex.RunScript(execute.WithLabel(context.Background(), c.Name), c.Kind, sub.Replace(c.Src), argv, "", ossandbox.Grant{})
		if res.Release != nil {
			res.Release()
		}
		t.Logf("%s: %v", c.Name, err)
		errs[c.Name] = err
	}
	return errs
}

// TestRed14ScriptHandsHiddenSecretToApp: an AppleScript or JXA script run
// unasked does not see the files the sandbox hides, but the apps it
// drives do: TextEdit opens the path it is given outside every sandbox
// and answers text of document 1, Mail attaches it, the Finder copies
// it. The analyzer checks such paths by their names; a file hidden for
// its content (a private key known by its first bytes, a service
// account's key under its project's name) or for where it lies (a home's
// credential store copied into the roots) it cannot know. A script run
// unasked that names one is not started (it was; Linux then answered
// that it needs macOS, a Mac ran it).
func TestRed14ScriptHandsHiddenSecretToApp(t *testing.T) {
	for name, err := range red14Scripts(t, "hidden") {
		if !errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("HOLE: %s: started unasked (%v)", name, err)
		}
	}
}

// TestRed14ScriptHandsHiddenSecretLookalikes: scripts that name a
// certificate beside the keys, or the folder they lie in, are started.
func TestRed14ScriptHandsHiddenSecretLookalikes(t *testing.T) {
	for name, err := range red14Scripts(t, "lookalikes") {
		if errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("%s: not started: %v", name, err)
		}
	}
}
