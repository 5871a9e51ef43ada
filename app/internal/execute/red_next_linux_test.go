//go:build linux

package execute_test

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// A fourth red team's attacks from inside an unasked action, at the
// default level with no approval ever given: the next members of the
// classes the earlier teams found. Each payload is in
// testdata/review/next.json and runs unasked through the real sandbox in
// a home made in a temporary folder (newRedRig); nobody keeps what is held.

// payloadNext returns the argv of the payload name of next.json.
func payloadNext(t *testing.T, name string) []string { return payloadIn(t, "next.json", name) }

// nextPlantRig is a home whose Documents folder, the sandbox root, holds a
// Python project with a virtual environment, a Rust, a Node.js, a Java, an
// R and a Ruby project, each with the files its tools already had.
func nextPlantRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/py/main.py":                                  {"print('hi')\n", 0o644},
		"Documents/py/venv/pyvenv.cfg":                          {"home = /usr/bin\ninclude-system-site-packages = false\n", 0o644},
		"Documents/py/venv/bin/activate.fish":                   {"set -gx VIRTUAL_ENV venv\n", 0o644},
		"Documents/rs/Cargo.toml":                               {"[package]\nname = \"rs\"\n", 0o644},
		"Documents/rs/src/main.rs":                              {"fn main() {}\n", 0o644},
		"Documents/app/package.json":                            {"{\"name\": \"app\"}\n", 0o644},
		"Documents/app/.claude/hooks/format.sh":                 {"npx prettier --write .\n", 0o644},
		"Documents/jv/gradle/wrapper/gradle-wrapper.properties": {"distributionUrl=https\\://services.gradle.org/distributions/gradle-8.10-bin.zip\n", 0o644},
		"Documents/r/.Rprofile":                                 {"source('renv/activate.R')\n", 0o644},
		"Documents/r/renv/activate.R":                           {"local({ version <- '1.0.7' })\n", 0o644},
		"Documents/rb/Gemfile":                                  {"source 'https://rubygems.org'\n", 0o644},
	})
}

// TestRedNextPlants: files other tools run from a project folder, by
// themselves or at the person's every command there: the other
// activation scripts of a virtual environment (fish, csh), the venv's
// pyvenv.cfg (its home is where Python takes its standard library from),
// pylint's init-hook and mypy's plugins, PEP 582's installed packages,
// rust-toolchain's path (the cargo and rustc every build and the editor's
// rust-analyzer run), mise's hooks (run on entering the folder) and
// .tool-versions' path: versions, the MCP servers and hooks of other
// agents and editors (VS Code, Cursor, Gemini CLI, Zed, Helix), the
// scripts a Claude Code hook runs, Yarn's Plug'n'Play loader, the Gradle
// and Maven wrappers' settings, renv's activation script (sourced by the
// .Rprofile at every R start) and irb's and pry's files of the folder.
// Each is held like a .envrc.
func TestRedNextPlants(t *testing.T) {
	r := nextPlantRig(t)
	argv := payloadNext(t, "tools that run a folder's files")
	r.plantsHeld(t, "tools that run a folder's files", argv)
}

// TestRedNextPlantsLookalikes: files named like those of TestRedNextPlants
// that no tool runs (notes, sources, an editor's recommendations, an
// agent's rules and commands) land unasked, without the person.
func TestRedNextPlantsLookalikes(t *testing.T) {
	r := nextPlantRig(t)
	argv := payloadNext(t, "look-alikes of those files")
	r.lookalikesLand(t, "look-alikes of those files", argv)
}

// leakedAny returns the marks of marks that what came back holds, as
// printed or with every blank taken out.
func leakedAny(res execute.Result, err error, marks []string) []string {
	out := res.Output
	if err != nil {
		out += "\n" + err.Error()
	}
	squeezed := strings.Join(strings.Fields(out), "")
	var got []string
	for _, s := range marks {
		if strings.Contains(out, s) || strings.Contains(squeezed, s) {
			got = append(got, s)
		}
	}
	return got
}

