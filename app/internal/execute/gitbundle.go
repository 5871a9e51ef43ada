package execute

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// A repository's history also lives outside any object store: git bundle
// create backup.bundle --all writes it whole into one file (a backup, a
// repository carried offline), and a pack copied out of objects/pack is
// one too. The repository gone, git clone backup.bundle, git bundle
// unbundle or git unpack-objects < pack-1.pack brings the history back,
// and git log -p prints the .env it held. So the walks of the roots and
// the home (rootlinks.go) look at the first bytes of each regular file
// they list (gitDataKind): a bundle opens with "# v2 git bundle" or "#
// v3 git bundle", whatever its name; a pack with "PACK" and its version.
// Such a file is read as a store of one pack (readGitData, from
// gitStores.hide): a pack with its .idx beside it as the stores' packs
// are, one without it from its start (scan), and the file is hidden from an unasked action when a
// tree in it names a secret file, or when it cannot be read through (a
// thin bundle, whose deltas lean on objects outside it, cannot). It is
// kept by its and its index's size, inode and times, as a store's pack is.
//
// Not looked at: files under node_modules (as for keys: a package
// manager's folder holds thousands, and no person keeps a backup there),
// the loose objects of a store (read as objects by the store's check), the
// packs of a store's objects/pack (read by the store's check), and packs
// inside an archive (a .tar or .zip holding a bundle): what an archive
// holds is not read.

// gitData is what the first bytes of a file say it is: git's data or not.
type gitData uint8

const (
	notGitData  gitData = iota
	gitBundle           // "# v2 git bundle" or "# v3 git bundle"
	gitPackFile         // "PACK", version 2 or 3
)

// gitDataHead is how much of a file gitDataKind reads.
const gitDataHead = 16

// kindOfHead returns what the first bytes b of a file say it is.
func kindOfHead(b []byte) gitData {
	switch {
	case bytes.HasPrefix(b, []byte("# v2 git bundle\n")) || bytes.HasPrefix(b, []byte("# v3 git bundle\n")):
		return gitBundle
	case len(b) >= 8 && bytes.HasPrefix(b, []byte("PACK")):
		if v := binary.BigEndian.Uint32(b[4:8]); v == 2 || v == 3 {
			return gitPackFile
		}
	}
	return notGitData
}

// gitDataKind reads the first bytes of the regular file name of dir,
// without following a link or waiting on a FIFO put in its place, and
// returns what they say it is; a file it cannot read is none (the action,
// as the same user, cannot read it either). It is called for nearly every
// file a walk lists, so it makes three calls to the system and allocates
// nothing: a FIFO or device put in the file's place since it was listed
// is read from without blocking, or refuses a positioned read.
func gitDataKind(dir, name string) gitData {
	fd, err := unix.Open(filepath.Join(dir, name), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return notGitData
	}
	defer unix.Close(fd)
	var b [gitDataHead]byte
	n, err := unix.Pread(fd, b[:], 0)
	if err != nil || n < 8 {
		return notGitData
	}
	return kindOfHead(b[:n])
}

// looksForGitData reports whether the walk looks at the first bytes of
// the file name of dir (see above for what it does not).
func looksForGitData(dir, name string) bool {
	if strings.Contains(dir+"/", "/node_modules/") || name == ".git" {
		return false
	}
	folder, parent := filepath.Base(dir), filepath.Base(filepath.Dir(dir))
	switch {
	case parent != "objects":
		return true
	case folder == "pack":
		// a store's own packs, which its check reads: the folder pack
		// makes objects a store (gitFound)
		return !strings.HasPrefix(name, "pack-") || !strings.HasSuffix(name, ".pack")
	case len(folder) == 2 && isHex(folder):
		// a loose object, which its store's check reads when objects is a
		// store, and git too only then
		return !isHex(name)
	}
	return true
}

// readGitData reads the bundle or pack p (gitDataKind says which, looked
// at again: it may have changed since it was listed) and returns the
// secret-named file one of its trees names.
func readGitData(p string, budget *storeBudget) (string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil // gone since it was listed: nothing to hide
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", nil // no longer a file: nothing of git's to read there
	}
	var head [gitDataHead]byte
	n, _ := io.ReadFull(f, head[:])
	switch kindOfHead(head[:n]) {
	case gitBundle:
		return secretInBundle(f, fi.Size(), budget)
	case gitPackFile:
		if strings.HasSuffix(p, ".pack") {
			idx := strings.TrimSuffix(p, ".pack") + ".idx"
			if _, err := os.Lstat(idx); !errors.Is(err, fs.ErrNotExist) {
				return readPack(p, budget) // with its index, as a store's pack
			}
		}
		return secretInLonePack(f, fi.Size(), budget)
	}
	return "", nil // no longer a bundle or a pack
}

