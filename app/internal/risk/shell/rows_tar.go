package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// tar's option model (GNU tar and bsdtar manuals). tarShort are the short
// options it knows: modes, flags, and the valued ones tarCommand reads
// (f C b T X I s F N L V g H K); -I and -F name a program, -P extracts
// anywhere. tarLong are the long options without an effect of their own
// beyond reading, writing the archive and its members; those that run a
// program, delete, or pick the mode are read by tarCommand itself.
const tarShort = "AcdrtuxfCbTXIsFNLVgHKvzjJZaopPkmOShlnqUwWBGMRi0123456789"

var tarLong = set(`--append --catenate --concatenate --create --delete --diff --compare --extract --get --list
	--test-label --update --file --directory --files-from --exclude --exclude-from --exclude-vcs --exclude-caches
	--exclude-caches-all --exclude-caches-under --exclude-backups --exclude-tag --exclude-tag-all --exclude-tag-under
	--exclude-vcs-ignores --exclude-ignore --exclude-ignore-recursive --anchored --no-anchored --wildcards
	--no-wildcards --wildcards-match-slash --no-wildcards-match-slash --ignore-case --no-ignore-case --null --no-null
	--gzip --gunzip --ungzip --bzip2 --xz --lzma --lzip --lzop --zstd --lz4 --compress --uncompress --auto-compress
	--no-auto-compress --verbose --totals --checkpoint --to-stdout --transform --xform --strip-components
	--keep-old-files --keep-newer-files --skip-old-files --overwrite --overwrite-dir --no-overwrite-dir
	--unlink-first --recursive-unlink --same-permissions --preserve-permissions --no-same-permissions --same-owner
	--no-same-owner --numeric-owner --owner --group --mode --mtime --newer --newer-mtime --after-date --format
	--posix --gnu --ustar --pax-option --sort --dereference --hard-dereference --one-file-system --sparse
	--sparse-version --multi-volume --tape-length --remove-files --blocking-factor --record-size --ignore-zeros
	--ignore-failed-read --label --index-file --no-recursion --recursion --show-transformed-names
	--show-stored-names --show-omitted-dirs --show-defaults --warning --help --version --usage --force-local
	--acls --no-acls --xattrs --no-xattrs --xattrs-include --xattrs-exclude --selinux --no-selinux
	--atime-preserve --touch --delay-directory-restore --no-delay-directory-restore --level --listed-incremental
	--incremental --occurrence --backup --suffix --restrict --verify --block-number --utc --full-time
	--check-links --check-device --no-check-device --seek --no-seek --starting-file --volno-file --interactive
	--confirmation --preserve-order --same-order --keep-directory-symlink --quoting-style --quote-chars
	--no-quote-chars --hole-detection --clamp-mtime --mac-metadata --no-mac-metadata --options --include
	--chroot --fast-read --hfsCompression --nodump --fflags --no-fflags --uid --gid --uname --gname --lrzip
	--lzma --grzip --read-full-records --no-ignore-command-error --ignore-command-error --group-map --owner-map
	--set-mtime-format --no-same-permissions --one-top-level --safe-writes --no-xattrs --older
	--disable-copyfile --no-read-sparse --no-safe-writes --no-seek --passphrase --insecure --newer-than
	--newer-mtime-than --older-than --older-mtime-than --exclude-vcs --zstd --b64encode --uuencode --lzop`)

// tarLongValued are those of tarLong whose value may be the next word.
var tarLongValued = set(`--files-from --exclude --exclude-from --exclude-tag --exclude-tag-all --exclude-tag-under
	--checkpoint --transform --xform --strip-components --owner --group --mode --mtime --newer --newer-mtime
	--after-date --format --pax-option --sort --tape-length --blocking-factor --record-size --label --index-file
	--warning --xattrs-include --xattrs-exclude --level --listed-incremental --occurrence --backup --suffix
	--starting-file --volno-file --quoting-style --quote-chars --no-quote-chars --hole-detection --options
	--include --uid --gid --uname --gname --group-map --owner-map --set-mtime-format --one-top-level
	--newer-than --newer-mtime-than --older-than --older-mtime-than --passphrase --exclude-ignore
	--exclude-ignore-recursive --sparse-version`)

// tarProgram rates a tar option that names a program tar runs: the
// compressor (-I, --use-compress-program), the program every member is
// piped to (--to-command), the script run at each volume (-F,
// --info-script, --new-volume-script), the remote shell (--rsh-command,
// --rmt-command) and --checkpoint-action=exec=COMMAND. What it runs is
// analysed as a command line; a value computed at run time cannot be.
func (c *call) tarProgram(opt string, v word) {
	cmd := v
	if opt == "--checkpoint-action" {
		act, arg, _ := strings.Cut(v.s, "=")
		if act != "exec" {
			return // bell, dot, echo, ttyout, wait, sleep, totals: nothing runs
		}
		cmd = word{s: arg, hole: v.hole, span: v.span}
	}
	if cmd.hole {
		c.add(level.Dangerous, "hidden-code", "tar %s: runs a program computed at run time", opt)
		return
	}
	c.add(level.Caution, "option-command", "tar %s: runs %s", opt, rate.Display(cmd.s))
	c.nestedText(cmd.s, "tar "+opt)
}

// unmodelled rates an option the program's row does not model: by the
// auto-run contract, what it does cannot be told, so it is Dangerous.
func (c *call) unmodelled(opt string) {
	c.add(level.Dangerous, "unmodelled-option", "%s %s: an option Airlock does not model; cannot tell what it does", c.name, rate.Display(opt))
}
