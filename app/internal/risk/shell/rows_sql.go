package shell

import (
	"regexp"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The SQL clients: sqlite3, psql, mysql and mariadb. What they are given
// is rated in two parts: the client's own commands (sqlite3's dot
// commands, psql's and mysql's backslash commands and mysql's named ones),
// which run on this Mac and read, write or run what they name; and the
// SQL statements, which the server runs. The same statement is the same
// effect whichever client sends it (sqlStatement).

// sqliteCommand rates sqlite3: its SQL (after the database, with -cmd,
// or on stdin) is rated; .shell and .system run commands.
func sqliteCommand(c *call) {
	c.add(effect.Of(effect.Change), "sqlite3", "sqlite3: opens a database")
	var ops []word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if w.hole || !strings.HasPrefix(w.s, "-") || w.s == "-" {
			ops = append(ops, w)
			continue
		}
		switch strings.TrimLeft(w.s, "-") {
		case "cmd":
			if i+1 < len(c.args) {
				i++
				c.sql(c.args[i])
			}
		case "init":
			c.add(effect.Of(effect.RunUnseen), "sql-file", "sqlite3 -init: runs commands from a file that is not analysed")
			i++
		case "separator", "nullvalue", "newline", "vfs", "mmap", "maxsize", "heap", "lookaside", "pagecache", "escape", "A":
			i++
		}
	}
	if len(ops) > 0 && isTCCDatabase(ops[0]) {
		c.tccWrite(ops[1:])
	}
	switch {
	case len(ops) > 1:
		for _, o := range ops[1:] {
			c.sql(o)
		}
	default:
		c.sqlStdin()
	}
}

// sqlStdin rates the SQL a client reads from its input when it is given
// none: text is analysed; SQL from a download or decoded data, or from a
// file, a pipe or text computed at run time, is not — and a client's
// commands in it run shell commands (\!, .shell, system).
func (c *call) sqlStdin() {
	switch c.pc.stdin {
	case "text":
		c.sql(word{s: c.pc.text})
	case "download", "decoded":
		c.add(effect.Of(effect.RunComputed), "sql-computed", "%s runs SQL from a download or decoded data, whose client commands can run shell commands", c.name)
	case "file", "pipe", "computed":
		c.add(effect.Of(effect.RunUnseen), "sql-file", "%s runs SQL from its input, which is not analysed (its client commands can run shell commands)", c.name)
	}
}

// sqlClientCommand rates psql (-c) and mysql (-e): the SQL given is rated.
func sqlClientCommand(c *call) {
	c.add(effect.Of(effect.Fetch), c.name, "%s: runs SQL on a database server", c.name)
	model := mysqlModel
	if c.name == "psql" {
		model = psqlModel
	}
	c.writesOptions(model, "-o", "--output", "-L", "--log-file", "--tee")
	short, long := "-e", "--execute"
	if c.name == "psql" {
		short, long = "-c", "--command"
	}
	found := false
	for i, w := range c.args {
		switch {
		case (w.s == short || w.s == long) && i+1 < len(c.args):
			found = true
			c.sql(c.args[i+1])
		case strings.HasPrefix(w.s, long+"="):
			found = true
			c.sql(word{s: w.s[len(long)+1:], hole: w.hole})
		case strings.HasPrefix(w.s, short) && len(w.s) > 2 && !strings.HasPrefix(w.s, "--"):
			found = true
			c.sql(word{s: w.s[2:], hole: w.hole})
		}
	}
	if c.name == "psql" {
		c.psqlPrompts()
	}
	if v, ok := model.parse(c.args).value("--init-command"); ok {
		c.sql(v) // SQL too, besides the option's own effect
	}
	if !found && !model.parse(c.args).has("-f", "--file") {
		c.sqlStdin()
	}
}

