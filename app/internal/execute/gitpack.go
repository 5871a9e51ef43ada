package execute

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Git keeps most objects in packs: a .pack of zlib streams, many of them
// deltas against another object of the pack, and a .idx that says where
// each object starts. The object stores' check (gitstore.go) reads every
// tree of a pack, to find the names in them; these readers take untrusted
// bytes, so counts and sizes are bounded and anything git would not write
// is an error (which the check takes for a secret found). Blobs, commits
// and tags are not inflated: a pack entry's kind is in its header (a
// delta's is its base's), so only trees are read.

// Bounds of one pack, and of one scan (storeBudget).
const (
	maxTreeObject = 16 << 20  // a tree, or a tree's delta, read whole
	maxDeltaChain = 10_000    // deltas on the way to a tree's base (git writes 50 by default)
	maxBaseCache  = 64 << 20  // bytes of trees kept as the bases of deltas
	maxStoreBytes = 2 << 30   // bytes inflated in one part of a store: of its trees, or of every object of a pack read without its index (gitbundle.go)
	maxStoreItems = 2_000_000 // objects in one part of a store (a pack's entries take 40 bytes each)
)

// errStoreBounds is wrapped by the error of a part of an object store past
// the bounds its check reads.
var errStoreBounds = errors.New("more than Airlock reads of a git object store")

// storeBudget bounds the reading of one part of an object store (a pack or
// a loose folder): objects looked at, tree bytes inflated; and, across the
// parts of one action's start, the time spent.
type storeBudget struct {
	objects  int
	bytes    int64
	most     int64     // the bytes it started with, for the error's text
	deadline time.Time // zero: none
}

// partBudget returns a part's budget ending at deadline.
func partBudget(deadline time.Time) *storeBudget {
	return &storeBudget{objects: maxStoreItems, bytes: maxStoreBytes, most: maxStoreBytes, deadline: deadline}
}

// spend takes objects and bytes from the budget; it fails once either is
// spent or the deadline has passed.
func (b *storeBudget) spend(objects int, bytes int64) error {
	b.objects -= objects
	b.bytes -= bytes
	switch {
	case b.objects < 0:
		return fmt.Errorf("%w: over %d objects", errStoreBounds, maxStoreItems)
	case b.bytes < 0:
		return fmt.Errorf("%w: over %d bytes of objects inflated", errStoreBounds, b.most)
	case !b.deadline.IsZero() && time.Now().After(b.deadline):
		return errStoreTime
	}
	return nil
}

// errStoreTime is the error of a check that ran out of its time: unlike
// the other errors it is not kept (the part is read again next time).
var errStoreTime = fmt.Errorf("%w: out of the time given to reading it", errStoreBounds)

// nameMemo keeps what rate.SecretFile said of each name met in one part
// of a store: a repository's trees name the same files version after
// version, and matching a name against the table costs more than reading
// it.
type nameMemo map[string]bool

// secret reports whether rate.SecretFile knows name.
func (m nameMemo) secret(name []byte) bool {
	if v, ok := m[string(name)]; ok {
		return v
	}
	_, v := rate.SecretFile(string(name))
	if len(m) < maxMemoNames {
		m[string(name)] = v
	}
	return v
}

// maxMemoNames bounds the names a nameMemo keeps.
const maxMemoNames = 1 << 16

// secretInTree returns the first name of a file (not a folder or a
// submodule) in the tree body whose name rate.SecretFile knows, "" when
// there is none. Entries are "mode name\0id", the id of idSize bytes.
func secretInTree(body []byte, idSize int) (string, error) {
	return nameMemo{}.inTree(body, idSize)
}

