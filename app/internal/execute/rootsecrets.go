package execute

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// A sandbox root holds files whose names say they hold a secret: a
// project's .env, server.key, credentials.json, Terraform state
// (rate.SecretFile). The analyzer rates a read that names one as a secret
// read, and asks; but a command that reads a folder whole (grep -r . .) or
// a glob (cat *.k?y) names none, and what it prints reaches the agent in
// shapes the redactor does not know. So an action that runs unasked does
// not see those files at all: the executor lists them from its index of
// the roots (rootlinks.go, the same walk, reading again only the folders
// that changed) and the sandbox hides each one (sandbox.Grant.Secrets).
// An action the person approved sees them, as it sees everything else in
// the roots.
//
// Also hidden is every link in the roots that leads to such a file, under
// whatever name (notes.txt → ~/keys/server.key): hiding a link hides what
// it leads to. A folder named like a secret file (a folder .env, often a
// Python virtual environment) is not hidden: it is walked, and the secret
// files in it are. A folder whose name says all it holds is secret
// (rate.SecretFolder: an envdir .env.d, .secrets) is hidden whole, and
// so is a link to one.
//
// A private key also hides under a name that says nothing: a cloud
// provider's key pair downloaded as prod.pem, a service account's key
// named for its project and a hash (myproj-3f2a1b4c5d6e.json). So the
// files whose kind such keys come in are also looked into when their
// folder is listed (holdsPrivateKey): a PEM private key's armour in their
// first bytes hides them too.
//
// A *.key is a Keynote deck as often as a private key: it is hidden
// unless its first bytes are a zip's, as a deck saved as one file begins
// (rate.DeckHead), and a deck saved as a folder is a folder (rate/decks.go).
//
// A file looked into is looked into again when it changes in place (an
// editor's save: a key pasted into a settings file), though its folder
// does not (recheckKeys).
//
// What this does not hide: a file whose name and first bytes say nothing
// (a hard link the person made to .env under another name, a password
// pasted into notes.txt), which neither the analyzer nor the redactor can
// tell from any other. The
// secret files of the home outside the roots are hidden too: on Linux from
// an index of the home's folders (homesecrets.go), on macOS by Seatbelt,
// by name (sandbox/seatbelt_unasked.go).

// maxSecretFiles bounds the secret files hidden from one action: each is
// one mount of the launcher's (Linux) or one rule (macOS).
const maxSecretFiles = 4096

// ErrSecretsUnhidden is wrapped by the error of an action that runs unasked
// and was not started because the secret files of the sandbox roots could
// not all be found: it runs only if the person approves it.
var ErrSecretsUnhidden = errors.New("the secret files of the sandbox roots cannot all be hidden")

// secretFiles walks the roots (reading only what changed since the last
// walk) and returns the files in them whose names rate.SecretFile knows,
// and the links in them that lead to such a file, absolute; and what of
// git's they hold (gitFinds), which gitStores checks.
// It fails
// closed, with an error wrapping ErrSecretsUnhidden that names the root,
// when the walk could not see everything (more entries or deeper folders
// than the index's bounds) or finds more than maxSecretFiles: hiding the
// rest by guesswork (whole folders) would hide the person's work from the
// action in ways neither it nor the agent could tell apart from a broken
// project, while asking says what happened.
func (x *rootLinks) secretFiles(roots []string) (files []string, git gitFinds, err error) {
	files, _, git, err = x.secretFilesAndDecks(roots)
	return files, git, err
}

