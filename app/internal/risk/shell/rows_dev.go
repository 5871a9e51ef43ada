package shell

import (
	"regexp"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// toolCommands registers stock macOS tools that only read, and the rules
// for archivers, databases, clouds, package runners, editors and
// supply-chain settings.
// compose rates docker compose (and docker-compose) by its subcommand,
// after its options: -f file, -p name …
func (c *call) compose(args []word) {
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") && !args[0].hole {
		s := args[0].s
		args = args[1:]
		if !strings.Contains(s, "=") && inList(s, "-f", "--file", "-p", "--project-name", "--env-file", "--profile",
			"--project-directory", "--ansi", "--progress", "--parallel") && len(args) > 0 {
			args = args[1:]
		}
	}
	s := ""
	if len(args) > 0 {
		s = strings.ToLower(args[0].s)
	}
	switch {
	case inList(s, "ps", "logs", "config", "ls", "images", "top", "version", "port", "events", ""):
	case (s == "down" || s == "rm") && (hasShort(args, 'v') || hasLong(args, "--volumes")):
		c.add(effect.Of(effect.Remove), "docker-volumes", "docker compose %s -v: deletes the project's volumes (their data is lost)", s)
	case inList(s, "up", "down", "stop", "start", "restart", "pull", "build", "create", "pause", "unpause", "kill", "rm"):
		c.add(effect.Of(effect.AppState), "docker-compose", "docker compose %s: starts, stops or builds the project's containers", s)
	default:
		c.add(effect.Of(effect.RunUnseen), "docker-compose", "docker compose %s: runs commands in containers", rate.Display(s))
	}
}

// dockerMount rates a bind mount of docker run (-v SRC:DST, or --mount's
// source=SRC with spec): the home folder or a protected place handed to
// the container's code. It reports a mount of a folder of this Mac, not a
// named volume.
func (c *call) dockerMount(v word, spec bool) bool {
	src := v.s
	if spec {
		// --mount type=bind,source=/,target=/host
		src = ""
		for _, kv := range strings.Split(v.s, ",") {
			if k, val, ok := strings.Cut(kv, "="); ok && (k == "source" || k == "src") {
				src = val
			}
		}
	} else if i := strings.IndexByte(src, ':'); i >= 0 {
		src = src[:i]
	}
	if src == "" || !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~") && !strings.HasPrefix(src, ".") && !strings.Contains(src, rate.HoleMark) {
		return false // a named volume
	}
	if z := c.a.zoneOf(word{s: src, hole: strings.Contains(src, rate.HoleMark)}); z.HomeRoot || z.Critical() {
		c.add(effect.Of(effect.RunUnseen).On(src), "docker-mount", "docker run -v %s: gives the container %s", rate.Display(src), z.Detail)
	}
	return true
}

// dockerRun rates docker run: a container with a folder of this Mac
// mounted can change it, so its command is analysed as if run here.
func (c *call) dockerRun(args []word) {
	c.add(effect.Of(effect.RunUnseen), "docker", "docker run: runs a container")
	mounted := false
	mount := func(v word, spec bool) { mounted = c.dockerMount(v, spec) || mounted }
	i := 0
	for ; i < len(args); i++ {
		w := args[i]
		s := w.s
		if w.hole || !strings.HasPrefix(s, "-") || s == "-" {
			break
		}
		if s == "--" {
			i++
			break
		}
		if strings.HasPrefix(s, "--") {
			name, val, has := strings.Cut(s, "=")
			if inList(name, "--rm", "--privileged", "--init", "--read-only", "--interactive", "--tty", "--detach", "--publish-all",
				"--no-healthcheck", "--oom-kill-disable", "--sig-proxy", "--disable-content-trust", "--quiet", "--help", "--use-api-socket") {
				continue
			}
			v := word{s: val, hole: w.hole}
			if !has && i+1 < len(args) {
				i++
				v = args[i]
			}
			if name == "--volume" {
				mount(v, false)
			} else if name == "--mount" {
				mount(v, true)
			}
			continue
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			if strings.IndexByte("aceEhlmpuvw", letters[j]) < 0 {
				continue
			}
			v := word{s: letters[j+1:], span: w.span}
			if v.s == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if letters[j] == 'v' {
				mount(v, false)
			}
			break
		}
	}
	if mounted && i+1 < len(args) {
		c.a.call(args[i+1:], c.span, pipeCtx{})
	}
}

