package rate_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// probe is a Languages that records what it was handed.
type probe struct{ calls []string }

func (p *probe) Shell(v *rate.Verdict, src string, env *rate.Env, at *rate.Span, depth int) {
	p.calls = append(p.calls, fmt.Sprintf("shell %q %d", src, depth))
	v.FoundText(effect.Of(effect.Change), "probe.shell", rate.Span{}, "shell")
}

func (p *probe) AppleScript(src string, env *rate.Env, depth int) rate.Verdict {
	p.calls = append(p.calls, fmt.Sprintf("applescript %q %d", src, depth))
	return rate.Verdict{Level: level.Caution}
}

func (p *probe) JXA(src string, env *rate.Env, depth int) rate.Verdict {
	p.calls = append(p.calls, fmt.Sprintf("jxa %q %d", src, depth))
	return rate.Verdict{Level: level.Caution}
}

// An Env not bound to an assessment has no analyzers for nested scripts:
// whatever it is handed is destructive, never safe.
func TestUnboundEnvFailsClosed(t *testing.T) {
	for _, env := range []*rate.Env{nil, {}} {
		langs := env.Languages()
		var v rate.Verdict
		at := rate.Span{Start: 3, End: 9}
		langs.Shell(&v, "ls", env, &at, 1)
		if v.Level != level.Destructive || len(v.Reasons) != 1 || v.Reasons[0].Span != at {
			t.Errorf("Shell: got %+v, want one destructive reason at %v", v, at)
		}
		for name, got := range map[string]rate.Verdict{
			"AppleScript": langs.AppleScript(`display dialog "hi"`, env, 1),
			"JXA":         langs.JXA(`Application("Finder").name()`, env, 1),
		} {
			if got.Level != level.Destructive {
				t.Errorf("%s: got %v, want destructive", name, got)
			}
		}
	}
}

// Begin binds a copy of the Env to the analyzers it is given; an Env
// already bound keeps its own, and only the outermost end reports.
func TestBeginBindsLanguages(t *testing.T) {
	p := &probe{}
	outer := &rate.Env{}
	env, end := outer.Begin(context.Background(), p)
	if env == outer || outer.Languages() == rate.Languages(p) || outer.Bounds() != nil {
		t.Fatal("Begin changed the Env it was called on")
	}
	var v rate.Verdict
	env.Languages().Shell(&v, "ls", env, nil, 1)
	_ = env.Languages().JXA("x", env, 2)
	inner, innerEnd := env.Begin(context.Background(), &probe{})
	if inner != env || inner.Languages() != rate.Languages(p) {
		t.Error("a nested Begin rebound the assessment")
	}
	if err := innerEnd(&v); err != nil {
		t.Errorf("inner end: %v", err)
	}
	if err := end(&v); err != nil {
		t.Errorf("end: %v", err)
	}
	if want := []string{`shell "ls" 1`, `jxa "x" 2`}; fmt.Sprint(p.calls) != fmt.Sprint(want) {
		t.Errorf("calls %q, want %q", p.calls, want)
	}
}

func TestBeginStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env, end := (*rate.Env)(nil).Begin(ctx, &probe{})
	if env.Bounds().Look() {
		t.Error("a cancelled assessment looks live")
	}
	var v rate.Verdict
	if err := end(&v); !errors.Is(err, rate.ErrStopped) || v.Level != level.Destructive {
		t.Errorf("end: %v, %v; want ErrStopped and a destructive verdict", err, v)
	}
}

// Add keeps one reason per rule and warning at its highest level, and
// past MaxReasons lets a more severe reason replace the mildest.
func TestVerdictAdd(t *testing.T) {
	var v rate.Verdict
	v.Found(effect.Of(effect.Change), "r", rate.Span{}, "same %s", "text")
	v.FoundText(effect.Of(effect.Overwrite), "r", rate.Span{}, "same text")
	if len(v.Reasons) != 1 || v.Reasons[0].Level != level.Dangerous || v.Level != level.Dangerous || v.Reasons[0].Effect.Kind != effect.Overwrite {
		t.Fatalf("got %+v, want one dangerous reason, its effect the heavier one", v)
	}
	for i := range rate.MaxReasons + 10 {
		v.Found(effect.Of(effect.Change), "many", rate.Span{}, "reason %d", i)
	}
	if len(v.Reasons) != rate.MaxReasons {
		t.Fatalf("%d reasons, want %d", len(v.Reasons), rate.MaxReasons)
	}
	v.Found(effect.Of(effect.Remove), "worst", rate.Span{Start: 1, End: 2}, "worst\x1b[31m")
	v.Sort()
	if r := v.Reasons[0]; r.Rule != "worst" || r.Text != "worst·[31m" || v.Level != level.Destructive {
		t.Errorf("first reason %+v, want the destructive one with its control character shown as ·", r)
	}
	var w rate.Verdict
	w.Merge(v, &rate.Span{Start: 7, End: 8})
	for _, r := range w.Reasons {
		if r.Span != (rate.Span{Start: 7, End: 8}) {
			t.Fatalf("merged reason at %v, want re-anchored at 7..8", r.Span)
		}
	}
}
