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

// TestRed12CopiedHomeStores: the credential stores of a home are hidden
// in the home (its hidden entries, ~/Library), but a copy of a home kept
// elsewhere — the old laptop's home copied into ~/Documents when moving,
// a backup unpacked into ~/Downloads — holds the same stores under the
// same paths, and there nothing hides them but names rate.SecretFile
// knows: ~/.kube/config, ~/.config/gh/hosts.yml, ~/.zsh_history, a
// Firefox profile's logins.json, a GNOME keyring, ~/.config/op's
// config, a Mac's Chrome profile and Messages. Printed as base64 runs
// (grep -o), their secrets have no shape the redactor knows. Each store
// of the credential table is hidden wherever it lies below a root, as it
// would be in the home; a project's own .claude settings and notes that
// name a store are not.
func TestRed12CopiedHomeStores(t *testing.T) {
	old := "Documents/old-laptop/home/ann/"
	mac := "Downloads/OldMac/Users/ann/"
	leaked := redSecretRead(t, map[string][2]string{
		old + ".kube/config":                                                  {"apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: S3CRETkubeTokenCopiedHome0012\n", "S3CRETkubeTokenCopiedHome0012"},
		old + ".config/gh/hosts.yml":                                          {"github.com:\n    oauth_token: S3CRETghOauthTokenCopied0012\n    user: ann\n", "S3CRETghOauthTokenCopied0012"},
		old + ".zsh_history":                                                  {": 1700000000:0;export OPENAI_API_KEY=S3CRETzshHistoryPasted0012\n", "S3CRETzshHistoryPasted0012"},
		old + ".mozilla/firefox/x1.default-release/logins.json":               {"{\"logins\":[{\"encryptedPassword\":\"S3CRETfirefoxLoginsCopied0012\"}]}\n", "S3CRETfirefoxLoginsCopied0012"},
		old + ".local/share/keyrings/login.keyring":                           {"GnomeKeyring\nS3CRETgnomeKeyringCopied0012\n", "S3CRETgnomeKeyringCopied0012"},
		old + ".config/op/config":                                             {"{\"accounts\":[{\"secretKey\":\"S3CRETonePasswordCliCopied0012\"}]}\n", "S3CRETonePasswordCliCopied0012"},
		mac + "Library/Application Support/Google/Chrome/Default/Preferences": {"{\"session\":\"S3CRETchromeProfileCopied0012\"}\n", "S3CRETchromeProfileCopied0012"},
		mac + "Library/Messages/chat.txt":                                     {"your code is S3CRETmessagesCopiedCode0012\n", "S3CRETmessagesCopiedCode0012"},
	}, map[string][2]string{
		"Documents/proj/.claude/settings.json": {"{\"permissions\": \"ClaudeProjectSettingsReadable0012\"}\n", "ClaudeProjectSettingsReadable0012"},
		"Documents/proj/docs/ssh-setup.md":     {"Keep keys in the folder named .ssh: SshSetupNotesReadable0012\n", "SshSetupNotesReadable0012"},
		"Documents/proj/.config/lefthook.yml":  {"pre-commit: LefthookConfigReadable0012\n", "LefthookConfigReadable0012"},
		"Documents/proj/kube/config.yaml":      {"replicas: KubeFolderNotAStore0012\n", "KubeFolderNotAStore0012"},
	})
	if len(leaked) > 0 {
		t.Fatalf("HOLE: an unasked read of the roots printed the secrets %q of a home's credential stores copied there", leaked)
	}
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

// TestRed12BuildSettingsFromParents: build tools take settings from the
// project's folder and every folder above it, so one file in ~/Documents
// reaches every project below: MSBuild imports Directory.Build.props and
// .targets (their Exec tasks run at every build, and at the design-time
// builds VS Code's C# Dev Kit and Rider run on opening the folder) and
// reads Directory.Build.rsp (-logger loads an assembly); NuGet.Config
// names where packages, and the build code they carry, come from;
// go.work's replace puts other code in every build and test; Bazelisk
// downloads and runs the Bazel .bazelversion names, a fork's release too.
// Each is held like a .bazelrc or a .cargo/config.toml; look-alike names
// land.
func TestRed12BuildSettingsFromParents(t *testing.T) {
	for _, tc := range []struct {
		name string
		held bool
	}{{"build settings taken from the folders above", true}, {"look-alikes of build settings", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRedRig(t, []string{"~/Documents"}, nil)
			argv := payload12(t, tc.name)
			if tc.held {
				r.plantsHeld(t, tc.name, argv)
				return
			}
			r.lookalikesLand(t, tc.name, argv)
		})
	}
}