// inTree is secretInTree, remembering the names met in m.
func (m nameMemo) inTree(body []byte, idSize int) (string, error) {
	for len(body) > 0 {
		sp := bytes.IndexByte(body, ' ')
		if sp < 1 || sp > 7 {
			return "", fmt.Errorf("%w: a tree entry without a mode", errGitObject)
		}
		mode := body[:sp]
		for _, c := range mode {
			if c < '0' || c > '7' {
				return "", fmt.Errorf("%w: a tree entry's mode %q", errGitObject, mode)
			}
		}
		rest := body[sp+1:]
		nul := bytes.IndexByte(rest, 0)
		if nul < 1 || len(rest)-nul-1 < idSize {
			return "", fmt.Errorf("%w: a tree entry ends early", errGitObject)
		}
		name := rest[:nul]
		if md := string(mode); md != "40000" && md != "040000" && md != "160000" {
			if m.secret(name) {
				return string(name), nil
			}
		}
		body = rest[nul+1+idSize:]
	}
	return "", nil
}

// packIndex is a pack's .idx (version 2): its objects' ids, sorted, and
// where each starts in the pack.
type packIndex struct {
	idSize  int
	ids     []byte
	offsets []int64
}

// parsePackIndex reads an .idx of version 2 for a pack of packSize bytes,
// its ids of idSize bytes (20 for SHA-1, 32 for SHA-256): the magic, the
// version, a fan-out table that never decreases, ids in strictly
// ascending order, offsets inside the pack (a large one through the
// 64-bit table), and nothing else but the two checksums.
func parsePackIndex(b []byte, idSize int, packSize int64, budget *storeBudget) (*packIndex, error) {
	const head = 8 + 256*4
	if len(b) < head || !bytes.Equal(b[:4], []byte("\xfftOc")) || binary.BigEndian.Uint32(b[4:8]) != 2 {
		return nil, fmt.Errorf("%w: not a pack index of version 2", errGitObject)
	}
	var prev uint32
	for i := range 256 {
		v := binary.BigEndian.Uint32(b[8+4*i:])
		if v < prev {
			return nil, fmt.Errorf("%w: a pack index's fan-out table decreases", errGitObject)
		}
		prev = v
	}
	n := int(prev)
	if n > budget.objects {
		return nil, fmt.Errorf("%w: a pack of %d objects", errStoreBounds, n)
	}
	fixed := head + n*(idSize+8) + 2*idSize
	if len(b) < fixed || (len(b)-fixed)%8 != 0 || (len(b)-fixed)/8 > n {
		return nil, fmt.Errorf("%w: a pack index of %d bytes for %d objects", errGitObject, len(b), n)
	}
	x := &packIndex{idSize: idSize, ids: b[head : head+n*idSize], offsets: make([]int64, n)}
	for i := 1; i < n; i++ {
		if bytes.Compare(x.ids[(i-1)*idSize:i*idSize], x.ids[i*idSize:(i+1)*idSize]) >= 0 {
			return nil, fmt.Errorf("%w: a pack index's ids are out of order", errGitObject)
		}
	}
	small := b[head+n*(idSize+4):]
	large := b[head+n*(idSize+8) : len(b)-2*idSize]
	for i := range n {
		v := binary.BigEndian.Uint32(small[4*i:])
		off := int64(v)
		if v&0x80000000 != 0 {
			j := int(v &^ 0x80000000)
			if 8*j+8 > len(large) {
				return nil, fmt.Errorf("%w: a pack index's large offset %d is missing", errGitObject, j)
			}
			u := binary.BigEndian.Uint64(large[8*j:])
			if u > uint64(packSize) {
				return nil, fmt.Errorf("%w: an offset past the pack", errGitObject)
			}
			off = int64(u)
		}
		if off < 12 || off >= packSize-int64(idSize) {
			return nil, fmt.Errorf("%w: an offset outside the pack's objects", errGitObject)
		}
		x.offsets[i] = off
	}
	return x, nil
}

