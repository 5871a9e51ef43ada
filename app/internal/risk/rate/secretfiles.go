package rate

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Files whose name says they hold a secret, wherever they are: a project's
// .env, a private key beside a server's configuration, a keystore. The
// sandbox lets an unasked action read a sandbox root whole, and the
// redactor knows a secret only by its shape: a password whose key names it
// (DB_PASSWORD=…) loses that shape when a command prints the value alone
// (cut -d= -f2), and any secret does when it is printed one character a
// line (grep -o .), spaced (od -c) or in wide characters (iconv). So
// reading such a file is a secret read in every language, as a hidden
// file of the home is, and asks first.
//
// What this cannot see: a name computed at run time or matched by a glob
// (grep -o . $f), and a folder read whole (grep -r . proj); those need
// the sandbox to hide such files from an unasked action.

// secretFile is one entry of the table: a file name (lower case) or,
// starting with "*", a suffix of one, or, ending in "*", a prefix.
type secretFile struct {
	name string
	what string
}

// secretFiles are the names, each with what such a file holds.
var secretFiles = []secretFile{
	// Environment files: the usual home of an application's passwords and
	// API keys (dotenv, docker compose, direnv's dotenv).
	{".env", "an environment file (passwords and API keys)"},
	{".env.*", "an environment file (passwords and API keys)"},
	{"*.env", "an environment file (passwords and API keys)"},
	// Private keys, by OpenSSH's default names and the usual extensions.
	{"id_rsa", "an SSH private key"},
	{"id_dsa", "an SSH private key"},
	{"id_ecdsa", "an SSH private key"},
	{"id_ed25519", "an SSH private key"},
	{"id_ecdsa_sk", "an SSH private key"},
	{"id_ed25519_sk", "an SSH private key"},
	// A .pem is as often a certificate, public and printed to be read
	// (openssl x509 -text): only the names that say key count.
	{"*key.pem", "a private key (PEM)"},
	{"*keypair.pem", "a private key (PEM: a cloud provider's key pair)"},
	{"*private.pem", "a private key (PEM)"},
	{"*.key", "a private key"},
	{"*.p8", "a private key (PKCS #8: App Store Connect, APNs)"},
	{"*.ppk", "a PuTTY private key"},
	// Keystores and password databases.
	{"*.p12", "a key store (PKCS #12)"},
	{"*.pfx", "a key store (PKCS #12)"},
	{"*.jks", "a Java key store"},
	{"*.keystore", "a key store"},
	{"*.kdbx", "a KeePass password database"},
	// Credential files tools write in clear.
	{".netrc", "machine passwords (netrc)"},
	{"_netrc", "machine passwords (netrc)"},
	{".pgpass", "PostgreSQL passwords"},
	{".git-credentials", "stored git credentials"},
	{".pypirc", "PyPI tokens"},
	{".htpasswd", "password hashes (htpasswd)"},
	{"credentials", "credentials (the AWS CLI's shape)"},
	{"credentials.json", "credentials (OAuth client secrets, service account keys)"},
	{"client_secret*", "an OAuth client secret"},
	{"service-account*.json", "a cloud service account's private key"},
	{"secrets.json", "an application's secrets"},
	{"secrets.yml", "an application's secrets"},
	{"secrets.yaml", "an application's secrets"},
	{"secrets.toml", "an application's secrets"},
	{"master.key", "a Rails master key (it decrypts the app's credentials)"},
	{"*.tfstate", "Terraform state (it keeps every secret the infrastructure has, in clear)"},
	{"*.tfstate.backup", "Terraform state (it keeps every secret the infrastructure has, in clear)"},
	{"*.tfvars", "Terraform variables (passwords and tokens given to the infrastructure)"},
	// A fourth red team's finds (TestRedNextSecretNames): the same kinds
	// of file by the names other tools and consoles give them.
	// What a cloud console downloads, into ~/Downloads: a sandbox root.
	{"accesskeys.csv", "a cloud account's access keys, as the AWS console downloads them"},
	{"*_accesskeys.csv", "a cloud account's access keys, as the AWS console downloads them"},
	{"rootkey.csv", "the AWS root account's access keys, as the console downloads them"},
	{"credentials.csv", "credentials, as the AWS console downloads them"},
	// Environment files by other names: direnv's (people export their
	// tokens there) and Cloudflare Wrangler's local secrets.
	{".envrc", "a direnv file (it exports the folder's tokens and passwords)"},
	{".dev.vars", "Wrangler's local secrets"},
	// Registry tokens kept in a project's settings.
	{".npmrc", "npm settings (registry tokens: _authToken)"},
	{".yarnrc.yml", "yarn settings (registry tokens: npmAuthToken)"},
	// Private keys by a name of their own (deploy_ed25519, github_rsa);
	// their .pub stays readable.
	{"*_rsa", "an SSH private key"},
	{"*_dsa", "an SSH private key"},
	{"*_ecdsa", "an SSH private key"},
	{"*_ed25519", "an SSH private key"},
	// A red team's finds (TestRed13KeysByOtherNames): the names tools
	// give keys that are no PEM text (binary, or armour of their own).
	{"ssh_host_*_key", "an SSH server's private host key"},
	{"*.keytab", "a Kerberos keytab (long-term keys: as good as the passwords)"},
	{"secring.gpg", "a GnuPG secret keyring"},
	{"hs_ed25519_secret_key", "a Tor onion service's private key"},
	{"*.ovpn", "an OpenVPN profile (it usually holds its private key inline)"},
	// Other tools' credential files, written in clear.
	{"kubeconfig", "a Kubernetes client configuration (tokens and client keys)"},
	{"*.kubeconfig", "a Kubernetes client configuration (tokens and client keys)"},
	{"key.properties", "an Android app's signing passwords (Flutter's name)"},
	{"keystore.properties", "an Android app's signing passwords"},
	{".s3cfg", "s3cmd's access keys"},
	{".boto", "boto's and gsutil's access keys"},
	{".passwd-s3fs", "s3fs's access keys"},
	{"passwd-s3fs", "s3fs's access keys"},
	{".my.cnf", "MySQL client passwords"},
	{"rclone.conf", "rclone's remotes' tokens and passwords"},
	{".terraformrc", "Terraform CLI credentials (Terraform Cloud tokens)"},
	{"terraform.rc", "Terraform CLI credentials (Terraform Cloud tokens)"},
	{"credentials.tfrc.json", "Terraform CLI credentials (Terraform Cloud tokens)"},
	{".vault-token", "a HashiCorp Vault token"},
	{"*credentials.json", "credentials (gcloud's application default credentials and the like)"},
	{"credentials.toml", "credentials (Cargo's and uv's registry tokens)"},
	// What browsers and password managers export, by the names they give
	// it, into ~/Downloads: the person's saved passwords in clear, and a
	// HAR's requests with their cookies and authorization headers.
	{"passwords.csv", "saved passwords exported in clear (Safari, Chrome)"},
	{"*passwords.csv", "saved passwords exported in clear (Chrome's \"Chrome Passwords.csv\")"},
	{"logins.csv", "saved passwords exported in clear (Firefox)"},
	{"bitwarden_export*", "a Bitwarden vault exported"},
	{"*.1pux", "a 1Password vault exported"},
	{"*.1pif", "a 1Password vault exported"},
	{"*.har", "an HTTP archive (every request's cookies and authorization headers)"},
	{"*.keychain", "a macOS keychain"},
	{"*.keychain-db", "a macOS keychain"},
	// A sixth red team's finds (TestRed4SecretNamesOfFrameworks): the
	// files a framework or tool keeps its passwords in, by the name it
	// gives them.
	{"wp-config.php", "WordPress's settings (the database password and the salts)"},
	{"local.settings.json", "Azure Functions' local settings (storage keys and connection strings)"},
	{"auth.json", "credentials (Composer's registry passwords and tokens; agents' logins)"},
	{".sentryclirc", "sentry-cli's settings (an auth token)"},
	// Names that say secret at their end: a password, token, key or
	// secret kept alone in a file, as Docker Compose's documentation names
	// its secret files (db_password.txt), and Kubernetes Secret manifests
	// (their values only base64).
	{"password.txt", "a password kept in a file"},
	{"*password.txt", "a password kept in a file (Docker Compose's secret files)"},
	{"passwords.txt", "passwords kept in a file"},
	{"*passwords.txt", "passwords kept in a file"},
	{"token.txt", "a token kept in a file"},
	{"*token.txt", "a token kept in a file"},
	{"apikey.txt", "an API key kept in a file"},
	{"*_key.txt", "a key kept in a file (an API or licence key)"},
	{"*-key.txt", "a key kept in a file (an API or licence key)"},
	{"*apikey.txt", "an API key kept in a file"},
	{"*.secret", "a secret kept in a file"},
	{"secret.yaml", "a Kubernetes Secret manifest (its values only base64)"},
	{"secret.yml", "a Kubernetes Secret manifest (its values only base64)"},
	{"*-secret.yaml", "a Kubernetes Secret manifest (its values only base64)"},
	{"*-secret.yml", "a Kubernetes Secret manifest (its values only base64)"},
	{"*_secret.yaml", "a Kubernetes Secret manifest (its values only base64)"},
	{"*_secret.yml", "a Kubernetes Secret manifest (its values only base64)"},
	// A pattern's "*" stands for at least one character, so the bare
	// names a pattern was written around need rows of their own
	// (service-account.json is what a console download is often renamed).
	{"private.pem", "a private key (PEM)"},
	{"key.pem", "a private key (PEM)"},
	{"keypair.pem", "a private key (PEM: a cloud provider's key pair)"},
	{"service-account.json", "a cloud service account's private key"},
	{"wallet.dat", "a cryptocurrency wallet (Bitcoin Core's: its private keys)"},
	{"recovery-codes.txt", "two-factor recovery codes (each signs in without the second factor)"},
	{"*recovery-codes.txt", "two-factor recovery codes (each signs in without the second factor)"},
	{"*recovery_codes.txt", "two-factor recovery codes (each signs in without the second factor)"},
	{"backup-codes.txt", "two-factor backup codes (each signs in without the second factor)"},
	{"backup-codes*.txt", "two-factor backup codes (each signs in without the second factor)"},
}

