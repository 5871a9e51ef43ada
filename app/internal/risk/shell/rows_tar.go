package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
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
		c.add(effect.Of(effect.RunUnseen), "hidden-code", "tar %s: runs a program computed at run time", opt)
		return
	}
	c.add(effect.Of(effect.Run).On(cmd.s), "option-command", "tar %s: runs %s", opt, rate.Display(cmd.s))
	c.nestedText(cmd.s, "tar "+opt)
}

// unmodelled rates an option the program's row does not model: by the
// auto-run contract, what it does cannot be told, so it is Dangerous.
func (c *call) unmodelled(opt string) {
	c.add(effect.Of(effect.Unknown).On(opt), "unmodelled-option", "%s %s: an option Airlock does not model; cannot tell what it does", c.name, rate.Display(opt))
}

// tarCommand rates tar: extracting writes into -C DIR (or the working
// directory), with what the archive holds unseen; creating writes the
// archive.
func tarCommand(c *call) {
	c.add(effect.Of(effect.Create), "tar", "tar: archives or extracts files")
	t := &tarArgs{c: c, args: c.args}
	// The first word may be a bundle without a dash: tar xzf a.tgz
	if len(t.args) > 0 && !t.args[0].hole && !strings.HasPrefix(t.args[0].s, "-") {
		t.i = 1
		t.bundle(t.args[0].s)
	}
	for t.i < len(t.args) {
		w := t.args[t.i]
		t.i++
		switch s := w.s; {
		case w.hole && !strings.HasPrefix(s, "-") || !strings.HasPrefix(s, "-") || s == "-":
			t.operand(w)
		case strings.HasPrefix(s, "--"):
			t.long(w)
		default:
			t.short(w)
		}
	}
	if t.mode == 'x' && !t.stdout {
		c.extracts(c.name+" -x", t.dir, t.hasDir, t.renames)
	}
	if t.unseen != "" && (t.mode == 'c' || t.mode == 'r' || t.mode == 'u') {
		// What goes into the archive, a scratch one included, is read
		// where no word names it: a secret among it is printed by the
		// next action that lists or extracts the archive.
		c.unmodelled(t.unseen + " (the files archived are not the ones named)")
	}
	c.tarEffects(t.mode, t.archive, t.dir, t.hasArchive, t.hasDir, t.files)
}

// tarValued are tar's short options that take a value.
const tarValued = "fCbTXIsFNLVgHK"

// tarArgs is tar's arguments as tarCommand reads them.
type tarArgs struct {
	c                  *call
	args               []word
	i                  int
	mode               byte // x, c, r, u or t
	archive, dir       word
	hasArchive, hasDir bool
	files, renames     []word // operands; member-renaming rules (--transform, -s)
	stdout             bool   // -O: members to standard output
	// unseen is an option that makes a new archive hold files the words
	// do not name: -T and --files-from (a list read at run time), -h,
	// --dereference and bsdtar's -L and -H (what links point to,
	// ~/Documents/keys → ~/.ssh).
	unseen string
}

// note records the letter l of a short option bundle: -T, -h, -L, -H.
func (t *tarArgs) note(l byte) {
	if strings.IndexByte("ThLH", l) >= 0 && t.unseen == "" {
		t.unseen = "-" + string(l)
	}
}

func (t *tarArgs) setMode(l byte) {
	switch l {
	case 'x', 'c', 'r', 'u':
		t.mode = l
	case 't':
		if t.mode == 0 {
			t.mode = l
		}
	}
}

// take returns the next argument, as an option's value.
func (t *tarArgs) take() (word, bool) {
	if t.i < len(t.args) {
		t.i++
		return t.args[t.i-1], true
	}
	return word{}, false
}

// assign records a valued option's value.
func (t *tarArgs) assign(l byte, v word) {
	switch l {
	case 'f':
		t.archive, t.hasArchive = v, true
	case 'C':
		t.dir, t.hasDir = v, true
	case 's':
		t.renames = append(t.renames, v) // bsdtar's -s /old/new/
	case 'I', 'F':
		t.c.tarProgram("-"+string(l), v)
	}
}

// bundle reads the first word's letters (tar xzf a.tgz): their values
// follow in order.
func (t *tarArgs) bundle(letters string) {
	for _, l := range []byte(letters) {
		t.setMode(l)
		t.note(l)
		t.stdout = t.stdout || l == 'O'
		if strings.IndexByte(tarShort, l) < 0 {
			t.c.unmodelled(string(l))
		}
		if strings.IndexByte(tarValued, l) >= 0 {
			if v, ok := t.take(); ok {
				t.assign(l, v)
			}
		}
	}
}

// operand records a file operand, read relative to the -C folder given
// before it.
func (t *tarArgs) operand(w word) {
	s := w.s
	if t.hasDir && !w.hole && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") {
		if d, ok := t.c.a.pathOf(t.dir); ok && (strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~")) {
			if j := joinPath(d, s); j != "" {
				w.s = j
			}
		}
	}
	t.files = append(t.files, w)
}

// long reads a long option.
func (t *tarArgs) long(w word) {
	c := t.c
	name, val, has := strings.Cut(w.s, "=")
	v := word{s: val, hole: w.hole, span: w.span}
	value := func() bool {
		if !has {
			v, has = t.take()
		}
		return has
	}
	switch name {
	case "--remove-files":
		c.add(effect.Of(effect.Remove), "tar-remove", "tar --remove-files: deletes the files it archives")
	case "--extract", "--get":
		t.mode = 'x'
	case "--create":
		t.mode = 'c'
	case "--append":
		t.mode = 'r'
	case "--update":
		t.mode = 'u'
	case "--list":
		t.setMode('t')
	case "--absolute-names":
		c.add(effect.Of(effect.Overwrite), "tar-absolute", "tar --absolute-names: extracts to the absolute paths the archive names, anywhere on the disk")
	case "--to-command", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command", "--checkpoint-action":
		if value() {
			c.tarProgram(name, v)
		}
	case "--transform", "--xform":
		if value() {
			t.renames = append(t.renames, v)
		}
	case "--to-stdout":
		t.stdout = true
	case "--dereference":
		if t.unseen == "" {
			t.unseen = name
		}
	case "--file", "--directory", "--files-from", "--exclude-from", "--exclude":
		if name == "--files-from" && t.unseen == "" {
			t.unseen = name
		}
		if !value() {
			return
		}
		if name == "--file" {
			t.assign('f', v)
		} else if name == "--directory" {
			t.assign('C', v)
		}
	default:
		if !tarLong[name] {
			c.unmodelled(name)
		} else if tarLongValued[name] && !has {
			t.take()
		}
	}
}

// short reads a word of short options (-xzf a.tgz, -C dir, -Cdir).
func (t *tarArgs) short(w word) {
	letters := w.s[1:]
	for j := 0; j < len(letters); j++ {
		l := letters[j]
		t.setMode(l)
		t.note(l)
		switch {
		case l == 'O':
			t.stdout = true
		case l == 'P':
			t.c.add(effect.Of(effect.Overwrite), "tar-absolute", "tar -P: extracts to the absolute paths the archive names, anywhere on the disk")
		case strings.IndexByte(tarShort, l) < 0:
			t.c.unmodelled("-" + string(l))
		}
		if strings.IndexByte(tarValued, l) < 0 {
			continue
		}
		v := word{s: letters[j+1:], span: w.span}
		if v.s == "" {
			var ok bool
			if v, ok = t.take(); !ok {
				return
			}
		}
		t.assign(l, v)
		return
	}
}
