package execute

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPrivateKeyOtherArmour: the armour of keys that are not PEM's is a
// key too; public keys, notes and configurations without one are not.
func TestPrivateKeyOtherArmour(t *testing.T) {
	for _, c := range []struct {
		text string
		key  bool
	}{
		{"# public key: age1ql3z\nAGE-SECRET-KEY-1QYQSZQGPQYQSZQGP\n", true},
		{"[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n", true},
		{"[Interface]\n  privatekey=yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\r\n", true},
		{"<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\ne3b2\n", true},
		{"untrusted comment: signify secret key\nRWRCSwAA\n", true},
		{"untrusted comment: minisign encrypted secret key\nRWRTY0Iy\n", true},
		{"PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 2\nAAAA\nPrivate-Lines: 1\nAAAA\n", true},
		{"-----BEGIN PRIVATE KEY-----\nMIIE\n", true},
		{"age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n", false},
		{"[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n", false},
		{"PrivateKey = <paste your key here>\n", false},
		{"untrusted comment: signify public key\nRWQP\n", false},
		{"Private-Lines: 1\n", false}, // no PuTTY key file
		{"server {\n  listen 80;\n}\n", false},
		{"", false},
	} {
		if got := privateKey([]byte(c.text)); got != c.key {
			t.Errorf("privateKey(%q) = %v, want %v", c.text, got, c.key)
		}
	}
}

// TestPEMPrivateKey: the armour of every private key form opens a key;
// certificates, public keys and the words in prose do not.
func TestPEMPrivateKey(t *testing.T) {
	for _, c := range []struct {
		text string
		key  bool
	}{
		{"-----BEGIN PRIVATE KEY-----\nMIIE\n", true},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n", true},
		{"-----BEGIN EC PRIVATE KEY-----\n", true},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\n", true},
		{"-----BEGIN ENCRYPTED PRIVATE KEY-----\n", true},
		{"-----BEGIN PGP PRIVATE KEY BLOCK-----\n", true},
		{"Bag Attributes\n    localKeyID: 01\n-----BEGIN PRIVATE KEY-----\n", true},
		{`{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}`, true},
		{"-----BEGIN CERTIFICATE-----\nMIID\n-----END CERTIFICATE-----\n-----BEGIN RSA PRIVATE KEY-----\n", true},
		{"-----BEGIN CERTIFICATE-----\nMIID\n-----END CERTIFICATE-----\n", false},
		{"-----BEGIN PUBLIC KEY-----\nMIIB\n", false},
		{"-----BEGIN PGP PUBLIC KEY BLOCK-----\n", false},
		{"Keep the PRIVATE KEY out of git.\n-----BEGIN CERTIFICATE-----\n", false},
		{"-----BEGIN CERTIFICATE-----\nPRIVATE KEY\n", false}, // not on the armour's line
		{"", false},
	} {
		if got := pemPrivateKey([]byte(c.text)); got != c.key {
			t.Errorf("pemPrivateKey(%q) = %v, want %v", c.text, got, c.key)
		}
	}
}