// The SQL clients' option models (psql(1), mysql(1), which mariadb
// shares): how to connect and print; -c/-e SQL is rated by
// sqlClientCommand, and the options that run or write what it does not see
// declare it.
var (
	psqlModel = &opts{
		short:  "aAbeEHlnqsStxXz01Vw?W",
		valued: "cdFhpPRTUvoL",
		long: `--echo-all --no-align --echo-errors --echo-queries --echo-hidden --html --list --no-readline --quiet
			--single-step --single-line --tuples-only --expanded --no-psqlrc --field-separator-zero
			--record-separator-zero --single-transaction --version --help --help= --no-password --password --csv
			--command= --dbname= --field-separator= --host= --port= --pset= --record-separator= --table-attr=
			--username= --set= --variable= --output= --log-file=`,
		effects: map[string]optEffect{
			"-f": optFx(effect.RunUnseen, "runs the SQL of a file that is not analysed"), "--file": optFx(effect.RunUnseen, "runs the SQL of a file that is not analysed"),
		},
	}
	mysqlModel = &opts{
		short:  "ABCcEfHiLnNoqrsUtvVXw?b",
		valued: "eDhPuSp",
		long: `--auto-rehash --no-auto-rehash --batch --binary-mode --compress --column-names --skip-column-names
			--column-type-info --comments --skip-comments --debug-check --debug-info --vertical --force --html
			--ignore-spaces --line-numbers --skip-line-numbers --unbuffered --one-database --quick --raw --reconnect
			--skip-reconnect --safe-updates --i-am-a-dummy --silent --show-warnings --table --verbose --version --xml
			--help --wait --no-beep --skip-ssl --ssl --ssl-verify-server-cert --no-defaults --print-defaults
			--execute= --database= --host= --port= --user= --socket= --password --password= --protocol=
			--default-character-set= --delimiter= --connect-timeout= --max-allowed-packet= --net-buffer-length=
			--prompt= --ssl-ca= --ssl-capath= --ssl-cert= --ssl-cipher= --ssl-key= --ssl-mode= --tls-version=
			--select-limit= --max-join-size= --login-path= --tee=`,
		effects: map[string]optEffect{
			"--init-command":        optFx(effect.RunUnseen, "runs the SQL it names on connecting, which may use the server's own code"),
			"--pager":               optFx(effect.RunUnseen, "runs the pager it names, which is not analysed"),
			"--plugin-dir":          optFx(effect.LoadCode, "loads client plugins from the folder it names"),
			"--local-infile":        optFx(effect.Upload, "lets SQL send files of this Mac to the server (LOAD DATA LOCAL)"),
			"--defaults-file":       optFx(effect.RunUnseen, "reads options (pager, init-command) from a file that is not analysed"),
			"--defaults-extra-file": optFx(effect.RunUnseen, "reads options (pager, init-command) from a file that is not analysed"),
		},
	}
)

// sql rates SQL text given to a client: each line's client commands
// (sqlMeta), then each statement (sqlStatement). The whole text is read as
// SQL, client commands included: a backslash inside a quoted string is
// not a command, and reading it as one must not hide the SQL after it.
func (c *call) sql(w word) {
	if w.hole {
		c.add(effect.Of(effect.RunUnseen), "sql-computed", "%s runs SQL computed at run time", c.name)
		return
	}
	var body strings.Builder
	for _, line := range strings.Split(w.s, "\n") {
		body.WriteString(c.sqlMeta(line))
		body.WriteByte('\n')
	}
	text := body.String()
	if strings.Contains(strings.ToLower(text), "load_extension") {
		c.add(effect.Of(effect.RunUnseen), "hidden-code", "%s: load_extension runs native code, which is not analysed", c.name)
	}
	for _, st := range strings.Split(text, ";") {
		if c.name == "mysql" || c.name == "mariadb" {
			st = c.mysqlCommand(st)
		}
		c.sqlStatement(st)
	}
}

