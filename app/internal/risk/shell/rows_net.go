package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// synthInput rates a tool that types or clicks on the person's behalf: what
// it does lands in whatever app is in front, and the gate checks the context
// lock (and that no approval is on screen) before it runs.
func synthInput(c *call) {
	c.add(effect.Of(effect.Input, effect.Computed), "synth-input", "%s: types or clicks on your behalf, in whatever app is in front", rate.Display(c.name))
}

// moreCommands registers the handlers of commands that run other commands,
// write files, or reach the network in ways their names do not show.
func killCommand(c *call) {
	c.guardSignals()
	forced := false
	signal := func(s string) {
		u := strings.TrimPrefix(strings.ToUpper(s), "SIG")
		if u == "9" || u == "KILL" {
			forced = true
		}
	}
	args := c.args
	var targets []word
	if c.name == "kill" {
		sig, ts, list := killArgs(args)
		if list {
			return
		}
		signal(sig)
		if len(ts) > 0 {
			targets = ts
		}
	} else {
		for i, w := range args {
			s := w.s
			switch {
			case s == "-u" || s == "-U" || s == "--uid" || s == "--euid" || strings.HasPrefix(s, "--uid=") || strings.HasPrefix(s, "--euid="):
				c.add(effect.Of(effect.Signal, effect.Session), "kill-user", "%s %s: kills every process of a user", c.name, s)
			case s == "-s" || s == "--signal":
				if i+1 < len(args) {
					signal(args[i+1].s)
				}
			case strings.HasPrefix(s, "--signal="):
				signal(s[len("--signal="):])
			case strings.HasPrefix(s, "-") && len(s) > 1 && !strings.HasPrefix(s, "--"):
				signal(s[1:])
			}
		}
		targets = c.operands()
	}
	for _, w := range targets {
		switch strings.ToLower(w.s) {
		case "windowserver", "loginwindow", "launchd", "kernel_task", "1", "-1":
			c.add(effect.Of(effect.Signal, effect.Session), "kill-system", "%s %s: kills a process the session depends on (or every process)", c.name, w.s)
		}
	}
	if forced {
		c.add(effect.Of(effect.Signal, effect.Forced), "kill-forced", "%s -9: force-kills processes; unsaved work is lost", c.name)
		return
	}
	c.add(effect.Of(effect.Signal), "kill", "%s: stops processes", c.name)
}

// shortOpts walks a command's arguments the way getopt does: clusters of
// short letters (-sLo file, -sLofile), long options (--name=value, --name
// value), operands. valued lists the short letters that take a value;
// longValued says whether a long option without = takes the next word.
// visit sees each option with its value (or each operand, opt "").
func shortOpts(args []word, valued string, longValued func(string) bool, visit func(opt string, val word, has bool)) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		switch {
		case w.hole || !strings.HasPrefix(s, "-") || s == "-":
			visit("", w, true)
		case s == "--":
			for _, o := range args[i+1:] {
				visit("", o, true)
			}
			return
		case strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s, "=")
			if has {
				visit(name, word{s: val, hole: w.hole, span: w.span}, true)
			} else if longValued != nil && longValued(name) && i+1 < len(args) {
				visit(name, args[i+1], true)
				i++
			} else {
				visit(name, word{}, false)
			}
		default:
			letters := s[1:]
			for j := 0; j < len(letters); j++ {
				opt := "-" + letters[j:j+1]
				if strings.IndexByte(valued, letters[j]) < 0 {
					visit(opt, word{}, false)
					continue
				}
				if rest := letters[j+1:]; rest != "" {
					visit(opt, word{s: rest, span: w.span}, true)
				} else if i+1 < len(args) {
					visit(opt, args[i+1], true)
					i++
				} else {
					visit(opt, word{}, false)
				}
				break
			}
		}
	}
}

func inList(s string, list ...string) bool {
	for _, l := range list {
		if s == l {
			return true
		}
	}
	return false
}

// curlValued are curl's short options that take a value.
const curlValued = "oDdFTHXueAbcKxrCwmEUyYztQPh"

func curlLongValued(n string) bool {
	switch n = curlModel.canonical(n); n {
	case "--output", "--output-dir", "--upload-file", "--form", "--form-string", "--json", "--header", "--request",
		"--user", "--referer", "--user-agent", "--cookie", "--cookie-jar", "--config", "--proxy", "--range",
		"--continue-at", "--write-out", "--max-time", "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time",
		"--cert", "--key", "--cacert", "--capath", "--resolve", "--connect-to", "--url", "--dump-header", "--trace",
		"--trace-ascii", "--stderr", "--limit-rate", "--max-filesize", "--proto", "--proto-redir", "--interface",
		"--local-port", "--dns-servers", "--oauth2-bearer", "--aws-sigv4", "--variable", "--netrc-file", "--unix-socket",
		"--hsts", "--alt-svc", "--etag-save", "--etag-compare", "--url-query", "--mail-from", "--mail-rcpt", "--proxy-user",
		"--noproxy", "--max-redirs", "--time-cond", "--speed-limit", "--speed-time", "--quote", "--telnet-option",
		"--ftp-port", "--preproxy", "--socks5", "--socks5-hostname", "--socks4", "--socks4a", "--expect100-timeout",
		"--parallel-max", "--rate", "--create-file-mode", "--keepalive-time", "--ciphers", "--tls-max", "--pinnedpubkey", "--libcurl", "--engine":
		return true
	}
	return strings.HasPrefix(n, "--data")
}

