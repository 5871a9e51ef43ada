package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Build tools, test runners and package managers run code the input does
// not show: build scripts (build.rs, Package.swift, setup.py, Makefiles,
// Run Script phases), test code, package.json scripts. By the auto-run
// contract that is at least Dangerous. What they do without running such
// code (print versions, list, look up, download) is modelled per
// subcommand; a subcommand not modelled is Dangerous too.

// hiddenCode rates a use of c that runs code Airlock cannot see. The rule
// is the program's own (shell.npm, shell.go …). A package manager's build,
// test or install also fetches what it lacks from its registry: that is an
// effect of its own, Fetch, which the sandbox's grant of the network reads.
func (c *call) hiddenCode(what, code string) {
	c.add(effect.Of(effect.RunUnseen), c.name, "%s: runs %s, which is not analysed", what, code)
	if registries[c.name] {
		c.add(effect.Of(effect.Fetch), c.name, "%s: fetches packages from its registry", what)
	}
}

// registries are the package managers whose builds and installs fetch
// from a package registry.
var registries = set("npm pnpm yarn pip pip3 gem cargo go pod bundle brew mas pipx")

// goSubs are the go subcommands that build no code of the project and run
// none (safe) or change files, settings or the module cache (caution).
var goSubs = map[string]effect.Effect{
	"": readOnly, "version": readOnly, "help": readOnly, "doc": readOnly, "list": readOnly, "env": readOnly,
	"fmt": effect.Of(effect.Change), "mod": effect.Of(effect.Fetch), "get": effect.Of(effect.Fetch), "install": effect.Of(effect.Fetch), "build": effect.Of(effect.Fetch),
	"clean": effect.Of(effect.Change), "work": effect.Of(effect.Change), "vet": effect.Of(effect.Fetch), "fix": effect.Of(effect.Change), "bug": effect.Of(effect.Launch),
	"telemetry": effect.Of(effect.Setting),
}

// goCommand rates go: run, test, generate and tool run the project's code
// or a tool binary; -toolexec, -exec and -vettool name a program the build
// runs; go run pkg@version downloads and runs a module.
func goCommand(c *call) {
	ops := c.operands()
	s := sub(c.args)
	for i, w := range c.args {
		name, val, has := strings.Cut(w.s, "=")
		if !inList(name, "-toolexec", "--toolexec", "-exec", "--exec", "-vettool", "--vettool") {
			continue
		}
		if !has && i+1 < len(c.args) {
			val = c.args[i+1].s
		}
		c.hiddenCode("go "+s+" "+name, "the program "+rate.Display(val)+" around every step")
		c.nestedText(val, "go "+name)
		return
	}
	switch s {
	case "run":
		for _, o := range ops[1:] {
			if strings.Contains(o.s, "@") || o.hole {
				packageRunner(c)
				return
			}
		}
		c.hiddenCode("go run", "the program it builds")
		return
	case "test":
		c.hiddenCode("go test", "the project's test code")
		return
	case "generate":
		c.hiddenCode("go generate", "the commands of the //go:generate lines in the sources")
		return
	case "install":
		for _, o := range ops[1:] {
			if o.hole || strings.Contains(o.s, "@") || remoteModule(o.s) {
				// go install example.com/x@latest: a program from
				// another module, built and put on the command search
				// path (GOBIN), where its code runs later.
				c.add(effect.Of(effect.Install).On(o.s), "go", "go install %s: downloads, builds and installs a program from another module", rate.Display(o.s))
				c.add(effect.Of(effect.Fetch), "go", "go install: fetches modules from the module proxy")
				return
			}
		}
	case "tool":
		c.hiddenCode("go tool", "a tool binary")
		return
	case "env":
		if hasShort(c.args, 'w') || hasShort(c.args, 'u') {
			c.add(effect.Of(effect.Setting), "go", "go env -w: changes Go's settings")
		}
		if hasShort(c.args, 'w') {
			c.goEnvWrite()
		}
		return
	}
	e, ok := goSubs[s]
	if !ok {
		c.unmodelled(s)
		return
	}
	if weight(e) > level.Safe {
		c.add(e, "go", "go %s: builds code or changes modules", s)
	}
}

