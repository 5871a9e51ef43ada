package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Config says what to check.
type Config struct {
	Dir      string   // module directory go list runs in; "" is the current directory
	Arches   []string // GOARCH values; nil means DefaultArches
	Patterns []string // package patterns; nil means "./..."
	Tests    bool     // also check the packages' _test.go files (go list -test)
	Env      []string // added to the environment of go list, e.g. "GOFLAGS=-mod=mod"
}

// DefaultArches are the architectures the app ships for.
var DefaultArches = []string{"arm64", "amd64"}

// Problem is one error in a package of the main module.
type Problem struct {
	Arch string // GOARCH
	Pos  string // "file:line:col" with an absolute file name, or "" if unknown
	Pkg  string // import path of the package the problem was found in
	Msg  string
}

func (p Problem) String() string {
	if p.Pos == "" {
		return fmt.Sprintf("%s: %s: %s", p.Arch, p.Pkg, p.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", p.Arch, p.Pos, p.Msg)
}

// Result is the outcome of a check that could run.
type Result struct {
	Modules  []string // paths of the main modules
	Packages []string // import paths of the main modules' packages listed, sorted; test variants left out
	Arches   []string
	Problems []Problem // in arch order, then go list order
}

// Check lists the packages matching cfg.Patterns for darwin on every arch and
// type-checks them from source. Problems in the main modules' packages are
// returned in the Result; the error is for failures to run at all.
func Check(ctx context.Context, cfg Config) (*Result, error) {
	arches := cfg.Arches
	if len(arches) == 0 {
		arches = DefaultArches
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	dir, err := filepath.Abs(cmp.Or(cfg.Dir, "."))
	if err != nil {
		return nil, fmt.Errorf("darwincheck: resolving directory %q: %v", cfg.Dir, err)
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("darwincheck: %v", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("darwincheck: %s is not a directory", dir)
	}
	for _, arch := range arches {
		if types.SizesFor("gc", arch) == nil {
			return nil, fmt.Errorf("darwincheck: unknown architecture %q", arch)
		}
	}

	ck := &checker{
		dir:   dir,
		fset:  token.NewFileSet(),
		sem:   make(chan struct{}, runtime.GOMAXPROCS(0)),
		files: make(map[string]*parsedFile),
	}
	lists := make([][]*listedPackage, len(arches))
	errs := make([]error, len(arches))
	var wg sync.WaitGroup
	for i, arch := range arches {
		wg.Go(func() {
			lists[i], errs[i] = goList(ctx, dir, arch, cfg, patterns)
			if errs[i] == nil {
				ck.prefetch(lists[i])
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err // the first; the other arches' are likely the same
		}
	}

	res := &Result{Arches: arches}
	for _, list := range lists {
		for _, p := range list {
			if p.Module != nil && p.Module.Main && !slices.Contains(res.Modules, p.Module.Path) {
				res.Modules = append(res.Modules, p.Module.Path)
			}
		}
	}
	slices.Sort(res.Modules)
	ck.modules = res.Modules

	problems := make([][]Problem, len(arches))
	for i, arch := range arches {
		wg.Go(func() { problems[i] = ck.checkArch(arch, lists[i]) })
	}
	wg.Wait()
	for i, list := range lists {
		res.Problems = append(res.Problems, problems[i]...)
		for _, p := range list {
			// Test variants ("p [p.test]", "p_test [p.test]") and
			// generated test mains ("p.test") are not counted.
			test := p.ForTest != "" || strings.Contains(p.ImportPath, " [") || strings.HasSuffix(p.ImportPath, ".test")
			if ck.own(p) && !test && !slices.Contains(res.Packages, p.ImportPath) {
				res.Packages = append(res.Packages, p.ImportPath)
			}
		}
	}
	slices.Sort(res.Packages)
	if len(res.Packages) == 0 {
		return nil, fmt.Errorf("darwincheck: no packages of the main module match %s in %s", strings.Join(patterns, " "), dir)
	}
	return res, nil
}

// listedPackage is the part of go list -json output darwincheck uses.
type listedPackage struct {
	Dir        string
	ImportPath string
	ForTest    string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	ImportMap  map[string]string
	Module     *struct {
		Path      string
		Main      bool
		GoVersion string
	}
	Error      *packageError
	DepsErrors []*packageError
}

type packageError struct {
	Pos string
	Err string
}

// goList runs go list -deps for darwin/arch in dir. With -e, problems with
// single packages are reported in their Error fields rather than failing.
func goList(ctx context.Context, dir, arch string, cfg Config, patterns []string) ([]*listedPackage, error) {
	args := []string{"list", "-e", "-deps", "-json=Dir,ImportPath,ForTest,GoFiles,CgoFiles,Imports,ImportMap,Module,Error,DepsErrors"}
	if cfg.Tests {
		args = append(args, "-test")
	}
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = slices.Concat(os.Environ(), cfg.Env, []string{"GOOS=darwin", "GOARCH=" + arch, "CGO_ENABLED=1"})
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := bytes.TrimSpace(stderr.Bytes()); len(msg) > 0 {
			err = fmt.Errorf("%v\n%s", err, msg)
		}
		return nil, fmt.Errorf("darwincheck: go list for darwin/%s in %s: %v", arch, dir, err)
	}
	var pkgs []*listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listedPackage)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("darwincheck: decoding go list output for darwin/%s: %v", arch, err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// checker holds what the arches share: the file set, the parsed files and
// the CPU budget.
type checker struct {
	dir     string // where go list ran
	fset    *token.FileSet
	sem     chan struct{} // one token per CPU
	modules []string      // main module paths

	mu    sync.Mutex
	files map[string]*parsedFile
}

type parsedFile struct {
	once sync.Once
	ast  *ast.File
	err  error
}

// own reports whether p belongs to a main module.
func (ck *checker) own(p *listedPackage) bool {
	if p.Module != nil && p.Module.Main {
		return true
	}
	for _, m := range ck.modules {
		if p.ImportPath == m || strings.HasPrefix(p.ImportPath, m+"/") {
			return true
		}
	}
	return false
}

func sourceFiles(p *listedPackage) []string {
	var names []string
	for _, f := range slices.Concat(p.GoFiles, p.CgoFiles) {
		if !filepath.IsAbs(f) {
			f = filepath.Join(p.Dir, f)
		}
		names = append(names, f)
	}
	return names
}

// prefetch starts parsing every file in list in the background, so parsing
// overlaps with go list for the other arch and with type-checking.
func (ck *checker) prefetch(list []*listedPackage) {
	for _, p := range list {
		if p.ImportPath == "unsafe" {
			continue
		}
		for _, name := range sourceFiles(p) {
			pf, created := ck.file(name)
			if !created {
				continue // the other arch's list had it
			}
			go func() {
				ck.sem <- struct{}{}
				defer func() { <-ck.sem }()
				ck.parse(name, pf)
			}()
		}
	}
}

func (ck *checker) file(name string) (pf *parsedFile, created bool) {
	ck.mu.Lock()
	defer ck.mu.Unlock()
	pf = ck.files[name]
	if pf == nil {
		pf = new(parsedFile)
		ck.files[name] = pf
		created = true
	}
	return pf, created
}

// parse parses name once. Comments are not kept: go/types needs only the
// //go:build Go version, which the parser records without them, and the
// build tags themselves were applied by go list.
func (ck *checker) parse(name string, pf *parsedFile) (*ast.File, error) {
	pf.once.Do(func() {
		src, err := os.ReadFile(name)
		if err != nil {
			pf.err = err
			return
		}
		pf.ast, pf.err = parser.ParseFile(ck.fset, name, src, parser.SkipObjectResolution)
	})
	return pf.ast, pf.err
}

// node is a package being checked for one arch.
type node struct {
	p    *listedPackage
	idx  int // in go list order
	done chan struct{}
	pkg  *types.Package // set before done is closed; nil if unusable
	errs []posError
}

type posError struct {
	pos token.Position
	msg string
}

// checkArch type-checks list, which is in dependency order, for darwin/arch.
// Each package gets a goroutine that waits for its imports.
func (ck *checker) checkArch(arch string, list []*listedPackage) []Problem {
	nodes := make(map[string]*node, len(list))
	for i, p := range list {
		nodes[p.ImportPath] = &node{p: p, idx: i, done: make(chan struct{})}
	}
	sizes := types.SizesFor("gc", arch)
	for _, n := range nodes {
		go ck.checkPackage(arch, sizes, n, nodes)
	}

	// DepsErrors repeat along import chains, and with -test a package
	// and its test variant share files and so errors.
	var problems []Problem
	seen := make(map[string]bool)
	add := func(p Problem) {
		p.Pkg, _, _ = strings.Cut(p.Pkg, " ")
		if !seen[p.String()] {
			seen[p.String()] = true
			problems = append(problems, p)
		}
	}
	listErr := func(p *listedPackage, e *packageError) {
		pos := e.Pos
		if pos != "" && !filepath.IsAbs(pos) {
			pos = filepath.Join(ck.dir, pos) // go list shortens file names relative to its directory
		}
		add(Problem{Arch: arch, Pos: pos, Pkg: p.ImportPath, Msg: e.Err})
	}
	for _, p := range list {
		n := nodes[p.ImportPath]
		<-n.done
		if !ck.own(p) {
			continue
		}
		if p.Error != nil {
			listErr(p, p.Error)
		}
		for _, e := range p.DepsErrors {
			listErr(p, e)
		}
		for _, e := range n.errs {
			pos := ""
			if e.pos.IsValid() {
				pos = e.pos.String()
			}
			add(Problem{Arch: arch, Pos: pos, Pkg: p.ImportPath, Msg: e.msg})
		}
	}
	return problems
}

// checkPackage type-checks n once all its imports are done. Packages outside
// the main modules are checked without function bodies and their errors are
// dropped: only their exported API matters, and FakeImportC makes anything
// derived from C invalid there.
func (ck *checker) checkPackage(arch string, sizes types.Sizes, n *node, nodes map[string]*node) {
	defer close(n.done)
	p := n.p
	if p.ImportPath == "unsafe" {
		n.pkg = types.Unsafe
		return
	}
	own := ck.own(p)
	if p.Error != nil || own && len(p.DepsErrors) > 0 {
		// As with go build, a package go list could not load is not
		// type-checked: its errors, reported as they are, would only
		// come back as "could not import" ones. Its importers have
		// DepsErrors and are skipped too.
		return
	}

	var files []*ast.File
	for _, name := range sourceFiles(p) {
		pf, _ := ck.file(name)
		f, err := ck.parse(name, pf)
		if own {
			var list scanner.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					n.errs = append(n.errs, posError{e.Pos, e.Msg})
				}
			} else if err != nil {
				n.errs = append(n.errs, posError{msg: fmt.Sprintf("reading %s: %v", name, err)})
			}
		}
		if f != nil {
			files = append(files, f)
		}
	}
	// Like the compiler, report only the syntax errors of a package that
	// has some, but still check it so its importers can be checked.
	quiet := !own || len(n.errs) > 0
	if !quiet {
		for _, name := range p.CgoFiles {
			if !filepath.IsAbs(name) {
				name = filepath.Join(p.Dir, name)
			}
			n.errs = append(n.errs, checkCgoNames(ck.fset, name)...)
		}
	}

	imports := make(map[string]*types.Package, len(p.Imports))
	for _, path := range p.Imports {
		if path == "C" {
			continue
		}
		// Only earlier packages are waited for, so that even an import
		// cycle go list did not flag could not deadlock.
		if dep := nodes[path]; dep != nil && dep.idx < n.idx {
			<-dep.done
			if dep.pkg != nil {
				imports[path] = dep.pkg
			}
		}
	}

	conf := types.Config{
		Importer:         importer{imports: imports, importMap: p.ImportMap},
		FakeImportC:      len(p.CgoFiles) > 0,
		IgnoreFuncBodies: !own,
		Sizes:            sizes,
		Error: func(err error) {
			if quiet {
				return
			}
			var te types.Error
			if errors.As(err, &te) {
				n.errs = append(n.errs, posError{te.Fset.Position(te.Pos), te.Msg})
			} else {
				n.errs = append(n.errs, posError{msg: err.Error()})
			}
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	// Test variants are listed as "path [path.test]"; the package path
	// proper is what error messages should show.
	path, _, _ := strings.Cut(p.ImportPath, " ")

	ck.sem <- struct{}{}
	n.pkg, _ = conf.Check(path, ck.fset, files, nil) // errors went to conf.Error
	<-ck.sem

	// go/types reports in checking order; people read in file order.
	slices.SortStableFunc(n.errs, func(a, b posError) int {
		return cmp.Or(
			cmp.Compare(a.pos.Filename, b.pos.Filename),
			cmp.Compare(a.pos.Line, b.pos.Line),
			cmp.Compare(a.pos.Column, b.pos.Column))
	})
}

// importer resolves the imports of one package to packages already checked,
// mapping source import paths through go list's ImportMap (vendored std
// packages, test variants).
type importer struct {
	imports   map[string]*types.Package
	importMap map[string]string
}

func (im importer) Import(path string) (*types.Package, error) {
	return im.ImportFrom(path, "", 0)
}

func (im importer) ImportFrom(path, _ string, _ types.ImportMode) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if mapped, ok := im.importMap[path]; ok {
		path = mapped
	}
	if pkg := im.imports[path]; pkg != nil {
		return pkg, nil
	}
	return nil, fmt.Errorf("package %s was not listed or did not load", path)
}
