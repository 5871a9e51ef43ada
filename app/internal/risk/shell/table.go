package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// A row of the table: what one program does, as an effect (effect.go),
// and in words.
//
// A row with run set is rated by that function alone (a rule a table
// cannot say). Otherwise the row says it: every use does fx, "name: why",
// except that with subs the first operand picks the effect (an operand not
// in subs does fx), and with writes the last operand is a file it writes,
// rated by where it is. The zero fx, and readOnly, only read: such a row
// adds no reason, and its option model says what it may be given.
type row struct {
	fx     effect.Effect
	why    string
	subs   map[string]effect.Effect
	writes bool
	opts   *opts // the option model; a Safe or Caution row without one takes none
	run    func(*call)
}

// readOnly is the effect of a subcommand that only prints.
var readOnly = effect.Of(effect.Read)

// weight is the level of e, the calibration table's; the zero Effect is a
// row that only reads.
func weight(e effect.Effect) level.Level {
	if e.Kind == 0 {
		return level.Safe
	}
	return e.Level()
}

// rate adds what the row says of c.
func (r row) rate(c *call) {
	m := r.opts
	if m == nil && r.run == nil && (weight(r.fx) <= level.Caution || r.subs != nil) {
		m = noOptions
	}
	m.check(c)
	switch {
	case r.run != nil:
		r.run(c)
	case r.subs != nil:
		c.bySub(r.fx, r.why, r.subs)
	default:
		if weight(r.fx) > level.Safe {
			c.add(r.fx, c.name, "%s: %s", c.name, r.why)
		}
		if r.writes {
			c.writeDest()
		}
	}
}

// bySub rates c by its first operand, lower-cased: subs gives its effect,
// an operand not in subs does def, "name sub: defWhy".
func (c *call) bySub(def effect.Effect, defWhy string, subs map[string]effect.Effect) {
	s := sub(c.args)
	e, ok := subs[s]
	if !ok {
		e = def
	}
	if weight(e) > level.Safe {
		why := defWhy
		if ok {
			why = s
		}
		c.add(e, c.name, "%s %s: %s", c.name, s, why)
	}
}

// Row makers, so a row reads as what it says. safe takes no options.
var (
	safe = row{opts: noOptions}
)

// does is a row whose every use does e: "name: why".
func does(e effect.Effect, why string) row { return row{fx: e, why: why} }

func custom(f func(*call)) row { return row{run: f} }

// registryRow is a package manager's row whose every use runs code Airlock
// cannot see, "name: why", and fetches packages from its registry.
func registryRow(why string) row {
	return custom(func(c *call) {
		c.add(effect.Of(effect.RunUnseen), c.name, "%s: %s", c.name, why)
		c.add(effect.Of(effect.Fetch), c.name, "%s: fetches packages from its registry", c.name)
	})
}

// reads is a read-only row with its option model: short options, short
// options with a value, long options.
func reads(short, valued, long string) row {
	return row{opts: &opts{short: short, valued: valued, long: long}}
}

// doesWith is a row whose every use does e, with its option model.
func doesWith(e effect.Effect, why, short, valued, long string) row {
	return row{fx: e, why: why, opts: &opts{short: short, valued: valued, long: long}}
}

// writesTo is doesWith for a program whose last operand it writes, with
// the options that have an effect of their own.
func writesTo(e effect.Effect, why, short, valued, long string, effects map[string]optEffect) row {
	return row{fx: e, why: why, writes: true, opts: &opts{short: short, valued: valued, long: long, effects: effects}}
}

// rows finds a command's row. The rows name functions that analyse nested
// scripts, which look rows up again; a direct reference from them to
// commands would make its initialiser depend on itself, which Go refuses.
// So lookups go through this interface value, whose dynamic call Go's
// initialisation order does not follow.
var rows rowTable = tableRef{}

type rowTable interface{ row(name string) (row, bool) }

type tableRef struct{}

func (tableRef) row(name string) (row, bool) {
	r, ok := commands[name]
	return r, ok
}

