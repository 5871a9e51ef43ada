package sandbox

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// What Seatbelt refuses an action the person did not approve (Profile.Unasked)
// in the sandbox roots. macOS has no copy-on-write view for the gate to
// review afterwards, so what could not be undone is refused while the action
// runs. How Apple's sandbox checks each file operation, as the kernel's MAC
// hooks (xnu's bsd/vfs) and the sandbox's operation names say, and as
// projects that confine agents with Seatbelt have measured:
//
//   - unlink(2) and rmdir(2) are file-write-unlink on what is removed.
//   - rename(2) is file-write-unlink on its source and file-write-create on
//     the destination's name; when the destination exists it is being
//     replaced, and its vnode is checked as an unlink too (there is no
//     file-write-rename: profiles that name it fail to load). So refusing
//     file-write-unlink in the roots refuses moving or renaming anything
//     there, and renaming anything from anywhere over an existing file
//     there; renamex_np's RENAME_SWAP is a rename of an existing source.
//   - open(2) of an existing file for writing, and truncate(2), are
//     file-write-data on the file. Opening with O_CREAT a name that does not
//     exist is file-write-create only: xnu's vn_open_auth skips the open
//     check of a file it has just created, and Seatbelt does not check
//     write(2) on an open descriptor. So refusing file-write-data in the
//     roots while allowing file-write-create lets an action create new files
//     and write them in the open that creates them, and refuses every
//     change to a file that was there — including one it created itself and
//     opens again (`echo a > f; echo b >> f` fails at the second line),
//     and ftruncate of a new file.
//   - chmod(2) is file-write-mode, chown(2) file-write-owner (and
//     file-write-setugid for the set-id bits), chflags(2) file-write-flags,
//     setxattr(2) and removexattr(2) file-write-xattr (removing
//     com.apple.quarantine from a download is one).
//
// What that leaves, and what it does not hold:
//
//   - A new file may be created with its executable bits already set (the
//     mode argument of open(2) or mkdir(2)): Seatbelt checks the creation,
//     not its mode. What would run it by itself is refused by the planting
//     rules below.
//   - Times (file-write-times) may change: touch of an existing file.
//   - Hard links (link(2) is file-write-create on the new name) may be
//     made in the roots; nothing in them can then be written (the linked
//     file is an existing file).
//   - The rename check on a replaced destination is how reimplementations
//     of Apple's hook and other projects' rules describe it; it is the one
//     claim here no public Apple source states. `airlock doctor` on a Mac
//     tries it (renaming over a file in a folder of its own that it makes a
//     root) and fails if it is not refused.
//
// Planting: writes to the places of the persistence table (code there runs
// later, unasked: git hooks and configuration, shell start-up files,
// .envrc, editor tasks, launchd …) are refused wherever they lie, by one
// regular expression per place, generated from the table.

// unaskedFileOps are the file operations refused in the sandbox roots to
// an unasked action. They are specific operations, not file-write*: in
// SBPL a rule naming a specific operation wins over one naming its
// wildcard whatever their order, so these hold against the roots'
// (allow file-write* …).
var unaskedFileOps = []string{
	"file-write-unlink",  // unlink, rmdir, rename's source and a replaced destination
	"file-write-data",    // opening an existing file for writing, truncate
	"file-write-mode",    // chmod: new executable bits, and any other mode
	"file-write-owner",   // chown
	"file-write-setugid", // set-user-id and set-group-id bits
	"file-write-flags",   // chflags: immutable, hidden …
	"file-write-xattr",   // extended attributes, com.apple.quarantine among them
}

// unaskedRoots are the folders of a profile its unasked rules cover: its
// Write folders but the action's own temporary folder (and what it
// resolves to), where an action may remove and rewrite what it made.
func unaskedRoots(p Profile) []string {
	temps := tempForms(p)
	var out []string
	for _, w := range p.Write {
		if !slices.Contains(temps, w) {
			out = append(out, w)
		}
	}
	return out
}

