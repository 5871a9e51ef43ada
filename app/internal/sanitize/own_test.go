package sanitize_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// ownConfig is the test home with Airlock's data folder at
// ~/.local/share/airlock, its settings and history inside it, and a log
// folder elsewhere.
func ownConfig(t *testing.T, roots []string) (*sanitize.Config, string) {
	t.Helper()
	h, _ := home(t)
	data := filepath.Join(h, ".local/share/airlock")
	mkdir(t, data)
	writeFile(t, filepath.Join(data, "settings.json"))
	c, err := config(t, h, roots).WithOwn([]sanitize.OwnPlace{
		{Path: data, What: "Airlock's data folder"},
		{Path: filepath.Join(data, "settings.json"), What: "Airlock's settings"},
		{Path: filepath.Join(h, ".local/state/airlock"), What: "Airlock's log folder"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, h
}

func TestOwnPlacesAreRefused(t *testing.T) {
	c, h := ownConfig(t, nil)
	tests := []struct {
		name string
		path string
		op   sanitize.Op
	}{
		{"the settings, written", "~/.local/share/airlock/settings.json", sanitize.OpWrite},
		{"the settings, read", "~/.local/share/airlock/settings.json", sanitize.OpRead},
		{"the history, deleted", "~/.local/share/airlock/history.db", sanitize.OpDelete},
		{"the history's WAL, moved", "~/.local/share/airlock/history.db-wal", sanitize.OpMoveFrom},
		{"the data folder, opened", "~/.local/share/airlock", sanitize.OpOpen},
		{"another case", "~/.LOCAL/Share/AIRLOCK/settings.json", sanitize.OpWrite},
		{"the log folder", "~/.local/state/airlock/x.log", sanitize.OpRead},
		{"absolute", filepath.Join(h, ".local/share/airlock/gate.sock"), sanitize.OpRead},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Path(tt.path, tt.op)
			var r *sanitize.Refusal
			if !errors.As(err, &r) || r.Rule != sanitize.RuleOwnFiles {
				t.Fatalf("Path(%q, %v) = %v, want a %s refusal", tt.path, tt.op, err, sanitize.RuleOwnFiles)
			}
			if !strings.Contains(r.Error(), "Airlock's") {
				t.Errorf("the refusal does not say what it touches: %v", r)
			}
		})
	}
	// The most specific place names the file.
	_, err := c.Path("~/.local/share/airlock/settings.json", sanitize.OpWrite)
	if !strings.Contains(err.Error(), "is Airlock's settings") {
		t.Errorf("refusal %q does not name the settings", err)
	}
}

func TestOwnPlacesInsideTheSandbox(t *testing.T) {
	// A root that holds one does not let it through, and the root itself
	// may be opened but not listed, copied or emptied.
	h, _ := home(t)
	c, err := config(t, h, []string{"~/Documents"}).WithOwn([]sanitize.OwnPlace{
		{Path: filepath.Join(h, "Documents/airlock-data"), What: "Airlock's data folder"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		op   sanitize.Op
		ok   bool
	}{
		{"~/Documents/airlock-data/settings.json", sanitize.OpWrite, false},
		{"~/Documents/airlock-data", sanitize.OpOpen, false},
		{"~/Documents", sanitize.OpRead, false},
		{"~/Documents", sanitize.OpOpen, true},
		{"~/Documents/report.txt", sanitize.OpWrite, true},
	} {
		_, err := c.Path(tt.path, tt.op)
		if (err == nil) != tt.ok {
			t.Errorf("Path(%s, %v) = %v, want allowed %v", tt.path, tt.op, err, tt.ok)
		}
	}
}

func TestOwnPlacesThroughALink(t *testing.T) {
	c, h := ownConfig(t, nil)
	if err := os.Symlink(filepath.Join(h, ".local/share/airlock"), filepath.Join(h, "Documents/innocent")); err != nil {
		t.Fatal(err)
	}
	_, err := c.Path("~/Documents/innocent/settings.json", sanitize.OpWrite)
	var r *sanitize.Refusal
	if !errors.As(err, &r) || r.Rule != sanitize.RuleOwnFiles {
		t.Fatalf("a link into the data folder: %v", err)
	}
}

func TestOwnClassifyAndEncloses(t *testing.T) {
	c, _ := ownConfig(t, nil)
	if z := c.Classify("~/.local/share/airlock/history.db-shm"); z.Kind != sanitize.ZoneOwn {
		t.Errorf("Classify(history.db-shm) = %v", z)
	}
	for _, p := range []string{"~/.local/share", "~/.local", "~"} {
		if z := c.Encloses(p); z.Kind != sanitize.ZoneOwn {
			t.Errorf("Encloses(%s) = %v, want own", p, z)
		}
	}
	if z := c.Encloses("~/Documents"); z.Kind != sanitize.ZoneNormal {
		t.Errorf("Encloses(~/Documents) = %v", z)
	}
	// A folder holding the data folder may be opened, not emptied.
	if _, err := c.Path("~/.local/share", sanitize.OpDelete); err == nil {
		t.Error("deleting a folder that holds the data folder was allowed")
	}
	// Without WithOwn nothing is own.
	h, _ := home(t)
	if z := config(t, h, nil).Classify("~/.local/share/airlock/settings.json"); z.Kind == sanitize.ZoneOwn {
		t.Errorf("a config without own places classified %v", z)
	}
}

func TestPattern(t *testing.T) {
	c, _ := ownConfig(t, nil)
	type want struct {
		kind  sanitize.ZoneKind
		reach sanitize.Reach
	}
	H := sanitize.Hole
	tests := []struct {
		pat  string
		want []want
	}{
		{"~/.local/share/air*", []want{{sanitize.ZoneOwn, sanitize.ReachInside}}},
		{"~/.local/share/airlock/*.json", []want{{sanitize.ZoneOwn, sanitize.ReachInside}}},
		{"~/.local/*/airlock", []want{{sanitize.ZoneOwn, sanitize.ReachInside}}},
		{"~/.local/sh?re", []want{{sanitize.ZoneOwn, sanitize.ReachHolds}, {sanitize.ZoneCredential, sanitize.ReachHolds}}},
		{"~/.*", []want{{sanitize.ZoneOwn, sanitize.ReachHolds}, {sanitize.ZoneCredential, sanitize.ReachInside}}},
		{"~/.ss?/id_*", []want{{sanitize.ZoneCredential, sanitize.ReachInside}}},
		{"/et?/hosts", []want{{sanitize.ZoneSystem, sanitize.ReachInside}}},
		{"~/**/settings.json", []want{{sanitize.ZoneOwn, sanitize.ReachInside}, {sanitize.ZoneCredential, sanitize.ReachInside}}},
		// No dotglob: * does not match .local or .ssh (only Library).
		{"~/*", []want{{sanitize.ZoneCredential, sanitize.ReachHolds}}},
		{"~/D*", nil},
		{"~/Documents/*.txt", nil},
		// Holes: only an element that lines up with the place counts.
		{H + "/airlock/settings.json", []want{{sanitize.ZoneOwn, sanitize.ReachInside}}},
		{H + "/settings.json", []want{{sanitize.ZoneOwn, sanitize.ReachInside}}},
		{"~/" + H + "/airlock", []want{{sanitize.ZoneOwn, sanitize.ReachInside}}},
		{H + "/.local", []want{{sanitize.ZoneOwn, sanitize.ReachHolds}, {sanitize.ZoneCredential, sanitize.ReachHolds}}},
		{H + "/.ssh/config", []want{{sanitize.ZoneCredential, sanitize.ReachInside}}},
		{H + "/report.txt", nil},
		{H, nil},
		{"~/" + H, nil},
		{"relative/path", nil},
	}
	for _, tt := range tests {
		got := c.Pattern(tt.pat)
		if len(got) > 0 && tt.pat == "~/**/settings.json" && got[0].Zone.Detail != "Airlock's settings" {
			t.Errorf("Pattern(%q) names %q, not the most specific place", tt.pat, got[0].Zone.Detail)
		}
		var g []want
		for _, h := range got {
			g = append(g, want{h.Zone.Kind, h.Reach})
		}
		if len(g) != len(tt.want) {
			t.Errorf("Pattern(%q) = %v, want %v", tt.pat, got, tt.want)
			continue
		}
		for i := range g {
			if g[i] != tt.want[i] {
				t.Errorf("Pattern(%q) = %v, want %v", tt.pat, got, tt.want)
			}
		}
	}
}

func TestPatternLong(t *testing.T) {
	c, _ := ownConfig(t, nil)
	// A pattern longer than the matcher follows is taken to go on with
	// anything: it still hits, and quickly.
	long := "~/.local/share/airlock" + strings.Repeat("/*", 10_000)
	if got := c.Pattern(long); len(got) == 0 || got[0].Zone.Kind != sanitize.ZoneOwn {
		t.Errorf("a long pattern into the data folder: %v", got)
	}
	holes := strings.Repeat("/"+sanitize.Hole+"/x", 5_000)
	c.Pattern(holes) // must return in time (the test's deadline)
}

// FuzzPattern: Pattern never panics, returns at most one hit per kind, and
// agrees with Classify on a plain path: a path in Airlock's own files or a
// credential store is hit as such.
func FuzzPattern(f *testing.F) {
	h, _ := home(f)
	data := filepath.Join(h, ".local/share/airlock")
	c, err := config(f, h, nil).WithOwn([]sanitize.OwnPlace{{Path: data, What: "Airlock's data folder"}})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"~/.local/share/air*", "~/.ss?/id_*", "/et?/hosts", sanitize.Hole + "/airlock/settings.json",
		"~/**/x", "~/[a-", "~/" + sanitize.Hole + sanitize.Hole + "/../.ssh", "/", "~", "~/*/*/*/*", "~/.local/share/airlock/settings.json"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pat string) {
		hits := c.Pattern(pat)
		seen := map[sanitize.ZoneKind]bool{}
		for _, h := range hits {
			if seen[h.Zone.Kind] || h.Reach == sanitize.ReachNone {
				t.Fatalf("Pattern(%q) = %v: a kind twice, or a hit that reaches nothing", pat, hits)
			}
			seen[h.Zone.Kind] = true
		}
		if strings.ContainsAny(pat, "*?[\\"+sanitize.Hole) || !strings.HasPrefix(pat, "/") && !strings.HasPrefix(pat, "~") ||
			strings.Contains(pat, "/../") || strings.HasSuffix(pat, "/..") || !utf8.ValidString(pat) {
			return
		}
		if z := c.Classify(pat); (z.Kind == sanitize.ZoneOwn || z.Kind == sanitize.ZoneCredential) && !seen[z.Kind] {
			t.Fatalf("Classify(%q) = %v but Pattern missed it: %v", pat, z, hits)
		}
	})
}
