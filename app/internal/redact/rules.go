package redact

import "regexp"

// value is what follows a secret's name: a double-quoted string (JSON
// escapes allowed), a single-quoted one, one quoted with \" (JSON inside a
// JSON string), or a bare word up to white space or a delimiter. The
// secret is the text inside the quotes; the quotes stay, so JSON stays JSON.
const value = `(?:` + quoted + `|(?P<s>[^\s"'&;,<>=][^\s"'&;,<>]*))`

// quoted is value without the bare word.
const quoted = `(?:"(?P<s>(?:[^"\\\n]|\\.)*)"|'(?P<s>[^'\n]*)'|\\"(?P<s>[^"\n]*?)\\")`

// secretName matches the end of a name that says its value is secret:
// password, db_password, PGPASSWORD, api_key, X-Api-Key, client_secret,
// access_token, SecretAccessKey, credentials. The pair rule starts its
// match here, not at the start of the name, which it keeps anyway; the
// separator that must follow makes sure the keyword ends the name
// ("tokens = 3" and "tokenizer=x" are not pairs).
const secretName = `(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|credentials?)`

// ownRules are Airlock's rules beside gitleaks': structure, names, and the
// formats gitleaks' set does not know or knows more narrowly (model
// providers' keys without their legacy marker, Slack tokens of any
// length). Within a pass gitleaks' rules come first, so a key both know is
// named as gitleaks names it.
func ownRules() []rule {
	return []rule{
		// PEM private keys, OpenSSH and PGP included. An unterminated block is
		// redacted to the end of the text.
		{tier: tierStructure, kind: "private-key", words: []string{"private key"},
			re: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`)},
		// scheme://user:password@host — the user name and host stay.
		{tier: tierStructure, kind: "url-password", words: []string{"://"}, group: 1,
			re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/?#@:\[\]"'<>]*:([^\s/?#"'<>]+)@`)},
		// Authorization: Bearer …, Basic …, Token …, or a bare credential.
		{tier: tierStructure, kind: "authorization", words: []string{"authorization"},
			re: regexp.MustCompile(`(?i)\bauthorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:bearer|basic|token|digest|bot|negotiate)[ \t]+)?(?P<s>[^\s"'\\,;]+)`)},

		// Provider formats.
		{tier: tierFormat, kind: "anthropic-key", words: []string{"sk-ant-"},
			re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
		{tier: tierFormat, kind: "openai-key", words: []string{"sk-"}, check: randomSecret,
			re: regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}`)},
		{tier: tierFormat, kind: "aws-key-id", words: []string{"akia", "asia", "abia", "acca", "agpa", "aida", "aipa", "anpa", "anva", "apka", "aroa", "asca"},
			re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}\b`)},
		{tier: tierFormat, kind: "github-token", words: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`)},
		{tier: tierFormat, kind: "gitlab-token", words: []string{"glpat-", "gldt-", "glptt-", "glrt-", "glcbt-"},
			re: regexp.MustCompile(`\bgl(?:pat|dt|ptt|rt|cbt)-[A-Za-z0-9_-]{20,}`)},
		{tier: tierFormat, kind: "slack-token", words: []string{"xox", "xapp-"},
			re: regexp.MustCompile(`\b(?:xox[bpars]-[A-Za-z0-9-]{10,}|xapp-[0-9]-[A-Za-z0-9-]{10,})`)},
		{tier: tierFormat, kind: "slack-webhook", words: []string{"hooks.slack.com"}, group: 1,
			re: regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_-]{8,})`)},
		{tier: tierFormat, kind: "stripe-key", words: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"},
			re: regexp.MustCompile(`\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{20,})`)},
		{tier: tierFormat, kind: "google-key", words: []string{"aiza"},
			re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35,}`)},
		{tier: tierFormat, kind: "google-oauth", words: []string{"ya29.", "gocspx-", "1//0"},
			re: regexp.MustCompile(`\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,})`)},
		{tier: tierFormat, kind: "huggingface-token", words: []string{"hf_"},
			re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`)},
		{tier: tierFormat, kind: "npm-token", words: []string{"npm_"},
			re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36,}`)},
		{tier: tierFormat, kind: "pypi-token", words: []string{"pypi-"},
			re: regexp.MustCompile(`\bpypi-AgE[A-Za-z0-9_-]{20,}`)},
		{tier: tierFormat, kind: "sendgrid-key", words: []string{"sg."},
			re: regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`)},
		// Prefixed formats gitleaks knows only beside the provider's
		// name (a scanner must not cry wolf; a redactor errs the other
		// way): Docker Hub, Figma, Supabase, New Relic, Square, Mailgun,
		// Mailchimp, Airtable, Mapbox, Telegram, Dropbox.
		{tier: tierFormat, kind: "docker-hub-pat", words: []string{"dckr_pat_"},
			re: regexp.MustCompile(`\bdckr_pat_[A-Za-z0-9_-]{27,}`)},
		{tier: tierFormat, kind: "figma-pat", words: []string{"figd_"},
			re: regexp.MustCompile(`\bfigd_[A-Za-z0-9_-]{40,}`)},
		{tier: tierFormat, kind: "supabase-token", words: []string{"sbp_"},
			re: regexp.MustCompile(`\bsbp_[a-f0-9]{40}\b`)},
		{tier: tierFormat, kind: "new-relic-key", words: []string{"nrak-"},
			re: regexp.MustCompile(`\bNRAK-[A-Z0-9]{27}\b`)},
		{tier: tierFormat, kind: "square-token", words: []string{"sq0atp-", "sq0csp-"},
			re: regexp.MustCompile(`\bsq0(?:atp-[A-Za-z0-9_-]{22}|csp-[A-Za-z0-9_-]{43})`)},
		{tier: tierFormat, kind: "mailgun-key", words: []string{"key-"},
			re: regexp.MustCompile(`\bkey-[0-9a-f]{32}\b`)},
		{tier: tierFormat, kind: "mailchimp-key", words: []string{"-us"},
			re: regexp.MustCompile(`\b[0-9a-f]{32}-us[0-9]{1,2}\b`)},
		{tier: tierFormat, kind: "airtable-pat", words: []string{"pat"},
			re: regexp.MustCompile(`\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b`)},
		{tier: tierFormat, kind: "mapbox-secret-token", words: []string{"sk.ey"},
			re: regexp.MustCompile(`\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`)},
		{tier: tierFormat, kind: "telegram-bot-token", words: []string{":aa"},
			re: regexp.MustCompile(`\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\b`)},
		{tier: tierFormat, kind: "dropbox-token", words: []string{"sl."},
			re: regexp.MustCompile(`\bsl\.[A-Za-z0-9_-]{130,}`)},
		{tier: tierFormat, kind: "digitalocean-token", words: []string{"dop_v1_", "doo_v1_", "dor_v1_"},
			re: regexp.MustCompile(`\bdo[opr]_v1_[a-f0-9]{64}`)},
		{tier: tierFormat, kind: "llm-key", words: []string{"gsk_", "xai-", "pplx-", "r8_"}, check: randomSecret,
			re: regexp.MustCompile(`\b(?:gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|pplx-[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,})`)},

		// JWTs: base64url JSON header and payload ("ey…"), then the signature.
		{tier: tierFormat, kind: "jwt", words: []string{"ey"},
			re: regexp.MustCompile(`\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`)},
		// A bearer token anywhere, not only in an Authorization header.
		{tier: tierName, kind: "bearer", words: []string{"bearer"}, group: 1, check: randomSecret,
			re: regexp.MustCompile(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/=-]{16,})`)},

		// Name/value pairs whose name says the value is secret:
		// password=…, passwd: …, "api_key": "…", TOKEN='…', secret => …
		{tier: tierName, kind: "secret", words: secretHints, check: notReference,
			re: regexp.MustCompile(`(?i)` + secretName + `\\?["']?\]?[ \t]*(?:=|:|=>)[ \t]*` + value)},
		// Go's token := "…": only a quoted value is a literal; a bare one
		// is code (token := lexer.Next()).
		{tier: tierName, kind: "secret", words: secretHints,
			re: regexp.MustCompile(`(?i)` + secretName + `[ \t]*:=[ \t]*` + quoted)},
		// Command-line flags: --password hunter2, --api-key "…".
		{tier: tierName, kind: "secret", words: []string{"--"}, check: notReference,
			re: regexp.MustCompile(`(?i)--[A-Za-z0-9-]*` + secretName + `[ \t]+` + value)},
		// XML and plist elements: <password>…</password>, <key>token</key><string>…</string>.
		{tier: tierName, kind: "secret", words: secretHints,
			re: regexp.MustCompile(`(?i)<[A-Za-z0-9_:-]*` + secretName + `>(?P<s>[^<\n]+)<`)},
		{tier: tierName, kind: "secret", words: []string{"<key>"},
			re: regexp.MustCompile(`(?i)<key>[^<\n]*` + secretName + `</key>[ \t]*\n?[ \t]*<(?:string|data)>(?P<s>[^<]+)<`)},
		// curl -u user:password, --user user:password.
		{tier: tierName, kind: "secret", words: []string{"curl"}, group: 1,
			re: regexp.MustCompile(`\bcurl\b[^\n]*?\s(?:-u[ \t]*|--user[ =])["']?[^\s:"']+:([^\s"']+)`)},
	}
}

// secretHints are the keywords of the name/value rules: every secretName
// begins with one of them, and "--" and "<key>" begin the flag and plist
// forms.
var secretHints = []string{"pass", "pwd", "secret", "token", "api", "access", "private", "auth", "key", "credential"}

// reference is a value that names where a secret is rather than holding
// one: $VAR, ${VAR}, $(command), {{ template }}, ${{ expression }}, %VAR%.
var reference = regexp.MustCompile(`^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$\([^()]*\)|\$?\{\{[^{}]*\}\}|%[A-Za-z_][A-Za-z0-9_]*%)$`)

func notReference(f find) bool { return !reference.MatchString(f.secret) }
