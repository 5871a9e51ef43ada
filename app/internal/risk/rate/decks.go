package rate

import (
	"bytes"
	"path"
	"strings"
)

// Keynote saves a presentation as NAME.key: a zip file, or a folder (a
// package) in older versions. A private key is NAME.key too (OpenSSL's and
// web servers' habit). The name alone cannot tell them apart, and on a Mac
// decks far outnumber keys in the person's documents. So:
//
//   - What runs confined (an unasked command) tells them apart by content:
//     the executor's walk of the roots hides a *.key file unless it opens
//     as a zip does (DeckHead), and a folder is never a key
//     (execute/rootsecrets.go; on macOS a Seatbelt rule allows each deck it
//     found by name again: sandbox/seatbelt_unasked.go).
//   - What acts outside every sandbox (an app a script drives, the DSL's
//     file operations, which the gate does itself) still takes every
//     *.key for a key: nothing checks the content there.
//   - The analyzers, which see only the text, take a *.key read by a
//     confined command for a deck (Zone.Deck) where it lies in a sandbox
//     root and nothing on its path speaks of keys (KeyishPath): reading it
//     there asks nothing, and if it is a key after all the sandbox hides it.

// deckPattern is the secret file table's row that decks share with keys.
const deckPattern = "*.key"

// DeckName reports whether base, a file's name, is secret by its name only
// as a *.key (or a copy or backup of one: OriginalName): a Keynote deck's
// name as well as a key's. A name another row of the table knows as well
// (master.key) is no deck's.
func DeckName(base string) bool {
	base = strings.ToLower(path.Base(strings.TrimRight(base, "/")))
	if _, ok := secretName(base); ok {
		return onlyDeckRow(base)
	}
	if orig := OriginalName(base); orig != base {
		if _, ok := secretName(orig); ok {
			return onlyDeckRow(orig)
		}
	}
	return false
}

// onlyDeckRow reports whether deckPattern is the one row of the table that
// base, a lower-case name the table holds secret, matches.
func onlyDeckRow(base string) bool {
	deck := false
	for _, f := range secretFiles {
		if matchSecretName(f.name, base) {
			if f.name != deckPattern {
				return false
			}
			deck = true
		}
	}
	return deck
}

// DeckHead reports whether b, the first bytes of a file, open as a zip's
// first entry does ("PK\x03\x04"): how a Keynote deck saved as one file
// begins. No private key's armour or encoding (PEM, DER, OpenSSH's, PuTTY's)
// begins so.
func DeckHead(b []byte) bool {
	return bytes.HasPrefix(b, []byte("PK\x03\x04"))
}

// DeckHeadLen is how many bytes DeckHead needs.
const DeckHeadLen = 4

// KeyishPath reports whether an element of rel, a path below the home
// folder, speaks of keys, certificates or credentials (certs/, ssl/,
// server.key, deploy.key, my-signing-key.key): a *.key there is taken for
// a key, whatever the sandbox would find in it. The elements are split
// into words at every character that is no letter or digit, lower case.
func KeyishPath(rel string) bool {
	for _, el := range strings.Split(strings.ToLower(rel), "/") {
		el = strings.TrimSuffix(el, ".key")
		for _, w := range strings.FieldsFunc(el, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
		}) {
			if keyishWord(w) {
				return true
			}
		}
	}
	return false
}

// keyishParts are what a word that holds one speaks of (a key, a
// certificate, a secret), wherever it lies in the word ("mykey",
// "servercert", "privkey"); "keynote" is the app's name, no key.
var keyishParts = []string{"key", "cert", "priv", "secret", "cred", "passw", "token", "ssh", "gpg", "pgp", "vault", "crypt"}

// keyishWords are whole words that speak of keys in a path (server.key,
// ca.key, tls/, id.key) but are too short or too common to look for inside
// other words.
var keyishWords = map[string]bool{
	"ssl": true, "tls": true, "pki": true, "rsa": true, "dsa": true, "ecdsa": true, "ed25519": true, "ec": true,
	"ca": true, "id": true, "server": true, "client": true, "host": true, "root": true, "intermediate": true,
	"deploy": true, "signing": true, "sign": true, "api": true, "auth": true, "jwt": true, "oauth": true,
	"master": true, "identity": true, "wallet": true, "aws": true, "gcp": true, "azure": true, "https": true,
	"vpn": true, "wireguard": true, "openvpn": true, "nginx": true, "apache": true, "acme": true,
	"letsencrypt": true, "openssl": true, "account": true, "service": true, "prod": true, "production": true,
	"staging": true, "dev": true, "local": true, "localhost": true, "domain": true, "site": true, "web": true,
}

func keyishWord(w string) bool {
	if keyishWords[w] {
		return true
	}
	w = strings.TrimPrefix(w, "keynote")
	for _, p := range keyishParts {
		if strings.Contains(w, p) {
			return true
		}
	}
	return false
}