// secretFilesAndDecks is secretFiles, and also returns the Keynote decks
// the roots hold under names that say key (decksIn), absolute.
func (x *rootLinks) secretFilesAndDecks(roots []string) (files, decks []string, git gitFinds, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []string
	stop := x.walkLocked(roots, func(dir string, f *indexedFolder) {
		out = secretsIn(out, dir, f)
		decks = decksIn(decks, dir, f)
		git.add(dir, f)
	})
	if stop != "" {
		return nil, nil, gitFinds{}, fmt.Errorf("%w: %s, more than Airlock looks through before each command; "+
			"a command runs there unasked only when every secret file in it is hidden, so this one runs only if you approve it "+
			"(or take that folder out of \"roots\" in settings.json)", ErrSecretsUnhidden, stop)
	}
	most := x.secrets
	if most == 0 {
		most = maxSecretFiles
	}
	if len(out) > most {
		where := out[most]
		if r, _, ok := rootOf(roots, where, false); ok {
			where = r
		}
		return nil, nil, gitFinds{}, fmt.Errorf("%w: the sandbox roots hold more than %d files whose names say they hold a secret (.env, keys, "+
			"credentials), %s among them; this command runs only if you approve it", ErrSecretsUnhidden, most, where)
	}
	return out, decks, git, nil
}

// secretFile reports whether the file name of dir is secret by its name
// (rate.SecretFile) or its place (a home's credential store copied below
// a root: rate.CopiedStore).
func secretFile(dir, name string) bool {
	_, named := rate.SecretFile(name)
	_, copied := rate.CopiedStoreAt(dir, name)
	return named || copied
}

// secretFolder reports whether the folder name of dir is hidden whole: its
// name says all it holds is secret (rate.SecretFolder), or it is a home's
// credential store copied below a root (rate.CopiedStore).
func secretFolder(dir, name string) bool {
	_, named := rate.SecretFolder(name)
	_, copied := rate.CopiedStoreAt(dir, name)
	return named || copied
}

// secretsIn appends to out, absolute, the secret files of the indexed
// folder dir and the links in it that lead to one: what an unasked action
// must not see there.
func secretsIn(out []string, dir string, f *indexedFolder) []string {
	for _, s := range f.secrets {
		out = append(out, filepath.Join(dir, s))
	}
	for _, l := range f.links {
		if p := filepath.Join(dir, l); leadsToSecret(p) {
			out = append(out, p)
		}
	}
	return out
}

// decksIn appends to out, absolute, the Keynote decks of the indexed
// folder dir named *.key (deckNamed): the files its content check found
// to be no key (holdsPrivateKey), and the folders, which are packages.
// Seatbelt, which refuses every *.key by name, allows each of them again
// (sandbox.Grant.Decks); the Linux sandbox hides only what secretsIn finds.
func decksIn(out []string, dir string, f *indexedFolder) []string {
	for _, c := range f.checked {
		if deckNamed(dir, c.name) && !slices.Contains(f.secrets, c.name) {
			out = append(out, filepath.Join(dir, c.name))
		}
	}
	for _, d := range f.folders {
		if deckNamed(dir, d) {
			out = append(out, filepath.Join(dir, d))
		}
	}
	return out
}

// leadsToSecret reports whether the link p leads to a regular file whose
// name, or the link's own, rate.SecretFile knows. Links are resolved
// again at every walk: what a link leads to can change without its
// folder changing (a link on its way replaced).
func leadsToSecret(p string) bool {
	fi, err := os.Stat(p)
	if err == nil && fi.IsDir() {
		end, err := linkEnd(p)
		_, endNamed := rate.SecretFolder(end)
		return err != nil || secretFolder(filepath.Split(p)) || endNamed
	}
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if secretFile(filepath.Split(p)) {
		return true
	}
	end, err := linkEnd(p)
	if err != nil {
		return true // changed since the stat: hide it rather than guess
	}
	_, ok := rate.SecretFile(end)
	return ok
}

// linkEnd returns a path whose last element is the name of the file the
// link p leads to. Most links lead to a file in one step: the link's
// text, read from its folder as the kernel reads it (a "..", after a
// link on the way, climbs out of where that link leads, so the text is
// not cleaned), names a file that is no link. Chains are resolved whole.
func linkEnd(p string) (string, error) {
	text, err := os.Readlink(p)
	if err != nil {
		return "", err
	}
	t := text
	if !strings.HasPrefix(t, "/") {
		t = filepath.Dir(p) + "/" + text
	}
	fi, err := os.Lstat(t)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return t, nil
	}
	return filepath.EvalSymlinks(p)
}

