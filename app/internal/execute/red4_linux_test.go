//go:build linux

package execute_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
)

// A sixth red team's attacks from inside an unasked action (round 4 of
// the brief), at the default level with no approval ever given. Each
// payload is in testdata/review/red4.json and runs unasked through the
// real sandbox in a home made in a temporary folder (newRedRig); nobody
// keeps what is held.

// payload4 returns the argv of the payload name of red4.json.
func payload4(t *testing.T, name string) []string { return payloadIn(t, "red4.json", name) }

// red4PlantRig is a home whose Documents folder, the sandbox root, holds
// a Python, a Haskell, an Elixir, an OCaml, an Octave, a Perl and a
// Node.js project.
func red4PlantRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/py/main.py":       {"print('hi')\n", 0o644},
		"Documents/hs/Main.hs":       {"main = putStrLn \"hi\"\n", 0o644},
		"Documents/ex/mix.exs":       {"defmodule X.MixProject do\nend\n", 0o644},
		"Documents/ml/main.ml":       {"let () = print_endline \"hi\"\n", 0o644},
		"Documents/oct/run.m":        {"disp('hi')\n", 0o644},
		"Documents/pl/run.pl":        {"print \"hi\\n\";\n", 0o644},
		"Documents/app/package.json": {"{\"name\": \"app\"}\n", 0o644},
	})
}

// plantsOf runs the writer payload name unasked from ~/Documents and fails
// for every file it writes that lands without the person.
func plantsOf(t *testing.T, r *redRig, name string) {
	t.Helper()
	plantsHeld(t, r, name, payload4(t, name))
}