// zipCommand rates zip: -m deletes what it archives (with -r or a
// password, every file of a folder: the ransom pattern); -TT names a
// command zip runs.
func zipCommand(c *call) {
	move, recurse, crypt := false, false, false
	var archive, output *word // output: -O, --output-file: the archive written, the other only read
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		switch {
		case w.hole || !strings.HasPrefix(s, "-") || s == "-":
			if archive == nil {
				archive = &c.args[i]
			}
			continue
		case s == "-TT" || s == "--unzip-command":
			if i+1 < len(c.args) {
				i++
				c.add(effect.Of(effect.RunUnseen), "zip-command", "zip -TT: runs a command to test the archive")
				c.optionCommand(c.args[i], "zip -TT")
			}
			continue
		case strings.HasPrefix(s, "--unzip-command="):
			c.add(effect.Of(effect.RunUnseen), "zip-command", "zip -TT: runs a command to test the archive")
			c.optionCommand(word{s: s[len("--unzip-command="):], hole: w.hole}, "zip -TT")
			continue
		case s == "-O" || s == "--output-file":
			if i+1 < len(c.args) {
				i++
				output = &c.args[i]
			}
			continue
		case strings.HasPrefix(s, "--output-file="):
			output = &word{s: s[len("--output-file="):], hole: w.hole, span: w.span}
			continue
		case strings.HasPrefix(s, "-O") && len(s) > 2:
			output = &word{s: s[2:], hole: w.hole, span: w.span} // -Oout.zip
			continue
		case s == "--move":
			move = true
		case s == "--recurse-paths":
			recurse = true
		case s == "--encrypt" || s == "--password":
			crypt = true
			if s == "--password" {
				i++
			}
		case inList(s, "-b", "-n", "-t", "-tt", "-Z", "-ds", "-lf", "-P"):
			if s == "-P" {
				crypt = true
			}
			i++
			continue
		}
		if strings.HasPrefix(s, "--") {
			continue
		}
		// zip's multi-letter options (-db, -FS, -sf, -lf …) hold no m,
		// r, e or P.
		for _, l := range s[1:] {
			switch l {
			case 'm':
				move = true
			case 'r', 'R':
				recurse = true
			case 'e', 'P':
				crypt = true
			}
		}
	}
	switch {
	case move && (recurse || crypt):
		c.add(effect.Of(effect.Remove, effect.Bulk), "zip-move", "zip -m with -r or a password: archives files and deletes the originals")
	case move:
		c.add(effect.Of(effect.Trash), "zip-move", "zip -m: deletes the files it archives")
	default:
		c.add(effect.Of(effect.Create), "zip", "zip: archives files")
	}
	if output != nil {
		archive = output
	}
	switch {
	case archive == nil || archive.s == "-":
	case c.a.presence(*archive) == rate.Absent:
		c.a.write(*archive, c.span, "zip creates the archive") // as tar -c does
	default:
		c.a.write(*archive, c.span, "zip writes")
	}
}

// optionCommand analyses a command given as an option's value (zip -TT,
// ssh -o ProxyCommand=, rsync -e).
func (c *call) optionCommand(w word, what string) {
	c.add(effect.Of(effect.Run).On(w.s), "option-command", "%s: runs %s", what, rate.Display(w.s))
	c.nested([]word{w}, what)
}

