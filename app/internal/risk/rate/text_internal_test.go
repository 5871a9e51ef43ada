package rate

import (
	"strings"
	"testing"
)

// hfsByParts is HFSToPOSIX by its definition: the parts after the
// volume's name, joined by slashes under the root.
func hfsByParts(p string) string {
	parts := strings.Split(p, ":")
	if len(parts) < 2 {
		return p
	}
	return "/" + strings.Join(parts[1:], "/")
}

func TestHFSToPOSIX(t *testing.T) {
	for p, want := range map[string]string{
		"Macintosh HD:Users:me:.ssh:id_rsa": "/Users/me/.ssh/id_rsa",
		"no colon":                          "no colon",
		":":                                 "/",
		"HD::x:":                            "//x/",
		"Now playing: ":                     "/ ",
		"é:ü:\xff":                          "/ü/\xff",
	} {
		if got := HFSToPOSIX(p); got != want || got != hfsByParts(p) {
			t.Errorf("HFSToPOSIX(%q) = %q, want %q", p, got, want)
		}
	}
}

// FuzzHFSToPOSIX checks HFSToPOSIX against its definition on any text.
func FuzzHFSToPOSIX(f *testing.F) {
	f.Add("Macintosh HD:Users:me:.ssh:id_rsa")
	f.Add("::")
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := HFSToPOSIX(p), hfsByParts(p); got != want {
			t.Fatalf("HFSToPOSIX(%q) = %q, by its parts %q", p, got, want)
		}
	})
}