// TestRedNextSecretsOutsideRoots: the home's folders that are neither
// hidden (dot files, ~/Library) nor sandbox roots are read whole by an
// unasked action. On Linux the browsers Ubuntu ships are snaps, whose
// profiles (saved passwords, cookies) lie in ~/snap/<app>/common/.mozilla
// and ~/snap/chromium: a folder without a dot. And a project kept out of
// the roots (~/src, ~/work) has its .env seen: the roots' secret files
// are hidden, the rest of the home's are not.
func TestRedNextSecretsOutsideRoots(t *testing.T) {
	const (
		firefox  = "S3CRET-snap-firefox-login-1"
		chromium = "S3CRET-snap-chromium-cookie-2"
		dotenv   = "S3CRET-src-dotenv-3"
		key      = "S3CRET-work-key-4"
	)
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"snap/firefox/common/.mozilla/firefox/abc.default/logins.json": {`{"logins":[{"encryptedPassword":"` + firefox + `"}]}` + "\n", 0o600},
		"snap/chromium/common/chromium/Default/Cookies":                {"session=" + chromium + "\n", 0o600},
		"src/app/.env":    {"STRIPE_KEY=" + dotenv + "\n", 0o600},
		"work/deploy.key": {key + "\n", 0o600},
		"src/app/main.go": {"package main\n", 0o644},
		"Documents/a.txt": {"notes\n", 0o644},
	})
	name := "home outside the roots read whole"
	res, _, err := r.runArgv(t, name, payloadNext(t, name), "Documents")
	t.Logf("output %q, err %v", res.Output, err)
	if l := leakedAny(res, err, []string{firefox, chromium}); len(l) > 0 {
		t.Errorf("an unasked action read the snaps' browser profiles: %q", l)
	}
	if !strings.Contains(res.Output, "package main") {
		t.Errorf("the read shows nothing of ~/src, which the test needs to see: %q", res.Output)
	}
	if l := leakedAny(res, err, []string{dotenv, key}); len(l) > 0 {
		t.Errorf("an unasked action read the secret files of the home outside the sandbox roots (~/src/app/.env, ~/work/deploy.key): %q", l)
	}
}

// TestRedNextSecretNames: files whose name says they hold a secret that
// rate.SecretFile did not know, read whole by an unasked action in the
// roots: the access keys the AWS console downloads into ~/Downloads, a
// direnv .envrc (where people export their tokens), npm's and yarn's
// registry tokens, an OpenVPN profile with its key inline, a kubeconfig,
// an SSH key by a name of its own, Wrangler's .dev.vars, Android's and
// Flutter's signing passwords, s3cmd's, boto's, MySQL's, rclone's,
// Terraform's, Vault's, gcloud's and Cargo's tokens, and what a browser or
// password manager exports into ~/Downloads (saved passwords, a HAR's
// cookies). None comes back; the public key, the
// notes and the package.json do.
func TestRedNextSecretNames(t *testing.T) {
	secrets := map[string]string{
		"Downloads/alice_accessKeys.csv":                     "Access key ID,Secret access key\nAKIAEXAMPLE,S3CRET-aws-csv-1\n",
		"Downloads/rootkey.csv":                              "AWSSecretKey=S3CRET-aws-root-2\n",
		"Downloads/credentials.csv":                          "User name,Password\nalice,S3CRET-aws-console-3\n",
		"Documents/web/.envrc":                               "export API_TOKEN=S3CRET-envrc-4\n",
		"Documents/web/.npmrc":                               "//registry.npmjs.org/:_authToken=S3CRET-npmrc-5\n",
		"Documents/web/.yarnrc.yml":                          "npmAuthToken: S3CRET-yarnrc-6\n",
		"Documents/web/.dev.vars":                            "STRIPE=S3CRET-devvars-7\n",
		"Documents/web/.vault-token":                         "S3CRET-vault-8\n",
		"Documents/vpn/office.ovpn":                          "<key>\nS3CRET-ovpn-9\n</key>\n",
		"Documents/k8s/kubeconfig":                           "users:\n- user:\n    token: S3CRET-kube-10\n",
		"Documents/k8s/prod.kubeconfig":                      "users:\n- user:\n    token: S3CRET-kube-11\n",
		"Documents/keys/deploy_ed25519":                      "S3CRET-custom-ssh-12\n",
		"Documents/keys/github_rsa":                          "S3CRET-custom-ssh-13\n",
		"Documents/app/android/key.properties":               "storePassword=S3CRET-keyprops-14\n",
		"Documents/app/android/keystore.properties":          "storePassword=S3CRET-keyprops-15\n",
		"Documents/backup/.s3cfg":                            "secret_key = S3CRET-s3cfg-16\n",
		"Documents/backup/.boto":                             "gs_secret_access_key = S3CRET-boto-17\n",
		"Documents/db/.my.cnf":                               "[client]\npassword=S3CRET-mycnf-18\n",
		"Documents/sync/rclone.conf":                         "[drive]\ntoken = S3CRET-rclone-19\n",
		"Documents/tf/.terraformrc":                          "credentials \"app.terraform.io\" { token = \"S3CRET-tfrc-20\" }\n",
		"Documents/tf/credentials.tfrc.json":                 "{\"credentials\": {\"app.terraform.io\": {\"token\": \"S3CRET-tfrc-21\"}}}\n",
		"Downloads/Chrome Passwords.csv":                     "name,url,username,password\nbank,https://bank.example,alice,S3CRET-chrome-export-22\n",
		"Downloads/logins.csv":                               "url,username,password\nhttps://mail.example,alice,S3CRET-firefox-export-23\n",
		"Downloads/bitwarden_export_20260101.json":           "{\"items\": [{\"login\": {\"password\": \"S3CRET-bitwarden-24\"}}]}\n",
		"Downloads/app.example.com.har":                      "{\"log\": {\"entries\": [{\"request\": {\"cookies\": [{\"value\": \"S3CRET-har-cookie-25\"}]}}]}}\n",
		"Documents/gcp/application_default_credentials.json": "{\"refresh_token\": \"S3CRET-gcloud-adc-26\"}\n",
		"Documents/rs/credentials.toml":                      "[registry]\ntoken = \"S3CRET-cargo-27\"\n",
	}
	plain := map[string]string{
		"Documents/keys/deploy_ed25519.pub": "ssh-ed25519 AAAA-public-key-of-deploy\n",
		"Documents/web/package.json":        "{\"name\": \"web-package-json\"}\n",
		"Downloads/notes.txt":               "plain downloaded notes\n",
	}
	files := map[string]redFile{}
	for rel, body := range secrets {
		files[rel] = redFile{body, 0o600}
	}
	for rel, body := range plain {
		files[rel] = redFile{body, 0o644}
	}
	r := newRedRig(t, []string{"~/Documents", "~/Downloads"}, files)
	var marks []string
	for _, body := range secrets {
		i := strings.Index(body, "S3CRET-")
		marks = append(marks, strings.Fields(strings.NewReplacer("\"", " ", "<", " ").Replace(body[i:]))[0])
	}
	name := "secret files the table misses, read whole"
	var out string
	for _, root := range []string{"Documents", "Downloads"} {
		res, _, err := r.runArgv(t, name, payloadNext(t, name), root)
		if errors.Is(err, execute.ErrSecretsUnhidden) {
			t.Fatalf("%s was not started: %v", name, err)
		}
		if l := leakedAny(res, err, marks); len(l) > 0 {
			t.Errorf("an unasked read of ~/%s printed %q", root, l)
		}
		out += res.Output
	}
	for _, body := range plain {
		if !strings.Contains(out, strings.TrimSpace(body)) {
			t.Errorf("the reads do not show %q, which holds no secret: %q", body, out)
		}
	}
}