// TestRed12KeysInOtherArmour: private keys whose armour is not PEM's,
// under the names their tools give them, which say nothing: age's
// identity file (age-keygen -o key.txt, as age's and sops' documentation
// write it), a WireGuard configuration (wg0.conf, and what VPN providers
// download: its [Interface]'s PrivateKey), an OpenVPN client's .conf with
// its key and static key inline, signify's secret key (key.sec) and a
// PuTTY key exported as text. Printed as base64 runs (grep -o), their
// values have no shape the redactor knows. Each is hidden from an unasked
// read; a configuration and notes beside them that hold no key are not.
func TestRed12KeysInOtherArmour(t *testing.T) {
	const (
		ageKey   = "AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGP0012"
		wgKey    = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="
		ovpnKey  = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCS3CRETovpn0012"
		staticK  = "e3b2c7d1f0a98e6d5c4b3a29180f7e6dS3CRETstatic0012"
		signify  = "RWRCSwAAAABS3CRETsignifySecretKeyBodyQUJDREVGR0hJSktMTU5PUFFS0012"
		puttyKey = "AAAAgQCS3CRETputtyPrivateLinesBodyQUJDREVGR0hJSktMTU5PUFFSU1RV0012"
	)
	leaked := redSecretRead(t, map[string][2]string{
		"Documents/infra/key.txt": {"# created: 2026-11-29T16:00:00Z\n# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n" + ageKey + "\n", ageKey[len("AGE-SECRET-KEY-"):]},
		"Downloads/ProtonVPN-NL-12.conf": {"[Interface]\n# Key for laptop\nPrivateKey = " + wgKey + "\nAddress = 10.2.0.2/32\nDNS = 10.2.0.1\n\n[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nEndpoint = 190.2.132.1:51820\n",
			wgKey[:len(wgKey)-1]},
		"Documents/vpn/client.conf": {"client\ndev tun\nremote vpn.example.com 1194\n<key>\n-----BEGIN PRIVATE KEY-----\n" + ovpnKey + "\n-----END PRIVATE KEY-----\n</key>\n<tls-crypt>\n-----BEGIN OpenVPN Static key V1-----\n" + staticK + "\n-----END OpenVPN Static key V1-----\n</tls-crypt>\n",
			ovpnKey},
		"Documents/vpn/ta.txt":      {"-----BEGIN OpenVPN Static key V1-----\n" + staticK + "\n-----END OpenVPN Static key V1-----\n", staticK},
		"Documents/release/key.sec": {"untrusted comment: signify secret key\n" + signify + "\n", signify},
		"Documents/keys/laptop.txt": {"PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: laptop\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQABAAAAgQDpublicPart\nPrivate-Lines: 1\n" + puttyKey + "\nPrivate-MAC: 0c1f\n", puttyKey},
	}, map[string][2]string{
		"Documents/infra/nginx.conf": {"server {\n  listen 80;\n  root /srv/www/PublicNginxRootFolderName0012;\n}\n", "PublicNginxRootFolderName0012"},
		"Documents/vpn/wg-notes.txt": {"PrivateKey goes in [Interface]; PublicKeyOfThePeerIsPublic0012 goes in [Peer]\n", "PublicKeyOfThePeerIsPublic0012"},
		"Documents/release/key.pub":  {"untrusted comment: signify public key\nRWQPublicSignifyKeyBodyReadable0012\n", "RWQPublicSignifyKeyBodyReadable0012"},
	})
	if len(leaked) > 0 {
		t.Fatalf("HOLE: an unasked read of the roots printed the private keys %q of files whose names say nothing", leaked)
	}
}
