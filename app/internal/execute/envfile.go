package execute

import (
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// A project's environment file (.env, .env.local, prod.env) is loaded
// into the environment of what tools run there, with no .envrc and without
// asking: pipenv run and pipenv shell load .env, bun loads .env and
// .env.local at every command, Next.js loads them into its server and
// workers, VS Code's Python extension into what it runs and debugs; and
// oh-my-zsh's dotenv plugin sources .env as shell code at every cd into
// the folder once the person answered "always". So an environment file
// that sets a variable making programs load code (NODE_OPTIONS=--require,
// LD_PRELOAD, PYTHONSTARTUP, GIT_SSH_COMMAND, PATH …), or whose text runs
// a command where a shell sources it ($(…), `…`, a line that is no
// assignment, a value a blank or ; ends before another word), plants code
// the person runs later: it is held (a red team's find,
// TestRed12EnvironmentFilesLoadCode). One of everyday settings (ports,
// URLs, a database's address, ${VAR} references) lands.
//
// macOS has no review of content: Seatbelt refuses an unasked action
// every write of an environment file by name (sandbox/seatbelt_unasked.go).

// maxEnvFileRead bounds what is read of an environment file; a larger one
// is held whole (no project's settings are that long).
const maxEnvFileRead = 1 << 20

// envCodeVars are the variables (upper case) that make the programs a
// loaded environment reaches load or run what they name; a name ending in
// "_" stands for every variable it starts.
var envCodeVars = []string{
	// Libraries and modules every program of a kind loads at start.
	"LD_", "DYLD_", "NODE_OPTIONS", "NODE_PATH", "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME",
	"PYTHONUSERBASE", "PYTHONBREAKPOINT", "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT",
	"RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "MAVEN_OPTS",
	"GRADLE_OPTS", "SBT_OPTS", "CLASSPATH", "GOFLAGS", "RUSTFLAGS", "RUSTC", "RUSTC_WRAPPER", "CARGO_",
	// What shells run: at start, at every prompt, and the programs a
	// name runs.
	"PATH", "BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "SHELL", "FPATH",
	// Commands other programs run: git's, editors, pagers, browsers.
	"GIT_", "SSH_ASKPASS", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "BROWSER",
	"CC", "CXX", "CPP",
	// Settings files and package sources whose code the program runs.
	"NPM_CONFIG_", "YARN_", "PIP_", "UV_", "CONDARC", "GEMRC", "CURL_HOME", "WGETRC", "PSQLRC",
	"INPUTRC", "LESSKEY", "LESSKEYIN", "VIMINIT", "EXINIT", "MYVIMRC", "MAILCAPS", "GNUPGHOME",
	"BUN_OPTIONS", "PYTHONWARNINGS", "LUA_INIT", "LUA_PATH", "LUA_CPATH", "R_PROFILE", "R_PROFILE_USER",
	"R_ENVIRON_USER", "GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE", "IPYTHONDIR", "JUPYTER_CONFIG_DIR",
	"JAVA_HOME", "SUDO_ASKPASS",
	// Where a program finds its start-up files and settings (a .zshrc, a
	// git config with core.fsmonitor), and settings whose entries run
	// commands (kubeconfig's exec plugins, the AWS CLI's
	// credential_process, Terraform's provider installation).
	"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "KUBECONFIG", "AWS_CONFIG_FILE",
	"AWS_SHARED_CREDENTIALS_FILE", "TF_CLI_CONFIG_FILE",
	// A red team's (TestRed13EnvironmentFilesLoadCodeByOtherVariables):
	// modules and plug-ins a library loads into every program that links
	// it (OpenSSL's engines and providers, glibc's gconv, GTK's, Qt's,
	// GStreamer's, GIO's), a runtime's start-up hooks and profilers (.NET,
	// CoreCLR), compilers' and make's flags and makefiles, and the settings
	// files and folders whose entries run code (go's GOENV, Gradle's init
	// scripts, Docker's credential helpers, Julia's startup.jl, CMake's
	// toolchain, PHP's php.ini, Mercurial's hooks, irb's rc, Tcl's and R's
	// packages).
	"OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "GCONV_PATH", "GTK_MODULES", "GTK_PATH",
	"GTK3_MODULES", "QT_PLUGIN_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH", "GST_PLUGIN_PATH", "GST_PLUGIN_SYSTEM_PATH",
	"GIO_EXTRA_MODULES", "GIO_MODULE_DIR", "DOTNET_STARTUP_HOOKS", "DOTNET_ADDITIONAL_DEPS",
	"DOTNET_SHARED_STORE", "CORECLR_", "COR_", "COMPLUS_", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS",
	"OBJCFLAGS", "FFLAGS", "CGO_", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKEFILES", "GOENV", "GOTOOLCHAIN",
	"GRADLE_USER_HOME", "DOCKER_CONFIG", "JULIA_DEPOT_PATH", "JULIA_LOAD_PATH", "CMAKE_TOOLCHAIN_FILE",
	"PHPRC", "PHP_INI_SCAN_DIR", "HGRCPATH", "IRBRC", "TCLLIBPATH", "R_LIBS", "R_LIBS_USER", "R_LIBS_SITE",
	// The fourteenth team's (TestRed14EnvironmentFilesLoadCodeBySourcesAndCommands):
	// where packages come from, beside pip's, uv's and npm's (Go's proxy
	// and its checksum database turned off, bun's registry, Homebrew's
	// API and bottles, Poetry's repositories, the composer.json Composer
	// runs the scripts of), settings files whose entries run commands
	// (ripgrep's --pre, starship's custom modules at every prompt), and
	// where xdg-open and the desktop find the programs they start.
	"GOPROXY", "GONOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GOPRIVATE", "GOINSECURE",
	"BUN_CONFIG_REGISTRY", "HOMEBREW_", "POETRY_REPOSITORIES_", "POETRY_SOURCE_", "COMPOSER", "COMPOSER_HOME",
	"RIPGREP_CONFIG_PATH", "STARSHIP_CONFIG", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS",
}

// envCodeSuffixes end the names of families of variables that make a
// program load or run what they name, whatever tool starts them: a JVM
// tool's options (KAFKA_OPTS, ES_JAVA_OPTS, CATALINA_OPTS: -javaagent), an
// editor, pager, remote shell or password prompt a tool runs
// (SVN_EDITOR, RSYNC_RSH, CVS_RSH), a library preloaded, a command a tool
// runs (FZF_DEFAULT_COMMAND, FZF_CTRL_T_COMMAND, as GIT_SSH_COMMAND).
var envCodeSuffixes = []string{"_OPTS", "_OPTIONS", "_EDITOR", "_PAGER", "_RSH", "_ASKPASS", "_PRELOAD", "_COMMAND"}

// envFileWhy says why c, a new version of a file, plants code as an
// environment file ("" when it is none, or sets only everyday settings).
func envFileWhy(c sandbox.Change, mode fs.FileMode) string {
	if c.Kind == sandbox.Removed || !rate.EnvironmentFile(c.Path) {
		return ""
	}
	if mode&fs.ModeSymlink != 0 {
		return "an environment file made a link: tools load what it leads to into what they run"
	}
	if !mode.IsRegular() {
		return ""
	}
	text, ok := readUpper(c.Upper, maxEnvFileRead)
	if !ok {
		return "an environment file that could not be read whole: tools load it into what they run"
	}
	if why := envTextWhy(text); why != "" {
		return "an environment file that " + why + ": tools load it into what they run (bun, pipenv, Next.js, dotenv)"
	}
	return ""
}

// readUpper returns the text of the regular file p, a new version in a
// layer (no link followed), if it is at most max bytes.
func readUpper(p string, max int64) (string, bool) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", false
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(b)) > max {
		return "", false
	}
	return string(b), true
}

