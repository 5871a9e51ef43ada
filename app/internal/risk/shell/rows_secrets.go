package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Programs whose output is a secret (issue 22). Everything an action
// prints goes back to the agent, so running one is a secret read
// (Dangerous, rule secret.mint) whatever its own row says of it, and with
// any way out in the same input the secret is sent out (Destructive: the
// shell's exfiltration and the facade's combination). Encoding what they
// print (base64, xxd, rev, gzip, openssl enc) changes nothing: the read is
// rated where it happens.
//
// A mint is matched on the command's words, not on its row, so it holds
// for programs the table does not know (gh, op, heroku …) and for those it
// rates otherwise (git, aws, kubectl). Its option model: options, and the
// values of options, may stand anywhere between the subcommand's words
// (aws --profile prod configure get …), and with flags set one of those
// options must be given (kubectl config view --raw). It errs towards
// finding a mint: a subcommand's words found in order among the first
// words of the command are enough.

// mint is one way a program prints a secret.
type mint struct {
	path  []string // subcommand words in order; "x*" is any word starting with x
	flags []string // with one of these options only; none: always
	then  []string // the word after path must hold one of these (lower case); none: any
	why   string   // what it prints
}

// mints are the programs by name (lower-case base name), each with its
// ways of printing a secret.
var mints = map[string][]mint{
	"gh": {
		{path: w("auth token"), why: "prints your GitHub token"},
		{path: w("auth status"), flags: w("-t --show-token"), why: "prints your GitHub token"},
		{path: w("auth git-credential"), why: "hands out your GitHub token (git's credential helper)"},
	},
	"glab": {
		{path: w("auth status"), flags: w("-t --show-token"), why: "prints your GitLab token"},
		{path: w("config get"), then: w("token"), why: "prints your GitLab token"},
	},
	"op": {
		{path: w("read"), why: "reads a secret from 1Password"},
		{path: w("item get"), why: "prints a 1Password item"},
		{path: w("document get"), why: "prints a 1Password document"},
		{path: w("inject"), why: "fills secrets from 1Password into a template"},
		{path: w("signin"), flags: w("--raw"), why: "prints a 1Password session token"},
	},
	"aws": {
		{path: w("configure export-credentials"), why: "prints your AWS credentials"},
		{path: w("configure get"), then: w("secret key token"), why: "prints your AWS credentials"},
		{path: w("sts get-session-token"), why: "mints temporary AWS credentials"},
		{path: w("sts assume-role*"), why: "mints temporary AWS credentials"},
		{path: w("sts get-federation-token"), why: "mints temporary AWS credentials"},
		{path: w("ecr get-login-password"), why: "prints a registry password"},
		{path: w("ecr-public get-login-password"), why: "prints a registry password"},
		{path: w("codeartifact get-authorization-token"), why: "prints a registry token"},
		{path: w("secretsmanager get-secret-value"), why: "prints a secret from Secrets Manager"},
		{path: w("ssm get-parameter*"), flags: w("--with-decryption"), why: "prints decrypted SSM parameters"},
		{path: w("iam create-access-key"), why: "mints an AWS access key"},
		{path: w("kms decrypt"), why: "decrypts data with a KMS key"},
	},
	"gcloud": {
		{path: w("auth print-access-token"), why: "prints a Google Cloud access token"},
		{path: w("auth print-identity-token"), why: "prints a Google Cloud identity token"},
		{path: w("config config-helper"), why: "prints a Google Cloud access token"},
		{path: w("secrets versions access"), why: "prints a secret from Secret Manager"},
		{path: w("iam service-accounts keys create"), why: "mints a service account key"},
	},
	"git": {
		{path: w("credential fill"), why: "prints a stored git credential"},
		{path: w("credential-* get"), why: "prints a stored git credential"},
	},
	"kubectl": {
		{path: w("config view"), flags: w("--raw --flatten"), why: "prints your Kubernetes credentials"},
		{path: w("get secret*"), why: "prints Kubernetes secrets"},
		{path: w("create token"), why: "mints a Kubernetes token"},
		{path: w("view-secret"), why: "prints Kubernetes secrets"},
	},
	"oc": {
		{path: w("whoami"), flags: w("-t --show-token"), why: "prints your OpenShift token"},
		{path: w("config view"), flags: w("--raw --flatten"), why: "prints your Kubernetes credentials"},
		{path: w("get secret*"), why: "prints Kubernetes secrets"},
	},
	"heroku": {
		{path: w("auth:token"), why: "prints your Heroku token"},
		{path: w("authorizations:create"), why: "mints a Heroku token"},
		{path: w("config"), why: "prints an app's settings, its secrets among them"},
		{path: w("config:get"), why: "prints an app's setting, often a secret"},
	},
	"az": {
		{path: w("account get-access-token"), why: "prints an Azure access token"},
		{path: w("keyvault secret show"), why: "prints a Key Vault secret"},
		{path: w("keyvault secret download"), why: "saves a Key Vault secret"},
		{path: w("ad sp create-for-rbac"), why: "mints Azure credentials"},
		{path: w("ad sp credential reset"), why: "mints Azure credentials"},
		{path: w("storage account keys list"), why: "prints storage account keys"},
		{path: w("storage account show-connection-string"), why: "prints a storage connection string with its key"},
		{path: w("acr login"), flags: w("--expose-token"), why: "prints a registry token"},
		{path: w("acr credential show"), why: "prints registry passwords"},
	},
	"vault": {
		{path: w("read"), why: "reads secrets from Vault"},
		{path: w("kv get"), why: "reads secrets from Vault"},
		{path: w("write"), why: "writes to Vault, which answers with tokens or credentials"},
		{path: w("token create"), why: "mints a Vault token"},
		{path: w("print token"), why: "prints your Vault token"},
		{path: w("login"), why: "prints a Vault token"},
	},
	"bw": {
		{path: w("get"), why: "prints a Bitwarden item or password"},
		{path: w("list"), why: "prints Bitwarden items, passwords included"},
		{path: w("export"), why: "exports the Bitwarden vault"},
		{path: w("unlock"), why: "prints a Bitwarden session key"},
		{path: w("login"), why: "prints a Bitwarden session key"},
	},
	"lpass": {
		{path: w("show"), why: "prints a LastPass item"},
		{path: w("export"), why: "exports the LastPass vault"},
	},
	"npm": {
		{path: w("token create"), why: "mints an npm token"},
	},
	"secret-tool": {
		{path: w("lookup"), why: "prints a password from the keyring"},
		{path: w("search"), why: "prints passwords from the keyring"},
	},
	"keyring": {
		{path: w("get"), why: "prints a password from the keyring"},
	},
	"kwallet-query": {
		{flags: w("-r --read-password"), why: "prints a password from KWallet"},
	},
	"sops": {
		{flags: w("-d --decrypt"), why: "decrypts a secrets file"},
		{path: w("decrypt"), why: "decrypts a secrets file"},
	},
	"age":       {{flags: w("-d --decrypt"), why: "decrypts a file"}},
	"gpg":       {{flags: w("-d --decrypt"), why: "decrypts a file"}},
	"gpg2":      {{flags: w("-d --decrypt"), why: "decrypts a file"}},
	"doppler":   {{path: w("secrets"), why: "prints secrets from Doppler"}},
	"infisical": {{path: w("secrets"), why: "prints secrets from Infisical"}, {path: w("export"), why: "prints secrets from Infisical"}},
	"fly": {
		{path: w("auth token"), why: "prints your Fly.io token"},
		{path: w("tokens create"), why: "mints a Fly.io token"},
	},
	"flyctl": {
		{path: w("auth token"), why: "prints your Fly.io token"},
		{path: w("tokens create"), why: "mints a Fly.io token"},
	},
	"firebase":  {{path: w("login:ci"), why: "prints a Firebase token"}},
	"cf":        {{path: w("oauth-token"), why: "prints a Cloud Foundry token"}},
	"ibmcloud":  {{path: w("iam oauth-tokens"), why: "prints IBM Cloud tokens"}},
	"terraform": {{path: w("output"), flags: w("-raw -json"), why: "prints Terraform outputs, sensitive ones included"}},
	"stripe":    {{path: w("config"), flags: w("--list"), why: "prints your Stripe keys"}},
}

