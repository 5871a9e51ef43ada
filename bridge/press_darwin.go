//go:build darwin

package bridge

/*
#cgo LDFLAGS: -framework ApplicationServices
#include <stdint.h>
#include <ApplicationServices/ApplicationServices.h>

// airlock_event_field reads one integer field of a Quartz event
// (CGEventGetIntegerValueField), which darwinkit v0.5.0 does not bind.
static int64_t airlock_event_field(uintptr_t event, uint32_t field) {
	return CGEventGetIntegerValueField((CGEventRef)event, (CGEventField)field);
}
*/
import "C"

import (
	"os"
	"time"

	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/coregraphics"
	"github.com/progrium/darwinkit/macos/foundation"
)

// pressGuard remembers, for one shown alert, when its trust-raising
// controls were enabled and which event last answered a press. It is
// touched only on the main queue.
type pressGuard struct {
	armed time.Duration // since boot; zero until armed
	last  struct {
		number int
		time   foundation.TimeInterval
	}
}

// uptime is the time since the system started, NSEvent timestamps' clock.
func uptime() time.Duration {
	return seconds(foundation.ProcessInfo_ProcessInfo().SystemUptime())
}

func seconds(s foundation.TimeInterval) time.Duration {
	return time.Duration(float64(s) * float64(time.Second))
}

// arm records that the guarded controls can be pressed from now on.
func (g *pressGuard) arm() { g.armed = uptime() }

// check decides whether the press of control c that is running now was the
// person's (PersonPressed), from NSApp's current event. It runs on the main
// thread, inside c's action.
func (g *pressGuard) check(c appkit.View) error {
	e := PressEvent{Now: uptime(), Armed: g.armed}
	if g.armed == 0 {
		e.Armed = e.Now + time.Hour // not armed: every event is too early
	}
	ev := appkit.Application_SharedApplication().CurrentEvent()
	mouse := false
	if !ev.IsNil() {
		e.Present = true
		e.Type = int(ev.Type())
		e.Time = seconds(ev.Timestamp())
		// eventNumber and locationInWindow are defined for mouse events
		// only (eventNumber raises otherwise, which would end the app):
		// anything else is refused on its type alone.
		mouse = e.Type == eventLeftMouseDown || e.Type == eventLeftMouseUp
	}
	if mouse {
		e.Reused = ev.EventNumber() == g.last.number && ev.Timestamp() == g.last.time
		if w := c.Window(); !w.IsNil() && ev.WindowNumber() == w.WindowNumber() {
			p := c.ConvertPointFromView(ev.LocationInWindow(), nil)
			b := c.Bounds()
			e.InControl = p.X >= b.Origin.X && p.X <= b.Origin.X+b.Size.Width &&
				p.Y >= b.Origin.Y && p.Y <= b.Origin.Y+b.Size.Height
		}
		e.Subtype, e.Clicks = int(ev.Subtype()), ev.ClickCount()
		e.SourcePID, e.SourceState = -1, -1 // unknown unless the Quartz event says
		if cg := ev.CGEvent(); cg != 0 {
			field := func(f coregraphics.EventField) int64 {
				return int64(C.airlock_event_field(C.uintptr_t(cg), C.uint32_t(f)))
			}
			e.SourcePID = field(coregraphics.KEventSourceUnixProcessID)
			e.SourceState = field(coregraphics.KEventSourceStateID)
			e.SourceUID = field(coregraphics.KEventSourceUserID)
			e.SourceGID = field(coregraphics.KEventSourceGroupID)
			e.SourceUserData = field(coregraphics.KEventSourceUserData)
		}
	}
	err := PersonPressed(e, os.Getpid())
	LogPress(e, err)
	if err == nil && mouse {
		g.last.number, g.last.time = ev.EventNumber(), ev.Timestamp()
	}
	return err
}
