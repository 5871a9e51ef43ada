package launcher

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
)

// fields lists the fields of t, and of the structs it holds, as
// "Name type `tag`", one a line, nested ones indented: what the gate and a
// launcher must agree on.
func fields(t reflect.Type, indent string, b *strings.Builder) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		b.WriteString(indent + f.Name + " " + f.Type.String() + " `" + string(f.Tag) + "`\n")
		fields(f.Type, indent+"\t", b)
	}
}

// specFields are the fields of Spec as SpecVersion was last changed for.
const specFields = "Version int `json:\"version\"`\n" +
	"Profile launcher.Profile `json:\"profile\"`\n" +
	"\tKind string `json:\"kind\"`\n" +
	"\tRead []string `json:\"read\"`\n" +
	"\tWrite []string `json:\"write\"`\n" +
	"\tHide []string `json:\"hide\"`\n" +
	"\tUI bool `json:\"ui\"`\n" +
	"\tNetwork launcher.Network `json:\"network\"`\n" +
	"\tUnasked bool `json:\"unasked,omitempty\"`\n" +
	"\tTempDir string `json:\"tempDir\"`\n" +
	"\tOtherTemps []string `json:\"otherTemps,omitempty\"`\n" +
	"\tPlants []string `json:\"plants,omitempty\"`\n" +
	"\tEnv []string `json:\"env\"`\n" +
	"\tLimits []launcher.Limit `json:\"limits,omitempty\"`\n" +
	"\t\tResource string `json:\"resource\"`\n" +
	"\t\tMax uint64 `json:\"max\"`\n" +
	"Argv []string `json:\"argv\"`\n" +
	"Dir string `json:\"dir\"`\n" +
	"Probe bool `json:\"probe,omitempty\"`\n" +
	"HostNetNS uint64 `json:\"hostNetNS,omitempty\"`\n" +
	"Layers []launcher.Layer `json:\"layers,omitempty\"`\n" +
	"\tRoot string `json:\"root\"`\n" +
	"\tUpper string `json:\"upper\"`\n" +
	"\tWork string `json:\"work\"`\n" +
	"\tBoot string `json:\"boot,omitempty\"`\n" +
	"Trial *launcher.Layer `json:\"trial,omitempty\"`\n" +
	"\tRoot string `json:\"root\"`\n" +
	"\tUpper string `json:\"upper\"`\n" +
	"\tWork string `json:\"work\"`\n" +
	"\tBoot string `json:\"boot,omitempty\"`\n" +
	"Pinned []launcher.Pinned `json:\"pinned,omitempty\"`\n" +
	"\tPath string `json:\"path\"`\n" +
	"\tMode uint32 `json:\"mode\"`\n" +
	"\tModTime int64 `json:\"modTime\"`\n" +
	"\tBytes []uint8 `json:\"bytes\"`\n"

// TestSpecVersion: the fields of Spec are those SpecVersion 6 was made
// for. A change to them fails here until SpecVersion is raised and
// specFields says what they are now, so that a launcher of one version never
// applies part of another's spec (ReadSpec refuses other versions).
func TestSpecVersion(t *testing.T) {
	var b strings.Builder
	fields(reflect.TypeFor[Spec](), "", &b)
	if got := b.String(); got != specFields || SpecVersion != 6 {
		t.Errorf("Spec's fields are now:\n%s\nSpecVersion %d was made for:\n%s\nRaise SpecVersion and record the fields in specFields.",
			got, SpecVersion, specFields)
	}
}

// fill sets every field v holds, however deep, to a value of its own that
// is not the zero value: counting through n, so that two fields never
// hold the same. A Network is NetHost (the last valid one).
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("/s%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n) << 40)
	case reflect.Uint8:
		if v.Type() == reflect.TypeFor[Network]() {
			v.SetUint(uint64(NetHost))
		} else {
			v.SetUint(uint64(*n))
		}
	case reflect.Uint, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n) << 40)
	default:
		panic("fill: no value for a field of kind " + v.Kind().String())
	}
}

