package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryFuzzTargetInMakeFuzz: every fuzz target in the repository is in
// the Makefile's fuzz list (./dir:FuzzName), so `make fuzz` runs each
// parser of untrusted input; a target left out is one nobody runs.
func TestEveryFuzzTargetInMakeFuzz(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(\./[A-Za-z0-9_/.-]+):(Fuzz[A-Za-z0-9_]+)`).FindAllStringSubmatch(string(mk), -1) {
		listed[path.Clean(m[1])+":"+m[2]] = true
	}
	decl := regexp.MustCompile(`(?m)^func (Fuzz[A-Za-z0-9_]+)\(`)
	found := 0
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir := "./" + filepath.ToSlash(filepath.Dir(strings.TrimPrefix(p, "../")))
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			found++
			if !listed[path.Clean(dir)+":"+m[1]] {
				t.Errorf("%s:%s is not in the Makefile's fuzz list", dir, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 10 {
		t.Fatalf("found only %d fuzz targets: the walk is looking in the wrong place", found)
	}
}
