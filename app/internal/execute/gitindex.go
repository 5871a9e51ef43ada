package execute

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Git's index (.git/index) is the list of files the next commit holds,
// each with the id of its content; git restore, git checkout -- and git
// stash write those contents into the work tree. It is git data, but an
// action that puts an entry there whose content is not the work tree's
// plants that content past the review. The reader here takes it as
// untrusted bytes (read-cache.c's format, versions 2 to 4): every length is
// checked against what is left, the entries are bounded and must be in
// git's order, and the trailing checksum must hold. What it does not
// understand and that changes what the entries mean (a split index's
// "link", a sparse index's "sdir", a required extension of another name)
// is an error: the change is held.

// Bounds of an index read.
const (
	maxIndexBytes   = 512 << 20
	maxIndexEntries = 4_000_000
)

// errGitIndex is wrapped by the error of an index Airlock cannot read as
// git wrote it.
var errGitIndex = errors.New("not a git index Airlock can read")

// Index entry flags (read-cache.c, cache.h).
const (
	ceExtended     = 0x4000 // 16-bit flags: 16 more follow (version 3 on)
	ceNameMask     = 0x0fff // 16-bit flags: the name's length, 0xfff for longer
	ceStageShift   = 12
	ceIntentToAdd  = 0x2000 // extended flags: git add -N
	ceSkipWorktree = 0x4000 // extended flags: not in the work tree (sparse)
	ceExtendedMask = ceIntentToAdd | ceSkipWorktree
)

// indexEntry is one entry of an index: a path at a stage, its mode and
// content id.
type indexEntry struct {
	path  string
	mode  uint32 // 0100644, 0100755, 0120000 (a link), 0160000 (a submodule)
	id    []byte
	stage uint8 // 0, or 1 to 3 for the sides of a conflict
	ext   uint16
}

// gitIndex is an index as read: its entries in order, the cache tree's
// root (TREE; nil when there is none or it is not valid), and the
// resolve-undo extension's bytes (REUC: git checkout -m writes conflicts
// back from it).
type gitIndex struct {
	version  uint32
	entries  []indexEntry
	treeRoot []byte
	reuc     []byte
}

// parseIndex reads an index of the object format h.
func parseIndex(b []byte, h gitHash) (*gitIndex, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errGitIndex, fmt.Sprintf(format, args...))
	}
	if len(b) > maxIndexBytes {
		return nil, bad("%d bytes, over the %d read", len(b), maxIndexBytes)
	}
	if len(b) < 12+h.size || string(b[:4]) != "DIRC" {
		return nil, bad("no index header")
	}
	body, sum := b[:len(b)-h.size], b[len(b)-h.size:]
	if err := checkIndexSum(body, sum, h); err != nil {
		return nil, err
	}
	ix := &gitIndex{version: binary.BigEndian.Uint32(b[4:8])}
	if ix.version < 2 || ix.version > 4 {
		return nil, bad("version %d", ix.version)
	}
	count := binary.BigEndian.Uint32(b[8:12])
	if count > maxIndexEntries || int(count) > len(body)/(40+h.size+2) {
		return nil, bad("%d entries, more than it can hold or over the %d read", count, maxIndexEntries)
	}
	ix.entries = make([]indexEntry, 0, count)
	r := indexReader{b: body, at: 12, h: h, version: ix.version}
	for i := range count {
		e, err := r.entry()
		if err != nil {
			return nil, bad("entry %d: %v", i+1, err)
		}
		if n := len(ix.entries); n > 0 && !entryBefore(ix.entries[n-1], e) {
			return nil, bad("entry %d (%q) is out of git's order", i+1, e.path)
		}
		ix.entries = append(ix.entries, e)
	}
	if err := ix.extensions(body[r.at:], h); err != nil {
		return nil, err
	}
	return ix, nil
}

// checkIndexSum checks the trailing checksum over body: all zeros when git
// was told to skip it (index.skipHash), else body's hash.
func checkIndexSum(body, sum []byte, h gitHash) error {
	if bytes.Equal(sum, make([]byte, h.size)) {
		return nil
	}
	w := h.new()
	w.Write(body)
	if !bytes.Equal(w.Sum(nil), sum) {
		return fmt.Errorf("%w: its checksum does not hold", errGitIndex)
	}
	return nil
}

// entryBefore reports whether a comes before b in git's order: by path,
// bytewise, then by stage; no two alike.
func entryBefore(a, b indexEntry) bool {
	if c := strings.Compare(a.path, b.path); c != 0 {
		return c < 0
	}
	return a.stage < b.stage
}