// find returns the offset of the object id, false when the index has none.
func (x *packIndex) find(id []byte) (int64, bool) {
	lo, hi := 0, len(x.offsets)
	for lo < hi {
		m := (lo + hi) / 2
		switch c := bytes.Compare(x.ids[m*x.idSize:(m+1)*x.idSize], id); {
		case c == 0:
			return x.offsets[m], true
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// The kinds of a pack entry.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// packEntry is one object of a pack as its header says.
type packEntry struct {
	off, end int64 // where it starts, where the next starts
	data     int64 // where its zlib stream starts
	size     int64 // inflated: the object's, or the delta's
	base     int32 // a delta's base, by entry number; -1 for none
	kind     uint8 // as stored: a delta is packOfsDelta or packRefDelta
	resolved uint8 // the kind of object it is (a delta's base's), 0 until known
}

// packReader reads the trees of one pack.
type packReader struct {
	r       io.ReaderAt
	size    int64
	idSize  int
	entries []packEntry // by offset
	cache   map[int][]byte
	cached  int
	budget  *storeBudget
	names   nameMemo
	inflater
	zr io.ReadCloser // the zlib reader of a pack read from its start (scan)
}

// inflater reads zlib streams with one reader, reset for each: a new one
// costs tens of kilobytes.
type inflater struct {
	z  io.ReadCloser
	br *bufio.Reader
}

// open returns a reader of the zlib stream r.
func (f *inflater) open(r io.Reader) (*bufio.Reader, error) {
	if f.z == nil {
		z, err := zlib.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errGitObject, err)
		}
		f.z, f.br = z, bufio.NewReaderSize(z, 512)
		return f.br, nil
	}
	if err := f.z.(zlib.Resetter).Reset(r, nil); err != nil {
		return nil, fmt.Errorf("%w: %v", errGitObject, err)
	}
	f.br.Reset(f.z)
	return f.br, nil
}

// secretInPack returns the first secret-named file (secretInTree) that a
// tree of the pack r (of size bytes, with the index x) names, "" when
// there is none. Every entry is looked at; only trees are inflated.
func secretInPack(r io.ReaderAt, size int64, x *packIndex, budget *storeBudget) (string, error) {
	p := newPackReader(r, size, x.idSize, budget)
	if err := p.header(len(x.offsets)); err != nil {
		return "", err
	}
	if err := p.index(x); err != nil {
		return "", err
	}
	return p.secret()
}

// newPackReader returns a reader of the pack r of size bytes, its ids of
// idSize bytes.
func newPackReader(r io.ReaderAt, size int64, idSize int, budget *storeBudget) *packReader {
	return &packReader{r: r, size: size, idSize: idSize, cache: map[int][]byte{}, budget: budget, names: nameMemo{}}
}

// secret returns the first secret-named file a tree of the pack names,
// its entries read (every delta's base known).
func (p *packReader) secret() (string, error) {
	for i := range p.entries {
		if err := p.resolve(i); err != nil {
			return "", err
		}
	}
	for i, e := range p.entries {
		if e.resolved != packTree {
			continue
		}
		body, err := p.content(i)
		if err != nil {
			return "", err
		}
		name, err := p.names.inTree(body, p.idSize)
		if name != "" || err != nil {
			return name, err
		}
	}
	return "", nil
}

// header checks the pack's own header: "PACK", version 2 or 3, n objects.
func (p *packReader) header(n int) error {
	var h [12]byte
	if _, err := p.r.ReadAt(h[:], 0); err != nil {
		return fmt.Errorf("%w: a pack's header: %v", errGitObject, err)
	}
	v := binary.BigEndian.Uint32(h[4:8])
	if !bytes.Equal(h[:4], []byte("PACK")) || (v != 2 && v != 3) {
		return fmt.Errorf("%w: not a pack of version 2 or 3", errGitObject)
	}
	if binary.BigEndian.Uint32(h[8:]) != uint32(n) {
		return fmt.Errorf("%w: a pack holding another number of objects than its index says", errGitObject)
	}
	return nil
}

// index reads every entry's header, in the order of their offsets, each
// ending where the next starts (the last at the pack's checksum).
func (p *packReader) index(x *packIndex) error {
	offs := slices.Clone(x.offsets)
	slices.Sort(offs)
	if len(slices.Compact(slices.Clone(offs))) != len(offs) {
		return fmt.Errorf("%w: two objects at one offset of a pack", errGitObject)
	}
	p.entries = make([]packEntry, len(offs))
	for i, off := range offs {
		end := p.size - int64(p.idSize)
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		p.entries[i] = packEntry{off: off, end: end, base: -1}
	}
	for i := range p.entries {
		if err := p.budget.spend(1, 0); err != nil {
			return err
		}
		if _, err := p.entryHeader(&p.entries[i], x); err != nil {
			return err
		}
	}
	return nil
}

// maxEntryHeader bounds a pack entry's header: a size of up to 64 bits in
// sevens, a delta's offset likewise, or a base's id.
const maxEntryHeader = 10 + 10 + 32

// entryHeader reads the header of e: its kind, size, and a delta's base.
// With no index x (a pack read from its start, gitbundle.go), a
// ref-delta's base is returned by its id, for the caller to find.
func (p *packReader) entryHeader(e *packEntry, x *packIndex) (ref []byte, err error) {
	buf := make([]byte, min(int64(maxEntryHeader), e.end-e.off))
	if _, err := p.r.ReadAt(buf, e.off); err != nil {
		return nil, fmt.Errorf("%w: a pack entry's header: %v", errGitObject, err)
	}
	i := 0
	next := func() (byte, bool) {
		if i >= len(buf) {
			return 0, false
		}
		i++
		return buf[i-1], true
	}
	c, ok := next()
	e.kind, e.size = (c>>4)&7, int64(c&15)
	for shift := 4; ok && c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return nil, fmt.Errorf("%w: a pack entry's size is over 63 bits", errGitObject)
		}
		c, ok = next()
		e.size |= int64(c&0x7f) << shift
	}
	if !ok {
		return nil, fmt.Errorf("%w: a pack entry's header ends early", errGitObject)
	}
	switch e.kind {
	case packCommit, packTree, packBlob, packTag:
	case packOfsDelta:
		c, ok = next()
		rel := int64(c & 0x7f)
		for ok && c&0x80 != 0 {
			if rel > 1<<55 {
				return nil, fmt.Errorf("%w: a delta's base offset is over 63 bits", errGitObject)
			}
			c, ok = next()
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		b, found := p.at(e.off - rel)
		if !ok || rel <= 0 || !found {
			return nil, fmt.Errorf("%w: a delta whose base is no object of its pack", errGitObject)
		}
		e.base = b
	case packRefDelta:
		if len(buf)-i < p.idSize {
			return nil, fmt.Errorf("%w: a pack entry's header ends early", errGitObject)
		}
		id := buf[i : i+p.idSize]
		i += p.idSize
		if x == nil {
			ref = id
			break
		}
		off, found := x.find(id)
		if !found {
			return nil, fmt.Errorf("%w: a delta whose base is not in its pack", errGitObject)
		}
		e.base, _ = p.at(off)
	default:
		return nil, fmt.Errorf("%w: a pack entry of unknown kind %d", errGitObject, e.kind)
	}
	e.data = e.off + int64(i)
	return ref, nil
}