// curlModel is curl's option model (curl(1)): the options that only say
// how to fetch, send or show, with the value-taking ones; curlCommand
// rates what they send, read and write. Options whose effect curlCommand
// does not see are listed with it: a socket of this Mac's services, FTP
// commands, mail. --expand-X is X with {{variables}} expanded (curl 8.3).
var curlModel = &opts{
	alias:  "--expand-",
	short:  "#0123456aBfGgIijJkLlMNnOpqRsSvVZ",
	valued: curlValued,
	long: `--append --use-ascii --fail --fail-with-body --fail-early --get --globoff --head --include
		--junk-session-cookies --remote-header-name --insecure --location --location-trusted --list-only --manual
		--no-buffer --netrc --netrc-optional --remote-name --remote-name-all --proxytunnel --disable --remote-time
		--silent --show-error --verbose --version --help --help= --parallel --parallel-immediate --http1.0 --http1.1
		--http2 --http2-prior-knowledge --http3 --http3-only --tlsv1 --tlsv1.0 --tlsv1.1 --tlsv1.2 --tlsv1.3 --ipv4
		--ipv6 --progress-bar --no-progress-meter --compressed --create-dirs --raw --tcp-nodelay --tcp-fastopen
		--no-keepalive --no-sessionid --no-alpn --path-as-is --post301 --post302 --post303 --ssl --ssl-reqd
		--ssl-no-revoke --ssl-revoke-best-effort --anyauth --basic --digest --ntlm --negotiate --retry-all-errors
		--retry-connrefused --skip-existing --remove-on-error --no-clobber --clobber --xattr --trace-time --trace-ids
		--proxy-insecure --proxy-anyauth --proxy-basic --proxy-digest --proxy-ntlm --proxy-negotiate --ca-native
		--proxy-ca-native --ignore-content-length --suppress-connect-headers --disallow-username-in-url --styled-output
		--no-styled-output --no-show-error --no-fail --no-location --no-silent --no-verbose --no-include
		--no-remote-name --no-insecure --no-compressed --no-parallel --no-progress-bar --no-buffer --no-netrc
		--output= --output-dir= --upload-file= --form= --form-string= --json= --header= --request= --user= --referer=
		--user-agent= --cookie= --cookie-jar= --config= --proxy= --range= --continue-at= --write-out= --max-time=
		--connect-timeout= --retry= --retry-delay= --retry-max-time= --cert= --key= --cert-type= --key-type= --pass=
		--cacert= --capath= --crlfile= --resolve= --connect-to= --url= --dump-header= --trace= --trace-ascii=
		--stderr= --limit-rate= --max-filesize= --proto= --proto-redir= --proto-default= --interface= --local-port=
		--dns-servers= --oauth2-bearer= --aws-sigv4= --variable= --netrc-file= --etag-save= --etag-compare=
		--url-query= --proxy-user= --noproxy= --max-redirs= --time-cond= --speed-limit= --speed-time=
		--preproxy= --socks5= --socks5-hostname= --socks4= --socks4a= --expect100-timeout= --parallel-max= --rate=
		--create-file-mode= --keepalive-time= --ciphers= --tls13-ciphers= --curves= --tls-max= --pinnedpubkey=
		--proxy-header= --request-target= --doh-url= --happy-eyeballs-timeout-ms= --data= --data-ascii=
		--data-binary= --data-raw= --data-urlencode= --location-trusted --sasl-authzid= --login-options= --libcurl=
		--hsts= --alt-svc=`,
	effects: map[string]optEffect{
		"--unix-socket":          optFx(effect.Connect, "talks to a local service's socket (Docker's runs containers), not the network"),
		"--abstract-unix-socket": optFx(effect.Connect, "talks to a local service's socket, not the network"),
		"-Q":                     optFx(effect.Connect, "sends FTP or SFTP commands the server runs (delete, rename)"),
		"--quote":                optFx(effect.Connect, "sends FTP or SFTP commands the server runs (delete, rename)"),
		"--engine":               optFx(effect.LoadCode, "loads an OpenSSL engine, native code that is not analysed"),
		"--mail-rcpt":            optFx(effect.Send, "sends mail to the recipient it names"),
		"--mail-from":            optFx(effect.Send, "sends mail as the sender it names"),
	},
}

// curlUse is what curl's options say it does: send data, save files (and
// where), and the URLs it is given.
type curlUse struct {
	upload, remoteName bool
	outDir             word
	outputs, urls      []word
}

