package applescript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The path folder and the shell template as they were before they built
// their text in a buffer on the stack (oldFoldPath, oldTemplate, oldTerm):
// the oracles FuzzFoldAsBefore holds the new ones to. Each reads the same
// definitions the same way; only where the text is built changed.

// sameFolds compares foldPath and template with the old ones at every
// token of every statement of src, with the script's definitions
// collected, from the same fold budget, and the budget each leaves.
func sameFolds(t *testing.T, src string) {
	t.Helper()
	lx := lexAppleScript(src)
	defer lx.release()
	var v Verdict
	an := newAsAn(lx, &v, nil, 0)
	defer an.release()
	an.collect()
	calls := 0
	an.statements(func(st []asToken) {
		for i := range st {
			calls++
			if got, want := an.foldPath(st[i:], 0), an.oldFoldPath(st[i:], 0, false); got != want {
				t.Fatalf("foldPath of %q at token %d of %q: %q, before %q", src, i, src[st[0].start:st[len(st)-1].end], got, want)
			}
			work := an.foldWork
			gotV, gotW := an.template(st[i:], 0)
			gotWork := an.foldWork
			an.foldWork = work
			wantV, wantW := an.oldTemplate(st[i:], 0)
			if !slices.Equal(gotV, wantV) || gotW != wantW || gotWork != an.foldWork {
				t.Fatalf("template of %q at token %d: %q, %v (work %d), before %q, %v (work %d)", src, i, gotV, gotW, gotWork, wantV, wantW, an.foldWork)
			}
		}
	})
	if len(lx.toks) > 1 && calls == 0 {
		t.Fatalf("%q: no statement compared", src)
	}
}

// foldSeeds are scripts whose paths and commands fold: anchors, variables
// followed through their definitions, several definitions, quoted forms,
// handlers' returns, list items and character codes.
var foldSeeds = []string{
	`set p to (path to home folder as text) & ".zshrc"` + "\n" + `do shell script "cat " & quoted form of POSIX path of p`,
	`set d to path to library folder from local domain` + "\n" + `set f to d & "LaunchAgents:x.plist"` + "\n" + `write "x" to file f`,
	`set h to system attribute "HOME"` + "\n" + `set q to h & "/.ssh/id_rsa"` + "\n" + `read POSIX file q`,
	`set c to "rm"` + "\n" + `set c to "ls"` + "\n" + `do shell script c & " -la " & (path to desktop) & space & "x"`,
	`on cmd()` + "\n" + `return "echo hi"` + "\n" + `end cmd` + "\n" + `do shell script cmd() & linefeed`,
	`tell application "Finder" to set d to folder "hooks" of folder ".git" of folder "app" of home` + "\n" + `set f to (d as text) & "pre-commit"` + "\n" + `write "x" to file f`,
	`tell application "System Events" to set f to a reference to disk item ".netrc" of folder "me" of folder "Users" of startup disk` + "\n" + `read (f as alias)`,
	`tell application "Finder" to set p to POSIX path of ((file ".env" of folder "app" of home) as alias)` + "\n" + `do shell script "cat " & quoted form of p & " " & POSIX path of (path to desktop)`,
	`set L to {"a", "b"}` + "\n" + `do shell script item 1 of L & character id {114, 109} & ASCII character 32`,
	`make new file at folder ((path to library folder as text) & "LaunchAgents") with properties {name:"a"}`,
	`set a to a & a` + "\n" + `do shell script a & "/Users/" & (short user name of (system info)) & "/x"`,
}

func TestFoldAsBefore(t *testing.T) {
	srcs := slices.Clone(foldSeeds)
	for _, dir := range []string{"../testdata/bench", "../testdata"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.applescript"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, string(b))
		}
	}
	// The AppleScript cases of the analyzer's tests, as data.
	cases, _ := filepath.Glob("../testdata/*applescript*.jsonl")
	for _, f := range cases {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			var c struct{ Input string }
			if json.Unmarshal([]byte(line), &c) == nil && c.Input != "" {
				srcs = append(srcs, c.Input)
			}
		}
	}
	folded := 0
	for _, src := range srcs {
		sameFolds(t, src)
		if strings.Contains(src, "path to") {
			folded++
		}
	}
	if folded < 20 || len(cases) == 0 {
		t.Fatalf("%d case files; only %d of %d scripts hold a path to anchor: the comparison compares little", len(cases), folded, len(srcs))
	}
}

// FuzzFoldAsBefore: foldPath and template make what they made before, on
// any script.
func FuzzFoldAsBefore(f *testing.F) {
	for _, s := range foldSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2048 {
			// Every token's suffix is folded: quadratic in the statement
			// (4 KB of & took seconds, past the fuzzer's limit for a hung
			// worker on a loaded machine).
			return
		}
		sameFolds(t, src)
	})
}