// maxBundleHeader bounds a bundle's header (its refs, one line each).
const maxBundleHeader = 16 << 20

// secretInBundle reads the bundle r of size bytes and returns the
// secret-named file one of its trees names. Its header is a line "# v2
// git bundle" or "# v3 git bundle"; in v3 capabilities ("@object-format=
// sha256", "@filter=…"); prerequisites ("-" and an id: a thin bundle's
// bases, outside it) and refs (an id and a name), ending at an empty
// line; its pack follows, to the end of the file.
func secretInBundle(r io.ReaderAt, size int64, budget *storeBudget) (string, error) {
	br := bufio.NewReader(io.NewSectionReader(r, 0, min(size, maxBundleHeader+1)))
	h := gitSHA1
	var idSizes [2]bool // an id of SHA-1's size met, of SHA-256's
	var at int64
	for n := 0; ; n++ {
		line, err := br.ReadString('\n')
		at += int64(len(line))
		if err != nil {
			if at > maxBundleHeader {
				return "", fmt.Errorf("%w: a bundle's header of over %d bytes", errStoreBounds, maxBundleHeader)
			}
			return "", fmt.Errorf("%w: a bundle's header ends before its pack", errGitObject)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case n == 0:
			if line != "# v2 git bundle" && line != "# v3 git bundle" {
				return "", fmt.Errorf("%w: not a bundle of version 2 or 3", errGitObject)
			}
			continue
		case line == "":
		case strings.HasPrefix(line, "@"):
			key, value, _ := strings.Cut(line[1:], "=")
			switch {
			case key == "object-format" && value == "sha1":
				h = gitSHA1
			case key == "object-format" && value == "sha256":
				h = gitSHA256
			case key == "filter":
				// a partial bundle: some blobs left out, the trees all there
			default:
				return "", fmt.Errorf("%w: a bundle's capability %q", errGitObject, truncate(line, 64))
			}
			continue
		default:
			id, _, _ := strings.Cut(strings.TrimPrefix(line, "-"), " ")
			_, sha1 := gitSHA1.hexID(id)
			_, sha256 := gitSHA256.hexID(id)
			if !sha1 && !sha256 {
				return "", fmt.Errorf("%w: a bundle's line names no object id: %q", errGitObject, truncate(id, 80))
			}
			idSizes[0], idSizes[1] = idSizes[0] || sha1, idSizes[1] || sha256
			continue
		}
		break
	}
	if idSizes[0] && h.size != gitSHA1.size || idSizes[1] && h.size != gitSHA256.size {
		return "", fmt.Errorf("%w: a bundle's lines name ids of another size than its %s", errGitObject, h.name)
	}
	return scanSecret(io.NewSectionReader(r, at, size-at), size-at, h, budget)
}

// truncate returns s, cut to n bytes.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// secretInLonePack reads the pack r of size bytes, which has no index,
// and returns the secret-named file one of its trees names. A pack does
// not say its ids' size: it is read as SHA-1's, and as SHA-256's when its
// objects do not then end at its checksum.
func secretInLonePack(r io.ReaderAt, size int64, budget *storeBudget) (string, error) {
	name, err := scanSecret(r, size, gitSHA1, budget)
	if err == nil || errors.Is(err, errStoreBounds) || size < 12+int64(gitSHA256.size) {
		return name, err
	}
	if name, err2 := scanSecret(r, size, gitSHA256, budget); err2 == nil {
		return name, nil
	}
	return "", err
}

// scanSecret reads the pack r of size bytes from its start (scan), finds
// the bases of its ref-deltas by their ids (h), then its trees as
// secretInPack does.
func scanSecret(r io.ReaderAt, size int64, h gitHash, budget *storeBudget) (string, error) {
	p := newPackReader(&window{r: r, size: size}, size, h.size, budget)
	refs, err := p.scan()
	if err != nil {
		return "", err
	}
	if err := p.findRefBases(refs, h); err != nil {
		return "", err
	}
	return p.secret()
}