// sqlMeta rates the client commands of one line and returns the line as
// SQL. sqlite3's dot commands take the whole line (no SQL is left);
// psql's and mysql's backslash commands start at a backslash after a
// blank and run to the next one (\copy and \! to the end of the line),
// and stay in the SQL but for \copy's name, which is not the server's
// COPY.
func (c *call) sqlMeta(line string) string {
	t := strings.TrimSpace(line)
	if c.name == "sqlite3" {
		if strings.HasPrefix(t, ".") {
			c.sqliteDot(t)
			return ""
		}
		if low := strings.ToLower(t); strings.HasPrefix(low, "system ") {
			c.sqlShell(t[len("system "):], "system")
			return ""
		}
		return line
	}
	rest := ""
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ';') {
			rest = line[i:]
			break
		}
	}
	for rest != "" {
		name, arg := sqlBackslash(rest)
		if name == "copy" || name == "!" {
			c.backslash(name, strings.TrimSpace(arg))
			break
		}
		next := ""
		if j := strings.Index(arg, ` \`); j >= 0 {
			arg, next = arg[:j], arg[j+1:]
		}
		c.backslash(name, strings.TrimSpace(arg))
		rest = next
	}
	return psqlCopyName.ReplaceAllString(line, `\psql_copy`)
}

// psqlCopyName is psql's \copy, which reads and writes files here, not on
// the server as COPY does.
var psqlCopyName = regexp.MustCompile(`(?i)\\copy\b`)

// sqlBackslash splits a backslash command into its name and the rest:
// \copy …, \! …, \o file, \. file.
func sqlBackslash(s string) (name, arg string) {
	s = s[1:]
	if s != "" && strings.IndexByte("!.?", s[0]) >= 0 {
		return s[:1], s[1:]
	}
	j := 0
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '_' || s[j] == '+') {
		j++
	}
	return s[:j], s[j:]
}

// backslash rates one backslash command of psql (psql(1), "Meta-Commands")
// or mysql (mysql(1), "mysql Client Commands") with its argument.
func (c *call) backslash(name, arg string) {
	psql := c.name == "psql"
	if psql && name != "!" && name != "copy" {
		c.psqlBackticks(arg, `\`+name)
	}
	switch {
	case name == "!":
		c.sqlShell(arg, `\!`)
	case psql && name == "copy":
		c.psqlCopy(arg)
	case psql && inList(name, "i", "ir", "include", "include_relative"), !psql && name == ".":
		c.add(effect.Of(effect.RunUnseen).On(sqlFileArg(arg)), "sql-file", `%s \%s %s: runs the SQL of a file that is not analysed`, c.name, name, rate.Display(sqlFileArg(arg)))
	case psql && inList(name, "o", "out", "g", "gx", "w", "write"), !psql && name == "T":
		c.sqlOutput(arg, `\`+name)
	case !psql && name == "P":
		c.sqlShell(arg, `\P`)
	case psql && name == "password":
		c.add(effect.Of(effect.Account), "sql-account", `%s \password: changes an account's password`, c.name)
	case psql && name == "setenv":
		if f := strings.Fields(arg); len(f) > 1 && psqlPrograms[f[0]] {
			c.sqlShell(strings.Trim(strings.Join(f[1:], " "), `'"`), `\setenv `+f[0])
		}
	case psql && name == "gexec":
		c.add(effect.Of(effect.RunUnseen), "sql-computed", `%s \gexec: runs as SQL what the query returns, which is not analysed`, c.name)
	case psql && name == "lo_import":
		c.sqlSends(sqlFileArg(arg), `\lo_import`)
	case psql && name == "lo_export":
		if f := strings.Fields(arg); len(f) > 1 {
			c.a.write(word{s: sqlUnquote(f[1]), span: c.span}, c.span, c.name+` \lo_export writes`)
		}
	}
}

// psqlBackticks rates the `…` of a psql meta-command's argument (psql(1),
// "Meta-Commands": text in backquotes is a command line passed to the
// shell, its output put in its place) and of a prompt (%`…`, run each
// time the prompt is shown): shell commands psql runs.
func (c *call) psqlBackticks(arg, what string) {
	for {
		i := strings.IndexByte(arg, '`')
		if i < 0 {
			return
		}
		j := strings.IndexByte(arg[i+1:], '`')
		if j < 0 {
			c.sqlShell(arg[i+1:], what+" `…`")
			return
		}
		c.sqlShell(arg[i+1:i+1+j], what+" `…`")
		arg = arg[i+j+2:]
	}
}