// mintPrefixes are programs named by a prefix: credential helpers, whose
// get prints the credential stored for the host read from standard input.
var mintPrefixes = []struct {
	prefix string
	ways   []mint
}{
	{"docker-credential-", []mint{{path: w("get"), why: "prints a stored registry credential"}}},
	{"git-credential-", []mint{{path: w("get"), why: "prints a stored git credential"}}},
}

// passLike are password stores whose first word names the entry to print
// unless it is one of their other commands.
var passLike = map[string][]string{
	"pass":   w("ls list find search init insert add edit rm remove delete mv rename cp copy git help version"),
	"gopass": w("ls list init setup insert create new edit rm remove delete mv move cp copy git sync config mounts recipients templates help version completion"),
}

// w splits a space-separated list.
func w(s string) []string { return strings.Fields(s) }

// mintsSecret adds a secret read when c prints a secret (see mints).
func (c *call) mintsSecret() {
	ways := mints[c.name]
	for _, p := range mintPrefixes {
		if strings.HasPrefix(c.name, p.prefix) && len(c.name) > len(p.prefix) {
			ways = p.ways
		}
	}
	var words []string
	for _, a := range c.args {
		if a.s == "--" {
			break
		}
		if !a.hole && !strings.HasPrefix(a.s, "-") {
			words = append(words, strings.ToLower(a.s))
		}
	}
	if others, ok := passLike[c.name]; ok && len(words) > 0 && !inList(words[0], others...) {
		c.mintFound("prints a password from the store")
		return
	}
	for _, m := range ways {
		if m.matches(c, words) {
			c.mintFound(m.why)
			return
		}
	}
}

