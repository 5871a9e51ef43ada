package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/airlockhq/airlock"

// TestLayers checks the import graph: bridge imports nothing from app,
// app/internal packages never import the program, the pure packages
// (level, action, sanitize, risk and its packages) import no platform code,
// risk/effect (the vocabulary of effects and the calibration table) imports
// nothing of risk and everything of risk may import it, risk/facts imports
// no analyzer, risk/rate no language and a language's
// package no other (risk/shell …, through rate.Languages), and only the gate
// reaches the executor (it builds it, too, so main need not import it).
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Name       string
			Doc        string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		// Each package says what it owns (STYLE.md).
		if p.Doc == "" {
			t.Errorf("%s has no package doc comment", p.ImportPath)
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			switch {
			case imp == effectPkg && strings.HasPrefix(p.ImportPath, module+"/app/internal/risk"):
				// The vocabulary is below everything of risk.
			case p.ImportPath == effectPkg && strings.HasPrefix(imp, module+"/app/internal/risk"):
				t.Errorf("%s imports %s: the vocabulary of effects is below every analyzer", p.ImportPath, imp)
			case strings.HasPrefix(p.ImportPath, module+"/bridge") && strings.HasPrefix(imp, module+"/app"):
				t.Errorf("%s imports %s: bridge must not import app", p.ImportPath, imp)
			case strings.HasPrefix(p.ImportPath, module+"/app/internal") && imp == module+"/app":
				t.Errorf("%s imports the program", p.ImportPath)
			case isPure(p.ImportPath) && strings.HasPrefix(imp, module+"/bridge"):
				t.Errorf("%s imports %s: the judgement packages are platform-neutral", p.ImportPath, imp)
			case imp == module+"/app/internal/execute" && p.ImportPath != module+"/app/internal/gate":
				t.Errorf("%s imports the executor: only app/internal/gate may", p.ImportPath)
			case p.ImportPath == module+"/app/internal/risk/facts" && strings.HasPrefix(imp, module+"/app/internal/risk"):
				t.Errorf("%s imports %s: the facts are data, below every analyzer", p.ImportPath, imp)
			case p.ImportPath == module+"/app/internal/risk/interp" && strings.HasPrefix(imp, module+"/app/internal/risk"):
				t.Errorf("%s imports %s: the reader of inline code rates nothing, below every analyzer", p.ImportPath, imp)
			case languagePackage(p.ImportPath) && imp == module+"/app/internal/risk/interp" && p.ImportPath != module+"/app/internal/risk/shell":
				t.Errorf("%s imports %s: only the shell analyzer reads interpreters' inline code", p.ImportPath, imp)
			case p.ImportPath == module+"/app/internal/risk/rate" && strings.HasPrefix(imp, module+"/app/internal/risk") && imp != module+"/app/internal/risk/facts":
				t.Errorf("%s imports %s: the shared core knows no language (they reach each other through rate.Languages)", p.ImportPath, imp)
			case languagePackage(p.ImportPath) && strings.HasPrefix(imp, module+"/app/internal/risk") &&
				imp != module+"/app/internal/risk/rate" && imp != module+"/app/internal/risk/facts" && imp != module+"/app/internal/risk/interp":
				t.Errorf("%s imports %s: a language's analyzer reaches another only through rate.Languages", p.ImportPath, imp)
			}
		}
	}
}

// effectPkg is the vocabulary of effects and the one calibration table.
const effectPkg = module + "/app/internal/risk/effect"

func isPure(pkg string) bool {
	for _, p := range []string{"level", "action", "sanitize", "risk"} {
		if pkg == module+"/app/internal/"+p || strings.HasPrefix(pkg, module+"/app/internal/"+p+"/") {
			return true
		}
	}
	return false
}

// languagePackage reports a package of one language's analyzer: a package
// under risk other than rate and facts.
func languagePackage(pkg string) bool {
	rest, ok := strings.CutPrefix(pkg, module+"/app/internal/risk/")
	return ok && rest != "rate" && rest != "facts" && rest != "interp" && !strings.HasPrefix(rest, "rate/") && !strings.HasPrefix(rest, "facts/")
}