func curlCommand(c *call) {
	var u curlUse
	shortOpts(c.args, curlValued, curlLongValued, func(opt string, v word, has bool) { u.option(c, opt, v, has) })
	u.saves(c)
	if u.upload {
		c.add(effect.Of(effect.Upload), "upload", "%s: sends data to a server", c.name)
		return
	}
	c.add(effect.Of(effect.Fetch), "download", "%s: fetches from the network", c.name)
}

// option notes one of curl's options (opt "" for a URL), with its value v
// when has: what it sends or reads, and where it writes. The value of an
// --expand- option holds {{variables}} curl fills in: computed at run
// time.
func (u *curlUse) option(c *call, opt string, v word, has bool) {
	if o := curlModel.canonical(opt); o != opt {
		opt = o
		v.hole = v.hole || strings.Contains(v.s, "{{")
	}
	if opt == "" || opt == "--url" {
		u.urls = append(u.urls, v)
		return
	}
	if c.curlReadsFile(opt, v) {
		return
	}
	switch {
	case !has:
		u.remoteName = u.remoteName || curlRemoteName[opt]
	case opt == "-T" || opt == "--upload-file":
		u.upload = true
		if v.s != "-" && v.s != "." {
			c.a.read(v, c.span)
		}
	case curlSends[opt] || strings.HasPrefix(opt, "--data"):
		u.upload = true
		data := v.s
		if j := strings.IndexAny(data, "@<"); j >= 0 {
			c.a.read(word{s: data[j+1:], hole: v.hole, guess: v.guess}, c.span)
		}
	case opt == "-X" || opt == "--request":
		if !strings.EqualFold(v.s, "GET") && !strings.EqualFold(v.s, "HEAD") {
			u.upload = true
		}
	case opt == "-K" || opt == "--config":
		c.add(effect.Of(effect.Unknown), "curl-config", "%s -K: takes options from a file that is not analysed", c.name)
		c.a.read(v, c.span)
	case opt == "-o" || opt == "--output":
		u.outputs = append(u.outputs, v)
	case opt == "--output-dir":
		u.outDir = v
	case curlWrites[opt]:
		if v.s != "-" && !isDevice(v.s) {
			c.a.write(v, c.span, c.name+" writes")
		}
	}
}

// curlReadsFile rates the options of curl that read a file named in their
// value and send or print it: --variable name@file, -H @file, -w, and
// --url-query's @file; it reports whether opt was one of them.
func (c *call) curlReadsFile(opt string, v word) bool {
	switch {
	case opt == "--variable":
		c.curlVariable(v)
	case (opt == "-H" || opt == "--header" || opt == "--proxy-header") && strings.HasPrefix(v.s, "@"):
		c.a.read(word{s: v.s[1:], hole: v.hole, guess: v.guess}, c.span) // headers read from a file, and sent
	case opt == "-w" || opt == "--write-out":
		c.curlWriteOut(v)
	case opt == "--url-query":
		if j := strings.IndexByte(v.s, '@'); j >= 0 {
			c.a.read(word{s: v.s[j+1:], hole: v.hole, guess: v.guess}, c.span)
		}
	default:
		return false
	}
	return true
}

// curlVariable rates curl's --variable (curl 8.3): name@file reads the
// file into a variable, %NAME reads the environment variable NAME;
// --expand- options send or write what the variables hold.
func (c *call) curlVariable(v word) {
	s := v.s
	if env, ok := strings.CutPrefix(s, "%"); ok {
		name, _, _ := strings.Cut(env, "=")
		if secretName(name) {
			c.a.add(effect.Of(effect.ReadNamedSecret).On(name), "secret.variable", c.span, "%s --variable %%%s: reads $%s, which by its name holds a secret", c.name, rate.Display(name), rate.Display(name))
			c.a.secretAt(c.span)
		}
		return
	}
	if j := strings.IndexAny(s, "=@"); j >= 0 && s[j] == '@' && s[j+1:] != "-" {
		c.a.read(word{s: s[j+1:], hole: v.hole, guess: v.guess, span: v.span}, c.span)
	}
}

// curlWriteOut rates curl's -w: @file reads the format from a file (and
// prints it), %output{file} writes what follows into the file it names
// (curl 8.3).
func (c *call) curlWriteOut(v word) {
	if f, ok := strings.CutPrefix(v.s, "@"); ok && f != "-" {
		c.a.read(word{s: f, hole: v.hole, guess: v.guess, span: v.span}, c.span)
		c.add(effect.Of(effect.Unknown), "curl-config", "%s -w @%s: prints by a format from a file that is not analysed, which may write files (%%output{})", c.name, rate.Display(f))
		return
	}
	for rest := v.s; ; {
		i := strings.Index(rest, "%output{")
		if i < 0 {
			return
		}
		rest = rest[i+len("%output{"):]
		name, after, ok := strings.Cut(rest, "}")
		if !ok {
			return
		}
		name = strings.TrimPrefix(name, ">>")
		c.a.write(word{s: name, hole: v.hole, guess: v.guess, span: v.span}, c.span, c.name+" -w %output writes")
		rest = after
	}
}

