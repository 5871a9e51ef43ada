//go:build linux

package execute_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		"Documents/ops/deploy.pub":     {"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5PublicKeyReadable0005 p@h\n", "AAAAC3NzaC1lZDI1NTE5PublicKeyReadable0005"},
		"Documents/ops/README":         {"opsReadmeWithoutExtensionReadable06\n", "opsReadmeWithoutExtensionReadable06"},
		"Documents/chart/Chart.yaml":   {"name: chart\ndescription: chartDescriptionReadable07\n", "chartDescriptionReadable07"},
		"Documents/svc/pyproject.toml": {"[project]\nname = \"pyprojectNameReadable0008\"\n", "pyprojectNameReadable0008"},
		"Documents/ops/bin/rollout":    {"#!/bin/sh\necho rolloutScriptWithoutPubReadable09\n", "rolloutScriptWithoutPubReadable09"},
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
	if !strings.Contains(out, "Airlock hid ~/Documents/backup.bundle") || !strings.Contains(out, "its history holds a file named .env") {
		t.Errorf("the result does not say the bundle was hidden and why: %q", out)
	}
}

// TestRed5KeyPastedInPlace: the content check runs when a folder is
// listed, and a folder is listed again only when its stamp changed. A
// settings file edited in place (VS Code and most editors save by
// truncating and writing the same inode) changes the file, not its
// folder: a TLS key the person pastes into values.yaml after the first
// unasked action is hidden from the next all the same.
func TestRed5KeyPastedInPlace(t *testing.T) {
	body := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQS3CRETpastedLater1"
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/chart/values.yaml": {"replicas: 1\n", 0o644},
		"Documents/chart/README.md":   {"chartReadmeShownToEveryRun01\n", 0o644},
	})
	time.Sleep(2100 * time.Millisecond) // past the index's racy window, so the first listing is kept
	name := "secret files known by their content, read whole"
	argv := payload4(t, name)
	if res, _, err := r.runArgv(t, name, argv, "Documents"); err != nil || !strings.Contains(res.Output, "chartReadmeShownToEveryRun01") {
		t.Fatalf("first run: %q, %v", res.Output, err)
	}
	f, err := os.OpenFile(r.p("Documents/chart/values.yaml"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("replicas: 1\ntls:\n  key: |\n    -----BEGIN PRIVATE KEY-----\n    " + body + "\n    -----END PRIVATE KEY-----\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	res, _, err := r.runArgv(t, name, argv, "Documents")
	if leaked := leakedAny(res, err, []string{body}); len(leaked) > 0 {
		t.Errorf("HOLE: a key pasted in place into a settings file after the first unasked action was printed by the next: %q", leaked)
	}
}

// TestRed5LinkToProjectOutsideHome: a link in a root to a project kept
// outside the home (a second disk mounted at /mnt/data, /srv, a shared
// folder) makes that project's .env and keys reachable, and the walks
// look only through the roots and the home, without following links: a
// grep -R of the root, unasked, follows the link into files no walk
// listed.
func TestRed5LinkToProjectOutsideHome(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"../outside/proj/.env":       {"API_TOKEN=S3CRETenvOutsideHomeViaLink01\n", 0o600},
		"../outside/proj/id_ed25519": {"S3CRETsshKeyOutsideHomeViaLink0002\n", 0o600},
		"../outside/proj/README.md":  {"readmeOutsideHomeReadable000003\n", 0o644},
		"Documents/notes/plain.md":   {"plainNotesReadableInTheRoot04\n", 0o644},
	})
	if err := os.Symlink(filepath.Join(r.base, "outside", "proj"), r.p("Documents/proj")); err != nil {
		t.Fatal(err)
	}
	name := "every base64 run, following links"
	res, _, err := r.runArgv(t, name, payloadIn(t, "red5.json", name), "Documents")
	t.Logf("%q, %v", res.Output, err)
	if !strings.Contains(res.Output, "plainNotesReadableInTheRoot04") {
		t.Fatalf("the payload did not read the root: %q, %v", res.Output, err)
	}
	if leaked := leakedAny(res, err, []string{"S3CRETenvOutsideHomeViaLink01", "S3CRETsshKeyOutsideHomeViaLink0002"}); len(leaked) > 0 {
		t.Errorf("HOLE: grep -R of the root, unasked, followed a link out of the home and printed %q", leaked)
	}
}

// TestRed5MoveHiddenAside: inside its copy-on-write view, the action moves
// the hidden files and folders aside, links or copies them, or moves the
// folder that holds them (mv proj p4), then reads them under the new
// names, and archives the root whole (tar). What is hidden stays hidden
// under every name the action gives it.
func TestRed5MoveHiddenAside(t *testing.T) {
	secrets := map[string]string{
		"Documents/.secrets/db":     "S3CRETmovedSecretsFolder01",
		"Documents/.env":            "S3CRETmovedEnvFile000002",
		"Documents/prod.pem":        "-----BEGIN RSA PRIVATE KEY-----\nS3CRETlinkedPemKey000003\n-----END RSA PRIVATE KEY-----\n",
		"Documents/proj/.env":       "S3CRETmovedParentEnv0004",
		"Documents/proj/.secrets/k": "S3CRETmovedParentFolder5",
	}
	files := map[string]redFile{"Documents/plain.md": {"plainFileBesideTheSecrets06\n", 0o644}}
	var marks []string
	for rel, s := range secrets {
		files[rel] = redFile{s, 0o600}
		marks = append(marks, strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(s, "-----END RSA PRIVATE KEY-----\n"), "-----BEGIN RSA PRIVATE KEY-----\n")))
	}
	r := newRedRig(t, []string{"~/Documents"}, files)
	name := "move the hidden out of the way, then read"
	res, _, err := r.runArgv(t, name, payloadIn(t, "red5.json", name), "Documents")
	t.Logf("%q, %v", res.Output, err)
	if !strings.Contains(res.Output, "plainFileBesideTheSecrets06") {
		t.Fatalf("the payload did not read the root: %q, %v", res.Output, err)
	}
	if leaked := leakedAny(res, err, marks); len(leaked) > 0 {
		t.Errorf("HOLE: moved, linked or copied aside, the hidden files were printed unasked: %q", leaked)
	}
}
