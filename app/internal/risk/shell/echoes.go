package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands that name a path they cannot use in their error message print
// the word they were given: ls "$GITHUB_TOKEN" answers "ls: cannot
// access 'ghp_…': No such file or directory", and cd, stat, cat, head …
// the same. A word holding a variable that by its name holds a secret,
// given to one of them as a path, is printed as echo would print it; and
// when it is a path (GOOGLE_APPLICATION_CREDENTIALS), the readers print
// the file it names. test, [ and [[ print nothing of their operands, and
// ${#T} or ${T:+x} hold no secret (word.secret is empty).

// echoesOperands are the commands whose failures print the path operand
// they were given (GNU and BSD coreutils, the shells' cd and source).
var echoesOperands = map[string]bool{
	"ls": true, "cat": true, "stat": true, "cd": true, "pushd": true, "head": true, "tail": true, "wc": true,
	"file": true, "du": true, "readlink": true, "realpath": true, "source": true, ".": true, "less": true,
	"more": true, "nl": true, "tac": true, "od": true, "xxd": true, "hexdump": true, "strings": true,
	"md5sum": true, "sha256sum": true, "shasum": true, "md5": true, "cksum": true, "touch": true,
	"mkdir": true, "rmdir": true, "chmod": true, "chown": true, "ln": true, "cp": true, "mv": true,
	"rm": true, "diff": true, "cmp": true, "sort": true, "uniq": true, "cut": true,
	// type and GNU which name what they did not find; grep, rg, find,
	// tree and jq the file they could not open.
	"type": true, "which": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "find": true,
	"tree": true, "jq": true,
}

// operandsEchoed rates name's operands args: one holding a secret
// variable is printed (c.secretPrinted), once.
func (a *shellAn) operandsEchoed(name string, args []word, sp Span) {
	if !echoesOperands[name] {
		return
	}
	for _, w := range args {
		if w.secret != "" && !strings.HasPrefix(w.s, "-") {
			c := &call{a: a, name: name, span: sp}
			c.secretPrinted(w.secret)
			return
		}
	}
}

// redirectsEchoed rates a redirection to or from a word holding a secret
// variable (cat < "$TOKEN", echo x > "$TOKEN"): the shell names the file
// it cannot open in its error (bash: ghp_…: No such file or directory),
// and a file it creates is named with the secret for the next ls.
func (a *shellAn) redirectsEchoed(rs []*syntax.Redirect, rws [][]word) {
	for i, r := range rs {
		if i >= len(rws) || r.Word == nil {
			continue
		}
		switch r.Op {
		case syntax.RdrIn, syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
		default:
			continue // here-strings and here-documents are input, not a name
		}
		for _, w := range rws[i] {
			if w.secret != "" {
				c := &call{a: a, name: "the shell's redirection", span: a.span(r)}
				c.secretPrinted(w.secret)
				return
			}
		}
	}
}
