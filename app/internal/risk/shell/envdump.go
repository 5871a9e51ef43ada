package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The whole environment printed (env, printenv, set, declare -x, export -p,
// ps eww, /proc/PID/environ) is a named secret read: Caution while only
// names, a count or variables picked by a harmless pattern come out
// (env | grep -i proxy, printenv | cut -d= -f1, env | wc -l). Its values
// printed back to the agent, every token among them, are a secret read,
// as jq -n env and printenv GITHUB_TOKEN are (Dangerous): the command
// alone, or a pipeline whose later stages pass the values on (sort, cat,
// tee, less …), or pick the secrets out (grep -i token).

// envDumped notes that a command printed the whole environment at sp.
func (a *shellAn) envDumped(sp Span) {
	if a.envAt == nil {
		a.envAt = &sp
	}
}

// envToAgent rates the whole environment printed at sp reaching the agent
// with its values.
func (a *shellAn) envToAgent(sp Span, how string) {
	a.add(effect.Of(effect.ReadSecret), "secret.environment-values", sp, "the whole environment's values go on%s, every token and key among them", how)
	a.secretAt(sp)
}

// stdoutRedirected reports a redirection of s that sends stdout away from
// the agent (to a file; /dev/stdout and /dev/stderr excepted).
func stdoutRedirected(s *syntax.Stmt, rws [][]word) bool {
	for i, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
			if r.N != nil && r.N.Value != "1" {
				continue
			}
			t := r.Word.Lit()
			if i < len(rws) && len(rws[i]) == 1 {
				t = rws[i][0].s
			}
			if t == "/dev/stdout" || t == "/dev/stderr" || t == "/dev/tty" {
				continue
			}
			return true
		}
	}
	return false
}

// stdoutToStderr reports a redirection of s that sends stdout to the
// agent another way: onto stderr (>&2, 1>&2, >/dev/stderr, >/dev/fd/2),
// another descriptor (>&3, which exec 3>&2 may have made stderr) or the
// terminal. In a pipeline (env >&2 | wc -l) the next stage then
// counts nothing while the values reach the agent.
func stdoutToStderr(s *syntax.Stmt, rws [][]word) bool {
	for i, r := range s.Redirs {
		if r.N != nil && r.N.Value != "1" {
			continue
		}
		t := r.Word.Lit()
		if i < len(rws) && len(rws[i]) == 1 {
			t = rws[i][0].s
		}
		switch r.Op {
		case syntax.DplOut:
			if t != "1" && t != "-" {
				return true // >&2, or >&3 where exec 3>&2 put stderr
			}
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
			if t == "/dev/stderr" || t == "/dev/tty" || t == "/dev/fd/2" {
				return true
			}
		}
	}
	return false
}

// envFiltered reports whether a later stage of a pipeline keeps the
// environment's values from the agent: a count (wc, grep -c, grep -q),
// names only (cut -d= -f1), or lines picked by a pattern that does not
// speak of secrets (grep -i proxy, grep ^LANG). Only stages that pass the
// text on untouched (sort, uniq, cat) may stand between the dump and that
// filter, each with no redirection: any other (tee /dev/stderr, sort >&2,
// xargs) may send the values elsewhere first. A stage Airlock cannot read
// word by word passes them on.
func envFiltered(stages []*syntax.Stmt) (filtered bool, names int) {
	for i, s := range stages {
		words, ok := stageWords(s)
		if !ok || len(words) == 0 {
			return false, -1
		}
		name := commandName(words[0])
		args := words[1:]
		switch name {
		case "true", ":":
			return true, -1
		case "wc":
			if countOnly(args) {
				return true, -1
			}
		case "grep", "egrep", "fgrep", "rg", "ggrep":
			if grepHidesValues(args) {
				return true, -1
			}
		case "cut":
			if cutNamesOnly(args) {
				return true, i
			}
		case "head", "tail":
			if silentCount(args) {
				return true, -1
			}
		case "awk", "gawk", "mawk", "nawk":
			if awkNamesOnly(args) {
				return true, i
			}
		case "sed", "gsed":
			if len(args) == 1 && strings.ReplaceAll(args[0], " ", "") == "s/=.*//" {
				return true, i // the names: everything from = removed
			}
		}
		if len(s.Redirs) > 0 || !passesOn(name, args) {
			return false, -1
		}
	}
	return false, -1
}

