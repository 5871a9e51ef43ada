package redact

import (
	"regexp"
	"slices"
	"strings"
)

// value is what follows a secret's name: a double-quoted string (JSON
// escapes allowed), a single-quoted one, one quoted with \" (JSON inside a
// JSON string), or a bare word up to white space or a delimiter. The
// secret is the text inside the quotes; the quotes stay, so JSON stays JSON.
const value = `(?:"(?P<s>(?:[^"\\\n]|\\.)*)"|'(?P<s>[^'\n]*)'|\\"(?P<s>[^"\n]*?)\\"|(?P<s>[^\s"'&;,<>]+))`

// secretName matches the end of a name that says its value is secret:
// password, db_password, PGPASSWORD, api_key, X-Api-Key, client_secret,
// access_token, SecretAccessKey, credentials. The pair rule starts its
// match here, not at the start of the name, which it keeps anyway; the
// separator that must follow makes sure the keyword ends the name
// ("tokens = 3" and "tokenizer=x" are not pairs).
const secretName = `(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|credentials?)`

// rules run in order. Earlier rules see the text first, so the most
// specific formats come before the generic name/value rules: the key in
// "api_key=sk-ant-…" is reported as an Anthropic key, and the pair rule
// then finds a marker and leaves it.
var rules = []rule{
	// PEM private keys, OpenSSH and PGP included. An unterminated block is
	// redacted to the end of the text.
	{kind: "private-key", words: []string{"private key"},
		re: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`)},
	// scheme://user:password@host — the user name and host stay.
	{kind: "url-password", words: []string{"://"}, group: 1,
		re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/?#@:\[\]"'<>]*:([^\s/?#"'<>]+)@`)},
	// Authorization: Bearer …, Basic …, Token …, or a bare credential.
	{kind: "authorization", words: []string{"authorization"},
		re: regexp.MustCompile(`(?i)\bauthorization\\?["']?\s*[:=]\s*\\?["']?(?:(?:bearer|basic|token|digest|bot|negotiate)\s+)?(?P<s>[^\s"'\\,;]+)`)},

	// Provider formats.
	{kind: "anthropic-key", words: []string{"sk-ant-"},
		re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{kind: "openai-key", words: []string{"sk-"}, check: looksRandom,
		re: regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}`)},
	{kind: "aws-key-id", words: []string{"akia", "asia", "abia", "acca", "agpa", "aida", "aipa", "anpa", "anva", "apka", "aroa", "asca"},
		re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}\b`)},
	{kind: "github-token", words: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`)},
	{kind: "gitlab-token", words: []string{"glpat-", "gldt-", "glptt-", "glrt-", "glcbt-"},
		re: regexp.MustCompile(`\bgl(?:pat|dt|ptt|rt|cbt)-[A-Za-z0-9_-]{20,}`)},
	{kind: "slack-token", words: []string{"xox", "xapp-"},
		re: regexp.MustCompile(`\b(?:xox[bpars]-[A-Za-z0-9-]{10,}|xapp-[0-9]-[A-Za-z0-9-]{10,})`)},
	{kind: "slack-webhook", words: []string{"hooks.slack.com"}, group: 1,
		re: regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_-]{8,})`)},
	{kind: "stripe-key", words: []string{"_live_", "_test_", "whsec_"},
		re: regexp.MustCompile(`\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{20,})`)},
	{kind: "google-key", words: []string{"aiza"},
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35,}`)},
	{kind: "google-oauth", words: []string{"ya29.", "gocspx-", "1//0"},
		re: regexp.MustCompile(`\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,})`)},
	{kind: "huggingface-token", words: []string{"hf_"},
		re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`)},
	{kind: "npm-token", words: []string{"npm_"},
		re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36,}`)},
	{kind: "pypi-token", words: []string{"pypi-"},
		re: regexp.MustCompile(`\bpypi-AgE[A-Za-z0-9_-]{20,}`)},
	{kind: "sendgrid-key", words: []string{"sg."},
		re: regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`)},
	{kind: "digitalocean-token", words: []string{"_v1_"},
		re: regexp.MustCompile(`\bdo[opr]_v1_[a-f0-9]{64}`)},
	{kind: "llm-key", words: []string{"gsk_", "xai-", "pplx-", "r8_"}, check: looksRandom,
		re: regexp.MustCompile(`\b(?:gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|pplx-[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,})`)},

	// JWTs: base64url JSON header and payload ("ey…"), then the signature.
	{kind: "jwt", words: []string{".ey"},
		re: regexp.MustCompile(`\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`)},
	// A bearer token anywhere, not only in an Authorization header.
	{kind: "bearer", words: []string{"bearer"}, group: 1, check: looksRandom,
		re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})`)},

	// Name/value pairs whose name says the value is secret:
	// password=…, passwd: …, "api_key": "…", TOKEN='…', secret => …
	{kind: "secret", words: secretHints,
		re: regexp.MustCompile(`(?i)` + secretName + `\\?["']?\]?\s*(?:=|:=|:|=>)[ \t]*` + value)},
	// Command-line flags: --password hunter2, --api-key "…".
	{kind: "secret", words: secretHints,
		re: regexp.MustCompile(`(?i)--[A-Za-z0-9-]*` + secretName + `[ \t]+` + value)},
	// XML and plist elements: <password>…</password>, <key>token</key><string>…</string>.
	{kind: "secret", words: secretHints,
		re: regexp.MustCompile(`(?i)<[A-Za-z0-9_:-]*` + secretName + `>(?P<s>[^<]+)<`)},
	{kind: "secret", words: secretHints,
		re: regexp.MustCompile(`(?i)<key>[^<]*` + secretName + `</key>\s*<(?:string|data)>(?P<s>[^<]+)<`)},
	// curl -u user:password, --user user:password.
	{kind: "secret", words: []string{"curl"}, group: 1,
		re: regexp.MustCompile(`\bcurl\b[^\n]*?\s(?:-u\s*|--user[ =])["']?[^\s:"']+:([^\s"']+)`)},
}

var secretHints = []string{"pass", "pwd", "secret", "token", "key", "credential"}

func init() {
	for i := range rules {
		r := &rules[i]
		for _, w := range r.words {
			if w != strings.ToLower(w) {
				panic("redact: hint " + w + " is not lower case")
			}
			r.hints.add(hintIndex(w))
		}
		if r.group != 0 {
			continue
		}
		// Rules with groups named s take the first of them that matched.
		if names := r.re.SubexpNames(); slices.Contains(names, "s") {
			r.named = names
		}
	}
}