// envTextWhy says what in text, an environment file, runs code ("" for
// nothing): a variable of envCodeVars, or shell text that runs a command
// where the file is sourced.
func envTextWhy(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			line = strings.TrimSpace(rest)
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok || !envName(name) {
			// By its number, never its text: the file may be a secret the
			// agent cannot read, and the reason goes back to it (a red
			// team's find, TestRed13ReviewEchoesASecretLine).
			return "holds a line that is no assignment (line " + strconv.Itoa(i+1) + "), which a shell sourcing it runs"
		}
		up := strings.ToUpper(name)
		for _, v := range envCodeVars {
			if up == v || strings.HasSuffix(v, "_") && strings.HasPrefix(up, v) {
				return "sets " + name + ", which makes programs load or run what it names"
			}
		}
		for _, suf := range envCodeSuffixes {
			if strings.HasSuffix(up, suf) {
				return "sets " + name + ", which makes programs load or run what it names"
			}
		}
		// A quoted value may go on over the next lines.
		for q := openQuote(value); q != 0 && i+1 < len(lines); q = openQuote(value) {
			i++
			value += "\n" + lines[i]
		}
		if why := valueRuns(value); why != "" {
			return "gives " + name + " a value that " + why
		}
	}
	return ""
}

// envName reports whether s is a variable's name as dotenv loaders take
// it (letters, digits, "_", "." and "-", not starting with a digit).
func envName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// openQuote returns the quote (double or single) a value leaves open, or 0.
func openQuote(v string) byte {
	var q byte
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == c:
			q = 0
		case c == '\\' && q != '\'' && i+1 < len(v):
			i++
		}
	}
	return q
}

// valueRuns says what in a value runs a command where a shell sources the
// line ("" for nothing): a command substitution outside single quotes, or
// outside any quotes a ; & | < > or a blank followed by another word that
// is no assignment.
func valueRuns(v string) string {
	var q byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
			}
		case c == '\\' && i+1 < len(v):
			i++
		case c == '`' || c == '$' && i+1 < len(v) && v[i+1] == '(':
			return "substitutes a command's output, which a shell sourcing it runs"
		case q == '"':
			if c == '"' {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '#' && i > 0 && (v[i-1] == ' ' || v[i-1] == '\t'):
			return "" // a comment
		case strings.IndexByte(";&|<>", c) >= 0:
			if c == '&' && (i+1 == len(v) || followedByAssignments(v[i+1:])) {
				continue // a URL's query: what follows only assigns
			}
			return "goes on after " + string(c) + ", which a shell sourcing it runs as a command"
		case c == ' ' || c == '\t':
			if rest := strings.TrimSpace(v[i:]); rest != "" && !strings.HasPrefix(rest, "#") && !followedByAssignments(rest) {
				return "goes on after a blank, which a shell sourcing it runs as a command"
			}
			return ""
		}
	}
	return ""
}

// followedByAssignments reports whether s, the rest of a value after an
// unquoted & or blank, holds only NAME=value words up to its end or the
// next & (a URL's query string: a=1&b=2), which a shell only assigns.
func followedByAssignments(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '&' || r == ' ' || r == '\t' }) {
		name, _, ok := strings.Cut(w, "=")
		if !ok || !envName(name) || strings.ContainsAny(w, ";|<>`") || strings.Contains(w, "$(") {
			return false
		}
	}
	return true
}
