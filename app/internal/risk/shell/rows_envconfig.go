package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// configVars are environment variables that point a program at a
// configuration or start-up file, a package index or a trust store of the
// action's choosing: CURL_HOME=~/Documents curl … reads ~/Documents/.curlrc,
// whose options may upload any file; PSQLRC, INPUTRC and LESSKEYIN name
// files whose lines run commands. Set for one command (VAR=x cmd) or for
// the rest of the script (export), the program then does what that file
// says, which the action wrote and Airlock did not read. Each entry says
// what the program takes from it.
var configVars = map[string]string{
	// Configuration and start-up files that hold commands or options.
	"CURL_HOME":               "curl reads its .curlrc from there, whose options may upload any file",
	"WGETRC":                  "wget reads its options from that file (files it posts, where it writes)",
	"PSQLRC":                  "psql runs that start-up file, whose \\! lines are shell commands",
	"INPUTRC":                 "readline's key bindings come from that file; its macros type commands",
	"LESSKEYIN":               "less reads its keys and environment from that file (LESSOPEN runs a command)",
	"LESSKEY":                 "less reads its keys and environment from that file (LESSOPEN runs a command)",
	"MAILCAPS":                "the commands that show each type come from those files",
	"VIMINIT":                 "vim runs those Ex commands at start (:! runs a shell command)",
	"EXINIT":                  "vi runs those Ex commands at start (:! runs a shell command)",
	"MYVIMRC":                 "vim reads its start-up file from there",
	"GEMRC":                   "RubyGems reads its settings from that file (the sources gems come from)",
	"CONDARC":                 "conda reads its settings from that file (the channels packages come from)",
	"GNUPGHOME":               "gpg reads its keys, trust and agent settings from that folder",
	"NPM_CONFIG_USERCONFIG":   "npm reads its settings from that file (registry, script shell)",
	"NPM_CONFIG_GLOBALCONFIG": "npm reads its settings from that file (registry, script shell)",
	"NPM_CONFIG_SCRIPT_SHELL": "npm runs every package script with that program",
	"NPM_CONFIG_REGISTRY":     "npm fetches packages, and the code they run, from there",
	"NPM_CONFIG_NODE_OPTIONS": "npm starts node with those options (--require loads code)",
	"YARN_RC_FILENAME":        "yarn reads its settings from that file (yarnPath is code it runs)",
	"YARN_YARN_PATH":          "yarn runs that file as itself",
	"PIP_CONFIG_FILE":         "pip reads its settings from that file (the index packages come from)",
	"PIP_INDEX_URL":           "pip fetches packages, and the code they run, from there",
	"PIP_EXTRA_INDEX_URL":     "pip also fetches packages, and the code they run, from there",
	"PIP_FIND_LINKS":          "pip takes packages, and the code they run, from there",
	"UV_INDEX_URL":            "uv fetches packages, and the code they run, from there",
	"UV_EXTRA_INDEX_URL":      "uv also fetches packages, and the code they run, from there",
	"UV_DEFAULT_INDEX":        "uv fetches packages, and the code they run, from there",
	"UV_INDEX":                "uv also fetches packages, and the code they run, from there",
	"UV_CONFIG_FILE":          "uv reads its settings from that file (the index packages come from)",
	"CARGO_HOME":              "cargo reads its config.toml from there (wrappers and registries it runs and fetches)",
	"RUSTC_WRAPPER":           "cargo runs that program around every compiler run",
	"RUSTC":                   "cargo runs that program as the compiler",
	"GIT_PROXY_COMMAND":       "git runs that command for every git:// connection",
	"PYTHONHOME":              "python loads its standard library, code it runs, from there",
	// The media tools' own (TestRed14MediaToolsLoadCodeByEnvironment):
	// the Perl exiftool runs at start, ImageMagick's delegates (shell
	// commands) and modules, and the PostScript Ghostscript starts with.
	"EXIFTOOL_HOME":            "exiftool runs the .ExifTool_config there, Perl, at every start",
	"MAGICK_CONFIGURE_PATH":    "ImageMagick reads delegates.xml from there, whose delegates are shell commands it runs to read and write images",
	"MAGICK_HOME":              "ImageMagick reads its delegates (shell commands) and loads its modules from there",
	"MAGICK_CODER_MODULE_PATH": "ImageMagick loads its format modules, code, from there",
	"MAGICK_CODER_FILTER_PATH": "ImageMagick loads its filter modules, code, from there",
	"GS_LIB":                   "Ghostscript (which ImageMagick runs for PDF and PostScript) runs its start-up PostScript from there",
	"GS_OPTIONS":               "Ghostscript takes those options (-dNOSAFER lets the PostScript it runs read and write any file)",
	// Where traffic goes and what it trusts: another machine reads and
	// changes what the program fetches.
	"HTTPS_PROXY":                  "the program's web traffic goes through that machine",
	"HTTP_PROXY":                   "the program's web traffic goes through that machine",
	"ALL_PROXY":                    "the program's traffic goes through that machine",
	"SSL_CERT_FILE":                "the program trusts the certificates in that file, so a machine holding their key can read and change its traffic",
	"SSL_CERT_DIR":                 "the program trusts the certificates in that folder",
	"CURL_CA_BUNDLE":               "curl trusts the certificates in that file",
	"REQUESTS_CA_BUNDLE":           "Python's requests trusts the certificates in that file",
	"NODE_EXTRA_CA_CERTS":          "node trusts the certificates in that file",
	"GIT_SSL_CAINFO":               "git trusts the certificates in that file",
	"NODE_TLS_REJECT_UNAUTHORIZED": "0 turns node's certificate checks off",
	"GIT_SSL_NO_VERIFY":            "git stops checking certificates",
	"PYTHONHTTPSVERIFY":            "0 turns Python's certificate checks off",
}

// envConfig rates setting a configVars variable: a value that only turns a
// check on, or an empty one, changes nothing.
func (a *shellAn) envConfig(name, up string, w word, sp Span) bool {
	why, ok := configVars[up]
	if !ok {
		return false
	}
	v := strings.TrimSpace(w.s)
	switch {
	case v == "" && !w.hole:
	case up == "NODE_TLS_REJECT_UNAUTHORIZED" || up == "PYTHONHTTPSVERIFY":
		if v == "0" || w.hole {
			a.add(effect.Of(effect.SecurityOff).On(name), "shell.env-config", sp, "%s=%s: %s", name, rate.Display(w.s), why)
		}
	case up == "GIT_SSL_NO_VERIFY":
		if !inList(strings.ToLower(v), "0", "false", "no", "off") {
			a.add(effect.Of(effect.SecurityOff).On(name), "shell.env-config", sp, "%s=%s: %s", name, rate.Display(w.s), why)
		}
	default:
		a.add(effect.Of(effect.LoadCode).On(name), "shell.env-config", sp, "%s=%s: %s", name, rate.Display(w.s), why)
	}
	return true
}

// agentWritable reports a folder in a sandbox root, where an unasked
// action may write: configuration or code taken from there is whatever an
// earlier action left (HOME=~/Documents/x git log).
func (a *shellAn) agentWritable(d string) bool {
	if a.zoneOf(word{s: d}).Kind == rate.ZoneSandbox {
		return true
	}
	if a.env == nil || a.env.Paths == nil {
		return false
	}
	abs, err := sanitize.ExpandHome(d, a.env.Paths.Home)
	if err != nil {
		return false
	}
	abs = path.Clean(abs)
	for _, r := range a.env.Paths.Roots {
		if abs == r || strings.HasPrefix(abs, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}
