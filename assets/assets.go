// Package assets holds Airlock's menu-bar template icons, one per state,
// embedded in the binary: Level 0, 1 and 2, approvals pending, and killed.
// They are drawn by ./gen (black on transparent, 32×32 pixels, shown at
// 16×16 points).
//
// It owns bytes only: which icon a state shows is the tray's decision.
package assets

import _ "embed"

//go:generate go run ./gen

// The icons, as PNG.
var (
	//go:embed level0.png
	Level0 []byte // Level 0, ask for everything: an empty ring in the door
	//go:embed level1.png
	Level1 []byte // Level 1, smart default: one dot
	//go:embed level2.png
	Level2 []byte // Level 2, full auto: two dots
	//go:embed pending.png
	Pending []byte // approvals are waiting: an exclamation mark
	//go:embed killed.png
	Killed []byte // the kill switch is on: a solid door with a cross cut out
)
