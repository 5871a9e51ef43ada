package redact

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// gitleaksRules turns gitleaks' default rule set into rules. A gitleaks
// rule is checked as gitleaks checks it: its keywords, its secret
// submatch (secretGroup, else the first non-empty one), a minimum Shannon
// entropy, and its own and the global allowlists (regexes on the secret,
// the match or the line; stop words in the secret). Rules for file paths
// are left out: String sees text, not files; so are the two in skipped.
// The generic rules (a name such as key= or token: beside a
// random-looking value) run with Airlock's name/value rules, after the
// formats.
//
// The set is compiled into gitleaks' package (config.DefaultConfig, its
// gitleaks.toml) and read with viper as gitleaks reads it; a set that does
// not load is a broken build, not a condition to handle at run time.
func gitleaksRules() []rule {
	cfg := gitleaksConfig()
	var out []rule
	for _, gr := range cfg.GetOrderedRules() {
		if gr.Regex == nil || gr.Path != nil || gr.SkipReport || len(gr.RequiredRules) > 0 || skipped[gr.RuleID] {
			continue
		}
		tier := tierFormat
		if strings.HasPrefix(gr.RuleID, "generic") {
			tier = tierName
		}
		out = append(out, rule{
			kind:  gr.RuleID,
			tier:  tier,
			re:    withoutLazyPrefix(gr.Regex),
			group: gr.SecretGroup,
			first: true,
			words: gr.Keywords,
			check: gitleaksCheck(gr.Entropy, slices.Concat(cfg.Allowlists, gr.Allowlists)),
		})
	}
	return out
}

// gitleaksConfig reads gitleaks' default rule set.
func gitleaksConfig() config.Config {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		panic(fmt.Sprintf("redact: reading gitleaks' rules: %v", err))
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		panic(fmt.Sprintf("redact: reading gitleaks' rules: %v", err))
	}
	cfg, err := vc.Translate()
	if err != nil {
		panic(fmt.Sprintf("redact: reading gitleaks' rules: %v", err))
	}
	return cfg
}

// skipped are gitleaks rules Airlock's own cover: its Authorization,
// header-name and curl -u rules find the same secrets within the line,
// where these read up to six lines after every "curl", which made them the
// costliest rules of the set on text dense with keywords.
var skipped = map[string]bool{"curl-auth-header": true, "curl-auth-user": true}

// gitleaksCheck accepts a find whose secret has more than minEntropy bits
// of entropy a character and that no allowlist lets through.
func gitleaksCheck(minEntropy float64, allow []*config.Allowlist) func(find) bool {
	return func(f find) bool {
		if minEntropy != 0 && entropy(f.secret) <= minEntropy {
			return false
		}
		for _, a := range allow {
			if allowed(a, f) {
				return false
			}
		}
		return true
	}
}

// allowed reports whether allowlist a lets find f through. Conditions on
// commits and paths never hold: there are none here.
func allowed(a *config.Allowlist, f find) bool {
	target := f.secret
	switch a.RegexTarget {
	case "match":
		target = f.match
	case "line":
		target = f.line()
	}
	regex := a.RegexAllowed(target)
	stop, _ := a.ContainsStopWord(f.secret)
	if a.MatchCondition != config.AllowlistMatchAnd {
		return regex || stop
	}
	if len(a.Commits) > 0 || len(a.Paths) > 0 {
		return false
	}
	return (len(a.Regexes) == 0 || regex) && (len(a.StopWords) == 0 || stop)
}

// entropy is the Shannon entropy of s in bits a character, counted as
// gitleaks counts it (characters over bytes).
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := make(map[rune]int)
	for _, c := range s {
		counts[c]++
	}
	var e float64
	for _, n := range counts {
		p := float64(n) / float64(len(s))
		e -= p * math.Log2(p)
	}
	return e
}
