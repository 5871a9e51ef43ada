package execute

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"
)

// Git names every object by the hash of its type, size and content, and
// the review reads a few of them: a commit the checked-out branch moved
// to (what tree, which parents), and every loose object an action wrote,
// whose content must hash to its name (git reads a loose object without
// checking: one whose content is another's would give a commit or a file
// the person's git already trusts other content). These readers take
// untrusted bytes: sizes are bounded, and anything git would not write is
// an error, which holds the change.

// gitHash is a repository's object format: SHA-1, or SHA-256 when its
// config sets extensions.objectformat.
type gitHash struct {
	name string
	size int // bytes of a raw object id
	new  func() hash.Hash
}

var (
	gitSHA1   = gitHash{"sha1", sha1.Size, sha1.New}
	gitSHA256 = gitHash{"sha256", sha256.Size, sha256.New}
)

// errGitObject is wrapped by the error of an object Airlock cannot read
// as git wrote it.
var errGitObject = errors.New("not a git object Airlock can read")

// maxObject bounds the size of an object read whole (a commit); a larger
// one is refused. Objects only hashed (verifyLoose) are streamed.
const maxObject = 64 << 20

// maxObjectHeader bounds an object's header: "commit 67108864\0" and more.
const maxObjectHeader = 32

// objectFormat returns the hash extensions.objectformat names, from a
// repository config's entries (gitConfigEntries): SHA-1 when it is unset,
// an error for a value git does not know.
func objectFormat(entries []gitEntry) (gitHash, error) {
	h := gitSHA1
	for _, e := range entries {
		if e.key != "extensions.objectformat" {
			continue
		}
		v, err := gitValue(e.raw)
		if err != nil {
			return gitHash{}, err
		}
		switch strings.ToLower(v) {
		case "sha1":
			h = gitSHA1
		case "sha256":
			h = gitSHA256
		default:
			return gitHash{}, fmt.Errorf("unknown object format %q", v)
		}
	}
	return h, nil
}

// hexID parses a hex object id of h's length, in lower case as git
// writes it.
func (h gitHash) hexID(s string) ([]byte, bool) {
	if len(s) != 2*h.size || strings.ToLower(s) != s {
		return nil, false
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}

// objectID is the id of an object of kind ("blob", "tree", "commit") with
// content body.
func (h gitHash) objectID(kind string, body []byte) []byte {
	w := h.new()
	fmt.Fprintf(w, "%s %d\x00", kind, len(body))
	w.Write(body)
	return w.Sum(nil)
}

// blobID hashes size bytes of r as git hashes a file it adds: "blob
// <size>\0" and the bytes. It fails when r holds more or fewer.
func (h gitHash) blobID(r io.Reader, size int64) ([]byte, error) {
	w := h.new()
	fmt.Fprintf(w, "blob %d\x00", size)
	n, err := io.Copy(w, io.LimitReader(r, size+1))
	if err != nil {
		return nil, err
	}
	if n != size {
		return nil, fmt.Errorf("%d bytes where the file said %d: it changed while read", n, size)
	}
	return w.Sum(nil), nil
}

// readObjectHeader reads a loose object's header, "kind size\0", from the
// inflated stream r: the kinds git stores, a size in decimal without
// leading zeros.
func readObjectHeader(r *bufio.Reader) (string, int64, error) {
	var hdr []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			return "", 0, fmt.Errorf("%w: its header ends early", errGitObject)
		}
		if c == 0 {
			break
		}
		if hdr = append(hdr, c); len(hdr) > maxObjectHeader {
			return "", 0, fmt.Errorf("%w: its header is over %d bytes", errGitObject, maxObjectHeader)
		}
	}
	kind, num, ok := strings.Cut(string(hdr), " ")
	switch kind {
	case "blob", "tree", "commit", "tag":
	default:
		return "", 0, fmt.Errorf("%w: unknown kind %q", errGitObject, kind)
	}
	size, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || size < 0 || strconv.FormatInt(size, 10) != num {
		return "", 0, fmt.Errorf("%w: bad size %q", errGitObject, num)
	}
	return kind, size, nil
}

// readLoose reads a loose object (zlib of header and content) whole: its
// kind and content. One over maxObject bytes, one whose stream holds more
// or less than its header says, is refused.
func readLoose(r io.Reader) (string, []byte, error) {
	z, err := zlib.NewReader(r)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", errGitObject, err)
	}
	defer z.Close()
	br := bufio.NewReader(z)
	kind, size, err := readObjectHeader(br)
	if err != nil {
		return "", nil, err
	}
	if size > maxObject {
		return "", nil, fmt.Errorf("%w: %d bytes, over the %d read", errGitObject, size, maxObject)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(br, body); err != nil {
		return "", nil, fmt.Errorf("%w: its content ends before the %d bytes its header says", errGitObject, size)
	}
	if err := atEnd(br); err != nil {
		return "", nil, err
	}
	return kind, body, nil
}

// atEnd checks that the stream r has nothing more, and that its zlib
// checksum held.
func atEnd(r io.Reader) error {
	var one [1]byte
	n, err := io.ReadFull(r, one[:])
	switch {
	case n > 0:
		return fmt.Errorf("%w: more content than its header says", errGitObject)
	case errors.Is(err, io.EOF):
		return nil
	}
	return fmt.Errorf("%w: %v", errGitObject, err)
}

// looseID inflates a loose object, of any size, and returns the id its
// header and content hash to: the name git should have given it.
func (h gitHash) looseID(r io.Reader) ([]byte, error) {
	z, err := zlib.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errGitObject, err)
	}
	defer z.Close()
	br := bufio.NewReader(z)
	kind, size, err := readObjectHeader(br)
	if err != nil {
		return nil, err
	}
	w := h.new()
	fmt.Fprintf(w, "%s %d\x00", kind, size)
	n, err := io.Copy(w, io.LimitReader(br, size))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errGitObject, err)
	}
	if n != size {
		return nil, fmt.Errorf("%w: its content ends before the %d bytes its header says", errGitObject, size)
	}
	if err := atEnd(br); err != nil {
		return nil, err
	}
	return w.Sum(nil), nil
}

// gitCommit is what the review needs of a commit: its tree and parents.
type gitCommit struct {
	tree    []byte
	parents [][]byte
}

// parseCommit reads a commit's content as git does (commit.c,
// parse_commit_buffer): a "tree" line first, then its "parent" lines, each
// an id in hex; the rest (author, message) is not needed.
func (h gitHash) parseCommit(body []byte) (gitCommit, error) {
	var c gitCommit
	line, rest, ok := bytes.Cut(body, []byte("\n"))
	tree, isTree := bytes.CutPrefix(line, []byte("tree "))
	if !ok || !isTree {
		return c, fmt.Errorf("%w: a commit whose first line is not its tree", errGitObject)
	}
	if c.tree, ok = h.hexID(string(tree)); !ok {
		return c, fmt.Errorf("%w: a commit's tree %q is no object id", errGitObject, tree)
	}
	for {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		p, isParent := bytes.CutPrefix(line, []byte("parent "))
		if !isParent {
			return c, nil
		}
		id, ok := h.hexID(string(p))
		if !ok {
			return c, fmt.Errorf("%w: a commit's parent %q is no object id", errGitObject, p)
		}
		c.parents = append(c.parents, id)
		rest = after
	}
}
