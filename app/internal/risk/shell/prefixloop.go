package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// A loop over the names of the variables that begin with a prefix
// (for n in ${!GITHUB@}; do echo "${!n}"; done) prints each one's value
// through ${!n}: the names are chosen at run time, and with a prefix a
// secret's name begins with, GITHUB_TOKEN is among them. ${!n} inside
// such a loop is taken for such a variable (f.param), printed as echo
// "$GITHUB_TOKEN" is; the names alone (echo "${!GITHUB@}") print no value.

// knownSecretNames are variables that hold credentials by convention, for
// the prefixes that reach them (GITHUB, AWS_, OPENAI …).
var knownSecretNames = []string{
	"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID",
	"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "NPM_TOKEN", "PYPI_TOKEN", "SLACK_TOKEN", "HEROKU_API_KEY",
	"DIGITALOCEAN_TOKEN", "CLOUDFLARE_API_TOKEN", "HF_TOKEN", "HUGGINGFACE_TOKEN", "DOCKER_PASSWORD",
	"GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CLIENT_SECRET", "STRIPE_SECRET_KEY", "SENTRY_AUTH_TOKEN",
	"VAULT_TOKEN", "DATABASE_URL", "CODECOV_TOKEN", "TWILIO_AUTH_TOKEN",
}

// prefixReachesSecret reports a prefix whose variables may hold a
// secret: its own name says so (API_TOKEN_), or a conventional secret's
// name begins with it (GITHUB, AWS_, O).
func prefixReachesSecret(p string) bool {
	if p == "" || rate.SecretVariable(p) {
		return true
	}
	for _, n := range knownSecretNames {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// bindPrefixLoop notes, for the body of for n in ${!P@} (or ${!P*}), that
// ${!n} is a variable beginning with P when P reaches a secret
// (prefixReachesSecret); the function returned undoes it.
func (a *shellAn) bindPrefixLoop(it *syntax.WordIter) func() {
	prefix, found := "", false
	if lits, ok := literalItems(it); ok {
		// for n in HOME USER GITHUB_TOKEN: the names are the words; ${!n}
		// is a secret's value when one of them names a secret.
		marker := ""
		for _, l := range lits {
			if secretName(l) {
				marker = l
				break
			}
		}
		return a.bindLoopNames(it.Name.Value, marker)
	}
	names, other := false, false // ${!P@} items; items of another kind
	for _, w := range it.Items {
		if l := w.Lit(); l != "" {
			if secretName(l) {
				return a.bindLoopNames(it.Name.Value, l) // for n in ${!BASH@} GITHUB_TOKEN
			}
			continue
		}
		listed := false
		syntax.Walk(w, func(n syntax.Node) bool {
			if p, ok := n.(*syntax.ParamExp); ok && p.Excl && p.Names != 0 && p.Param != nil {
				listed = true
				if prefixReachesSecret(p.Param.Value) {
					prefix, found = p.Param.Value, true
				}
			}
			return !found
		})
		names = names || listed
		other = other || !listed
	}
	switch {
	case found:
		return a.bindLoopNames(it.Name.Value, prefix+"…")
	case names && !other:
		// for n in ${!BASH@}: names no secret's begins as.
		return a.bindLoopNames(it.Name.Value, "")
	}
	return func() {}
}

// literalItems returns the words of a for loop when each is literal
// text.
func literalItems(it *syntax.WordIter) ([]string, bool) {
	var out []string
	for _, w := range it.Items {
		l := w.Lit()
		if l == "" {
			return nil, false
		}
		out = append(out, l)
	}
	return out, len(out) > 0
}

// bindLoopNames notes that ${!name} is the variable marker stands for in
// the loop's body ("" for names that hold no secret); the function
// returned undoes it.
func (a *shellAn) bindLoopNames(name, marker string) func() {
	if a.prefixLoops == nil {
		a.prefixLoops = map[string]string{}
	}
	prev, had := a.prefixLoops[name]
	a.prefixLoops[name] = marker
	return func() {
		if had {
			a.prefixLoops[name] = prev
		} else {
			delete(a.prefixLoops, name)
		}
	}
}
