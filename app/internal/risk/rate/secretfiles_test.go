package rate_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// TestSecretFile: the names that say a file holds a secret, wherever it
// lies, and their look-alikes that do not.
func TestSecretFile(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{".env", true},
		{"proj/.env", true},
		{"/Users/me/Documents/proj/.env.production", true},
		{"deploy/prod.env", true},
		{".ENV", true},
		{"~/Documents/id_ed25519", true},
		{"keys/id_rsa", true},
		{"server.key", true},
		{"certs/privkey.pem", true},
		{"server-key.pem", true},
		{"aws/my-keypair.pem", true},
		{"AuthKey_ABC123.p8", true},
		{"me.p12", true},
		{"release.keystore", true},
		{"vault.kdbx", true},
		{"credentials", true},
		{"client_secret_1234.apps.googleusercontent.com.json", true},
		{"service-account-prod.json", true},
		{"config/master.key", true},
		{"infra/terraform.tfstate", true},
		{"prod.tfvars", true},
		{".netrc", true},
		{".pgpass", true},
		// A fourth red team's (TestRedNextSecretNames in package execute).
		{"Downloads/alice_accessKeys.csv", true},
		{"accessKeys.csv", true},
		{"rootkey.csv", true},
		{"credentials.csv", true},
		{"proj/.envrc", true},
		{".dev.vars", true},
		{"web/.npmrc", true},
		{".yarnrc.yml", true},
		{"keys/deploy_ed25519", true},
		{"github_rsa", true},
		{"office.ovpn", true},
		{"kubeconfig", true},
		{"prod.kubeconfig", true},
		{"android/key.properties", true},
		{"keystore.properties", true},
		{".s3cfg", true},
		{".boto", true},
		{".my.cnf", true},
		{"rclone.conf", true},
		{".terraformrc", true},
		{"credentials.tfrc.json", true},
		{".vault-token", true},
		{"Downloads/Chrome Passwords.csv", true},
		{"Passwords.csv", true},
		{"logins.csv", true},
		{"bitwarden_export_20260101.json", true},
		{"vault.1pux", true},
		{"app.example.com.har", true},
		{"application_default_credentials.json", true},
		{"credentials.toml", true},
		{"login.keychain-db", true},
		// A sixth red team's (TestRed4SecretNamesOfFrameworks in package
		// execute).
		{"site/wp-config.php", true},
		{"fn/local.settings.json", true},
		{"php/auth.json", true},
		{".sentryclirc", true},
		{"secrets/db_password.txt", true},
		{"db_root_password.txt", true},
		{"github_token.txt", true},
		{"api_key.txt", true},
		{"stripe-key.txt", true},
		{"apikey.txt", true},
		{"jwt.secret", true},
		{"k8s/db-secret.yaml", true},
		{"secret.yml", true},
		{"password.txt", true},
		{"token.txt", true},
		{"dir/", false},

		{".env.example", false},
		{".env.sample", false},
		{".envrc.example", false},
		{"deploy_ed25519.pub", false},
		{"github_rsa.pub", false},
		{"_rsa", false},
		{"kubeconfig.md", false},
		{"accessKeys.csv.md", false},
		{"gradle.properties", false},
		{"my.cnf", false},
		{".yarnrc", false},
		{"rclone.conf.example", false},
		{"passwords.csv.md", false},
		{"logins.css", false},
		{"harness.go", false},
		{"credentials.md", false},
		{"environment.yml", false},
		{"id_ed25519.pub", false},
		{"server.pem", false},
		{"fullchain.pem", false},
		{"key.go", false},
		{"keyboard.txt", false},
		{"monkey.pem.txt", false},
		{"monkey.txt", false},
		{"turkey.txt", false},
		{"wp-config-sample.php", false},
		{"password-policy.md", false},
		{"secret-rotation.md", false},
		{"tokenizer.txt", false},
		{"oauth.json.md", false},
		{"secrets.go", false},
		{".secret", false},
		{"package.json", false},
		{".key", false},
		{"", false},
		{".", false},
	} {
		what, got := rate.SecretFile(tt.in)
		if got != tt.want {
			t.Errorf("SecretFile(%q) = %q, %v; want %v", tt.in, what, got, tt.want)
		}
		if got && what == "" {
			t.Errorf("SecretFile(%q) says nothing of what it holds", tt.in)
		}
	}
}

// TestSecretFolder: an envdir and the folders named for secrets are
// secret whole; a virtual environment .env, a package secrets and the
// templates are not.
func TestSecretFolder(t *testing.T) {
	for name, want := range map[string]bool{
		".env.d": true, ".ENV.D": true, ".secrets": true, "secrets.d": true, "/home/a/proj/.env.d/": true,
		".env": false, "secrets": false, ".env.example": false, ".secretsfoo": false, "my.secrets": false, "": false,
	} {
		if _, got := rate.SecretFolder(name); got != want {
			t.Errorf("SecretFolder(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestCopiedStore: a home's credential stores below any folder, in any
// case; a project's own folders of the same names and look-alikes are not.
func TestCopiedStore(t *testing.T) {
	for in, want := range map[string]bool{
		"/home/u/Documents/old/.ssh": true, "/b/old/.kube/config": false, "/b/old/.kube": true, "/b/old/.Config/GH": true,
		"/b/old/.zsh_history": true, "/b/OldMac/Library/Application Support/Google/Chrome": true, ".netrc": true,
		"/b/proj/.claude": false, "/b/proj/.docker": false, "/b/proj/.azure": false, "/b/proj/gh": false,
		"/b/proj/.config": false, "/b/proj/my.ssh": false, "/b/proj/kube": false, "": false,
	} {
		if _, got := rate.CopiedStore(in); got != want {
			t.Errorf("CopiedStore(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestEnvironmentFile: the environment files tools load into what they
// run, and names that are not (templates, look-alikes).
func TestEnvironmentFile(t *testing.T) {
	for in, want := range map[string]bool{
		".env": true, "proj/.env.local": true, "/a/.ENV.Production": true, "prod.env": true, "api/.flaskenv": true,
		".env.example": false, "example.env": false, ".envrc": false, "env.ts": false, ".environment": false, "": false,
	} {
		if got := rate.EnvironmentFile(in); got != want {
			t.Errorf("EnvironmentFile(%q) = %v, want %v", in, got, want)
		}
	}
}