// remoteModule reports a Go package path of another module: its first
// element is a host name (example.com/x, github.com/o/r/cmd/t), not a
// path of this one (./cmd/t, ../x, /abs) or a pattern of it (./...).
func remoteModule(p string) bool {
	if p == "" || strings.HasPrefix(p, ".") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "-") {
		return false
	}
	first, _, _ := strings.Cut(p, "/")
	return strings.Contains(first, ".") && strings.Contains(p, "/")
}

// cargoSubs are the cargo subcommands that compile nothing (build.rs and
// procedural macros run when anything is compiled, cargo check included).
var cargoSubs = map[string]effect.Effect{
	"": readOnly, "--version": readOnly, "-v": readOnly, "-V": readOnly, "version": readOnly, "help": readOnly,
	"--help": readOnly, "-h": readOnly, "search": effect.Of(effect.Fetch), "tree": readOnly, "metadata": effect.Of(effect.Fetch),
	"locate-project": readOnly, "pkgid": readOnly, "verify-project": readOnly, "read-manifest": readOnly,
	"--list": readOnly, "info": effect.Of(effect.Fetch),
	"fetch": effect.Of(effect.Fetch), "update": effect.Of(effect.Fetch), "generate-lockfile": effect.Of(effect.Fetch), "fmt": effect.Of(effect.Change),
	"new": effect.Of(effect.Create), "init": effect.Of(effect.Create), "add": effect.Of(effect.Change), "remove": effect.Of(effect.Change), "clean": effect.Of(effect.Change),
	"vendor": effect.Of(effect.Fetch), "uninstall": effect.Of(effect.Change),
}

// cargoCommand rates cargo: build, check, run, test, bench, install, doc,
// clippy … compile the project, which runs its build scripts and macros.
func cargoCommand(c *call) {
	s := sub(c.args)
	if len(c.args) > 0 && strings.HasPrefix(c.args[0].s, "-") && !c.args[0].hole {
		s = c.args[0].s // cargo --version, cargo -V
	}
	e, ok := cargoSubs[s]
	switch {
	case !ok:
		c.hiddenCode("cargo "+rate.Display(s), "the project's build scripts, macros or code")
	case weight(e) > level.Safe:
		c.add(e, "cargo", "cargo %s: asks crates.io, or changes the project or its dependencies", s)
	}
}

// npmSubs are the npm, pnpm and yarn subcommands that run no package
// script: they print, look up, or change settings.
//
// Those that ask the registry (view, info, search, outdated, ping, whoami,
// doctor) are Caution under the program's rule, which the sandbox's grant
// of the network reads (risk.UsesNetwork).
var npmSubs = map[string]effect.Effect{
	"ls": readOnly, "list": readOnly, "ll": readOnly, "la": readOnly, "view": effect.Of(effect.Fetch), "v": effect.Of(effect.Fetch),
	"info": effect.Of(effect.Fetch), "show": effect.Of(effect.Fetch), "search": effect.Of(effect.Fetch), "outdated": effect.Of(effect.Fetch), "help": readOnly,
	"--version": readOnly, "-v": readOnly, "--help": readOnly, "-h": readOnly, "whoami": effect.Of(effect.Fetch),
	"ping": effect.Of(effect.Fetch), "root": readOnly, "prefix": readOnly, "bin": readOnly, "explain": readOnly,
	"why": readOnly, "fund": readOnly, "doctor": effect.Of(effect.Fetch), "query": readOnly, "sbom": readOnly,
	"docs": effect.Of(effect.Launch), "repo": effect.Of(effect.Launch), "bugs": effect.Of(effect.Launch), "home": effect.Of(effect.Launch),
	"uninstall": effect.Of(effect.Change), "remove": effect.Of(effect.Change), "rm": effect.Of(effect.Change), "un": effect.Of(effect.Change), "unlink": effect.Of(effect.Change),
	"cache": effect.Of(effect.Change), "prune": effect.Of(effect.Change), "login": effect.Of(effect.Setting), "logout": effect.Of(effect.Setting), "pkg": effect.Of(effect.Change),
	"store": effect.Of(effect.Change), "init": effect.Of(effect.Create),
}

