package rate

// Languages is how the analyzer of one language hands a script nested in it
// to the analyzer of another: sh -c → osascript -e → do shell script →
// doShellScript … The risk facade implements it and binds it to the Env of
// every assessment (Env.Begin); an analyzer reaches it through
// Env.Languages, never through a package variable.
//
// Every method analyses src as a script nested depth deep (1: inside the
// input) in the assessment env is bound to: it charges src to that
// assessment's budget, and stops at MaxDepth, as Bounds.Enter says. An
// implementation must fail closed like the analyzers themselves: text it
// cannot analyse is at least Dangerous, never Safe.
type Languages interface {
	// Shell adds the findings of the shell text src to v. With at set,
	// every reason points at that span of the outer input.
	Shell(v *Verdict, src string, env *Env, at *Span, depth int)
	// AppleScript returns the verdict on the AppleScript src.
	AppleScript(src string, env *Env, depth int) Verdict
	// JXA returns the verdict on the JavaScript for Automation src.
	JXA(src string, env *Env, depth int) Verdict
}

// Languages returns the analyzers e's nested scripts go to: those its
// assessment was begun with. An Env not bound to an assessment has none,
// and then every nested script is Destructive, "not analysed".
func (e *Env) Languages() Languages {
	if e == nil || e.langs == nil {
		return unanalysed{}
	}
	return e.langs
}

// unanalysed is the Languages of an Env not bound to an assessment: it
// analyses nothing, so it rates everything destructive.
type unanalysed struct{}

func (unanalysed) Shell(v *Verdict, _ string, _ *Env, at *Span, _ int) {
	v.Found(notAnalysed, "analysis.unbound", spanOr(at), "a nested shell script was not analysed (no analyzer bound to the assessment)")
}

func (unanalysed) AppleScript(string, *Env, int) Verdict {
	return unbound("AppleScript")
}

func (unanalysed) JXA(string, *Env, int) Verdict {
	return unbound("JavaScript")
}

func unbound(what string) Verdict {
	var v Verdict
	v.Found(notAnalysed, "analysis.unbound", Span{}, "a nested %s script was not analysed (no analyzer bound to the assessment)", what)
	return v
}

func spanOr(at *Span) Span {
	if at == nil {
		return Span{}
	}
	return *at
}