// curl's options by what they do: name the saved file after the URL or
// the server's header, send their value, write a file their value names.
var (
	curlRemoteName = set("-O --remote-name --remote-name-all -J --remote-header-name")
	curlSends      = set("-d -F --form --form-string --json")
	curlWrites     = set("-D --dump-header -c --cookie-jar --trace --trace-ascii --stderr --etag-save --libcurl --hsts --alt-svc")
)

// inDir is the file name saved in --output-dir, when one is given.
func (u *curlUse) inDir(name word) word {
	if u.outDir.s == "" || name.hole || strings.HasPrefix(name.s, "/") || strings.HasPrefix(name.s, "~") {
		return name
	}
	return word{s: strings.TrimSuffix(u.outDir.s, "/") + "/" + name.s, hole: u.outDir.hole, guess: u.outDir.guess, span: name.span}
}

// saves rates the files curl downloads into (-o, -O), and remembers them
// as downloaded: running one later runs what came from the network.
func (u *curlUse) saves(c *call) {
	for _, o := range u.outputs {
		if o.s == "-" || isDevice(o.s) {
			continue
		}
		o = u.inDir(o)
		c.a.write(o, c.span, "downloads into")
		if !o.hole {
			c.a.setFile(o.s, fileDownloaded)
		}
	}
	if !u.remoteName {
		return
	}
	for _, url := range u.urls {
		name := urlBase(url)
		if u.outDir.s == "" && c.a.cwd == "" {
			if name.s != "" && !name.hole {
				c.a.setFile(name.s, fileDownloaded)
			}
			continue
		}
		f := u.inDir(name)
		c.a.write(f, c.span, "downloads into")
		if !f.hole {
			c.a.setFile(f.s, fileDownloaded)
		}
	}
}

// urlBase is the file name a download of u is saved under (curl -O, wget).
func urlBase(u word) word {
	s := u.s
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	_, p, ok := strings.Cut(s, "/")
	name := path.Base("/" + p)
	if !ok || name == "/" || name == "." {
		name = "index.html"
	}
	return word{s: name, hole: u.hole && strings.Contains(name, rate.HoleMark), span: u.span}
}

// wgetModel is wget's option model (wget(1)): the options that only say
// how to fetch, with the value-taking ones; wgetCommand rates what they
// send, read and write. -nv, -nc, -nd, -np and -nH are -n and a letter.
var wgetModel = &opts{
	short:  "VhbdqvnFNScrkKmpHLEx46",
	valued: "OoaPieUtTwQlARDXIB",
	long: `--version --help --background --debug --quiet --verbose --no-verbose --force-html --timestamping
		--no-clobber --continue --server-response --spider --no-proxy --no-dns-cache --no-check-certificate
		--https-only --inet4-only --inet6-only --recursive --convert-links --backup-converted --mirror
		--page-requisites --span-hosts --relative --no-parent --no-directories --no-host-directories
		--force-directories --protocol-directories --adjust-extension --content-disposition --content-on-error
		--trust-server-names --ignore-case --no-cookies --keep-session-cookies --show-progress
		--no-if-modified-since --auth-no-challenge --retry-connrefused --random-wait --no-glob --passive-ftp
		--no-passive-ftp --no-config --ask-password --save-headers --xattr --unlink --delete-after --ignore-length
		--no-http-keep-alive --no-cache --no-iri --iri --enable-content-on-error --no-hsts --no-netrc
		--level= --progress= --retry-on-http-error= --waitretry= --limit-rate= --dns-timeout= --connect-timeout=
		--read-timeout= --quota= --bind-address= --restrict-file-names= --local-encoding= --remote-encoding=
		--max-redirect= --http-user= --http-password= --proxy-user= --proxy-password= --ca-certificate=
		--ca-directory= --certificate= --private-key= --certificate-type= --private-key-type= --secure-protocol=
		--compression= --accept= --reject= --domains= --exclude-domains= --include-directories=
		--exclude-directories= --cut-dirs= --default-page= --ftp-user= --ftp-password= --tries= --timeout= --wait=
		--referer= --user-agent= --header= --user= --password= --method= --body-data= --body-file= --post-data=
		--post-file= --output-document= --directory-prefix= --input-file= --output-file= --append-output=
		--load-cookies= --save-cookies= --execute= --config= --accept-regex= --reject-regex= --regex-type=
		--prefer-family= --report-speed= --backups= --base=`,
	effects: map[string]optEffect{
		"--use-askpass": optFx(effect.RunUnseen, "runs the program it names to ask for a password, which is not analysed"),
		"--warc-file":   optFx(effect.Overwrite, "writes a WARC archive of everything fetched to the file it names"),
	},
}