func (c *call) mintFound(why string) {
	c.a.add(effect.Of(effect.ReadSecret), "secret.mint", c.span, "%s: %s, which goes back to the agent", c.name, why)
	c.a.secretAt(c.span)
}

// maxMintLead is how many words may come before a subcommand's first word:
// the values of options before it (aws --profile prod --region eu configure).
const maxMintLead = 3

// matches reports whether c, whose non-option words are words, prints a
// secret the way m says.
func (m mint) matches(c *call, words []string) bool {
	if len(m.flags) > 0 && !anyFlag(c.args, m.flags) {
		return false
	}
	i := 0
	for j, p := range m.path {
		for i < len(words) && !wordIs(words[i], p) {
			if j == 0 && i >= maxMintLead {
				return false
			}
			i++
		}
		if i == len(words) {
			return false
		}
		i++
	}
	if len(m.then) > 0 {
		if i == len(words) {
			return false
		}
		for _, t := range m.then {
			if strings.Contains(words[i], t) {
				return true
			}
		}
		return false
	}
	return true
}

// wordIs matches a word against a path element ("x*": any word starting
// with x).
func wordIs(word, p string) bool {
	if pre, ok := strings.CutSuffix(p, "*"); ok {
		return strings.HasPrefix(word, pre)
	}
	return word == p
}

// anyFlag reports one of flags among args: a long one with or without
// =value, a short one alone or among clustered short options (-rd).
func anyFlag(args []word, flags []string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "--") || len(f) > 2 {
			if hasLong(args, f) {
				return true
			}
		} else if hasShort(args, f[1]) {
			return true
		}
	}
	return false
}

// copiesLast are the programs whose last operand is where they copy,
// move or link to: written, not read.
var copiesLast = map[string]bool{"cp": true, "mv": true, "ln": true, "install": true, "ditto": true, "rsync": true, "scp": true}

// writesLast reports whether w, c's last operand, is its destination, so
// that the generic read of every operand skips it: a copy into a hidden
// place reads no secret there. A credential store is still read (and
// refused) as before.
func writesLast(name string, w word, a *shellAn) bool {
	return copiesLast[name] && a.zoneOf(w).Kind != rate.ZoneCredential
}
