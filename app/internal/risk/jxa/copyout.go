package jxa

import (
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// copyOut rates a move or duplicate whose to: (val) lies outside the home
// and the sandbox roots: a disk (F.disks['USB'], disks.byName('USB')) or
// a path there (Path('/Users/Shared')), as the AppleScript analyzer does
// (rate.CopyOut). A destination computed at run time is not known to lie
// there and is left to the other checks.
func (an *jsAn) copyOut(val []jsToken) {
	if len(val) == 0 {
		return
	}
	dirs := an.argPaths(val)
	for k := 0; k+2 < len(val); k++ {
		if val[k].kind != jsIdent || val[k].text != "disks" {
			continue
		}
		switch {
		case val[k+1].text == "[" && val[k+2].kind == jsString:
			dirs = append(dirs, "/Volumes/"+val[k+2].val)
		case k+4 < len(val) && val[k+1].text == "." && val[k+2].text == "byName" && val[k+3].text == "(" && val[k+4].kind == jsString:
			dirs = append(dirs, "/Volumes/"+val[k+4].val)
		}
	}
	sp := rate.Span{Start: int(val[0].start), End: int(val[len(val)-1].end)}
	for _, d := range dirs {
		if rate.OutsideWalks(d, an.env) {
			an.add(rate.CopyOut, "jxa.copy-out", sp, rate.CopyOutText, rate.Display(d))
			return
		}
	}
}