// TestSpecEveryField: every field of Spec, however deep, crosses to the
// launcher as the gate set it. A field added to Spec but not to
// EncodeSpec and decodeSpec fails here.
func TestSpecEveryField(t *testing.T) {
	var s Spec
	n := 0
	fill(reflect.ValueOf(&s).Elem(), &n)
	s.Version = SpecVersion
	s.Profile.Limits[0].Resource, s.Profile.Limits[1].Resource = LimitData, LimitCore
	s.Pinned[0].Mode, s.Pinned[1].Mode = 0o755, 0o600 // only permission bits (CheckPinned)
	s.Pinned[1].ModTime = -s.Pinned[1].ModTime        // before 1970
	got, err := ReadSpec(bytes.NewReader(EncodeSpec(s)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("read back:\n%+v\nwritten:\n%+v", got, s)
	}
}

// spec is EncodeSpec of a spec of this version with argv, edited by edit.
func spec(edit func(*Spec), argv ...string) string {
	s := Spec{Version: SpecVersion, Argv: argv, Profile: Profile{Hide: []string{"/h"}}}
	if edit != nil {
		edit(&s)
	}
	return string(EncodeSpec(s))
}

// TestReadSpec: a spec is read whole, of this version, with no byte left
// over or missing and within its bound; each refusal says what was wrong.
func TestReadSpec(t *testing.T) {
	good := spec(nil, "/bin/true")
	withLimits := func(ls ...Limit) func(*Spec) { return func(s *Spec) { s.Profile.Limits = ls } }
	big := spec(func(s *Spec) { s.Dir = strings.Repeat("a", MaxSpecBytes) }, "x")
	tests := []struct {
		name, in, want string
	}{
		{"good", good, ""},
		{"probe without a program", spec(func(s *Spec) { s.Probe = true }), ""},
		{"no program", spec(nil), "names no program"},
		{"other version", spec(func(s *Spec) { s.Version = 1 }, "x"), "version 1 and this launcher reads version 6"},
		{"the last version", spec(func(s *Spec) { s.Version = 5 }, "x"), "version 5 and this launcher reads version 6"},
		{"no version", spec(func(s *Spec) { s.Version = 0 }, "x"), "version 0"},
		{"the last version's JSON", `{"version":4,"argv":["x"]}`, "the profile is JSON"},
		{"a byte more", good + "\x00", "1 bytes after its end"},
		{"two specs", good + good, "bytes after its end"},
		{"a byte less", good[:len(good)-1], "the profile ends"},
		{"cut in a string", good[:len(specMagic)+7], "more than the"},
		{"empty", "", "does not start as a spec does"},
		{"not a spec", "version 1", "does not start as a spec does"},
		{"bad network", spec(func(s *Spec) { s.Profile.Network = 7 }, "x"), "unknown network grant 7"},
		{"bad bool", strings.Replace(spec(func(s *Spec) { s.Profile.UI = true }, "x"), "\x02/h\x01", "\x02/h\x02", 1), "the UI grant at byte"},
		{"long varint", specMagic + "\x84\x00", "not in its shortest form"},
		{"varint overflow", specMagic + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", "overflows 64 bits"},
		{"a count past the end", specMagic + string(byte(SpecVersion)) + "\x00\xff\xff\xff\xff\x0f", "more than the"},
		{"too large", big, "larger than"},
		{"limits", spec(withLimits(Limit{LimitData, 1024}, Limit{LimitCore, 0}), "x"), ""},
		{"unknown limit", spec(withLimits(Limit{LimitData, 1}, Limit{"stack", 1}), "x"), `limit 1: unknown resource "stack"`},
		{"pinned", spec(func(s *Spec) { s.Pinned = []Pinned{{Path: "/p", Mode: 0o755, ModTime: -1, Bytes: []byte("#!/bin/sh")}} }, "x"), ""},
		{"pinned twice", spec(func(s *Spec) { s.Pinned = []Pinned{{Path: "/p", Mode: 0o644}, {Path: "/p", Mode: 0o644}} }, "x"), "/p is pinned twice"},
		{"pinned set-user-ID", spec(func(s *Spec) { s.Pinned = []Pinned{{Path: "/p", Mode: 0o4755}} }, "x"), "bits other than the permissions"},
		{"limit twice", spec(withLimits(Limit{LimitCore, 0}, Limit{LimitCore, 9}), "x"), "limit 1: core is bounded twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadSpec(strings.NewReader(tt.in))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("ReadSpec: %v", err)
				}
				if s.Version != SpecVersion {
					t.Errorf("version %d", s.Version)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ReadSpec = %v, want an error saying %q", err, tt.want)
			}
			if !reflect.DeepEqual(s, Spec{}) {
				t.Errorf("a refused spec came back filled: %+v", s)
			}
		})
	}
}

