package history

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
)

// hmacWriter feeds length-prefixed fields to an HMAC so that no two
// different rows encode to the same bytes.
type hmacWriter struct {
	h   hash.Hash
	buf [binary.MaxVarintLen64]byte
}

func (w *hmacWriter) bytes(b []byte) {
	w.h.Write(w.buf[:binary.PutUvarint(w.buf[:], uint64(len(b)))])
	w.h.Write(b)
}

func (w *hmacWriter) str(s string) { w.bytes([]byte(s)) }

func (w *hmacWriter) int(v int64) {
	binary.BigEndian.PutUint64(w.buf[:8], uint64(v))
	w.h.Write(w.buf[:8])
}

func (w *hmacWriter) tag(c byte) { w.h.Write([]byte{c}) }

func (w *hmacWriter) sum() []byte { return w.h.Sum(nil) }

// link computes a row's chain link from the previous row's link and the
// row as stored: vals holds t.cols in order, sealed columns as their
// sealed bytes.
func (k *keyring) link(prev []byte, t *table, seq int64, vals []any) []byte {
	w := k.mac()
	w.str("airlock-history-link-v1")
	w.bytes(prev)
	w.str(t.name)
	w.int(seq)
	w.str(k.id)
	for i, c := range t.cols {
		switch c.kind {
		case textCol:
			w.tag('t')
			w.str(vals[i].(string))
		case addedTextCol:
			if v := vals[i].(string); v != "" {
				w.tag('a')
				w.str(c.name)
				w.str(v)
			}
		case intCol:
			w.tag('i')
			w.int(vals[i].(int64))
		case sealedCol:
			w.tag('s')
			w.bytes(vals[i].([]byte))
		}
	}
	return w.sum()
}

// genesis is link(0): it ties the chain to one database's random id.
func genesis(dbID string) []byte {
	h := sha256.Sum256([]byte("airlock-history-genesis-v1\x00" + dbID))
	return h[:]
}

// A head is the last row of the chain.
type head struct {
	seq  int64
	link []byte
}

// encodeHead is the meta value "head": seq, link, the id of the key that
// signs it, and an HMAC over all of them and the database id, so the head
// cannot be moved back by someone without the key.
func (k *keyring) encodeHead(dbID string, h head) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(h.seq))
	b = append(b, h.link...)
	b = append(b, byte(len(k.id)))
	b = append(b, k.id...)
	return append(b, k.headMAC(dbID, b)...)
}

func (k *keyring) headMAC(dbID string, body []byte) []byte {
	w := k.mac()
	w.str("airlock-history-head-v1")
	w.str(dbID)
	w.bytes(body)
	return w.sum()
}

var errBadHead = errors.New("malformed head")

// splitHead parses a head value without checking its HMAC: it returns the
// head, the key id that signs it, the signed body and the HMAC.
func splitHead(b []byte) (h head, keyID string, body, mac []byte, err error) {
	const fixed = 8 + sha256.Size
	if len(b) < fixed+1 {
		return head{}, "", nil, nil, errBadHead
	}
	n := int(b[fixed])
	if len(b) != fixed+1+n+sha256.Size {
		return head{}, "", nil, nil, errBadHead
	}
	h = head{seq: int64(binary.BigEndian.Uint64(b)), link: b[8:fixed]}
	if h.seq < 0 {
		return head{}, "", nil, nil, errBadHead
	}
	return h, string(b[fixed+1 : fixed+1+n]), b[:fixed+1+n], b[fixed+1+n:], nil
}

// checkHead verifies a head value with the keyring it names.
func (k *keyring) checkHead(dbID string, body, mac []byte) bool {
	return hmac.Equal(k.headMAC(dbID, body), mac)
}

// anchors are kept in the key store, which is trusted: seq and link only.
func encodeAnchor(h head) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(h.seq)), h.link...)
}

func decodeAnchor(b []byte) (head, bool) {
	if len(b) != 8+sha256.Size {
		return head{}, false
	}
	return head{seq: int64(binary.BigEndian.Uint64(b)), link: b[8:]}, true
}
