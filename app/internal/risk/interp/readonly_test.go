package interp

import "testing"

// TestReadOnly: the closed world of one-liners that compute, print and
// read, and each way out of it: a module python -c would look for in the
// working folder, a member a table does not list (called, or passed as a
// value), a bare module, open to write (by mode, by a built mode, by a
// spread list, passed to map), a call of a computed function, names with
// "__", code from text, definitions, a name the code sets over a module.
func TestReadOnly(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		code string
		want bool
	}{
		{Python, `print(2**10)`, true},
		{Python, `import os; print(os.listdir("/Users/me/Documents"))`, true},
		{Python, `import os, sys; print(sys.version_info[:2], os.getcwd())`, true},
		{Python, `import os.path; print(os.path.exists("setup.py"))`, true},
		{Python, `import sys; print(sys.argv[1].upper())`, true},
		{Python, `import os; print([f for f in os.listdir('.') if f.endswith('.py')])`, true},
		{Python, `with open("notes.txt", encoding="utf-8") as f: print(len(f.readlines()))`, true},
		{Python, `print(open("a", "rb").read()[:10])`, true},
		{Python, `print(open("a", mode="r").read())`, true},
		{Python, `print(sum(map(len, ["a", "bc"])))`, true},
		{Python, `print(f"{len('abc')} chars")`, true},

		{Python, `import json; print(json.dumps(1))`, false}, // looked for in the working folder first
		{Python, `import platform; print(platform.node())`, false},
		{Python, `open("x", "w").write("")`, false},
		{Python, `open("x", "r" + "+").truncate()`, false},
		{Python, `open(*["x", "w"])`, false},
		{Python, `open("x", mode=m)`, false},
		{Python, `open("x", "")`, false},
		{Python, `print(*map(open, ["a"], ["w"]))`, false},
		{Python, `x = open`, false},
		{Python, `import os; os.system("id")`, false},
		{Python, `import os; list(map(os.remove, ["a"]))`, false},
		{Python, `import os; print(os)`, false},
		{Python, `import os as o; o.replace("a", "b")`, false},
		{Python, `from os import system`, false},
		{Python, `from os import listdir as l; print(l("."))`, true},
		{Python, `os = 1; import os; os.replace("a", "b")`, false},
		{Python, `f = print; f("x")`, false},
		{Python, `print((lambda x: x)(3))`, false},
		{Python, `[print][0]("x")`, false},
		{Python, `getattr(__import__("os"), "system")("id")`, false},
		{Python, `print(f"{__import__('os').system('id')}")`, false},
		{Python, `def f(): pass`, false},
		{Python, `eval("1")`, false},
		{Python, `print(undefined_name)`, false},
		{Python, ``, false},

		{JS, `console.log(1+1)`, true},
		{JS, `process.version`, true},
		{JS, `console.log(require("os").homedir())`, true},
		{JS, `const fs = require("fs"); console.log(fs.readdirSync(".").filter(f => f.endsWith(".js")).length)`, true},
		{JS, `console.log(JSON.parse(require("fs").readFileSync("package.json", "utf8")).version)`, true},
		{JS, `require("fs").writeFileSync("x", "")`, false},
		{JS, `require("child_process").execSync("id")`, false},
		{JS, `const fs = require("fs"); fs.rmSync("x")`, false},
		{JS, `process["binding"]("fs")`, false},
		{JS, `[].constructor.constructor("return 1")()`, false},
		{JS, `new Function("return 1")()`, false},
		{JS, `console.log(process.env)`, false},
		{JS, `console.log(require("fs"))`, false},
		{JS, "console.log(`${require('child_process').execSync('id')}`)", false},
		{JS, `setTimeout("1", 0)`, false},
		{JS, `import("fs")`, false},

		{Ruby, `puts 1`, false}, // no table
		{Perl, `print 1`, false},
	} {
		if got := ReadOnly(c.lang, c.code); got != c.want {
			t.Errorf("ReadOnly(%v, %q) = %v, want %v", c.lang, c.code, got, c.want)
		}
	}
}