// sshOptions analyses the local commands of -o ProxyCommand=…,
// LocalCommand=… and KnownHostsCommand=… (ssh, scp, sftp).
func (c *call) sshOptions() {
	for i, w := range c.args {
		var v word
		switch {
		case w.s == "-o" && i+1 < len(c.args):
			v = c.args[i+1]
		case strings.HasPrefix(w.s, "-o") && len(w.s) > 2:
			v = word{s: w.s[2:], hole: w.hole, span: w.span}
		default:
			continue
		}
		k, val, ok := strings.Cut(v.s, "=")
		if !ok {
			k, val, _ = strings.Cut(strings.TrimSpace(v.s), " ")
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if v.hole && strings.Contains(k, rate.HoleMark) {
			c.add(effect.Of(effect.Unknown), "ssh-option", "%s -o: an option computed at run time", c.name)
			continue
		}
		if !inList(k, "proxycommand", "localcommand", "knownhostscommand") || strings.EqualFold(strings.TrimSpace(val), "none") {
			continue
		}
		c.add(effect.Of(effect.Shell), "ssh-command", "%s -o %s: runs a command on this Mac", c.name, k)
		c.nested([]word{{s: val, hole: v.hole, span: v.span}}, c.name+" -o "+k)
	}
}

// expectCommand rates expect: its Tcl program is not analysed, but what
// it spawns or execs is, and the program is scanned for the obvious.
func expectCommand(c *call) {
	c.add(effect.Of(effect.RunUnseen), "expect", "expect: runs a Tcl program that drives other programs")
	found := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.s == "-c" && i+1 < len(c.args):
			i++
			found = true
			if c.args[i].hole {
				c.add(effect.Of(effect.RunComputed), "interp-computed", "%s runs code computed at run time", c.name)
				continue
			}
			c.expectCode(c.args[i].s)
		case w.s == "-f" && i+1 < len(c.args) || w.hole || !strings.HasPrefix(w.s, "-"):
			if w.s == "-f" {
				i++
			}
			if !found {
				c.programFile(c.args[i])
			}
			return
		}
	}
	if !found && c.pc.stdin == "text" {
		c.expectCode(c.pc.text)
	} else if !found {
		c.fromStdinAs(false)
	}
}

func (c *call) expectCode(code string) {
	scanCode(c, code)
	// Text sent to a shell it spawned runs as commands.
	if i := strings.Index(code, "spawn "); i >= 0 {
		f := strings.Fields(strings.NewReplacer("{", " ", "}", " ", "]", " ", ";", " ").Replace(code[i+len("spawn "):]))
		for len(f) > 0 && strings.HasPrefix(f[0], "-") {
			f = f[1:]
		}
		if len(f) > 0 && shells[commandName(strings.Trim(f[0], `"'`))] {
			for rest := code; ; {
				j := strings.Index(rest, "send ")
				if j < 0 {
					break
				}
				rest = rest[j+len("send "):]
				t := strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(rest, " \t"), "--"), " \t")
				if !strings.HasPrefix(t, `"`) {
					continue
				}
				end := strings.IndexByte(t[1:], '"')
				if end < 0 {
					break
				}
				text, _, _ := decodeEscapes(t[1:1+end], false)
				c.nestedText(strings.ReplaceAll(text, "\r", "\n"), "expect send")
			}
		}
	}
	for _, kw := range []string{"spawn", "exec"} {
		for rest := code; ; {
			i := strings.Index(rest, kw+" ")
			if i < 0 {
				break
			}
			before := byte(' ')
			if i > 0 {
				before = rest[i-1]
			}
			rest = rest[i+len(kw)+1:]
			if !strings.ContainsRune(" \t\n;[{", rune(before)) {
				continue
			}
			line, _, _ := strings.Cut(rest, "\n")
			line, _, _ = strings.Cut(line, "]")
			line, _, _ = strings.Cut(line, ";")
			f := strings.Fields(line)
			for len(f) > 0 && strings.HasPrefix(f[0], "-") {
				f = f[1:] // spawn -noecho, exec -ignorestderr
			}
			cmd := strings.NewReplacer("{", "'", "}", "'").Replace(strings.Join(f, " "))
			c.nestedText(cmd, "expect "+kw)
		}
	}
}

var (
	// redisModel is redis-cli's (redis-cli --help): connecting and
	// printing; the first operand starts the Redis command.
	redisModel = &opts{
		short:  "xce346",
		valued: "hpsaurind",
		cmdAt:  true,
		long: `--user= --pass= --askpass --tls --sni= --cacert= --cacertdir= --cert= --key= --insecure --tls-ciphers=
			--tls-ciphersuites= --raw --no-raw --csv --json --quoted-json --quoted-input --stat --latency
			--latency-history --latency-dist --lru-test= --bigkeys --memkeys --memkeys-samples= --keystats
			--hotkeys --scan --pattern= --count= --quoted-pattern= --intrinsic-latency= --eval= --ldb --ldb-sync-mode
			--verbose --version --help --resp2 --resp3 --no-auth-warning --show-pushes= --pipe-timeout= --rdb=
			--functions-rdb=`,
		effects: map[string]optEffect{
			"--pipe":    optFx(effect.Connect, "sends every command of its input to the server"),
			"--replica": optFx(effect.Connect, "joins the server as a replica and receives every write"),
			"--cluster": optFx(effect.Connect, "manages a Redis cluster: moves, fixes or deletes its slots"),
		},
	}
)

