package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The test binary doubles as the command, so the exit status and output of
// the real main can be tested without building it separately.
func TestMain(m *testing.M) {
	if os.Getenv("DARWINCHECK_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const goodProbe = `//go:build darwin

package probe

import "github.com/progrium/darwinkit/macos/appkit"

// Frontmost is what bridge.Frontmost does, reduced to the darwinkit calls.
func Frontmost() string {
	return appkit.Workspace_SharedWorkspace().FrontmostApplication().BundleIdentifier()
}
`

// probeEnv makes go list resolve darwinkit from the module cache with the
// copied go.sum, without editing go.mod by hand first.
var probeEnv = []string{"GOFLAGS=-mod=mod"}

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
}

// newProbe writes a module example.com/probe requiring darwinkit, with the
// given files, and returns its directory.
func newProbe(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatalf("reading the project's go.sum: %v", err)
	}
	files["go.sum"] = string(sum)
	files["go.mod"] = "module example.com/probe\n\ngo 1.22\n\nrequire github.com/progrium/darwinkit v0.5.0\n"
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func check(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Check(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Check(%+v): %v", cfg, err)
	}
	return res
}

func TestProbePasses(t *testing.T) {
	needGo(t)
	t.Parallel()
	dir := newProbe(t, map[string]string{"probe_darwin.go": goodProbe})
	res := check(t, Config{Dir: dir, Env: probeEnv})
	for _, p := range res.Problems {
		t.Errorf("unexpected problem: %s", p)
	}
	if !slices.Equal(res.Packages, []string{"example.com/probe"}) {
		t.Errorf("packages = %q, want [example.com/probe]", res.Packages)
	}
	if !slices.Equal(res.Arches, []string{"arm64", "amd64"}) {
		t.Errorf("arches = %q, want the default arm64 and amd64", res.Arches)
	}
	want := "darwincheck: 1 packages of example.com/probe type-check for darwin/arm64 and darwin/amd64"
	if got := Summary(res); got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
}

// wantProblem asserts that res has, for every arch, a problem in file whose
// message contains each of words.
func wantProblem(t *testing.T, res *Result, file string, words ...string) {
	t.Helper()
	if len(res.Problems) == 0 {
		t.Fatalf("no problems reported, want one in %s mentioning %q", file, words)
	}
	for _, arch := range res.Arches {
		found := slices.ContainsFunc(res.Problems, func(p Problem) bool {
			if p.Arch != arch || filepath.Base(strings.Split(p.Pos, ":")[0]) != file {
				return false
			}
			for _, w := range words {
				if !strings.Contains(p.Msg, w) {
					return false
				}
			}
			return true
		})
		if !found {
			t.Errorf("%s: no problem in %s mentioning %q; got:\n%s", arch, file, words, problems(res))
		}
	}
}

func problems(res *Result) string {
	var b strings.Builder
	for _, p := range res.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

func TestProbeWrongIdentifier(t *testing.T) {
	needGo(t)
	t.Parallel()
	for _, wrong := range []string{
		"Workspace_SharedWorkspaceX", // a package-level function that does not exist
		"FrontmostApp",               // a method that does not exist
	} {
		t.Run(wrong, func(t *testing.T) {
			t.Parallel()
			src := goodProbe
			switch wrong {
			case "Workspace_SharedWorkspaceX":
				src = strings.Replace(src, "Workspace_SharedWorkspace()", "Workspace_SharedWorkspaceX()", 1)
			case "FrontmostApp":
				src = strings.Replace(src, ".FrontmostApplication()", ".FrontmostApp()", 1)
			}
			dir := newProbe(t, map[string]string{"probe_darwin.go": src})
			res := check(t, Config{Dir: dir, Env: probeEnv})
			wantProblem(t, res, "probe_darwin.go", wrong)
		})
	}
}

func TestTypeErrorCaught(t *testing.T) {
	needGo(t)
	t.Parallel()
	dir := newProbe(t, map[string]string{
		"probe_darwin.go": goodProbe,
		"pid_darwin.go": `package probe

func PID() int {
	var pid int = Frontmost()
	return pid
}
`,
		// Not part of the darwin build: its error must not be reported.
		"broken_linux.go": "package probe\n\nvar broken int = \"linux\"\n",
	})
	res := check(t, Config{Dir: dir, Env: probeEnv})
	wantProblem(t, res, "pid_darwin.go", "cannot use Frontmost()", "int")
	if len(res.Problems) != len(res.Arches) {
		t.Errorf("want one problem per arch, got:\n%s", problems(res))
	}
}

// cgoProbe is a cgo file like app/internal/logs' os.log shim: C from the
// SDK behind a small static function, called from Go.
const cgoProbe = `//go:build darwin && cgo

package probe

/*
#include <os/log.h>
#include <stdlib.h>

static void probe_log(os_log_t log, uint8_t type, const char *msg) {
	os_log_with_type(log, (os_log_type_t)type, "%{public}s", msg);
}
*/
import "C"

import "unsafe"

func Log(level int, msg string) {
	m := C.CString(msg)
	defer C.free(unsafe.Pointer(m))
	C.probe_log(C.os_log_create(C.CString("dev.example"), C.CString("x")), C.uint8_t(typeOf(level)), m)
}

func typeOf(level int) uint8 { return uint8(level) }
`

// TestCgoFilesChecked: a cgo file is checked on Linux too, without a C
// compiler or the SDK. What it says in Go must type-check; what it says of
// C is taken on trust (import "C" is faked), which is why the C side of
// such a file should be a few lines of shim.
func TestCgoFilesChecked(t *testing.T) {
	needGo(t)
	t.Parallel()
	dir := newProbe(t, map[string]string{"log_darwin.go": cgoProbe})
	res := check(t, Config{Dir: dir, Env: probeEnv})
	if len(res.Problems) != 0 || !slices.Equal(res.Packages, []string{"example.com/probe"}) {
		t.Fatalf("a good cgo file: packages %q, problems:\n%s", res.Packages, problems(res))
	}
	for _, tc := range []struct{ from, to, want string }{
		{"typeOf(level)", "typeOf(lvl)", "undefined: lvl"},
		{"func typeOf(level int) uint8 { return uint8(level) }", "func typeOf(level int) uint8 { return level }", "cannot use level"},
		{`defer C.free(unsafe.Pointer(m))`, `defer C.free(unsafe.Pointr(m))`, "Pointr"},
		// free comes from stdlib.h: without it, C.free names nothing.
		{"#include <stdlib.h>\n", "", "C.free is not named in this file's cgo preamble"},
	} {
		dir := newProbe(t, map[string]string{"log_darwin.go": strings.Replace(cgoProbe, tc.from, tc.to, 1)})
		wantProblem(t, check(t, Config{Dir: dir, Env: probeEnv}), "log_darwin.go", tc.want)
	}
}

// cgoNamesProbe is a cgo file whose Go uses its preamble's names, and one of
// cgo's own.
const cgoNamesProbe = `//go:build darwin

package probe

/*
#include <stdint.h>
static int64_t probe_field(uintptr_t event, uint32_t field) { return (int64_t)(event + field); }
struct probe_pair { int a; };
*/
import "C"

func Field(e uintptr) int64 {
	var p C.struct_probe_pair
	_ = p
	return int64(C.probe_field(C.uintptr_t(e), C.uint32_t(41))) + int64(C.int(0))
}
`

// A C.name the preamble does not name (a misspelt helper) is a problem;
// the preamble's names and cgo's own are not.
func TestCgoNamesChecked(t *testing.T) {
	needGo(t)
	t.Parallel()
	res := check(t, Config{Dir: newProbe(t, map[string]string{"probe_darwin.go": goodProbe, "field_darwin.go": cgoNamesProbe}), Env: probeEnv})
	if len(res.Problems) != 0 {
		t.Errorf("a correct cgo file has problems:\n%s", problems(res))
	}
	bad := strings.Replace(cgoNamesProbe, "C.probe_field(", "C.probe_feild(", 1)
	res = check(t, Config{Dir: newProbe(t, map[string]string{"probe_darwin.go": goodProbe, "field_darwin.go": bad}), Env: probeEnv})
	wantProblem(t, res, "field_darwin.go", "C.probe_feild is not named in this file's cgo preamble")
}

func TestTestFilesChecked(t *testing.T) {
	needGo(t)
	t.Parallel()
	dir := newProbe(t, map[string]string{
		"probe_darwin.go": goodProbe,
		"probe_darwin_test.go": `package probe

import "testing"

func TestFrontmost(t *testing.T) { _ = Frontmost().Nope }
`,
	})
	res := check(t, Config{Dir: dir, Env: probeEnv, Arches: []string{"arm64"}})
	if len(res.Problems) != 0 {
		t.Errorf("without Tests, _test.go files were checked:\n%s", problems(res))
	}
	res = check(t, Config{Dir: dir, Env: probeEnv, Arches: []string{"arm64"}, Tests: true})
	wantProblem(t, res, "probe_darwin_test.go", "Nope")
	if !slices.Equal(res.Packages, []string{"example.com/probe"}) {
		t.Errorf("packages = %q, want test variants not counted", res.Packages)
	}
}

func TestCommand(t *testing.T) {
	needGo(t)
	t.Parallel()
	good := newProbe(t, map[string]string{"probe_darwin.go": goodProbe})
	bad := newProbe(t, map[string]string{"probe_darwin.go": strings.Replace(goodProbe, ".FrontmostApplication()", ".FrontmostApp()", 1)})
	run := func(args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "DARWINCHECK_RUN_MAIN=1", "GOFLAGS=-mod=mod")
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("running darwincheck %q: %v", args, err)
		}
		return o.String(), e.String(), code
	}

	out, errOut, code := run("-C", good)
	if code != 0 || !strings.HasPrefix(out, "darwincheck: 1 packages of example.com/probe") {
		t.Errorf("on a good module: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = run("-C", bad, "-arch", "amd64")
	if code != 1 || out != "" || !strings.HasPrefix(errOut, "amd64: ") ||
		!strings.Contains(errOut, "probe_darwin.go:9:") || !strings.Contains(errOut, "FrontmostApp") {
		t.Errorf("on a bad module: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, errOut, code = run("-C", good, "-arch", "sparc")
	if code != 2 || !strings.Contains(errOut, `unknown architecture "sparc"`) {
		t.Errorf("with a bad arch: exit %d, stderr %q", code, errOut)
	}
}

// TestRepo checks this repository's own darwin build, as make check-darwin
// does.
func TestRepo(t *testing.T) {
	needGo(t)
	t.Parallel()
	res := check(t, Config{Dir: "../.."})
	if len(res.Problems) > 0 {
		t.Errorf("the repository's darwin build does not type-check:\n%s", problems(res))
	}
	if !slices.Contains(res.Packages, "github.com/airlockhq/airlock/bridge") {
		t.Errorf("packages = %q, want github.com/airlockhq/airlock/bridge among them", res.Packages)
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct{ dir, pos, want string }{
		{"/work/main", "/work/main/bridge/x_darwin.go:3:4", filepath.FromSlash("bridge/x_darwin.go:3:4")},
		{"/work/main", "/work/mainly/x.go:3:4", "/work/mainly/x.go:3:4"},
		{"/work/main", "/tmp/x.go:1:1", "/tmp/x.go:1:1"},
		{"/work/main", "", ""},
	} {
		if got := shorten(c.dir, c.pos); got != c.want {
			t.Errorf("shorten(%q, %q) = %q, want %q", c.dir, c.pos, got, c.want)
		}
	}
}