// oldFoldPath is foldPath as it was, built in a strings.Builder: the oracle
// of FuzzFoldAsBefore. It folds a path expression whose start is a path to … anchor:
// (path to home folder as text) & ".zshrc" is ~/.zshrc. It returns "" when
// the expression has no anchor.
func (an *asAn) oldFoldPath(st []asToken, depth int, more bool) string {
	if depth > 3 {
		return ""
	}
	st = unwrapSpec(st)
	var b strings.Builder
	anchored := false
	for rest := st[:exprEnd(st)]; rest != nil; {
		var term []asToken
		term, rest = nextConcat(rest)
		if p, ok := an.finderTerm(posixOf(term), more || rest != nil); ok {
			b.WriteString(p)
			anchored = true
			continue
		}
		for len(term) > 0 && (term[0].op == '(' || term[0].kw == kwPosix || term[0].kw == kwPath && len(term) > 1 && term[1].kw == kwOf || term[0].kw == kwOf || term[0].kw == kwFile) {
			term = term[1:]
		}
		switch {
		case len(term) == 0:
		case term[0].kind == asString:
			frag := an.str(term[0])
			if strings.Contains(frag, ":") && !strings.Contains(frag, "/") {
				frag = strings.ReplaceAll(frag, ":", "/")
			}
			b.WriteString(strings.TrimPrefix(frag, "/"))
		case term[0].kw == kwSystem && len(term) > 2 && term[1].kw == kwAttribute && term[2].kind == asString && an.str(term[2]) == "HOME":
			b.WriteString("~/")
			anchored = true
		case len(term) > 2 && strings.EqualFold(an.text(term[0]), "home") && strings.EqualFold(an.text(term[1]), "directory") && term[2].kw == kwOf:
			// home directory of (system info): the home folder's POSIX path.
			b.WriteString("~/")
			anchored = true
		case hasWordSeq(term, kwUser, kwName):
			b.WriteString("user") // /Users/<short user name>/…: the user's own home
		case term[0].kw == kwPath && len(term) > 2 && term[1].kw == kwTo:
			anchor, ok := pathAnchors[an.text(term[2])]
			if !ok {
				return ""
			}
			switch {
			case !strings.HasPrefix(anchor, "~/"):
				if strings.HasPrefix(anchor, "/Applications/") && an.userDomain(st, term) {
					anchor = "~" + anchor // applications folder from user domain
				}
			case hasWord(term, kwLocal) || hasWord(term, kwSystem) && term[2].kw != kwSystem:
				anchor = "/" + strings.TrimPrefix(anchor, "~/") // from local domain: /Library/…
			}
			b.WriteString(anchor)
			anchored = true
		case term[0].kind == asWord || term[0].kind == asVar:
			inner := ""
			for d := an.firstDef(an.name(term[0])); d >= 0 && inner == ""; d = an.defList[d].next {
				inner = an.oldFoldPath(an.defList[d].expr, depth+1, more || rest != nil)
			}
			if inner == "" {
				return ""
			}
			b.WriteString(inner)
			anchored = true
		default:
			return ""
		}
	}
	if !anchored {
		return ""
	}
	return b.String()
}

func (an *asAn) oldTemplate(st []asToken, depth int) (variants []string, whole bool) {
	end := exprEnd(st)
	st = st[:end]
	if len(st) == 0 {
		return nil, true
	}
	// The common case: one string literal.
	if len(st) == 1 && st[0].kind == asString {
		return []string{an.str(st[0])}, false
	}
	// One spelling, built in place, until a variable with several
	// definitions forks it.
	var b strings.Builder
	literal := false
	for rest := st; rest != nil; {
		var term []asToken
		term, rest = nextConcat(rest)
		one, many, lit := an.oldTerm(term, depth)
		literal = literal || lit
		if many == nil {
			if variants == nil {
				b.WriteString(one)
			} else {
				for k := range variants {
					variants[k] += one
				}
			}
			continue
		}
		if variants == nil {
			variants = []string{b.String()}
		}
		var next []string
		for _, v := range variants {
			for _, p := range many {
				next = append(next, v+p)
			}
		}
		if len(next) > maxVariants {
			next = append(next[:maxVariants-1], rate.HoleUnquoted) // the rest: computed
		}
		variants = next
	}
	if variants == nil {
		variants = []string{b.String()}
	}
	return variants, !literal
}