// psqlPrompts rates the prompts set on psql's command line (-v, --set,
// --variable PROMPT1=…): their %`…` run when the prompt is shown.
func (c *call) psqlPrompts() {
	for i, w := range c.args {
		v := w.s
		switch {
		case (v == "-v" || v == "--set" || v == "--variable") && i+1 < len(c.args):
			v = c.args[i+1].s
		case strings.HasPrefix(v, "--set=") || strings.HasPrefix(v, "--variable="):
			_, v, _ = strings.Cut(v, "=")
		case strings.HasPrefix(v, "-v") && len(v) > 2:
			v = v[2:]
		default:
			continue
		}
		if name, val, ok := strings.Cut(v, "="); ok && strings.HasPrefix(strings.ToUpper(name), "PROMPT") {
			c.psqlBackticks(val, "-v "+name)
		}
	}
}

// psqlPrograms are the variables whose value is a program psql runs
// (psql(1), "Environment").
var psqlPrograms = set("PAGER PSQL_PAGER PSQL_WATCH_PAGER PSQL_EDITOR EDITOR VISUAL SHELL")

// mysqlCommand rates a mysql client command spelled by its name at the
// start of a statement (system, source, tee, pager) and returns the
// statement, "" when it was one.
func (c *call) mysqlCommand(st string) string {
	t := strings.TrimSpace(st)
	name, arg, _ := strings.Cut(t, " ")
	switch strings.ToLower(name) {
	case "system":
		c.sqlShell(arg, "system")
	case "source":
		c.backslash(".", arg)
	case "tee":
		c.backslash("T", arg)
	case "pager":
		c.backslash("P", arg)
	default:
		return st
	}
	return ""
}

// sqliteDot rates one of sqlite3's dot commands (sqlite3's .help): those
// that run commands, read or run files, and write files.
func (c *call) sqliteDot(t string) {
	f := sqliteDotArgs(t)
	if len(f) == 0 {
		return
	}
	cmd, args := strings.ToLower(f[0]), f[1:]
	var files []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			files = append(files, a)
		}
	}
	switch cmd {
	case ".shell", ".system":
		_, rest, _ := strings.Cut(t, " ")
		c.sqlShell(rest, cmd)
	case ".load":
		c.add(effect.Of(effect.RunUnseen).On(t), "hidden-code", "%s %s: loads a native extension, which is not analysed", c.name, rate.Display(t))
	case ".read":
		if len(files) > 0 && strings.HasPrefix(files[0], "|") {
			c.sqlShell(files[0][1:], ".read |")
			return
		}
		c.add(effect.Of(effect.RunUnseen).On(t), "hidden-code", "%s %s: runs a file of commands, which is not analysed", c.name, rate.Display(t))
	case ".output", ".once":
		switch {
		case len(files) == 0:
		case strings.HasPrefix(files[0], "|"):
			c.sqlShell(files[0][1:], cmd+" |")
		case !isDevice(files[0]):
			c.a.write(word{s: files[0], span: c.span}, c.span, c.name+" "+cmd+" writes")
		}
	case ".import":
		if len(files) > 0 {
			if strings.HasPrefix(files[0], "|") {
				c.sqlShell(files[0][1:], ".import |")
				return
			}
			c.a.read(word{s: files[0], span: c.span}, c.span)
		}
	case ".backup", ".save":
		if len(files) > 0 {
			c.a.write(word{s: files[len(files)-1], span: c.span}, c.span, c.name+" "+cmd+" writes")
		}
	case ".restore":
		if len(files) > 0 {
			c.a.read(word{s: files[len(files)-1], span: c.span}, c.span)
		}
	}
}

// sqlShell rates a command line a client runs on this Mac (\!, system,
// .shell, a pager, a pipe of \o): a shell command, analysed.
func (c *call) sqlShell(cmd, what string) {
	c.add(effect.Of(effect.Shell), "sql-shell", "%s %s: runs a shell command", c.name, what)
	c.nestedText(cmd, c.name+" shell escape")
}