// npmScripts rates an npm, pnpm or yarn subcommand: those that install,
// test, run, start, build, pack, publish or bump run package.json
// scripts; --ignore-scripts keeps an install from running them.
func (c *call) npmScripts(s string) {
	if s == "audit" {
		if len(c.operands()) > 1 && strings.EqualFold(c.operands()[1].s, "fix") {
			s = "audit fix" // installs
		} else {
			c.add(effect.Of(effect.Fetch), c.name, "%s audit: asks the registry about known vulnerabilities", c.name)
			return
		}
	}
	if s == "version" && len(c.operands()) < 2 {
		return // prints the versions
	}
	if e, ok := npmSubs[s]; ok {
		if weight(e) > level.Safe {
			c.add(e, c.name, "%s %s: asks the registry, or changes packages or settings", c.name, s)
		}
		return
	}
	if hasLong(c.args, "--ignore-scripts") && inList(s, "install", "i", "add", "ci", "update", "up", "upgrade", "", "rebuild") {
		c.add(effect.Of(effect.Fetch), c.name, "%s %s --ignore-scripts: installs packages without running their scripts", c.name, s)
		return
	}
	what := "the package's scripts"
	if s == "" {
		if c.name != "yarn" || len(c.args) > 0 && inList(c.args[0].s, "--version", "-v", "--help", "-h") {
			return // npm and pnpm alone print their usage; --version, --help print
		}
		s = "(install)" // yarn alone installs
	}
	c.hiddenCode(c.name+" "+rate.Display(s), what+" (package.json, lifecycle scripts of its dependencies)")
}

// pipSubs are the pip subcommands that build and install nothing.
var pipSubs = map[string]effect.Effect{
	"": readOnly, "list": readOnly, "show": readOnly, "freeze": readOnly, "check": readOnly,
	"search": effect.Of(effect.Fetch), "help": readOnly, "--version": readOnly, "-V": readOnly, "inspect": readOnly,
	"index": effect.Of(effect.Fetch), "debug": readOnly, "hash": readOnly, "--help": readOnly, "-h": readOnly,
	"cache": effect.Of(effect.Change), "config": effect.Of(effect.Setting), "uninstall": effect.Of(effect.Change),
	"install": effect.Of(effect.Fetch), "download": effect.Of(effect.Fetch), "wheel": effect.Of(effect.Fetch),
}

// pipInstall rates pip install, download and wheel: a directory, a URL, an
// archive, an editable install, a requirements file, or a forced source
// build run a build backend (setup.py) the input does not show; a named
// package from the index is Caution.
func (c *call) pipInstall(s string) {
	if !inList(s, "install", "download", "wheel") {
		if e, ok := pipSubs[s]; !ok {
			c.unmodelled(s)
		} else if weight(e) > level.Safe {
			c.add(e, c.name, "%s %s: asks the index, or changes installed packages", c.name, s)
		}
		return
	}
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		name, _, has := strings.Cut(w.s, "=")
		switch {
		case pipValued[name] && !has:
			i++ // the option's value: a folder, an index, a file of constraints
		case pipValued[name]:
		case inList(name, "-e", "--editable", "-r", "--requirement", "--no-binary", "--no-build-isolation", "--use-pep517", "--config-settings", "-C", "--global-option", "--build-option"):
			c.hiddenCode(c.name+" "+s+" "+name, "a build backend or packages named in a file")
			return
		case i > 0 && !strings.HasPrefix(w.s, "-") && pipSource(w):
			c.hiddenCode(c.name+" "+s+" "+rate.Display(w.s), "the build backend of a local or downloaded source tree (setup.py)")
			return
		}
	}
	c.add(effect.Of(effect.Fetch), c.name, "%s %s: installs packages from the index", c.name, s)
}

// pipValued are pip's install options with a value that is not a package
// to build.
var pipValued = set(`-t --target --prefix --root -i --index-url --extra-index-url -f --find-links --cache-dir
	--log --python-version --platform --implementation --abi --src --upgrade-strategy --progress-bar
	--trusted-host --proxy --timeout --retries --exists-action --cert --client-cert -c --constraint --python
	--report -d --dest -w --wheel-dir --only-binary --root-user-action --keyring-provider`)

// pipSource reports an operand of pip install that is not a package name:
// a path, a URL or an archive, whose setup code runs.
func pipSource(w word) bool {
	s := strings.ToLower(w.s)
	return w.hole || strings.ContainsAny(s, "/~") || s == "." || s == ".." || strings.Contains(s, "://") ||
		strings.HasPrefix(s, "git+") || strings.HasSuffix(s, ".tar.gz") || strings.HasSuffix(s, ".zip") ||
		strings.HasSuffix(s, ".tgz") || strings.HasSuffix(s, ".tar.bz2") || strings.HasSuffix(s, ".tar.xz")
}

