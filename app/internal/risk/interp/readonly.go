package interp

import "strings"

// ReadOnly reports whether code, as lang, is a program of the closed
// world a one-liner of everyday use lives in: it computes, prints and
// reads, and nothing else. Every name it calls or reaches is one the
// language's table (readOnlyTables) knows to do no more — the builtins
// that compute and print, open in a reading mode, the members that only
// read of the modules it may import (Python's os and sys, loaded before
// the code runs, so no file in the working folder stands for them; Node's
// fs, os and path by require) — or a variable the code itself sets, whose
// members it may call only by the names of methods that compute
// (valueMethods). A name it does not know, an import of another module,
// a member reached by a computed name, a name with "__" in it, code run
// from text (eval, exec, Function, a backquoted command) or a definition
// (def, class, function) makes it no such program. So the shell analyzer
// need not hold such code Dangerous as code it cannot see: what it reads
// is still rated by Scan's effects, and the sandbox holds it all the same.
// Only Python and JavaScript have tables; every other language is false.
func ReadOnly(lang Lang, code string) bool {
	return readOnlyAt(lang, code, 0)
}

func readOnlyAt(lang Lang, code string, depth int) bool {
	t, ok := readOnlyTables[lang]
	if !ok || depth > maxNest || strings.TrimSpace(code) == "" {
		return false
	}
	lx := lex(lang, code)
	if lx.full || len(lx.docs) > 0 {
		return false
	}
	r := &roReader{t: t, toks: lx.toks, alias: map[string]string{}, set: map[string]bool{}}
	if !r.declared() || !r.read() {
		return false
	}
	for _, n := range lx.nested {
		if !readOnlyAt(lang, n.code, depth+1) {
			return false
		}
	}
	return true
}

// roTable is what a language's read-only programs may name.
type roTable struct {
	keywords map[string]bool // the language's words that do nothing by themselves
	builtins map[string]bool // functions and objects reachable without an import
	modules  map[string]bool // what may be imported (required)
	// members are the qualified names reachable from a builtin or a module:
	// each exactly, or with "*" every member below it.
	members map[string]bool
	// binders introduce the name after them: for, as, const, let, var …
	binders map[string]bool
	// globals are the language's other global names (Python's builtins,
	// Node's globals and the modules node -e gives as globals). The code
	// may not set one: which uses a name's setting covers is not read
	// here, so a use before it (list(map(help, …)); help = 0, or JS's
	// hoisted var http) would reach the global (help imports a module from
	// the working folder; http.get sends).
	globals map[string]bool
	tagged  bool // a string right after a name, ")" or "]" calls it (JS's tagged templates)
}

// roReader checks one program's tokens against its table.
type roReader struct {
	t     roTable
	toks  []tok
	alias map[string]string // a name → the module (or qualified member) it stands for
	set   map[string]bool   // names the code gives a value
}

// declared collects the names the code sets (x = …, for x in, as x,
// const x, lambda x:, (x) =>) and the imports, before read checks their
// uses: a comprehension's variable is used before its for. A name set that
// shadows a builtin or a forbidden name makes the code unreadable here.
func (r *roReader) declared() bool {
	ts := r.toks
	for i, t := range ts {
		if t.kind != tIdent {
			continue
		}
		if i > 0 && ts[i-1].is(".") {
			continue
		}
		name := ""
		switch {
		case r.t.binders[t.text] && i+1 < len(ts) && ts[i+1].kind == tIdent && !requireAt(ts, i+2):
			name = ts[i+1].text
		case requireAt(ts, i+1):
			continue // const fs = require("fs"): an alias, which read notes
		case i+1 < len(ts) && ts[i+1].is("=") && !r.t.keywords[t.text]:
			name = t.text
		case i+1 < len(ts) && ts[i+1].is("=>"):
			name = t.text
		}
		if name == "" {
			continue
		}
		if !r.bind(name) {
			return false
		}
	}
	// Several names bound at once: for k, v in …, lambda a, b:, const a, b.
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].kind != tIdent || !r.t.binders[ts[i].text] || i > 0 && ts[i-1].is(".") {
			continue
		}
		for j := i + 1; j+2 < len(ts) && ts[j].kind == tIdent && ts[j+1].is(",") && ts[j+2].kind == tIdent; j += 2 {
			if !r.bind(ts[j+2].text) {
				return false
			}
		}
	}
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].is("(") {
			// (a, b) => …: the names before a "=>" after the parenthesis closes.
			j := i + 1
			for j < len(ts) && (ts[j].kind == tIdent || ts[j].is(",")) {
				j++
			}
			if j+1 < len(ts) && ts[j].is(")") && ts[j+1].is("=>") {
				for _, p := range ts[i+1 : j] {
					if p.kind == tIdent && !r.bind(p.text) {
						return false
					}
				}
			}
		}
	}
	return true
}

