package launcher

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"unsafe"
)

// The spec's encoding. JSON took the warm launcher about 150 µs to read
// for a profile of 7 KB (the hidden paths of the home, mostly), a tenth of
// a confined start; this one takes a few. It is a list of fields in
// Spec's order, with nothing to name them: a launcher reads only a spec of
// its own SpecVersion (the version comes first, after specMagic), and
// refuses one with a byte left over or missing.
//
//   - a string: its length (uvarint), then its bytes;
//   - a list: its length (uvarint), then its elements;
//   - a bool: the byte 0 or 1;
//   - a uint64, a uint32, an int: a uvarint (an int is never negative
//     here); an int64: encoding/binary's varint (zig-zag), in its
//     shortest form too;
//   - a []byte: as a string;
//   - a Network: one byte, one of the three;
//   - a *Layer: the byte 0 (nil) or 1, then the Layer.
//
// A uvarint is encoding/binary's, in its shortest form only, so that a
// spec has one encoding (FuzzReadSpec: what is read is written again the
// same).

// specMagic starts every spec: a byte no JSON text starts with, so that a
// launcher of SpecVersion 4 or older (which read JSON) refuses it as not
// JSON, then a name that says what the file is.
const specMagic = "\x00airlock-spec\n"

// EncodeSpec returns s in the encoding ReadSpec reads, with s.Version as
// it is (the gate sets it to SpecVersion).
func EncodeSpec(s Spec) []byte {
	var w specWriter
	w.b = append(make([]byte, 0, 4096), specMagic...)
	w.uint(uint64(s.Version))
	p := s.Profile
	w.str(p.Kind)
	w.strs(p.Read)
	w.strs(p.Write)
	w.strs(p.Hide)
	w.bool(p.UI)
	w.b = append(w.b, byte(p.Network))
	w.bool(p.Unasked)
	w.str(p.TempDir)
	w.strs(p.OtherTemps)
	w.strs(p.Plants)
	w.strs(p.Env)
	w.uint(uint64(len(p.Limits)))
	for _, l := range p.Limits {
		w.str(l.Resource)
		w.uint(l.Max)
	}
	w.strs(s.Argv)
	w.str(s.Dir)
	w.bool(s.Probe)
	w.uint(s.HostNetNS)
	w.uint(uint64(len(s.Layers)))
	for _, l := range s.Layers {
		w.layer(l)
	}
	w.bool(s.Trial != nil)
	if s.Trial != nil {
		w.layer(*s.Trial)
	}
	w.uint(uint64(len(s.Pinned)))
	for _, f := range s.Pinned {
		w.str(f.Path)
		w.uint(uint64(f.Mode))
		w.int(f.ModTime)
		w.str(string(f.Bytes))
	}
	return w.b
}

type specWriter struct{ b []byte }

