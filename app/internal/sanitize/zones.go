package sanitize

// The zone tables. Every entry is a path and what lies there, in words that
// read after "is" or "is inside" ("a LaunchAgent folder"); Classify reports
// them as Zone.Detail. An entry covers itself and everything under it.
//
// Paths start with "/" (absolute), "~/" (in the user's home, and in every
// other home: /Users/*, /home/*, the home's siblings, /var/root, /root) or
// "**/" (at any depth, in any folder). An element "*" is any one element;
// "*.git" is any element ending in ".git" (".git" itself, or a bare
// repository such as "proj.git"); ".zcompdump*" any element starting with
// ".zcompdump".
//
// Names are compared as APFS compares them (case- and
// normalisation-insensitively; see fold.go), so each entry is written once,
// in its usual spelling. An absolute entry under /var, /tmp or /etc also
// covers its /private twin and the other way round (macOS's /etc is a link
// to /private/etc).

type entry struct {
	path string
	what string
}

// systemZone is refused for every operation: macOS itself, and the
// prefixes that reach any file by another name.
var systemZone = []entry{
	{"/System", "macOS itself"},
	{"/Library", "the system-wide Library (daemons, preferences, extensions)"},
	{"/usr", "system programs and libraries"},
	{"/bin", "system programs"},
	{"/sbin", "system programs"},
	{"/private", "the system's private folder (/etc, /var and /tmp live there)"},
	{"/etc", "system configuration"},
	{"/var", "system state (logs, databases, spools)"},
	{"/dev", "devices"},
	{"/cores", "crash dumps"},
	// What a reviewer adds: prefixes that name any file another way.
	{"/.vol", "the volfs tree (files by inode number)"},
	{"/.nofollow", "a path-resolution prefix (/.nofollow/… is any path)"},
	{"/.resolve", "a path-resolution prefix (/.resolve/…/… is any path)"},
}

// tempZone is excepted from systemZone: the per-user and shared temporary
// folders.
var tempZone = []entry{
	{"/var/folders", "the per-user temporary folders"},
	{"/tmp", "the shared temporary folder"},
}