// at returns the number of the entry at offset off.
func (p *packReader) at(off int64) (int32, bool) {
	i, found := slices.BinarySearchFunc(p.entries, off, func(e packEntry, off int64) int { return cmp.Compare(e.off, off) })
	return int32(i), found
}

// resolve finds the kind of object entry i is: its own, or its delta
// chain's base's.
func (p *packReader) resolve(i int) error {
	chain := []int{}
	j := i
	for p.entries[j].resolved == 0 && p.entries[j].base >= 0 {
		if len(chain) > maxDeltaChain {
			return fmt.Errorf("%w: a chain of over %d deltas, or a loop", errGitObject, maxDeltaChain)
		}
		chain = append(chain, j)
		j = int(p.entries[j].base)
	}
	kind := p.entries[j].resolved
	if kind == 0 {
		kind = p.entries[j].kind
		p.entries[j].resolved = kind
	}
	for _, k := range chain {
		p.entries[k].resolved = kind
	}
	return nil
}

// content returns the inflated content of entry i, a tree (a delta's
// applied to its base's, as far down the chain as needed). Bases are
// kept, up to maxBaseCache bytes, for the deltas after them.
func (p *packReader) content(i int) ([]byte, error) {
	var chain []int
	j := i
	var body []byte
	for {
		if b, ok := p.cache[j]; ok {
			body = b
			break
		}
		if p.entries[j].base < 0 {
			break
		}
		if len(chain) > maxDeltaChain {
			return nil, fmt.Errorf("%w: a chain of over %d deltas", errGitObject, maxDeltaChain)
		}
		chain = append(chain, j)
		j = int(p.entries[j].base)
	}
	if body == nil {
		b, err := p.inflate(j)
		if err != nil {
			return nil, err
		}
		body = b
		p.keep(j, body)
	}
	for k := len(chain) - 1; k >= 0; k-- {
		delta, err := p.inflate(chain[k])
		if err != nil {
			return nil, err
		}
		if body, err = applyDelta(body, delta); err != nil {
			return nil, err
		}
		if err := p.budget.spend(0, int64(len(body))); err != nil {
			return nil, err
		}
		p.keep(chain[k], body)
	}
	return body, nil
}

