package interp

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzScan: any text, in any language, is read without a panic, within
// the bounds, with effects of known kinds at offsets inside it (nested
// code's offsets included).
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		`import shutil; shutil.rmtree("/x")`, `unlink glob "$ENV{HOME}/*"`, "s{a}{`id`}e", `%x(ls)`, "<<EOF\nx\nEOF\n",
		`<?php echo "{$a['b']}"; ?>`, "`${require('fs').rmSync('/')}`", `"\(x)" #"\#(y)"#`, "--[==[ c ]==] [[s]]",
		`file delete -force [file normalize $env(HOME)/x]`, `r"(raw)" ` + "`name`", "f'{a[\"b\"]}' '''x'''",
		"=begin\nx\n=end\n", `q{a{b}c} qw(a b) y/a/b/`, `$$x ${\ system('id')} @{[ 1 ]}`,
	} {
		for l := Python; l <= R; l++ {
			f.Add(uint8(l), s)
		}
	}
	f.Fuzz(func(t *testing.T, l uint8, code string) {
		lang := Lang(l%uint8(R) + 1)
		effects := Scan(lang, code)
		if len(effects) > MaxEffects {
			t.Fatalf("%d effects, more than %d", len(effects), MaxEffects)
		}
		for _, e := range effects {
			if !slices.Contains(Kinds, e.Kind) {
				t.Fatalf("effect of unknown kind %d", e.Kind)
			}
			if e.Off < 0 || e.Off > len(code) {
				t.Fatalf("effect %v at %d, outside %d bytes", e.Kind, e.Off, len(code))
			}
			if utf8.ValidString(code) && !utf8.ValidString(e.API) {
				t.Fatalf("API %q is not UTF-8", e.API)
			}
		}
	})
}