// lessCommand rates less and more: +cmd and -k name commands less runs at
// start (+! runs a shell command, +| pipes to one, +v starts an editor,
// +s writes a file); searches, line numbers and following are modelled.
func lessCommand(c *call) {
	for _, w := range c.args {
		s := w.s
		switch {
		case w.hole && strings.HasPrefix(s, "+"):
			c.hiddenCode(c.name+" +…", "a less command computed at run time")
		case strings.HasPrefix(s, "+"):
			cmd := strings.TrimLeft(s[1:], "+")
			if strings.HasPrefix(cmd, "/") || strings.HasPrefix(cmd, "?") || lessMotion(cmd) {
				continue
			}
			if strings.ContainsAny(cmd, "!|") || strings.HasPrefix(cmd, "v") {
				c.hiddenCode(c.name+" "+rate.Display(s), "a shell command or an editor")
				if i := strings.IndexAny(cmd, "!|"); i >= 0 {
					c.nestedText(cmd[i+1:], c.name+" "+cmd[:i+1])
				}
				continue
			}
			c.unmodelled(s)
		case s == "-k" || strings.HasPrefix(s, "--lesskey-file") || strings.HasPrefix(s, "--lesskey-src"):
			c.hiddenCode(c.name+" "+s, "key bindings and settings from a lesskey file")
		case strings.HasPrefix(s, "-o") || strings.HasPrefix(s, "-O") || strings.HasPrefix(s, "--log-file") || strings.HasPrefix(s, "--LOG-FILE"):
			c.add(effect.Of(effect.Create), c.name, "%s %s: copies what it shows into a file", c.name, s)
		}
	}
}

// lessMotion reports a less start command that only moves: G, g, F, a
// line number, a percentage.
func lessMotion(cmd string) bool {
	cmd = strings.TrimRight(cmd, "0123456789%")
	return cmd == "" || cmd == "G" || cmd == "g" || cmd == "F" || cmd == "p"
}

// jqCommand rates jq: env and $ENV read the whole environment, where API
// tokens and keys live; --rawfile and --slurpfile read files (rated as
// reads of their operands).
func jqCommand(c *call) {
	for _, w := range c.args {
		if w.hole || strings.HasPrefix(w.s, "-") {
			continue
		}
		if jqReadsEnv(w.s) {
			c.a.add(effect.Of(effect.ReadSecret), "secret.environment", c.span, "%s %s: reads the whole environment, where tokens and keys are kept", c.name, rate.Display(w.s))
			c.a.secretAt(c.span)
			return
		}
	}
}

// jqReadsEnv reports a jq program that uses env or $ENV.
func jqReadsEnv(prog string) bool {
	if strings.Contains(prog, "$ENV") {
		return true
	}
	for i := strings.Index(prog, "env"); i >= 0; {
		before := i == 0 || !isIdent(prog[i-1])
		after := i+3 >= len(prog) || !isIdent(prog[i+3])
		if before && after {
			return true
		}
		j := strings.Index(prog[i+3:], "env")
		if j < 0 {
			break
		}
		i += 3 + j
	}
	return false
}

func isIdent(b byte) bool {
	return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// goCodeEnv are the Go settings that name code every later go command
// runs, or where it fetches modules and toolchains from: go env -w keeps
// them in Go's env file, so like npm config set registry they change what
// runs long after this action (go help environment).
var goCodeEnv = set(`GOFLAGS GOTOOLCHAIN GOPROXY GOSUMDB GONOSUMDB GONOSUMCHECK GOINSECURE GOPRIVATE GONOPROXY
	CC CXX FC AR PKG_CONFIG CGO_CFLAGS CGO_CPPFLAGS CGO_CXXFLAGS CGO_FFLAGS CGO_LDFLAGS GOENV GOAUTH`)

// goEnvWrite rates go env -w NAME=value pairs that change what later go
// commands run or fetch.
func (c *call) goEnvWrite() {
	for _, o := range c.operands()[1:] {
		k, _, ok := strings.Cut(o.s, "=")
		if !ok || o.hole {
			continue
		}
		if goCodeEnv[strings.ToUpper(k)] {
			c.add(effect.Of(effect.LoadCode).On(k), "supply-chain", "go env -w %s: changes what every later go command runs or where it fetches code from", rate.Display(k))
		}
	}
}
