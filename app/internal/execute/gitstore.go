package execute

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A secret file the person once committed (.env, a key), then untracked
// and ignored, is hidden from an unasked action by its name
// (rootsecrets.go), but its content is still in the repository's object
// store: git log -p, git show, git cat-file --batch-all-objects, or python
// inflating .git/objects by hand print it, and the redactor does not know
// a bare password. So the executor looks through the object store of
// every repository it finds in the roots and the home (a folder holding
// HEAD and objects, or a commondir; a .git file or link naming one) for a
// tree that names a file rate.SecretFile knows, in any object, loose or
// packed, reachable or not (git cat-file --batch-all-objects prints
// dangling ones too), and an unasked action does not see the object store
// of one that holds such a tree, nor the stores its
// objects/info/alternates lead to (the secret's content may lie there).
// The action's result says so (storesNote). A repository whose history
// never named a secret file is untouched: git log -p, git status and git
// diff work there unasked.
//
// Anything that cannot be read as git writes it, or is past the bounds
// (gitpack.go), counts as a secret found: such a store is hidden too.
//
// Reading every tree is costly on a large repository (a second for a few
// hundred thousand objects), so what each part of a store holds (each
// pack, each loose folder objects/xx) is kept across actions, keyed by
// what changes when objects are added:
//   - a pack, by its and its index's size, inode, modification and change
//     times: git writes a pack once, under a temporary name, and renames
//     it into place; one rewritten in place (which git never does) changes
//     its change time, which no one can set back;
//   - a loose folder, by its stamp (folderStamp): a new object is a new
//     name in it (git writes it under a temporary name and renames or
//     links it), which changes the folder's times; a folder listed within
//     racyWindow of its last change is read again next time, as the
//     roots' index does. An object rewritten in place under its own name
//     (not something git does) is not seen.
//
// and the entries of objects/ and objects/pack/ are listed at every start,
// so a new loose folder or pack is read before the action starts.

// maxStores bounds the object stores looked through at one action's start;
// the stores past it are hidden unread.
const maxStores = 256

// maxAlternateDepth is how deep git follows objects/info/alternates
// (sha1-file.c: link_alt_odb_entry refuses deeper).
const maxAlternateDepth = 5

// maxGitFile bounds what is read of a .git file, a commondir or an
// alternates file.
const maxGitFile = 64 << 10

// storeTime bounds the time one action's start spends reading object
// stores; what it has not read by then counts as holding a secret (and is
// read on at the next start, what it read being kept).
const storeTime = 2 * time.Second

// gitStores is the executor's memory of what the parts of the object
// stores hold.
type gitStores struct {
	mu    sync.Mutex
	parts map[string]storePart // by path: a .pack, or a loose folder
	now   func() time.Time     // nil means time.Now
	// time is the bound of one start, 0 meaning storeTime (tests).
	time time.Duration
	// bytes bounds the bytes inflated in one part, 0 meaning maxStoreBytes (tests).
	bytes int64
	used  map[string]bool // the parts looked at during one hide
}

// storePart is what one part of a store held when it was last read.
type storePart struct {
	stamp  partStamp // what says it changed
	racy   bool      // read too soon after its last change: read it again
	secret string    // the secret-named file a tree in it names, "" for none
	err    error     // why it could not be read: taken for a secret found
}

// hiddenStore is an object store an unasked action does not see, and why.
type hiddenStore struct {
	objects string   // the objects folder, resolved
	repos   []string // the repositories it was found through
	secret  string   // the secret-named file its history names
	why     string   // or why it could not be read through
	// borrower, when set, is the store whose alternates lead here and
	// whose history names the secret: its blobs may lie here.
	borrower string
	// file says objects is a file holding git's objects outside a store,
	// a bundle or a pack (gitbundle.go), hidden itself.
	file bool
}

