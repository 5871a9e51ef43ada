package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
)

// FakeImportC lets every C.name through unchecked, and the C or
// Objective-C in a preamble needs the macOS SDK to compile. What can be
// checked without either is that every C.name a cgo file's Go uses is
// named in that file's preamble (declared there, or mentioned in a
// declaration that uses it), is brought in by a system header it includes
// (headerNames), or is one of cgo's own names: a misspelt
// helper or a type the preamble never brings in is then caught on Linux
// rather than by the first build on a Mac.

// cgoBuiltins are the C.names cgo itself provides.
var cgoBuiltins = map[string]bool{
	"CString": true, "CBytes": true, "GoString": true, "GoStringN": true, "GoBytes": true,
	"char": true, "schar": true, "uchar": true, "short": true, "ushort": true, "int": true, "uint": true,
	"long": true, "ulong": true, "longlong": true, "ulonglong": true, "float": true, "double": true,
	"complexfloat": true, "complexdouble": true, "size_t": true,
}

// headerNames are the C.names a system header a preamble includes brings
// in, for the few headers Airlock's cgo files call into directly: a name
// from any other header must be named in the preamble itself (a small
// static shim says it there).
var headerNames = map[string][]string{
	"stdlib.h": {"free", "malloc", "calloc", "realloc"},
	"os/log.h": {"os_log_create", "os_log_t", "os_log_type_t"},
}

var (
	cIdentifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	cInclude    = regexp.MustCompile(`(?m)^\s*#\s*(?:include|import)\s*<([^>]+)>`)
)

// checkCgoNames parses the cgo file name (with its comments, which the
// shared parse drops) and reports each C.name its Go uses that its
// preamble does not name.
func checkCgoNames(fset *token.FileSet, name string) []posError {
	f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil // the shared parse reports syntax errors
	}
	preamble, found := cgoPreamble(f)
	if !found {
		return nil
	}
	named := map[string]bool{}
	for _, id := range cIdentifier.FindAllString(preamble, -1) {
		named[id] = true
	}
	for _, m := range cInclude.FindAllStringSubmatch(preamble, -1) {
		for _, id := range headerNames[m[1]] {
			named[id] = true
		}
	}
	var errs []posError
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || x.Name != "C" {
			return true
		}
		c := sel.Sel.Name
		base := c
		for _, prefix := range []string{"struct_", "enum_", "union_"} {
			base = strings.TrimPrefix(base, prefix)
		}
		if !cgoBuiltins[c] && !named[base] {
			errs = append(errs, posError{fset.Position(sel.Sel.Pos()),
				"C." + c + " is not named in this file's cgo preamble (nor one of cgo's own names)"})
		}
		return true
	})
	return errs
}

// cgoPreamble is the comment right before import "C", the file's preamble.
func cgoPreamble(f *ast.File) (string, bool) {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			if is.Path.Value != `"C"` {
				continue
			}
			doc := is.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			if doc == nil {
				return "", true
			}
			return doc.Text(), true
		}
	}
	return "", false
}