// wgetUse is what wget's options say it does: send data, save files (and
// where), and the URLs it is given.
type wgetUse struct {
	dir       word
	out, urls []word
	upload    bool
}

// wgetValued are wget's long options that take a value in the next word.
var wgetValued = set(`--output-document --directory-prefix --post-data --post-file --body-data --body-file --method
	--input-file --output-file --append-output --header --user-agent --user --password --load-cookies --save-cookies
	--execute --tries --timeout --wait --referer --config`)

func wgetCommand(c *call) {
	var u wgetUse
	shortOpts(c.args, "OoaPieUtTwQlARDXIB", func(n string) bool { return wgetValued[n] }, func(opt string, v word, has bool) { u.option(c, opt, v, has) })
	if u.upload {
		c.add(effect.Of(effect.Upload), "upload", "wget: sends data to a server")
	}
	u.saves(c)
	c.add(effect.Of(effect.Fetch), "download", "wget: fetches from the network")
}

// option notes one of wget's options (opt "" for a URL), with its value v
// when has.
func (u *wgetUse) option(c *call, opt string, v word, has bool) {
	switch {
	case opt == "":
		u.urls = append(u.urls, v)
	case opt == "-O" || opt == "--output-document":
		u.out = append(u.out, v)
	case opt == "-P" || opt == "--directory-prefix":
		u.dir = v
	case opt == "-o" || opt == "-a" || opt == "--output-file" || opt == "--append-output" || opt == "--save-cookies":
		if has {
			c.a.write(v, c.span, "wget writes")
		}
	case strings.HasPrefix(opt, "--post-") || strings.HasPrefix(opt, "--body-"):
		u.upload = true
		if strings.HasSuffix(opt, "-file") {
			c.a.read(v, c.span)
		}
	case opt == "--method":
		if !strings.EqualFold(v.s, "GET") && !strings.EqualFold(v.s, "HEAD") {
			u.upload = true
		}
	case opt == "-i" || opt == "--input-file" || opt == "--load-cookies":
		c.a.read(v, c.span)
	case (opt == "-e" || opt == "--execute") && !v.hole:
		u.wgetrc(c, v)
	case opt == "-e" || opt == "--execute" || opt == "--config":
		c.add(effect.Of(effect.Unknown).On(opt), "wget-command", "wget %s %s: runs wgetrc commands (what to send, where to write) that are not modelled", opt, rate.Display(v.s))
	}
}

// wgetrc rates one wgetrc command given with -e (wget(1), "Wgetrc
// Commands"): a command that sets what an option sets is that option
// (post_file is --post-file); one that only says how to fetch changes
// nothing more; any other is not modelled. wget reads a command's name
// without regard to case, dashes or underscores.
func (u *wgetUse) wgetrc(c *call, v word) {
	name, val, _ := strings.Cut(v.s, "=")
	key := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(strings.TrimSpace(name)))
	val = strings.TrimSpace(val)
	if opt, ok := wgetrcOptions[key]; ok {
		if e, ok := wgetModel.effects[opt]; ok {
			c.add(e.fx, "option", "wget -e %s: %s", rate.Display(name), e.why)
			return
		}
		u.option(c, opt, word{s: val, hole: v.hole, guess: v.guess, span: v.span}, true)
		return
	}
	if !wgetrcHarmless[key] {
		c.add(effect.Of(effect.Unknown).On("-e"), "wget-command", "wget -e %s: a wgetrc command Airlock does not model", rate.Display(v.s))
	}
}

// wgetrcOptions are the wgetrc commands that set what an option of
// wgetUse.option sets: what to send, read and write; wgetrcHarmless those
// that only say how to fetch and what to print.
var (
	wgetrcOptions = map[string]string{
		"postfile": "--post-file", "bodyfile": "--body-file", "postdata": "--post-data", "bodydata": "--body-data",
		"method": "--method", "outputdocument": "-O", "dirprefix": "-P", "logfile": "-o", "appendoutput": "-a",
		"savecookies": "--save-cookies", "loadcookies": "--load-cookies", "input": "-i", "useaskpass": "--use-askpass",
		"warcfile": "--warc-file",
	}
	wgetrcHarmless = set(`robots useproxy httpproxy httpsproxy ftpproxy noproxy wait waitretry randomwait tries timeout
		readtimeout connecttimeout dnstimeout useragent header continue timestamping checkcertificate verbose quiet
		recursive reclevel noparent convertlinks pagerequisites spanhosts domains excludedomains accept reject
		limitrate retryconnrefused httpsonly inet4only inet6only contentdisposition trustservernames
		adjustextension dirstruct cutdirs addhostdir showprogress progress maxredirect secureprotocol compression
		iri localencoding remoteencoding restrictfilenames serverresponse cookies keepsessioncookies
		includedirectories excludedirectories followftp relativeonly mirror backupconverted ignorecase
		retryonhttperror dnscache cache httpkeepalive passiveftp glob spider`)
)

