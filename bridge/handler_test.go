package bridge

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSplitExec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // nil: invalid
	}{
		{"evince %U", []string{"evince", "%U"}},
		{`"/opt/My App/run" --file %f`, []string{"/opt/My App/run", "--file", "%f"}},
		{`sh -c "echo \"hi\" \$HOME"`, []string{"sh", "-c", `echo "hi" $HOME`}},
		{`a\sb c`, []string{"a", "b", "c"}}, // \s is a space, which separates words unless quoted
		{`prog "a\\\\b"`, []string{"prog", `a\b`}},
		{"zutty", []string{"zutty"}},
		{"sh -c echo;id", nil},
		{"prog $HOME", nil},
		{"prog `id`", nil},
		{`prog "unclosed`, nil},
		{`prog "bad \q escape"`, nil},
		{"", nil},
		{"   ", nil},
		{"%f", nil},
		{"A=1 prog", nil},
		{`prog \`, nil},
	} {
		got, err := splitExec(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("splitExec(%q) = %q, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitExec(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestExpandExec(t *testing.T) {
	for _, tc := range []struct {
		words  []string
		target string
		want   []string
	}{
		{[]string{"evince", "%U"}, "/d/a.pdf", []string{"evince", "/d/a.pdf"}},
		{[]string{"zutty"}, "/d/notes", []string{"zutty", "/d/notes"}},
		{[]string{"app", "--icon", "%i", "--name=%c", "%k", "100%%", "%f"}, "/x", []string{"app", "--icon", "--name=App", "/apps/app.desktop", "100%", "/x"}},
		{[]string{"app", "--open=%u"}, "https://e.org/", []string{"app", "--open=https://e.org/"}},
		{[]string{"app", "%F"}, "", []string{"app"}},
	} {
		got, err := expandExec(tc.words, tc.target, "App", "/apps/app.desktop")
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("expandExec(%q, %q) = %q, %v; want %q", tc.words, tc.target, got, err, tc.want)
		}
	}
	if _, err := expandExec([]string{"app", "%z"}, "/x", "", ""); err == nil {
		t.Error("an unknown field code was accepted")
	}
}

func FuzzExec(f *testing.F) {
	for _, s := range []string{"evince %U", `"/opt/a b" %f`, `sh -c "x \$y"`, `a\sb`, "p %%%c %k"} {
		f.Add(s, "/tmp/x")
	}
	f.Fuzz(func(t *testing.T, line, target string) {
		words, err := splitExec(line)
		if err != nil {
			return
		}
		argv, err := expandExec(words, target, "n", "/k")
		if err != nil {
			return
		}
		if len(argv) == 0 || argv[0] != words[0] {
			t.Fatalf("%q: the program changed: %q", line, argv)
		}
	})
}

// The default application for a file comes from the MIME database's globs,
// the subclass chain and mimeapps.list, the user's configuration first.
func TestXDGResolution(t *testing.T) {
	root := t.TempDir()
	sys, conf := filepath.Join(root, "share"), filepath.Join(root, "config")
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(sys, "mime", "globs2"), "50:application/pdf:*.pdf\n50:text/x-python:*.py\n60:text/x-readme:README*\n")
	write(filepath.Join(sys, "mime", "subclasses"), "text/x-python text/plain\n")
	write(filepath.Join(sys, "applications", "mimeinfo.cache"), "[MIME Cache]\ntext/plain=gedit.desktop;\napplication/pdf=evince.desktop;okular.desktop;\n")
	write(filepath.Join(conf, "mimeapps.list"), "[Default Applications]\napplication/pdf=okular.desktop;\n")
	d := xdgDirs{configs: []string{conf}, data: []string{sys}}
	for _, tc := range []struct {
		name   string
		head   string
		folder bool
		typ    string
		first  string
	}{
		{"a.pdf", "%PDF", false, "application/pdf", "okular.desktop"},
		{"A.PDF", "%PDF", false, "application/pdf", "okular.desktop"},
		{"x.py", "print(1)", false, "text/x-python", "gedit.desktop"},
		{"README.md", "# hi", false, "text/x-readme", "gedit.desktop"},
		{"notes", "#!/bin/sh\n", false, "application/x-shellscript", ""},
		{"notes", "plain words", false, "text/plain", "gedit.desktop"},
		{"blob", "\x00\x01", false, "application/octet-stream", ""},
		{"Documents", "", true, "inode/directory", ""},
	} {
		typ := mimeOf(tc.name, tc.folder, []byte(tc.head), d)
		if typ != tc.typ {
			t.Errorf("%s: type %s, want %s", tc.name, typ, tc.typ)
			continue
		}
		first := ""
		for _, ft := range mimeFamily(typ, d.data) {
			if ids := defaultApps(ft, d); len(ids) > 0 {
				first = ids[0]
				break
			}
		}
		if first != tc.first {
			t.Errorf("%s (%s): default %q, want %q", tc.name, typ, first, tc.first)
		}
	}
}