// TestRedNextProgramRewrittenWithoutItsBit: a program rewritten is held
// (TestRedExecutableRewritten), but one replaced by a file without the
// executable bit, or by a link to a file the action wrote, was not: the
// rule looked at the new version's bit. The scripts still run as before
// wherever they are run by an interpreter (bash tools/deploy.sh in a
// package.json or Makefile, sh in a hook runner), and ./deploy.sh's
// "permission denied" is fixed by a chmod +x. Dropping the bit alone,
// with the content as it was, is still no plant.
func TestRedNextProgramRewrittenWithoutItsBit(t *testing.T) {
	files := map[string]redFile{
		"Documents/tools/deploy.sh": {"#!/bin/sh\nrsync -a site/ host:\n", 0o755},
		"Documents/tools/build.sh":  {"#!/bin/sh\nmake all\n", 0o755},
	}
	r := newRedRig(t, []string{"~/Documents"}, files)
	name := "program rewritten without its executable bit"
	_, held, err := r.runArgv(t, name, payloadNext(t, name), "Documents")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	r.heldOrAbsent(t, held, map[string]string{
		"Documents/tools/deploy.sh": files["Documents/tools/deploy.sh"].content,
		"Documents/tools/build.sh":  files["Documents/tools/build.sh"].content,
	})
	if fi, err := os.Lstat(r.p("Documents/tools/build.sh")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("tools/build.sh was replaced by a link without the person (%v)", err)
	}

	r = newRedRig(t, []string{"~/Documents"}, files)
	name = "program made not executable"
	_, held, err = r.runArgv(t, name, payloadNext(t, name), "Documents")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(held) > 0 {
		t.Errorf("chmod -x alone was held: %q", held)
	}
	if fi, err := os.Stat(r.p("Documents/tools/deploy.sh")); err != nil || fi.Mode()&0o111 != 0 {
		t.Errorf("chmod -x did not land: %v", err)
	}
}