// keep caches body as entry i's content, unless the cache is full; then
// it is emptied first.
func (p *packReader) keep(i int, body []byte) {
	if p.cached+len(body) > maxBaseCache {
		clear(p.cache)
		p.cached = 0
	}
	if len(body) <= maxBaseCache {
		p.cache[i] = body
		p.cached += len(body)
	}
}

// inflate reads entry i's zlib stream whole: exactly the size its header
// says, at most maxTreeObject, ending within the entry's extent.
func (p *packReader) inflate(i int) ([]byte, error) {
	e := p.entries[i]
	if e.size > maxTreeObject {
		return nil, fmt.Errorf("%w: a tree or delta of %d bytes, over the %d read", errStoreBounds, e.size, maxTreeObject)
	}
	if err := p.budget.spend(0, e.size); err != nil {
		return nil, err
	}
	var stream io.Reader = io.NewSectionReader(p.r, e.data, e.end-e.data)
	if _, ok := p.r.(*window); ok {
		stream = p.stream(&e)
	}
	br, err := p.open(stream)
	if err != nil {
		return nil, err
	}
	body := make([]byte, e.size)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, fmt.Errorf("%w: a pack entry's content ends before the %d bytes its header says", errGitObject, e.size)
	}
	if err := atEnd(br); err != nil {
		return nil, err
	}
	return body, nil
}

// applyDelta applies a git delta to base: the base's size and the
// result's (each in sevens), then copies from the base and inserts, the
// result at most maxTreeObject bytes.
func applyDelta(base, delta []byte) ([]byte, error) {
	varint := func() (int64, bool) {
		var v int64
		for shift := 0; shift < 64; shift += 7 {
			if len(delta) == 0 {
				return 0, false
			}
			c := delta[0]
			delta = delta[1:]
			v |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	src, ok1 := varint()
	dst, ok2 := varint()
	if !ok1 || !ok2 || src != int64(len(base)) {
		return nil, fmt.Errorf("%w: a delta for a base of another size", errGitObject)
	}
	if dst < 0 || dst > maxTreeObject {
		return nil, fmt.Errorf("%w: a delta's result of %d bytes, over the %d read", errStoreBounds, dst, maxTreeObject)
	}
	out := make([]byte, 0, dst)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n int64
			for bit := range 7 {
				if op&(1<<bit) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, fmt.Errorf("%w: a delta's copy ends early", errGitObject)
				}
				if bit < 4 {
					off |= int64(delta[0]) << (8 * bit)
				} else {
					n |= int64(delta[0]) << (8 * (bit - 4))
				}
				delta = delta[1:]
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > int64(len(base)) || int64(len(out))+n > dst {
				return nil, fmt.Errorf("%w: a delta copies past its base or its result", errGitObject)
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			n := int(op)
			if n > len(delta) || int64(len(out)+n) > dst {
				return nil, fmt.Errorf("%w: a delta inserts past its end or its result", errGitObject)
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, fmt.Errorf("%w: a delta's reserved instruction 0", errGitObject)
		}
	}
	if int64(len(out)) != dst {
		return nil, fmt.Errorf("%w: a delta's result of another size than it says", errGitObject)
	}
	return out, nil
}