// gitFinds are what the walks found of git's: repositories (git folders,
// .git files or links, object stores) and files holding git's objects
// outside a store (bundles, packs: gitbundle.go). Absolute.
type gitFinds struct {
	repos, data []string
}

// add appends what the indexed folder dir holds of git's to g.
func (g *gitFinds) add(dir string, f *indexedFolder) {
	g.repos = append(g.repos, gitFound(dir, f)...)
	for _, d := range f.data {
		g.data = append(g.data, filepath.Join(dir, d))
	}
}

// join appends what o found to g.
func (g *gitFinds) join(o gitFinds) {
	g.repos = append(g.repos, o.repos...)
	g.data = append(g.data, o.data...)
}

// hide returns the object stores of the repositories found (git folders
// and .git files or links, absolute) that an unasked action must not see:
// those whose trees name a secret file or that cannot be read through,
// and the stores their alternates lead to, however deep git goes; and
// likewise the files found holding git's objects outside a store.
func (s *gitStores) hide(found gitFinds) []hiddenStore {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parts == nil {
		s.parts = map[string]storePart{}
	}
	budget := s.time
	if budget == 0 {
		budget = storeTime
	}
	deadline := time.Now().Add(budget)
	// The stores, and the alternates of each: found first, then read.
	stores := map[string]*hiddenStore{}
	var order []string
	alts := map[string][]string{}
	type queued struct {
		objects, repo string
		depth         int
	}
	var queue []queued
	for _, f := range found.repos {
		for _, o := range storesOf(f) {
			queue = append(queue, queued{o, repoName(f), 0})
		}
	}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if h, ok := stores[q.objects]; ok {
			if !slices.Contains(h.repos, q.repo) {
				h.repos = append(h.repos, q.repo)
			}
			continue
		}
		h := &hiddenStore{objects: q.objects, repos: []string{q.repo}}
		stores[q.objects] = h
		order = append(order, q.objects)
		if len(order) > maxStores {
			h.why = fmt.Sprintf("more than %d object stores are found", maxStores)
			continue
		}
		h.secret, h.why = s.check(q.objects, deadline, used(s))
		a, err := alternates(q.objects)
		if err != nil && h.secret == "" && h.why == "" {
			h.why = err.Error()
		}
		if q.depth < maxAlternateDepth {
			alts[q.objects] = a
			for _, o := range a {
				queue = append(queue, queued{o, q.repo, q.depth + 1})
			}
		}
	}
	files := 0
	for _, d := range found.data {
		if _, ok := stores[d]; ok {
			continue
		}
		h := &hiddenStore{objects: d, repos: []string{d}, file: true}
		stores[d] = h
		order = append(order, d)
		if files++; files > maxStores {
			h.why = fmt.Sprintf("more than %d files holding git's objects are found", maxStores)
			continue
		}
		part := s.part(d, deadline, used(s), readGitData)
		h.secret, h.why = part.secret, errText(part.err)
	}
	// What a hidden store borrows is hidden with it.
	var spread func(from *hiddenStore, objects string, depth int)
	spread = func(from *hiddenStore, objects string, depth int) {
		for _, o := range alts[objects] {
			h := stores[o]
			if h.secret != "" || h.why != "" || h.borrower != "" || depth > maxAlternateDepth {
				continue
			}
			h.borrower, h.secret, h.why = from.objects, from.secret, from.why
			spread(from, o, depth+1)
		}
	}
	for _, o := range order {
		if h := stores[o]; h.borrower == "" && (h.secret != "" || h.why != "") {
			spread(h, o, 1)
		}
	}
	var out []hiddenStore
	for _, o := range order {
		if h := stores[o]; h.secret != "" || h.why != "" {
			out = append(out, *h)
		}
	}
	for p := range s.parts {
		if !s.used[p] {
			delete(s.parts, p) // its store is gone, or not found this time
		}
	}
	s.used = nil
	return out
}

// used returns the set of the parts read or kept at this start, made
// once per hide.
func used(s *gitStores) map[string]bool {
	if s.used == nil {
		s.used = map[string]bool{}
	}
	return s.used
}