// minPackEntry is the fewest bytes a pack entry takes: a byte of header,
// a zlib stream's two of header, two of an empty block, four of checksum.
const minPackEntry = 9

// scan reads the entries of a pack with no index from its start: its
// header, then each entry's header and its zlib stream, inflated whole
// to find where it ends and the next starts (nothing else says), the last
// ending at the pack's checksum. Every object's bytes count against the
// budget. It returns the ref-deltas' bases' ids, by entry.
func (p *packReader) scan() (map[int32][]byte, error) {
	var h [12]byte
	if p.size < 12+int64(p.idSize) {
		return nil, fmt.Errorf("%w: a pack of %d bytes", errGitObject, p.size)
	}
	if _, err := p.r.ReadAt(h[:], 0); err != nil {
		return nil, fmt.Errorf("%w: a pack's header: %v", errGitObject, err)
	}
	if kindOfHead(h[:]) != gitPackFile {
		return nil, fmt.Errorf("%w: not a pack of version 2 or 3", errGitObject)
	}
	n := int64(binary.BigEndian.Uint32(h[8:]))
	if n > int64(p.budget.objects) {
		return nil, fmt.Errorf("%w: a pack of %d objects", errStoreBounds, n)
	}
	end := p.size - int64(p.idSize)
	if n > (end-12)/minPackEntry {
		return nil, fmt.Errorf("%w: a pack of %d bytes cannot hold the %d objects it says", errGitObject, p.size, n)
	}
	p.entries = make([]packEntry, 0, n)
	refs := map[int32][]byte{}
	off := int64(12)
	for range n {
		if err := p.budget.spend(1, 0); err != nil {
			return nil, err
		}
		if off >= end {
			return nil, fmt.Errorf("%w: a pack's objects run into its checksum", errGitObject)
		}
		p.entries = append(p.entries, packEntry{off: off, end: end, base: -1})
		e := &p.entries[len(p.entries)-1]
		ref, err := p.entryHeader(e, nil)
		if err != nil {
			return nil, err
		}
		if ref != nil {
			refs[int32(len(p.entries)-1)] = bytes.Clone(ref)
		}
		used, err := p.skip(e, nil)
		if err != nil {
			return nil, err
		}
		e.end = e.data + used
		off = e.end
	}
	if off != end {
		return nil, fmt.Errorf("%w: a pack's objects end %d bytes before its checksum", errGitObject, end-off)
	}
	return refs, nil
}

// skipChunk is how much skip inflates between looks at the deadline.
const skipChunk = 1 << 20

// skip inflates entry e's zlib stream, exactly the size its header says,
// into w (nil: discarded), and returns how many bytes of the pack the
// stream took.
func (p *packReader) skip(e *packEntry, w io.Writer) (int64, error) {
	if err := p.budget.spend(0, e.size); err != nil {
		return 0, err
	}
	if w == nil {
		w = io.Discard
	}
	c := p.stream(e)
	if p.zr == nil {
		z, err := zlib.NewReader(c)
		if err != nil {
			return 0, fmt.Errorf("%w: %v", errGitObject, err)
		}
		p.zr = z
	} else if err := p.zr.(zlib.Resetter).Reset(c, nil); err != nil {
		return 0, fmt.Errorf("%w: %v", errGitObject, err)
	}
	for left := e.size; left > 0; {
		n, err := io.CopyN(w, p.zr, min(left, skipChunk))
		left -= n
		if err != nil {
			return 0, fmt.Errorf("%w: a pack entry's content ends before the %d bytes its header says", errGitObject, e.size)
		}
		if err := p.budget.spend(0, 0); err != nil {
			return 0, err
		}
	}
	if err := atEnd(p.zr); err != nil {
		return 0, err
	}
	return c.pos - e.data, nil
}

// stream returns a reader of entry e's zlib stream: an io.ByteReader, so
// zlib reads from it no more than the stream (its end, where the next
// entry starts, is where it stopped), out of the window when the pack is
// read through one.
func (p *packReader) stream(e *packEntry) *cursor {
	w, ok := p.r.(*window)
	if !ok {
		w = &window{r: p.r, size: p.size}
	}
	return &cursor{w: w, pos: e.data, end: e.end}
}

