package applescript

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// oldGuardString is guardString as it was before the guard kept its
// answers (guardStringMemo) and was split into literalGuard and
// pathGuard: the oracle FuzzGuardMemo holds both ways to.
func (an *asAn) oldGuardString(st []asToken, k int, g *stmtGuard) {
	t := st[k]
	s := an.str(t)
	sp := tokSpan(t)
	if an.env.SelfApp(s) {
		an.add(effect.Of(effect.Refused), "as.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", rate.Display(s))
		return
	}
	if what, ok := rate.SecurityPrompt(s); ok {
		an.add(effect.Of(effect.SecurityOff), "as.security-prompt", sp, "%s shows %s: a script that drives it answers for the person", rate.Display(s), what)
		return
	}
	if rate.NamesSelf(s) {
		an.add(effect.Of(effect.Refused), "as.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", rate.Display(s))
		return
	}
	if _, ok := rate.ScriptPath(s); !ok {
		return
	}
	g.verbs(an, st)
	if k > 0 && st[k-1].isOp('&') {
		for _, f := range rate.GuardScriptTail(an.env, s, g.u, true) {
			an.finding(f, sp)
		}
		return
	}
	asPath := g.reads
	if k > 0 {
		switch st[k-1].kw {
		case kwFile, kwFolder, kwAlias, kwPosix, kwDisk, kwItem, kwPath:
			asPath = true
		}
	}
	for _, f := range rate.GuardScriptPath(an.env, s, g.u, asPath) {
		an.finding(f, sp)
	}
}

// oldGuard is guard as it was: every literal through oldGuardString.
func (an *asAn) oldGuard() {
	toks, ends := an.lx.toks, an.lx.ends
	var g stmtGuard
	e, start := 0, int32(0)
	for _, k := range an.lx.strs {
		if ends[e] < k {
			for ends[e] < k {
				start = ends[e] + 1
				e++
			}
			g = stmtGuard{}
		}
		an.oldGuardString(toks[start:ends[e]], int(k-start), &g)
	}
}