// passesOn reports a pipeline stage that only passes its input on to the
// next, reordered or with repeats dropped: sort, uniq and cat with no
// operand and no option that writes a file (sort -o).
func passesOn(name string, args []string) bool {
	allowed, ok := passFlags[name]
	if !ok {
		return false
	}
	for _, s := range args {
		if len(s) < 2 || s[0] != '-' || strings.HasPrefix(s, "--") || strings.Trim(s[1:], allowed) != "" {
			return false
		}
	}
	return true
}

// passFlags are the flags of the stages passesOn lets through.
var passFlags = map[string]string{"sort": "bdfginrRuV", "uniq": "cdiu", "cat": ""}

// countOnly reports wc counting its input and nothing else: -l, -w, -c,
// -m, -L and their long forms. --files0-from reads file names from the
// input and prints each one it cannot open, values and all.
func countOnly(args []string) bool {
	for _, s := range args {
		switch {
		case s == "--lines" || s == "--words" || s == "--bytes" || s == "--chars" || s == "--max-line-length":
		case len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.Trim(s[1:], "lwcmL") == "":
		default:
			return false
		}
	}
	return true
}

// grepHidesValues reports a grep that prints a count, nothing, or file
// names, or lines picked by patterns that each name something (a word of
// three letters or more in every alternative) and none a secret. Any
// option beyond the few that only choose how to match (-v, context lines,
// --passthru …) lets the values through.
func grepHidesValues(args []string) bool {
	var pats []string
	patNext, count, fold := false, false, false
	for _, s := range args {
		switch {
		case patNext:
			pats = append(pats, s)
			patNext = false
		case s == "-e" || s == "--regexp":
			patNext = true
		case strings.HasPrefix(s, "--regexp="):
			pats = append(pats, s[len("--regexp="):])
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && len(s) > 1:
			flags := s[1:]
			if strings.HasSuffix(flags, "e") {
				patNext = true
				flags = flags[:len(flags)-1]
			}
			for _, f := range flags {
				fold = fold || f == 'i'
				switch {
				case strings.ContainsRune("cqlL", f):
					count = true // a count, nothing, or names
				case !strings.ContainsRune("iEFGwxnhsoP", f):
					return false // -v, -A 5, -f FILE …
				}
			}
		case s == "--count" || s == "--quiet" || s == "--silent" || s == "--files-with-matches":
			count = true
		case s == "--ignore-case":
			fold = true
		case s == "--extended-regexp" || s == "--fixed-strings" || s == "--word-regexp" || s == "--line-regexp":
		case strings.HasPrefix(s, "-"):
			return false
		default:
			if len(pats) == 0 {
				pats = append(pats, s)
			}
		}
	}
	if count {
		return true
	}
	if len(pats) == 0 {
		return false
	}
	for _, p := range pats {
		if secretPattern(p) || !namesSomething(p) || !plainPattern(p) || picksSecretVariable(p, fold) {
			return false
		}
	}
	return true
}

// plainPattern reports a pattern that is words and alternatives only:
// letters, digits, _, -, space, = and /, an anchor at either end,
// parentheses that group, and | or \| between alternatives. Any other
// character is regular expression syntax that can match every line while
// naming something: (HOME)?, HOME|[[:alpha:]], [ABC…Z], (?!HOME), or a
// newline that starts an empty pattern.
func plainPattern(p string) bool {
	for _, alt := range strings.Split(strings.ReplaceAll(p, `\|`, "|"), "|") {
		alt = strings.TrimPrefix(alt, "^")
		alt = strings.NewReplacer("(", "", ")", "").Replace(alt) // ^(SHELL|TERM)=: grouping, no quantifier after it
		alt = strings.TrimSuffix(alt, "$")
		if alt == "" || strings.TrimLeft(alt, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-=/ ") != "" {
			return false
		}
	}
	return true
}

