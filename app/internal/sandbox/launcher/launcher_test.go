package launcher

import (
	"errors"
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

// TestSpecVersion: the fields of Spec are those SpecVersion 4 was made
// for. A change to them fails here until SpecVersion is raised and
// specFields says what they are now, so that a launcher of one version never
// applies part of another's spec (ReadSpec refuses other versions).
func TestSpecVersion(t *testing.T) {
	var b strings.Builder
	fields(reflect.TypeFor[Spec](), "", &b)
	if got := b.String(); got != specFields || SpecVersion != 4 {
		t.Errorf("Spec's fields are now:\n%s\nSpecVersion %d was made for:\n%s\nRaise SpecVersion and record the fields in specFields.",
			got, SpecVersion, specFields)
	}
}

// TestReadSpec: a spec is read whole, of this version, with no field it
// does not know and within its bound; each refusal says what was wrong.
func TestReadSpec(t *testing.T) {
	big := `{"version":4,"argv":["x"],"dir":"` + strings.Repeat("a", MaxSpecBytes) + `"}`
	tests := []struct {
		name, in, want string
	}{
		{"good", `{"version":4,"argv":["/bin/true"],"profile":{"hide":["/h"]}}`, ""},
		{"probe without a program", `{"version":4,"probe":true}`, ""},
		{"no program", `{"version":4}`, "names no program"},
		{"other version", `{"version":1,"argv":["x"]}`, "version 1 and this launcher reads version 4"},
		{"the last version", `{"version":3,"argv":["x"]}`, "version 3 and this launcher reads version 4"},
		{"no version", `{"argv":["x"]}`, "version 0"},
		{"unknown field", `{"version":4,"argv":["x"],"noHide":true}`, `unknown field "noHide"`},
		{"unknown nested field", `{"version":4,"argv":["x"],"layers":[{"root":"/r","lower":"/x"}]}`, `unknown field "lower"`},
		{"trailing value", `{"version":4,"argv":["x"]} {}`, "more than one JSON value"},
		{"not JSON", `version 1`, "reading the profile"},
		{"bad network", `{"version":4,"argv":["x"],"profile":{"network":"everything"}}`, "unknown network grant"},
		{"too large", big, "larger than"},
		{"limits", `{"version":4,"argv":["x"],"profile":{"limits":[{"resource":"data","max":1024},{"resource":"core","max":0}]}}`, ""},
		{"unknown limit", `{"version":4,"argv":["x"],"profile":{"limits":[{"resource":"data","max":1},{"resource":"stack","max":1}]}}`, `limit 1: unknown resource "stack"`},
		{"limit twice", `{"version":4,"argv":["x"],"profile":{"limits":[{"resource":"core","max":0},{"resource":"core","max":9}]}}`, "limit 1: core is bounded twice"},
		{"unknown limit field", `{"version":4,"argv":["x"],"profile":{"limits":[{"resource":"core","soft":1}]}}`, `unknown field "soft"`},
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
// spec of this version whose limits all name a known resource once, or an
// error and nothing.
func FuzzReadSpec(f *testing.F) {
	f.Add(`{"version":4,"argv":["/bin/true"],"profile":{"hide":["/h"],"limits":[{"resource":"data","max":1024}]}}`)
	f.Add(`{"version":4,"probe":true,"layers":[{"root":"/r","upper":"/u","work":"/w"}]}`)
	f.Add(`{"version":4,"argv":["x"],"profile":{"limits":[{"resource":"core","max":0},{"resource":"core","max":0}]}}`)
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
	})
}