// credentialZone is refused for every operation: secrets, and the private
// data a leak of which would hurt as much.
var credentialZone = []entry{
	// The seed list.
	{"~/.ssh", "SSH keys and configuration"},
	{"~/.gnupg", "GnuPG keys"},
	{"~/.aws", "AWS credentials"},
	{"~/.azure", "Azure credentials"},
	{"~/.config/gcloud", "Google Cloud credentials"},
	{"~/.kube", "Kubernetes credentials"},
	{"~/.docker", "Docker registry credentials"},
	{"~/.netrc", "machine passwords (netrc)"},
	{"~/.git-credentials", "stored git credentials"},
	{"~/.config/git/credentials", "stored git credentials"},
	{"~/.config/gh", "GitHub CLI tokens"},
	{"~/.config/hub", "hub's GitHub tokens"},
	{"~/.npmrc", "npm registry tokens"},
	{"~/.pypirc", "PyPI tokens"},
	{"~/.cargo/credentials", "Cargo registry tokens"},
	{"~/.cargo/credentials.toml", "Cargo registry tokens"},
	{"~/.gem/credentials", "RubyGems API keys"},
	{"~/.vault-token", "a HashiCorp Vault token"},
	{"~/.terraform.d", "Terraform Cloud tokens"},
	{"~/.password-store", "a pass password store"},
	{"~/.local/share/keyrings", "GNOME keyrings"},
	{"~/.config/op", "1Password CLI configuration"},
	{"~/Library/Keychains", "macOS keychains"},
	{"~/Library/Cookies", "cookies"},
	{"~/Library/Safari", "Safari history, cookies and data"},
	{"~/Library/Containers/com.apple.Safari", "Safari's data"},
	{"~/Library/Application Support/Google/Chrome", "a Chrome profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Chromium", "a Chromium profile (cookies, saved passwords)"},
	{"~/Library/Application Support/BraveSoftware", "a Brave profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Microsoft Edge", "an Edge profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Firefox", "a Firefox profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Arc", "an Arc profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Vivaldi", "a Vivaldi profile (cookies, saved passwords)"},
	{"~/Library/Application Support/com.operasoftware.Opera", "an Opera profile (cookies, saved passwords)"},
	{"~/.mozilla", "a Firefox profile (cookies, saved passwords)"},
	{"~/.config/google-chrome", "a Chrome profile (cookies, saved passwords)"},
	{"~/.config/chromium", "a Chromium profile (cookies, saved passwords)"},
	{"~/.config/BraveSoftware", "a Brave profile (cookies, saved passwords)"},
	{"~/Library/Application Support/1Password", "1Password's data"},
	{"~/Library/Group Containers/2BUA8C4S2C.com.1password", "1Password's data"},
	{"~/Library/Messages", "Messages history"},
	{"~/Library/Mail", "mail"},
	{"~/Library/Application Support/AddressBook", "contacts"},

	// What a reviewer adds: more browsers and channels, more tokens, more
	// private data, and the privacy-permission database.
	{"~/Library/Application Support/Google/Chrome Beta", "a Chrome profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Google/Chrome Dev", "a Chrome profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Google/Chrome Canary", "a Chrome profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Microsoft Edge Beta", "an Edge profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Microsoft Edge Dev", "an Edge profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Microsoft Edge Canary", "an Edge profile (cookies, saved passwords)"},
	{"~/Library/Application Support/com.operasoftware.OperaGX", "an Opera profile (cookies, saved passwords)"},
	{"~/Library/Application Support/Bitwarden", "Bitwarden's data"},
	{"~/Library/Containers/com.bitwarden.desktop", "Bitwarden's data"},
	{"~/Library/Application Support/Slack", "Slack session tokens and cookies"},
	{"~/Library/Application Support/discord", "Discord session tokens"},
	{"~/Library/HTTPStorages", "apps' cookies and HTTP storage"},
	{"~/Library/Application Support/com.apple.TCC", "the privacy-permission database (TCC)"},
	{"~/Library/Accounts", "Internet Accounts"},
	{"~/Library/IdentityServices", "iMessage and FaceTime identities"},
	{"~/Library/Containers/com.apple.mail", "mail"},
	{"~/Library/Containers/com.apple.Notes", "notes"},
	{"~/Library/Group Containers/group.com.apple.notes", "notes"},
	{"~/Library/Calendars", "calendars"},
	{"~/Library/Application Support/CallHistoryDB", "call history"},
	{"~/Library/Application Support/Bitcoin", "a cryptocurrency wallet"},
	{"~/Library/Application Support/Electrum", "a cryptocurrency wallet"},
	{"~/Library/Application Support/Exodus", "a cryptocurrency wallet"},
	{"~/Library/Ethereum", "a cryptocurrency wallet"},
	{"~/.bitcoin", "a cryptocurrency wallet"},
	{"~/.electrum", "a cryptocurrency wallet"},
	{"~/.ethereum", "a cryptocurrency wallet"},
	{"~/.config/sops", "SOPS and age keys"},
	{"~/.config/rclone", "rclone remotes and their keys"},
	{"~/.config/doctl", "DigitalOcean tokens"},
	{"~/.config/hcloud", "Hetzner Cloud tokens"},
	{"~/.config/configstore", "tokens cached by Node.js tools"},
	{"~/.config/github-copilot", "GitHub Copilot tokens"},
	{"~/.oci", "Oracle Cloud keys"},
	{"~/.minikube", "minikube certificates"},
	{"~/.m2/settings.xml", "Maven repository passwords"},
	{"~/.gradle/gradle.properties", "Gradle credentials"},
	{"~/.pgpass", "PostgreSQL passwords"},
	{"~/.my.cnf", "MySQL passwords"},
	{"~/.s3cfg", "S3 keys"},
	{"~/.boto", "Google Cloud Storage and S3 keys"},
	{"~/.cache/huggingface/token", "a Hugging Face token"},
	{"~/.huggingface", "a Hugging Face token"},
	{"~/.zsh_history", "shell history (which often holds pasted secrets)"},
	{"~/.zsh_sessions", "shell history (which often holds pasted secrets)"},
	{"~/.bash_history", "shell history (which often holds pasted secrets)"},
	{"~/.local/share/fish/fish_history", "shell history (which often holds pasted secrets)"},

	// A red team's finds: agents' own tokens, more browsers, mail and
	// online accounts on Linux, container registries, and the histories of
	// database shells and REPLs (where passwords are typed).
	{"~/.claude", "Claude Code's credentials and sessions"},
	{"~/.codex", "Codex CLI's credentials and sessions"},
	{"~/.config/microsoft-edge", "an Edge profile (cookies, saved passwords)"},
	{"~/.config/vivaldi", "a Vivaldi profile (cookies, saved passwords)"},
	{"~/.config/opera", "an Opera profile (cookies, saved passwords)"},
	{"~/.thunderbird", "Thunderbird's mail and saved passwords"},
	{"~/.config/goa-1.0", "GNOME Online Accounts"},
	{"~/.local/share/evolution", "Evolution's mail and accounts"},
	{"~/.config/containers/auth.json", "container registry credentials"},
	{"~/.config/glab-cli", "GitLab CLI tokens"},
	{"~/.psql_history", "PostgreSQL shell history (which often holds passwords)"},
	{"~/.mysql_history", "MySQL shell history (which often holds passwords)"},
	{"~/.rediscli_history", "Redis shell history (which often holds passwords)"},
	{"~/.python_history", "Python REPL history (which often holds pasted secrets)"},
	{"~/.node_repl_history", "Node.js REPL history (which often holds pasted secrets)"},

	// The fourteenth red team's find (TestRed14SeatbeltEditorHistory):
	// editors' copies of every file the person saves, under names that
	// say nothing of it (.env and keys included), and unsaved text.
	{"~/Library/Application Support/Code/User/History", "VS Code's local history (a copy of every file saved, secrets included)"},
	{"~/Library/Application Support/Code - Insiders/User/History", "VS Code's local history (a copy of every file saved, secrets included)"},
	{"~/Library/Application Support/Cursor/User/History", "Cursor's local history (a copy of every file saved, secrets included)"},
	{"~/Library/Application Support/VSCodium/User/History", "VSCodium's local history (a copy of every file saved, secrets included)"},
	{"~/Library/Application Support/Windsurf/User/History", "Windsurf's local history (a copy of every file saved, secrets included)"},
	{"~/.config/Code/User/History", "VS Code's local history (a copy of every file saved, secrets included)"},
	{"~/.config/Code - Insiders/User/History", "VS Code's local history (a copy of every file saved, secrets included)"},
	{"~/.config/Cursor/User/History", "Cursor's local history (a copy of every file saved, secrets included)"},
	{"~/.config/VSCodium/User/History", "VSCodium's local history (a copy of every file saved, secrets included)"},
	{"~/.config/Windsurf/User/History", "Windsurf's local history (a copy of every file saved, secrets included)"},
	{"~/Library/Application Support/Sublime Text/Local", "Sublime Text's session (unsaved text of every open file)"},
	{"~/.config/sublime-text/Local", "Sublime Text's session (unsaved text of every open file)"},
}

