package assets_test

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/airlockhq/airlock/assets"
)

// Every icon is a 32×32 template image: black wherever it is not fully
// transparent, with something drawn, and no two states look the same.
func TestIconsAreDistinctTemplates(t *testing.T) {
	icons := map[string][]byte{"level0": assets.Level0, "level1": assets.Level1, "level2": assets.Level2,
		"pending": assets.Pending, "killed": assets.Killed}
	seen := map[string]string{}
	for name, b := range icons {
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if img.Bounds() != image.Rect(0, 0, 32, 32) {
			t.Errorf("%s is %v, want 32×32", name, img.Bounds())
		}
		ink := 0
		for y := range 32 {
			for x := range 32 {
				r, g, bl, a := img.At(x, y).RGBA()
				if a == 0 {
					continue
				}
				ink++
				if r != 0 || g != 0 || bl != 0 {
					t.Fatalf("%s has a coloured pixel at (%d, %d): template icons are black and alpha", name, x, y)
				}
			}
		}
		if ink < 50 {
			t.Errorf("%s has only %d drawn pixels", name, ink)
		}
		if other, dup := seen[string(b)]; dup {
			t.Errorf("%s and %s are the same icon", name, other)
		}
		seen[string(b)] = name
	}
}