func (an *asAn) oldTerm(t []asToken, depth int) (one string, many []string, literal bool) {
	for len(t) > 1 && t[0].isOp('(') && matchClose(t) == len(t)-1 {
		t = t[1 : len(t)-1]
	}
	// Trailing coercions: "…" as text.
	for len(t) > 2 && t[len(t)-2].kind == asWord && t[len(t)-2].kw == kwAs {
		t = t[:len(t)-2]
	}
	if _, rest := nextConcat(t); rest != nil && depth < 4 {
		vs, whole := an.oldTemplate(t, depth+1)
		if len(vs) == 1 {
			return vs[0], nil, !whole
		}
		return "", vs, !whole
	}
	switch {
	case len(t) == 0:
		return "", nil, false
	case len(t) == 1 && t[0].kind == asString:
		return an.str(t[0]), nil, true
	case len(t) == 1 && t[0].kind == asNumber:
		return an.text(t[0]), nil, true
	case len(t) >= 3 && t[0].kw == kwQuoted && t[1].kw == kwForm && t[2].kw == kwOf:
		rest := t[3:]
		if len(rest) == 1 && rest[0].kind == asString {
			return shellQuote(an.str(rest[0])), nil, true
		}
		if p, ok := an.posixPath(rest); ok {
			return shellQuotePath(p), nil, true
		}
		if depth < 4 { // evade9: the text it quotes, every part known (as term)
			if vs, whole := an.oldTemplate(rest, depth+1); len(vs) == 1 && !whole && !strings.Contains(vs[0], rate.HoleQuoted) &&
				!strings.Contains(vs[0], rate.HoleUnquoted) && !strings.Contains(vs[0], rate.HoleMark) {
				return shellQuotePath(vs[0]), nil, true
			}
		}
		return rate.HoleQuoted, nil, false
	case len(t) > 2 && (t[0].kw == kwCharacter && t[1].kw == kwId || t[0].kw == kwAscii && t[1].kw == kwCharacter):
		// character id {114, 109}, ASCII character 8: text spelled in codes.
		if s, ok := an.charCodes(t[2:], depth); ok {
			return s, nil, true
		}
		return rate.HoleUnquoted, nil, false
	case len(t) > 3 && t[0].kw == kwItem && depth < 4:
		if x, ok := an.listItem(t); ok {
			vs, whole := an.oldTemplate(x, depth+1)
			if len(vs) == 1 {
				return vs[0], nil, !whole
			}
			return "", vs, !whole
		}
		return rate.HoleUnquoted, nil, false
	case len(t) > 2 && t[1].isOp('(') && t[len(t)-1].isOp(')') && an.isSub(t[0]) && depth < 4:
		// lbl(): what the handler returns.
		var out []string
		lit := false
		for _, r := range an.returns {
			if r.handler == an.name(t[0]) {
				vs, whole := an.oldTemplate(r.expr, depth+1)
				lit = lit || !whole
				out = append(out, vs...)
			}
		}
		if len(out) == 0 || len(out) > maxVariants {
			return rate.HoleUnquoted, nil, false
		}
		if len(out) == 1 {
			return out[0], nil, lit
		}
		return "", out, lit
	case len(t) == 1 && t[0].kind == asWord && textConst[an.text(t[0])] != "" && !an.isVar(an.name(t[0])):
		return textConst[an.text(t[0])], nil, true
	case len(t) > 1 && t[0].isOp('('):
		vs, whole := an.oldTemplate(t[1:], depth+1)
		if len(vs) == 1 {
			return vs[0], nil, !whole
		}
		return "", vs, !whole
	case len(t) == 1 && (t[0].kind == asWord || t[0].kind == asVar):
		name := an.name(t[0])
		first := an.firstDef(name)
		// A variable being resolved refers to itself (set a to a & a), or
		// the work budget is spent: what it holds is computed.
		an.foldWork++
		if first < 0 || depth >= 4 || an.lookup(name).resolving || an.foldWork > maxFoldWork {
			return rate.HoleUnquoted, nil, false
		}
		an.lookup(name).resolving = true
		defer func() { an.lookup(name).resolving = false }()
		var out []string
		lit := false
		for k := first; k >= 0; k = an.defList[k].next {
			d := an.defList[k].expr
			if d == nil {
				out = append(out, rate.HoleUnquoted)
				continue
			}
			vs, whole := an.oldTemplate(d, depth+1)
			lit = lit || !whole
			out = append(out, vs...)
		}
		if len(out) > maxVariants {
			// Not every spelling is analysed: the ones left out count as
			// computed text (fail closed).
			out = append(out[:maxVariants-1], rate.HoleUnquoted)
		}
		if len(out) == 1 {
			return out[0], nil, lit
		}
		return "", out, lit
	}
	if p, ok := an.posixPath(t); ok {
		return p, nil, true
	}
	// Anything else (POSIX path of x, item 1 of argv, a handler call …) is
	// computed text.
	return rate.HoleUnquoted, nil, false
}
