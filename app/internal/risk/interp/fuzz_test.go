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

// FuzzReadOnly: any text is judged without a panic, and code ReadOnly
// takes for a read-only program is one in which Scan, which knows the
// calls that remove, write, run, reach the network and run code from text,
// finds nothing but reads and decoding.
func FuzzReadOnly(f *testing.F) {
	for _, s := range []string{
		`print(2**10)`, `import os; print(os.listdir("."))`, `open("x", "w").write("")`, `import os as o; o.system("id")`,
		`console.log(require("os").homedir())`, `const fs = require("fs"); fs.rmSync("x")`, `print(*map(open, ["a"], ["w"]))`,
		`[f for f in os.listdir('.') if f.endswith('.py')]`, `f"{__import__('os').system('id')}"`, "`${require('child_process').execSync('id')}`",
	} {
		f.Add(uint8(Python), s)
		f.Add(uint8(JS), s)
	}
	f.Fuzz(func(t *testing.T, l uint8, code string) {
		lang := Lang(l%uint8(R) + 1)
		if !ReadOnly(lang, code) {
			return
		}
		if lang != Python && lang != JS {
			t.Fatalf("%v has no read-only table, yet %q was taken for read-only", lang, code)
		}
		for _, e := range Scan(lang, code) {
			if e.Kind != Read && e.Kind != Decode {
				t.Fatalf("ReadOnly(%v, %q), but Scan finds %v (%s)", lang, code, e.Kind, e.API)
			}
		}
	})
}