// namesSomething reports a pattern each of whose alternatives holds a
// word of three letters or digits or more: "." or "=" or "a|PATH" match
// nearly every line.
func namesSomething(p string) bool {
	for _, alt := range strings.FieldsFunc(strings.ReplaceAll(p, `\|`, "|"), func(r rune) bool { return r == '|' }) {
		run, long := 0, false
		for _, r := range alt {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
				run++
				long = long || run >= 3
			} else {
				run = 0
			}
		}
		if !long {
			return false
		}
	}
	return strings.Trim(p, "|") != "" && !strings.Contains(p, "||") && !strings.HasPrefix(p, "|") && !strings.HasSuffix(p, "|")
}

// secretPattern reports a grep pattern that names a secret: one of its
// words, or the whole of it, is a secret variable's name or part of one
// (token, key, secret, pass, auth, cred).
func secretPattern(p string) bool {
	up := strings.ToUpper(p)
	if rate.SecretVariable(up) {
		return true
	}
	for _, w := range strings.FieldsFunc(up, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) {
		if rate.SecretVariable(w) {
			return true
		}
		for _, part := range []string{"KEY", "PASS", "CRED", "SESSION", "COOKIE", "BEARER", "JWT", "SIGNING", "PRIVATE"} {
			if strings.Contains(w, part) {
				return true
			}
		}
	}
	return false
}

// wellKnownSecrets are variables that hold a token, a key or a password
// under a name a harmless-looking pattern is part of: grep AWS picks
// AWS_SECRET_ACCESS_KEY, grep URL picks DATABASE_URL and its password,
// grep -i openai the API key.
var wellKnownSecrets = []string{
	"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "OPENAI_API_KEY",
	"ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "STRIPE_SECRET_KEY",
	"SLACK_BOT_TOKEN", "NPM_TOKEN", "DATABASE_URL", "REDIS_URL", "MONGODB_URI", "SENTRY_DSN", "DOCKER_PASSWORD",
	"AZURE_CLIENT_SECRET", "CLOUDFLARE_API_TOKEN", "VERCEL_TOKEN", "SUPABASE_SERVICE_ROLE_KEY", "TWILIO_AUTH_TOKEN",
}

// picksSecretVariable reports a plain pattern one of whose alternatives
// is part of a well-known secret variable's NAME=VALUE line (compared
// without case under -i).
func picksSecretVariable(p string, fold bool) bool {
	for _, alt := range strings.Split(strings.ReplaceAll(p, `\|`, "|"), "|") {
		alt = strings.NewReplacer("(", "", ")", "").Replace(alt)
		anchored := strings.HasPrefix(alt, "^")
		alt = strings.TrimSuffix(strings.TrimPrefix(alt, "^"), "$")
		if fold {
			alt = strings.ToUpper(alt)
		}
		for _, n := range wellKnownSecrets {
			line := n + "="
			if anchored && strings.HasPrefix(line, alt) || !anchored && strings.Contains(line, alt) {
				return true
			}
		}
	}
	return false
}

// cutNamesOnly reports cut -d= -f1: the variables' names. Any option
// beyond the delimiter, the fields, -s and the output delimiter
// (--complement above all, which prints every field but the first) lets
// the values through.
func cutNamesOnly(args []string) bool {
	delim, fields := "", ""
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "-s" || s == "--only-delimited" || strings.HasPrefix(s, "--output-delimiter="):
		case s == "-d" && i+1 < len(args):
			i++
			delim = args[i]
		case strings.HasPrefix(s, "-d"):
			delim = s[2:]
		case strings.HasPrefix(s, "--delimiter="):
			delim = s[len("--delimiter="):]
		case s == "-f" && i+1 < len(args):
			i++
			fields = args[i]
		case strings.HasPrefix(s, "-f"):
			fields = s[2:]
		case strings.HasPrefix(s, "--fields="):
			fields = s[len("--fields="):]
		default:
			return false
		}
	}
	return delim == "=" && fields == "1"
}

// silentCount reports head or tail told to print nothing (-n 0, -c 0):
// every count it is given is 0 (the last one given wins: head -n 0 -n 500
// prints 500 lines), and it has no other option.
func silentCount(args []string) bool {
	zero := false
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "-n0" || s == "-c0" || s == "--lines=0" || s == "--bytes=0":
			zero = true
		case (s == "-n" || s == "-c" || s == "--lines" || s == "--bytes") && i+1 < len(args) && args[i+1] == "0":
			zero = true
			i++
		default:
			return false
		}
	}
	return zero
}