// sqlOutput rates where a client writes its results (\o, \g, \w, tee,
// .output): a file, rated by where it is, or |command, which runs.
func (c *call) sqlOutput(arg, what string) {
	arg = strings.TrimSpace(arg)
	if strings.HasPrefix(arg, "|") {
		c.sqlShell(arg[1:], what+" |")
		return
	}
	if f := sqlFileArg(arg); f != "" && !isDevice(f) {
		c.a.write(word{s: f, span: c.span}, c.span, c.name+" "+what+" writes")
	}
}

// sqlSends rates a file of this Mac that the client reads and sends to
// the server (\copy … FROM, \lo_import, LOAD DATA LOCAL INFILE): a read of
// that file, and an upload when the server is another machine. With the
// client's own network effect, a secret read this way leaves.
func (c *call) sqlSends(f, what string) {
	if f == "" || f == "-" || strings.EqualFold(f, "stdin") || strings.EqualFold(f, "pstdin") {
		return
	}
	c.a.read(word{s: f, span: c.span}, c.span)
	if c.sqlRemote() {
		c.add(effect.Of(effect.Upload).On(f), "sql-upload", "%s %s %s: sends the file to the database server, another machine", c.name, what, rate.Display(f))
	}
}

// psqlCopyArgs finds \copy's direction and file: FROM or TO, then PROGRAM
// 'command', a quoted file, or a word (stdin, stdout, pstdin, pstdout).
var psqlCopyArgs = regexp.MustCompile(`(?is)\s(from|to)\s+(program\s+)?('[^']*'|"[^"]*"|\S+)`)

// psqlCopy rates psql's \copy (psql(1)): FROM a file reads it on this Mac
// and sends it to the server, TO a file writes one here, and PROGRAM runs
// the command here.
func (c *call) psqlCopy(arg string) {
	m := psqlCopyArgs.FindStringSubmatch(" " + skipQuery(arg))
	if m == nil {
		return
	}
	target := sqlUnquote(m[3])
	switch {
	case m[2] != "":
		c.sqlShell(target, `\copy … program`)
	case strings.EqualFold(m[1], "from"):
		c.sqlSends(target, `\copy … from`)
	case !inList(strings.ToLower(target), "stdout", "pstdout"):
		c.a.write(word{s: target, span: c.span}, c.span, c.name+` \copy writes`)
	}
}

// skipQuery is \copy's argument after a query in parentheses, which may
// hold FROM and TO of its own: \copy (SELECT … FROM t) TO 'f'.
func skipQuery(arg string) string {
	if !strings.HasPrefix(arg, "(") {
		return arg
	}
	depth, quoted := 0, false
	for i := 0; i < len(arg); i++ {
		switch b := arg[i]; {
		case b == '\'':
			quoted = !quoted
		case quoted:
		case b == '(':
			depth++
		case b == ')':
			depth--
			if depth == 0 {
				return arg[i+1:]
			}
		}
	}
	return arg
}

// sqlFileArg is the file a client command names: its first word, unquoted.
func sqlFileArg(arg string) string {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return ""
	}
	if q := arg[0]; q == '\'' || q == '"' {
		if j := strings.IndexByte(arg[1:], q); j >= 0 {
			return arg[1 : 1+j]
		}
	}
	f, _, _ := strings.Cut(arg, " ")
	return f
}

func sqlUnquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// sqlRemote reports a client connected to another machine: a host named
// (-h, --host, host= or a URL of psql's -d), other than this Mac or a
// socket; a host computed at run time may be any.
func (c *call) sqlRemote() bool {
	m := mysqlModel
	if c.name == "psql" {
		m = psqlModel
	}
	p := m.parse(c.args)
	hosts := []word{}
	if h, ok := p.value("-h", "--host"); ok {
		hosts = append(hosts, h)
	}
	if d, ok := p.value("-d", "--dbname"); ok {
		hosts = append(hosts, conninfoHost(d))
	}
	for _, o := range p.operands() {
		if strings.Contains(o.s, "://") || strings.Contains(o.s, "host=") {
			hosts = append(hosts, conninfoHost(o))
		}
	}
	for _, h := range hosts {
		if h.hole || h.s != "" && !strings.HasPrefix(h.s, "/") && !inList(strings.ToLower(h.s), "localhost", "127.0.0.1", "::1", "[::1]") {
			return true
		}
	}
	return false
}