// saves rates the files wget downloads into (-O, or the URL's name in -P
// or the current folder), and remembers them as downloaded.
func (u *wgetUse) saves(c *call) {
	for _, o := range u.out {
		if o.s == "-" || isDevice(o.s) {
			continue
		}
		c.a.write(o, c.span, "downloads into")
		if !o.hole {
			c.a.setFile(o.s, fileDownloaded)
		}
	}
	if len(u.out) > 0 {
		return
	}
	for _, url := range u.urls {
		f := urlBase(url)
		if u.dir.s != "" {
			f = word{s: strings.TrimSuffix(u.dir.s, "/") + "/" + f.s, hole: u.dir.hole || f.hole, guess: u.dir.guess, span: url.span}
		}
		if u.dir.s != "" || c.a.cwd != "" {
			c.a.write(f, c.span, "downloads into")
		}
		if !f.hole {
			c.a.setFile(f.s, fileDownloaded)
		}
	}
}

// scpModel is scp's option model (scp(1)); -o is sshOptions'.
var scpModel = &opts{
	short:  "346ABCOpqRrTv",
	valued: "cijlPoX",
	effects: map[string]optEffect{
		"-S": optFx(effect.RunUnseen, "runs the program it names for the connection, which is not analysed"),
		"-D": optFx(effect.RunUnseen, "runs the SFTP server program it names, which is not analysed"),
		"-F": optFx(effect.RunUnseen, "reads an SSH configuration file that is not analysed, whose commands (ProxyCommand) run here"),
		"-J": optFx(effect.Connect, "connects through the jump host it names"),
	},
}

// rsyncModel is rsync's option model (rsync(1)): copying, listing and
// choosing files; copyRemote rates -e, --delete and --remove-source-files,
// and the files --log-file and the batch options write, by where they are.
var rsyncModel = &opts{
	short:  "vqcarRbudlLkKHpEAXogDtUNOJSnWxyzCFhPi0m468sI",
	valued: "eBfTM",
	long: `--verbose --quiet --no-motd --checksum --archive --recursive --relative --no-implied-dirs --backup
		--update --inplace --append --append-verify --dirs --old-dirs --mkpath --links --copy-links
		--copy-unsafe-links --safe-links --munge-links --copy-dirlinks --keep-dirlinks --hard-links --perms
		--executability --acls --xattrs --owner --group --devices --specials --times --atimes --open-noatime
		--crtimes --omit-dir-times --omit-link-times --sparse --preallocate --dry-run --whole-file --one-file-system
		--existing --ignore-existing --remove-source-files --del --delete --delete-before --delete-during
		--delete-delay --delete-after --delete-excluded --ignore-missing-args --delete-missing-args --ignore-errors
		--force --partial --delay-updates --prune-empty-dirs --numeric-ids --ignore-times --size-only --fuzzy
		--compress --cvs-exclude --from0 --old-args --secluded-args --protect-args --trust-sender --blocking-io
		--stats --8-bit-output --human-readable --progress --itemize-changes --list-only --fsync --ipv4 --ipv6
		--version --help --no-perms --no-owner --no-group --no-times --no-recursive --no-inc-recursive --no-i-r
		--no-whole-file --no-compress --no-links --no-devices --no-specials --no-D --no-h --no-v
		--info= --debug= --stderr= --backup-dir= --suffix= --chmod= --checksum-choice= --block-size= --rsh=
		--max-delete= --max-size= --min-size= --max-alloc= --partial-dir= --usermap= --groupmap= --chown=
		--timeout= --contimeout= --modify-window= --temp-dir= --compare-dest= --copy-dest= --link-dest=
		--compress-choice= --compress-level= --skip-compress= --filter= --exclude= --exclude-from= --include=
		--include-from= --files-from= --address= --port= --sockopts= --outbuf= --out-format= --log-file-format=
		--remove-sent-files --early-input= --bwlimit= --stop-after= --stop-at= --read-batch= --protocol= --iconv= --log-file=
		--write-batch= --only-write-batch=`,
	effects: map[string]optEffect{
		"--rsync-path":    optFx(effect.Connect, "runs the program it names on the other machine"),
		"-M":              optFx(effect.Connect, "hands options to the rsync on the other machine"),
		"--remote-option": optFx(effect.Connect, "hands options to the rsync on the other machine"),
		"--daemon":        optFx(effect.Connect, "serves files to other machines"),
		"--password-file": optFx(effect.ReadSecret, "reads the daemon password from the file it names"),
		"--copy-as":       optFx(effect.Admin, "copies as the user it names"),
		"--super":         optFx(effect.Admin, "acts as root on the receiving side"),
		"--fake-super":    optFx(effect.Change, "stores privileged attributes in extended attributes"),
	},
}

