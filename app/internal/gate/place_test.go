package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// placeRig is a gate that asks about everything and approves it, with an
// executor that records what it was told to run and where; a project
// folder, a folder of the person's own programs and a program in it.
func placeRig(t *testing.T) (*rig, *argvExec, string, string) {
	t.Helper()
	rec := &argvExec{}
	r := newRig(t, policy.AskAll, approveAll, func(c *gate.Config) { c.Exec = rec })
	proj := filepath.Join(r.home, "Documents", "proj", "sub")
	bin := filepath.Join(r.home, ".local", "bin")
	for _, d := range []string{proj, bin, filepath.Join(r.home, ".ssh")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "hello"), []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Not executable: a PATH lookup passes over it.
	if err := os.WriteFile(filepath.Join(proj, "hello"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return r, rec, proj, bin
}

// TestCommandRunsWhereItWasTyped checks that a command runs in the
// caller's folder with the program the caller's PATH names, and that the
// person sees, and a grant covers, both: the path found and the folder.
func TestCommandRunsWhereItWasTyped(t *testing.T) {
	r, rec, proj, bin := placeRig(t)
	pathList := "relative/bin:" + proj + ":" + bin + ":/usr/bin"
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand,
		Argv: []string{"hello", "x"}, Dir: proj, Path: pathList}, nil)
	if err != nil || rep.Status != gate.StatusOK {
		t.Fatalf("submit: %v %+v", err, rep)
	}
	want := filepath.Join(bin, "hello")
	if len(rec.argv) != 1 || rec.argv[0][0] != want || rec.argv[0][1] != "x" {
		t.Fatalf("ran %q, want %s x", rec.argv, want)
	}
	realProj, _ := filepath.EvalSymlinks(proj)
	if rec.dirs[0] != realProj {
		t.Errorf("ran in %q, want %q", rec.dirs[0], realProj)
	}
	shown := r.ask.asked[0].Items[0]
	if !strings.Contains(shown.Text, want) || !strings.Contains(shown.Text, realProj) || !strings.Contains(shown.Preview, realProj) {
		t.Errorf("the person was shown %q / %q: want the program's path and the folder", shown.Preview, shown.Text)
	}

	// The same command in another folder is another text: a grant for one
	// covers no other.
	other := filepath.Join(r.home, "Documents")
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand,
		Argv: []string{"hello", "x"}, Dir: other, Path: pathList}, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := r.ask.asked[0].Items[0].Text, r.ask.asked[1].Items[0].Text; a == b {
		t.Errorf("the same command in two folders has one text %q", a)
	}

	// No PATH given: the program is left to the sandbox's PATH, as named.
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand,
		Argv: []string{"true"}, Dir: proj}, nil); err != nil {
		t.Fatal(err)
	}
	if got := rec.argv[len(rec.argv)-1][0]; got != "true" {
		t.Errorf("with no PATH the program became %q", got)
	}
}

// TestCommandRelativePathsAreReadFromItsFolder checks that the analyzer
// reads a relative path from the folder the command runs in: from the
// project, ../../../.ssh is the SSH folder (refused), which it is not from
// the home.
func TestCommandRelativePathsAreReadFromItsFolder(t *testing.T) {
	r, rec, proj, _ := placeRig(t)
	argv := []string{"rm", "-r", "../../../.ssh"}
	rep, _ := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand, Argv: argv, Dir: proj}, nil)
	if rep.Risk != "blocked" || len(rec.argv) != 0 {
		t.Errorf("rm -r ../../../.ssh from %s: risk %s, ran %q: want blocked, nothing run", proj, rep.Risk, rec.argv)
	}
}

// TestCommandPlaceErrors checks that a folder or program the gate cannot
// use is refused before anyone is asked, with a message that says which
// and why.
func TestCommandPlaceErrors(t *testing.T) {
	r, rec, proj, bin := placeRig(t)
	outside := t.TempDir()
	for _, tt := range []struct {
		name, dir, path string
		argv            []string
		want            string
	}{
		{"missing folder", filepath.Join(proj, "nope"), "", []string{"true"}, "no such file"},
		{"a file", filepath.Join(bin, "hello"), "", []string{"true"}, "is not a folder"},
		{"outside the home", outside, "", []string{"true"}, "outside your home folder"},
		{"a credential store", filepath.Join(r.home, ".ssh"), "", []string{"true"}, "may not enter"},
		{"relative folder", "Documents", "", []string{"true"}, "not an absolute path"},
		{"not on PATH", proj, bin, []string{"nosuchprogram"}, "nosuchprogram: not found on your PATH"},
		// Only absolute PATH entries count: "." would run what lies in
		// the folder.
		{"relative PATH entry", filepath.Join(r.home, ".local"), "bin:.", []string{"hello"}, "hello: not found on your PATH"},
		{"not executable", proj, proj, []string{"hello"}, "hello: not found on your PATH"},
	} {
		before := r.ask.count()
		rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand,
			Argv: tt.argv, Dir: tt.dir, Path: tt.path}, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) || r.ask.count() != before || rep.Status != gate.StatusRejected {
			t.Errorf("%s: err %v, status %q: want rejected unasked with %q", tt.name, err, rep.Status, tt.want)
		}
	}
	if len(rec.argv) != 0 {
		t.Errorf("ran %q", rec.argv)
	}
	// A folder and PATH belong to commands only.
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindJXA, Plan: "1", Dir: proj}, nil); err == nil ||
		!strings.Contains(err.Error(), "only with a command") {
		t.Errorf("a script with a folder: %v", err)
	}
}
