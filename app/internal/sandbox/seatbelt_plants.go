package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// On a Mac nothing reviews what an unasked action wrote: Seatbelt refuses
// the persistence table's places by name (plantingRegexes), and the rest
// lands as it was written. On Linux the review also finds, by looking,
// where code runs later under a name that says nothing: a file a .zshrc
// sources from ~/Documents/dotfiles, the folder ~/.config/fish leads to
// through a link (execute/sourced.go, execute/linked.go), and it holds
// every new executable file, where Seatbelt lets one be made in a folder
// the start-up files put on the command search path. An unasked cp
// of a downloaded file to ~/Documents/dotfiles/zsh.d/update.zsh ran at the
// next zsh start on a Mac, and only there (a sixteenth red team's find,
// TestRed16SeatbeltStartupFilesLoad). So the executor looks before the
// action starts (Grant.Plants), and those places are refused here as the
// table's are.

// resolvePlants is Resolve for Profile.Plants: a place whose folder leads
// elsewhere through links is given as where it leads too (a glob's
// pattern stays in its last element).
func resolvePlants(ps []string) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p)
		dir, base := filepath.Split(p)
		if r, err := filepath.EvalSymlinks(filepath.Clean(dir)); err == nil && filepath.Join(r, base) != p {
			out = append(out, filepath.Join(r, base))
		}
	}
	return dedup(out)
}

// lookedPlants writes the rule that refuses writing at each of plants
// (Profile.Plants) and under it.
func (sb *sbpl) lookedPlants(plants []string) error {
	if len(plants) == 0 {
		return nil
	}
	sb.line("; Not approved: nor where the home's start-up files load code from, or its persistence")
	sb.line("; places lead through links (the executor looked: Grant.Plants).")
	sb.b.WriteString("(deny file-write*")
	for _, p := range plants {
		re, err := plantRegex(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&sb.b, "\n  (regex #\"%s\")", re)
	}
	sb.b.WriteString(")\n")
	return nil
}

// plantRegex returns the regular expression of the absolute path or glob
// p and what lies under it, names compared as a Mac's file system compares
// them (foldName): a glob's "*" is any run of characters within an
// element and "?" any one; an element with a bracket class is any element
// (a superset: it refuses more, never less).
func plantRegex(p string) (string, error) {
	var b strings.Builder
	b.WriteString("^")
	for _, el := range strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/") {
		b.WriteByte('/')
		if strings.ContainsAny(el, "[]\\") {
			b.WriteString("[^/]+")
			continue
		}
		for len(el) > 0 {
			i := strings.IndexAny(el, "*?")
			if i < 0 {
				i = len(el)
			}
			f, err := foldName(el[:i])
			if err != nil {
				return "", fmt.Errorf("sandbox: the planting place %s: %w", p, err)
			}
			b.WriteString(f)
			if i < len(el) {
				if el[i] == '*' {
					b.WriteString("[^/]*")
				} else {
					b.WriteString("[^/]")
				}
				i++
			}
			el = el[i:]
		}
	}
	b.WriteString("(/|$)")
	return b.String(), nil
}
