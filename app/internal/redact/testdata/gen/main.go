// Command gen writes providers.jsonl: fake keys in the shapes providers
// document, from a fixed seed, so the corpus can be made again or grown.
//
//	go run ./app/internal/redact/testdata/gen > app/internal/redact/testdata/providers.jsonl
//
// Each key is random characters in the documented shape; none was ever
// issued by anyone.
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

var rng = rand.New(rand.NewPCG(20260524, 16))

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	hexl   = "0123456789abcdef"
	alnum  = upper + lower + digits
	url64  = alnum + "_-"
	b64    = alnum + "+/"
	b32    = upper + "234567"
	bech   = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

func r(set string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(set[rng.IntN(len(set))])
	}
	return b.String()
}

// mixed makes sure a random alnum string has a digit, an upper and a lower
// letter, as generated keys do.
func mixed(set string, n int) string {
	for {
		s := r(set, n)
		if strings.ContainsAny(s, digits) && strings.ContainsAny(s, upper) == strings.ContainsAny(set, upper) && strings.ContainsAny(s, lower) == strings.ContainsAny(set, lower) {
			return s
		}
	}
}

func hex(n int) string {
	for {
		s := r(hexl, n)
		if strings.ContainsAny(s, "abcdef") && strings.ContainsAny(s, digits) {
			return s
		}
	}
}

type format struct {
	name  string
	shape string
	gen   func() string
	bare  bool   // the format alone gives it away
	name2 string // the variable it is usually assigned to
}