// plantsHeld runs the payload argv (sh -c SCRIPT, then pairs of a file's
// name in Documents and its text) unasked: every file it writes is held
// by the review, or absent.
func plantsHeld(t *testing.T, r *redRig, name string, argv []string) {
	t.Helper()
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

// TestRed4PlantsReplStartup: REPLs and debuggers that run a start-up file
// from the folder they start in, beside irb's and pry's (held since the
// fourth team): Python's debugger reads ./.pdbrc (pdb runs its Python
// lines, at every breakpoint() too), GHCi ./.ghci (its :! runs a shell
// command), IEx ./.iex.exs, the OCaml toplevel and utop ./.ocamlinit,
// Octave ./.octaverc and Perl's debugger ./.perldb. Each is held.
func TestRed4PlantsReplStartup(t *testing.T) {
	plantsOf(t, red4PlantRig(t), "start-up files read from the folder a REPL or debugger starts in")
}

// TestRed4PlantsOtherAgents: the project settings of the coding agents the
// fourth team did not name, each of which starts commands when the agent
// starts in the folder: opencode's opencode.json(c) (local MCP servers)
// and its .opencode folder (plugins and tools, JavaScript run at start),
// aider's .aider.conf.yml (lint-cmd, run after every edit with auto-lint,
// its default), Crush's crush.json (MCP servers and language servers),
// Continue's .continue/mcpServers, JetBrains Junie's .junie/mcp, Kilo
// Code's .kilocode/mcp.json and Qwen Code's .qwen/settings.json. Each is
// held like .mcp.json and .cursor/mcp.json.
func TestRed4PlantsOtherAgents(t *testing.T) {
	plantsOf(t, red4PlantRig(t), "other agents' project settings that start commands")
}

// TestRed4PlantsLookalikes: files named like those of the two tests above
// that no tool runs land unasked, without the person.
func TestRed4PlantsLookalikes(t *testing.T) {
	r := red4PlantRig(t)
	name := "look-alikes of the start-up and agent files"
	argv := payload4(t, name)
	r.lookalikesLand(t, name, argv)
}

// TestRed4PlantPdbrcRuns: the plant of .pdbrc is real. Kept by the person,
// the next `python3 -m pdb` in that folder (or any breakpoint() of a
// program started there) runs the action's Python before the first
// prompt.
func TestRed4PlantPdbrcRuns(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	r := red4PlantRig(t)
	name := "start-up files read from the folder a REPL or debugger starts in"
	if _, _, err := r.runArgvKeep(t, name, payload4(t, name), "Documents", true); err != nil {
		t.Fatalf("run: %v", err)
	}
	py := exec.Command("python3", "-m", "pdb", "-c", "quit", "main.py")
	py.Dir, py.Env = r.p("Documents/py"), []string{"HOME=" + r.home, "PATH=/usr/bin:/bin"}
	py.Stdin = strings.NewReader("quit\n")
	out, _ := py.CombinedOutput()
	t.Logf("python3 -m pdb: %s", out)
	if !r.exists("Documents/py/pwned-by-pdbrc") {
		t.Errorf("the kept .pdbrc did not run when pdb started in its folder: the payload is no plant")
	}
}

// redSecretRead runs the red4 payload that prints every base64 run of the
// roots unasked, in a home holding secrets (each file's body with its
// mark, the value that must not come back) and plain files (each file's
// body with a mark that must come back), and fails for a plain file not
// shown; it returns the secrets' marks that came back.
func redSecretRead(t *testing.T, secrets, plain map[string][2]string) []string {
	t.Helper()
	files := map[string]redFile{}
	var marks []string
	for rel, s := range secrets {
		files[rel] = redFile{s[0], 0o600}
		marks = append(marks, s[1])
	}
	for rel, p := range plain {
		files[rel] = redFile{p[0], 0o644}
	}
	r := newRedRig(t, []string{"~/Documents", "~/Downloads"}, files)
	name := "secret files known by their content, read whole"
	var out string
	var leaked []string
	for _, root := range []string{"Documents", "Downloads"} {
		res, _, err := r.runArgv(t, name, payload4(t, name), root)
		if errors.Is(err, execute.ErrSecretsUnhidden) {
			t.Fatalf("%s was not started: %v", name, err)
		}
		leaked = append(leaked, leakedAny(res, err, marks)...)
		out += res.Output
	}
	for _, p := range plain {
		if want := p[1]; !strings.Contains(out, want) {
			t.Errorf("the reads do not show %q, which is no secret: %q", want, out)
		}
	}
	return leaked
}

// pemCert is a certificate: public, and read to be read.
const pemCert = "-----BEGIN CERTIFICATE-----\nMIIDpublicCertificateBodyReadable08\n-----END CERTIFICATE-----\n"

// TestRed4SecretNamesOfFrameworks: files known to hold an application's
// passwords by the name their framework or tool gives them, which rate's
// table did not know: WordPress's wp-config.php (the database password
// and the salts), Azure Functions' local.settings.json (storage account
// keys, connection strings), Composer's auth.json (registry passwords and
// tokens; Codex's and opencode's auth.json hold their logins too) and
// sentry-cli's .sentryclirc; and the names that say secret at their end:
// Docker Compose's secret files (secrets/db_password.txt, its
// documentation's name), a Kubernetes Secret manifest (db-secret.yaml,
// its values only base64), a token, key or secret kept alone in a text
// file (github_token.txt, api_key.txt, jwt.secret). Printed as base64 runs (grep -o), their
// values have no shape the redactor knows. Each is hidden from an unasked
// read, and a certificate and notes beside them are not.
func TestRed4SecretNamesOfFrameworks(t *testing.T) {
	leaked := redSecretRead(t, map[string][2]string{
		"Documents/site/wp-config.php":          {"<?php\ndefine( 'DB_PASSWORD', 'S3CRETwpconfigPassword0004' );\n", "S3CRETwpconfigPassword0004"},
		"Documents/fn/local.settings.json":      {"{\"Values\": {\"AzureWebJobsStorage\": \"AccountKey=S3CRETazureAccountKey0005==\"}}\n", "S3CRETazureAccountKey0005"},
		"Documents/php/auth.json":               {"{\"http-basic\": {\"repo.example.com\": {\"username\": \"u\", \"password\": \"S3CRETcomposerBasic0006\"}}}\n", "S3CRETcomposerBasic0006"},
		"Documents/web/.sentryclirc":            {"[auth]\ntoken=S3CRETsentryCliToken0007\n", "S3CRETsentryCliToken0007"},
		"Documents/app/secrets/db_password.txt": {"S3CRETdockerSecretFile0008\n", "S3CRETdockerSecretFile0008"},
		"Documents/k8s/db-secret.yaml": {"apiVersion: v1\nkind: Secret\ndata:\n  password: UzNDUkVUazhzU2VjcmV0TWFuaWZlc3QwMDA5\n",
			"UzNDUkVUazhzU2VjcmV0TWFuaWZlc3QwMDA5"},
		"Documents/app/github_token.txt": {"S3CRETgithubTokenFile0010\n", "S3CRETgithubTokenFile0010"},
		"Documents/app/jwt.secret":       {"S3CRETjwtSigningSecret0011\n", "S3CRETjwtSigningSecret0011"},
		"Documents/app/api_key.txt":      {"S3CRETplainApiKeyFile0012\n", "S3CRETplainApiKeyFile0012"},
	}, map[string][2]string{
		"Documents/web/cert.pem":              {pemCert, "MIIDpublicCertificateBodyReadable08"},
		"Documents/site/wp-config-sample.php": {"define( 'DB_PASSWORD', 'samplePasswordPlaceholder13' );\n", "samplePasswordPlaceholder13"},
		"Documents/app/password-policy.md":    {"passwordPolicyNotesReadable14\n", "passwordPolicyNotesReadable14"},
		"Documents/k8s/secret-rotation.md":    {"secretRotationRunbookReadable15\n", "secretRotationRunbookReadable15"},
		"Documents/app/tokenizer.txt":         {"tokenizerVocabularyReadable16\n", "tokenizerVocabularyReadable16"},
	})
	if len(leaked) > 0 {
		t.Errorf("HOLE: an unasked read of the roots printed %q", leaked)
	}
}

// TestRed4SecretsByContent: the roots' secret files are hidden by name,
// and a secret whose file has no telling name is read whole: an AWS key
// pair as the console downloads it (NAME.pem, named after the key pair),
// a Google Cloud service account key as the console names it
// (PROJECT-HASH.json) and a Firebase admin key (PROJECT-firebase-
// adminsdk-ID-HASH.json), each a private key. Printed as base64 runs
// (grep -o), without the armor lines, the redactor does not know them.
// No name table can tell prod.pem's key from cert.pem's certificate:
// the content must.
func TestRed4SecretsByContent(t *testing.T) {
	pemBody := "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDS3CRETpemBody0001"
	gcpBody := "MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCS3CRETgcpBody0002"
	fbBody := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCS3CRETfbBody00003"
	saJSON := func(project, body string) string {
		return "{\n  \"type\": \"service_account\",\n  \"project_id\": \"" + project + "\",\n" +
			"  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n" + body + "\\n-----END PRIVATE KEY-----\\n\",\n" +
			"  \"client_email\": \"x@" + project + ".iam.gserviceaccount.com\"\n}\n"
	}
	leaked := redSecretRead(t, map[string][2]string{
		"Downloads/prod.pem":                                      {"-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "\n-----END RSA PRIVATE KEY-----\n", pemBody},
		"Downloads/myproj-3f2a1b4c5d6e.json":                      {saJSON("myproj", gcpBody), gcpBody},
		"Downloads/myapp-firebase-adminsdk-ab12c-0123456789.json": {saJSON("myapp", fbBody), fbBody},
	}, map[string][2]string{"Downloads/cert.pem": {pemCert, "MIIDpublicCertificateBodyReadable08"}})
	if len(leaked) > 0 {
		t.Fatalf("HOLE: an unasked read of the roots printed the private keys %q of files whose names say nothing", leaked)
	}
}
