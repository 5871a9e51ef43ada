package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Option lists several rows of table.go share, from the programs' BSD and
// GNU manuals, and the row functions of read-only tools with one use that
// changes the system.

const (
	grepShort  = "abcEFGHhIiJkLlMnOopPqRrSsTUuVvwxXyZz0123456789"
	grepValued = "ABCDdefmX"
	grepLong   = `--extended-regexp --fixed-strings --basic-regexp --perl-regexp --regexp= --file= --ignore-case
		--no-ignore-case --word-regexp --line-regexp --null-data --no-messages --invert-match --version --help
		--max-count= --byte-offset --line-number --line-buffered --with-filename --no-filename --label= --only-matching
		--quiet --silent --binary-files= --text --directories= --devices= --recursive --dereference-recursive
		--include= --exclude= --exclude-from= --exclude-dir= --files-without-match --files-with-matches --count
		--initial-tab --null --before-context= --after-context= --context= --context --color --color= --colour
		--colour= --binary --mmap --include-dir= --no-group-separator --group-separator=`
	diffLong = `--normal --brief --report-identical-files --context --context= --unified --unified= --ed --rcs
		--side-by-side --width= --left-column --suppress-common-lines --show-c-function --show-function-line= --label=
		--expand-tabs --initial-tab --tabsize= --suppress-blank-empty --paginate --new-file --unidirectional-new-file
		--ignore-case --ignore-file-name-case --no-ignore-file-name-case --ignore-tab-expansion --ignore-trailing-space
		--ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-matching-lines= --text --strip-trailing-cr
		--recursive --starting-file= --from-file= --to-file= --exclude= --exclude-from= --line-format= --horizon-lines=
		--minimal --speed-large-files --color --color= --palette= --help --version --no-dereference --new-group-format=
		--old-group-format= --unchanged-group-format= --changed-group-format= --new-line-format= --old-line-format=
		--unchanged-line-format=`
	sumShort  = "bctwz"
	sumLong   = "--binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn --help --version"
	gzipShort = "cdfhklLnNqrtvV123456789"
	gzipLong  = `--stdout --to-stdout --decompress --uncompress --force --keep --list --no-name --name --quiet
		--recursive --suffix= --test --verbose --fast --best --rsyncable --synchronous --help --version --license`
	xzLong = `--compress --decompress --uncompress --test --list --keep --force --stdout --to-stdout --format= --check=
		--threads= --memlimit= --quiet --verbose --extreme --fast --best --suffix= --files= --files0= --single-stream
		--no-sparse --robot --info-memory --block-size= --no-adjust --flush-timeout= --ignore-check
		--memlimit-compress= --memlimit-decompress= --help --long-help --version`
)

var dateModel = &opts{short: "jnRuIv0123456789", valued: "rfvzd", long: `--date= --file= --iso-8601 --iso-8601=
	--rfc-email --rfc-3339= --reference= --utc --universal --debug --help --version`,
	effects: map[string]optEffect{"-s": optFx(effect.Setting, "sets the system clock", effect.Session), "--set": optFx(effect.Setting, "sets the system clock", effect.Session)}}

// dateCommand rates date: it prints, unless an operand other than +FORMAT
// is given without -j: that sets the system clock.
func dateCommand(c *call) {
	dateModel.check(c)
	for _, o := range c.operands() {
		if !strings.HasPrefix(o.s, "+") && !hasShort(c.args, 'j') && !hasShort(c.args, 'r') && !hasShort(c.args, 'd') {
			c.add(effect.Of(effect.Setting, effect.Session), "date", "date %s: sets the system clock", rate.Display(o.s))
			return
		}
	}
}

// hostnameCommand rates hostname: it prints, unless given a name, which it
// sets as the Mac's host name.
func hostnameCommand(c *call) {
	(&opts{short: "fsdia", long: "--fqdn --short --domain --ip-address --all-ip-addresses --help --version"}).check(c)
	if len(c.operands()) > 0 {
		c.add(effect.Of(effect.Setting, effect.Session), "hostname", "hostname %s: changes the Mac's host name", rate.Display(c.operands()[0].s))
	}
}