// bind notes that the code gives name a value; false when the name is
// one the table gives a meaning (a builtin, a module) or a forbidden one.
func (r *roReader) bind(name string) bool {
	if roForbidden[name] || r.t.builtins[name] || r.t.modules[name] || r.t.keywords[name] || r.t.globals[name] || strings.Contains(name, "__") {
		return false
	}
	r.set[name] = true
	return true
}

// read checks every token.
func (r *roReader) read() bool {
	ts := r.toks
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch t.kind {
		case tStr:
			if t.run {
				return false
			}
			if r.t.tagged && i > 0 && (ts[i-1].kind == tIdent && !r.t.keywords[ts[i-1].text] || ts[i-1].is(")") || ts[i-1].is("]")) {
				return false // fetch`https://…`: a tagged template calls what is before it
			}
			continue
		case tNum:
			continue
		case tPunct:
			if t.is("@") {
				return false // a decorator
			}
			if t.is("(") && i > 0 && (ts[i-1].is(")") || ts[i-1].is("]")) {
				return false // f(x)(y), a[0](y): a call of a computed function
			}
			continue
		}
		if strings.Contains(t.text, "__") || roForbidden[t.text] || !plainName(t.text) {
			return false
		}
		if i > 0 && ts[i-1].is(".") {
			// A member of what an expression made: "a,b".split(","),
			// open(p).read(), f(x).y.
			if i+1 < len(ts) && ts[i+1].is("(") && (!valueMethods[t.text] || formats[t.text] && !literalFormat(ts, i)) {
				return false
			}
			continue
		}
		if t.text == "import" || t.text == "from" {
			n, ok := r.imports(i)
			if !ok {
				return false
			}
			i = n
			continue
		}
		if r.t.keywords[t.text] {
			continue
		}
		next, ok := r.chain(i)
		if !ok {
			return false
		}
		i = next - 1
	}
	return true
}

// chain checks the chain of names starting at i (os.path.join, x.y,
// require("fs").readFileSync) and returns where it ends.
func (r *roReader) chain(i int) (int, bool) {
	ts := r.toks
	names := []string{ts[i].text}
	j := i + 1
	if requireAt(ts, j) && !r.t.keywords[names[0]] && !r.t.builtins[names[0]] {
		return j, true // the name an alias gives: the require after it is read next
	}
	if names[0] == "require" {
		// require("fs"): a module the table allows, by its literal name.
		if j+2 >= len(ts) || !ts[j].is("(") || ts[j+1].kind != tStr || !ts[j+1].lit || !ts[j+2].is(")") {
			return 0, false
		}
		mod := strings.TrimPrefix(ts[j+1].text, "node:")
		if !r.t.modules[mod] {
			return 0, false
		}
		names[0] = mod
		j += 3
		if i > 1 && ts[i-1].is("=") && ts[i-2].kind == tIdent && !(j < len(ts) && ts[j].is(".")) {
			r.alias[ts[i-2].text] = mod // const fs = require("fs")
			return j, true
		}
	}
	for j+1 < len(ts) && ts[j].is(".") && ts[j+1].kind == tIdent {
		if strings.Contains(ts[j+1].text, "__") || roForbidden[ts[j+1].text] {
			return 0, false
		}
		names = append(names, ts[j+1].text)
		j += 2
	}
	called := j < len(ts) && ts[j].is("(")
	head, aliased := r.alias[names[0]]
	if !aliased {
		head = names[0]
	}
	switch {
	case aliased || r.t.modules[head]:
		// A module, or a member an import named: only the table's members,
		// each exactly (a bare module, or a member passed as a value to
		// map, would reach everything it has).
		k, ok := r.members(head, names[1:])
		if !ok {
			return 0, false
		}
		if flagged[strings.Join(append([]string{head}, names[1:1+k]...), ".")] && (!called || k != len(names)-1 || !encodingOnly(ts, j)) {
			return 0, false // fs.readFileSync(p, {flag: "w"}), or handed to reduce
		}
		return r.tail(names[1+k:], called, j)
	case r.t.builtins[head]:
		if head == "open" && (len(names) > 1 || !called || !readMode(ts, j)) {
			return 0, false // open only called, and only to read
		}
		k := 0
		if len(names) > 1 || hasMembers(r.t, head) {
			var ok bool
			if k, ok = r.members(head, names[1:]); !ok {
				return 0, false
			}
		}
		return r.tail(names[1+k:], called, j)
	case r.set[head]:
		// A value the code made: its members are data, and what it calls
		// on them must compute; calling the variable itself may call any
		// function it was given.
		if called && len(names) == 1 {
			return 0, false
		}
		return r.tail(names[1:], called, j)
	}
	return 0, false
}