// windowSize is how much a window reads at a time.
const windowSize = 64 << 10

// window is an io.ReaderAt of the first size bytes of r that reads
// windowSize bytes at a time and serves what it holds: a pack read from
// its start is read in order, its entries a few hundred bytes each.
type window struct {
	r    io.ReaderAt
	size int64
	buf  []byte // r's bytes from off
	off  int64
}

// ReadAt reads len(b) bytes at off; fewer only past size (io.EOF) or on
// r's error.
func (w *window) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		if err := w.hold(off); err != nil {
			return n, err
		}
		c := copy(b[n:], w.buf[off-w.off:])
		n += c
		off += int64(c)
	}
	return n, nil
}

// hold makes the window hold the byte at off.
func (w *window) hold(off int64) error {
	if off >= w.off && off < w.off+int64(len(w.buf)) {
		return nil
	}
	if off < 0 || off >= w.size {
		return io.EOF
	}
	if w.buf == nil {
		w.buf = make([]byte, windowSize)
	}
	w.buf = w.buf[:min(int64(cap(w.buf)), w.size-off)]
	n, err := w.r.ReadAt(w.buf, off)
	w.buf, w.off = w.buf[:n], off
	if n == 0 {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

// cursor reads a window from pos to end.
type cursor struct {
	w        *window
	pos, end int64
}

func (c *cursor) Read(b []byte) (int, error) {
	if c.pos >= c.end {
		return 0, io.EOF
	}
	if err := c.w.hold(c.pos); err != nil {
		return 0, err
	}
	n := copy(b[:min(int64(len(b)), c.end-c.pos)], c.w.buf[c.pos-c.w.off:])
	c.pos += int64(n)
	return n, nil
}

func (c *cursor) ReadByte() (byte, error) {
	if c.pos >= c.end {
		return 0, io.EOF
	}
	if err := c.w.hold(c.pos); err != nil {
		return 0, err
	}
	b := c.w.buf[c.pos-c.w.off]
	c.pos++
	return b, nil
}

// kindNames are the names of the kinds of objects, as ids hash them.
var kindNames = map[uint8]string{packCommit: "commit", packTree: "tree", packBlob: "blob", packTag: "tag"}

// findRefBases finds the base of each ref-delta of refs (by entry, the
// id of its base) among the pack's objects, hashing them (h) in an order
// in which each one's base is known before it: whole objects first, then
// the deltas on them. A base not in the pack (a thin pack's: git writes
// a bundle thin when it leaves out history the receiver must hold) is an
// error.
func (p *packReader) findRefBases(refs map[int32][]byte, h gitHash) error {
	if len(refs) == 0 {
		return nil
	}
	waiting := map[string][]int32{}
	for i, id := range refs {
		waiting[string(id)] = append(waiting[string(id)], i)
	}
	deltas := map[int32][]int32{}
	var queue []int32
	for i, e := range p.entries {
		switch {
		case e.base >= 0:
			deltas[e.base] = append(deltas[e.base], int32(i))
		case e.kind != packRefDelta:
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 && len(waiting) > 0 {
		j := queue[0]
		queue = queue[1:]
		id, err := p.objectID(int(j), h)
		if err != nil {
			return err
		}
		for _, k := range waiting[string(id)] {
			p.entries[k].base = j
			queue = append(queue, k)
		}
		delete(waiting, string(id))
		queue = append(queue, deltas[j]...)
	}
	if len(waiting) > 0 {
		return fmt.Errorf("%w: a delta whose base is not in its pack (a thin pack or bundle, leaning on a repository's objects)", errGitObject)
	}
	return nil
}

// objectID returns the id of entry i, whose delta chain's bases are all
// known: a whole object hashed as it is inflated, a delta's result
// (content: at most maxTreeObject bytes) once applied.
func (p *packReader) objectID(i int, h gitHash) ([]byte, error) {
	if err := p.resolve(i); err != nil {
		return nil, err
	}
	e := &p.entries[i]
	kind := kindNames[e.resolved]
	if e.base >= 0 {
		body, err := p.content(i)
		if err != nil {
			return nil, err
		}
		return h.objectID(kind, body), nil
	}
	w := h.new()
	fmt.Fprintf(w, "%s %d\x00", kind, e.size)
	if _, err := p.skip(e, w); err != nil {
		return nil, err
	}
	return w.Sum(nil), nil
}
