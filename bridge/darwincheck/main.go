// Command darwincheck owns one question: does the darwin build of this
// module type-check? It answers it on any OS, without a macOS SDK or a C
// compiler, so the darwin-only files (*_darwin.go, //go:build darwin) that
// use darwinkit are checked on Linux too.
//
// Usage:
//
//	go run ./bridge/darwincheck [-C dir] [-arch arm64,amd64] [-test] [packages]
//
// For each architecture it runs go list -deps with GOOS=darwin and
// CGO_ENABLED=1, then type-checks every listed package from source with
// go/types in dependency order, independent packages in parallel. import "C"
// is faked (types.Config.FakeImportC), so the types of C's names are not
// checked, and the C or Objective-C of a preamble is not compiled (that
// needs the macOS SDK); but every C.name used must be named in its file's
// preamble or be one of cgo's own (cgo.go), and everything written in Go
// against darwinkit's API is checked.
//
// Only the main module's packages are checked in full and only their errors
// are reported, as "arch: file:line:col: message". Dependencies (std,
// darwinkit) are checked without function bodies, which is sound for their
// dependents: a package's exported API — declarations, types, constants —
// never depends on what a function body says. Their errors are dropped, as
// the faked C makes some of them spurious. Files are parsed once and the
// syntax trees shared by all architectures.
//
// The exit status is 0 when everything type-checks, 1 when the main module
// has errors and 2 when the check could not run.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("C", "", "run in `dir`, a module directory, instead of the current one")
	arch := flag.String("arch", strings.Join(DefaultArches, ","), "comma-separated `GOARCH` list to check darwin for")
	tests := flag.Bool("test", false, "also check _test.go files")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: darwincheck [flags] [packages]\n")
		flag.PrintDefaults()
	}
	flag.Parse()

	cfg := Config{Dir: *dir, Patterns: flag.Args(), Tests: *tests}
	for a := range strings.SplitSeq(*arch, ",") {
		if a = strings.TrimSpace(a); a != "" {
			cfg.Arches = append(cfg.Arches, a)
		}
	}
	res, err := Check(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cwd, _ := os.Getwd()
	for _, p := range res.Problems {
		p.Pos = shorten(cwd, p.Pos)
		fmt.Fprintln(os.Stderr, p)
	}
	if len(res.Problems) > 0 {
		os.Exit(1)
	}
	fmt.Println(Summary(res))
}

// Summary is the one line printed when everything type-checks.
func Summary(res *Result) string {
	targets := make([]string, len(res.Arches))
	for i, a := range res.Arches {
		targets[i] = "darwin/" + a
	}
	if n := len(targets); n > 1 {
		targets = append(targets[:n-2], targets[n-2]+" and "+targets[n-1])
	}
	return fmt.Sprintf("darwincheck: %d packages of %s type-check for %s",
		len(res.Packages), strings.Join(res.Modules, ", "), strings.Join(targets, ", "))
}

// shorten makes the file name in pos relative to dir when it lies inside it.
func shorten(dir, pos string) string {
	if dir == "" || !filepath.IsAbs(pos) {
		return pos
	}
	rel, err := filepath.Rel(dir, pos)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return pos
	}
	return rel
}