// tail checks rest, the members after a known name or value: a call of the
// last must be of a method that computes.
func (r *roReader) tail(rest []string, called bool, end int) (int, bool) {
	if called && len(rest) > 0 && (!valueMethods[rest[len(rest)-1]] || formats[rest[len(rest)-1]]) {
		// str.format(t, f), x.format(f): a format whose text is not read
		// here (literalFormat).
		return 0, false
	}
	return end, true
}

// members returns how many of names, the members after head, the table
// knows: the members up to the last exact entry, or all of them below a
// "*" one. head alone is known when the table lists it exactly (a member an
// import named); a module alone is not.
func (r *roReader) members(head string, names []string) (int, bool) {
	q := head
	for p := head; ; {
		if r.t.members[p+".*"] {
			return len(names), true // below a "*" entry: datetime.datetime.now
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	best := -1
	if r.t.members[q] || r.t.builtins[q] && !hasMembers(r.t, q) {
		best = 0
	}
	for k, n := range names {
		q += "." + n
		if r.t.members[q+".*"] {
			return len(names), true
		}
		if r.t.members[q] {
			best = k + 1
		}
	}
	return best, best >= 0
}

// hasMembers reports whether the table lists members of head: then only
// those may be reached.
func hasMembers(t roTable, head string) bool {
	for m := range t.members {
		if strings.HasPrefix(m, head+".") {
			return true
		}
	}
	return false
}

// formats are the methods that read a format text, whose fields reach
// the arguments' attributes and items ("{0.__globals__[os].environ}").
var formats = set(`format format_map`)

// literalFormat reports whether the format method named at i is called
// on one literal string, alone (not "{0._" "_globals__}", which Python
// joins) and without "__" in it: only then is what its fields reach read.
func literalFormat(ts []tok, i int) bool {
	s := i - 2
	return s >= 0 && ts[s].kind == tStr && ts[s].lit && !strings.Contains(ts[s].text, "__") && (s == 0 || ts[s-1].kind != tStr)
}

// plainName reports a name of ASCII letters, digits, "_" and "$" only:
// Python reads ｅｘｅｃ as exec (it normalizes names to NFKC), and JS
// reads \u0065val as eval.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// requireAt reports "= require(" at i.
func requireAt(ts []tok, i int) bool {
	return i+2 < len(ts) && ts[i].is("=") && ts[i+1].kind == tIdent && ts[i+1].text == "require" && ts[i+2].is("(")
}

// imports checks an import statement at i (import a, b as c; from a
// import b as c, d) and returns its last token's index.
func (r *roReader) imports(i int) (int, bool) {
	ts := r.toks
	dotted := func(j int) (string, int) {
		if j >= len(ts) || ts[j].kind != tIdent {
			return "", j
		}
		s := ts[j].text
		j++
		for j+1 < len(ts) && ts[j].is(".") && ts[j+1].kind == tIdent {
			s += "." + ts[j+1].text
			j += 2
		}
		return s, j
	}
	if ts[i].text == "from" {
		mod, j := dotted(i + 1)
		if mod == "" || !r.t.modules[mod] || j >= len(ts) || ts[j].text != "import" {
			return 0, false
		}
		j++
		if j >= len(ts) || ts[j].kind != tIdent {
			// from os import *: every name the module has, open (os.open)
			// among them, over the builtins this reader checks.
			return 0, false
		}
		for j < len(ts) && ts[j].kind == tIdent {
			name := ts[j].text
			if !r.t.members[mod+"."+name] && !r.t.modules[mod+"."+name] && !r.t.members[mod+".*"] && !r.t.members[mod+"."+name+".*"] {
				return 0, false
			}
			local := name
			j++
			if j+1 < len(ts) && ts[j].text == "as" && ts[j+1].kind == tIdent {
				local = ts[j+1].text
				j += 2
			}
			if roForbidden[local] || strings.Contains(local, "__") {
				return 0, false
			}
			r.alias[local] = mod + "." + name
			if j < len(ts) && ts[j].is(",") {
				j++
				continue
			}
			break
		}
		return j - 1, true
	}
	j := i + 1
	for {
		mod, k := dotted(j)
		if mod == "" || !r.t.modules[mod] {
			return 0, false
		}
		local := strings.SplitN(mod, ".", 2)[0]
		target := local
		if k+1 < len(ts) && ts[k].text == "as" && ts[k+1].kind == tIdent {
			local, target = ts[k+1].text, mod
			k += 2
		}
		if roForbidden[local] || strings.Contains(local, "__") {
			return 0, false
		}
		r.alias[local] = target
		if k < len(ts) && ts[k].is(",") {
			j = k + 1
			continue
		}
		return k - 1, true
	}
}

// readMode reports whether the call of open whose "(" is at j opens for
// reading: no mode, or a literal one of r, b and t only, alone in its
// argument (not 'r' + '+'), and no argument spread from a list (*a, **k).
func readMode(ts []tok, j int) bool {
	alone := func(k int) bool {
		return k+1 < len(ts) && (ts[k+1].is(",") || ts[k+1].is(")")) && readOnlyMode(ts[k])
	}
	depth, arg, named := 0, 0, false
	for k := j; k < len(ts); k++ {
		t := ts[k]
		if depth == 1 && (k == j+1 || ts[k-1].is(",")) {
			// The first token of an argument.
			kw := t.kind == tIdent && k+1 < len(ts) && ts[k+1].is("=")
			switch {
			case t.is("*") || t.is("**"):
				return false
			case !kw && named, t.is(","):
				return false // a positional argument after a named one, an empty one: not Python
			}
			named = named || kw
			switch {
			case kw && t.text == "mode":
				if !alone(k + 2) {
					return false
				}
			case kw:
			case arg == 1:
				if !alone(k) {
					return false
				}
			}
		}
		switch {
		case t.is("(") || t.is("[") || t.is("{"):
			depth++
		case t.is(")") || t.is("]") || t.is("}"):
			depth--
			if depth == 0 {
				return true
			}
		case depth == 1 && t.is(","):
			arg++
		}
	}
	return false
}

// flagged are the readers whose options may say how the file is opened
// (Node's {flag: "w"} empties it): called only, with a literal encoding
// at most (encodingOnly).
var flagged = set(`fs.readFileSync`)

// encodingOnly reports whether the call whose "(" is at j has one
// argument, or a second that is a literal string alone (an encoding), and
// no more.
func encodingOnly(ts []tok, j int) bool {
	depth, arg := 0, 0
	for k := j; k < len(ts); k++ {
		t := ts[k]
		if depth == 1 && arg == 1 && ts[k-1].is(",") && (t.kind != tStr || !t.lit || k+1 >= len(ts) || !ts[k+1].is(")")) {
			return false
		}
		switch {
		case depth == 1 && t.is("..."):
			return false
		case t.is("(") || t.is("[") || t.is("{"):
			depth++
		case t.is(")") || t.is("]") || t.is("}"):
			depth--
			if depth == 0 {
				return true
			}
		case depth == 1 && t.is(","):
			if arg++; arg > 1 {
				return false
			}
		}
	}
	return false
}

func readOnlyMode(t tok) bool {
	return t.kind == tStr && t.lit && strings.Contains(t.text, "r") && strings.Trim(t.text, "rbt") == ""
}

// roForbidden are names that reach code or the interpreter's insides
// whatever they are called on.
var roForbidden = set(`eval exec execfile compile getattr setattr delattr globals locals vars breakpoint
	importlib builtins Function constructor prototype globalThis global module exports process.binding
	binding dlopen setTimeout setInterval setImmediate child_process spawn spawnSync execSync execFileSync
	system popen subprocess ctypes def class function async await yield with_traceback reload input raw_input
	apply call bind Reflect Proxy WebAssembly import_module`)

// valueMethods are the methods of strings, numbers, lists, dicts, dates,
// matches and file objects opened for reading that compute and change
// nothing outside the program.
var valueMethods = set(`read readline readlines strip lstrip rstrip split rsplit splitlines join replace upper lower
	title capitalize casefold startswith endswith find rfind index rindex count format format_map encode decode
	keys values items get append extend insert pop sort copy isoformat strftime timestamp total_seconds date time
	group groups groupdict findall finditer match search fullmatch sub subn hexdigest digest isdigit isalpha isalnum
	isspace isupper islower zfill center ljust rjust partition rpartition expandtabs is_file is_dir is_symlink
	startsWith endsWith toString toFixed toPrecision toUpperCase toLowerCase trim trimStart trimEnd slice substring substr includes
	indexOf lastIndexOf map filter reduce reduceRight forEach some every findIndex flat flatMap concat push
	padStart padEnd repeat charAt charCodeAt codePointAt localeCompare toISOString toLocaleString
	toLocaleDateString toLocaleTimeString toJSON getTime getFullYear getMonth getDate getDay getHours getMinutes
	getSeconds getTimezoneOffset entries has at reverse fill isFile isDirectory isSymbolicLink`)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// readOnlyTables are the read-only worlds of Python and JavaScript.
var readOnlyTables = map[Lang]roTable{
	Python: {
		keywords: set(`import from as for in if elif else and or not is None True False lambda while break
			continue pass return del try except finally raise assert with`),
		builtins: set(`print len open sum min max sorted reversed range enumerate zip map filter str int float bool
			list dict set tuple frozenset abs round repr any all isinstance hex oct bin chr ord divmod pow format
			iter next hash bytes bytearray slice ascii callable issubclass object Exception ValueError KeyError
			IndexError TypeError OSError FileNotFoundError SystemExit StopIteration`),
		// Only what Python has loaded before it runs the code: python -c
		// looks for every other module in the working folder first, where
		// json.py may be anyone's.
		modules: set(`os os.path sys`),
		// os.path by its functions, not "os.path.*": posixpath also holds
		// the modules it imports (os.path.os, os.path.sys, os.path.genericpath),
		// and expandvars prints the environment's values.
		members: set(`os.path.abspath os.path.basename os.path.commonpath os.path.commonprefix os.path.dirname
			os.path.exists os.path.lexists os.path.expanduser os.path.getatime os.path.getctime os.path.getmtime
			os.path.getsize os.path.isabs os.path.isdir os.path.isfile os.path.islink os.path.ismount
			os.path.isjunction os.path.join os.path.normcase os.path.normpath os.path.realpath os.path.relpath
			os.path.samefile os.path.split os.path.splitdrive os.path.splitext os.path.splitroot os.path.curdir
			os.path.pardir os.path.sep os.path.altsep os.path.extsep os.path.pathsep os.path.devnull os.listdir os.getcwd os.cpu_count os.getpid os.getppid os.uname os.stat os.lstat
			os.scandir os.walk os.sep os.linesep os.name os.getlogin os.getuid os.getgid os.access os.R_OK os.F_OK
			os.X_OK os.W_OK os.pathsep os.curdir os.devnull
			sys.version sys.version_info sys.platform sys.argv sys.stdin sys.stdin.read sys.stdin.readline
			sys.stdin.readlines sys.stdout sys.stdout.write sys.stderr sys.stderr.write sys.exit sys.executable
			sys.maxsize sys.byteorder sys.getrecursionlimit sys.prefix`),
		binders: set(`for as lambda`),
		globals: set(`aiter anext breakpoint classmethod compile complex copyright credits delattr dir eval exec exit
			getattr globals hasattr help id input license locals memoryview property quit setattr staticmethod super
			type vars Ellipsis NotImplemented ArithmeticError AssertionError AttributeError BaseException
			BaseExceptionGroup BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
			ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError DeprecationWarning
			EOFError EncodingWarning EnvironmentError ExceptionGroup FileExistsError FloatingPointError FutureWarning
			GeneratorExit IOError ImportError ImportWarning IndentationError InterruptedError IsADirectoryError
			KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError
			NotImplementedError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
			RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration SyntaxError
			SyntaxWarning SystemError TabError TimeoutError UnboundLocalError UnicodeDecodeError UnicodeEncodeError
			UnicodeError UnicodeTranslateError UnicodeWarning UserWarning Warning ZeroDivisionError`),
	},
	JS: {
		keywords: set(`const let var new typeof instanceof of in if else for while return true false null
			undefined NaN Infinity void delete break continue do switch case default try catch finally throw`),
		builtins: set(`console JSON Math Object Array Number String Boolean Date RegExp Map Set parseInt
			parseFloat isNaN isFinite process require Error TypeError encodeURIComponent decodeURIComponent
			encodeURI decodeURI Symbol BigInt Intl Buffer`),
		modules: set(`os path fs util url querystring`),
		members: set(`console.log console.error console.info console.warn console.dir console.table
			JSON.parse JSON.stringify Math.* Object.keys Object.values Object.entries Object.fromEntries
			Object.assign Object.freeze Array.isArray Array.from Array.of Number.* String.fromCharCode
			String.fromCodePoint Date.now Date.parse Date.UTC Intl.* Buffer.from Buffer.byteLength
			process.version process.versions process.platform process.arch process.argv process.cwd
			process.uptime process.memoryUsage process.hrtime process.pid process.exit
			process.stdout.write process.stderr.write process.execPath process.title
			os.homedir os.hostname os.platform os.type os.release os.arch os.cpus os.totalmem os.freemem
			os.uptime os.tmpdir os.userInfo os.EOL os.loadavg os.endianness os.version os.machine
			path.* fs.readFileSync fs.readdirSync fs.existsSync fs.statSync fs.lstatSync fs.realpathSync
			util.inspect util.format url.parse url.URL querystring.parse querystring.stringify`),
		binders: set(`const let var of`),
		tagged:  true,
		globals: set(`AbortController AbortSignal AggregateError ArrayBuffer Atomics BigInt64Array BigUint64Array Blob
			BroadcastChannel ByteLengthQueuingStrategy CloseEvent CompressionStream CountQueuingStrategy Crypto
			CryptoKey CustomEvent DOMException DataView DecompressionStream EvalError Event EventSource EventTarget
			File FinalizationRegistry Float16Array Float32Array Float64Array FormData Headers Int16Array Int32Array
			Int8Array Iterator MessageChannel MessageEvent MessagePort Navigator Performance PerformanceEntry
			PerformanceMark PerformanceMeasure PerformanceObserver PerformanceObserverEntryList
			PerformanceResourceTiming Promise RangeError ReadableByteStreamController ReadableStream
			ReadableStreamBYOBReader ReadableStreamBYOBRequest ReadableStreamDefaultController
			ReadableStreamDefaultReader ReferenceError Request Response SharedArrayBuffer Storage SubtleCrypto
			SyntaxError TextDecoder TextDecoderStream TextEncoder TextEncoderStream TransformStream
			TransformStreamDefaultController URIError URL URLSearchParams Uint16Array Uint32Array Uint8Array
			Uint8ClampedArray WeakMap WeakRef WeakSet WebSocket WritableStream WritableStreamDefaultController
			WritableStreamDefaultWriter assert async_hooks atob btoa buffer clearImmediate clearInterval clearTimeout
			cluster constants crypto dgram diagnostics_channel dns domain escape events fetch http http2 https
			inspector localStorage navigator net perf_hooks performance punycode queueMicrotask readline repl
			sessionStorage stream string_decoder structuredClone sys timers tls trace_events tty
			unescape v8 vm wasi worker_threads zlib`),
	},
}
