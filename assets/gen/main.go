// Command gen draws Airlock's menu-bar template icons (black on transparent,
// as macOS template images must be) and writes them as PNG files beside
// assets.go. Run it with `go generate ./assets` after changing a shape;
// assets' tests fail while the committed files differ from what it draws.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
)

// Size is the icons' side in pixels: 16 points at 2x, which is how systray
// shows them on macOS (it sets the image to 16×16 points).
const Size = 32

// Icons names every icon and the shape it is drawn from. A shape reports
// how much of a point (x, y in pixels, origin top left) is covered: 0 to 1.
var Icons = []struct {
	Name  string
	Shape func(x, y float64) float64
}{
	{"level0.png", union(door, ring(16, 16, 5, 1.6))},                     // ask for everything: an empty ring, nothing passes
	{"level1.png", union(door, disc(16, 16, 3.6))},                        // smart default: one dot
	{"level2.png", union(door, disc(16, 11.5, 3.2), disc(16, 20.5, 3.2))}, // full auto: two dots
	{"pending.png", union(door, capsule(16, 9, 16, 17.5, 1.9), disc(16, 22.5, 2.1))},
	{"killed.png", minus(solidDoor, union(capsule(11, 11, 21, 21, 2.2), capsule(21, 11, 11, 21, 2.2)))},
}

// door is the airlock's frame: a rounded square outline.
func door(x, y float64) float64 { return stroke(roundRect(x, y, 16, 16, 12.5, 5), 2.6) }

// solidDoor is the frame filled in.
func solidDoor(x, y float64) float64 { return fill(roundRect(x, y, 16, 16, 13.8, 5.5)) }

// roundRect is the signed distance from (x, y) to a rounded square centred
// on (cx, cy) with half-side h and corner radius r.
func roundRect(x, y, cx, cy, h, r float64) float64 {
	dx := math.Abs(x-cx) - (h - r)
	dy := math.Abs(y-cy) - (h - r)
	out := math.Hypot(math.Max(dx, 0), math.Max(dy, 0))
	return out + math.Min(math.Max(dx, dy), 0) - r
}

// fill turns a signed distance into coverage, antialiased over one pixel.
func fill(d float64) float64 { return clamp(0.5 - d) }

// stroke covers a band of width w along a distance's zero line.
func stroke(d, w float64) float64 { return clamp(w/2 + 0.5 - math.Abs(d)) }

func disc(cx, cy, r float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return fill(math.Hypot(x-cx, y-cy) - r) }
}

func ring(cx, cy, r, w float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return stroke(math.Hypot(x-cx, y-cy)-r, w) }
}

// capsule is a segment from (x0, y0) to (x1, y1) with round ends of radius r.
func capsule(x0, y0, x1, y1, r float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		vx, vy := x1-x0, y1-y0
		t := clamp(((x-x0)*vx + (y-y0)*vy) / (vx*vx + vy*vy))
		return fill(math.Hypot(x-x0-t*vx, y-y0-t*vy) - r)
	}
}

func union(shapes ...func(x, y float64) float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		c := 0.0
		for _, s := range shapes {
			c = math.Max(c, s(x, y))
		}
		return c
	}
}

func minus(a, b func(x, y float64) float64) func(x, y float64) float64 {
	return func(x, y float64) float64 { return clamp(a(x, y) - b(x, y)) }
}

func clamp(v float64) float64 { return math.Min(math.Max(v, 0), 1) }

// Draw renders a shape: black, with the coverage at each pixel's centre as
// its alpha.
func Draw(shape func(x, y float64) float64) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, Size, Size))
	for y := range Size {
		for x := range Size {
			a := shape(float64(x)+0.5, float64(y)+0.5)
			img.SetNRGBA(x, y, color.NRGBA{A: uint8(math.Round(a * 255))})
		}
	}
	return img
}

// Encode draws every icon and returns its PNG bytes by name.
func Encode() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, ic := range Icons {
		var b bytes.Buffer
		if err := png.Encode(&b, Draw(ic.Shape)); err != nil {
			return nil, fmt.Errorf("encoding %s: %w", ic.Name, err)
		}
		out[ic.Name] = b.Bytes()
	}
	return out, nil
}

func main() {
	dir := flag.String("dir", ".", "where to write the icons")
	flag.Parse()
	files, err := Encode()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(*dir, name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
