package sanitize

import (
	"path/filepath"
	"strings"
	"sync"
)

// Unknown is secret. Tools keep their tokens in hidden files and folders of
// the home (~/.config/stripe, ~/.gemini/oauth_creds.json) and in the
// Library folder, and a list of known credential stores always misses the
// tool it has not heard of. So everything hidden in the home is treated as
// secret — the OS sandbox hides it from actions, the analyzers rate a read
// of it as a possible secret read — unless it is on allowedHidden: entries
// known to hold no secret that tools need to run.
//
// Hidden is:
//   - every entry of the home whose name starts with "." (which takes in
//     ~/.config, ~/.local/share, ~/.local/state and ~/.cache);
//   - every entry of the folders in hiddenFolders (~/Library/*: Application
//     Support, Containers, Group Containers, Caches, Preferences, Logs …).
//
// The sandbox roots and what lies in them are never hidden, wherever they
// are. The credential stores (zones.go) are refused or hidden whatever
// this file says: no allowed entry may lie in or hold one (hidden_test.go).

// hiddenFolders are folders of the home all of whose entries are hidden,
// besides the home's own hidden entries. ~/Library holds what macOS apps
// keep: their data (Application Support, Containers, Group Containers),
// settings (Preferences, where many apps keep tokens), caches (HTTP
// caches hold session data), logs (which print tokens), cookies, mail and
// messages. Listing its harmless entries is shorter and safer than listing
// the secret ones.
var hiddenFolders = []entry{
	{"~/Library", "macOS apps' data, settings, caches and logs"},
	// Linux's ~/Library for snaps: each snap's data and settings, without a
	// dot. Ubuntu's Firefox and Chromium are snaps, so their profiles (saved
	// passwords, cookies) lie in ~/snap/firefox/common/.mozilla and
	// ~/snap/chromium (TestRedNextSecretsOutsideRoots).
	{"~/snap", "snap apps' data and settings (browser profiles: passwords, cookies)"},
}