// indexReader reads the entries of an index's body.
type indexReader struct {
	b        []byte
	at       int
	h        gitHash
	version  uint32
	previous string // version 4: the path the next one's prefix is cut from
}

// entry reads the entry at r.at and moves past it.
func (r *indexReader) entry() (indexEntry, error) {
	start := r.at
	fixed := 40 + r.h.size + 2
	if len(r.b)-r.at < fixed {
		return indexEntry{}, errors.New("it ends early")
	}
	e := indexEntry{mode: binary.BigEndian.Uint32(r.b[r.at+24:])}
	e.id = r.b[r.at+40 : r.at+40+r.h.size]
	flags := binary.BigEndian.Uint16(r.b[r.at+40+r.h.size:])
	e.stage = uint8(flags >> ceStageShift & 3)
	r.at += fixed
	if flags&ceExtended != 0 {
		if r.version < 3 || len(r.b)-r.at < 2 {
			return e, errors.New("extended flags where the version has none")
		}
		e.ext = binary.BigEndian.Uint16(r.b[r.at:])
		if e.ext&^ceExtendedMask != 0 {
			return e, fmt.Errorf("unknown flags %#x", e.ext)
		}
		r.at += 2
	}
	var err error
	if r.version == 4 {
		e.path, err = r.prefixedName()
	} else {
		e.path, err = r.paddedName(start, int(flags&ceNameMask))
	}
	if err != nil {
		return e, err
	}
	if e.path == "" {
		return e, errors.New("an empty path")
	}
	return e, nil
}

// paddedName reads a version 2 or 3 name: its bytes, then one to eight
// NULs that end the entry at a multiple of eight bytes from its start.
func (r *indexReader) paddedName(start, length int) (string, error) {
	rest := r.b[r.at:]
	if length == ceNameMask { // longer: up to the NUL
		length = bytes.IndexByte(rest, 0)
	}
	if length < 0 || length >= len(rest) || rest[length] != 0 {
		return "", errors.New("its path is not ended by a NUL")
	}
	name := string(rest[:length])
	end := start + (r.at-start+length+8)&^7
	if end > len(r.b) {
		return "", errors.New("its padding runs past the end")
	}
	r.at = end
	return name, nil
}

// prefixedName reads a version 4 name: how many bytes of the previous
// path to drop (git's offset varint), then what follows what is left, up
// to a NUL.
func (r *indexReader) prefixedName() (string, error) {
	drop, n := gitVarint(r.b[r.at:])
	if n == 0 || drop > uint64(len(r.previous)) {
		return "", errors.New("its path's prefix length is not one of the previous path")
	}
	r.at += n
	end := bytes.IndexByte(r.b[r.at:], 0)
	if end < 0 {
		return "", errors.New("its path is not ended by a NUL")
	}
	name := r.previous[:len(r.previous)-int(drop)] + string(r.b[r.at:r.at+end])
	r.at += end + 1
	r.previous = name
	return name, nil
}