// writesOptions rates the files that the options names of c (by m) write
// into: the file a client writes its results, log or dump to, rated by
// where it is.
func (c *call) writesOptions(m *opts, names ...string) {
	p := m.parse(c.args)
	for _, n := range names {
		if v, ok := p.given[n]; ok && v.s != "" && v.s != "-" && !isDevice(v.s) {
			c.a.write(v, c.span, c.name+" "+n+" writes")
		}
	}
}

// redisFlush is a FLUSHALL or FLUSHDB, as a command or in a Lua script;
// redisACL a change of the server's accounts (ACL SETUSER, DELUSER, LOAD).
var (
	redisFlush = regexp.MustCompile(`\bFLUSH(?:ALL|DB)\b`)
	redisACL   = regexp.MustCompile(`\bACL\s+(?:SETUSER|DELUSER|LOAD)\b`)
	// redisModule loads a module, native code, into the server;
	// redisFiles moves the files the server writes (its dump, its log).
	redisModule = regexp.MustCompile(`\bMODULE\s+LOAD(?:EX)?\b`)
	redisFiles  = regexp.MustCompile(`\bCONFIG\s+SET\s+(?:DIR|DBFILENAME|LOGFILE|APPENDFILENAME|APPENDDIRNAME)\b`)
)

// redisCommand rates redis-cli: FLUSHALL and FLUSHDB delete every key.
func redisCommand(c *call) {
	c.writesOptions(redisModel, "--rdb", "--functions-rdb")
	cmd := ""
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if strings.HasPrefix(w.s, "-") && !w.hole {
			if w.s == "--eval" {
				c.add(effect.Of(effect.Connect), "redis", "redis-cli --eval: runs a Lua script on the server")
			}
			if inList(w.s, "-h", "-p", "-a", "-n", "-u", "-s", "-r", "-i", "-d", "--user", "--pass", "--pattern", "--count", "--eval") {
				i++
			}
			continue
		}
		cmd = strings.ToUpper(w.s)
		break
	}
	if cmd == "" && c.pc.stdin == "text" {
		cmd = strings.ToUpper(c.pc.text)
	}
	all := cmd
	for _, w := range c.args {
		all += " " + strings.ToUpper(w.s) // a Lua script's redis.call('flushall') flushes as well
	}
	switch {
	case redisFlush.MatchString(all):
		c.add(effect.Of(effect.Remove, effect.Bulk), "redis-flush", "redis-cli FLUSHALL/FLUSHDB: deletes every key")
	case inList(cmd, "DEL", "UNLINK") && anyHole(c.args):
		c.add(effect.Of(effect.Remove, effect.Bulk), "redis-flush", "redis-cli %s: deletes keys computed at run time, as many as are given", cmd)
	case redisModule.MatchString(all):
		c.add(effect.Of(effect.RunUnseen, effect.Unconfined), "redis-module", "redis-cli MODULE LOAD: the Redis server loads native code, which is not analysed, outside the sandbox")
	case redisFiles.MatchString(all):
		c.add(effect.Of(effect.Connect), "redis", "redis-cli CONFIG: changes the server's settings")
		c.add(effect.Of(effect.Overwrite, effect.Planted), "redis-files", "redis-cli CONFIG SET: the Redis server writes its files where it is told, outside the sandbox (an authorized_keys, a start-up file)")
	case redisACL.MatchString(all):
		c.add(effect.Of(effect.Account), "redis-account", "redis-cli ACL: makes, changes or removes an account of the server and its rights")
	case inList(cmd, "SHUTDOWN", "DEBUG", "SLAVEOF", "REPLICAOF", "MODULE", "EVAL", "EVALSHA", "FUNCTION", "SCRIPT", "CONFIG", "MIGRATE"):
		c.add(effect.Of(effect.Connect), "redis", "redis-cli %s: changes or runs code on the server", cmd)
	default:
		c.add(effect.Of(effect.Fetch), "redis", "redis-cli: talks to a Redis server")
	}
}

// anyHole reports a word computed at run time among ws.
func anyHole(ws []word) bool {
	for _, w := range ws {
		if w.hole {
			return true
		}
	}
	return false
}

