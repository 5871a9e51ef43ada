package execute

import (
	"os"
	"syscall"
)

// ForceLayerCopy makes every rename out of a layer fail as across file
// systems (EXDEV), so that new versions are copied, until the returned
// function restores it: the copy a layer on another disk than the sandbox
// roots takes, which one machine's temporary folders cannot show.
func ForceLayerCopy() (restore func()) {
	old := moveFromLayer
	moveFromLayer = func(from *folder, fromName string, to *folder, toName string) error {
		return &os.LinkError{Op: "rename", Old: from.at(fromName), New: to.at(toName), Err: syscall.EXDEV}
	}
	return func() { moveFromLayer = old }
}