func (w *specWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

// int writes v zig-zag encoded, as binary.AppendVarint does.
func (w *specWriter) int(v int64) { w.b = binary.AppendVarint(w.b, v) }

func (w *specWriter) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *specWriter) strs(ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

func (w *specWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *specWriter) layer(l Layer) {
	w.str(l.Root)
	w.str(l.Upper)
	w.str(l.Work)
	w.str(l.Boot)
}

// ReadSpec reads a spec from r: at most MaxSpecBytes in EncodeSpec's
// encoding, of this SpecVersion, every byte of it a field of Spec, naming
// a program unless it is a probe's.
func ReadSpec(r io.Reader) (Spec, error) {
	b, err := readSpecBytes(r)
	if err != nil {
		return Spec{}, err
	}
	s, err := decodeSpec(b)
	if err != nil {
		return Spec{}, err
	}
	if !s.Probe && len(s.Argv) == 0 {
		return Spec{}, errors.New("the profile names no program")
	}
	if err := CheckLimits(s.Profile.Limits); err != nil {
		return Spec{}, fmt.Errorf("reading the profile: %w", err)
	}
	if err := CheckPinned(s.Pinned); err != nil {
		return Spec{}, fmt.Errorf("reading the profile: %w", err)
	}
	return s, nil
}

// readSpecBytes reads all of r, at most MaxSpecBytes: a file (the sealed
// memfd the gate writes) or a reader that knows its length in one read of
// that size where it can, with a byte more of room to see the end.
func readSpecBytes(r io.Reader) ([]byte, error) {
	size := 512
	switch r := r.(type) {
	case *os.File:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < MaxSpecBytes {
			size = int(fi.Size()) + 1
		}
	case interface{ Len() int }:
		if n := r.Len(); n < MaxSpecBytes {
			size = n + 1
		}
	}
	b := make([]byte, 0, size)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if len(b) > MaxSpecBytes {
			return nil, fmt.Errorf("the profile is larger than %d bytes", MaxSpecBytes)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the profile: %w", err)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// decodeSpec decodes b, a whole spec: its magic and version first, so
// that a spec of another version is refused as such whatever follows.
func decodeSpec(b []byte) (Spec, error) {
	if len(b) > 0 && b[0] == '{' {
		return Spec{}, fmt.Errorf("the profile is JSON, as a gate of version 4 or older writes it, and this launcher reads version %d: "+
			"the launcher (%s) and the gate come from different versions of Airlock; install them again together", SpecVersion, Program)
	}
	if len(b) < len(specMagic) || string(b[:len(specMagic)]) != specMagic {
		return Spec{}, errors.New("reading the profile: it does not start as a spec does (is this launcher from the same version of Airlock as the gate?)")
	}
	// One string holds every string of the spec: each field is a part of
	// it. It is b's bytes themselves, not a copy: nothing writes to b after
	// it was read (readSpecBytes made it, and only decodeSpec holds it).
	r := specReader{s: unsafe.String(unsafe.SliceData(b), len(b)), at: len(specMagic)}
	var s Spec
	version := r.uint("the version")
	if r.err == nil && version != SpecVersion {
		return Spec{}, fmt.Errorf("the profile is of version %d and this launcher reads version %d: "+
			"the launcher (%s) and the gate come from different versions of Airlock; install them again together", version, SpecVersion, Program)
	}
	s.Version = int(version)
	p := &s.Profile
	p.Kind = r.str("the kind")
	p.Read = r.strs("the folders read")
	p.Write = r.strs("the folders written")
	p.Hide = r.strs("the paths hidden")
	p.UI = r.bool("the UI grant")
	if n := r.byte("the network"); r.err == nil {
		p.Network = Network(n)
		if err := p.Network.Valid(); err != nil {
			r.err = fmt.Errorf("reading the profile: %w", err)
		}
	}
	p.Unasked = r.bool("unasked")
	p.TempDir = r.str("the temporary folder")
	p.OtherTemps = r.strs("the other temporary folders")
	p.Plants = r.strs("the planting places")
	p.Env = r.strs("the environment")
	if n := r.count("the limits", 2); n > 0 {
		p.Limits = make([]Limit, n)
		for i := range p.Limits {
			p.Limits[i] = Limit{Resource: r.str("a limit's resource"), Max: r.uint("a limit's bound")}
		}
	}
	s.Argv = r.strs("the program")
	s.Dir = r.str("the program's folder")
	s.Probe = r.bool("probe")
	s.HostNetNS = r.uint("the host's network namespace")
	if n := r.count("the layers", 4); n > 0 {
		s.Layers = make([]Layer, n)
		for i := range s.Layers {
			s.Layers[i] = r.layer()
		}
	}
	if r.bool("the trial layer") {
		l := r.layer()
		s.Trial = &l
	}
	if n := r.count("the pinned files", 4); n > 0 {
		s.Pinned = make([]Pinned, n)
		for i := range s.Pinned {
			f := &s.Pinned[i]
			f.Path = r.str("a pinned file's path")
			if m := r.uint("a pinned file's mode"); m > math.MaxUint32 {
				r.fail("a pinned file's mode", "overflows 32 bits")
			} else {
				f.Mode = uint32(m)
			}
			f.ModTime = r.int("a pinned file's time")
			if b := r.str("a pinned file's bytes"); b != "" {
				f.Bytes = []byte(b)
			}
		}
	}
	if r.err == nil && r.at != len(r.s) {
		r.err = fmt.Errorf("reading the profile: %d bytes after its end (is this launcher from the same version of Airlock as the gate?)", len(r.s)-r.at)
	}
	if r.err != nil {
		return Spec{}, r.err
	}
	return s, nil
}

// specReader reads the fields of a spec from s, from at on. Its first
// error sticks: every read after it returns the zero value.
type specReader struct {
	s   string
	at  int
	err error
}

func (r *specReader) fail(what, why string) {
	if r.err == nil {
		r.err = fmt.Errorf("reading the profile: %s at byte %d %s", what, r.at, why)
	}
}

func (r *specReader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if r.at >= len(r.s) {
		r.fail(what, "is missing: the profile ends there")
		return 0
	}
	c := r.s[r.at]
	r.at++
	return c
}

func (r *specReader) uint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	for i, shift := r.at, uint(0); i < len(r.s); i, shift = i+1, shift+7 {
		c := r.s[i]
		if i-r.at == binary.MaxVarintLen64-1 && c > 1 || shift > 63 {
			r.fail(what, "overflows 64 bits")
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			if c == 0 && i > r.at {
				r.fail(what, "is not in its shortest form")
				return 0
			}
			r.at = i + 1
			return v
		}
	}
	r.fail(what, "is cut: the profile ends in it")
	return 0
}

// int reads what specWriter.int wrote.
func (r *specReader) int(what string) int64 {
	u := r.uint(what)
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *specReader) bool(what string) bool {
	switch c := r.byte(what); {
	case r.err != nil:
		return false
	case c > 1:
		r.at--
		r.fail(what, fmt.Sprintf("is %d, neither 0 nor 1", c))
		return false
	default:
		return c == 1
	}
}

// count reads the length of a list whose elements take at least min bytes
// each: one longer than the rest of the profile could hold is refused
// before anything is made for it.
func (r *specReader) count(what string, min int) int {
	n := r.uint(what)
	if r.err == nil && n > uint64((len(r.s)-r.at)/min) {
		r.fail(what, fmt.Sprintf("count %d more than the %d bytes left hold", n, len(r.s)-r.at))
		return 0
	}
	return int(n)
}

func (r *specReader) str(what string) string {
	n := r.count(what, 1)
	if r.err != nil {
		return ""
	}
	s := r.s[r.at : r.at+n]
	r.at += n
	return s
}

func (r *specReader) strs(what string) []string {
	n := r.count(what, 1)
	if r.err != nil || n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = r.str(what)
	}
	if r.err != nil {
		return nil
	}
	return ss
}

func (r *specReader) layer() Layer {
	return Layer{Root: r.str("a layer's root"), Upper: r.str("a layer's upper folder"),
		Work: r.str("a layer's work folder"), Boot: r.str("a layer's boot")}
}