// subcommands returns c's subcommand (sub), the next operand in lower case
// ("" when there is none: terraform state list, uv pip install) and the
// operands.
func subcommands(c *call) (s, next string, ops []word) {
	ops = c.operands()
	if len(ops) > 1 {
		next = strings.ToLower(ops[1].s)
	}
	return sub(c.args), next, ops
}

// terraformCommand rates terraform and tofu: destroy (or apply -destroy)
// deletes real infrastructure.
func terraformCommand(c *call) {
	s, next, _ := subcommands(c)
	switch {
	case inList(s, "", "version", "validate", "fmt", "show", "output", "providers", "graph", "help"),
		s == "state" && inList(next, "list", "show", "pull"), s == "workspace" && inList(next, "list", "show"):
	case s == "destroy" || s == "apply" && hasArg(c.args, "-destroy", "--destroy"):
		c.add(effect.Of(effect.Remove, effect.Bulk), "terraform-destroy", "%s destroy: deletes the infrastructure it manages", c.name)
	case inList(s, "init", "plan", "get", "refresh", "import", "taint", "untaint", "login", "logout", "console", "test"), s == "workspace" && next != "delete":
		c.add(effect.Of(effect.Fetch), "terraform", "%s %s", c.name, s)
	default:
		c.add(effect.Of(effect.Connect), "terraform", "%s %s: changes real infrastructure", c.name, rate.Display(s))
	}
}

// cloudCommand rates aws, gcloud, gsutil and az: deleting resources is
// destructive, anything else dangerous (it acts on real infrastructure).
func cloudCommand(c *call) {
	ops := c.operands()
	var words []string
	for _, o := range ops {
		words = append(words, strings.ToLower(o.s))
	}
	if len(c.args) == 1 && inList(c.args[0].s, "--version", "version", "help", "--help") {
		return
	}
	recursive := hasShort(c.args, 'r') || hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	for _, w := range words {
		if inList(w, "cp", "mv", "sync", "rsync", "upload", "upload-batch", "put-object") {
			c.a.egress("network", c.span, "%s %s: local files may go up", c.name, w) // local files may go up
		}
	}
	for i, w := range words {
		switch {
		case w == "delete" || strings.HasPrefix(w, "delete-") || strings.HasPrefix(w, "terminate-"),
			w == "rm" && recursive, w == "rb" && hasLong(c.args, "--force"):
			c.add(effect.Of(effect.Remove), "cloud-delete", "%s … %s: deletes cloud resources or data", c.name, words[i])
			return
		}
	}
	c.add(effect.Of(effect.Connect), "cloud", "%s: acts on cloud resources", c.name)
}

// packageRunner rates npx and its kin: they download a package from a
// registry and run it.
func packageRunner(c *call) {
	if len(c.args) == 1 && inList(c.args[0].s, "--version", "-v", "--help", "-h") {
		return
	}
	c.add(effect.Of(effect.RunUnseen), "package-runner", "%s: downloads a package from a registry and runs it", c.name)
	c.add(effect.Of(effect.Fetch), "package-runner", "%s: fetches the package from its registry", c.name)
	c.embedded()
}