// allowedHidden are the hidden entries known to hold no secret that tools
// need: toolchains (programs and the packages they run) and configuration
// that cannot hold a secret. An entry covers itself and everything under
// it; its parent stays hidden but for it (~/.cargo/bin is seen, the rest
// of ~/.cargo, credentials.toml and config.toml included, is not).
//
// Deliberately left out, with why:
//   - shell start-up files (~/.zshrc, ~/.bash_profile, ~/.profile …): they
//     often export tokens, and no shell an action starts needs them;
//   - ~/.gitconfig and ~/.config/git: url.insteadOf with a token in the URL,
//     http.extraHeader and github.token hold secrets; git runs without them;
//   - ~/.curlrc, ~/.wgetrc, ~/.npmrc, ~/.yarnrc, ~/.bunfig.toml, pip.conf,
//     ~/.condarc: registry and proxy passwords;
//   - caches (~/.cache, ~/Library/Caches): session data and tokens (a
//     Hugging Face token lives in ~/.cache); a tool without its cache is
//     only slower;
//   - editors' start-up files (~/.vimrc, ~/.emacs.d): no action needs an
//     editor's configuration, and they are persistence locations;
//   - ~/Library/Application Support, Preferences and Containers as a
//     whole: apps keep tokens there (settings read through cfprefsd do not
//     need the files);
//   - ~/.Trash: what the person deleted.
var allowedHidden = []entry{
	// Toolchains: language versions and the programs installed with them.
	{"~/.pyenv", "Python versions installed by pyenv"},
	{"~/.rbenv", "Ruby versions installed by rbenv"},
	{"~/.nodenv", "Node.js versions installed by nodenv"},
	{"~/.goenv", "Go versions installed by goenv"},
	{"~/.nvm", "Node.js versions installed by nvm"},
	{"~/.rustup", "Rust toolchains installed by rustup"},
	{"~/.cargo/bin", "programs installed by cargo and rustup"},
	{"~/.cargo/env", "the PATH snippet rustup writes"},
	{"~/.cargo/registry", "sources of crates from public registries"},
	{"~/.cargo/git", "checkouts of crates from git"},
	{"~/.local/bin", "programs installed for the user (pipx, uv, pip --user)"},
	{"~/.local/lib", "Python packages installed with pip --user"},
	{"~/.local/share/pipx", "pipx's virtual environments, which ~/.local/bin links into"},
	{"~/.local/share/uv/tools", "uv's tool environments, which ~/.local/bin links into"},
	{"~/.local/share/uv/python", "Python versions installed by uv"},
	{"~/.local/share/mise/installs", "tool versions installed by mise"},
	{"~/.local/share/mise/shims", "mise's shims"},
	{"~/.local/share/fnm", "Node.js versions installed by fnm"},
	{"~/.local/share/pnpm", "pnpm's global programs"},
	{"~/.local/state/nix/profiles", "Nix profiles, which ~/.nix-profile links through into /nix/store"},
	{"~/.nix-profile", "the Nix profile's programs"},
	{"~/.asdf", "asdf and the tool versions it installed"},
	{"~/.sdkman", "SDKMAN and the JDKs and tools it installed"},
	{"~/.jdks", "JDKs downloaded by IntelliJ IDEA"},
	{"~/.volta", "Volta and the Node.js tools it installed"},
	{"~/.bun/bin", "bun and its global programs"},
	{"~/.bun/install/global", "bun's global packages, which ~/.bun/bin links into"},
	{"~/.deno/bin", "deno and programs installed with deno install"},
	{"~/.dotnet/tools", ".NET global tools"},
	{"~/.ghcup/bin", "Haskell tools installed by ghcup"},
	{"~/.ghcup/ghc", "GHC versions installed by ghcup, which ~/.ghcup/bin links into"},
	{"~/.gem/ruby", "gems installed with gem install --user-install"},
	{"~/.yarn/bin", "yarn's global programs"},
	{"~/.m2/repository", "Maven's local repository of artefacts"},
	{"~/.gradle/wrapper", "Gradle distributions the Gradle wrapper runs"},
	{"~/.gradle/caches", "Gradle's downloaded dependencies"},
	{"~/.pulumi/bin", "the Pulumi CLI (its credentials.json stays hidden)"},
	{"~/.fly/bin", "the fly CLI (its config.yml stays hidden)"},
	{"~/Library/Python", "Python packages and programs installed with pip --user"},
	{"~/Library/pnpm", "pnpm's global programs"},
	{"~/Library/Android/sdk", "the Android SDK (adb, emulator, build tools)"},
	{"~/Library/Developer/Toolchains", "Swift toolchains"},
	{"~/Library/Frameworks", "frameworks installed for the user"},
	{"~/Library/Script Libraries", "AppleScript libraries (use script …)"},

	// Configuration that holds no secret and that tools read.
	{"~/.terminfo", "terminal descriptions (ncurses)"},
	{"~/.inputrc", "readline's key bindings"},
	{"~/.editorconfig", "editors' and formatters' indentation rules"},
	{"~/.tool-versions", "asdf's and mise's version pins"},
	{"~/.python-version", "pyenv's version pin"},
	{"~/.CFUserTextEncoding", "the text encoding Core Foundation programs read at start"},
	{"~/Library/Fonts", "fonts installed for the user"},
	{"~/Library/ColorSync", "colour profiles"},
}

// HiddenFolder is a folder of the home whose entries are hidden: all of
// them, or with DotOnly only those whose names start with ".".
type HiddenFolder struct {
	Path    string
	DotOnly bool
}

// HiddenFolders returns where the home's hidden entries are (see
// allowedHidden): the home itself, whose entries starting with "." are
// hidden, and the folders all of whose entries are. Home must be absolute
// and clean; nothing is looked up on disk.
func HiddenFolders(home string) []HiddenFolder {
	out := []HiddenFolder{{Path: home, DotOnly: true}}
	for _, e := range hiddenFolders {
		out = append(out, HiddenFolder{Path: homeJoin(home, e.path)})
	}
	return out
}