// notSecretFiles are names the table's patterns would match that are known
// to hold no secret: templates of environment files, committed to be
// copied and filled in.
var notSecretFiles = []string{".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", "example.env", "sample.env"}

// SecretFile says what a file named like the last element of p holds, when
// its name says it holds a secret (secretFiles). p may be relative or
// absolute; only its last element counts.
func SecretFile(p string) (what string, ok bool) {
	base := strings.ToLower(path.Base(strings.TrimRight(p, "/")))
	if base == "" || base == "." || base == "/" {
		return "", false
	}
	if what, ok := secretName(base); ok {
		return what, true
	}
	if orig := OriginalName(base); orig != base {
		if what, ok := secretName(orig); ok {
			return what + ", kept under a copy's or backup's name", true
		}
	}
	// A dot before the name: Vim's swap file of id_rsa is .id_rsa.swp
	// (it adds the dot to a name without one), and a hidden twin of a
	// secret's name is as much one. The exceptions are names as they are
	// (.env.example), not with a dot before them.
	if rest, ok := strings.CutPrefix(base, "."); ok && rest != "" {
		if what, ok := secretPattern(rest); ok {
			return what + ", kept under a hidden twin's name", true
		}
		if what, ok := secretPattern(OriginalName(rest)); ok {
			return what + ", kept under a copy's or backup's name", true
		}
	}
	return "", false
}