// storesOf returns the object stores of a repository found: a git folder
// (its objects, and its commondir's), a .git file or link naming one, or
// an object store itself (a folder objects). Resolved; those that do not
// exist are left out.
func storesOf(found string) []string {
	if filepath.Base(found) == "objects" {
		if r, err := filepath.EvalSymlinks(found); err == nil {
			return []string{r}
		}
		return nil
	}
	dir := found
	if fi, err := os.Stat(found); err == nil && fi.Mode().IsRegular() {
		text, err := readSmall(found)
		rest, ok := strings.CutPrefix(strings.TrimSpace(text), "gitdir:")
		if err != nil || !ok {
			return nil // git takes it for no repository either
		}
		dir = strings.TrimSpace(rest)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(found), dir)
		}
	}
	var out []string
	add := func(p string) {
		if r, err := filepath.EvalSymlinks(p); err == nil && !slices.Contains(out, r) {
			if fi, err := os.Stat(r); err == nil && fi.IsDir() {
				out = append(out, r)
			}
		}
	}
	add(filepath.Join(dir, "objects"))
	if text, err := readSmall(filepath.Join(dir, "commondir")); err == nil {
		common := strings.TrimSpace(text)
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		add(filepath.Join(common, "objects"))
	}
	return out
}

// repoName is how the person knows the repository found: the work tree a
// .git lies in, or the git folder itself (that of an object store found
// alone).
func repoName(found string) string {
	switch filepath.Base(found) {
	case ".git":
		return filepath.Dir(found)
	case "objects":
		return repoName(filepath.Dir(found))
	}
	return found
}

// readSmall reads a small file, following links: at most maxGitFile bytes.
func readSmall(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxGitFile {
		return "", fmt.Errorf("%s is over %d bytes", p, maxGitFile)
	}
	return string(b), nil
}

// alternates returns the object stores objects/info/alternates names,
// resolved, those that exist. A quoted line (git unquotes it) is an error.
func alternates(objects string) ([]string, error) {
	text, err := readSmall(filepath.Join(objects, "info", "alternates"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("its alternates cannot be read: %v", err)
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, `"`):
			return nil, errors.New("its alternates name a store in quotes, which Airlock does not read")
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(objects, line)
		}
		if r, err := filepath.EvalSymlinks(line); err == nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// check reads the parts of the object store objects that changed since
// they were last read and returns the secret-named file a tree in it
// names, or why it could not be read through; "", "" when it holds none.
// used collects the parts' paths.
func (s *gitStores) check(objects string, deadline time.Time, used map[string]bool) (secret, why string) {
	entries, err := os.ReadDir(objects)
	if err != nil {
		return "", fmt.Sprintf("its objects cannot be listed: %v", err)
	}
	for _, e := range entries {
		p := filepath.Join(objects, e.Name())
		var part storePart
		switch name := e.Name(); {
		case name == "info" || name == ".DS_Store":
			continue // what git knows of the store, and Finder's notes: no object
		case name == "pack" && e.IsDir():
			secret, why := s.packs(p, deadline, used)
			if secret != "" || why != "" {
				return secret, why
			}
			continue
		case len(name) == 2 && isHex(name) && e.IsDir():
			part = s.part(p, deadline, used, readLooseFolder)
		default:
			return "", fmt.Sprintf("it holds %s, which git does not write there", name)
		}
		if part.secret != "" || part.err != nil {
			return part.secret, errText(part.err)
		}
	}
	return "", ""
}

// packs reads the packs of the folder objects/pack.
func (s *gitStores) packs(dir string, deadline time.Time, used map[string]bool) (secret, why string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Sprintf("its packs cannot be listed: %v", err)
	}
	for _, e := range entries {
		name := e.Name()
		base, ext, _ := strings.Cut(name, ".")
		switch {
		case strings.HasPrefix(name, "pack-") && ext == "pack":
			part := s.part(filepath.Join(dir, name), deadline, used, readPack)
			if part.secret != "" || part.err != nil {
				return part.secret, errText(part.err)
			}
		case strings.HasPrefix(name, "pack-") && slices.Contains([]string{"idx", "rev", "bitmap", "keep", "promisor", "mtimes"}, ext),
			strings.HasPrefix(base, "multi-pack-index"), name == ".DS_Store":
			// what git knows of a pack, and Finder's notes: no object's content
		default:
			return "", fmt.Sprintf("its packs hold %s, which Airlock cannot vouch for (a pack being received?)", name)
		}
	}
	return "", ""
}

