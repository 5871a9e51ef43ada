package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The committed icons are exactly what gen draws: a changed shape without
// `go generate ./assets` fails here.
func TestCommittedIconsMatchTheDrawing(t *testing.T) {
	for _, ic := range Icons {
		b, err := os.ReadFile(filepath.Join("..", ic.Name))
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./assets)", ic.Name, err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", ic.Name, err)
		}
		want := Draw(ic.Shape)
		if !sameImage(got, want) {
			t.Errorf("%s differs from what gen draws; run go generate ./assets", ic.Name)
		}
	}
}

func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if !reflect.DeepEqual(rgba(a, x, y), rgba(b, x, y)) {
				return false
			}
		}
	}
	return true
}

func rgba(img image.Image, x, y int) [4]uint32 {
	r, g, b, a := img.At(x, y).RGBA()
	return [4]uint32{r, g, b, a}
}