// secretName is SecretFile of base, a lower-case name, by the table alone.
func secretName(base string) (string, bool) {
	if slices.Contains(notSecretFiles, base) {
		return "", false
	}
	return secretPattern(base)
}

// secretPattern is what the table's pattern that base matches says it
// holds, its exceptions aside.
func secretPattern(base string) (string, bool) {
	for _, f := range secretFiles {
		if matchSecretName(f.name, base) {
			return f.what, true
		}
	}
	return "", false
}

// A secret file has twins whose names say so only to a person: the backup
// an editor leaves beside it when it saves (Emacs and Vim: .env~), the
// copies people keep (server.key.bak, prod.pem.old, id_rsa.1), the
// Finder's duplicate (".env copy", "key copy.pem"), a browser's second
// download ("key (1).pem") and another system's copy ("Copy of .env").
// Each holds what the file does (a red team's find,
// TestRed13SecretsUnderBackupNames), so SecretFile judges it by the name
// it copies (OriginalName). So do the numbered backups of GNU's tools and
// Emacs (.env.~1~) and the swap files Vim keeps while a file is edited,
// left behind when it ends unsaved (.env.swp, .id_rsa.swp: Vim adds a dot
// before a name without one), each holding the file's text (the
// fourteenth team's find, TestRed14SecretsUnderEditorNames), and Emacs's
// auto-save files and locks (#.env#, .#.env: cutEmacs;
// TestHoles16SecretsUnderEmacsNames).