// TestHoldsPrivateKey: only files of the kinds keys come in are read,
// never through a link, never a FIFO (the walk would wait on it), never
// in node_modules; and past the first bytes keyKinds says nothing is looked
// at (a chain of four certificates before the key is within them).
func TestHoldsPrivateKey(t *testing.T) {
	dir := t.TempDir()
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n"
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("prod.pem", key)
	write("PROD.PEM", key)
	write("myproj-3f2a1b4c5d6e.json", `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIE"}`)
	write("notes.md", key) // not a kind keys come in: its name would have to say so
	write("cert.pem", "-----BEGIN CERTIFICATE-----\n")
	write("late.txt", string(make([]byte, keyKinds[".txt"]))+key)
	write("bundle.pem", strings.Repeat("-----BEGIN CERTIFICATE-----\n"+strings.Repeat("MIID", 400)+"\n-----END CERTIFICATE-----\n", 4)+key)
	write("node_modules/pkg/test.pem", key)
	if err := os.Symlink(filepath.Join(dir, "prod.pem"), filepath.Join(dir, "link.pem")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(dir, "fifo.pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"prod.pem": true, "PROD.PEM": true, "myproj-3f2a1b4c5d6e.json": true, "bundle.pem": true,
		"notes.md": false, "cert.pem": false, "late.txt": false, "link.pem": false, "fifo.pem": false, "missing.pem": false,
	} {
		if got := holdsPrivateKey(dir, name, false); got != want {
			t.Errorf("holdsPrivateKey(%s) = %v, want %v", name, got, want)
		}
	}
	// Read whatever its kind when a public key is beside it (ssh-keygen -f
	// deploy), and settings files by their kind.
	write("deploy", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n")
	write("values.yaml", "tls:\n  key: |\n    "+strings.Repeat("x", 9<<10)+"\n    "+key)
	write("Chart.yaml", "name: chart\n")
	for _, c := range []struct {
		name      string
		pub, want bool
	}{{"deploy", true, true}, {"deploy", false, false}, {"notes.md", true, true}, {"values.yaml", false, true}, {"Chart.yaml", true, false}} {
		if got := holdsPrivateKey(dir, c.name, c.pub); got != c.want {
			t.Errorf("holdsPrivateKey(%s, pub %v) = %v, want %v", c.name, c.pub, got, c.want)
		}
	}
	if holdsPrivateKey(filepath.Join(dir, "node_modules", "pkg"), "test.pem", false) {
		t.Error("a key in node_modules was looked into")
	}
}

// FuzzPEMPrivateKey holds pemPrivateKey to its definition: "-----BEGIN "
// and then "PRIVATE KEY" starting within the armour line's first 53
// bytes (the 64 read of it).
func FuzzPEMPrivateKey(f *testing.F) {
	for _, s := range []string{"-----BEGIN PRIVATE KEY-----", "-----BEGIN CERTIFICATE-----\nPRIVATE KEY", "-----BEGIN -----BEGIN PRIVATE KEY", ""} {
		f.Add([]byte(s))
	}
	oracle := regexp.MustCompile(`-----BEGIN [^\r\n]{0,53}PRIVATE KEY`)
	f.Fuzz(func(t *testing.T, b []byte) {
		// Each byte one character (Latin-1), so that the regexp counts
		// bytes as pemPrivateKey does, not UTF-8 characters.
		latin := make([]rune, len(b))
		for i, c := range b {
			latin[i] = rune(c)
		}
		if got, want := pemPrivateKey(b), oracle.MatchString(string(latin)); got != want {
			t.Errorf("pemPrivateKey(%q) = %v, the definition says %v", b, got, want)
		}
	})
}

// TestHomeHides: where Seatbelt refuses secret files by name, the home's
// walk adds only what the names do not cover: a key found by its content
// and a folder hidden whole; on Linux it adds everything it found.
func TestHomeHides(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".env", "prod.pem"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		path         string
		byName, want bool
	}{
		{filepath.Join(dir, ".env"), true, false},
		{filepath.Join(dir, "prod.pem"), true, true},
		{dir, true, true},
		{filepath.Join(dir, ".env"), false, true},
		{filepath.Join(dir, "prod.pem"), false, true},
	} {
		if got := homeHides(c.path, c.byName); got != c.want {
			t.Errorf("homeHides(%s, byName %v) = %v, want %v", c.path, c.byName, got, c.want)
		}
	}
}

// TestKeyPastedInPlace: a settings file rewritten in place, its folder
// unchanged, is read again at the next walk without the folder being
// listed again: a key pasted into it is hidden, and hidden no more once
// taken out; a file left as it was is not read again.
func TestKeyPastedInPlace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "values.yaml")
	write := func(s string) {
		t.Helper()
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write("replicas: 1\n")
	later := time.Now().Add(time.Hour)
	x := rootLinks{now: func() time.Time { return later }} // every change long settled
	secrets := func(want int) []string {
		t.Helper()
		files, _, err := x.secretFiles([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		if x.listed != want {
			t.Errorf("the folder was listed %d times, want %d", x.listed, want)
		}
		return files
	}
	if got := secrets(1); len(got) != 0 {
		t.Fatalf("a plain values.yaml was hidden: %q", got)
	}
	before := x.folders[dir].checked[0].stamp
	if got := secrets(1); len(got) != 0 || x.folders[dir].checked[0].stamp != before {
		t.Fatalf("an unchanged values.yaml: hidden %q, stamp %v then %v", got, before, x.folders[dir].checked[0].stamp)
	}
	write("replicas: 1\ntls:\n  key: |\n    -----BEGIN PRIVATE KEY-----\n    MIIE\n")
	if got := secrets(1); len(got) != 1 || got[0] != p {
		t.Errorf("a key pasted in place: hidden %q, want %q", got, p)
	}
	write("replicas: 2\n")
	if got := secrets(1); len(got) != 0 {
		t.Errorf("the key taken out again: still hidden %q", got)
	}
}