// conninfoHost is the host of a libpq connection string or URL
// (postgresql://user@host:5432/db, "host=db.example.com dbname=x"); "" for
// a plain database name.
func conninfoHost(w word) word {
	s := w.s
	if _, rest, ok := strings.Cut(s, "://"); ok {
		rest, _, _ = strings.Cut(rest, "/")
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			rest = rest[i+1:]
		}
		if !strings.HasPrefix(rest, "[") {
			rest, _, _ = strings.Cut(rest, ":")
		}
		return word{s: rest, hole: w.hole}
	}
	for _, f := range strings.Fields(s) {
		if v, ok := strings.CutPrefix(f, "host="); ok {
			return word{s: v, hole: w.hole}
		}
	}
	return word{}
}

// sqlStatement rates one SQL statement, whichever client sends it:
// dropping or truncating tables and deleting every row remove data;
// statements that make, change or remove accounts and their rights are
// Account (sqlAccount); the files it names are read, written or reached
// (sqlFiles).
func (c *call) sqlStatement(st string) {
	st = sqlLead(st)
	f := strings.Fields(strings.ToUpper(st))
	if len(f) == 0 {
		return
	}
	where := inList("WHERE", f...) && !sqlAlwaysTrue.MatchString(strings.ToUpper(st))
	switch {
	case f[0] == "DROP" && len(f) > 1 && inList(f[1], "TABLE", "DATABASE", "SCHEMA", "VIEW", "COLLECTION", "OWNED", "MATERIALIZED", "SEQUENCE", "KEYSPACE"):
		c.add(effect.Of(effect.Remove, effect.Bulk), "sql-drop", "%s: DROP %s deletes it with all its data", c.name, f[1])
	case f[0] == "ALTER" && len(f) > 1 && f[1] == "TABLE" && sqlDropColumn.MatchString(strings.ToUpper(st)):
		c.add(effect.Of(effect.Remove, effect.Bulk), "sql-drop", "%s: ALTER TABLE … DROP COLUMN deletes a column of every row", c.name)
	case f[0] == "ALTER" && len(f) > 1 && f[1] == "SYSTEM", f[0] == "SET" && len(f) > 1 && inList(f[1], "GLOBAL", "PERSIST", "@@GLOBAL"):
		c.add(effect.Of(effect.Connect), "sql-server-files", "%s: %s %s changes the server's settings, some of which name files it writes or programs it runs", c.name, f[0], f[1])
	case f[0] == "TRUNCATE":
		c.add(effect.Of(effect.Remove, effect.Bulk), "sql-drop", "%s: TRUNCATE deletes every row", c.name)
	case f[0] == "DELETE" && !where:
		c.add(effect.Of(effect.Remove, effect.Bulk), "sql-delete-all", "%s: DELETE without WHERE deletes every row", c.name)
	case f[0] == "UPDATE" && !where:
		c.add(effect.Of(effect.Change, effect.Bulk), "sql-update-all", "%s: UPDATE without WHERE changes every row", c.name)
	}
	if what := sqlAccount(sqlTokens(st)); what != "" {
		c.add(effect.Of(effect.Account), "sql-account", "%s: %s", c.name, what)
	}
	c.sqlFiles(st)
}

