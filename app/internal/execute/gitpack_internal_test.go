package execute

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"testing"
	"time"
)

// packObj is one object of a pack buildPack writes: whole (kind 1-4) or
// a delta (packOfsDelta against the entry base, packRefDelta against the
// object of id ref), with the id it is indexed under.
type packObj struct {
	kind int
	body []byte // the object, or the delta
	base int    // for packOfsDelta: the entry it is a delta of
	ref  []byte // for packRefDelta: the id of its base
	id   []byte
	// declared, when not 0, is the size its header says instead of the
	// body's.
	declared uint64
}

// buildPack writes the objects as a pack of version 2 and its index,
// with SHA-1 ids, as git lays them out.
func buildPack(objs []packObj) (idx, pack []byte) {
	var p bytes.Buffer
	p.WriteString("PACK")
	binary.Write(&p, binary.BigEndian, uint32(2))
	binary.Write(&p, binary.BigEndian, uint32(len(objs)))
	offs := make([]int64, len(objs))
	for i, o := range objs {
		offs[i] = int64(p.Len())
		size := uint64(len(o.body))
		if o.declared != 0 {
			size = o.declared
		}
		c := byte(o.kind<<4) | byte(size&15)
		size >>= 4
		for size > 0 {
			p.WriteByte(c | 0x80)
			c = byte(size & 0x7f)
			size >>= 7
		}
		p.WriteByte(c)
		switch o.kind {
		case packOfsDelta:
			rel := offs[i] - offs[o.base]
			var enc []byte
			enc = append(enc, byte(rel&0x7f))
			for rel >>= 7; rel > 0; rel >>= 7 {
				rel--
				enc = append(enc, byte(0x80|rel&0x7f))
			}
			slices.Reverse(enc)
			p.Write(enc)
		case packRefDelta:
			p.Write(o.ref)
		}
		p.Write(deflate(o.body))
	}
	sum := sha1.Sum(p.Bytes())
	p.Write(sum[:])

	order := make([]int, len(objs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare(objs[a].id, objs[b].id) })
	var x bytes.Buffer
	x.WriteString("\xfftOc")
	binary.Write(&x, binary.BigEndian, uint32(2))
	for b := range 256 {
		n := 0
		for _, o := range objs {
			if int(o.id[0]) <= b {
				n++
			}
		}
		binary.Write(&x, binary.BigEndian, uint32(n))
	}
	for _, i := range order {
		x.Write(objs[i].id)
	}
	for _, i := range order {
		binary.Write(&x, binary.BigEndian, crc32.ChecksumIEEE(objs[i].body))
	}
	for _, i := range order {
		binary.Write(&x, binary.BigEndian, uint32(offs[i]))
	}
	x.Write(sum[:])
	isum := sha1.Sum(x.Bytes())
	x.Write(isum[:])
	return x.Bytes(), p.Bytes()
}

// treeBody is a tree of files of the names given, each with a made-up id.
func treeBody(names ...string) []byte {
	var b bytes.Buffer
	for i, n := range names {
		fmt.Fprintf(&b, "100644 %s\x00", n)
		b.Write(bytes.Repeat([]byte{byte(i + 1)}, 20))
	}
	return b.Bytes()
}

// insertDelta is a delta from base to a result that copies base whole and
// adds tail.
func insertDelta(base, tail []byte) []byte {
	d := []byte{byte(len(base)), byte(len(base) + len(tail))}
	d = append(d, 0x90, byte(len(base))) // copy from 0, len(base) bytes
	d = append(d, byte(len(tail)))
	return append(d, tail...)
}

// idOf is the SHA-1 id of an object.
func idOf(kind string, body []byte) []byte { return gitSHA1.objectID(kind, body) }

// builtPacks are small packs and what a check must say of each: the
// secret file found, or that it fails.
func builtPacks() map[string]struct {
	objs   []packObj
	secret string
	err    bool
} {
	plain := treeBody("a.txt", "b.txt")
	tail := treeBody("z.key")
	withKey := append(slices.Clone(plain), tail...)
	blob := []byte("TOKEN=secret\n")
	return map[string]struct {
		objs   []packObj
		secret string
		err    bool
	}{
		"whole trees, no secret": {objs: []packObj{
			{kind: packTree, body: plain, id: idOf("tree", plain)},
			{kind: packBlob, body: blob, id: idOf("blob", blob)},
		}},
		"a whole tree naming .env": {objs: []packObj{
			{kind: packBlob, body: blob, id: idOf("blob", blob)},
			{kind: packTree, body: treeBody(".env"), id: idOf("tree", treeBody(".env"))},
		}, secret: ".env"},
		"a delta by offset naming z.key": {objs: []packObj{
			{kind: packTree, body: plain, id: idOf("tree", plain)},
			{kind: packOfsDelta, body: insertDelta(plain, tail), base: 0, id: idOf("tree", withKey)},
		}, secret: "z.key"},
		"a delta by id naming z.key": {objs: []packObj{
			{kind: packTree, body: plain, id: idOf("tree", plain)},
			{kind: packRefDelta, body: insertDelta(plain, tail), ref: idOf("tree", plain), id: idOf("tree", withKey)},
		}, secret: "z.key"},
		"a delta of a blob naming nothing": {objs: []packObj{
			{kind: packBlob, body: plain, id: idOf("blob", plain)},
			{kind: packOfsDelta, body: insertDelta(plain, tail), base: 0, id: idOf("blob", withKey)},
		}},
		"a delta that is its own base": {objs: []packObj{
			{kind: packRefDelta, body: insertDelta(plain, tail), ref: idOf("tree", withKey), id: idOf("tree", withKey)},
		}, err: true},
		"a delta whose base is elsewhere": {objs: []packObj{
			{kind: packRefDelta, body: insertDelta(plain, tail), ref: idOf("tree", plain), id: idOf("tree", withKey)},
		}, err: true},
		"a tree of a bad entry": {objs: []packObj{
			{kind: packTree, body: []byte("100644 .env"), id: idOf("tree", []byte("x"))},
		}, err: true},
		"an entry of a size over 63 bits": {objs: []packObj{
			{kind: packTree, body: plain, id: idOf("tree", plain), declared: 1 << 63},
		}, err: true},
		"an entry of kind 5": {objs: []packObj{
			{kind: 5, body: plain, id: idOf("tree", plain)},
		}, err: true},
	}
}