// fcCommand rates fc: -l lists the history; anything else runs commands
// from it (after an editor, for -e), which this input does not show.
func fcCommand(c *call) {
	if hasShort(c.args, 'l') {
		return
	}
	c.hiddenCode("fc", "commands from the shell history")
	for i, w := range c.args {
		// fc -e EDITOR runs EDITOR on the entries: a command line
		// (fc -e 'rm -rf ~;' -1), rated as itself; -e - runs none.
		if w.s == "-e" && i+1 < len(c.args) && c.args[i+1].s != "-" && !c.args[i+1].hole {
			c.nestedText(c.args[i+1].s, "fc -e")
		}
	}
}

// Option lists of the rows with a function of their own.
var (
	awkModel = &opts{short: "bcCdDgMnNoOpPrStVy", valued: "Fvf", long: `--field-separator= --assign= --file= --source=
		--lint --lint= --posix --traditional --sandbox --characters-as-bytes --dump-variables --dump-variables= --debug
		--profile --profile= --pretty-print --pretty-print= --optimize --no-optimize --re-interval --non-decimal-data
		--csv --bignum --gen-pot --use-lc-numeric --help --version --copyright`,
		effects: map[string]optEffect{"-l": optFx(effect.RunUnseen, "loads a native extension, which is not analysed"),
			"--load":    optFx(effect.RunUnseen, "loads a native extension, which is not analysed"),
			"-i":        optFx(effect.RunUnseen, "includes an awk source file, which is not analysed"),
			"--include": optFx(effect.RunUnseen, "includes an awk source file, which is not analysed"),
			"-E":        optFx(effect.RunUnseen, "runs an awk program file, which is not analysed"),
			"--exec":    optFx(effect.RunUnseen, "runs an awk program file, which is not analysed")}}
	killModel = &opts{free: true} // signals (-9, -KILL, -s HUP) and process selections; killCommand rates them
)