// TestReadSpecFile: a spec in a file (the gate's sealed memfd) is read
// whole, from where the file stands, whatever its size.
func TestReadSpecFile(t *testing.T) {
	for _, n := range []int{0, 1, 511, 4096, 100 << 10} {
		want := Spec{Version: SpecVersion, Argv: []string{"x"}, Dir: strings.Repeat("d", n)}
		f, err := os.CreateTemp(t.TempDir(), "spec")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(EncodeSpec(want)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got, err := ReadSpec(f)
		f.Close()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%d bytes: ReadSpec = %v, %v", n, len(got.Dir), err)
		}
	}
}

// TestReadSpecReadError: a profile that cannot be read is an error that
// says so.
func TestReadSpecReadError(t *testing.T) {
	_, err := ReadSpec(failingReader{})
	if err == nil || !strings.Contains(err.Error(), "reading the profile") {
		t.Fatalf("ReadSpec = %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("broken") }

// FuzzReadSpec: whatever comes on file descriptor 3, ReadSpec returns a
// spec of this version whose limits all name a known resource once, whose
// network is one of the three, and which EncodeSpec writes again as the
// very bytes read (nothing read was skipped or guessed); or an error and
// nothing.
func FuzzReadSpec(f *testing.F) {
	f.Add(spec(func(s *Spec) { s.Profile.Limits = []Limit{{LimitData, 1024}} }, "/bin/true"))
	f.Add(spec(func(s *Spec) {
		s.Probe = true
		s.Layers = []Layer{{Root: "/r", Upper: "/u", Work: "/w"}}
		s.Trial = &Layer{Root: "/t", Upper: "/tu", Work: "/tw", Boot: "b"}
	}))
	f.Add(spec(func(s *Spec) { s.Profile.Limits = []Limit{{LimitCore, 0}, {LimitCore, 0}} }, "x"))
	f.Add(spec(func(s *Spec) { s.Profile.Network, s.HostNetNS, s.Profile.Env = NetInternet, 1<<40, []string{"A=b"} }, "x", "y"))
	f.Add(spec(func(s *Spec) { s.Pinned = []Pinned{{Path: "/p", Mode: 0o644, ModTime: -5, Bytes: []byte("x")}} }, "x"))
	f.Add(`{"version":4,"argv":["x"]}`)
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadSpec(strings.NewReader(in))
		if err != nil {
			if !reflect.DeepEqual(s, Spec{}) {
				t.Fatalf("refused (%v) but filled: %+v", err, s)
			}
			return
		}
		if s.Version != SpecVersion || !s.Probe && len(s.Argv) == 0 {
			t.Fatalf("accepted a spec of version %d with argv %q", s.Version, s.Argv)
		}
		if err := CheckLimits(s.Profile.Limits); err != nil {
			t.Fatalf("accepted limits CheckLimits refuses: %v", err)
		}
		if err := s.Profile.Network.Valid(); err != nil {
			t.Fatalf("accepted a network Valid refuses: %v", err)
		}
		if again := string(EncodeSpec(s)); again != in {
			t.Fatalf("read %q, which writes again as %q", in, again)
		}
	})
}

// BenchmarkReadSpec reads the spec of a confined /bin/true as a gate
// writes it for a home with the hidden paths of hometables.go.
func BenchmarkReadSpec(b *testing.B) {
	home := "/home/someone-with-a-long-name"
	var hide []string
	for i := range 110 {
		hide = append(hide, fmt.Sprintf("%s/.config/some-credential-store-%03d", home, i))
	}
	in := EncodeSpec(Spec{Version: SpecVersion, Argv: []string{"/bin/true"}, Dir: home,
		Profile: Profile{Kind: "command", Read: []string{"/bin", "/etc", "/lib", "/usr", home}, Write: []string{home + "/Documents"},
			Hide: hide, TempDir: "/tmp/t", Env: []string{"PATH=/usr/bin:/bin", "HOME=" + home}}})
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := ReadSpec(bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}