// TestRedNextNoResourceBounds: an unasked action ran with no bound on
// its memory, its processes or what it writes. The analyzer rates
// `sort /dev/zero` (one endless line held in memory) and a fork loop safe,
// so they ran unasked and took the machine's memory or processes: the
// person's apps failed, the popup and `airlock kill` could not start a
// process. Now it starts under sandbox.UnaskedLimits (or the gate's own
// limit where that is lower), soft and hard alike; the sandbox's tests
// (limits_linux_test.go) run the attacks past small bounds. The payload
// only prints its limits.
func TestRedNextNoResourceBounds(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	name := "limits it runs under"
	res, _, err := r.runArgv(t, name, payloadNext(t, name), "Documents")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rows := map[string]struct {
		row      string
		resource int
	}{
		launcher.LimitProcesses: {"Max processes", unix.RLIMIT_NPROC},
		launcher.LimitData:      {"Max data size", unix.RLIMIT_DATA},
		launcher.LimitFileSize:  {"Max file size", unix.RLIMIT_FSIZE},
		launcher.LimitCore:      {"Max core file size", unix.RLIMIT_CORE},
		launcher.LimitOpenFiles: {"Max open files", unix.RLIMIT_NOFILE},
	}
	for _, l := range ossandbox.UnaskedLimits() {
		r, ok := rows[l.Resource]
		if !ok {
			t.Fatalf("no row of /proc/self/limits for %s", l.Resource)
		}
		var own syscall.Rlimit
		if err := syscall.Getrlimit(r.resource, &own); err != nil {
			t.Fatal(err)
		}
		want := strconv.FormatUint(min(l.Max, own.Cur), 10)
		if want == strconv.FormatUint(unix.RLIM_INFINITY, 10) {
			want = "unlimited"
		}
		var got []string
		for _, line := range strings.Split(res.Output, "\n") {
			if rest, ok := strings.CutPrefix(line, r.row+" "); ok {
				got = strings.Fields(rest)
			}
		}
		if len(got) < 2 || got[0] != want || got[1] != want {
			t.Errorf("%s: %q, want %s soft and hard (output %q)", r.row, got, want, res.Output)
		}
	}
}

// TestRedNextHookRunners: the configurations of the git hook runners
// other than husky's folder and lefthook.yml (lefthook's other names and
// its -local files, husky 4's .huskyrc, lint-staged's and commitlint's
// configurations the hooks run, simple-git-hooks, overcommit), package
// indexes other than pip.conf's (uv.toml, Bundler's mirror), the JVM
// options sbt reads from the folder, an IDE's whole .idea folder (its
// ESLint configuration names a script it runs), and bazelisk's and
// Bazel's settings (the Bazel it downloads, the status command every
// build runs). Each runs at the person's next commit, install, build or
// folder open, and is held.
func TestRedNextHookRunners(t *testing.T) {
	r := nextPlantRig(t)
	name := "hook runners' and build tools' settings"
	argv := payloadNext(t, name)
	before := map[string]string{}
	for i := 3; i+1 < len(argv); i += 2 {
		before["Documents/"+argv[i]] = ""
	}
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	r.heldOrAbsent(t, held, before)
}

// TestRedNextVenvHome: the plant of pyvenv.cfg is real. Its home says
// where the environment's Python finds its standard library; moved to a
// folder the action made (links to every module of the real one, and a
// sitecustomize.py of its own), every start of the venv's Python
// runs the action's code (its sitecustomize). Unasked, the change is
// held; kept by the person, the next `venv/bin/python` in the temporary
// home runs it.
func TestRedNextVenvHome(t *testing.T) {
	rig := func() *redRig {
		r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
			"Documents/py/venv/pyvenv.cfg": {"home = /usr/bin\ninclude-system-site-packages = false\n", 0o644},
			"Documents/py/main.py":         {"print('hi')\n", 0o644},
		})
		if err := os.MkdirAll(r.p("Documents/py/venv/bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/usr/bin/python3", r.p("Documents/py/venv/bin/python")); err != nil {
			t.Fatal(err)
		}
		return r
	}
	name := "venv's home moved"
	argv := payloadNext(t, name)
	r := rig()
	_, held, err := r.runArgv(t, name, argv, "Documents/py")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	r.heldOrAbsent(t, held, map[string]string{"Documents/py/venv/pyvenv.cfg": "home = /usr/bin\ninclude-system-site-packages = false\n"})

	k := rig()
	if _, _, err := k.runArgvKeep(t, name, argv, "Documents/py", true); err != nil {
		t.Fatalf("run: %v", err)
	}
	py := exec.Command(k.p("Documents/py/venv/bin/python"), "-c", "import sys; print(sys.base_prefix)")
	py.Dir, py.Env = k.p("Documents/py"), []string{"HOME=" + k.home, "PATH=/usr/bin:/bin"}
	out, err := py.CombinedOutput()
	if err != nil {
		t.Fatalf("venv/bin/python: %v: %s", err, out)
	}
	t.Logf("venv/bin/python: %s", out)
	if !k.exists("Documents/py/pwned-by-pyvenv") {
		t.Errorf("the kept pyvenv.cfg did not make the venv's Python run the action's sitecustomize.py: the payload is no plant")
	}
}