// BackupEnds are what is added at the end of a name to keep a copy of
// the file (lower case), Vim's swap files' ends among them; a "." and
// digits (.1, .2) are too, and a numbered backup's end (NumberedBackup).
var BackupEnds = []string{"~", ".bak", ".old", ".orig", ".save", ".sav", ".backup", ".prev", ".copy", ".tmp", ".swp", ".swo", ".swn"}

// NumberedBackup is how GNU cp, mv and install (--backup=numbered) and
// Emacs (version-control) end a numbered backup's name: ".~" digits "~"
// (.env.~1~).
const NumberedBackup = ".~"

// cutNumbered takes a numbered backup's end (.~12~) off base, leaving
// something.
func cutNumbered(base string) (string, bool) {
	rest, ok := strings.CutSuffix(base, "~")
	if !ok {
		return base, false
	}
	i := strings.LastIndex(rest, NumberedBackup)
	if i <= 0 || !allDigits(rest[i+len(NumberedBackup):]) {
		return base, false
	}
	return rest[:i], true
}

// CopyMarks are what the Finder, browsers and people put at the end of a
// name, or before its extension, for a copy (lower case); " copy" may be
// followed by a blank and digits, and " (" digits ")" is one too.
var CopyMarks = []string{" copy", "-copy", "_copy"}

// CopyOfPrefix starts the name of a copy other systems make ("Copy of
// .env"), lower case.
const CopyOfPrefix = "copy of "

// OriginalName returns the name base (lower case) is a copy or backup of,
// by Emacs's lock and auto-save marks (cutEmacs), BackupEnds, CopyMarks
// and CopyOfPrefix, all taken off, or base when it is none.
func OriginalName(base string) string {
	// Emacs's marks are outermost, once: it locks or auto-saves a copy
	// or a backup (#.env~#), not the other way round.
	base, _ = cutEmacs(base)
	for changed := true; changed; {
		changed = false
		if s, ok := cutNumbered(base); ok {
			base, changed = s, true
		}
		for _, end := range BackupEnds {
			if s, ok := strings.CutSuffix(base, end); ok && s != "" {
				base, changed = s, true
			}
		}
		if i := strings.LastIndexByte(base, '.'); i > 0 && i+1 < len(base) && allDigits(base[i+1:]) {
			base, changed = base[:i], true
		}
		if s, ok := strings.CutPrefix(base, CopyOfPrefix); ok && s != "" {
			base, changed = s, true
		}
		if s, ok := cutCopyMark(base); ok {
			base, changed = s, true
		}
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			if s, ok := cutCopyMark(base[:i]); ok {
				base, changed = s+base[i:], true
			}
		}
	}
	return base
}

// EmacsLock and EmacsAutoSave are how Emacs names the files it keeps
// beside one being edited: its lock ".#" before the name (a link, or a
// file where links cannot be made), and its auto-save file, "#" around
// the name, which holds the text as typed and is left behind when Emacs
// ends unsaved (#.env#). Its backup, name~, is among BackupEnds.
const (
	EmacsLock     = ".#"
	EmacsAutoSave = "#"
)