// copyRemote rates scp and rsync: a host:path operand sends or fetches
// files over the network; rsync --delete deletes at the destination and
// --remove-source-files deletes what it sent. A dry run (rsync -n,
// --dry-run) changes nothing: it only lists what it would copy or delete,
// so none of its writes or deletes happen (rsync(1)), and so does
// --list-only or a source with no destination; the commands it runs (-e,
// --rsync-path) still run. Files fetched from another machine are written
// at the destination, rated by where it is.
func copyRemote(c *call) {
	c.sshOptions()
	for i, w := range c.args {
		switch s := w.s; {
		case c.name != "rsync" || w.hole:
		case (s == "--rsh" || len(s) > 1 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'e') && i+1 < len(c.args):
			c.optionCommand(c.args[i+1], "rsync -e")
		case strings.HasPrefix(s, "--rsh="):
			c.optionCommand(word{s: s[len("--rsh="):], span: w.span}, "rsync -e")
		}
	}
	ops := c.operands()
	remote := false
	for _, w := range ops {
		remote = remote || remoteOperand(w)
	}
	if c.name == "rsync" {
		c.writesOptions(rsyncModel, "--log-file", "--write-batch", "--only-write-batch")
	}
	if c.name == "rsync" && rsyncListsOnly(rsyncModel.parse(c.args), ops) {
		if remote {
			c.add(effect.Of(effect.Fetch), "rsync-dry-run", "%s --dry-run: lists what it would copy to or from another machine, and changes nothing", c.name)
			c.a.egress("network", c.span, "%s: sends file names to another machine", c.name)
			return
		}
		c.add(effect.Of(effect.Read), "rsync-dry-run", "%s --dry-run: lists what it would copy or delete, and changes nothing", c.name)
		return
	}
	c.rsyncDeletes(ops, remote)
	if remote {
		c.add(effect.Of(effect.Upload), "upload", "%s: copies files to or from another machine", c.name)
		c.a.egress("network", c.span, "%s: sends files to another machine", c.name)
		for _, w := range ops[:max(0, len(ops)-1)] {
			c.a.read(w, c.span)
		}
		if len(ops) > 1 && !remoteOperand(ops[len(ops)-1]) {
			c.writeDest() // fetched here: the destination is written
		}
		return
	}
	c.add(effect.Of(effect.Create), c.name, "%s: copies files", c.name)
	c.writeDest()
}

// rsyncListsOnly reports an rsync that changes nothing: a dry run, a
// listing, or a source with no destination — trusted only when every
// option it is given is modelled (one that is not might undo it).
func rsyncListsOnly(p parsed, ops []word) bool {
	return p.unmodelled == "" && (p.has("-n", "--dry-run", "--list-only") || len(ops) == 1)
}

// remoteOperand reports an operand of scp or rsync that names another
// machine: host:path, user@host:path, rsync://host/path.
func remoteOperand(w word) bool {
	i := strings.Index(w.s, ":")
	return i > 0 && !strings.Contains(w.s[:i], "/")
}

// rsyncDeletes rates rsync's deleting options: --delete and its kin
// delete at the destination what the source lacks; --remove-source-files
// unlinks each file it sent (not to the Trash): sent to another machine,
// the files are gone from this Mac; copied here, they are moved, with no
// way back.
func (c *call) rsyncDeletes(ops []word, remote bool) {
	if hasLong(c.args, "--delete", "--del", "--delete-after", "--delete-before", "--delete-during", "--delete-delay", "--delete-excluded", "--delete-missing-args") {
		dest := word{}
		if len(ops) > 0 {
			dest = ops[len(ops)-1]
		}
		p, _ := c.a.pathOf(dest)
		if remote || strings.HasPrefix(p, "/Volumes/") {
			c.add(effect.Of(effect.Change, effect.Bulk), "rsync-delete", "%s --delete: deletes files at the destination that the source lacks", c.name)
		} else {
			c.add(effect.Of(effect.Remove, effect.Bulk).On(dest.s), "rsync-delete", "%s --delete: deletes every file in %s that the source lacks", c.name, rate.Display(dest.s))
		}
	}
	if !hasLong(c.args, "--remove-source-files", "--remove-sent-files") {
		return
	}
	fromAfar := false
	for _, w := range ops[:max(0, len(ops)-1)] {
		fromAfar = fromAfar || remoteOperand(w)
	}
	switch {
	case fromAfar:
		c.add(effect.Of(effect.Change, effect.Bulk), "rsync-delete", "%s --remove-source-files: deletes on the other machine the files it fetched", c.name)
		return
	case remote:
		c.add(effect.Of(effect.Remove, effect.Bulk), "rsync-delete", "%s --remove-source-files: deletes from this Mac every file it sends to the other machine", c.name)
		return
	}
	c.add(effect.Of(effect.Change, effect.Forced), "rsync-delete", "%s --remove-source-files: deletes the source files once copied: a move, with no way back", c.name)
}