// keyKinds are the extensions of the files private keys come in under
// names that say nothing, each with how much of such a file is read: PEM
// files (.pem, and certificates' .crt and .cer, which bundles carry keys
// in, after a chain of certificates of 1–2 KiB each: 64 KiB), keys
// exported as text (.txt, .asc) and service accounts' keys (.json), whose
// armour opens the file or its third field (8 KiB), and settings that
// carry a TLS or SSH key inline as a multi-line string (a Helm values
// .yaml, an Ansible variables .yml, a service's .toml), after any number
// of other settings and the certificates beside it (64 KiB); and the
// files keys in other armour (privateKey) come in: WireGuard's and
// OpenVPN's configurations (.conf, the key after other settings: 64 KiB)
// and signify's secret keys (.sec, 8 KiB).
var keyKinds = map[string]int{".pem": 64 << 10, ".crt": 64 << 10, ".cer": 64 << 10, ".txt": 8 << 10, ".asc": 8 << 10, ".json": 8 << 10,
	".yaml": 64 << 10, ".yml": 64 << 10, ".toml": 64 << 10, ".conf": 64 << 10, ".sec": 8 << 10}

// pairedKeyHead is how much is read of a file with a public key beside it
// (pub): ssh-keygen -f NAME writes the private key as NAME, without an
// extension, and the public one as NAME.pub; its armour opens the file.
const pairedKeyHead = 8 << 10

// holdsPrivateKey reports whether the regular file name in dir, of a kind
// keys come in (keyKinds) or with a public key beside it (pub: NAME.pub is
// in dir), and outside a package manager's folder (whose files a person
// does not put keys in, and which hold thousands), holds a PEM private
// key's armour ("-----BEGIN … PRIVATE KEY", the PKCS#8, PKCS#1, SEC 1,
// OpenSSH and OpenPGP forms, encrypted or not) in the first bytes keyHead
// says. It reads without following a link and without waiting on a FIFO
// put in the file's place, no more than the file held when opened; a
// file it cannot read is no key (the gate cannot read it, nor can the
// action as the same user).
//
// A *.key named so only (deckNamed) is a key unless it opens as a Keynote
// deck does (rate.DeckHead); one the gate cannot read is a key too, since
// its owner can make it readable.
func holdsPrivateKey(dir, name string, pub bool) bool {
	head := keyHead(dir, name, pub)
	if head == 0 {
		return false
	}
	_, b, ok := fileHead(dir, name, head)
	return keyIn(dir, name, b, ok)
}

// keyIn reports whether b, the first bytes of the file name of dir (ok
// false when it could not be read), makes it a key to hide: a private key's
// armour, or for a *.key (deckNamed) anything but a deck's first bytes.
func keyIn(dir, name string, b []byte, ok bool) bool {
	if deckNamed(dir, name) {
		return !ok || !rate.DeckHead(b)
	}
	return ok && privateKey(b)
}

// deckNamed reports whether the file name of dir is secret by its name
// only as a *.key (rate.DeckName) and lies in no copied credential store:
// a Keynote deck's name as well as a key's, told apart by content
// (holdsPrivateKey).
func deckNamed(dir, name string) bool {
	_, copied := rate.CopiedStoreAt(dir, name)
	return !copied && rate.DeckName(name)
}

// privateKey reports whether b holds a private key's armour: PEM's
// (pemPrivateKey), or one of the other forms tools write keys in, which
// the names they give the files do not say (a red team's find,
// TestRed12KeysInOtherArmour): age's identity (AGE-SECRET-KEY-1…, in
// the key.txt its documentation names), a WireGuard configuration's
// PrivateKey line, OpenVPN's static key (tls-auth, tls-crypt), the
// secret keys of signify and minisign ("untrusted comment: … secret
// key"), and a PuTTY key file's Private-Lines.
func privateKey(b []byte) bool {
	if pemPrivateKey(b) || bytes.Contains(b, []byte("AGE-SECRET-KEY-1")) ||
		bytes.Contains(b, []byte("-----BEGIN OpenVPN Static key")) ||
		bytes.Contains(b, []byte("---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----")) || jwkPrivate(b) {
		return true
	}
	putty := false
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case wireGuardKey(line):
			return true
		case bytes.HasPrefix(line, []byte("untrusted comment:")) && bytes.Contains(bytes.ToLower(line), []byte("secret key")):
			return true
		case bytes.HasPrefix(line, []byte("PuTTY-User-Key-File-")):
			putty = true
		case putty && bytes.HasPrefix(line, []byte("Private-Lines:")):
			return true
		}
	}
	return false
}