// errText is err's text, "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// isHex reports whether s is lower-case hex.
func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// part returns what the part p holds: as kept, when its stamp says it has
// not changed, or read again with read. A part read past the deadline is
// not kept.
func (s *gitStores) part(p string, deadline time.Time, used map[string]bool, read func(string, *storeBudget) (string, error)) storePart {
	used[p] = true
	stamp, stamped, racy := s.partStamp(p)
	if old, ok := s.parts[p]; ok && stamped && old.stamp == stamp && !old.racy {
		return old
	}
	budget := partBudget(deadline)
	if s.bytes != 0 {
		budget.bytes, budget.most = s.bytes, s.bytes
	}
	secret, err := read(p, budget)
	part := storePart{stamp: stamp, racy: racy || !stamped, secret: secret, err: err}
	if err != nil {
		part.err = fmt.Errorf("%s: %w", p, err)
	}
	if !errors.Is(err, errStoreTime) {
		s.parts[p] = part
	}
	return part
}

// partStamp is what says a part changed: a loose folder's stamp, or a
// pack's and its index's, with their sizes.
type partStamp [2]struct {
	folderStamp
	size int64
}

// partStamp returns the stamp of the part p; false when it cannot be
// looked at (then it is read every time). racy says a change was too
// recent for the stamp to be trusted next time. A pack without its index
// (being written, or one kept outside a store) has a zero stamp for it:
// the index, once made, changes the stamp.
func (s *gitStores) partStamp(p string) (stamp partStamp, ok, racy bool) {
	now := time.Now
	if s.now != nil {
		now = s.now
	}
	t := now()
	files := []string{p}
	if strings.HasSuffix(p, ".pack") {
		files = append(files, strings.TrimSuffix(p, ".pack")+".idx")
	}
	for i, f := range files {
		var st unix.Stat_t
		if err := unix.Lstat(f, &st); err != nil {
			if i == 1 && errors.Is(err, unix.ENOENT) {
				continue
			}
			return stamp, false, false
		}
		fs := stampOf(&st)
		racy = racy || t.Sub(fs.mtime) < racyWindow || t.Sub(fs.ctime) < racyWindow
		stamp[i].folderStamp, stamp[i].size = fs, st.Size
	}
	return stamp, true, racy
}

// readLooseFolder reads the loose objects of the folder objects/xx and
// returns the secret-named file one of its trees names.
func readLooseFolder(dir string, budget *storeBudget) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var z inflater
	names := nameMemo{}
	for _, e := range entries {
		name := e.Name()
		idSize := (len(name) + 2) / 2
		if !isHex(name) || (idSize != gitSHA1.size && idSize != gitSHA256.size) || !e.Type().IsRegular() {
			return "", fmt.Errorf("it holds %s, which is no loose object", name)
		}
		if err := budget.spend(1, 0); err != nil {
			return "", err
		}
		secret, err := looseSecret(filepath.Join(dir, name), idSize, budget, &z, names)
		if secret != "" || err != nil {
			return secret, err
		}
	}
	return "", nil
}