// npmCommand rates npm, pnpm and yarn: exec, dlx and create run a package
// from the registry; setting the registry or the script shell changes
// what every later install runs.
func npmCommand(c *call) {
	ops := c.operands()
	s := sub(c.args)
	switch {
	case inList(s, "exec", "x", "dlx", "create") || s == "init" && len(ops) > 1 && !strings.HasPrefix(ops[1].s, "-"):
		packageRunner(c)
		return
	case s == "pkg" && len(ops) > 2 && strings.EqualFold(ops[1].s, "set"):
		for _, kv := range ops[2:] {
			k, _, _ := strings.Cut(kv.s, "=")
			if kv.hole || pkgRunsCode(k) {
				c.add(effect.Of(effect.Change, effect.Planted).On("package.json"), "npm-pkg-script", "%s pkg set %s: puts a command in package.json that npm runs at install, test or build", c.name, rate.Display(k))
				return
			}
		}
		c.add(effect.Of(effect.Change), c.name, "%s pkg set: changes package.json", c.name)
		return
	case (s == "config" || s == "get") && len(ops) > 1:
		keys := ops[1:]
		if s == "config" {
			keys = ops[2:]
			if !inList(strings.ToLower(ops[1].s), "get") {
				keys = nil
			}
		}
		for _, k := range keys {
			if !k.hole && secretConfigKey(k.s) {
				c.add(effect.Of(effect.ReadSecret).On(k.s), "secret.config", "%s config get %s: prints a registry credential", c.name, rate.Display(k.s))
				return
			}
		}
		if s == "get" {
			return
		}
		fallthrough
	case s == "config" || s == "set":
		kv := ops[1:]
		if s == "config" {
			if len(ops) < 2 || !inList(strings.ToLower(ops[1].s), "set", "edit") {
				return
			}
			kv = ops[2:]
		}
		if len(kv) > 0 {
			k, _, _ := strings.Cut(strings.ToLower(kv[0].s), "=")
			if inList(k, "registry", "script-shell", "shell", "git", "node-options", "onload-script", "globalconfig", "userconfig",
				"init-module", "npmregistryserver", "npmscopes", "yarnpath", "yarn-path", "plugins", "node-gyp", "npm-path") || strings.HasSuffix(k, ":registry") {
				// yarnPath, yarn-path: the program every later yarn runs
				// in its place; plugins: code yarn loads.
				c.add(effect.Of(effect.LoadCode).On(k), "supply-chain", "%s config set %s: changes where packages come from or what runs their scripts", c.name, rate.Display(k))
				return
			}
		}
		c.add(effect.Of(effect.Setting), c.name, "%s config: changes settings", c.name)
		return
	}
	if hasLong(c.args, "--registry") {
		for _, w := range c.args {
			if strings.HasPrefix(w.s, "--registry=http:") {
				c.add(effect.Of(effect.Install), "supply-chain", "%s --registry over plain http: packages can be swapped in transit", c.name)
			}
		}
	}
	c.npmScripts(s)
}

// pipCommand rates pip: package indexes over plain http, trusted hosts
// and index settings change where packages come from.
func pipCommand(c *call) {
	ops := c.operands()
	if sub(c.args) == "config" && len(ops) > 2 && strings.EqualFold(ops[1].s, "set") {
		k := strings.ToLower(ops[2].s)
		if strings.Contains(k, "index-url") || strings.Contains(k, "trusted-host") || strings.Contains(k, "find-links") {
			c.add(effect.Of(effect.LoadCode).On(k), "supply-chain", "%s config set %s: changes where packages come from", c.name, rate.Display(k))
			return
		}
	}
	for i, w := range c.args {
		name, val, has := strings.Cut(w.s, "=")
		if !inList(name, "-i", "--index-url", "--extra-index-url", "--trusted-host", "-f", "--find-links") {
			continue
		}
		if !has && i+1 < len(c.args) {
			val = c.args[i+1].s
		}
		if name == "--trusted-host" || strings.HasPrefix(strings.ToLower(val), "http:") {
			c.add(effect.Of(effect.Install), "supply-chain", "%s %s %s: installs packages that can be swapped in transit", c.name, name, rate.Display(val))
			return
		}
		if !pypiIndex(val) && inList(sub(c.args), "install", "download", "wheel") {
			// Another index or a page of links chooses the packages: a
			// source distribution's setup code runs as it is built.
			c.hiddenCode(c.name+" "+name+" "+rate.Display(val), "packages an index other than PyPI chooses (their setup.py)")
			return
		}
	}
	c.pipInstall(sub(c.args))
}

// pypiIndex reports the Python Package Index's own addresses, pip's
// default: packages from it are what pip install names.
func pypiIndex(u string) bool {
	u = strings.ToLower(strings.TrimSuffix(u, "/"))
	return inList(u, "https://pypi.org/simple", "https://pypi.python.org/simple", "https://files.pythonhosted.org")
}

// pkgRunsCode reports a package.json field npm pkg set can write whose
// value npm or node runs: a lifecycle or other script, a bin entry, the
// main module, the package manager corepack fetches and runs.
func pkgRunsCode(k string) bool {
	k = strings.ToLower(k)
	for _, p := range []string{"scripts", "bin", "main", "exports", "imports", "gypfile", "packagemanager"} {
		if k == p || strings.HasPrefix(k, p+".") || strings.HasPrefix(k, p+"[") {
			return true
		}
	}
	return false
}