const (
	codesignLong = `--sign= --verify --display --deep --force --timestamp --timestamp= --entitlements= --options=
		--preserve-metadata= --remove-signature --keychain= --prefix= --strict --strict= --check-notarization --xml
		--extract-certificates --extract-certificates= --requirements= --identifier= --all-architectures
		--architecture= --file-list= --generate-entitlement-der --dryrun --verbose --verbose= --detached=
		--runtime-version= --no-strict --help`
	cpLong = `--archive --attributes-only --backup --backup= --copy-contents --dereference --force --interactive --link
		--no-clobber --no-dereference --preserve --preserve= --no-preserve= --parents --recursive --reflink --reflink=
		--remove-destination --sparse= --strip-trailing-slashes --symbolic-link --suffix= --target-directory=
		--no-target-directory --update --update= --verbose --one-file-system --help --version`
	yqLong = `--output-format= --input-format= --indent= --inplace --null-input --no-doc --exit-status --prettyPrint
		--unwrapScalar --colors --no-colors --nul-output --header-preprocess --front-matter= --expression= --xml-attribute-prefix=
		--xml-content-name= --tsv-auto-parse --csv-auto-parse --split-exp= --from-file= --help --version`
	jqLong = `--null-input --compact-output --raw-output --join-output --ascii-output --sort-keys --color-output
		--monochrome-output --tab --indent= --unbuffered --stream --stream-errors --seq --slurp --raw-input --arg=
		--argjson= --slurpfile= --rawfile= --args --jsonargs --exit-status --from-file= --raw-output0 --help --version
		--build-configuration`
	lessShort = "aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWX~"
	lessLong  = `--quit-at-eof --QUIT-AT-EOF --quit-if-one-screen --ignore-case --IGNORE-CASE --LONG-PROMPT
		--LINE-NUMBERS --line-numbers --RAW-CONTROL-CHARS --raw-control-chars --chop-long-lines --squeeze-blank-lines
		--no-init --quiet --silent --QUIET --SILENT --status-column --tabs= --window= --jump-target= --pattern=
		--prompt= --mouse --wheel-lines= --use-color --color= --incsearch --header= --follow-name --help --version
		--no-keypad --shift= --search-skip-screen --hilite-search --HILITE-SEARCH --hilite-unread --HILITE-UNREAD
		--underline-special --UNDERLINE-SPECIAL --clear-screen --CLEAR-SCREEN --dumb --buffers= --auto-buffers
		--tilde --redraw-on-quit --exit-follow-on-close --no-histdups --save-marks --wordwrap --no-vbell`
	pkgutilLong = `--packages --pkgs --pkgs= --pkg-info= --pkg-info-plist= --files= --export-plist= --lsbom= --file-info=
		--file-info-plist= --pkg-groups= --group-pkgs= --check-signature --verify= --volume= --regexp --edit-pkg=
		--only-files --only-dirs --forget= --expand --expand-full --flatten --learn --unlink --bom --payload-files
		--help --verbose --force`
	plutilLong = `-help -p -lint -convert= -insert= -replace= -remove= -extract= -type= -create= -expect= -n -s -r
		-o= -e= -json -xml1 -binary1 -swift -objc -raw -append`
	rgShort = "aFhHiIlLnNoOpqsSuUvwxz0cVb"
	rgLong  = `--after-context= --before-context= --context= --regexp= --fixed-strings --glob= --iglob= --hidden
		--ignore-case --smart-case --case-sensitive --files --files-with-matches --files-without-match --count
		--count-matches --line-number --no-line-number --only-matching --type= --type-not= --type-list --max-count=
		--max-depth= --max-filesize= --max-columns= --no-ignore --no-ignore-vcs --no-ignore-dot --no-heading --heading
		--with-filename --no-filename --json --vimgrep --null --color= --colors= --column --stats --sort= --sortr=
		--word-regexp --line-regexp --invert-match --follow --multiline --text --threads= --engine= --encoding=
		--replace= --trim --passthru --quiet --help --version --unrestricted --no-messages --files-from=`
	fdLong = `--hidden --no-ignore --no-ignore-vcs --case-sensitive --ignore-case --glob --regex --fixed-strings
		--absolute-path --list-details --follow --full-path --print0 --max-depth= --min-depth= --exact-depth= --type=
		--extension= --exclude= --size= --changed-within= --changed-before= --owner= --max-results= --one-file-system
		--base-directory= --path-separator= --search-path= --strip-cwd-prefix --color= --threads= --format= --prune
		--help --version --quiet --show-errors --and=`
	sedLong = `--quiet --silent --expression= --file= --in-place --in-place= --line-length= --posix --regexp-extended
		--separate --sandbox --unbuffered --null-data --debug --follow-symlinks --help --version`
	swupdateLong = `--list --all --install --recommended --restart --download --schedule --background --ignore=
		--reset-ignored --product-types= --include-config-data --force --no-scan --history --dump-state --evaluate-products
		--list-full-installers --fetch-full-installer --full-installer-version= --install-rosetta --agree-to-license
		--verbose --help --os-only --safari-only --stdinpass --user=`
	sortLong = `--ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting
		--month-sort --human-numeric-sort --numeric-sort --random-sort --random-source= --reverse --sort= --version-sort
		--check --check= --merge --key= --output= --stable --buffer-size= --field-separator= --temporary-directory=
		--unique --zero-terminated --parallel= --files0-from= --debug --help --version --batch-size=`
	zipShort = "0123456789AcCdDeEfFgghjJklLmqrRSTuvwXyz@$"
	zipLong  = `--recurse-paths --move --delete --freshen --update --grow --junk-paths --quiet --verbose --encrypt
		--filesync --test --exclude= --include= --password= --compression-method= --symlinks --no-extra --latin1
		--help --version --out= --temp-path= --split-size= --display-dots --display-bytes --display-count`
	findLong = `-name= -iname= -path= -ipath= -wholename= -iwholename= -regex= -iregex= -regextype= -type= -xtype=
		-size= -mtime= -mmin= -atime= -amin= -ctime= -cmin= -Btime= -Bmin= -newer= -anewer= -cnewer= -Bnewer= -newermt=
		-newerct= -newerat= -newerBt= -newermm= -neweraa= -newercc= -newerBB= -newermc= -newercm= -perm= -user= -group=
		-uid= -gid= -nouser -nogroup -maxdepth= -mindepth= -depth -prune -print -print0 -printf= -ls -exec -execdir
		-ok -okdir -delete -empty -links= -inum= -samefile= -follow -xdev -mount -not -and -or -a -o -false -true
		-quit -readable -writable -executable -lname= -ilname= -fstype= -flags= -acl -xattr -xattrname= -daystart
		-noleaf -ignore_readdir_race -warn -nowarn -used= -d -E -H -L -P -X -s -x -O0 -O1 -O2 -O3`
	sqliteLong = `-cmd -init -header -noheader -column -csv -json -line -list -html -markdown -box -table -readonly
		-bail -batch -echo -separator -nullvalue -newline -version -help -interactive -memtrace -mmap -vfs -append
		-ascii -deserialize -nofollow -lookaside -pagecache -heap -maxsize -safe -stats -tabs -quote -A -escape -zip
		-nonce -no-rowid-in-view`
)