// persistenceZone is not refused by itself (a path in it that is also
// inside the sandbox roots passes), but Path flags it and Classify reports
// it, so that the risk package rates writing, moving or deleting there at
// least destructive: code placed there runs later, unasked.
var persistenceZone = []entry{
	// launchd and start-up items.
	{"~/Library/LaunchAgents", "a LaunchAgent folder"},
	{"~/Library/LaunchDaemons", "a LaunchDaemon folder"},
	{"/Library/LaunchAgents", "a LaunchAgent folder"},
	{"/Library/LaunchDaemons", "a LaunchDaemon folder"},
	{"~/Library/StartupItems", "a StartupItems folder"},
	{"/Library/StartupItems", "a StartupItems folder"},
	// Shell start-up files.
	{"~/.zshrc", "a shell start-up file"},
	{"~/.zshenv", "a shell start-up file"},
	{"~/.zprofile", "a shell start-up file"},
	{"~/.zlogin", "a shell start-up file"},
	{"~/.zlogout", "a shell start-up file"},
	{"~/.bashrc", "a shell start-up file"},
	{"~/.bash_profile", "a shell start-up file"},
	{"~/.bash_login", "a shell start-up file"},
	{"~/.bash_logout", "a shell start-up file"},
	{"~/.profile", "a shell start-up file"},
	{"~/.kshrc", "a shell start-up file"},
	{"~/.cshrc", "a shell start-up file"},
	{"~/.tcshrc", "a shell start-up file"},
	{"~/.login", "a shell start-up file"},
	{"~/.config/fish/config.fish", "a shell start-up file"},
	{"~/.config/fish/conf.d", "a shell start-up folder"},
	// Login items.
	{"~/Library/Application Support/com.apple.backgroundtaskmanagementagent", "the login-items database"},
	{"~/Library/Preferences/com.apple.loginitems.plist", "the login-items list"},
	{"~/Library/Preferences/com.apple.loginwindow.plist", "the login-window settings (login hooks)"},
	// cron and at.
	{"/usr/lib/cron", "the cron and at spool"},
	{"/var/at", "the cron and at spool"},
	{"/etc/crontab", "the system crontab"},
	// Folder Actions.
	{"~/Library/Scripts/Folder Action Scripts", "a Folder Actions folder"},
	{"~/Library/Workflows/Applications/Folder Actions", "a Folder Actions folder"},
	// Other start-up hooks.
	{"~/.ssh/rc", "an SSH login script"},
	{"~/.config/autostart", "an autostart folder"},
	{"~/.config/systemd/user", "a systemd user-unit folder"},
	{"**/*.git/hooks", "a git hooks folder"},
	{"~/.gitconfig", "the git configuration, whose aliases, hooks and fsmonitor run code"},
	{"~/.vimrc", "an editor start-up file"},
	{"~/.emacs", "an editor start-up file"},
	{"~/.emacs.d/init.el", "an editor start-up file"},

	// What a reviewer adds: the same hooks by other names.
	{"**/*.git/config", "a repository's git configuration, whose hooksPath and fsmonitor run code"},
	{"**/.git", "a repository's .git folder, where hooks and configuration run code"},
	{"~/.config/git/config", "the git configuration, whose aliases, hooks and fsmonitor run code"},
	{"~/.config/fish/functions", "fish functions (which can shadow any command)"},
	{"~/.oh-my-zsh", "oh-my-zsh (sourced by every zsh)"},
	{"~/.gvimrc", "an editor start-up file"},
	{"~/.emacs.el", "an editor start-up file"},
	{"~/.config/nvim/init.vim", "an editor start-up file"},
	{"~/.config/nvim/init.lua", "an editor start-up file"},
	{"~/Library/Application Support/com.apple.sharedfilelist", "the login-items list (older macOS)"},
	{"/etc/periodic", "the periodic jobs folder"},
	{"/Library/Preferences/com.apple.loginwindow.plist", "the login-window settings (login hooks)"},

	// Start-up files of other programs, and the system-wide ones (these
	// lie in a system folder too, which Classify reports first).
	{"~/.tmux.conf", "tmux's start-up file (it can run commands)"},
	{"~/.config/tmux/tmux.conf", "tmux's start-up file (it can run commands)"},
	{"**/site-packages/*.pth", "a Python path file (its import lines run at every Python start)"},
	{"**/dist-packages/*.pth", "a Python path file (its import lines run at every Python start)"},
	{"~/Library/Application Support/iTerm2/Scripts/AutoLaunch", "iTerm2's auto-launch scripts folder"},
	{"~/.hammerspoon", "Hammerspoon's configuration (Lua run at login)"},
	{"~/.lldbinit", "a debugger start-up file"},
	{"~/.gdbinit", "a debugger start-up file"},
	{"/etc/zshrc", "a system-wide shell start-up file"},
	{"/etc/zprofile", "a system-wide shell start-up file"},
	{"/etc/zshenv", "a system-wide shell start-up file"},
	{"/etc/zlogin", "a system-wide shell start-up file"},
	{"/etc/profile", "a system-wide shell start-up file"},
	{"/etc/bashrc", "a system-wide shell start-up file"},
	{"/etc/sudoers", "the sudo rules"},
	{"/etc/sudoers.d", "the sudo rules"},
	{"/etc/pam.d", "the login authentication modules (PAM)"},
	{"/etc/zlogout", "a system-wide shell start-up file"},
	{"/etc/zshrc_Apple_Terminal", "a system-wide shell start-up file"},
	{"/etc/bashrc_Apple_Terminal", "a system-wide shell start-up file"},
	{"/etc/launchd.conf", "launchd's start-up commands"},
	{"/etc/rc.common", "a start-up script"},
	{"/etc/ssh/sshrc", "an SSH login script"},
	{"/etc/paths", "the system command search path"},
	{"/etc/paths.d", "the system command search path"},
	{"/etc/emond.d", "the event monitor's rules"},
	{"/Library/Scripts/Folder Action Scripts", "a Folder Actions folder"},
	// Project files that tools run by themselves (on cd, commit, import,
	// folder open, install), wherever the project lives.
	{"**/.envrc", "a direnv file (run on entering the folder)"},
	{"**/.husky", "git hooks run by husky"},
	{"**/.githooks", "a git hooks folder"},
	{"**/sitecustomize.py", "a Python start-up module (run at every Python start)"},
	{"**/usercustomize.py", "a Python start-up module (run at every Python start)"},
	{"**/bin/activate", "a virtualenv activation script (sourced by the shell)"},
	{"**/.vscode/tasks.json", "editor tasks, which can run on folder open"},
	{"**/.npmrc", "npm settings (script-shell, registry)"},
	{"**/.yarnrc.yml", "yarn settings"},
	{"**/.pre-commit-config.yaml", "pre-commit hooks"},

	// Where an action run unasked plants code the person runs later: a
	// change there is held for the person's yes (package execute reviews
	// what such an action changed), and writing there by name is rated
	// like any persistence. Inside a folder listed here, every entry counts.
	{"**/*.git/info", "a bare repository's info folder, whose attributes choose the filters and drivers git runs"},
	{"**/.gitattributes", "git attributes, which choose the filters and diff and merge drivers git runs"},
	{"**/.gitmodules", "git submodules, whose URLs and update commands git follows on update"},
	{"**/.vscode/launch.json", "editor debug configurations, which run programs"},
	{"**/.vscode/settings.json", "editor folder settings, which name interpreters, shells and tools the editor runs"},
	{"**/*.code-workspace", "an editor workspace, whose settings and tasks run programs"},
	{"**/.idea/runConfigurations", "IDE run configurations, which run programs"},
	{"**/.idea/workspace.xml", "IDE workspace settings, which hold run configurations"},
	{"**/.devcontainer", "a dev container definition, whose lifecycle commands run on opening the folder"},
	{"**/.devcontainer.json", "a dev container definition, whose lifecycle commands run on opening the folder"},
	{"**/lefthook.yml", "lefthook's git hooks"},
	{"**/.lefthook.yml", "lefthook's git hooks"},
	{"**/.exrc", "a project editor start-up file (vi and Vim read it with exrc set)"},
	// A red team's finds: package managers' settings and the code they
	// run at every command in the folder, beside .npmrc and .yarnrc.yml.
	{"**/.yarnrc", "yarn 1's settings (yarn-path runs a program at every yarn command)"},
	{"**/.yarn/releases", "the yarn that .yarnrc.yml's yarnPath runs at every yarn command"},
	{"**/.yarn/plugins", "yarn plugins, loaded at every yarn command"},
	{"**/.pnpmfile.cjs", "pnpm's hooks, run at every install"},
	{"**/pip.conf", "pip's settings (the index packages, and the code they run, come from)"},
	{"**/.cargo/config.toml", "Cargo's settings (rustc-wrapper and runners run at every build, an editor's included)"},
	{"**/.cargo/config", "Cargo's settings (rustc-wrapper and runners run at every build, an editor's included)"},
	{"**/.nvim.lua", "a project editor start-up file (Neovim reads it with exrc set)"},
	{"**/.nvimrc", "a project editor start-up file (Neovim reads it with exrc set)"},
	// The command search path's own folders: a program put there runs
	// whenever the person types its name, and one named like a command
	// (ls, git, python3) runs instead of it. ~/bin is not here: Seatbelt
	// matches a home's entry in any folder, and bin/ is a build's output
	// in many projects (the shell analyzer rates ~/bin itself).
	{"~/.local/bin", "a folder on the command search path (what is put there runs when its name is typed, in place of a command of that name)"},
	{"/usr/local/bin", "a folder on the command search path (what is put there runs when its name is typed, in place of a command of that name)"},
	{"/usr/local/sbin", "a folder on the command search path (what is put there runs when its name is typed, in place of a command of that name)"},
	{"/opt/homebrew/bin", "a folder on the command search path (what is put there runs when its name is typed, in place of a command of that name)"},
	{"/opt/homebrew/sbin", "a folder on the command search path (what is put there runs when its name is typed, in place of a command of that name)"},
	{"/opt/local/bin", "a folder on the command search path (what is put there runs when its name is typed, in place of a command of that name)"},
	{"~/.local/share/applications", "a desktop-entry folder (its entries are the menu's and file handlers' commands)"},
	{"~/.local/share/systemd/user", "a systemd user-unit folder"},
	{"~/.config/environment.d", "the session's environment (PATH and preloads for every program)"},
	{"~/.config/plasma-workspace/env", "KDE's login scripts folder"},
	{"~/.config/plasma-workspace/shutdown", "KDE's logout scripts folder"},
	{"~/.xprofile", "an X session start-up script"},
	{"~/.xinitrc", "an X session start-up script"},
	{"~/.xsession", "an X session start-up script"},
	{"~/.xsessionrc", "an X session start-up script"},
	{"~/.bash_aliases", "a shell start-up file (sourced by the usual .bashrc)"},
	{"~/Library/Application Support/xbar/plugins", "xbar's plugin folder (each plugin runs on a timer)"},
	{"~/.swiftbar", "a SwiftBar plugin folder as people usually name it (SwiftBar has no default: it asks at first launch)"},
	// Interpreters' start-up files (the analyzer's inline-code reader
	// names them; each runs its code at every start of the interpreter).
	{"~/.Rprofile", "R's start-up file (run at every R start)"},
	{"**/.Rprofile", "a project's R start-up file (run when R starts in that folder)"},
	{"~/.Renviron", "R's start-up environment (R_PROFILE and the like)"},
	{"~/.irbrc", "irb's start-up file (Ruby run at every irb start)"},
	{"~/.pryrc", "pry's start-up file (Ruby run at every pry start)"},
	{"~/.tclshrc", "tclsh's start-up file (Tcl run at every interactive tclsh)"},
	{"~/.wishrc", "wish's start-up file (Tcl run at every interactive wish)"},
	// A third red team's finds: other version control systems' settings
	// (run at every command, and shell prompts run one on entering the
	// folder), other tools' project settings that run commands, and code
	// the person runs without reading it: compiled modules that run
	// instead of their source, and the packages a project installed.
	{"**/.hg/hgrc", "a Mercurial repository's settings, whose hooks and extensions run at every hg command"},
	{"**/.hg/hgrc-not-shared", "a Mercurial repository's settings, whose hooks and extensions run at every hg command"},
	{"~/.hgrc", "Mercurial's settings, whose hooks and extensions run at every hg command"},
	{"~/.config/hg", "Mercurial's settings, whose hooks and extensions run at every hg command"},
	{"**/.jj/repo/config.toml", "a Jujutsu repository's settings, whose pager, editor and aliases run at every jj command"},
	{"~/.jjconfig.toml", "Jujutsu's settings, whose pager, editor and aliases run at every jj command"},
	{"~/.config/jj", "Jujutsu's settings, whose pager, editor and aliases run at every jj command"},
	{"**/bunfig.toml", "bun's settings, whose preload scripts run at every bun run and test"},
	{"~/.bunfig.toml", "bun's settings, whose preload scripts run at every bun run and test"},
	{"**/.claude/settings.json", "Claude Code's project settings, whose hooks run commands"},
	{"**/.claude/settings.local.json", "Claude Code's project settings, whose hooks run commands"},
	{"**/.mcp.json", "a project's MCP servers, commands an agent starts in the folder"},
	{"**/__pycache__", "Python's compiled modules, run instead of the source beside them when their header matches it"},
	{"**/*.pyc", "a compiled Python module, run by an import of its name"},
	{"**/site-packages", "installed Python packages, run at every import and read by nobody"},
	{"**/dist-packages", "installed Python packages, run at every import and read by nobody"},
	{"**/node_modules", "installed Node.js packages, run at every start of the project and read by nobody"},
	// A fourth red team's finds (TestRedNextPlants): the next members of
	// the same classes. A virtual environment's other activation scripts
	// and its settings, other linters' and type checkers' hooks (editors
	// run them on opening a file), installed packages by other layouts,
	// toolchain and version managers whose pins name programs, other
	// agents' and editors' project settings that start commands, build
	// tool wrappers (run at every build and by the IDE's import), and
	// start-up files read from the folder a REPL starts in.
	{"**/bin/activate.fish", "a virtualenv activation script (sourced by fish)"},
	{"**/bin/activate.csh", "a virtualenv activation script (sourced by csh)"},
	{"**/bin/activate.nu", "a virtualenv activation script (sourced by nushell)"},
	{"**/bin/activate.ps1", "a virtualenv activation script (run by PowerShell)"},
	{"**/bin/activate_this.py", "a virtualenv activation module (run by the tools that activate it)"},
	{"**/pyvenv.cfg", "a virtual environment's settings, whose home says where its Python takes the standard library it runs at every start"},
	{"**/.pylintrc", "pylint's settings, whose init-hook is Python run at every lint (editors lint on opening a file)"},
	{"**/pylintrc", "pylint's settings, whose init-hook is Python run at every lint (editors lint on opening a file)"},
	{"**/mypy.ini", "mypy's settings, whose plugins are Python files run at every check (editors check on opening a file)"},
	{"**/.mypy.ini", "mypy's settings, whose plugins are Python files run at every check (editors check on opening a file)"},
	{"**/__pypackages__", "installed Python packages (PEP 582, pdm), run at every import and read by nobody"},
	{"**/.pnp.cjs", "Yarn Plug'n'Play's loader, run at every yarn run and by the editor's SDKs"},
	{"**/.pnp.loader.mjs", "Yarn Plug'n'Play's loader, run at every yarn run and by the editor's SDKs"},
	{"**/rust-toolchain.toml", "Rust's toolchain pin, whose path names the cargo and rustc every build (and the editor's rust-analyzer) runs"},
	{"**/rust-toolchain", "Rust's toolchain pin, whose path names the cargo and rustc every build (and the editor's rust-analyzer) runs"},
	{"**/mise.toml", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/.mise.toml", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/mise.local.toml", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/.mise.local.toml", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/.mise/config.toml", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/mise/config.toml", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/.config/mise", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/.config/mise.toml", "mise's settings, whose hooks run on entering the folder and whose tools and env run at every command"},
	{"**/.tool-versions", "asdf's and mise's version pins, whose path: versions name the program every shimmed command runs"},
	{"**/.vscode/mcp.json", "VS Code's MCP servers, commands its agent starts in the folder"},
	{"**/.cursor/mcp.json", "Cursor's MCP servers, commands its agent starts in the folder"},
	{"**/.cursor/hooks.json", "Cursor's hooks, commands run at its agent's every step"},
	{"**/.gemini/settings.json", "Gemini CLI's project settings, whose MCP servers and hooks run commands"},
	{"**/.codex/config.toml", "Codex's project settings, whose MCP servers and notify run commands"},
	{"**/.amazonq/mcp.json", "Amazon Q's MCP servers, commands its agent starts in the folder"},
	{"**/.roo/mcp.json", "Roo Code's MCP servers, commands its agent starts in the folder"},
	{"**/.kiro/settings/mcp.json", "Kiro's MCP servers, commands its agent starts in the folder"},
	{"**/.kiro/hooks", "Kiro's hooks, commands run on file events"},
	{"**/.claude/hooks", "the scripts Claude Code's hooks run, by the folder its documentation names"},
	{"**/.zed/settings.json", "Zed's folder settings, which name the language servers and shells it runs on opening a file"},
	{"**/.helix/languages.toml", "Helix's folder language settings, which name the language servers it runs on opening a file"},
	{"**/gradle/wrapper", "the Gradle wrapper's jar and settings: the Gradle every ./gradlew and the IDE's import download and run"},
	{"**/.mvn", "Maven's wrapper, JVM options and extensions, run at every mvn and mvnw and by the IDE's import"},
	{"**/renv/activate.R", "renv's activation script, sourced by the project's .Rprofile at every R start in the folder"},
	{"**/.irbrc", "irb's start-up file (Ruby run at every irb start in that folder)"},
	{"**/irb.rc", "irb's start-up file (Ruby run at every irb start in that folder)"},
	{"**/_irbrc", "irb's start-up file (Ruby run at every irb start in that folder)"},
	{"**/.pryrc", "pry's start-up file (Ruby run at every pry start in that folder)"},
	// A sixth red team's finds (TestRed4PlantsReplStartup,
	// TestRed4PlantsOtherAgents): the other REPLs and debuggers that run
	// a start-up file from the folder they start in, and the other coding
	// agents' project settings and plugins that start commands when the
	// agent starts in the folder.
	{"**/.pdbrc", "Python's debugger start-up file (Python run at every pdb and breakpoint() started in that folder)"},
	{"**/.ghci", "GHCi's start-up file (its :! runs a shell command at every ghci start in that folder)"},
	{"**/.iex.exs", "IEx's start-up file (Elixir run at every iex start in that folder)"},
	{"**/.ocamlinit", "the OCaml toplevel's start-up file (OCaml run at every ocaml and utop start in that folder)"},
	{"**/.octaverc", "Octave's start-up file (run at every Octave start in that folder)"},
	{"**/.perldb", "Perl's debugger start-up file (Perl run at every perl -d started in that folder)"},
	{"**/opencode.json", "opencode's project settings, whose MCP servers and formatters run commands"},
	{"**/opencode.jsonc", "opencode's project settings, whose MCP servers and formatters run commands"},
	{"**/.opencode", "opencode's project folder, whose plugins and tools are code run at every start"},
	{"**/.aider.conf.yml", "aider's settings, whose lint and test commands run after every edit"},
	{"**/crush.json", "Crush's project settings, whose MCP and language servers are commands it starts"},
	{"**/.crush.json", "Crush's project settings, whose MCP and language servers are commands it starts"},
	{"**/.continue/mcpServers", "Continue's MCP servers, commands its agent starts in the folder"},
	{"**/.junie/mcp", "Junie's MCP servers, commands its agent starts in the folder"},
	{"**/.kilocode/mcp.json", "Kilo Code's MCP servers, commands its agent starts in the folder"},
	{"**/.qwen/settings.json", "Qwen Code's project settings, whose MCP servers and hooks run commands"},
	// The same team's (TestRedNextHookRunners): the git hook runners'
	// other configurations, beside .husky, lefthook.yml and pre-commit's
	// (each runs its commands at the person's next commit), other
	// package indexes than pip.conf's, the JVM options and tool versions
	// build tools read from the folder, and a JetBrains IDE's folder whole
	// (its run configurations, interpreters and linters run on opening).
	{"**/lefthook.yaml", "lefthook's git hooks"},
	{"**/.lefthook.yaml", "lefthook's git hooks"},
	{"**/lefthook.toml", "lefthook's git hooks"},
	{"**/.lefthook.toml", "lefthook's git hooks"},
	{"**/lefthook.json", "lefthook's git hooks"},
	{"**/.lefthook.json", "lefthook's git hooks"},
	{"**/lefthook-local.yml", "lefthook's local git hooks"},
	{"**/.lefthook-local.yml", "lefthook's local git hooks"},
	{"**/lefthook-local.yaml", "lefthook's local git hooks"},
	{"**/.lefthook-local.yaml", "lefthook's local git hooks"},
	{"**/.config/lefthook.yml", "lefthook's git hooks"},
	{"**/.config/lefthook.yaml", "lefthook's git hooks"},
	{"**/.huskyrc", "husky 4's git hooks"},
	{"**/.huskyrc.json", "husky 4's git hooks"},
	{"**/.huskyrc.js", "husky 4's git hooks"},
	{"**/husky.config.js", "husky 4's git hooks"},
	{"**/.lintstagedrc", "lint-staged's commands, run by the pre-commit hook"},
	{"**/.lintstagedrc.json", "lint-staged's commands, run by the pre-commit hook"},
	{"**/.lintstagedrc.yaml", "lint-staged's commands, run by the pre-commit hook"},
	{"**/.lintstagedrc.yml", "lint-staged's commands, run by the pre-commit hook"},
	{"**/.lintstagedrc.js", "lint-staged's commands, run by the pre-commit hook"},
	{"**/.lintstagedrc.cjs", "lint-staged's commands, run by the pre-commit hook"},
	{"**/.lintstagedrc.mjs", "lint-staged's commands, run by the pre-commit hook"},
	{"**/lint-staged.config.js", "lint-staged's commands, run by the pre-commit hook"},
	{"**/lint-staged.config.cjs", "lint-staged's commands, run by the pre-commit hook"},
	{"**/lint-staged.config.mjs", "lint-staged's commands, run by the pre-commit hook"},
	{"**/commitlint.config.js", "commitlint's configuration, JavaScript run by the commit-msg hook"},
	{"**/commitlint.config.cjs", "commitlint's configuration, JavaScript run by the commit-msg hook"},
	{"**/commitlint.config.mjs", "commitlint's configuration, JavaScript run by the commit-msg hook"},
	{"**/commitlint.config.ts", "commitlint's configuration, JavaScript run by the commit-msg hook"},
	{"**/.commitlintrc.js", "commitlint's configuration, JavaScript run by the commit-msg hook"},
	{"**/.commitlintrc.cjs", "commitlint's configuration, JavaScript run by the commit-msg hook"},
	{"**/.simple-git-hooks.json", "simple-git-hooks' git hooks, installed at every npm install"},
	{"**/.simple-git-hooks.js", "simple-git-hooks' git hooks, installed at every npm install"},
	{"**/.simple-git-hooks.cjs", "simple-git-hooks' git hooks, installed at every npm install"},
	{"**/simple-git-hooks.json", "simple-git-hooks' git hooks, installed at every npm install"},
	{"**/simple-git-hooks.js", "simple-git-hooks' git hooks, installed at every npm install"},
	{"**/simple-git-hooks.cjs", "simple-git-hooks' git hooks, installed at every npm install"},
	{"**/.overcommit.yml", "overcommit's git hooks"},
	{"**/uv.toml", "uv's settings (the index packages, and the code they run, come from)"},
	{"**/.bundle/config", "Bundler's settings (the mirror gems, and the code they run, come from)"},
	{"**/.jvmopts", "the JVM options sbt starts with in the folder (-javaagent runs code)"},
	{"**/.sbtopts", "the options sbt starts with in the folder (-javaagent runs code)"},
	{"**/.idea", "a JetBrains IDE's project settings: run configurations, interpreters and linters it runs on opening"},
	{"**/.bazeliskrc", "bazelisk's settings (where the Bazel it runs at every build is downloaded from)"},
	{"**/.bazelrc", "Bazel's options, whose workspace status command and wrappers run at every build"},
	// A thirteenth red team's finds (TestRed12BuildSettingsFromParents):
	// what a build tool takes from the project's folder and every folder
	// above it, so that one file in ~/Documents reaches every project
	// below. MSBuild imports Directory.Build.props and .targets, whose Exec
	// tasks run at every build and at the design-time builds editors run
	// when they open the folder, and reads Directory.Build.rsp, whose
	// -logger loads an assembly; NuGet takes the sources packages (and the
	// build code they carry) come from from NuGet.Config; go.work's
	// replace directives put other code in every build and test; Bazelisk
	// downloads and runs the Bazel .bazelversion names, a fork's included.
	{"**/Directory.Build.props", "MSBuild's settings for every project below (its targets run at every build, and when an editor opens the folder)"},
	{"**/Directory.Build.targets", "MSBuild's targets for every project below (they run at every build, and when an editor opens the folder)"},
	{"**/Directory.Build.rsp", "MSBuild's options for every project below (a -logger loads an assembly at every build)"},
	{"**/NuGet.Config", "NuGet's settings for every project below (the sources packages, and the build code they carry, come from)"},
	{"**/nuget.config", "NuGet's settings for every project below (the sources packages, and the build code they carry, come from)"},
	{"**/go.work", "Go's workspace for every module below (its replace directives put other code in every build and test)"},
	{"**/.bazelversion", "the Bazel Bazelisk downloads and runs at every build (a fork's release, by its name)"},
	// The home's files that run a program by themselves, beside autostart:
	// what the file manager runs to show a file, what an open of a type
	// or scheme starts, and window managers' and the session's start-up.
	{"~/.local/share/thumbnailers", "thumbnailers, whose commands run whenever a file manager shows a file of their type"},
	{"~/.local/share/nautilus-python", "Files' Python extensions, loaded at every start of the file manager"},
	{"~/.config/mimeapps.list", "the default apps for each file type and URL scheme: which program every open starts"},
	{"~/.local/share/applications/mimeapps.list", "the default apps for each file type and URL scheme: which program every open starts"},
	{"~/.local/share/mime", "the file types the desktop knows, which decide which app an open starts"},
	{"~/.config/i3/config", "i3's configuration, whose exec lines run at every login"},
	{"~/.config/sway/config", "sway's configuration, whose exec lines run at every login"},
	{"~/.config/hypr/hyprland.conf", "Hyprland's configuration, whose exec lines run at every login"},
	{"~/.config/openbox/autostart", "Openbox's start-up script, run at every login"},
	{"~/.config/lxsession", "LXDE's session settings, whose autostart runs at every login"},
	{"~/.pam_environment", "the session's environment, read at login (PATH, LD_PRELOAD for every program)"},
	// The evasion red team's second round (testdata/evasion2-plants.jsonl
	// in risk): the home's files that make a later terminal, REPL, editor,
	// prompt or key press run commands, and those that send a tool's later
	// downloads or uploads elsewhere.
	{"~/.inputrc", "readline's key bindings, whose macros type commands into every later shell"},
	{"~/.curlrc", "curl's default options for every later run (files it uploads, where it writes, other config files)"},
	{"~/.config/curlrc", "curl's default options for every later run (files it uploads, where it writes, other config files)"},
	{"~/.wgetrc", "wget's default options for every later run (files it posts, where it writes)"},
	{"~/.psqlrc", "psql's start-up file (its \\! runs a shell command at every psql start)"},
	{"~/.sqliterc", "sqlite3's start-up file (its .shell and .system run commands at every sqlite3 start)"},
	{"~/.mailcap", "the commands mail readers and pagers run to show each type"},
	{"~/.lesskey", "less's keys and environment (its LESSOPEN runs a command for every file less shows)"},
	{"~/.config/lesskey", "less's keys and environment (its LESSOPEN runs a command for every file less shows)"},
	{"~/.condarc", "conda's settings (the channels packages, and the code they run, come from)"},
	{"~/.gemrc", "RubyGems' settings (the sources gems, and the code they run, come from)"},
	{"~/.config/direnv", "direnv's own library and settings, run at every direnv load"},
	{"~/.config/starship.toml", "starship's prompt, whose custom modules run commands at every prompt"},
	{"~/.config/alacritty", "Alacritty's settings: the shell it starts and its hints' commands"},
	{"~/.alacritty.toml", "Alacritty's settings: the shell it starts and its hints' commands"},
	{"~/.config/kitty", "kitty's settings: the shell it starts, its start-up session and launch actions"},
	{"~/.wezterm.lua", "WezTerm's configuration, Lua run at every start"},
	{"~/.config/wezterm", "WezTerm's configuration, Lua run at every start"},
	{"~/.config/karabiner", "Karabiner-Elements' rules, whose shell_command runs at a key press"},
	{"~/Library/Services", "Quick Actions, workflows run from every app's Services menu"},
	{"~/Library/Preferences/com.apple.Terminal.plist", "Terminal's profiles, whose start-up command runs in every new window"},
	{"~/Library/Preferences/com.googlecode.iterm2.plist", "iTerm2's profiles, whose start-up command runs in every new session"},
	{"~/Library/Application Support/Code/User", "VS Code's settings and tasks: the shells, interpreters and tasks it runs"},
	{"~/Library/Application Support/Cursor/User", "Cursor's settings and tasks: the shells, interpreters and tasks it runs"},
	{"~/Library/Application Support/VSCodium/User", "VSCodium's settings and tasks: the shells, interpreters and tasks it runs"},
	{"~/.config/zed", "Zed's settings and tasks: the shells, language servers and tasks it runs"},
	{"~/Library/Application Support/Sublime Text/Packages", "Sublime Text's packages, Python loaded at every start"},
	{"~/Library/Application Support/Sublime Text 3/Packages", "Sublime Text's packages, Python loaded at every start"},
	{"~/.atom", "Atom's init script and packages, run at every start"},
	// A seventh red team's finds (TestRed6ShellRunsOnItsOwn): what the
	// shells run from the home beside their start-up files. bash-completion
	// sources ~/.bash_completion at every start and a command's file of
	// its user folder at its first completion; zsh's compinit sources its
	// dump (.zcompdump, or oh-my-zsh's .zcompdump-HOST-VERSION) at every
	// start, and zsh runs a file's compiled twin (NAME.zwc) instead of it
	// when that is newer; fish runs a command's completions file at its
	// first completion.
	{"~/.bash_completion", "bash-completion's user file, sourced at every bash start"},
	{"~/.local/share/bash-completion", "bash-completion's user completions, each sourced at its command's first completion"},
	{"~/.zcompdump*", "zsh's completion dump, sourced by compinit at every zsh start"},
	{"**/*.zwc", "compiled zsh code, run instead of the file it is named after when it is newer"},
	{"~/.config/fish/completions", "fish's completions, each run at its command's first completion"},
	// The eighth round's finds: editors' and tools' whole configuration
	// folders where only the one start-up file was listed, and plug-in and
	// start-up folders whose every file runs at the tool's start (Vim's
	// plugin/, IPython's startup/, an editor's extensions).
	{"~/.vim", "Vim's runtime folder (plugin/, ftplugin/ and pack/*/start/ run at every start)"},
	{"~/.config/nvim", "Neovim's configuration (init.lua, plugin/ and lua/ run at every start)"},
	{"~/.local/share/nvim/site", "Neovim's packages folder (pack/*/start/ runs at every start)"},
	{"~/.emacs.d", "Emacs's configuration folder (early-init.el, init.el and what they load)"},
	{"~/.config/emacs", "Emacs's configuration folder (early-init.el, init.el and what they load)"},
	{"~/.ipython", "IPython's profiles (startup/ and exec_lines run at every start)"},
	{"~/.jupyter", "Jupyter's configuration files, Python run at every start"},
	{"~/.vscode/extensions", "VS Code's extensions, whose code runs at every start"},
	{"~/.vscode-insiders/extensions", "VS Code's extensions, whose code runs at every start"},
	{"~/.cursor/extensions", "Cursor's extensions, whose code runs at every start"},
	{"~/.windsurf/extensions", "Windsurf's extensions, whose code runs at every start"},
	{"~/.vscode-oss/extensions", "VSCodium's extensions, whose code runs at every start"},
	{"~/.config/Code/User", "VS Code's settings and tasks: the shells, interpreters and tasks it runs"},
	{"~/.config/Cursor/User", "Cursor's settings and tasks: the shells, interpreters and tasks it runs"},
	{"~/.config/ghostty", "Ghostty's settings: the command it starts in every window"},
	{"~/Library/Application Support/com.mitchellh.ghostty", "Ghostty's settings: the command it starts in every window"},
	{"~/.skhdrc", "skhd's hotkeys, each a shell command"},
	{"~/.config/skhd", "skhd's hotkeys, each a shell command"},
	{"~/.yabairc", "yabai's start-up script, run at every start"},
	{"~/.config/yabai", "yabai's start-up script, run at every start"},
	{"~/.screenrc", "screen's start-up file (its commands run at every start)"},
	{"~/.p10k.zsh", "powerlevel10k's settings, sourced by the usual .zshrc"},
	{"~/.config/zsh", "zsh's start-up files where ZDOTDIR points, as people usually set it"},
	{"~/.config/ranger", "ranger's commands.py and rc.conf, run at every start"},
	// A fourteenth red team's finds (TestRed14PlantsByOtherNames,
	// TestRed14WhatAppsDoForTheScript): tool settings that start programs
	// by names the table did not list, in a project (where an unasked
	// action writes) and in the home (where the Finder or an app writes
	// for a script): pnpm's settings beside .npmrc's, another agent's
	// project settings, the IDE's build server connections, a linter that
	// loads code as pylint's init-hook does, and the start-up scripts and
	// files of build tools and shells whose every run reads them.
	{"**/pnpm-workspace.yaml", "pnpm's workspace settings, whose build approvals, node options and script shell run code at every pnpm install and run"},
	{"**/.continuerc.json", "Continue's project settings, applied over its own: MCP servers and commands its agent starts in the folder"},
	{"**/.bsp", "Build Server Protocol connection files, whose argv the IDE starts on opening the project"},
	{"**/.rubocop.yml", "RuboCop's settings, whose require loads Ruby at every check (editors check on opening a file)"},
	{"~/.config/pnpm", "pnpm's settings, whose node options and script shell run at every pnpm run"},
	{"~/Library/Preferences/pnpm", "pnpm's settings, whose node options and script shell run at every pnpm run"},
	{"~/.gradle/init.gradle", "Gradle's init script, run at every Gradle build of every project"},
	{"~/.gradle/init.gradle.kts", "Gradle's init script, run at every Gradle build of every project"},
	{"~/.gradle/init.d", "Gradle's init scripts, run at every Gradle build of every project"},
	{"~/.sbt/1.0", "sbt's global settings and plugins, Scala run at every sbt start"},
	{"~/.julia/config", "Julia's start-up file, run at every julia start"},
	{"~/.config/nushell", "nushell's configuration, run at every nu start"},
	{"~/.xonshrc", "xonsh's start-up file, run at every xonsh start"},
	{"~/.config/xonsh", "xonsh's start-up files, run at every xonsh start"},
	{"~/.config/powershell", "PowerShell's profiles, run at every pwsh start"},
}

// gitDataZone names, inside a repository's .git folder, what git keeps as
// data and never runs, which Plants leaves out of persistence: every
// commit, fetch and checkout writes there, so an action's change there is
// no planting. The rest of .git (hooks, config, info, the sequencer's todo
// lists, submodules' and worktrees' own folders) still is.
var gitDataZone = []entry{
	{"objects", "git's object store: content addressed by its hash"},
	{"refs", "git's branches and tags: names of commits"},
	{"logs", "git's reflogs: where the refs pointed"},
	{"index", "git's staging area: the next commit's file list"},
	{"HEAD", "the current branch"},
	{"ORIG_HEAD", "the commit before a reset or merge"},
	{"FETCH_HEAD", "what the last fetch brought"},
	{"COMMIT_EDITMSG", "the last commit message"},
	{"packed-refs", "git's branches and tags, packed"},
	{"reftable", "git's branches and tags, in the reftable format"},
}

// otherHomes are the homes besides the configured one whose credential
// stores Classify recognises ("*" is any one element). The home's own
// siblings are added by NewConfig.
var otherHomes = []string{"/Users/*", "/home/*", "/var/root", "/root"}

// defaultRoots are the sandbox roots when NewConfig is given none.
var defaultRoots = []string{"~/Documents", "~/Downloads", "~/Desktop"}