// terminalArgs analyses the command a terminal opened with open -a … --args
// runs: after -e, --command, -x or --, or the arguments themselves.
func (c *call) terminalArgs() {
	for i, w := range c.args {
		if w.s != "--args" {
			continue
		}
		rest := c.args[i+1:]
		marker := func(s string) bool { return inList(s, "-e", "--command", "-x", "--execute", "--", "start", "-c") }
		for j, r := range rest {
			if marker(r.s) {
				rest = rest[j+1:]
				break
			}
		}
		for len(rest) > 0 && marker(rest[0].s) && len(rest) > 1 && !shells[commandName(rest[0].s)] {
			rest = rest[1:]
		}
		if len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") && !rest[0].hole {
			c.add(effect.Of(effect.RunUnseen), "terminal-args", "%s: the terminal's arguments are not analysed", c.name)
			return
		}
		if len(rest) == 1 && (rest[0].hole || strings.ContainsAny(rest[0].s, " ;|&\n")) {
			c.nested(rest, "terminal command")
			return
		}
		if len(rest) > 0 {
			c.a.call(rest, c.span, pipeCtx{})
		}
		return
	}
}

// fromStdin rates an interpreter that reads its program from stdin:
// reading commands from a download or decoded data is Destructive.
func (c *call) fromStdin() { c.fromStdinAs(shells[c.name]) }

// fromStdinAs rates a program that reads its program from stdin; shell
// says the program is shell commands (sh, at, source /dev/stdin).
func (c *call) fromStdinAs(shell bool) {
	switch c.pc.stdin {
	case "download":
		c.add(effect.Of(effect.RunComputed), "curl-pipe-sh", "%s reads commands from a download: runs code from the network unseen", c.name)
	case "decoded":
		c.add(effect.Of(effect.RunComputed), "decoded-exec", "%s runs decoded or transformed data as commands", c.name)
	case "text":
		if c.pc.obf {
			c.add(effect.Of(effect.Shell), "decoded-exec", "%s runs text spelled with hex or octal escapes", c.name)
		}
		if shell {
			c.nested([]word{{s: c.pc.text}}, c.name)
		} else {
			c.add(effect.Of(effect.RunUnseen), "interp-stdin", "%s runs a program that is not analysed", c.name)
			scanCode(c, c.pc.text)
		}
	case "computed":
		c.add(effect.Of(effect.RunComputed), "stdin-computed", "%s runs commands computed at run time", c.name)
	case "file":
		if shell {
			c.add(effect.Of(effect.RunUnseen), "sh-file", "%s < %s: runs a script file that is not analysed", c.name, c.pc.text)
		} else {
			c.add(effect.Of(effect.RunUnseen), "interp-stdin", "%s < %s: runs a program that is not analysed", c.name, c.pc.text)
		}
	case "pipe":
		c.add(effect.Of(effect.RunComputed), "pipe-exec", "%s runs another program's output as commands", c.name)
	}
}

// runShebang rates running a file this input wrote whose first line is a
// #! line naming anything but a plain shell: the system runs that line's
// program with its words, then the file's name and args (#!/usr/bin/env
// -S sh -c "…", #!/usr/bin/env python3), rated as that command. It
// reports false for a file with no such line, left to runFile.
func (a *shellAn) runShebang(c *call, name, content string, args []word) bool {
	line, ok := strings.CutPrefix(content, "#!")
	if !ok || a.inShebang >= 4 {
		return false // #!/tmp/x inside /tmp/x: the file itself is rated
	}
	line, _, _ = strings.Cut(line, "\n")
	line = strings.TrimRight(line, "\r")
	f := strings.Fields(line)
	if len(f) == 0 || len(f) == 1 && shells[commandName(path.Base(f[0]))] {
		return false // #!/bin/sh: the file is shell, runFile reads it
	}
	// The kernel hands the rest of the line as one word after the
	// program; env -S splits it again, as it does on a command line.
	words := []word{{s: f[0], span: c.span}}
	if rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0])); rest != "" {
		words = append(words, word{s: rest, span: c.span})
	}
	words = append(words, word{s: name, span: c.span})
	words = append(words, args...)
	c.add(effect.Of(effect.Run).On(name), "write-exec", "%s: runs a script written earlier in this input with its #! line (%s)", rate.Display(name), rate.Display(line))
	a.inShebang++
	a.call(words, c.span, pipeCtx{})
	a.inShebang--
	return true
}

// runFile rates running a script file this same input wrote or downloaded
// earlier; it reports false for a file the input did not produce.
func (a *shellAn) runFile(c *call, name string) bool {
	content, ok := a.fileContent(name)
	if !ok {
		return false
	}
	if content == fileDownloaded {
		c.add(effect.Of(effect.RunComputed).On(name), "download-exec", "%s %s: runs a file downloaded by this same script", c.name, rate.Display(name))
		return true
	}
	if content == fileComputed {
		c.add(effect.Of(effect.RunComputed).On(name), "write-exec", "%s %s: runs a file this script wrote with computed content", c.name, rate.Display(name))
		return true
	}
	c.add(effect.Of(effect.Run).On(name), "write-exec", "%s %s: runs a script written earlier in this input", c.name, rate.Display(name))
	c.nested([]word{{s: content}}, c.name+" "+name)
	return true
}