// gitVarint decodes git's offset varint (varint.c: each byte with its high
// bit set adds one before the next seven bits); n is 0 when it ends early
// or overflows.
func gitVarint(b []byte) (v uint64, n int) {
	for i, c := range b {
		if i > 0 {
			v++
			if v >= 1<<57 {
				return 0, 0
			}
			v <<= 7
		}
		v += uint64(c & 0x7f)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// extensions reads the extensions after the entries: each a signature
// and a length. A signature in capitals git may skip; others it must
// understand, and so must Airlock.
func (ix *gitIndex) extensions(b []byte, h gitHash) error {
	for len(b) > 0 {
		if len(b) < 8 {
			return fmt.Errorf("%w: an extension's header ends early", errGitIndex)
		}
		sig, size := string(b[:4]), binary.BigEndian.Uint32(b[4:8])
		if uint64(size) > uint64(len(b)-8) {
			return fmt.Errorf("%w: the extension %q runs past the end", errGitIndex, sig)
		}
		data := b[8 : 8+size]
		b = b[8+size:]
		switch {
		case sig == "TREE":
			root, err := cacheTreeRoot(data, h)
			if err != nil {
				return fmt.Errorf("%w: its cache tree: %v", errGitIndex, err)
			}
			ix.treeRoot = root
		case sig == "REUC":
			ix.reuc = data
		case sig == "link":
			return fmt.Errorf("%w: a split index (its entries lie partly in another file)", errGitIndex)
		case sig == "sdir":
			return fmt.Errorf("%w: a sparse index (an entry may stand for a whole folder)", errGitIndex)
		case sig[0] < 'A' || sig[0] > 'Z':
			return fmt.Errorf("%w: the extension %q, which git must understand", errGitIndex, sig)
		}
	}
	return nil
}

// cacheTreeRoot reads the root of a cache tree: an empty path, a NUL, its
// entry count (-1 when not valid), a space, its subtree count, a newline,
// and when valid its tree's id. Nil when it is not valid.
func cacheTreeRoot(b []byte, h gitHash) ([]byte, error) {
	path, rest, ok := bytes.Cut(b, []byte{0})
	if !ok || len(path) != 0 {
		return nil, errors.New("it does not start with the root")
	}
	line, rest, ok := bytes.Cut(rest, []byte("\n"))
	cnt, subs, ok2 := bytes.Cut(line, []byte(" "))
	if !ok || !ok2 {
		return nil, errors.New("no counts")
	}
	n, err1 := strconv.Atoi(string(cnt))
	_, err2 := strconv.ParseUint(string(subs), 10, 32)
	if err1 != nil || err2 != nil || n < -1 {
		return nil, fmt.Errorf("bad counts %q", line)
	}
	if n < 0 {
		return nil, nil
	}
	if len(rest) < h.size {
		return nil, errors.New("its id ends early")
	}
	return rest[:h.size], nil
}

// Modes of an index entry, as git writes them.
const (
	modeFile   = 0o100644
	modeExec   = 0o100755
	modeLink   = 0o120000
	modeGitSub = 0o160000
	modeTree   = 0o40000
)

// treeID returns the id of the tree git commit makes of the index's
// entries (cache-tree.c): a tree object for each folder, its entries
// sorted as git sorts them (a folder's name as if it ended in /). An entry
// in conflict, one added with -N, one of a mode git would not commit, or a
// file and a folder of one name are errors: git would not commit that.
func (ix *gitIndex) treeID(h gitHash) ([]byte, error) {
	for _, e := range ix.entries {
		switch {
		case e.stage != 0:
			return nil, fmt.Errorf("%s is in conflict", e.path)
		case e.ext&ceIntentToAdd != 0:
			return nil, fmt.Errorf("%s is only to be added (git add -N)", e.path)
		case e.mode != modeFile && e.mode != modeExec && e.mode != modeLink && e.mode != modeGitSub:
			return nil, fmt.Errorf("%s has the mode %o", e.path, e.mode)
		}
	}
	return buildTree(ix.entries, "", h)
}

// treeItem is one entry of a tree object.
type treeItem struct {
	mode uint32
	name string
	id   []byte
}

// buildTree hashes the tree of the entries (sorted, all below prefix).
func buildTree(entries []indexEntry, prefix string, h gitHash) ([]byte, error) {
	var items []treeItem
	for i := 0; i < len(entries); {
		name := entries[i].path[len(prefix):]
		dir, _, isDir := strings.Cut(name, "/")
		if !isDir {
			if name == "" {
				return nil, fmt.Errorf("%q is a folder and a file", prefix)
			}
			items = append(items, treeItem{entries[i].mode, name, entries[i].id})
			i++
			continue
		}
		sub := prefix + dir + "/"
		j := i
		for j < len(entries) && strings.HasPrefix(entries[j].path, sub) {
			j++
		}
		id, err := buildTree(entries[i:j], sub, h)
		if err != nil {
			return nil, err
		}
		items = append(items, treeItem{modeTree, dir, id})
		i = j
	}
	return treeObject(items, h)
}

// treeObject sorts items as git does and hashes the tree object they
// make: for each, its mode in octal, a space, its name, a NUL, its id.
func treeObject(items []treeItem, h gitHash) ([]byte, error) {
	key := func(t treeItem) string {
		if t.mode == modeTree {
			return t.name + "/"
		}
		return t.name
	}
	slices.SortFunc(items, func(a, b treeItem) int { return strings.Compare(key(a), key(b)) })
	var buf bytes.Buffer
	seen := make(map[string]bool, len(items))
	for _, t := range items {
		if t.name == "" || t.name == "." || t.name == ".." {
			return nil, fmt.Errorf("an entry named %q", t.name)
		}
		if seen[t.name] {
			return nil, fmt.Errorf("%q is a folder and a file", t.name)
		}
		seen[t.name] = true
		buf.WriteString(strconv.FormatUint(uint64(t.mode), 8))
		buf.WriteByte(' ')
		buf.WriteString(t.name)
		buf.WriteByte(0)
		buf.Write(t.id)
	}
	return h.objectID("tree", buf.Bytes()), nil
}