// looseSecret reads one loose object: only its header, unless it is a
// tree, which is read whole (at most maxTreeObject bytes) for a
// secret-named file, with the reader z and the names met in names.
func looseSecret(p string, idSize int, budget *storeBudget, z *inflater, names nameMemo) (string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	br, err := z.open(f)
	if err != nil {
		return "", err
	}
	kind, size, err := readObjectHeader(br)
	if err != nil || kind != "tree" {
		return "", err
	}
	if size > maxTreeObject {
		return "", fmt.Errorf("%w: a tree of %d bytes, over the %d read", errStoreBounds, size, maxTreeObject)
	}
	if err := budget.spend(0, size); err != nil {
		return "", err
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(br, body); err != nil {
		return "", fmt.Errorf("%w: its content ends before the %d bytes its header says", errGitObject, size)
	}
	return names.inTree(body, idSize)
}

// readPack reads the pack p with its index beside it and returns the
// secret-named file one of its trees names.
func readPack(p string, budget *storeBudget) (string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	idx, err := os.OpenFile(strings.TrimSuffix(p, ".pack")+".idx", os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return "", fmt.Errorf("its index: %w", err)
	}
	defer idx.Close()
	ii, err := idx.Stat()
	if err != nil {
		return "", err
	}
	// An index is 28 bytes an object and more: its size bounds the
	// objects before it is read.
	if ii.Size() > int64(maxStoreItems)*48+4096 {
		return "", fmt.Errorf("%w: an index of %d bytes", errStoreBounds, ii.Size())
	}
	b, err := io.ReadAll(io.LimitReader(idx, ii.Size()+1))
	if err != nil {
		return "", err
	}
	var last error
	for _, idSize := range []int{gitSHA1.size, gitSHA256.size} {
		if fi.Size() < 12+int64(idSize) {
			continue
		}
		x, err := parsePackIndex(b, idSize, fi.Size(), budget)
		if err != nil {
			last = err
			continue
		}
		return secretInPack(f, fi.Size(), x, budget)
	}
	if last == nil {
		last = fmt.Errorf("%w: a pack of %d bytes", errGitObject, fi.Size())
	}
	return "", last
}

// maxNoted bounds the repositories a result names one by one.
const maxNoted = 3

// storesNote is what an unasked action's result says of the object stores
// it did not see: a line for each of the repository it ran in (dir), and
// one naming the others.
func (e *Executor) storesNote(hidden []hiddenStore, dir string) string {
	var lines, others []string
	for _, h := range hidden {
		here := ""
		for _, r := range h.repos {
			if dir == r || inside(dir, r) || (h.file && inside(r, dir)) {
				here = r
			}
		}
		if here == "" {
			if len(others) < maxNoted {
				others = append(others, e.short(h.repos[0]))
			}
			continue
		}
		why := "its history holds a file named " + h.secret
		if h.file {
			if h.secret == "" {
				why = "Airlock could not read it through to tell whether the history it holds names a secret file (" + h.why + ")"
			}
			lines = append(lines, fmt.Sprintf("Airlock hid %s, a file holding git's objects (a bundle or a pack), from this command: %s; approve the command to run it with it.",
				e.short(h.objects), why))
			continue
		}
		switch {
		case h.borrower != "" && h.secret != "":
			why = "it lends its objects to " + e.short(h.borrower) + ", whose history holds a file named " + h.secret
		case h.secret == "":
			why = "Airlock could not read it through to tell whether its history holds a secret file (" + h.why + ")"
		}
		lines = append(lines, fmt.Sprintf("Airlock hid git's objects of %s (%s) from this command: %s; approve the command to run it with them.",
			e.short(here), e.short(h.objects), why))
	}
	if n := len(hidden) - len(lines); n > 0 {
		more := ""
		if n > len(others) {
			more = fmt.Sprintf(" and %d more", n-len(others))
		}
		lines = append(lines, fmt.Sprintf("Airlock also hid from it git's objects of %s%s, whose history holds secret files; approving the command runs it with them.",
			strings.Join(others, ", "), more))
	}
	return strings.Join(lines, "\n")
}