// TestSecretInPack: whole trees and deltas by offset or id are read; a
// delta of a blob is not; loops, missing bases, bad trees and unknown
// kinds are errors; a pack cut short is an error.
func TestSecretInPack(t *testing.T) {
	for name, c := range builtPacks() {
		idx, pack := buildPack(c.objs)
		x, err := parsePackIndex(idx, 20, int64(len(pack)), partBudget(time.Time{}))
		if err != nil {
			t.Fatalf("%s: the index: %v", name, err)
		}
		got, err := secretInPack(bytes.NewReader(pack), int64(len(pack)), x, partBudget(time.Time{}))
		if got != c.secret || (err != nil) != c.err {
			t.Errorf("%s: %q, %v; want %q, error %v", name, got, err, c.secret, c.err)
		}
	}
	c := builtPacks()["a whole tree naming .env"]
	idx, pack := buildPack(c.objs)
	for what, spoilt := range map[string][]byte{
		"cut": pack[:len(pack)-25], "another magic": append([]byte("KCAP"), pack[4:]...),
	} {
		if x, err := parsePackIndex(idx, 20, int64(len(spoilt)), partBudget(time.Time{})); err == nil {
			if got, err := secretInPack(bytes.NewReader(spoilt), int64(len(spoilt)), x, partBudget(time.Time{})); err == nil {
				t.Errorf("a pack %s: %q, no error", what, got)
			}
		}
	}
	for what, spoilt := range map[string][]byte{
		"cut": idx[:len(idx)-1], "version 1": append([]byte("\xfftOc\x00\x00\x00\x01"), idx[8:]...),
		"a decreasing fan-out": append(append(slices.Clone(idx[:8]), 0, 0, 0, 9), idx[12:]...),
	} {
		if _, err := parsePackIndex(spoilt, 20, int64(len(pack)), partBudget(time.Time{})); err == nil {
			t.Errorf("an index %s: no error", what)
		}
	}
	// Bounds: a pack of more objects than the budget.
	small := partBudget(time.Time{})
	small.objects = 1
	two := builtPacks()["whole trees, no secret"]
	idx, pack = buildPack(two.objs)
	if _, err := parsePackIndex(idx, 20, int64(len(pack)), small); !errors.Is(err, errStoreBounds) {
		t.Errorf("a pack of 2 objects, 1 allowed: %v", err)
	}
}

// FuzzSecretInPack: any index and pack either give an answer or an error,
// within the bounds.
func FuzzSecretInPack(f *testing.F) {
	for _, c := range builtPacks() {
		idx, pack := buildPack(c.objs)
		f.Add(idx, pack)
	}
	f.Fuzz(func(t *testing.T, idx, pack []byte) {
		b := partBudget(time.Time{})
		x, err := parsePackIndex(idx, 20, int64(len(pack)), b)
		if err != nil {
			return
		}
		if len(x.offsets) > maxStoreItems {
			t.Fatalf("%d objects read", len(x.offsets))
		}
		secretInPack(bytes.NewReader(pack), int64(len(pack)), x, b)
	})
}

// FuzzApplyDelta: any delta gives a result of the size it says, at most
// maxTreeObject, or an error.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{12, 9, 3, 'h', 'i', ' ', 0x91, 7, 5, 1, '!'})
	f.Add([]byte("abc"), []byte{3, 3, 0x90, 3})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err == nil && len(out) > maxTreeObject {
			t.Fatalf("a result of %d bytes", len(out))
		}
	})
}

// FuzzSecretInTree: any tree gives a name rate.SecretFile knows, none, or
// an error.
func FuzzSecretInTree(f *testing.F) {
	f.Add(treeBody("a.txt", ".env"), 20)
	f.Add(treeBody("x"), 32)
	f.Fuzz(func(t *testing.T, body []byte, idSize int) {
		if idSize != 20 && idSize != 32 {
			return
		}
		name, err := secretInTree(body, idSize)
		if err == nil && name != "" && !bytes.Contains(body, []byte(name)) {
			t.Fatalf("%q is not in the tree", name)
		}
	})
}