// tempForms are the action's temporary folder and what it resolves to.
func tempForms(p Profile) []string {
	out := []string{p.TempDir}
	if r, err := filepath.EvalSymlinks(p.TempDir); err == nil && r != p.TempDir {
		out = append(out, r)
	}
	return out
}

// plantingRegexes are the persistence table's places and those of files
// that run code when opened (sanitize.OpenRunnerPlaces) as SBPL regular
// expressions (the text between #" and "), in table order, each matching
// the place wherever it lies (a "~/" entry in any folder: the profile does
// not know which home an action sees, and a superset refuses more, never
// less) and everything under it; then git's markers (gitMarkers) and the
// names of environment files (below), anywhere.
func plantingRegexes() ([]string, error) {
	var out []string
	for _, pl := range append(sanitize.PersistencePlaces(""), sanitize.OpenRunnerPlaces()...) {
		re, err := placeRegex(pl)
		if err != nil {
			return nil, err
		}
		out = append(out, re)
	}
	for _, name := range gitMarkers {
		f, err := foldName(name)
		if err != nil {
			return nil, err
		}
		out = append(out, "/"+f+"(/|$)")
	}
	for _, pat := range rate.EnvironmentFilePatterns() {
		re, err := secretNameRegex(pat)
		if err != nil {
			return nil, err
		}
		out = append(out, "/"+re+"$")
	}
	return out, nil
}

// An environment file (.env, .env.local, prod.env) is loaded into what
// tools run in its folder (bun, pipenv, Next.js, oh-my-zsh's dotenv
// plugin, which sources it): one that sets NODE_OPTIONS or LD_PRELOAD, or
// holds $(…), runs code later. On Linux the review reads what was written
// and holds only those (execute/envfile.go); Seatbelt cannot read what is
// written, so an unasked action may not create one at all, not even a
// template (.env.example): a regular expression has no exception. The
// person approves an action that writes one.

// gitMarkers are the files that make a folder of any name a git folder
// (git's is_git_directory: HEAD, with objects and refs or a commondir), so
// that git run in it or below it runs its config and hooks. On Linux the
// review knows such folders by what they hold (execute/gitdir.go);
// Seatbelt cannot look at a folder's other entries, so an unasked action
// may not create a file of these names anywhere: not in a root, and not in
// its temporary folder to rename the folder into a root afterwards. A
// repository's own HEAD lies in its .git, which the table refuses already.
var gitMarkers = []string{"HEAD", "commondir"}

// placeRegex returns the regular expression of one place: anchored at the
// start of the path when the place starts in a folder, at any element
// otherwise; names compared as a Mac's file system compares them (foldName);
// "*" any one element, "*x" any element ending in x, "x*" any element
// starting with x; then the end of the path or a slash (the place covers
// what lies under it).
func placeRegex(pl sanitize.PersistencePlace) (string, error) {
	var b strings.Builder
	switch pl.Under {
	case "":
		b.WriteString("/")
	case "/":
		b.WriteString("^/")
	default:
		under, err := foldName(strings.TrimPrefix(pl.Under, "/"))
		if err != nil {
			return "", fmt.Errorf("sandbox: the persistence place %s: %w", pl.Entry, err)
		}
		b.WriteString("^/" + under + "/")
	}
	for i, e := range pl.Elems {
		if i > 0 {
			b.WriteByte('/')
		}
		switch {
		case e == "*":
			b.WriteString("[^/]+")
			continue
		case strings.HasPrefix(e, "*"):
			b.WriteString("[^/]*")
			e = e[1:]
		}
		prefix := strings.HasSuffix(e, "*")
		f, err := foldName(strings.TrimSuffix(e, "*"))
		if err != nil {
			return "", fmt.Errorf("sandbox: the persistence place %s: %w", pl.Entry, err)
		}
		b.WriteString(f)
		if prefix {
			b.WriteString("[^/]*")
		}
	}
	b.WriteString("(/|$)")
	return b.String(), nil
}

