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
// risk/facts imports no analyzer and risk/rate no language, and only the gate
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
			case p.ImportPath == module+"/app/internal/risk/rate" && strings.HasPrefix(imp, module+"/app/internal/risk") && imp != module+"/app/internal/risk/facts":
				t.Errorf("%s imports %s: the shared core knows no language (they reach each other through rate.Languages)", p.ImportPath, imp)
			}
		}
	}
}

func isPure(pkg string) bool {
	for _, p := range []string{"level", "action", "sanitize", "risk"} {
		if pkg == module+"/app/internal/"+p || strings.HasPrefix(pkg, module+"/app/internal/"+p+"/") {
			return true
		}
	}
	return false
}
