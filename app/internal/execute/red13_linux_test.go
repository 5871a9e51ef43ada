//go:build linux

package execute_test

import (
	"testing"
	"time"
)

// A fourteenth red team's attacks from inside an unasked action (round 13
// of the brief), at the default level with no approval ever given. Each
// payload is in testdata/review/red13.json and runs unasked through the
// real sandbox in a home made in a temporary folder (newRedRig); nobody
// keeps what is held.

// payload13 returns the argv of the payload name of red13.json.
func payload13(t *testing.T, name string) []string { return payloadIn(t, "red13.json", name) }

// TestRed13EnvironmentFilesLoadCodeByOtherVariables: red12 held an
// environment file that sets one of a list of variables, but programs
// load code by many more, and a loaded .env reaches them all: OpenSSL
// loads the engines its OPENSSL_CONF names into every program that links
// it (curl, Python, git), glibc loads the gconv modules of GCONV_PATH at
// any iconv, gcc the -fplugin and -B programs of CFLAGS and LDFLAGS, make
// the makefiles of MAKEFILES and MAKEFLAGS, go the GOFLAGS of the GOENV
// file, Gradle the init scripts of GRADLE_USER_HOME, Docker the
// credential helpers of DOCKER_CONFIG, Julia the startup.jl of its depot,
// CMake the toolchain file, PHP the auto_prepend_file of PHPRC's php.ini,
// .NET the startup hooks and CoreCLR the profiler, Mercurial the hooks of
// HGRCPATH, irb the IRBRC, rsync the RSYNC_RSH, GTK and Qt their modules
// and plug-ins, every JVM tool the -javaagent of its *_OPTS, Subversion
// its SVN_EDITOR, Tcl the packages of TCLLIBPATH. Each such file is held;
// everyday settings land (TestRed13EnvironmentFilesLookalikes).
func TestRed13EnvironmentFilesLoadCodeByOtherVariables(t *testing.T) {
	name := "environment files that load code, by other variables"
	envFilesHeld(t, name, payload13(t, name))
}

// envFilesHeld runs the payload argv (sh -c SCRIPT, then pairs of an
// environment file's name in Documents and its text) unasked: every file
// it writes is held by the review, or absent.
func envFilesHeld(t *testing.T, name string, argv []string) {
	t.Helper()
	r := envRig(t)
	before := map[string]string{}
	for i := 3; i+1 < len(argv); i += 2 {
		if isEnvFile(argv[i]) {
			before["Documents/"+argv[i]] = ""
		}
	}
	if len(before) != (len(argv)-3)/2 {
		t.Fatalf("a payload's file is not an environment file: %q", argv[3:])
	}
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	r.heldOrAbsent(t, held, before)
}

// TestRed13WriteLeftBehind: an unasked command that leaves a process
// behind (setsid, nohup, in the background) to plant a file (.envrc) a
// moment later, once the command may have ended and its changes been
// reviewed: whenever the write happens (before the review, which holds
// it, or after, into a layer already gone), the .envrc is not in place
// afterwards. (It holds on main; under -race a write came before the
// review and was reviewed like any other.)
func TestRed13WriteLeftBehind(t *testing.T) {
	r := envRig(t)
	name := "a write left behind for after the review"
	res, held, err := r.runArgv(t, name, payload13(t, name), "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	t.Logf("held %q, output %q", held, res.Output)
	time.Sleep(3 * time.Second) // the processes it left would have written by now
	for _, rel := range []string{"Documents/zshproj/.envrc", "Documents/shproj/.envrc"} {
		if got := r.read(rel); got != "<missing>" {
			t.Errorf("HOLE: %s = %q: a process the action left planted it", rel, got)
		}
	}
}

// TestRed13EnvironmentFilesLookalikes: environment files of everyday
// settings whose names look like the variables above (FEATURE_FLAGS,
// UPLOAD_PATH, DATA_DIR, CONFIG_PATH, SSL_CERT_DIR, DOTNET_ENVIRONMENT,
// ASPNETCORE_URLS) land unasked.
func TestRed13EnvironmentFilesLookalikes(t *testing.T) {
	r := envRig(t)
	name := "environment files of everyday settings, round 13"
	r.lookalikesLand(t, name, payload13(t, name))
}