// sqlAlwaysTrue is a WHERE that holds for every row (WHERE 1=1, WHERE
// TRUE, … OR 1=1): a DELETE or UPDATE with it reaches every row.
// sqlDropColumn is ALTER TABLE's DROP [COLUMN] of a column.
var (
	sqlAlwaysTrue = regexp.MustCompile(`\bWHERE\s+(?:TRUE|1|1\s*=\s*1|0\s*=\s*0|NOT\s+FALSE|'([^']*)'\s*=\s*'([^']*)')\s*(?:;|$|LIMIT\b|ORDER\b|RETURNING\b)|\bOR\s+(?:TRUE|1\s*=\s*1|0\s*=\s*0)\b`)
	sqlDropColumn = regexp.MustCompile(`\bDROP\s+(?:COLUMN\s+)?(?:IF\s+EXISTS\s+)?[A-Z_"` + "`" + `]`)
)

// sqlLead drops a statement's leading blanks and comments (-- to the end
// of the line, /* … */). Comments elsewhere stay: a word in one only ever
// makes a statement weigh more.
func sqlLead(st string) string {
	for {
		st = strings.TrimSpace(st)
		switch {
		case strings.HasPrefix(st, "--"):
			_, st, _ = strings.Cut(st, "\n")
		case strings.HasPrefix(st, "/*"):
			if _, rest, ok := strings.Cut(st[2:], "*/"); ok {
				st = rest
				continue
			}
			return ""
		default:
			return st
		}
	}
}

// sqlTokens are a statement's words, upper-cased: letters, digits, _, $
// and . (mysql.user is one word). Quoted text is read too, so the SQL a
// statement builds in a string (EXECUTE 'CREATE ROLE …') is seen.
func sqlTokens(st string) []string {
	return strings.FieldsFunc(strings.ToUpper(st), func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '$' || r == '.')
	})
}

// sqlAccount names what a statement does to accounts, "" for nothing:
// CREATE, ALTER, DROP or RENAME of a USER or ROLE, GRANT, REVOKE, SET
// PASSWORD (PostgreSQL's and MySQL's manuals), and writes to the tables
// that hold the accounts (mysql.user, pg_authid).
func sqlAccount(toks []string) string {
	for i, t := range toks {
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		switch {
		case t == "GRANT" || t == "REVOKE":
			return t + " gives or takes rights of accounts on the server"
		case inList(t, "CREATE", "ALTER", "DROP", "RENAME") && inList(next, "USER", "ROLE", "LOGIN"):
			return t + " " + next + " makes, changes or removes an account of the server"
		case t == "SET" && next == "PASSWORD":
			return "SET PASSWORD changes an account's password"
		case inList(t, "INSERT", "UPDATE", "DELETE", "REPLACE") && sqlAccountTable(toks[i+1:]):
			return t + " writes the table of the server's accounts"
		}
	}
	return ""
}

// sqlAccountTable reports the tables of accounts and rights among the
// first words of a statement's rest.
func sqlAccountTable(toks []string) bool {
	for _, t := range toks[:min(len(toks), 4)] {
		if inList(t, "MYSQL.USER", "MYSQL.DB", "MYSQL.GLOBAL_PRIV", "MYSQL.TABLES_PRIV", "PG_AUTHID", "PG_CATALOG.PG_AUTHID", "PG_AUTH_MEMBERS") {
			return true
		}
	}
	return false
}

