//go:build linux

package execute_test

import (
	"os"
	"strings"
	"testing"
)

// A seventh red team's attacks (round 5 of the brief) on what is hidden
// from an unasked action: keys in files of kinds the content check did
// not read, and a secret's git history kept where the walk does not look
// for a repository. Each runs unasked through the real sandbox in a home
// made in a temporary folder.

// TestRed5KeysOfOtherKinds: private keys the content check skipped by
// their kind. ssh-keygen -f deploy writes the key as deploy, without an
// extension, beside deploy.pub (the name the person gave it, not id_*),
// and a Helm values file, an Ansible variables file or a service's TOML
// settings hold a TLS or SSH key inline, as a PEM block in a multi-line
// string. Printed as base64 runs (grep -o), without the armour lines,
// the redactor does not know them. Each is hidden; the public key beside
// the first, a script without an extension and with no .pub beside it, and
// YAML without a key are not.
func TestRed5KeysOfOtherKinds(t *testing.T) {
	sshBody := "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQS3CRETsshKeygenBody0001"
	yamlBody := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQS3CRETyamlBody02"
	ymlBody := "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQS3CRETansibleVarsBody03"
	tomlBody := "MHcCAQEEIGS3CRETtomlEcKeyBodyAoGCCqGSM49AwEHoUQDQgAEtomlBody00004"
	leaked := redSecretRead(t, map[string][2]string{
		"Documents/ops/deploy": {"-----BEGIN OPENSSH PRIVATE KEY-----\n" + sshBody + "\n-----END OPENSSH PRIVATE KEY-----\n", sshBody},
		"Documents/chart/values.yaml": {"ingress:\n  tls:\n    cert: |\n      " + strings.TrimSpace(pemCert) + "\n    key: |\n" +
			"      -----BEGIN PRIVATE KEY-----\n      " + yamlBody + "\n      -----END PRIVATE KEY-----\n", yamlBody},
		"Documents/ansible/group_vars/all.yml": {"deploy_user: ops\nssh_private_key: |\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  " + ymlBody +
			"\n  -----END OPENSSH PRIVATE KEY-----\n", ymlBody},
		"Documents/svc/config.toml": {"[tls]\nkey = \"\"\"\n-----BEGIN EC PRIVATE KEY-----\n" + tomlBody + "\n-----END EC PRIVATE KEY-----\n\"\"\"\n", tomlBody},
	}, map[string][2]string{
		"Documents/ops/deploy.pub":        {"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5PublicKeyReadable0005 p@h\n", "AAAAC3NzaC1lZDI1NTE5PublicKeyReadable0005"},
		"Documents/ops/README":            {"opsReadmeWithoutExtensionReadable06\n", "opsReadmeWithoutExtensionReadable06"},
		"Documents/chart/Chart.yaml":      {"name: chart\ndescription: chartDescriptionReadable07\n", "chartDescriptionReadable07"},
		"Documents/svc/pyproject.toml":    {"[project]\nname = \"pyprojectNameReadable0008\"\n", "pyprojectNameReadable0008"},
		"Documents/ops/bin/rollout":       {"#!/bin/sh\necho rolloutScriptWithoutPubReadable09\n", "rolloutScriptWithoutPubReadable09"},
	})
	if len(leaked) > 0 {
		t.Errorf("HOLE: an unasked read of the roots printed the private keys %q", leaked)
	}
}

// gitSecretBundle is the secret of the bundle's history.
const gitSecretBundle = "S3CRET-git-bundle-19"

// TestRed5GitBundle: git bundle create backup.bundle --all is git's own
// way to keep a repository's whole history in one file (a backup, or a
// repository carried offline). The repository whose history named .env
// is gone; its bundle is in the root, a file no walk takes for a
// repository, and git clone reads it unasked: git log -p prints the .env
// the first commit held.
func TestRed5GitBundle(t *testing.T) {
	t.Skip("open hole: a git bundle (a file opening \"# v2 git bundle\" or \"# v3 git bundle\", usually *.bundle) " +
		"holds a pack whose trees may name a secret file; fix: in the roots' listing (rootlinks.go walkLocked), " +
		"read the first line of each *.bundle file, and hand a bundle to gitStores as a store of one pack " +
		"(its pack starts after the header's blank line, with no .idx: read it as gitpack.go reads a pack without its index), " +
		"hiding the file when a tree in it names a secret file, or when it cannot be read")
	r := newRedRig(t, []string{"~/Documents"}, nil)
	r.secretRepo(t, "Documents/proj", ".env", gitSecretBundle)
	r.git(t, "Documents/proj", "bundle", "create", "-q", "../backup.bundle", "--all")
	if err := os.RemoveAll(r.p("Documents/proj")); err != nil {
		t.Fatal(err)
	}
	name := "a bundle's history, cloned and logged"
	res, _, err := r.runArgv(t, name, payloadIn(t, "red5.json", name), "Documents")
	out := res.Output
	if err != nil {
		out += "\n" + err.Error()
	}
	if !strings.Contains(out, "TOKEN=") && !strings.Contains(out, "hid") {
		t.Fatalf("the payload did not clone the bundle: %q", out)
	}
	if strings.Contains(out, gitSecretBundle) {
		t.Errorf("HOLE: git clone of a bundle in the root, unasked, printed the .env its history holds: %q", out[max(0, len(out)-600):])
	}
}