// foldName returns a regular expression matching name as APFS compares
// names on a default (case-insensitive) volume: each ASCII letter in either
// case, and s and k also as the two other letters that fold to them (ſ,
// U+017F, and the Kelvin sign, U+212A, which is K under normalisation too).
// Regular expression syntax is escaped. A quote or a control character,
// which no place holds, is an error: the text could not carry it.
func foldName(name string) (string, error) {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError || r < 0x20 || r == 0x7f || r == '"':
			return "", fmt.Errorf("the name %q holds a character a profile cannot carry", name)
		case r == 's' || r == 'S':
			b.WriteString("(s|S|\u017f)")
		case r == 'k' || r == 'K':
			b.WriteString("(k|K|\u212a)")
		case 'a' <= r && r <= 'z':
			fmt.Fprintf(&b, "[%c%c]", r, r-'a'+'A')
		case 'A' <= r && r <= 'Z':
			fmt.Fprintf(&b, "[%c%c]", r-'A'+'a', r)
		case strings.ContainsRune(`\.+*?()|[]{}^$#`, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

// unasked writes the rules of an action the person did not approve: no
// file named like a secret read, no launches outside the sandbox, and in
// the sandbox roots nothing removed, replaced, rewritten or planted.
func (sb *sbpl) unasked(p Profile) error {
	// First: its allow of the templates is the profile's last allow, so
	// every deny below holds over it.
	if err := sb.secretNames(); err != nil {
		return err
	}
	sb.line("")
	sb.line("; Not approved: nothing that starts code outside the sandbox (Launch Services' open,")
	sb.line("; launchd jobs, login items). Later rules win: this holds over every allow above.")
	sb.line("(deny lsopen)")
	sb.line("(deny job-creation)")
	sb.names("(deny mach-lookup", launchServices)
	if roots := unaskedRoots(p); len(roots) > 0 {
		sb.line("; Not approved: in the sandbox roots nothing is removed, renamed, replaced or rewritten;")
		sb.line("; new files and folders may be made (seatbelt_unasked.go says what this holds).")
		sb.rule("(deny "+strings.Join(unaskedFileOps, " "), "subpath", "ROOT", roots)
	}
	res, err := plantingRegexes()
	if err != nil {
		return err
	}
	sb.line("; Not approved: nothing is written where code runs later by itself (the persistence")
	sb.line("; table: git hooks and configuration, shell start-up files, .envrc, launchd …), anywhere.")
	sb.b.WriteString("(deny file-write*")
	for _, re := range res {
		fmt.Fprintf(&sb.b, "\n  (regex #\"%s\")", re)
	}
	sb.b.WriteString(")\n")
	return sb.lookedPlants(p.Plants)
}

// Secret files by name. An unasked action reads the whole home but what is
// hidden, and the executor hides the secret files of the roots one by one
// (execute/rootsecrets.go); a project kept elsewhere in the home (~/src)
// has its .env and keys too. Seatbelt filters paths by regular
// expression, so every file named like a secret (rate.SecretFile) is
// refused to an unasked action wherever it lies: in the roots, the home,
// its temporary folder (a .env it wrote itself is refused as well) and
// anywhere else. file-read* takes in reading its data, its metadata
// (stat) and its extended attributes; mapping it (file-map-executable)
// needs a descriptor opened for reading first, which file-read-data
// refuses. A folder named like a secret file (a folder credentials) is
// refused too: its listing, not what lies in it (a regular expression
// cannot tell a folder from a file).
//
// A secret file's copies in git's history have no such name: the executor
// hides the object store of each repository whose trees name one
// (execute/gitstore.go), a folder among Grant.Secrets, which the hidden
// paths' deny refuses whole, after the templates' allow
// (TestSeatbeltHidesObjectStores); and each file holding such a history
// outside a store, a bundle or a pack (execute/gitbundle.go), a file among
// them.
//
// The regular expressions keep to what Go's regexp and Seatbelt's both
// read, the planting rules' dialect: literal characters, "\." escapes,
// bracket classes ([kK], [^/]), groups with "|", "+", "^" and "$"; no
// repetition counts, no classes such as \d, no flags. The templates the
// table excepts (.env.example) are allowed again by a later rule: there is
// no "not" in that dialect. That allow only undoes the deny before it: it
// comes before the hidden paths' deny, and the profiles deny no other
// reads before it (TestSeatbeltSecretNamesLast).

// secretNameRegexes returns the secret file table's names (rate.SecretFilePatterns)
// as regular expressions of a path's last element, names compared as APFS
// compares them (foldName), and its exceptions, compared as SecretFile
// compares them (lower case, the Kelvin sign a k).
//
// A name is also refused as a copy or backup of a secret file's
// (rate.OriginalName): "Copy of " before it, a copy's mark before its
// extension ("key copy.pem"), and backups' ends and copies' marks after
// it (".env~", "server.key.bak", ".env copy 2", "id_rsa (1)", ".env.~1~",
// Vim's ".env.swp"), and one dot before it (Vim's swap file .id_rsa.swp);
// Emacs's lock ".#" before it and its auto-save file's "#" around it
// (".#.env", "#.env#").
func secretNameRegexes() (deny, allow []string, err error) {
	pats, exc := rate.SecretFilePatterns()
	twin, err := twinRegexes()
	if err != nil {
		return nil, nil, err
	}
	for _, pat := range pats {
		re, err := secretNameRegex(pat)
		if err != nil {
			return nil, nil, err
		}
		// A copy's mark before the name's last ".": one in the pattern's
		// literal end ("key copy.pem"), or in its literal start when what
		// "*" stands for holds none (".env copy.local"); elsewhere "*"
		// takes the mark in.
		pre, suf, star := strings.Cut(pat, "*")
		tail := pat
		if star {
			tail = suf
		}
		if i := strings.LastIndexByte(tail, '.'); i > 0 {
			stem, err := secretNameRegex(pat[:len(pat)-len(tail)+i])
			if err != nil {
				return nil, nil, err
			}
			ext, err := foldName(tail[i:])
			if err != nil {
				return nil, nil, err
			}
			re = "(" + re + "|" + stem + "(" + twin.mark + ")+" + ext + ")"
		} else if j := strings.LastIndexByte(pre, '.'); star && i < 0 && j > 0 {
			stem, err := foldName(pre[:j])
			if err != nil {
				return nil, nil, err
			}
			rest, err := foldName(pre[j:])
			if err != nil {
				return nil, nil, err
			}
			end, err := foldName(suf)
			if err != nil {
				return nil, nil, err
			}
			re = "(" + re + "|" + stem + "(" + twin.mark + ")+" + rest + "[^/.]+" + end + ")"
		}
		// Its copies and backups, one dot or Emacs's lock (.#) before it,
		// or Emacs's auto-save marks around it (#.env#: rate.OriginalName).
		named := "(" + twin.copyOf + ")*" + re + "(" + twin.end + ")*"
		deny = append(deny, `/((\.|\.#)?`+named+"|#"+named+"#)$")
	}

	for _, name := range exc {
		var b strings.Builder
		for _, r := range name {
			switch {
			case r == 'k':
				b.WriteString("(k|K|\u212a)")
			case 'a' <= r && r <= 'z':
				fmt.Fprintf(&b, "[%c%c]", r, r-'a'+'A')
			case r == '.':
				b.WriteString("\\.")
			case r == '_' || r == '-' || '0' <= r && r <= '9':
				b.WriteRune(r)
			default:
				return nil, nil, fmt.Errorf("sandbox: the secret file table's exception %q holds %q, which secretNameRegexes does not fold", name, r)
			}
		}
		allow = append(allow, "/"+b.String()+"$")
	}
	return deny, allow, nil
}

// secretFolderRegexes returns the folders whose every file is a secret
// (rate.SecretFolderPatterns), and the home's hidden credential stores as
// they lie in a copy of a home (rate.CopiedStorePatterns), as regular
// expressions of such a folder and all below it.
func secretFolderRegexes() ([]string, error) {
	folders, _ := rate.SecretFolderPatterns()
	var out []string
	for _, pat := range folders {
		re, err := secretNameRegex(pat)
		if err != nil {
			return nil, err
		}
		out = append(out, "/"+re+"(/|$)")
	}
	// A home's credential stores copied below another folder
	// (rate.CopiedStore): the ones of hidden entries (~/.kube,
	// ~/.config/gh), which no system folder holds. The ones of ~/Library
	// are left to the executor's walk of the roots: the system's own
	// /System/Library/Keychains would match them.
	for _, store := range rate.CopiedStorePatterns() {
		if !strings.HasPrefix(store, ".") {
			continue
		}
		re, err := foldName(store)
		if err != nil {
			return nil, err
		}
		out = append(out, "/"+re+"(/|$)")
	}
	return out, nil
}

// secretNameRegex is one name of the secret tables (a whole name, or a
// prefix and a suffix around "*") as a regular expression of one path
// element, names compared as APFS compares them.
// twinRegexes are the parts of secretNameRegexes' expressions that make a
// name a copy's or a backup's (rate.OriginalName's forms).
type twinParts struct{ copyOf, mark, end string }

func twinRegexes() (twinParts, error) {
	var t twinParts
	var err error
	if t.copyOf, err = foldName(rate.CopyOfPrefix); err != nil {
		return t, err
	}
	marks := []string{}
	for _, m := range rate.CopyMarks {
		re, err := foldName(m)
		if err != nil {
			return t, err
		}
		if m == " copy" {
			re += "( [0-9]+)?"
		}
		marks = append(marks, re)
	}
	t.mark = strings.Join(append(marks, ` \([0-9]+\)`), "|")
	ends := []string{`\.[0-9]+`, `\.~[0-9]+~`, t.mark} // .1, a numbered backup's .~1~ (rate.NumberedBackup)
	for _, e := range rate.BackupEnds {
		re, err := foldName(e)
		if err != nil {
			return t, err
		}
		ends = append(ends, re)
	}
	t.end = strings.Join(ends, "|")
	return t, nil
}

func secretNameRegex(pat string) (string, error) {
	pre, suf, star := strings.Cut(pat, "*")
	re, err := foldName(pre)
	if err != nil {
		return "", fmt.Errorf("sandbox: the secret file name %s: %w", pat, err)
	}
	if star {
		s, err := foldName(suf)
		if err != nil {
			return "", fmt.Errorf("sandbox: the secret file name %s: %w", pat, err)
		}
		re += "[^/]+" + s
	}
	return re, nil
}

// secretNames writes the rules of secretNameRegexes.
func (sb *sbpl) secretNames() error {
	deny, allow, err := secretNameRegexes()
	if err != nil {
		return err
	}
	sb.line("")
	sb.line("; Not approved: no file named like a secret (.env, keys, credentials), anywhere; but the")
	sb.line("; templates of environment files (.env.example). seatbelt_unasked.go says what this holds.")
	folders, err := secretFolderRegexes()
	if err != nil {
		return err
	}
	// The templates' allow, then the roots' Keynote decks, each by its
	// literal path (what the names' deny refused of a *.key the walk found
	// no key in); the folders' deny comes after both, which must not undo
	// it (a .env.d holds no template, and no deck).
	for _, rule := range []struct {
		head  string
		res   []string
		decks bool
	}{{"(deny file-read*", deny, false}, {"(allow file-read*", allow, true}, {"(deny file-read*", folders, false}} {
		sb.b.WriteString(rule.head)
		for _, re := range rule.res {
			fmt.Fprintf(&sb.b, "\n  (regex #\"%s\")", re)
		}
		sb.b.WriteString(")\n")
		if rule.decks && len(sb.decks) > 0 {
			sb.line("; Not approved: but the Keynote decks of the roots, named *.key as keys are.")
			sb.rule("(allow file-read*", "literal", "DECK", sb.decks)
		}
	}
	return nil
}