// cutEmacs takes Emacs's lock or auto-save marks (EmacsLock,
// EmacsAutoSave) off base, leaving something.
func cutEmacs(base string) (string, bool) {
	if s, ok := strings.CutPrefix(base, EmacsLock); ok && s != "" {
		return s, true
	}
	if len(base) > 2 && strings.HasPrefix(base, EmacsAutoSave) && strings.HasSuffix(base, EmacsAutoSave) {
		return base[1 : len(base)-1], true
	}
	return base, false
}

// cutCopyMark takes a copy's mark (CopyMarks, " copy 2", " (1)") off the
// end of s, leaving something.
func cutCopyMark(s string) (string, bool) {
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, " ("); i > 0 && allDigits(s[i+2:len(s)-1]) {
			return s[:i], true
		}
	}
	t := s
	if d := strings.TrimRight(s, "0123456789"); d != s {
		var blank bool
		if t, blank = strings.CutSuffix(d, " "); !blank || !strings.HasSuffix(t, " copy") {
			return s, false
		}
	}
	for _, m := range CopyMarks {
		if r, ok := strings.CutSuffix(t, m); ok && r != "" {
			return r, true
		}
	}
	return s, false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// A copy of a home (the old laptop's home copied into ~/Documents, a
// backup unpacked into ~/Downloads) holds the home's credential stores
// under the same paths, where neither the home's hidden entries nor the
// names above cover them (~/.kube/config, ~/.config/gh/hosts.yml, a
// Firefox profile's logins.json, ~/.zsh_history). So the credential store
// table (sanitize.CredentialStores) also holds below any folder: a path
// whose last elements are an entry's is that store, copied (a red team's
// find, TestRed12CopiedHomeStores).

// projectStores are the entries of the table whose folder a project has
// of its own, with its settings rather than a home's secrets (a project's
// .claude/settings.json and commands, .docker's Dockerfiles, .azure's
// azd environments): in a copy they stay visible; what of them holds a
// secret has a name above (.credentials.json, auth.json, .env).
var projectStores = []string{".claude", ".codex", ".docker", ".azure"}

// copiedStores are the table's entries, relative to the home, lower case
// and with "/" between elements, by their last element.
var copiedStores = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, p := range CopiedStorePatterns() {
		low := strings.ToLower(p)
		out[path.Base(low)] = append(out[path.Base(low)], low)
	}
	return out
})

// CopiedStorePatterns returns the entries of the credential store table
// that hold below any folder (CopiedStore), relative to the home and with
// "/" between elements (".ssh", ".config/gh", "Library/Messages"), in
// table order.
func CopiedStorePatterns() []string {
	var out []string
	for _, p := range sanitize.CredentialStores("/") {
		rel := strings.TrimPrefix(filepath.ToSlash(p), "/")
		if rel == "" || slices.Contains(projectStores, strings.SplitN(rel, "/", 2)[0]) {
			continue
		}
		out = append(out, rel)
	}
	return out
}

// CopiedStore reports whether p, a file or folder, is a credential store
// of a home wherever it lies: its last elements are an entry of the table
// (CopiedStorePatterns), compared without case. p is a path with "/"
// between elements; what is under a store is in it, and its caller hides
// the store whole.
func CopiedStore(p string) (what string, ok bool) {
	p = strings.TrimRight(p, "/")
	stores := copiedStores()[strings.ToLower(path.Base(p))]
	if len(stores) == 0 {
		return "", false // most names: no store ends in them
	}
	low := strings.ToLower(p)
	for _, e := range stores {
		if low == e || strings.HasSuffix(low, "/"+e) {
			return "a copy of a home's credential store (~/" + e + ")", true
		}
	}
	return "", false
}