// HiddenAllowed returns the hidden entries known to hold no secret that
// tools need, as paths in home, in table order. Home must be absolute and
// clean; nothing is looked up on disk.
func HiddenAllowed(home string) []string {
	out := make([]string, len(allowedHidden))
	for i, e := range allowedHidden {
		out[i] = homeJoin(home, e.path)
	}
	return out
}

func homeJoin(home, tilde string) string {
	return filepath.Join(home, filepath.FromSlash(strings.TrimPrefix(tilde, "~/")))
}

// compiledHidden are the tables above, compiled: the folders with deny
// keys (a doubtful spelling of ~/Library is ~/Library), the allowed
// entries with allow keys (a lookalike of ~/.pyenv is not ~/.pyenv).
var compiledHidden = sync.OnceValue(func() (t struct{ folders, allowed []compiled }) {
	for _, e := range hiddenFolders {
		t.folders = append(t.folders, compiled{compile(e.path[1:], denyKey), e.path, e.what})
	}
	for _, e := range allowedHidden {
		t.allowed = append(t.allowed, compiled{compile(e.path[1:], allowKey), e.path, e.what})
	}
	return t
})

// hiddenDetail is what Hidden's Zone says of the place.
const hiddenDetail = "a hidden place in the home, whose files may hold secrets"

// Hidden reports whether abs is hidden in a home (its own or another's):
// in a hidden entry (see allowedHidden) that is not allowed, or an
// allowed entry's parent, which holds hidden entries beside it. The Zone's
// Kind is ZoneHidden, its Root the hidden entry abs lies in, as the OS
// sandbox hides it (~/.config for ~/.config/stripe/config.toml;
// ~/.cargo/config.toml for itself, since ~/.cargo holds the allowed
// ~/.cargo/bin).
// The sandbox roots and what lies in them are not hidden, nor is the
// home itself. Like Classify it does no I/O; Classify never reports
// ZoneHidden, whose places are not refused: a credential store is both, and
// Classify says so first.
func (c *Config) Hidden(abs string) (Zone, bool) {
	m := c.model()
	k, ok := m.classifyInput(abs)
	if !ok {
		return Zone{}, false
	}
	if _, _, in := m.inRoot(k); in {
		return Zone{}, false
	}
	for _, b := range m.bases {
		if !b.pat.prefixOf(k.deny) {
			continue
		}
		n := len(b.pat)
		depth := hiddenDepth(k.deny[n:])
		if depth == 0 {
			return Zone{}, false
		}
		rest := k.allow[n:]
		t := compiledHidden()
		for _, a := range t.allowed {
			if a.rel.prefixOf(rest) {
				return Zone{}, false
			}
		}
		// The hidden entry: the shortest prefix (at least the area's
		// depth) that is no allowed entry's parent.
		end := len(rest)
	prefix:
		for d := depth; d <= len(rest); d++ {
			for _, a := range t.allowed {
				if a.rel.extends(rest[:d]) {
					continue prefix
				}
			}
			end = d
			break
		}
		root := "~/" + strings.Join(k.raw[n:n+end], "/")
		if !b.own {
			root = "/" + strings.Join(k.raw[:n+end], "/")
		}
		return Zone{Kind: ZoneHidden, Detail: hiddenDetail, Root: root}, true
	}
	return Zone{}, false
}

// hiddenDepth says how many of rest's first elements (deny keys, below a
// home) name the hidden entry's area: 1 for a hidden entry of the home
// (.config), 2 for an entry of a hidden folder (Library/Caches), 0 when
// rest is in no hidden area.
func hiddenDepth(rest []string) int {
	if len(rest) == 0 {
		return 0
	}
	if strings.HasPrefix(rest[0], ".") {
		return 1
	}
	for _, f := range compiledHidden().folders {
		if len(rest) > len(f.rel) && f.rel.prefixOf(rest) {
			return len(f.rel) + 1
		}
	}
	return 0
}
