package bridge

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The freedesktop way to choose the application that opens a file, read
// here from the same files the desktop reads, in plain Go: the file's MIME
// type from the shared MIME database's globs (by name), or from a look at
// its first bytes when no glob matches; then the default application for
// that type, or for a type it is a subclass of, from mimeapps.list and the
// desktop files' own MimeType lists (mimeinfo.cache). It is what xdg-mime
// query does, without content sniffing beyond text, scripts and programs;
// the launch then starts the resolved application explicitly, so a
// difference in the choice cannot make a file run in another program than
// the one that was judged.

// xdgDirs are the folders the resolution reads.
type xdgDirs struct {
	configs []string // XDG_CONFIG_HOME, then XDG_CONFIG_DIRS
	data    []string // XDG_DATA_HOME, then XDG_DATA_DIRS
}

// mimeOf returns the MIME type of the file at path whose first bytes are
// head: inode/directory for a folder, else the best glob of the shared MIME
// database, else a type from head.
func mimeOf(name string, folder bool, head []byte, d xdgDirs) string {
	if folder {
		return "inode/directory"
	}
	if t := globType(filepath.Base(name), d.data); t != "" {
		return t
	}
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		return "application/x-shellscript"
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "application/x-executable"
	case bytes.HasPrefix(head, []byte("[Desktop Entry]")):
		return "application/x-desktop"
	case len(head) == 0, utf8.Valid(head) && bytes.IndexByte(head, 0) < 0:
		return "text/plain"
	}
	return "application/octet-stream"
}

// globType matches name against every mime/globs2 file (weight:type:glob)
// and returns the type of the highest weight, then the longest glob, as the
// shared MIME specification says. Globs match without regard to case
// unless their flags say cs.
func globType(name string, dataDirs []string) string {
	best, bestW, bestLen := "", -1, -1
	low := strings.ToLower(name)
	for _, dd := range dataDirs {
		f, err := os.Open(filepath.Join(dd, "mime", "globs2"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(io.LimitReader(f, 8<<20))
		for sc.Scan() {
			line := sc.Text()
			if line == "" || line[0] == '#' {
				continue
			}
			parts := strings.Split(line, ":")
			if len(parts) < 3 {
				continue
			}
			w, err := strconv.Atoi(parts[0])
			if err != nil {
				continue
			}
			typ, glob := parts[1], parts[2]
			subject, pattern := low, strings.ToLower(glob)
			if len(parts) > 3 && strings.Contains(parts[3], "cs") {
				subject, pattern = name, glob
			}
			if ok, _ := filepath.Match(pattern, subject); !ok {
				continue
			}
			if w > bestW || (w == bestW && len(glob) > bestLen) {
				best, bestW, bestLen = typ, w, len(glob)
			}
		}
		f.Close()
	}
	return best
}

// mimeFamily returns typ, its canonical name when it is an alias, and the
// types it is a subclass of, nearest first, with text/plain for every
// text/* and application/octet-stream last of all, as the specification
// says a type falls back.
func mimeFamily(typ string, dataDirs []string) []string {
	aliases := readPairs("aliases", dataDirs)
	parents := readPairs("subclasses", dataDirs)
	if c, ok := aliases[typ]; ok && len(c) > 0 {
		typ = c[0]
	}
	out := []string{typ}
	seen := map[string]bool{typ: true}
	for i := 0; i < len(out) && len(out) < 32; i++ {
		for _, p := range parents[out[i]] {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	if strings.HasPrefix(typ, "text/") && !seen["text/plain"] {
		out = append(out, "text/plain")
	}
	return out
}

// readPairs reads the mime folder's file name (lines of "a b") into a → [b…].
func readPairs(name string, dataDirs []string) map[string][]string {
	m := map[string][]string{}
	for _, dd := range dataDirs {
		b, err := os.ReadFile(filepath.Join(dd, "mime", name))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if a, c, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
				m[a] = append(m[a], c)
			}
		}
	}
	return m
}

// defaultApps returns the desktop file ids that open typ, in the order the
// specification says to try them: each mimeapps.list's [Default
// Applications] (the user's configuration first, then the system's, then
// the data folders'), then [Added Associations], then the desktop files
// that list the type (mimeinfo.cache). An id may appear more than once.
func defaultApps(typ string, d xdgDirs) []string {
	var lists []string
	for _, c := range d.configs {
		lists = append(lists, filepath.Join(c, "mimeapps.list"))
	}
	for _, dd := range d.data {
		lists = append(lists, filepath.Join(dd, "applications", "mimeapps.list"),
			filepath.Join(dd, "applications", "defaults.list"))
	}
	var ids []string
	for _, group := range []string{"Default Applications", "Added Associations"} {
		for _, l := range lists {
			ids = append(ids, keyFileList(l, group, typ)...)
		}
	}
	for _, dd := range d.data {
		ids = append(ids, keyFileList(filepath.Join(dd, "applications", "mimeinfo.cache"), "MIME Cache", typ)...)
	}
	return ids
}

// keyFileList reads key in group of the key file at p as a ;-separated list.
func keyFileList(p, group, key string) []string {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			in = line == "["+group+"]"
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !in || !ok || strings.TrimSpace(k) != key {
			continue
		}
		var out []string
		for _, id := range strings.Split(v, ";") {
			if id = strings.TrimSpace(id); id != "" {
				out = append(out, id)
			}
		}
		return out
	}
	return nil
}