// CopiedStoreAt is CopiedStore of the entry name of the folder dir, for a
// walk that lists many: the path is joined only when a store ends in name.
func CopiedStoreAt(dir, name string) (what string, ok bool) {
	if len(copiedStores()[strings.ToLower(name)]) == 0 {
		return "", false
	}
	return CopiedStore(filepath.ToSlash(filepath.Join(dir, name)))
}

// envFiles are the names of environment files (lower case, in
// secretFiles' form): the files dotenv loaders read into the environment
// of what they run, and shells source; Flask's CLI loads .flaskenv too.
var envFiles = []string{".env", ".env.*", "*.env", ".flaskenv"}

// EnvironmentFile reports whether the last element of p names an
// environment file (.env, .env.local, prod.env), which tools load into the
// environment of the programs they start (bun, pipenv, Next.js, VS Code's
// Python extension, direnv's dotenv) and shells source (oh-my-zsh's dotenv
// plugin); the templates of notSecretFiles (.env.example) are not.
func EnvironmentFile(p string) bool {
	base := strings.ToLower(path.Base(strings.TrimRight(p, "/")))
	if slices.Contains(notSecretFiles, base) {
		return false
	}
	return slices.ContainsFunc(envFiles, func(pat string) bool { return matchSecretName(pat, base) })
}

// EnvironmentFilePatterns returns envFiles, in SecretFilePatterns' form,
// for a sandbox that refuses writing them by name (macOS, which cannot
// look at what is written: sandbox/seatbelt_unasked.go).
func EnvironmentFilePatterns() []string { return slices.Clone(envFiles) }

// matchSecretName matches base against one entry: a whole name, a suffix
// ("*.pem"), a prefix (".env.*", "client_secret*") or both ("service-account*.json").
func matchSecretName(pat, base string) bool {
	pre, suf, star := strings.Cut(pat, "*")
	if !star {
		return base == pat
	}
	return len(base) > len(pre)+len(suf) && strings.HasPrefix(base, pre) && strings.HasSuffix(base, suf)
}

// SecretFilePatterns returns the table's names for the sandbox, which
// refuses them by name (sandbox/seatbelt_unasked.go): each a whole name, a
// suffix ("*.key"), a prefix (".env.*") or both ("service-account*.json"),
// "*" standing for at least one character, lower case; and the names the
// patterns match that are no secret (templates: .env.example). A file is
// secret when its name, in lower case, matches a pattern and is none of the
// exceptions: what SecretFile says.
func SecretFilePatterns() (patterns, exceptions []string) {
	for _, f := range secretFiles {
		patterns = append(patterns, f.name)
	}
	return patterns, append([]string(nil), notSecretFiles...)
}

// secretFolders are folders whose name says everything in them is a
// secret, whatever the files' own names: an envdir (envdir and s6-envdir
// read .env.d/DB_PASSWORD as the variable DB_PASSWORD: one file a
// value) and the folders people keep keys and passwords in. A folder .env
// is not among them: it is as often a Python virtual environment, and a
// folder secrets (no dot) is as often a package of code about secrets.
var secretFolders = []secretFile{
	{".env.d", "an environment folder (one file a variable: passwords and API keys)"},
	{".secrets", "a folder of secrets"},
	{"secrets.d", "a folder of secrets"},
}

// SecretFolder reports whether p's last element names a folder whose
// files are all secrets (secretFolders), and what it holds. The sandbox
// hides such a folder whole from an unasked action (execute's walks; on
// macOS a Seatbelt rule per name, SecretFolderPatterns).
func SecretFolder(p string) (what string, ok bool) {
	base := strings.ToLower(path.Base(strings.TrimRight(p, "/")))
	if slices.Contains(notSecretFiles, base) {
		return "", false
	}
	for _, f := range secretFolders {
		if matchSecretName(f.name, base) {
			return f.what, true
		}
	}
	return "", false
}

// SecretFolderPatterns returns secretFolders' names, in SecretFilePatterns'
// form, and the same exceptions.
func SecretFolderPatterns() (patterns, exceptions []string) {
	for _, f := range secretFolders {
		patterns = append(patterns, f.name)
	}
	return patterns, append([]string(nil), notSecretFiles...)
}