// jwkPrivate reports whether b holds a JSON Web Key with its private part:
// a "kty" and a "d" member (RSA's, EC's and OKP's private exponent or
// scalar), as ACME clients (certbot's private_key.json) and JOSE tools
// keep them; a public key has no "d".
func jwkPrivate(b []byte) bool {
	return jsonMember(b, "kty") && jsonMember(b, "d")
}

// jsonMember reports whether b holds "name" followed by a colon.
func jsonMember(b []byte, name string) bool {
	key := []byte(`"` + name + `"`)
	for {
		i := bytes.Index(b, key)
		if i < 0 {
			return false
		}
		b = b[i+len(key):]
		if rest := bytes.TrimLeft(b, " \t\r\n"); len(rest) > 0 && rest[0] == ':' {
			return true
		}
	}
}

// wireGuardKey reports whether line is a WireGuard configuration's
// "PrivateKey = " and a key (44 characters of base64), in any case and
// spacing.
func wireGuardKey(line []byte) bool {
	k, v, ok := bytes.Cut(line, []byte("="))
	if !ok || !bytes.EqualFold(bytes.TrimSpace(k), []byte("PrivateKey")) {
		return false
	}
	v = bytes.TrimSpace(v)
	if len(v) != 44 || v[43] != '=' {
		return false
	}
	for _, c := range v[:43] {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// fileHead returns the first n bytes of the regular file name of dir,
// read without following a link and without waiting on a FIFO put in its
// place, no more than the file held when opened, and its stamp, taken
// before they were read; false when it is no regular file or cannot be
// opened.
func fileHead(dir, name string, n int) (folderStamp, []byte, bool) {
	fd, err := unix.Open(filepath.Join(dir, name), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return folderStamp{}, nil, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return folderStamp{}, nil, false
	}
	buf := make([]byte, min(int64(n), st.Size))
	got := 0
	for got < len(buf) {
		m, err := unix.Read(fd, buf[got:])
		if m <= 0 || err != nil {
			break
		}
		got += m
	}
	return stampOf(&st), buf[:got], true
}

// keyHead is how much holdsPrivateKey reads of the file name in dir: 0
// when it is of no kind keys come in or lies in a package manager's
// folder.
func keyHead(dir, name string, pub bool) int {
	// A backup or copy (prod.pem.old, "key copy.pem") is looked into as
	// the file it copies.
	head := keyKinds[filepath.Ext(rate.OriginalName(strings.ToLower(name)))]
	if pub {
		head = max(head, pairedKeyHead)
	}
	if deckNamed(dir, name) {
		return max(head, rate.DeckHeadLen) // wherever it lies: hidden unless a deck
	}
	if strings.Contains(dir+"/", "/node_modules/") {
		return 0
	}
	return head
}

// pemPrivateKey reports whether b holds a PEM armour line that opens a
// private key: "-----BEGIN ", then on the same line "PRIVATE KEY".
func pemPrivateKey(b []byte) bool {
	const begin = "-----BEGIN "
	for {
		i := bytes.Index(b, []byte(begin))
		if i < 0 {
			return false
		}
		b = b[i+len(begin):]
		line := b
		if j := bytes.IndexAny(line, "\r\n"); j >= 0 {
			line = line[:j]
		}
		if len(line) > 64 {
			line = line[:64]
		}
		if bytes.Contains(line, []byte("PRIVATE KEY")) {
			return true
		}
	}
}