// logLong are the options of log show, stream, stats and collect.
const logLong = `--last= --start= --end= --predicate= --style= --info --debug --source --process= --signpost
	--color= --archive= --file= --no-pager --type= --level= --mach-continuous-time --timezone= --user= --backtrace
	--loss --sort= --overview --count= --timeout= --help --output= --size= --days= --no-backtrace --no-info --no-debug
	--no-loss --no-signpost --no-source --pid=`

// hdiutilWords are hdiutil's options, single-dash words shared by its verbs.
const hdiutilWords = `-readonly -readwrite -nobrowse -browse -mountpoint= -mountroot= -mountrandom= -nomount -noverify
	-verify -noautoopen -autoopen -quiet -verbose -debug -plist -puppetstrings -srcfolder= -srcdevice= -format= -size=
	-sectors= -megabytes= -fs= -volname= -type= -layout= -ov -encryption= -stdinpass -passphrase= -certificate= -pubkey=
	-imagekey= -shadow -shadow= -owners= -uid= -gid= -mode= -force -align= -nokernel -kernel -noidme -agentpass
	-recover= -insecurehandler= -drivekey= -spotlight -nospotlight -attach -anyowners -skipjournal -fsargs=
	-segmentSize= -segmentCount= -tgtimagekey= -noext -noautofsck -autofsck -help -nocrossdev -crossdev -scrub
	-noscrub -notremovable -section= -partitionType= -partitionNumber= -srcimagekey= -library= -checksum=`

// gem's and pipx's options; pipx hands some to pip, which may build what
// they name.
const (
	gemLong = `--user-install --no-user-install --no-document --document= --version= --source= --clear-sources
		--install-dir= --bindir= --force --local --remote --both --conservative --minimal-deps --pre --prerelease
		--platform= --explain --lock --no-lock --suggestions --no-suggestions --help --verbose --quiet --silent
		--norc --backtrace --debug --ignore-dependencies --development --development-all --env-shebang --no-env-shebang
		--details --versions --all --exact --installed --no-installed --name-matches= --build-root= --vendor --default
		--add= --remove= --list --update --clear-all --append= --prepend=`
	pipxLong = `--help --version --verbose --quiet --python= --include-deps --force --suffix= --global --system-site-packages
		--index-url= --no-cache --fetch-missing-python --all-shells --include-injected --short --json --skip-maintenance
		--include-apps --with-suffix --backend= --outdated --all --upgrade-strategy=`
)

var pipxEffects = map[string]optEffect{
	"--pip-args":   optFx(effect.RunUnseen, "hands options to pip, which may build what they name"),
	"--spec":       optFx(effect.RunUnseen, "installs from a spec that may be a local or downloaded source tree, whose build runs"),
	"--editable":   optFx(effect.RunUnseen, "installs a source tree, whose build runs"),
	"-e":           optFx(effect.RunUnseen, "installs a source tree, whose build runs"),
	"--preinstall": optFx(effect.RunUnseen, "installs more packages first, which may be source trees whose build runs"),
}

// openModel is open's option model: -a/-b pick the app, -e/-t/-f an editor,
// --args hands the rest to the app; --env sets the app's environment
// (DYLD_INSERT_LIBRARIES …) and --stdout/--stderr write files.
var openModel = &opts{short: "eftFWRngjhDiN", valued: "abusHr", stop: "--args", long: "--fresh --wait-apps --reveal --new --background --hide --header --sdk= --url= --arch=",
	effects: map[string]optEffect{
		"--env":    optFx(effect.LoadCode, "sets the environment of the app it starts, which can load code into it"),
		"--stdin":  optFx(effect.Launch, "feeds the app a file"),
		"--stdout": optFx(effect.Overwrite, "writes the app's output to a file"),
		"--stderr": optFx(effect.Overwrite, "writes the app's errors to a file"),
	}}