// guardEnv is an Env, begun for the test, whose home is a temporary
// folder, with the other analyzers left out (noLanguages), so that the
// path guard has a home to read paths against.
func guardEnv(t testing.TB) *Env {
	cfg, err := sanitize.NewConfig(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	env, end := (&Env{Paths: cfg}).Begin(context.Background(), noLanguages{})
	t.Cleanup(func() { end(&Verdict{}) }) // the assessment's slot back
	return env
}

// withMemoFrom runs f with guardMemoFrom set to n.
func withMemoFrom(n int, f func()) {
	old := guardMemoFrom
	guardMemoFrom = n
	defer func() { guardMemoFrom = old }()
	f()
}

// guardOut is what the guard step adds: its reasons, and the one-item
// effects it notes for repeatedEffects.
type guardOut struct {
	reasons []rate.Reason
	effects []asEffect
}

// sameGuards analyses src up to the guard, then runs the guard step three
// ways from the same state: the old one (oldGuard), guard without its
// memo, and guard with it. All three must add the same reasons and
// effects, in the same order. It returns how many reasons the old one
// added.
func sameGuards(t *testing.T, env *Env, src string) int {
	t.Helper()
	lx := lexAppleScript(src)
	defer lx.release()
	var v Verdict
	an := newAsAn(lx, &v, env, 0)
	defer an.release()
	an.collect()
	an.run()
	n := len(an.effects)
	step := func(f func()) guardOut {
		var gv Verdict
		an.v = &gv
		an.effects = an.effects[:n]
		f()
		return guardOut{gv.Reasons, append([]asEffect(nil), an.effects[n:]...)}
	}
	want := step(an.oldGuard)
	var direct, memo guardOut
	withMemoFrom(math.MaxInt, func() { direct = step(an.guard) })
	withMemoFrom(0, func() { memo = step(an.guard) })
	if !reflect.DeepEqual(direct, want) {
		t.Fatalf("guard without its memo on %q:\n%+v\nbefore:\n%+v", src, direct, want)
	}
	if !reflect.DeepEqual(memo, want) {
		t.Fatalf("guard with its memo on %q:\n%+v\nbefore:\n%+v", src, memo, want)
	}
	an.v = &v
	return len(want.reasons)
}

// guardSeeds are scripts whose literals the guard has something to say
// of, each several times with different uses: Airlock named, a security
// prompt's process, the key-store items, paths read, written, deleted,
// ending a computed path, after POSIX file, in a handler called in a loop.
var guardSeeds = []string{
	`tell application "Airlock" to quit` + "\n" + `tell application "airlock" to activate` + "\n" + `tell application "Airlock" to quit`,
	`tell application "System Events" to click button "Allow" of window 1 of process "SecurityAgent"` + "\n" + `set p to "SecurityAgent"` + "\n" + `set q to "coreautha.app"`,
	`do shell script "security find-generic-password -s dev.airlock.Airlock"` + "\n" + `set k to "dev.airlock.Airlock"`,
	`read POSIX file "~/.ssh/id_rsa"` + "\n" + `set f to "~/.ssh/id_rsa"` + "\n" + `write "x" to file "~/.ssh/id_rsa"` + "\n" + `delete POSIX file "~/.ssh/id_rsa"` + "\n" + `read "~/.ssh/id_rsa"`,
	`set h to (path to home folder as text)` + "\n" + `write "x" to file (h & "/Library/Application Support/Airlock/settings.json")` + "\n" + `set t to h & "/Library/Application Support/Airlock/settings.json"` + "\n" + `read POSIX file "/private/etc/master.passwd"`,
	`tell application "Finder" to delete folder "/System/Library"` + "\n" + `tell application "Finder" to move file "/etc/hosts" to folder "/"` + "\n" + `set x to "/etc/hosts"`,
	`on wipe(p)` + "\n" + `tell application "Finder" to delete (POSIX file "/System/Library/Extensions")` + "\n" + `end wipe` + "\n" + `repeat 3 times` + "\n" + `wipe("/Users/x/Documents")` + "\n" + `end repeat`,
	`set a to "Macintosh HD:Users:me:.ssh:id_rsa"` + "\n" + `open for access file "Macintosh HD:Users:me:.ssh:id_rsa"` + "\n" + `display dialog "Time: " & "12:30"`,
	`make new file at "~/Library/LaunchAgents/x.plist"` + "\n" + `duplicate "~/Library/LaunchAgents/x.plist" to "~/Library/LaunchAgents/y.plist"` + "\n" + `display dialog "~/Library/LaunchAgents/x.plist"` + "\n" + `write "x" to POSIX file "/etc/hosts"`,
}

// guardCases returns the seeds, each three times over (so that the memo
// answers from what it kept), the benchmark script, and the case files'
// AppleScript inputs.
func guardCases(t *testing.T) []string {
	var srcs []string
	for _, s := range guardSeeds {
		srcs = append(srcs, s, strings.Repeat(s+"\n", 3))
	}
	srcs = append(srcs, benchSrc(8<<10))
	files, err := filepath.Glob("../testdata/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if src, ok := caseScript(line); ok {
				srcs = append(srcs, src)
			}
		}
	}
	return srcs
}

// TestGuardMemo: on the seeds, the benchmark script and the case files,
// the guard adds what it added before, with its memo and without; the
// seeds each hold something for the guard, so the comparison compares.
func TestGuardMemo(t *testing.T) {
	env := guardEnv(t)
	for _, s := range guardSeeds {
		if sameGuards(t, env, s) == 0 {
			t.Fatalf("seed %q: the guard adds nothing: it tests nothing", s)
		}
	}
	srcs := guardCases(t)
	if len(srcs) < 100 {
		t.Fatalf("only %d scripts to compare", len(srcs))
	}
	for _, s := range srcs {
		sameGuards(t, env, s)
	}
}

// TestGuardMemoRate: a whole assessment with the guard's memo is the one
// without it, on the same scripts.
func TestGuardMemoRate(t *testing.T) {
	env := guardEnv(t)
	for _, s := range guardCases(t) {
		var memo, direct Verdict
		withMemoFrom(0, func() { memo = Rate(s, env, 0) })
		withMemoFrom(math.MaxInt, func() { direct = Rate(s, env, 0) })
		if !reflect.DeepEqual(memo, direct) {
			t.Fatalf("%q: with the guard's memo\n%+v\nwithout\n%+v", s, memo, direct)
		}
	}
}

// FuzzGuardMemo: on any script, the guard with its memo and without adds
// what the old guard added.
func FuzzGuardMemo(f *testing.F) {
	for _, s := range guardSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 16<<10 {
			return
		}
		sameGuards(t, guardEnv(t), src)
	})
}

// caseScript returns the input of a case file's line when it is an
// AppleScript.
func caseScript(line string) (string, bool) {
	var c struct{ Kind, Input string }
	if json.Unmarshal([]byte(line), &c) != nil || c.Kind != "applescript" {
		return "", false
	}
	return c.Input, true
}
