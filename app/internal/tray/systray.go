package tray

import (
	"sync"

	"fyne.io/systray"

	"github.com/airlockhq/airlock/assets"
)

// Systray renders a Menu with fyne.io/systray. The first Render builds the
// menu's skeleton (Build's shape is fixed, so it never changes): one systray
// item per top-level item, and for each submenu a slot per line it can
// hold, hidden while unused (for a submenu of Groups, each slot after the
// first a submenu of MaxGroupItems slots). Later renders change titles, check marks,
// enabled states and which slots are shown.
//
// Make it inside systray's onReady and render from one goroutine at a time.
// systray's radio-less menus are emulated: the levels are checkbox items,
// and the App puts the check mark back where the gate's level is after every
// click.
type Systray struct {
	onClick func(Action)

	mu    sync.Mutex
	top   []*slot // guarded by mu; nil until the first Render
	shown Menu    // guarded by mu
	icon  Icon    // guarded by mu
}

// slot is one systray item and what it shows now.
type slot struct {
	item     *systray.MenuItem // nil for a separator
	shown    Item
	visible  bool
	children []*slot
}

// NewSystray returns a renderer that reports clicks to onClick, which must
// not block (App.Click does not).
func NewSystray(onClick func(Action)) *Systray {
	return &Systray{onClick: onClick}
}

// Icons maps each state to its template icon.
var Icons = map[Icon][]byte{
	IconLevel0:  assets.Level0,
	IconLevel1:  assets.Level1,
	IconLevel2:  assets.Level2,
	IconPending: assets.Pending,
	IconKilled:  assets.Killed,
}

// Render shows m.
func (s *Systray) Render(m Menu) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.top == nil {
		s.build(m)
		return
	}
	if m.Icon != s.icon {
		systray.SetTemplateIcon(Icons[m.Icon], Icons[m.Icon])
		s.icon = m.Icon
	}
	if m.Tooltip != s.shown.Tooltip {
		systray.SetTooltip(m.Tooltip)
	}
	if m.Title != s.shown.Title {
		systray.SetTitle(m.Title)
	}
	for i, sl := range s.top {
		if i < len(m.Items) {
			sl.update(m.Items[i])
			sl.updateChildren(m.Items[i].Children)
		}
	}
	s.shown = m
}

// updateChildren shows items in sl's child slots, and their children in
// theirs, hiding the slots left over.
func (sl *slot) updateChildren(items []Item) {
	for j, c := range sl.children {
		if j < len(items) {
			c.update(items[j])
			c.show(true)
			c.updateChildren(items[j].Children)
		} else {
			c.show(false)
		}
	}
}

func (s *Systray) build(m Menu) {
	systray.SetTemplateIcon(Icons[m.Icon], Icons[m.Icon])
	systray.SetTooltip(m.Tooltip)
	if m.Title != "" {
		systray.SetTitle(m.Title)
	}
	s.icon = m.Icon
	for i, it := range m.Items {
		if it.Separator {
			systray.AddSeparator()
			s.top = append(s.top, &slot{shown: it, visible: true})
			continue
		}
		var mi *systray.MenuItem
		if it.Checkable {
			mi = systray.AddMenuItemCheckbox(it.Title, "", it.Checked)
		} else {
			mi = systray.AddMenuItem(it.Title, "")
		}
		sl := &slot{item: mi, shown: Item{Title: it.Title, Checkable: it.Checkable, Checked: it.Checked, Enabled: true}, visible: true}
		sl.update(it)
		s.listen(sl, i, -1, -1)
		if it.Children != nil {
			for j := range maxChildren {
				c := &slot{item: mi.AddSubMenuItem("", ""), shown: Item{Enabled: true}, visible: true}
				if it.Groups && j > 0 {
					for k := range MaxGroupItems {
						g := &slot{item: c.item.AddSubMenuItem("", ""), shown: Item{Enabled: true}, visible: true}
						s.listen(g, i, j, k)
						c.children = append(c.children, g)
					}
				}
				s.listen(c, i, j, -1)
				sl.children = append(sl.children, c)
			}
			sl.updateChildren(it.Children)
		}
		s.top = append(s.top, sl)
	}
	s.shown = m
}

// listen passes the slot's clicks on with the action of what it shows at
// the time of the click: top-level item i, its child j (-1: the item
// itself) and that child's child k (-1: the child itself). systray drops a
// click nobody is waiting for, so this goroutine does nothing else.
func (s *Systray) listen(sl *slot, i, j, k int) {
	go func() {
		for range sl.item.ClickedCh {
			s.mu.Lock()
			it := s.shown.at(i, j, k)
			s.mu.Unlock()
			if it.Enabled && it.Action.Kind != DoNothing {
				s.onClick(it.Action)
			}
		}
	}()
}

// at is the item at top-level index i, child j and grandchild k (-1 for
// none), or the zero Item where m has none.
func (m Menu) at(i, j, k int) Item {
	if i < 0 || i >= len(m.Items) {
		return Item{}
	}
	it := m.Items[i]
	for _, n := range []int{j, k} {
		if n < 0 {
			break
		}
		if n >= len(it.Children) {
			return Item{}
		}
		it = it.Children[n]
	}
	return it
}

func (sl *slot) update(it Item) {
	if sl.item == nil {
		return
	}
	if it.Title != sl.shown.Title {
		sl.item.SetTitle(it.Title)
	}
	if it.Enabled != sl.shown.Enabled {
		if it.Enabled {
			sl.item.Enable()
		} else {
			sl.item.Disable()
		}
	}
	if it.Checked != sl.shown.Checked {
		if it.Checked {
			sl.item.Check()
		} else {
			sl.item.Uncheck()
		}
	}
	sl.shown = it
}

func (sl *slot) show(v bool) {
	if sl.item == nil || v == sl.visible {
		return
	}
	if v {
		sl.item.Show()
	} else {
		sl.item.Hide()
	}
	sl.visible = v
}

// Prime sets the menu-bar icon and tooltip of m. On Linux call it before
// systray.Run: there systray exports the item's properties while onReady is
// already running, and a tooltip set in between is lost; values set before
// Run are exported with the item. On macOS, where the status item exists
// only once Run has started, call it from onReady (the app shows Starting
// there while the gate is built).
func Prime(m Menu) {
	systray.SetTemplateIcon(Icons[m.Icon], Icons[m.Icon])
	systray.SetTooltip(m.Tooltip)
}

// Starting is what the menu-bar item shows before the gate is built: the
// most cautious level's icon and a tooltip saying why there is no menu yet.
func Starting() Menu {
	return Menu{Icon: IconLevel0, Tooltip: "Airlock — starting (macOS may ask whether Airlock can read its key from the Keychain)"}
}
