package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Unknown is secret (issue 22): everything hidden in the home — its
// entries starting with ".", and ~/Library's — is hidden from actions
// unless it is on the sanitiser's allow-list of toolchains and harmless
// configuration (sanitize.HiddenAllowed). hiddenEntries lists what to hide
// when a profile is made, whole entries wherever it can: a folder that
// holds an allowed entry (~/.cargo holds ~/.cargo/bin) is opened and its
// other entries hidden one by one, and so on down; everything else is one
// entry, however much it holds. On a developer's Mac that is a hundred or
// two paths, one ReadDir each of the home, ~/Library and the few folders
// opened.

// maxHiddenDepth bounds how deep hiddenEntries opens folders towards a
// seen path; past it the folder is hidden whole.
const maxHiddenDepth = 12

// maxHiddenEntries bounds the list: a home with more hidden entries than
// this (a folder of a hundred thousand dot files) has the rest hidden by
// its folder, which must then be one of the home's hidden folders.
const maxHiddenEntries = 4096

// sharedPrefixes are the folders outside the home whose files every user
// may read: a hidden link into one (~/.nix-profile to /nix/store) leads to
// no secret of the person's, and hiding it would hide the shared file from
// every program of the action.
var sharedPrefixes = []string{"/nix", "/usr", "/opt", "/snap", "/etc", "/System", "/Applications", "/Library"}

// hiddenEntries returns the hidden entries of home to hide: every entry of
// the folders sanitize.HiddenFolders names that is not seen. Seen are the
// allowed entries and the paths in keep (the sandbox roots, the action's
// temporary folder, what an approved action names): those and what lies in
// them are not hidden, and neither is a link that leads into them. fold
// compares names case-insensitively (macOS). What cannot be listed is
// hidden whole; what does not exist needs no hiding.
func hiddenEntries(home string, keep []string, fold bool) []string {
	t := tablesFor(home)
	h := hider{fold: fold, home: home, seen: t.allowed}
	for _, k := range keep {
		h.seen = append(h.seen, filepath.Clean(k))
	}
	for _, f := range t.folders {
		if h.under(f.Path) {
			continue
		}
		entries, err := os.ReadDir(f.Path)
		if err != nil {
			if f.Path != home && !h.holds(f.Path) {
				if _, serr := os.Lstat(f.Path); serr == nil {
					h.out = append(h.out, f.Path)
				}
			}
			continue
		}
		for _, e := range entries {
			if f.DotOnly && !strings.HasPrefix(e.Name(), ".") {
				continue
			}
			h.visit(entryPath(f.Path, e.Name()), e.Type(), 0)
		}
	}
	return h.out
}

// entryPath is filepath.Join(dir, name) for dir absolute and clean and
// name an entry's name as a folder lists it (never empty, ".", ".." or
// holding a "/"), without cleaning again what is clean: a home's hidden
// folders hold a hundred entries or more, each joined for every action.
func entryPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

type hider struct {
	fold bool
	home string
	seen []string
	out  []string
}

// visit hides p, whose type (as a directory entry gives it) is typ, or
// opens it when it holds a seen path.
func (h *hider) visit(p string, typ fs.FileMode, depth int) {
	if len(h.out) >= maxHiddenEntries || h.under(p) {
		return
	}
	open := typ.IsDir()
	if typ&fs.ModeSymlink != 0 {
		// Hiding a link hides what it leads to (a mount follows it; so
		// does Seatbelt, given the resolved path): a link into a seen
		// place or a shared system folder stays.
		t, err := filepath.EvalSymlinks(p)
		if err == nil && (h.under(t) || h.shared(t)) {
			return
		}
		if err == nil {
			if ti, err := os.Stat(t); err == nil {
				open = ti.IsDir()
			}
		}
	}
	if open && h.holds(p) && depth < maxHiddenDepth {
		if entries, err := os.ReadDir(p); err == nil {
			for _, e := range entries {
				h.visit(entryPath(p, e.Name()), e.Type(), depth+1)
			}
			return
		}
	}
	h.out = append(h.out, p)
}

// under reports whether p is a seen path or lies in one.
func (h *hider) under(p string) bool {
	for _, s := range h.seen {
		if h.within(p, s) {
			return true
		}
	}
	return false
}

// holds reports whether a seen path lies strictly inside p.
func (h *hider) holds(p string) bool {
	for _, s := range h.seen {
		if len(s) > len(p) && h.within(s, p) {
			return true
		}
	}
	return false
}

// shared reports whether t, a link's target, lies outside the home in a
// folder every user reads.
func (h *hider) shared(t string) bool {
	if h.within(t, h.home) {
		return false
	}
	for _, s := range sharedPrefixes {
		if h.within(t, s) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or lies in it.
func (h *hider) within(p, dir string) bool {
	if len(p) < len(dir) || dir == "/" {
		return dir == "/"
	}
	head := p[:len(dir)]
	if head != dir && (!h.fold || !strings.EqualFold(head, dir)) {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == '/'
}

// maxReveals bounds the paths Reveals returns.
const maxReveals = 64

// Reveals returns the paths in home that an action's texts name: what an
// approved action may see although it is hidden (Grant.Reveal). A text is
// a command's argument, or a script, in which every quoted string, every
// word and every option value (--config=PATH) that starts with /, ~/,
// $HOME/ or ${HOME}/ is taken for a path ("\ " in a word is a space). It
// errs towards naming more: a path revealed that the action does not use
// reveals only what the person saw named in the action they approved.
// Credential stores and Airlock's own files stay hidden whatever it names
// (Derive).
func Reveals(home string, texts ...string) []string {
	if !filepath.IsAbs(home) {
		return nil
	}
	home = filepath.Clean(home)
	var out []string
	seen := map[string]bool{}
	add := func(c string) {
		c = strings.TrimSpace(c)
		p, err := sanitize.ExpandHome(c, home)
		if err != nil || !filepath.IsAbs(p) || strings.ContainsRune(p, 0) || len(out) >= maxReveals {
			return
		}
		p = filepath.Clean(p)
		if !strings.HasPrefix(p, home+"/") || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	for _, t := range texts {
		add(t)
		qs, rest := quoted(t)
		for _, q := range qs {
			add(q)
		}
		for _, w := range strings.Fields(strings.ReplaceAll(rest, `\ `, "\x00")) {
			w = strings.ReplaceAll(w, "\x00", " ")
			w = strings.Trim(w, "\"'`;,()[]{}|&<>")
			add(w)
			if _, v, ok := strings.Cut(w, "="); ok {
				add(v)
			}
		}
	}
	return out
}

// quoted returns the strings quoted with " or ' in t, and t with them
// blanked out, so that a quoted path with a blank in it is not also taken
// for the words it splits into.
func quoted(t string) (qs []string, rest string) {
	b := []byte(t)
	for i := 0; i < len(b); i++ {
		q := b[i]
		if q != '"' && q != '\'' {
			continue
		}
		j := strings.IndexByte(t[i+1:], q)
		if j < 0 {
			break
		}
		qs = append(qs, t[i+1:i+1+j])
		for k := i; k <= i+1+j; k++ {
			b[k] = ' '
		}
		i += 1 + j
	}
	return qs, string(b)
}