// commands is the table: one row per program, keyed by the lower-case base
// name the analyzer sees once wrappers (sudo, env, xargs …) are peeled off.
// A Go map literal refuses a duplicate key; table_test.go refuses a row no
// command name can reach. Programs named by a prefix (python3.12, perl5.30,
// mkfs.ext4 …) are in prefixCommand. Everything else is unknown: Dangerous.
var commands = map[string]row{
	// Read-only tools: they print what they find. Each names its options
	// (BSD and GNU manuals); "every word is data" where no option does
	// more than choose what is printed.
	"ls": reads("@1ABCFGHILOPRSTUWabcdefghiklmnopqrstuvwxyZ%,", "D", `--all --almost-all --author --escape
		--block-size= --ignore-backups --color --color= --directory --dired --classify --file-type --format=
		--full-time --group-directories-first --no-group --human-readable --si --dereference-command-line
		--dereference-command-line-symlink-to-dir --hide= --hyperlink --hyperlink= --indicator-style= --inode
		--ignore= --kibibytes --dereference --numeric-uid-gid --literal --hide-control-chars --show-control-chars
		--quote-name --quoting-style= --reverse --recursive --size --sort= --time= --time-style= --tabsize= --width=
		--context --zero --help --version`),
	"cat": reads("belnstuvAET", "", `--show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs
		--show-nonprinting --help --version`),
	"echo": {opts: freeWords, run: printsVariables}, "printf": {opts: freeWords, run: printfCommand}, "test": {opts: freeWords, run: subscriptArgs}, "[": {opts: freeWords, run: subscriptArgs},
	"[[": {opts: freeWords}, "true": {opts: freeWords}, "false": {opts: freeWords}, ":": {opts: freeWords},
	"pwd": reads("LP", "", ""), "whoami": {opts: noOptions}, "groups": {opts: noOptions},
	"id":   reads("AFGPaghnpruZz", "", "--group --groups --name --real --user --zero --context --help --version"),
	"date": custom(dateCommand), "hostname": custom(hostnameCommand),
	"cal": reads("13hjyNeCHJpw", "mABdy", ""), "uptime": reads("ps", "", "--pretty --since --help --version"),
	"df": reads("abcgHhiklmnPT", "t", `--all --block-size= --human-readable --si --inodes --local --no-sync --output
		--output= --portability --print-type --sync --total --type= --exclude-type= --help --version`),
	"du": reads("AcHhkLmnPrsxg0ab", "dBIt", `--all --apparent-size --block-size= --bytes --total
		--dereference-args --max-depth= --files0-from= --human-readable --inodes --dereference --count-links
		--no-dereference --separate-dirs --si --summarize --threshold= --time --time= --time-style=
		--exclude-from= --exclude= --one-file-system --null --help --version`),
	"sw_vers": {opts: freeWords}, "system_profiler": {opts: freeWords}, "ioreg": {opts: freeWords},
	"vm_stat": {opts: freeWords}, "iostat": {opts: freeWords}, "top": {opts: freeWords}, "htop": {opts: freeWords},
	"whois": {opts: freeWords}, "nslookup": {opts: freeWords}, "mdfind": {opts: freeWords},
	"lpstat": {opts: freeWords}, "networkquality": {opts: freeWords}, "afinfo": {opts: freeWords},
	"lesspipe.sh": {opts: freeWords}, "lesspipe": {opts: freeWords}, "help": {opts: freeWords},
	"whatis": {opts: freeWords}, "apropos": {opts: freeWords}, "expr": {opts: freeWords}, "sleep": {opts: freeWords},
	"mdls": outputs(row{opts: &opts{free: true, effects: map[string]optEffect{"-plist": optFx(effect.Overwrite, "writes the attributes to a file")}}},
		outSpec{opts: []string{"-plist"}}), // and where: -plist ~/.zshrc is a start-up file
	"uname": reads("amnoprsvKUiI", "", `--all --kernel-name --nodename --kernel-release --kernel-version --machine
		--processor --hardware-platform --operating-system --help --version`),
	"which": reads("as", "", ""), "whereis": reads("bmsuBMSfql", "", ""), "type": {opts: freeWords},
	"file": {opts: &opts{short: "bcdDhiIkLlNnprsvz0S", valued: "eFfmMP", long: `--brief --mime --mime-type
		--mime-encoding --no-dereference --dereference --separator= --files-from= --magic-file= --keep-going --raw
		--special-files --uncompress --uncompress-noreport --no-pad --preserve-date --print0 --apple --extension
		--exclude= --exclude-quiet= --help --version`, effects: map[string]optEffect{"-C": optFx(effect.Overwrite, "writes a compiled magic file")}}},
	"stat": reads("FLlnqrsx", "ftc", "--dereference --file-system --format= --printf= --terse --cached= --help --version"),
	"head": reads("qvz0123456789", "cn", "--bytes= --lines= --quiet --silent --verbose --zero-terminated --help --version"),
	"tail": reads("bfFqrz0123456789", "bcn", `--bytes= --follow --follow= --lines= --pid= --quiet --silent --retry
		--sleep-interval= --verbose --zero-terminated --max-unchanged-stats= --help --version`),
	"wc":   reads("clmwL", "", "--bytes --chars --lines --words --max-line-length --files0-from= --total= --help --version"),
	"grep": reads(grepShort, grepValued, grepLong), "egrep": reads(grepShort, grepValued, grepLong),
	"fgrep": reads(grepShort, grepValued, grepLong), "ag": safe,
	"cut": reads("nswz", "bcdf", `--bytes= --characters= --delimiter= --fields= --complement --only-delimited
		--output-delimiter= --zero-terminated --help --version`),
	"tr": reads("CcdsuA", "", "--complement --delete --squeeze-repeats --truncate-set1 --help --version"),
	"column": reads("txneJLdR", "csoNOWHlr", `--table --separator= --output-separator= --columns= --fillrows
		--table-columns= --json --keep-empty-lines --output-width= --help --version`),
	"paste": reads("sz", "d", "--serial --delimiters= --zero-terminated --help --version"),
	"join":  reads("iz", "12aejotv", "--ignore-case --check-order --nocheck-order --header --zero-terminated --help --version"),
	"comm":  reads("123iz", "", "--check-order --nocheck-order --output-delimiter= --total --zero-terminated --help --version"),
	"fold":  reads("bs", "w", "--bytes --spaces --width= --help --version"),
	"fmt":   reads("cmnsu0123456789", "dlptw", "--crown-margin --prefix= --split-only --tagged-paragraph --uniform-spacing --width= --goal= --help --version"),
	"nl": reads("p", "bdfhilnsvw", `--body-numbering= --section-delimiter= --footer-numbering= --header-numbering=
		--line-increment= --join-blank-lines= --number-format= --no-renumber --number-separator= --starting-line-number=
		--number-width= --help --version`),
	// Decompressors and decoders that only ever print: zcat is gzip -dc,
	// bzcat bzip2 -dc, xzcat xz -dc; base32 and basenc are base64's
	// siblings (GNU coreutils). What they print is rated where it runs
	// (produces: "decoded").
	"zcat":  reads(gzipShort, "S", gzipLong),
	"gzcat": reads(gzipShort, "S", gzipLong),
	"bzcat": reads("cdfkqstvzL123456789", "", "--decompress --compress --keep --force --test --stdout --quiet --verbose --small --fast --best --help --version"),
	"xzcat": reads("zdtlkfcqvhHe0123456789", "FCTM", xzLong), "lzcat": reads("zdtlkfcqvhHe0123456789", "FCTM", xzLong),
	// zipinfo (unzip -Z) lists an archive's members and changes nothing.
	"zipinfo": reads("12smlvhMtTzC", "OI", ""),
	"base32":  reads("di", "w", "--decode --ignore-garbage --wrap= --help --version"),
	"basenc":  reads("di", "w", "--decode --ignore-garbage --wrap= --base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf --z85 --help --version"),
	"rev":     {opts: noOptions}, "tac": reads("br", "s", "--before --regex --separator= --help --version"),
	"expand":   reads("i0123456789,", "t", "--initial --tabs= --help --version"),
	"unexpand": reads("a0123456789,", "t", "--all --first-only --tabs= --help --version"),
	// Text filters of BSD and GNU that only print: col and colrm read
	// stdin alone (colrm's operands are columns), pr paginates files,
	// numfmt reformats numbers.
	"col":   reads("bfhpx", "l", ""),
	"colrm": reads("", "", ""),
	"pr": reads("0123456789acdFfmrt", "eilnNosSwWhDJT", `--columns= --across --show-control-chars --double-space
		--date-format= --expand-tabs= --form-feed --header= --output-tabs= --join-lines --length= --merge
		--number-lines= --first-line-number= --indent= --no-file-warnings --separator= --sep-string= --omit-header
		--omit-pagination --show-nonprinting --width= --page-width= --help --version`),
	"numfmt": reads("dz", "", `--debug --delimiter= --field= --format= --from= --from-unit= --grouping --header
		--invalid= --padding= --round= --suffix= --to= --to-unit= --zero-terminated --help --version`),
	// Developer tools that print what they read: otool and nm describe
	// binaries, tokei counts lines of code.
	"otool": reads("aBcCdfGhHIjlLmMoPrRStTvVxX", "sp", "--version"),
	"nm":    reads("aAgjlmnoPruUxfsS", "t", "--demangle --defined-only --extern-only --format= --numeric-sort --print-file-name --undefined-only --help --version"),
	"tokei": reads("CfhlV", "ceostT", `--compact --files --hidden --no-ignore --no-ignore-parent --no-ignore-dot --no-ignore-vcs
		--columns= --exclude= --output= --sort= --type= --num-format= --languages --help --version`),
	"gh": custom(ghCommand),
	"rustc": {run: rustcCommand, opts: &opts{short: "VvhOg", valued: "oCLlWADFZ", long: `--version --help --verbose --explain= --print=
		--edition= --crate-type= --crate-name= --emit= --out-dir= --target= --cfg= --test --extern= --cap-lints=
		--error-format= --color=`}},
	"hyperfine": custom(hyperfineCommand),
	"sd":        {run: sdCommand, opts: &opts{short: "pFsfn", valued: "fn", long: "--preview --fixed-strings --string-mode --flags= --max-replacements= --help --version"}},
	"cloc": outputs(reads("", "", `--quiet --by-file --by-file-by-lang --exclude-dir= --exclude-lang= --include-lang= --include-ext=
		--exclude-ext= --json --csv --md --yaml --xml --vcs= --hide-rate --no-autogen --skip-uniqueness --fullpath --not-match-f=
		--match-f= --not-match-d= --match-d= --out= --report-file= --help --version`), outSpec{opts: []string{"--out", "--report-file"}}),
	// gofmt prints (-l, -d, or the formatted source); -w writes its
	// files back, in place.
	"gofmt":      runs(reads("delsw", "r", "-cpuprofile="), gofmtCommand),
	"diff":       reads("abBcdeEfhHiIlnNpPqrsStTuvwyZ0123456789", "CDFIlLSUWxX", diffLong),
	"cmp":        reads("bilsvz", "in", "--print-bytes --ignore-initial= --verbose --bytes= --quiet --silent --help --version"),
	"ps":         runs(reads("AaCcdEefhjLlMmrSTvwXxZ", "GgOopstUuN", "--help --version --forest --sort= --format= --pid= --ppid= --user= --no-headers"), psCommand),
	"pgrep":      reads("adfFGgIilLnoPqstUuvx", "dFGgMNPstUu", "--list-name --list-full --full --newest --oldest --exact --help --version"),
	"lsof":       reads("?abChKlnNOPRtUvVXwx", "AcdDgiIkoprsSTuEe", ""),
	"netstat":    reads("AaBbdgilLmnqQrRsStTuvWx46", "fIpwc", ""),
	"ping":       reads("AaDdfLnoQqRrvXY46", "bcCgGhiIkKlmMpPsStTWz", ""),
	"traceroute": reads("adDeFIlMnrSvwxz46", "AfgimMpPqstz", ""),
	"dig":        reads("46hmuvri", "bcfkpqtxy", ""), "host": reads("aACdilrsTtUvVwW46", "cNRtWm", ""),
	"ipconfig": {fx: effect.Of(effect.Setting, effect.Session), why: "changes network settings", opts: noOptions, subs: map[string]effect.Effect{
		"": readOnly, "getifaddr": readOnly, "getpacket": readOnly, "getoption": readOnly, "getv6packet": readOnly,
		"getsummary": readOnly, "ifcount": readOnly, "getiflist": readOnly, "getra": readOnly,
	}},
	"w": reads("hinsf", "MN", ""), "who": reads("abdHlmpqrsTtu", "", ""), "last": reads("hstTy", "fn", ""),
	"printenv": {run: printenvCommand, opts: model("0", "--null --help --version")}, "env": {run: printenvCommand, opts: model("0i", "--null --ignore-environment --help --version")},
	"locale":   reads("acmkv", "", "--all-locales --charmaps --category-name --keyword-name --verbose --help --version"),
	"basename": reads("az", "s", "--multiple --suffix= --zero --help --version"),
	"dirname":  reads("z", "", "--zero --help --version"),
	"realpath": reads("qsLPemz", "", `--relative-to= --relative-base= --canonicalize-existing --canonicalize-missing
		--logical --physical --quiet --strip --no-symlinks --zero --help --version`),
	"readlink": reads("fnqsvemz", "", `--canonicalize --canonicalize-existing --canonicalize-missing --no-newline
		--quiet --silent --verbose --zero --help --version`),
	// Shell builtins: their options change only the shell itself.
	"exit": {opts: freeWords}, "return": {opts: freeWords}, "cd": {opts: freeWords}, "pushd": {opts: freeWords},
	"popd": {opts: freeWords}, "read": {opts: freeWords, run: subscriptArgs}, "continue": {opts: freeWords}, "break": {opts: freeWords},
	"jobs": {opts: freeWords}, "wait": {opts: freeWords, run: subscriptArgs}, "shift": {opts: freeWords}, "set": {opts: freeWords, run: setCommand},
	"unset": {opts: freeWords, run: subscriptArgs}, "export": {opts: freeWords}, "local": {opts: freeWords}, "declare": {opts: freeWords},
	"typeset": {opts: freeWords}, "readonly": {opts: freeWords}, "getopts": {opts: freeWords, run: subscriptArgs}, "umask": {opts: freeWords},
	"ulimit": {opts: freeWords}, "shopt": {opts: freeWords}, "let": {opts: freeWords, run: subscriptArgs}, "times": {opts: freeWords},
	"command": reads("pvV", "", ""), "fc": custom(fcCommand),
	"history": outputs(row{opts: &opts{free: true, effects: map[string]optEffect{"-c": optFx(effect.Change, "clears the shell history"),
		"-d": optFx(effect.Change, "deletes history entries"), "-w": optFx(effect.Overwrite, "writes the history file")}}},
		outSpec{opts: []string{"-w", "-a"}}), // history -w FILE, -a FILE write the history there (~/.zshrc …)
	"seq": reads("w", "fst", "--format= --separator= --equal-width --help --version"),
	"jot": reads("cnr", "bswp", ""), "bc": reads("hilqsvw", "e", "--help --interactive --mathlib --quiet --standard --warn --version --expression= --file="),
	"md5": reads("pqrt", "s", ""), "md5sum": reads(sumShort, "", sumLong), "shasum": reads(sumShort+"0123456789UpP", "a", sumLong+" --algorithm= --portable --UNIVERSAL --01"),
	"sha1sum": reads(sumShort, "", sumLong), "sha256sum": reads(sumShort, "", sumLong), "cksum": reads("", "oa", "--algorithm= --base64 --raw --tag --untagged --check --length= --help --version"),
	"od": reads("abBcdDeFfhHiIlLOosvxX", "AjNtw", `--address-radix= --endian= --skip-bytes= --read-bytes= --format=
		--output-duplicates --strings --strings= --width --width= --traditional --help --version`),
	"hexdump": reads("bcCdovx", "efns", ""), "xxd": {run: xxdCommand, opts: &opts{short: "abEeiruUpdCR", valued: "cgloOsn", long: "-autoskip -bits -capitalize -cols= -EBCDIC -groupsize= -include -len= -name= -offset= -postscript -plain -ps -revert -seek= -uppercase -version -help"}},
	"less": {run: lessCommand, opts: &opts{short: lessShort, valued: "bhjPpxyzt#", long: lessLong}}, "more": {run: lessCommand, opts: &opts{short: lessShort, valued: "bhjPpxyzt#", long: lessLong}},
	"strings": reads("afo0123456789", "ntT", "--all --bytes= --radix= --encoding= --print-file-name --include-all-whitespace --help --version"),
	"pbpaste": reads("", "", "-pboard= -Prefer= -help"), "info": {opts: noOptions},
	"tput": {opts: freeWords}, "clear": reads("xT", "", ""), "stty": {opts: freeWords}, "tty": reads("s", "", ""),
	"afplay": reads("dhq", "vtrq", "--volume= --time= --rate= --rQuality= --debug --leaks --help"),
	"say": {opts: &opts{short: "i", valued: "vrfa", long: `--voice= --rate= --input-file= --audio-device= --interactive
		--interactive= --progress --file-format= --data-format= --channels= --bit-rate= --quality=`, effects: map[string]optEffect{
		"-o": optFx(effect.Overwrite, "writes the speech to a file"), "--output-file": optFx(effect.Overwrite, "writes the speech to a file"),
		"-n": optFx(effect.Upload, "sends the speech over the network"), "--network-send": optFx(effect.Upload, "sends the speech over the network")}}},
	"nproc": reads("", "", "--all --ignore= --help --version"), "getconf": reads("av", "", ""),
	"logname": {opts: noOptions}, "users": {opts: noOptions}, "lastlog": reads("", "bptu", ""),
	"jq": {run: jqCommand, opts: &opts{short: "ncrjaSCMesh", valued: "fL", long: jqLong}}, "yq": {run: yqCommand, opts: &opts{short: "CMPNnre0ijs", valued: "opI", long: yqLong}}, "fzf": safe, "exa": ezaRow, "eza": ezaRow, "lsd": ezaRow, "tldr": safe,
	"xmllint": {opts: &opts{long: `--format --noout --xpath= --valid --dtdvalid= --schema= --relaxng= --html --xml
		--encode= --c14n --recover --noent --noblanks --nonet --path= --quiet --version --pretty= --xinclude --debug
		--timing --stream --sax --auto --huge --noenc --nowarning --htmlout --nodict --nocdata --nsclean --loaddtd
		--dtdattr --catalogs --nocatalogs --postvalid --insert --compress --memory --push --testIO --load-trace`,
		effects: map[string]optEffect{"--output": optFx(effect.Overwrite, "writes a file"), "-o": optFx(effect.Overwrite, "writes a file")}}},
	"iconv": {opts: &opts{short: "cls", valued: "ft", long: "--from-code= --to-code= --list --silent --help --version",
		effects: map[string]optEffect{"--output": optFx(effect.Overwrite, "writes a file"), "-o": optFx(effect.Overwrite, "writes a file")}}},
	"uuidgen": reads("rtsmx", "nN", "--random --time --sha1 --md5 --hex --namespace= --name= --help --version"),
	"bat": {opts: &opts{short: "AbnpPuh", valued: "lHrmdLw", long: `--show-all --plain --language= --highlight-line=
		--file-name= --diff --diff-context= --tabs= --wrap= --terminal-width= --number --color= --italic-text=
		--decorations= --force-colorization --paging= --map-syntax= --theme= --list-themes --style= --line-range=
		--list-languages --unbuffered --help --version`, effects: map[string]optEffect{"--pager": optFx(effect.RunUnseen, "runs the pager it names, which is not analysed")}}},
	"tree": outputs(row{opts: &opts{short: "adlfxPpsughDFvtrcUNQSnCAXJiR", valued: "LIHTo", long: `--noreport --charset= --filelimit=
		--timefmt= --dirsfirst --du --si --prune --matchdirs --ignore-case --gitignore --info --sort= --fromfile --help
		--version`, effects: map[string]optEffect{"-o": optFx(effect.Overwrite, "writes its listing to a file")}}}, outSpec{opts: []string{"-o"}}),
	"lsappinfo": {fx: effect.Of(effect.Setting, effect.Session), why: "changes how applications run", opts: noOptions, subs: map[string]effect.Effect{
		"": readOnly, "list": readOnly, "info": readOnly, "front": readOnly, "find": readOnly,
		"visibleprocesslist": readOnly, "metainfo": readOnly, "processlist": readOnly,
	}},
	"wrapper-alone": {opts: freeWords}, // sudo, nohup … with nothing to run (peel)

	// Tools that change files or settings in ways that can be undone.
	"pbcopy": {run: pbcopyCommand, opts: &opts{valued: "", long: "-pboard= -Prefer= -help"}},
	"rmdir":  doesWith(effect.Of(effect.Change), "removes empty folders", "pv", "", "--parents --ignore-fail-on-non-empty --verbose --help --version"),
	"gzip":   doesWith(effect.Of(effect.Change), "compresses files", gzipShort, "S", gzipLong), "gunzip": doesWith(effect.Of(effect.Change), "decompresses files", gzipShort, "S", gzipLong),
	"bzip2":         doesWith(effect.Of(effect.Change), "compresses files", "cdfkqstvzL123456789", "", "--decompress --compress --keep --force --test --stdout --quiet --verbose --small --fast --best --help --version"),
	"xz":            doesWith(effect.Of(effect.Change), "compresses files", "zdtlkfcqvhHe0123456789", "FCTM", xzLong),
	"screencapture": writesTo(effect.Of(effect.Create), "takes a screenshot", "cCdiImopPsSwWxrabguvkjJ", "tTRlDBFk", "", nil),
	"purge":         doesWith(effect.Of(effect.Setting), "flushes disk caches", "", "", ""), "mount": doesWith(effect.Of(effect.Setting), "mounts a volume", "adfFrkuvw", "ot", ""),
	"umount": doesWith(effect.Of(effect.Setting), "unmounts a volume", "fAav", "t", ""), "code": does(effect.Of(effect.Launch), "opens VS Code"),
	"subl": does(effect.Of(effect.Launch), "opens Sublime Text"), "qlmanage": {run: qlmanageCommand, opts: &opts{short: "pthxri", valued: "socg"}},
	"ssh-keygen": loadsProvider(row{fx: effect.Of(effect.Create), why: "manages SSH keys", opts: &opts{short: "AaBcDeFgHiKklLMpQqRUuvXy", valued: "bCEfFGImMnNOPrsStTVwYzZJjDa",
		effects: map[string]optEffect{"-p": optFx(effect.Overwrite, "rewrites a private key under a new passphrase (an empty one leaves the key unprotected)")}}}, "-D", "-w"),
	"ssh-add": doesWith(effect.Of(effect.AppState), "manages the SSH agent", "cCdDkKlLqvXx", "EestTHS", "--apple-use-keychain --apple-load-keychain"),
	"split":   {run: splitCommand, opts: &opts{short: "d", valued: "abln", long: "--suffix-length= --bytes= --line-bytes= --lines= --number= --additional-suffix= --numeric-suffixes --hex-suffixes --verbose --help --version"}},
	"lipo":    {run: lipoCommand, opts: &opts{long: "-info -detailed_info -archs -verify_arch -output= -create -thin= -extract= -extract_family= -remove= -replace= -arch= -segalign= -hideARM64 -help"}}, "install_name_tool": does(effect.Of(effect.Change), "edits binaries"), "convert": imageMagick(outputs(row{fx: effect.Of(effect.Create), why: "converts images", opts: imageMagickOpts}, outSpec{last: true, opts: []string{"-write", "+write"}})),
	"ffmpeg": custom(ffmpegCommand), "ffprobe": custom(ffmpegCommand), "pandoc": {run: pandocCommand, opts: pandocRow.opts},
	"textutil": outputs(doesWith(effect.Of(effect.Create), "converts documents", "", "", `-help -info -convert= -cat= -extension= -output= -stdout -encoding=
		-inputencoding= -format= -font= -fontsize= -noload -nostore -baseurl= -timeout= -strip -excludedelements=
		-prefixspaces= -title= -author= -subject= -keywords= -comment= -editor= -company= -creationtime= -modificationtime=`), outSpec{opts: []string{"-output"}}),
	"mv": writesTo(effect.Of(effect.Change), "changes files", "fhinvF", "St", `--force --interactive --no-clobber --verbose --backup --backup=
		--suffix= --target-directory= --no-target-directory --update --strip-trailing-slashes --help --version`, nil),
	"install": writesTo(effect.Of(effect.Create), "changes files", "bCcpSsvdMUBD", "BfgmoT", "", nil),
	"ditto": writesTo(effect.Of(effect.Create), "copies files", "", "", `-c -k -x -z -j -V -v -X --rsrc --norsrc --extattr --noextattr --qtn
		--acl --noacl --sequesterRsrc --keepParent --arch= --bom= --hfsCompression --nohfsCompression
		--preserveHFSCompression --nopreserveHFSCompression --zlibCompressionLevel= --nocache --persistRootless`,
		map[string]optEffect{"--noqtn": optFx(effect.SecurityOff, "strips the quarantine attribute from what it copies, so Gatekeeper never checks it"),
			"--noextattr": optFx(effect.SecurityOff, "copies without extended attributes, the quarantine attribute among them, so Gatekeeper never checks the copy")}),
	"ln": writesTo(effect.Of(effect.Create), "creates links", "FfhinsLPvwr", "St", `--force --interactive --no-dereference --symbolic --verbose --logical
		--physical --relative --backup --backup= --suffix= --target-directory= --no-target-directory --help --version`, nil),
	"touch": writesTo(effect.Of(effect.Create), "creates or updates files", "acfhmC", "Adrt", "--date= --reference= --no-create --no-dereference --time= --help --version", nil),
	"mkdir": writesTo(effect.Of(effect.Create), "creates folders", "pv", "m", "--parents --mode= --verbose --help --version", nil),
	"cp":    {run: cpCommand, opts: &opts{short: "acfHiLlnPpRrsvXxNTcgEDU", valued: "tS", long: cpLong}}, "tee": {run: teeCommand, opts: model("aip", "--append --ignore-interrupts --output-error --output-error= --help --version")},

	// Standard macOS tools (printing, diagnostics, Kerberos, iCloud, file
	// utilities), each with its option model.
	"lpinfo": {opts: freeWords}, "lpq": {opts: freeWords}, "klist": {opts: freeWords}, "kextstat": {opts: freeWords},
	"osalang": {opts: freeWords}, "getfileinfo": {opts: freeWords}, "locate": {opts: freeWords}, "look": {opts: freeWords},
	"units": {opts: freeWords}, "ncal": {opts: freeWords}, "pagesize": {opts: noOptions}, "machine": {opts: noOptions},
	"hostinfo": {opts: noOptions}, "nettop": {opts: freeWords}, "nfsstat": {opts: freeWords}, "showmount": {opts: freeWords},
	"vmmap": {opts: freeWords}, "heap": {opts: freeWords}, "leaks": {opts: freeWords, run: memToolCommand}, "footprint": {opts: freeWords, run: memToolCommand},
	"lpoptions": {opts: &opts{short: "lr", valued: "dhpU", effects: map[string]optEffect{"-o": optFx(effect.Setting, "sets printer options"),
		"-x": optFx(effect.Setting, "removes saved printer options")}}},
	"lp": doesWith(effect.Of(effect.Egress), "prints files", "cEhmqsrt", "dhHnoPqtTUN", ""), "lpr": doesWith(effect.Of(effect.Egress), "prints files", "EhlmqrsC", "#HJoPTUN", ""),
	"cancel": doesWith(effect.Of(effect.AppState), "cancels print jobs", "aEx", "hU", ""), "lprm": doesWith(effect.Of(effect.AppState), "cancels print jobs", "E", "hPU", ""),
	"cupsenable": doesWith(effect.Of(effect.Setting), "starts a printer", "Ec", "hU", "--hold --release"), "cupsdisable": doesWith(effect.Of(effect.Setting), "stops a printer", "Ec", "hUr", "--hold --release"),
	"cupsaccept": doesWith(effect.Of(effect.Setting), "accepts print jobs", "E", "hUr", ""), "cupsreject": doesWith(effect.Of(effect.Setting), "rejects print jobs", "E", "hUr", ""),
	"lpadmin": {fx: effect.Of(effect.Setting), why: "changes printer settings", opts: &opts{short: "ER", valued: "dpcrvDLoouUh",
		effects: map[string]optEffect{"-P": optFx(effect.Install, "installs a PPD file, whose filters run programs that are not analysed"),
			"-m": optFx(effect.Install, "installs a printer driver model, whose filters run programs that are not analysed"),
			"-i": optFx(effect.Install, "installs an interface script, which runs for every job and is not analysed"),
			"-x": optFx(effect.Setting, "removes a printer")}}},
	"kinit": doesWith(effect.Of(effect.Fetch), "gets Kerberos tickets", "fFpPaAvVRlnsc", "lsrkcSt", ""), "kdestroy": doesWith(effect.Of(effect.Change), "removes Kerberos tickets", "Aaq", "c", "--all"),
	"sntp": {opts: &opts{short: "dhKr", valued: "t", effects: map[string]optEffect{"-S": optFx(effect.Setting, "sets the system clock", effect.Session),
		"-s": optFx(effect.Setting, "sets the system clock", effect.Session)}}},
	"brctl": {fx: effect.Of(effect.Change, effect.Bulk), why: "changes iCloud Drive", opts: noOptions, subs: map[string]effect.Effect{
		"": readOnly, "log": readOnly, "status": readOnly, "dump": readOnly, "quota": readOnly, "monitor": readOnly,
		"download": effect.Of(effect.Fetch), "evict": effect.Of(effect.Change),
	}},
	"smbutil": {fx: effect.Of(effect.Setting, effect.Session), why: "changes network shares", opts: noOptions, subs: map[string]effect.Effect{
		"": readOnly, "statshares": readOnly, "lookup": readOnly, "status": readOnly, "view": readOnly,
		"identity": readOnly, "help": readOnly, "multichannel": readOnly, "smbstatus": readOnly,
	}},
	"sharing":  {fx: effect.Of(effect.Setting, effect.Session), why: "changes what this Mac shares on the network", opts: noOptions, subs: map[string]effect.Effect{"": readOnly}},
	"iconutil": outputs(doesWith(effect.Of(effect.Create), "converts icons", "", "co", "--convert= --output="), outSpec{opts: []string{"-o", "--output"}}), "afconvert": outputs(does(effect.Of(effect.Create), "converts audio"), outSpec{last: true}),
	"compression_tool": does(effect.Of(effect.Change), "compresses or decompresses files"), "aa": {run: aaCommand, opts: aaModel},
	"7z": custom(sevenZipCommand), "7za": custom(sevenZipCommand), "7zz": custom(sevenZipCommand),
	"cpio": custom(cpioCommand), "pax": custom(paxCommand), "xar": custom(xarCommand),
	"setfile": doesWith(effect.Of(effect.Change), "changes file attributes", "P", "acdmtCT", ""), "mkfile": outputs(doesWith(effect.Of(effect.Create), "creates files", "nv", "", ""), outSpec{every: true, after: 1}),
	"dot_clean": doesWith(effect.Of(effect.Change), "merges and removes ._ files", "fmnsv", "", "--keep= --rsrc"),
	"pkgbuild":  does(effect.Of(effect.Create), "builds an installer package"), "productbuild": does(effect.Of(effect.Create), "builds an installer package"),
	"productsign": does(effect.Of(effect.Change), "signs an installer package"),
	"powermetrics": {opts: &opts{free: true, effects: map[string]optEffect{"-o": optFx(effect.Overwrite, "writes its samples to a file"),
		"--output-file": optFx(effect.Overwrite, "writes its samples to a file")}}},
	"sample":    outputs(doesWith(effect.Of(effect.Create), "samples a running process", "maye", "f", "-file= -mayDie -wait -fullPaths"), outSpec{opts: []string{"-file", "-f"}}),
	"spindump":  does(effect.Of(effect.Create), "samples every process and writes a report"),
	"dc":        does(effect.Of(effect.RunUnseen), "runs its programs, whose ! command runs shell commands that are not analysed"),
	"bputil":    does(effect.Of(effect.SecurityOff), "changes the boot security policy"),
	"mdmclient": does(effect.Of(effect.Connect), "talks to device management"), "fileproviderctl": does(effect.Of(effect.Setting, effect.Session), "changes file providers"),

	// Hard to reverse, or reaching beyond the Mac.
	"nc": does(effect.Of(effect.Connect), "opens raw network connections"), "ncat": does(effect.Of(effect.Connect), "opens raw network connections"),
	"netcat": does(effect.Of(effect.Connect), "opens raw network connections"), "socat": does(effect.Of(effect.Connect), "relays network connections"),
	"telnet": does(effect.Of(effect.Connect), "opens raw network connections"), "ssh-copy-id": does(effect.Of(effect.Connect), "installs a key on another machine"),
	"shutdown": does(effect.Of(effect.Power), "powers the Mac off or restarts it"), "reboot": does(effect.Of(effect.Power), "restarts the Mac"),
	"halt": does(effect.Of(effect.Power), "halts the Mac"), "tccutil": custom(tccutilCommand),
	"unlink": custom(unlinkCommand), "osacompile": outputs(does(effect.Of(effect.Overwrite), "compiles a script"), outSpec{opts: []string{"-o"}}),
	"bless": does(effect.Of(effect.Setting, effect.Session), "changes the startup disk"), "kextload": does(effect.Of(effect.LoadCode), "loads a kernel extension"),
	"kextunload": does(effect.Of(effect.Setting, effect.Session), "unloads a kernel extension"), "systemextensionsctl": does(effect.Of(effect.Install), "manages system extensions"),
	"dsenableroot": custom(dsenablerootCommand), "passwd": does(effect.Of(effect.Account), "changes a password"),
	"createhomedir": does(effect.Of(effect.Account), "creates home folders for accounts"), "dseditgroup": {run: dseditgroupCommand, opts: &opts{short: "pqvLS", valued: "onuPadtTigkmrcsCf"}},
	"pwpolicy": {run: pwpolicyCommand, opts: &opts{free: true}}, "dsmemberutil": custom(dsmemberutilCommand),
	"chsh": does(effect.Of(effect.Setting, effect.Session), "changes the login shell"), "visudo": does(effect.Of(effect.Account), "edits sudo rules, which decide who may run anything as root"),
	"mount_smbfs": does(effect.Of(effect.Connect), "mounts a network share"),
	"automator":   does(effect.Of(effect.RunUnseen), "runs a workflow (its actions are not analysed)"),

	// Irreversible.
	"srm": does(effect.Of(effect.Remove), "securely erases files: unrecoverable"), "shred": does(effect.Of(effect.Remove), "overwrites files: unrecoverable"),
	"wipe": does(effect.Of(effect.Remove), "wipes files: unrecoverable"), "gshred": does(effect.Of(effect.Remove), "overwrites files: unrecoverable"),
	"gsrm": does(effect.Of(effect.Remove), "securely erases files: unrecoverable"), "fdisk": does(effect.Of(effect.Disk), "edits the partition table"),
	"gpt": does(effect.Of(effect.Disk), "edits the partition table"), "asr": does(effect.Of(effect.Disk), "restores over a volume"),
	"csrutil": custom(csrutilCommand), "truncate": custom(truncateCommand), "rm": custom(rmCommand), "zmodload": custom(zmodloadCommand),
	"dd": {run: ddCommand, opts: model("", "--help --version")}, "diskutil": custom(diskutilCommand),

	// By subcommand.
	"tmutil": {fx: effect.Of(effect.Setting, effect.Session), why: "changes Time Machine", opts: model("abcdefgilmnpqrstuvxDEUX@", ""), subs: map[string]effect.Effect{
		"status": readOnly, "listbackups": readOnly, "latestbackup": readOnly, "listlocalsnapshots": readOnly,
		"listlocalsnapshotdates": readOnly, "machinedirectory": readOnly, "isexcluded": readOnly, "destinationinfo": readOnly,
		"version": readOnly, "compare": readOnly, "calculatedrift": readOnly, "uniquesize": readOnly,
		"startbackup": effect.Of(effect.Setting), "stopbackup": effect.Of(effect.Setting), "addexclusion": effect.Of(effect.Setting, effect.Session), // the folder is no longer backed up
		"delete": effect.Of(effect.Remove), "deletelocalsnapshots": effect.Of(effect.Remove), "thinlocalsnapshots": effect.Of(effect.Remove),
		"deleteinprogress": effect.Of(effect.Remove), "disable": effect.Of(effect.Setting, effect.Session), "removeexclusion": effect.Of(effect.Setting),
	}},
	"kubectl": {fx: effect.Of(effect.Connect), why: "changes a cluster", opts: kubectlOpts, subs: map[string]effect.Effect{
		"get": readOnly, "describe": readOnly, "logs": readOnly, "version": readOnly, "config": effect.Of(effect.Setting),
		"top": readOnly, "explain": readOnly, "api-resources": readOnly, "delete": effect.Of(effect.Remove),
		"completion": readOnly, "cluster-info": readOnly, "api-versions": readOnly,
	}},
	"log": {fx: effect.Of(effect.Setting, effect.Session), why: "changes or erases the system log", opts: &opts{long: logLong}, subs: map[string]effect.Effect{
		"show": readOnly, "stream": readOnly, "stats": readOnly, "help": readOnly, "": readOnly, "collect": effect.Of(effect.Create),
		"erase": effect.Of(effect.Remove), // the log's records are gone for good: what ran can no longer be told
	}},
	"wdutil": {fx: effect.Of(effect.Setting, effect.Session), why: "changes Wi-Fi diagnostics", subs: map[string]effect.Effect{
		"info": readOnly, "help": readOnly, "": readOnly, "diagnose": effect.Of(effect.Create),
	}},
	"kmutil": {fx: effect.Of(effect.LoadCode), why: "loads, unloads or rebuilds kernel extensions", subs: map[string]effect.Effect{
		"showloaded": readOnly, "inspect": readOnly, "print-diagnostics": readOnly, "help": readOnly, "": readOnly,
	}},
	"mas": {fx: effect.Of(effect.Fetch), why: "changes App Store apps", opts: model("", "--price --bundle --help --version --verbose --force"), subs: map[string]effect.Effect{
		"list": readOnly, "outdated": readOnly, "search": readOnly, "info": readOnly, "version": readOnly,
		"help": readOnly, "account": readOnly, "vendor": readOnly, "": readOnly, "uninstall": effect.Of(effect.Install),
	}},

	// Files, text and archives.
	"chmod": {run: permCommand, opts: model("fhvRHLPcENnaCIi+rwxXstugo", "--changes --silent --quiet --verbose --no-preserve-root --preserve-root --reference= --recursive --help --version")}, "chown": {run: permCommand, opts: model("fhvRHLPcn", "--changes --silent --quiet --verbose --no-preserve-root --preserve-root --reference= --recursive --dereference --no-dereference --from= --help --version")}, "chgrp": {run: permCommand, opts: model("fhvRHLPcn", "--changes --silent --quiet --verbose --no-preserve-root --preserve-root --reference= --recursive --dereference --no-dereference --from= --help --version")},
	"find": {run: findCommand, opts: &opts{short: "EHLPXdsx", valued: "fD", long: findLong, exec: "-exec -execdir -ok -okdir"}}, "fd": {run: fdCommand, opts: &opts{short: "HIuisSglLpa0F1hV", valued: "dEetjcxXSo", long: fdLong}}, "fdfind": {run: fdCommand, opts: &opts{short: "HIuisSglLpa0F1hV", valued: "dEetjcxXSo", long: fdLong}}, "rg": {run: rgCommand, opts: &opts{short: rgShort, valued: "ABCegEjmMtTfr", long: rgLong}},
	"sort": {run: sortCommand, opts: &opts{short: "bcCdfghiMmnRrsuVz", valued: "kotST", long: sortLong}}, "uniq": {run: uniqCommand, opts: &opts{short: "cdDiuz", valued: "fsw", long: "--count --repeated --all-repeated --all-repeated= --skip-fields= --group --group= --ignore-case --skip-chars= --unique --zero-terminated --check-chars= --help --version"}}, "base64": {run: base64Command, opts: &opts{short: "Ddin", valued: "biow", long: "--decode --ignore-garbage --wrap= --input= --output= --break= --help --version"}},
	"sed": {run: sedCommand, opts: &opts{short: "nrEsuzla", valued: "efiIl", long: sedLong}}, "gsed": {run: sedCommand, opts: &opts{short: "nrEsuzla", valued: "efiIl", long: sedLong}}, "awk": {run: awkCommand, opts: awkModel}, "gawk": {run: awkCommand, opts: awkModel},
	"nawk": {run: awkCommand, opts: awkModel}, "mawk": {run: awkCommand, opts: awkModel}, "tar": custom(tarCommand), "bsdtar": custom(tarCommand),
	"gtar": custom(tarCommand), "zip": {run: zipCommand, opts: &opts{short: zipShort, valued: "bnPtxiIsOZYbU", long: zipLong}}, "unzip": {run: unzipCommand, opts: &opts{short: "ZlvtTzfuopcaqnjCKLMVXDsb", valued: "dxP", long: "-hh --help"}},
	"chflags": {run: chflagsCommand, opts: model("fhvxRHLP", "")}, "xattr": custom(xattrCommand), "plutil": {run: plutilCommand, opts: &opts{short: "hs", valued: "eor", long: plutilLong}},
	"plistbuddy": {run: plistBuddyCommand, opts: &opts{short: "xh", valued: "c"}}, "defaults": custom(defaultsCommand), "sips": {run: sipsCommand, opts: &opts{free: true}},
	"identify": imageMagick(outputs(row{opts: imageMagickOpts}, outSpec{opts: []string{"-write", "+write"}})),
	"magick":   {run: magickCommand, opts: imageMagickOpts}, "pdfinfo": pdfinfoRow, "pdftotext": pdftotextRow, "exiftool": {run: exiftoolCommand, opts: &opts{free: true}},
	"hdiutil": {run: hdiutilCommand, opts: &opts{long: hdiutilWords}}, "pkgutil": {run: pkgutilCommand, opts: &opts{short: "fv", valued: "", long: pkgutilLong}}, "codesign": {run: codesignCommand, opts: &opts{short: "dfhqvVx", valued: "sairoPDRe", long: codesignLong}},
	"mdutil": {run: mdutilCommand, opts: model("adEipsvXLt", "")}, "man": {run: manCommand, opts: &opts{short: "acdfhkKtwWS", valued: "CMmPpSsHT", long: "--path --where --all --apropos --whatis --help --version --manpath= --sections= --pager= --html --html= --local-file"}}, "gpg": {run: gpgCommand, opts: gpgModel},
	"openssl": custom(opensslCommand), "security": custom(securityCommand),
	"vim": {run: vimCommand, opts: vimModel}, "vi": {run: vimCommand, opts: vimModel}, "nvim": {run: vimCommand, opts: vimModel}, "view": {run: vimCommand, opts: vimModel},
	"vimdiff": {run: vimCommand, opts: vimModel}, "nvi": {run: vimCommand, opts: vimModel}, "ex": {run: vimCommand, opts: vimModel}, "gvim": {run: vimCommand, opts: vimModel},
	"mvim": {run: vimCommand, opts: vimModel},

	// System settings, accounts, services.
	"crontab": custom(crontabCommand), "launchctl": custom(launchctlCommand), "at": custom(atCommand),
	"batch": custom(atCommand), "atq": safe, "atrm": does(effect.Of(effect.Change), "removes scheduled jobs"),
	"periodic": does(effect.Of(effect.RunUnseen), "runs the periodic maintenance scripts, which are not analysed"),
	"sfltool":  {fx: effect.Of(effect.Setting, effect.Session), why: "changes login and background items", subs: map[string]effect.Effect{"dumpbtm": readOnly, "": readOnly}}, "dscl": {run: dsclCommand, opts: &opts{free: true}}, "sysadminctl": {run: sysadminctlCommand, opts: &opts{free: true}},
	"softwareupdate": {run: softwareupdateCommand, opts: &opts{short: "laidrR", long: swupdateLong}}, "spctl": custom(spctlCommand), "socketfilterfw": custom(socketfilterfwCommand),
	"pfctl": custom(pfctlCommand), "fdesetup": custom(fdesetupCommand), "nvram": custom(nvramCommand),
	"pmset": custom(pmsetCommand), "sysctl": {run: sysctlCommand, opts: model("AabdehiNnoqWwXx", "")}, "ifconfig": custom(ifconfigCommand),
	"route": custom(routeCommand), "arp": {run: arpCommand, opts: model("adnSsfilvx", "")}, "dscacheutil": {run: dscacheutilCommand, opts: model("", "-q= -a= -flushcache -statistics -cachedump -configuration -buckets -entries -h")},
	"dns-sd": {run: dnssdCommand, opts: model("BLRPEFAUNTMIZGVXqi", "-lo -p2p -tc -unicast -i=")}, "xcode-select": {run: xcodeSelectCommand, opts: model("pvhrs", "--print-path --version --help --reset --switch= --install")},
	"memory_pressure": {run: memoryPressureCommand, opts: &opts{short: "lQS", valued: "ps"}}, "profiles": custom(profilesCommand),
	"installer": custom(installerCommand), "networksetup": custom(networksetupCommand),
	"systemsetup": custom(systemsetupCommand),
	"kickstart":   does(effect.Of(effect.SecurityOff), "turns on or changes Remote Management: others may see and control this Mac"),
	"scutil":      custom(getterSetter("--get", "--dns", "--proxy", "--nwi", "-r", "-w", "--nc")),
	"shortcuts":   {run: shortcutsCommand, opts: &opts{short: "hio", valued: "", long: "--input-path= --output-path= --output-type= --show-identifiers --folder-name= --help"}}, "kill": {run: killCommand, opts: killModel}, "killall": {run: killCommand, opts: killModel},
	"pkill": {run: killCommand, opts: killModel}, "su": custom(suCommand), "hash": {run: hashCommand, opts: freeWords},

	// Network.
	"curl": {run: curlCommand, opts: curlModel}, "wget": {run: wgetCommand, opts: wgetModel}, "scp": {run: copyRemote, opts: scpModel}, "rsync": {run: copyRemote, opts: rsyncModel},
	"ssh": custom(sshCommand), "sftp": custom(sftpCommand),

	// Scripts, interpreters, terminals: what they run is analysed when it can be.
	"sh": custom(shellInterp), "bash": custom(shellInterp), "zsh": custom(shellInterp), "dash": custom(shellInterp),
	"ksh": custom(shellInterp), "mksh": custom(shellInterp), "fish": custom(shellInterp), "tcsh": custom(shellInterp),
	"mapfile": {run: mapfileCommand, opts: &opts{short: "t", valued: "dnOsuCc"}}, "readarray": {run: mapfileCommand, opts: &opts{short: "t", valued: "dnOsuCc"}},
	"csh": custom(shellInterp), "eval": custom(evalCommand), "source": custom(sourceCommand), ".": custom(sourceCommand),
	"alias": {run: aliasCommand, opts: freeWords}, "trap": {run: trapCommand, opts: freeWords}, "osascript": custom(osascriptCommand),
	"open": {run: openCommand, opts: openModel}, "xdg-open": custom(xdgOpen), "exo-open": custom(xdgOpen),
	"kde-open": custom(xdgOpen), "kde-open5": custom(xdgOpen), "kde-open6": custom(xdgOpen), "gnome-open": custom(xdgOpen),
	"gvfs-open": custom(xdgOpen), "wslview": custom(xdgOpen),
	"gio": custom(gioCommand), "kioclient": custom(kioCommand), "kioclient5": custom(kioCommand),
	"kioclient6": custom(kioCommand), "gtk-launch": custom(gtkLaunch), "node": custom(interpreter(nodeSpec)), "nodejs": custom(interpreter(nodeSpec)),
	"swift": custom(interpreter(interpSpec{code: "e"})), "php": custom(interpreter(phpSpec)),
	"lua": custom(interpreter(luaSpec)), "luajit": custom(interpreter(luaSpec)),
	"tclsh": custom(interpreter(interpSpec{})), "wish": custom(interpreter(interpSpec{})),
	"rscript": custom(interpreter(interpSpec{code: "e", longValued: []string{"--default-packages"}})),
	"deno":    custom(runtimeCommand), "bun": custom(runtimeCommand), "pwsh": custom(pwshCommand),
	"powershell": custom(pwshCommand), "expect": custom(expectCommand), "screen": {run: screenCommand, opts: screenModel},
	"tmux": {run: tmuxCommand, opts: tmuxModel}, "tmate": {run: tmuxCommand, opts: tmuxModel}, "xcrun": custom(xcrunCommand), "xdotool": custom(synthInput),
	"emacsclient": {run: emacsclientCommand, opts: emacsclientModel}, "emacs": {run: emacsCommand, opts: emacsModel}, "kitty": custom(kittyCommand), "kitten": custom(kittyCommand),
	"wezterm": custom(weztermCommand), "zellij": custom(zellijCommand), "systemd-run": custom(systemdRunCommand),
	"ydotool": custom(synthInput), "wtype": custom(synthInput), "cliclick": custom(synthInput), "xte": custom(synthInput),
	"xvkbd": custom(synthInput),

	// Build tools, package managers, containers, databases, clouds.
	"cargo": custom(cargoCommand), "xcodebuild": does(effect.Of(effect.RunUnseen), "runs the project's build phases and scripts, which are not analysed"),
	"pod":    registryRow("runs the Podfile and podspecs (Ruby), which are not analysed"),
	"bundle": registryRow("runs the Gemfile (Ruby) and the gems' code, which are not analysed"),
	"make":   custom(makeCommand), "gmake": custom(makeCommand), "go": custom(goCommand), "npm": custom(npmCommand),
	"pnpm": custom(npmCommand), "yarn": custom(npmCommand), "npx": custom(packageRunner), "bunx": custom(packageRunner),
	"uvx": custom(packageRunner), "uv": custom(uvCommand), "pnpx": custom(packageRunner), "pipx": {run: pipxCommand, opts: &opts{short: "qvfh", valued: "", long: pipxLong, effects: pipxEffects}}, "pip": custom(pipCommand),
	"pip3": custom(pipCommand), "gem": {run: gemCommand, opts: &opts{short: "VqlrbfNE", valued: "vsinpPw", long: gemLong}}, "brew": custom(brewCommand),
	"docker": custom(dockerCommand), "podman": custom(dockerCommand), "docker-compose": custom(composeCommand),
	"sqlite3": {run: sqliteCommand, opts: &opts{long: sqliteLong}}, "psql": {run: sqlClientCommand, opts: psqlModel}, "mysql": {run: sqlClientCommand, opts: mysqlModel},
	"mariadb": {run: sqlClientCommand, opts: mysqlModel}, "redis-cli": {run: redisCommand, opts: redisModel}, "terraform": custom(terraformCommand),
	"tofu": custom(terraformCommand), "aws": custom(cloudCommand), "gcloud": custom(cloudCommand),
	"gsutil": custom(cloudCommand), "az": custom(cloudCommand), "git": custom(gitCommand),
}

// set makes a set of the words of a space-separated list.
func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