func pem(kind, first string, lines int) func() string {
	return func() string {
		var body []string
		for i := range lines {
			l := r(b64, 64)
			if i == 0 {
				l = first + l[len(first):]
			}
			body = append(body, l)
		}
		body = append(body, r(b64, 28)+"==")
		return "-----BEGIN " + kind + "-----\n" + strings.Join(body, "\n") + "\n-----END " + kind + "-----"
	}
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

var formats = []format{
	{"aws-access-key-id", "AKIA + 16 of A-Z2-7", func() string { return "AKIA" + r(b32, 16) }, true, "AWS_ACCESS_KEY_ID"},
	{"aws-temporary-key-id", "ASIA + 16 of A-Z2-7", func() string { return "ASIA" + r(b32, 16) }, true, "AWS_ACCESS_KEY_ID"},
	{"aws-secret-access-key", "40 of A-Za-z0-9/+", func() string { return mixed(b64, 40) }, false, "aws_secret_access_key"},
	{"github-classic-pat", "ghp_ + 36 alnum", func() string { return "ghp_" + mixed(alnum, 36) }, true, "GITHUB_TOKEN"},
	{"github-oauth-token", "gho_ + 36 alnum", func() string { return "gho_" + mixed(alnum, 36) }, true, "GH_TOKEN"},
	{"github-user-to-server", "ghu_ + 36 alnum", func() string { return "ghu_" + mixed(alnum, 36) }, true, "GITHUB_TOKEN"},
	{"github-server-to-server", "ghs_ + 36 alnum", func() string { return "ghs_" + mixed(alnum, 36) }, true, "GITHUB_TOKEN"},
	{"github-refresh-token", "ghr_ + 36 alnum", func() string { return "ghr_" + mixed(alnum, 36) }, true, "GITHUB_REFRESH_TOKEN"},
	{"github-fine-grained-pat", "github_pat_ + 22 alnum + _ + 59 alnum", func() string { return "github_pat_" + mixed(alnum, 22) + "_" + mixed(alnum, 59) }, true, "GITHUB_TOKEN"},
	{"gitlab-pat", "glpat- + 20 of A-Za-z0-9_-", func() string { return "glpat-" + mixed(alnum, 20) }, true, "GITLAB_TOKEN"},
	{"gitlab-deploy-token", "gldt- + 20 of A-Za-z0-9_-", func() string { return "gldt-" + mixed(alnum, 20) }, true, "CI_DEPLOY_PASSWORD"},
	{"gitlab-runner-token", "glrt- + 20 of A-Za-z0-9_-", func() string { return "glrt-" + mixed(alnum, 20) }, true, "RUNNER_TOKEN"},
	{"gitlab-trigger-token", "glptt- + 40 hex", func() string { return "glptt-" + hex(40) }, true, "TRIGGER_TOKEN"},
	{"slack-bot-token", "xoxb- + 12 digits + - + 13 digits + - + 24 alnum", func() string { return "xoxb-" + r(digits, 12) + "-" + r(digits, 13) + "-" + mixed(alnum, 24) }, true, "SLACK_BOT_TOKEN"},
	{"slack-user-token", "xoxp- + 12 digits + - + 12 digits + - + 13 digits + - + 32 hex", func() string {
		return "xoxp-" + r(digits, 12) + "-" + r(digits, 12) + "-" + r(digits, 13) + "-" + hex(32)
	}, true, "SLACK_USER_TOKEN"},
	{"slack-app-token", "xapp-1-A + 10 of A-Z0-9 + - + 13 digits + - + 64 hex", func() string { return "xapp-1-A" + r(upper+digits, 10) + "-" + r(digits, 13) + "-" + hex(64) }, true, "SLACK_APP_TOKEN"},
	{"slack-webhook", "https://hooks.slack.com/services/T + 8 + /B + 10 + / + 24 alnum", func() string {
		return "https://hooks.slack.com/services/T" + r(upper+digits, 8) + "/B" + r(upper+digits, 10) + "/" + mixed(alnum, 24)
	}, true, "SLACK_WEBHOOK_URL"},
	{"stripe-live-secret", "sk_live_ + 24 alnum", func() string { return "sk_live_" + mixed(alnum, 24) }, true, "STRIPE_SECRET_KEY"},
	{"stripe-test-secret", "sk_test_ + 24 alnum", func() string { return "sk_test_" + mixed(alnum, 24) }, true, "STRIPE_SECRET_KEY"},
	{"stripe-restricted", "rk_live_ + 24 alnum", func() string { return "rk_live_" + mixed(alnum, 24) }, true, "STRIPE_RESTRICTED_KEY"},
	{"stripe-webhook-secret", "whsec_ + 32 alnum", func() string { return "whsec_" + mixed(alnum, 32) }, true, "STRIPE_WEBHOOK_SECRET"},
	{"google-api-key", "AIza + 35 of A-Za-z0-9_-", func() string { return "AIza" + mixed(url64, 35) }, true, "GOOGLE_API_KEY"},
	{"google-oauth-client-secret", "GOCSPX- + 28 of A-Za-z0-9_-", func() string { return "GOCSPX-" + mixed(url64, 28) }, true, "GOOGLE_CLIENT_SECRET"},
	{"google-oauth-access-token", "ya29. + 120 of A-Za-z0-9_-", func() string { return "ya29." + mixed(url64, 120) }, true, "GOOGLE_ACCESS_TOKEN"},
	{"openai-legacy-key", "sk- + 20 alnum + T3BlbkFJ + 20 alnum", func() string { return "sk-" + mixed(alnum, 20) + "T3BlbkFJ" + mixed(alnum, 20) }, true, "OPENAI_API_KEY"},
	{"openai-project-key", "sk-proj- + 74 + T3BlbkFJ + 74 of A-Za-z0-9_-", func() string { return "sk-proj-" + mixed(url64, 74) + "T3BlbkFJ" + mixed(url64, 74) }, true, "OPENAI_API_KEY"},
	{"anthropic-api-key", "sk-ant-api03- + 93 of A-Za-z0-9_- + AA", func() string { return "sk-ant-api03-" + mixed(url64, 93) + "AA" }, true, "ANTHROPIC_API_KEY"},
	{"huggingface-token", "hf_ + 34 letters", func() string { return "hf_" + r(upper+lower, 34) }, true, "HF_TOKEN"},
	{"npm-token", "npm_ + 36 alnum", func() string { return "npm_" + mixed(alnum, 36) }, true, "NPM_TOKEN"},
	{"pypi-token", "pypi-AgEIcHlwaS5vcmc + 70 of A-Za-z0-9_-", func() string { return "pypi-AgEIcHlwaS5vcmc" + mixed(url64, 70) }, true, "TWINE_PASSWORD"},
	{"sendgrid-key", "SG. + 22 + . + 43 of A-Za-z0-9_-", func() string { return "SG." + mixed(url64, 22) + "." + mixed(url64, 43) }, true, "SENDGRID_API_KEY"},
	{"twilio-api-key", "SK + 32 hex", func() string { return "SK" + hex(32) }, true, "TWILIO_API_KEY"},
	{"mailgun-key", "key- + 32 hex", func() string { return "key-" + hex(32) }, true, "MAILGUN_API_KEY"},
	{"mailchimp-key", "32 hex + -us + 2 digits", func() string { return hex(32) + "-us" + r("123456789", 1) + r(digits, 1) }, true, "MAILCHIMP_API_KEY"},
	{"digitalocean-pat", "dop_v1_ + 64 hex", func() string { return "dop_v1_" + hex(64) }, true, "DIGITALOCEAN_TOKEN"},
	{"shopify-access-token", "shpat_ + 32 hex", func() string { return "shpat_" + hex(32) }, true, "SHOPIFY_ACCESS_TOKEN"},
	{"shopify-shared-secret", "shpss_ + 32 hex", func() string { return "shpss_" + hex(32) }, true, "SHOPIFY_API_SECRET"},
	{"square-access-token", "EAAA + 60 of A-Za-z0-9_-", func() string { return "EAAA" + mixed(url64, 60) }, true, "SQUARE_ACCESS_TOKEN"},
	{"square-oauth-secret", "sq0csp- + 43 of A-Za-z0-9_-", func() string { return "sq0csp-" + mixed(url64, 43) }, true, "SQUARE_APPLICATION_SECRET"},
	{"atlassian-api-token", "ATATT3 + 186 of A-Za-z0-9_=-", func() string { return "ATATT3" + mixed(url64+"=", 186) }, true, "JIRA_API_TOKEN"},
	{"dropbox-token", "sl. + 135 of A-Za-z0-9_-", func() string { return "sl." + mixed(url64, 135) }, true, "DROPBOX_ACCESS_TOKEN"},
	{"discord-bot-token", "M + 23 alnum + . + 6 + . + 27 of A-Za-z0-9_-", func() string { return "M" + mixed(alnum, 23) + "." + mixed(url64, 6) + "." + mixed(url64, 27) }, true, "DISCORD_TOKEN"},
	{"telegram-bot-token", "10 digits + :AA + 33 of A-Za-z0-9_-", func() string { return r("123456789", 1) + r(digits, 9) + ":AA" + mixed(url64, 33) }, true, "TELEGRAM_BOT_TOKEN"},
	{"azure-ad-client-secret", "3 + digit + Q~ + 34 of A-Za-z0-9_~.-", func() string { return mixed(alnum, 3) + r(digits, 1) + "Q~" + mixed(alnum+"_~.-", 34) }, true, "AZURE_CLIENT_SECRET"},
	{"azure-storage-account-key", "86 base64 + ==", func() string { return mixed(b64, 86) + "==" }, false, "AccountKey"},
	{"databricks-token", "dapi + 32 hex", func() string { return "dapi" + hex(32) }, true, "DATABRICKS_TOKEN"},
	{"vault-service-token", "hvs. + 90 of A-Za-z0-9_-", func() string { return "hvs." + mixed(url64, 90) }, true, "VAULT_TOKEN"},
	{"terraform-cloud-token", "14 alnum + .atlasv1. + 67 of A-Za-z0-9_=-", func() string { return mixed(alnum, 14) + ".atlasv1." + mixed(url64+"=", 67) }, true, "TFE_TOKEN"},
	{"doppler-token", "dp.pt. + 43 alnum", func() string { return "dp.pt." + mixed(alnum, 43) }, true, "DOPPLER_TOKEN"},
	{"linear-api-key", "lin_api_ + 40 alnum", func() string { return "lin_api_" + mixed(alnum, 40) }, true, "LINEAR_API_KEY"},
	{"notion-token", "ntn_ + 11 digits + 35 alnum", func() string { return "ntn_" + r(digits, 11) + mixed(alnum, 35) }, true, "NOTION_TOKEN"},
	{"postman-api-key", "PMAK- + 24 hex + - + 34 hex", func() string { return "PMAK-" + hex(24) + "-" + hex(34) }, true, "POSTMAN_API_KEY"},
	{"grafana-service-account-token", "glsa_ + 32 alnum + _ + 8 hex", func() string { return "glsa_" + mixed(alnum, 32) + "_" + hex(8) }, true, "GRAFANA_TOKEN"},
	{"new-relic-user-key", "NRAK- + 27 of A-Z0-9", func() string { return "NRAK-" + r(upper+digits, 27) }, true, "NEW_RELIC_API_KEY"},
	{"sentry-user-token", "sntryu_ + 64 hex", func() string { return "sntryu_" + hex(64) }, true, "SENTRY_AUTH_TOKEN"},
	{"heroku-api-key-v2", "HRKU-AA + 58 of A-Za-z0-9_-", func() string { return "HRKU-AA" + mixed(url64, 58) }, true, "HEROKU_API_KEY"},
	{"age-secret-key", "AGE-SECRET-KEY-1 + 58 bech32", func() string { return "AGE-SECRET-KEY-1" + r(bech, 58) }, true, "SOPS_AGE_KEY"},
	{"docker-hub-pat", "dckr_pat_ + 27 of A-Za-z0-9_-", func() string { return "dckr_pat_" + mixed(url64, 27) }, true, "DOCKERHUB_TOKEN"},
	{"figma-pat", "figd_ + 40 of A-Za-z0-9_-", func() string { return "figd_" + mixed(url64, 40) }, true, "FIGMA_TOKEN"},
	{"airtable-pat", "pat + 14 alnum + . + 64 hex", func() string { return "pat" + mixed(alnum, 14) + "." + hex(64) }, true, "AIRTABLE_API_KEY"},
	{"supabase-token", "sbp_ + 40 hex", func() string { return "sbp_" + hex(40) }, true, "SUPABASE_ACCESS_TOKEN"},
	{"pulumi-token", "pul- + 40 hex", func() string { return "pul-" + hex(40) }, true, "PULUMI_ACCESS_TOKEN"},
	{"groq-api-key", "gsk_ + 52 alnum", func() string { return "gsk_" + mixed(alnum, 52) }, true, "GROQ_API_KEY"},
	{"xai-api-key", "xai- + 80 alnum", func() string { return "xai-" + mixed(alnum, 80) }, true, "XAI_API_KEY"},
	{"perplexity-api-key", "pplx- + 48 alnum", func() string { return "pplx-" + mixed(alnum, 48) }, true, "PERPLEXITY_API_KEY"},
	{"replicate-token", "r8_ + 37 alnum", func() string { return "r8_" + mixed(alnum, 37) }, true, "REPLICATE_API_TOKEN"},
	{"1password-service-account", "ops_eyJ + 300 base64", func() string { return "ops_eyJ" + mixed(b64, 300) }, true, "OP_SERVICE_ACCOUNT_TOKEN"},
	{"cloudflare-origin-ca-key", "v1.0- + 24 hex + - + 146 hex", func() string { return "v1.0-" + hex(24) + "-" + hex(146) }, true, "CF_ORIGIN_CA_KEY"},
	{"flyio-token", "fo1_ + 43 of A-Za-z0-9_-", func() string { return "fo1_" + mixed(url64, 43) }, true, "FLY_API_TOKEN"},
	{"planetscale-token", "pscale_tkn_ + 43 of A-Za-z0-9_-", func() string { return "pscale_tkn_" + mixed(url64, 43) }, true, "PLANETSCALE_SERVICE_TOKEN"},
	{"rubygems-key", "rubygems_ + 48 hex", func() string { return "rubygems_" + hex(48) }, true, "GEM_HOST_API_KEY"},
	{"alibaba-access-key-id", "LTAI + 20 alnum", func() string { return "LTAI" + mixed(alnum, 20) }, true, "ALIBABA_CLOUD_ACCESS_KEY_ID"},
	{"mapbox-secret-token", "sk.eyJ1Ijoi + 50 + . + 22 of A-Za-z0-9_-", func() string { return "sk.eyJ1Ijoi" + mixed(alnum, 50) + "." + mixed(url64, 22) }, true, "MAPBOX_SECRET_TOKEN"},
	{"adobe-client-secret", "p8e- + 32 alnum", func() string { return "p8e-" + mixed(alnum, 32) }, true, "ADOBE_CLIENT_SECRET"},
	{"jwt", "base64url header . payload . 43 signature", func() string {
		return b64url(`{"alg":"HS256","typ":"JWT"}`) + "." + b64url(fmt.Sprintf(`{"sub":"%s","name":"Ada","iat":%d}`, r(digits, 10), 1700000000+rng.IntN(10000000))) + "." + mixed(url64, 43)
	}, true, "ID_TOKEN"},
	{"rsa-private-key", "PEM RSA PRIVATE KEY block", pem("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA", 8), true, ""},
	{"ec-private-key", "PEM EC PRIVATE KEY block", pem("EC PRIVATE KEY", "MHcCAQEEI", 3), true, ""},
	{"openssh-private-key", "OPENSSH PRIVATE KEY block", pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAA", 6), true, ""},
	{"pkcs8-private-key", "PEM PRIVATE KEY block", pem("PRIVATE KEY", "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC", 8), true, ""},
	{"encrypted-private-key", "PEM ENCRYPTED PRIVATE KEY block", pem("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkq", 8), true, ""},
	{"pgp-private-key", "PGP PRIVATE KEY BLOCK", pem("PGP PRIVATE KEY BLOCK", "lQdGBGY", 8), true, ""},
}

type entry struct {
	ID      string `json:"id"`
	Format  string `json:"format"`
	Shape   string `json:"shape"`
	Context string `json:"context"`
	Text    string `json:"text"`
	Secret  string `json:"secret"`
}

var bareTmpl = []string{
	"echo %s",
	"output: %s done",
	"the value was '%s' yesterday",
	`["%s"]`,
	"copied %s to the clipboard",
}

var assignTmpl = []string{
	"export %s=%s",
	`%s: "%s"`,
	`{"%s": "%s"}`,
	"%s='%s'",
}

func main() {
	var out []entry
	n := 0
	add := func(f format, ctx, text, secret string) {
		n++
		out = append(out, entry{fmt.Sprintf("pv-%03d", n), f.name, f.shape, ctx, text, secret})
	}
	for i, f := range formats {
		key := f.gen()
		secret := key
		if strings.HasPrefix(key, "-----BEGIN") {
			lines := strings.Split(key, "\n")
			secret = strings.Join(lines[1:len(lines)-1], "\n")
			add(f, "bare", "key file:\n"+key+"\n", secret)
			add(f, "assigned", "cat ~/.ssh/deploy_key\n"+key, secret)
			continue
		}
		if f.bare {
			add(f, "bare", fmt.Sprintf(bareTmpl[i%len(bareTmpl)], key), secret)
		}
		key2 := f.gen()
		add(f, "assigned", fmt.Sprintf(assignTmpl[i%len(assignTmpl)], f.name2, key2), key2)
	}
	// Passwords in URLs and headers: secret only by position.
	pw := func() string { return mixed(alnum+"!*-_.~", 16) }
	urlf := format{name: "url-password", shape: "scheme://user:password@host"}
	for _, tmpl := range []string{
		"postgres://app:%s@db.internal:5432/prod",
		"git clone https://ada:%s@git.example.com/team/repo.git",
		"REDIS_URL=redis://:%s@cache.example.net:6379/0",
		"mongodb+srv://svc:%s@cluster0.example.net/db?retryWrites=true",
		"amqp://guest:%s@mq.local:5672/",
	} {
		p := pw()
		add(urlf, "assigned", fmt.Sprintf(tmpl, p), p)
	}
	hf := format{name: "authorization-header", shape: "Authorization: Basic|Bearer credential"}
	basic := base64.StdEncoding.EncodeToString([]byte("ada:" + pw()))
	add(hf, "assigned", `curl -H "Authorization: Basic `+basic+`" https://api.example.com/v1/me`, basic)
	bearer := mixed(url64, 40)
	add(hf, "assigned", "Authorization: Bearer "+bearer, bearer)
	ak := mixed(alnum, 32)
	add(format{name: "api-key-header", shape: "X-Api-Key: 32 alnum"}, "assigned", "curl -H 'X-Api-Key: "+ak+"' https://api.example.com", ak)
	pf := format{name: "config-password", shape: "password = value"}
	p := pw()
	add(pf, "assigned", `db_password = "`+p+`"`, p)
	p = pw()
	add(pf, "assigned", "mysql -u root --password="+p+" shop", p)
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for _, e := range out {
		enc.Encode(e)
	}
	fmt.Fprintf(os.Stderr, "%d entries, %d formats\n", len(out), len(formats)+5)
}