// stageWords is the literal words of a pipeline stage that is a simple
// command (single-quoted, double-quoted and plain text): ok is false for
// any other stage or a word computed at run time.
func stageWords(s *syntax.Stmt) ([]string, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return nil, false
	}
	words := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		var b strings.Builder
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				for _, q := range p.Parts {
					l, ok := q.(*syntax.Lit)
					if !ok {
						return nil, false
					}
					b.WriteString(l.Value)
				}
			default:
				return nil, false
			}
		}
		words = append(words, b.String())
	}
	return words, true
}

// awkNamesOnly reports awk -F= '{print $1}': the variables' names.
func awkNamesOnly(args []string) bool {
	sep, prog := "", ""
	for i := 0; i < len(args); i++ {
		switch s := args[i]; {
		case s == "-F" && i+1 < len(args):
			i++
			sep = args[i]
		case strings.HasPrefix(s, "-F"):
			sep = s[2:]
		case strings.HasPrefix(s, "-"):
			return false
		case prog == "":
			prog = s
		default:
			return false // a file operand: not the pipeline's text
		}
	}
	return sep == "=" && strings.Join(strings.Fields(prog), "") == "{print$1}"
}

// compgenCommand rates compgen (bash): it prints the names it completes
// (variables, commands, files), no values, but -C runs a command, -F a
// function, and a -W word list is expanded as the shell expands words,
// substitutions and all. The variables' names (-v, -e, -A variable,
// export or arrayvar) are noted (namesAt): fed on to a command, each
// name reaches its value (${!v}, printenv "$v", declare -p "$v").
func compgenCommand(c *call) {
	for i, w := range c.args {
		s := w.s
		switch {
		case w.hole:
		case s == "-A" && i+1 < len(c.args) && (c.args[i+1].hole || variableAction[c.args[i+1].s]),
			len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsAny(strings.SplitN(s[1:], "A", 2)[0], "ve"):
			if c.a.namesAt == nil {
				sp := c.span
				c.a.namesAt = &sp
			}
		case s == "-W" && i+1 < len(c.args) && (c.args[i+1].hole || strings.ContainsAny(c.args[i+1].s, "$`")):
			c.add(effect.Of(effect.RunComputed), "compgen", "compgen -W expands its word list as the shell does, substitutions included")
		}
	}
}

// variableAction are compgen -A's actions that list variables.
var variableAction = map[string]bool{"variable": true, "export": true, "arrayvar": true}

// namesFed rates the variables' names compgen listed at sp going on to
// a command (a loop over a substitution, xargs, while read) that can
// print each one's value: the whole environment's values, as env's.
func (a *shellAn) namesFed(sp Span, how string) {
	a.add(effect.Of(effect.ReadSecret), "secret.environment-values", sp, "the variables' names go on through %s to commands that can print each one's value, every token and key among them", how)
	a.secretAt(sp)
}

// namesKept reports later pipeline stages that only filter, count or
// arrange the names (grep, wc, sort, head, column …): none reaches a
// value.
func namesKept(stages []*syntax.Stmt) bool {
	for _, s := range stages {
		words, ok := stageWords(s)
		if !ok || len(words) == 0 {
			return false
		}
		switch commandName(words[0]) {
		case "grep", "egrep", "fgrep", "rg", "wc", "sort", "uniq", "head", "tail", "cut", "column", "cat", "tr", "tee", "less", "more", "fold", "pr":
		default:
			return false
		}
	}
	return true
}

func init() {
	if _, ok := commands["compgen"]; ok {
		panic("shell: compgen has a row already")
	}
	commands["compgen"] = row{run: compgenCommand, opts: &opts{short: "abcdefgjksuv", valued: "oAGWXPSV", effects: map[string]optEffect{
		"-C": optFx(effect.RunUnseen, "runs a command to complete"),
		"-F": optFx(effect.RunUnseen, "runs a shell function to complete"),
	}}}
}
