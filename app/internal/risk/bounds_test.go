package risk_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// The bombs below are text that is only ever assessed, never run: each is
// built here in Go and handed to the analyzer, not to a shell.

// quoteSh quotes s for a POSIX shell in single quotes ('\” for each ').
func quoteSh(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// quoteAS quotes s as an AppleScript string.
func quoteAS(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// quoteJS quotes s as a JavaScript string in single quotes.
func quoteJS(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

// nestedShell is the shell bomb of issue 12: inner wrapped levels times in
// sh -c '…', each level quoting the last again. Around "rm -rf
// ~/Documents", 12 levels make 797,238 bytes.
func nestedShell(levels int, inner string) string {
	for range levels {
		inner = "sh -c " + quoteSh(inner)
	}
	return inner
}

// TestNestedShellBomb: issue 12's bomb is cut off, by the text budget
// (its first level is 797 KB, its second 266 KB: 1 MiB in all is spent
// before the second is read); the same nesting 12 deep around shorter
// quoting is cut off by the depth bound.
func TestNestedShellBomb(t *testing.T) {
	bomb := nestedShell(12, "rm -rf ~/Documents")
	if n := len(bomb); n < 790_000 || n > 810_000 {
		t.Fatalf("the bomb is %d bytes, want about 800 KB", n)
	}
	v, err := risk.AssessContext(context.Background(), risk.KindShell, bomb, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantCutOff(t, v, "too much to analyse")

	dq := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	deep := "rm -rf ~/Documents"
	for range 12 {
		deep = `sh -c "` + dq.Replace(deep) + `"`
	}
	v, err = risk.AssessContext(context.Background(), risk.KindShell, deep, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantCutOff(t, v, "too deeply nested to analyse")
}

// TestNestingFollowed: every way of running text as code is followed to the
// depth bound, in every language, and one level more is cut off.
func TestNestingFollowed(t *testing.T) {
	wraps := []struct {
		name   string
		kind   risk.Kind
		levels int // of analysis that one wrap adds
		wrap   func(string) string
	}{
		{"sh -c", risk.KindShell, 1, func(s string) string { return "sh -c " + quoteSh(s) }},
		{"bash -c", risk.KindShell, 1, func(s string) string { return "bash -c " + quoteSh(s) }},
		{"eval", risk.KindShell, 1, func(s string) string { return "eval " + quoteSh(s) }},
		{"osascript -e", risk.KindShell, 2, func(s string) string {
			return "osascript -e " + quoteSh("do shell script "+quoteAS(s))
		}},
		{"do shell script", risk.KindAppleScript, 2, func(s string) string {
			return "do shell script " + quoteAS("osascript -e "+quoteSh(s))
		}},
		{"run script", risk.KindAppleScript, 1, func(s string) string { return "run script " + quoteAS(s) }},
		{"doShellScript", risk.KindJXA, 2, func(s string) string {
			return "var app = Application.currentApplication(); app.includeStandardAdditions = true;\n" +
				"app.doShellScript(" + quoteJS("osascript -l JavaScript -e "+quoteSh(s)) + ");"
		}},
		{"eval (JXA)", risk.KindJXA, 1, func(s string) string { return "eval(" + quoteJS(s) + ");" }},
		{"Function", risk.KindJXA, 1, func(s string) string { return "Function(" + quoteJS(s) + ")();" }},
	}
	inner := map[risk.Kind]string{
		risk.KindShell:       "rm -rf ~/Documents",
		risk.KindAppleScript: `do shell script "rm -rf ~/Documents"`,
		risk.KindJXA:         "var app = Application.currentApplication(); app.includeStandardAdditions = true; app.doShellScript('rm -rf ~/Documents');",
	}
	for _, w := range wraps {
		t.Run(w.name, func(t *testing.T) {
			// As deep as followed: the rm inside is found. (The inner
			// AppleScript and JXA run it one level down already.)
			src, depth := inner[w.kind], 0
			if w.kind != risk.KindShell {
				depth = 1
			}
			for depth+w.levels <= 8 {
				src, depth = w.wrap(src), depth+w.levels
			}
			v := risk.Assess(w.kind, src, fixtureEnv(t))
			if v.Level < level.Destructive || !hasText(v, "rm") || hasText(v, "too deeply nested") {
				t.Errorf("%d levels: %v, want destructive for the rm inside", depth, v)
			}
			// One wrap more: cut off.
			wantCutOff(t, risk.Assess(w.kind, w.wrap(src), fixtureEnv(t)), "too deeply nested to analyse")
		})
	}
}

// TestBudget: more text in all than the budget is cut off, even when no
// single script is too long or too deep.
func TestBudget(t *testing.T) {
	part := strings.Repeat("echo harmless; ", 7000) // 105 KB, safe alone
	if v := risk.Assess(risk.KindShell, "sh -c "+quoteSh(part), nil); v.Level != level.Safe {
		t.Fatalf("one part: %v, want safe", v)
	}
	var b strings.Builder
	for range 10 { // 10 × 105 KB, each analysed twice: 2.1 MB
		b.WriteString("sh -c " + quoteSh(part) + "\n")
	}
	wantCutOff(t, risk.Assess(risk.KindShell, b.String(), nil), "too much to analyse")

	// A short script that repeats a long value: $X$X$X… is not copied
	// without end (this took gigabytes and crashed the process).
	amp := "b=" + strings.Repeat("a", 1000) + "; a=\"" + strings.Repeat("$b", 1000) + "\"; c=\"" +
		strings.Repeat("$a", 1000) + "\"; sh -c \"$c\""
	if v := risk.Assess(risk.KindShell, amp, nil); v.Level < level.Dangerous {
		t.Errorf("amplified: %v, want at least dangerous", v)
	}

	// A script of a million one-character tokens (each costs the JXA
	// analysis hundreds of bytes).
	wantCutOff(t, risk.Assess(risk.KindJXA, "var x = "+strings.Repeat("-", 1_000_000)+"1;", nil), "too much to analyse")
}

// TestDeepSyntax: syntax nested deeper than any script a person approves
// is not parsed. Each of these, or the same a little larger, overflowed
// the stack of the analysing goroutine, which kills the whole process (no
// recover catches it), or took seconds.
func TestDeepSyntax(t *testing.T) {
	for name, src := range map[string]string{
		"subshells":    strings.Repeat("(", 300_000) + "ls" + strings.Repeat(")", 300_000),
		"arithmetic":   "echo $((" + strings.Repeat("(", 300_000) + "1" + strings.Repeat(")", 300_000) + "))",
		"defaults":     "echo " + strings.Repeat("${x:-", 160_000) + "a" + strings.Repeat("}", 160_000),
		"test not":     "[[ " + strings.Repeat("! ", 480_000) + "-n x ]]",
		"functions":    strings.Repeat("f() ", 240_000) + "ls",
		"and chain":    strings.Repeat("ls && ", 170_000) + "ls",
		"test and":     "[[ " + strings.Repeat("-n x && ", 125_000) + "-n x ]]",
		"ifs":          strings.Repeat("if true; then ", 1000) + "ls; " + strings.Repeat("fi; ", 1000),
		"case in case": "echo " + strings.Repeat("$(case x in a) ", 1000) + "ls" + strings.Repeat(" ;; esac)", 1000),
	} {
		t.Run(name, func(t *testing.T) {
			wantCutOff(t, risk.Assess(risk.KindShell, src, nil), "too deeply nested to analyse")
		})
	}
	wantCutOff(t, risk.Assess(risk.KindJXA, "var x = "+strings.Repeat("f(", 300_000)+"1"+strings.Repeat(")", 300_000)+";", nil), "too deeply nested to analyse")
	// Ordinary nesting is analysed.
	for _, ok := range []string{
		strings.Repeat("if true; then ", 20) + "rm -rf ~/Documents; " + strings.Repeat("fi; ", 20),
		strings.Repeat("ls && ", 100) + "rm -rf ~/Documents",
		strings.Repeat("ls; ", 10_000) + "rm -rf ~/Documents",
	} {
		if v := risk.Assess(risk.KindShell, ok, fixtureEnv(t)); hasText(v, "too deeply") || v.Level < level.Destructive {
			t.Errorf("%.40s…: %v", ok, v)
		}
	}
}

func TestAssessStopped(t *testing.T) {
	bomb := nestedShell(12, "rm -rf ~/Documents")
	t.Run("before it starts", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("the kill switch")
		cancel(cause)
		_, err := risk.AssessContext(ctx, risk.KindShell, bomb, nil)
		if !errors.Is(err, risk.ErrStopped) || !errors.Is(err, cause) {
			t.Fatalf("got %v, want ErrStopped and the cause", err)
		}
	})
	// Cancelled after its n-th look at the context: the analysis stops at
	// its next look and returns, whatever it was doing. Every kind, and
	// every n up to the analysis' own number of looks (after which it has
	// finished).
	inputs := map[risk.Kind]string{
		risk.KindShell:       bomb,
		risk.KindAppleScript: strings.Repeat("do shell script \"ls -la ~/Documents\"\n", 20000),
		risk.KindJXA:         strings.Repeat("app.doShellScript('ls -la ~/Documents');\n", 20000),
		risk.KindDSL:         strings.Repeat("CREATE_FOLDER \"~/Documents/x\"\n", 100),
	}
	for kind, src := range inputs {
		t.Run(string(kind), func(t *testing.T) {
			full := &countdown{Context: context.Background(), left: -1}
			if _, err := risk.AssessContext(full, kind, src, fixtureEnv(t)); err != nil {
				t.Fatal(err)
			}
			looks := int(full.looks.Load())
			if looks < 3 {
				t.Fatalf("the analysis looked at its context %d times", looks)
			}
			for _, n := range []int{0, 1, looks / 2, looks - 2} {
				ctx := &countdown{Context: context.Background(), left: int64(n)}
				v, err := risk.AssessContext(ctx, kind, src, fixtureEnv(t))
				if !errors.Is(err, risk.ErrStopped) || !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled after %d of %d looks: %v, want ErrStopped", n, looks, err)
				}
				if v.Level < level.Destructive {
					t.Errorf("cancelled after %d looks: verdict %v, want destructive (not analysed)", n, v)
				}
				// It stopped at the first look after the cancel (which
				// asks Err once more, for context.Cause).
				if after := ctx.looks.Load() - int64(n); after > 2 {
					t.Errorf("cancelled after %d looks: looked %d more times", n, after)
				}
			}
		})
	}
}

// countdown is a context that is cancelled once its Err has been called
// left times (never, for left < 0): a cancel that lands exactly mid-way
// through an analysis, without timing.
type countdown struct {
	context.Context
	left  int64
	looks atomic.Int64
	done  chan struct{}
}

func (c *countdown) Err() error {
	if n := c.looks.Add(1); c.left >= 0 && n > c.left {
		return context.Canceled
	}
	return nil
}

func (c *countdown) Done() <-chan struct{} {
	if c.done == nil {
		c.done = make(chan struct{}) // never closed: the analysis polls Err
	}
	return c.done
}

// TestConcurrentStop: many assessments at once, more than run together,
// all end when their context is cancelled, those waiting included.
func TestConcurrentStop(t *testing.T) {
	bomb := nestedShell(12, "rm -rf ~/Documents")
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 16)
	for range 16 {
		go func() {
			_, err := risk.AssessContext(ctx, risk.KindShell, bomb, nil)
			errs <- err
		}()
	}
	cancel()
	stopped := 0
	for range 16 {
		if err := <-errs; errors.Is(err, risk.ErrStopped) {
			stopped++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	// The ones that had finished before the cancel return no error; at
	// most as many as run at once can have.
	if stopped == 0 {
		t.Fatalf("none of 16 assessments was stopped")
	}
}

func wantCutOff(t *testing.T, v risk.Verdict, why string) {
	t.Helper()
	if v.Level < level.Dangerous {
		t.Errorf("verdict %v: want at least dangerous", v)
	}
	if !hasText(v, why) {
		t.Errorf("verdict %v: no reason says %q", v, why)
	}
}

func hasText(v risk.Verdict, s string) bool {
	for _, r := range v.Reasons {
		if strings.Contains(r.Text, s) {
			return true
		}
	}
	return false
}