// The files SQL names (the manuals of MySQL, PostgreSQL and SQLite): a
// file of this Mac the client sends (LOAD DATA LOCAL INFILE); files,
// commands and native code of the server's machine (COPY … PROGRAM, COPY
// to or from a file, INTO OUTFILE, LOAD_FILE, pg_read_file, a function
// from a SONAME, CREATE EXTENSION, LOAD); and sqlite3's, which run here
// (readfile, writefile, ATTACH, VACUUM INTO).
var (
	sqlLocalInfile = regexp.MustCompile(`(?is)\bload\s+(?:data|xml)\s+(?:low_priority\s+|concurrent\s+)?local\s+infile\s+('[^']*'|"[^"]*")`)
	sqlServerFiles = regexp.MustCompile(`(?is)\bcopy\b.*\b(?:from|to)\s+(?:program\b|')|\binto\s+(?:outfile|dumpfile)\b|\b(?:load_file|pg_read_file|pg_read_binary_file|pg_ls_dir|lo_import|lo_export)\s*\(|\bload\s+(?:data|xml)\s+(?:low_priority\s+|concurrent\s+)?infile\b|\bsoname\b|\bcreate\s+(?:or\s+replace\s+)?extension\b|^\s*load\s+'`)
	sqlProgram     = regexp.MustCompile(`(?is)\bcopy\b.*?\b(?:from|to)\s+program\s+('(?:[^']|'')*'|\$\$.*?\$\$)`)
	sqliteReads    = regexp.MustCompile(`(?is)\breadfile\s*\(\s*('[^']*'|"[^"]*")`)
	sqliteWrites   = regexp.MustCompile(`(?is)\b(?:writefile\s*\(|attach\s+(?:database\s+)?|vacuum\s+(?:\w+\s+)?into\s+)('[^']*'|"[^"]*")`)
	// sqlite3's edit(text, editor) writes text to a file and runs the
	// editor (its second argument, else $VISUAL) on it through the shell:
	// a command of the caller's (a sixth red team's find,
	// TestRed4SqliteEditRunsACommand in package gate).
	sqliteEdit = regexp.MustCompile(`(?is)\bedit\s*\(`)
	sqlStrings = regexp.MustCompile(`'(?:[^']|'')*'`) // a string literal, whose text is no call
)

// sqlFiles rates the files and commands a statement names.
func (c *call) sqlFiles(st string) {
	for _, m := range sqlLocalInfile.FindAllStringSubmatch(st, 4) {
		c.sqlSends(sqlUnquote(m[1]), "LOAD DATA LOCAL INFILE")
	}
	if sqlServerFiles.MatchString(st) && c.name != "sqlite3" {
		c.add(effect.Of(effect.Connect), "sql-server-files", "%s: the server reads or writes files, or runs code, on its own machine (which may be this Mac)", c.name)
	}
	if c.name == "psql" && !c.sqlRemote() {
		// The server of this Mac runs COPY's program here.
		for _, m := range sqlProgram.FindAllStringSubmatch(st, 4) {
			cmd := strings.Trim(m[1], "$")
			if strings.HasPrefix(cmd, "'") {
				cmd = strings.ReplaceAll(strings.Trim(cmd, "'"), "''", "'")
			}
			c.handOff([]word{{s: cmd, span: c.span}}, c.name+" COPY … PROGRAM", "the database server of this Mac")
		}
	}
	if c.name != "sqlite3" {
		return
	}
	if sqliteEdit.MatchString(sqlStrings.ReplaceAllString(st, "''")) {
		c.add(effect.Of(effect.RunUnseen), "hidden-code", "%s: edit() runs an editor command (its second argument, or $VISUAL) through the shell, which is not analysed", c.name)
	}
	for _, m := range sqliteReads.FindAllStringSubmatch(st, 4) {
		c.a.read(word{s: sqlUnquote(m[1]), span: c.span}, c.span)
	}
	for _, m := range sqliteWrites.FindAllStringSubmatch(st, 4) {
		c.a.write(word{s: sqlUnquote(m[1]), span: c.span}, c.span, c.name+" writes")
	}
}

// sqliteDotArgs splits a dot command's line into its arguments as sqlite3's
// shell does: separated by white space, an argument in '…' or "…" runs to
// its closing quote and may hold spaces ('.import "|rm -rf ~" t' is one
// pipe command, not the file "|rm), and the quotes are taken off. An
// unclosed quote runs to the end of the line.
func sqliteDotArgs(t string) []string {
	var out []string
	for i := 0; i < len(t); {
		switch t[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
			i++
			continue
		}
		q := t[i]
		if q != '\'' && q != '"' {
			j := i
			for j < len(t) && !strings.ContainsRune(" \t\r\n\f\v", rune(t[j])) {
				j++
			}
			out = append(out, t[i:j])
			i = j
			continue
		}
		j := i + 1
		for j < len(t) && t[j] != q {
			if q == '"' && t[j] == '\\' && j+1 < len(t) {
				j++
			}
			j++
		}
		out = append(out, t[i+1:min(j, len(t))])
		i = j + 1
	}
	return out
}
