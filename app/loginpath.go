package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/airlockhq/airlock/bridge"
)

// The login shell's PATH. A .app started from Finder (or by launchd at
// login) gets launchd's minimal PATH, /usr/bin:/bin:/usr/sbin:/sbin, so the
// commands the gate runs with no caller's PATH (the menu's, the
// automations', an MCP client that passes none) would find no Homebrew,
// pyenv or nvm tool. So the app asks the person's login shell, once at
// start, what PATH it sets, and puts it first. The shell is the person's:
// it runs their start-up files, with no terminal and no input, and is
// killed when the time is out. What it prints is only read, as data.

// loginPathTimeout bounds the login shell: a start-up file that waits
// (a prompt, a slow network mount) must not hold up the app.
const loginPathTimeout = 3 * time.Second

// maxLoginPath bounds the PATH taken from the shell, in bytes.
const maxLoginPath = 32 << 10

// loginPathMarker brackets the PATH in what the shell prints, so that what
// its start-up files print around it is left aside.
const loginPathMarker = "__AIRLOCK_LOGIN_PATH__"

// defaultShell is the shell asked when $SHELL names none: macOS's.
const defaultShell = "/bin/zsh"

// loginShellArgv is the command that prints the login shell's PATH. The
// script is the same in sh, bash, zsh and fish (where a quoted "$PATH"
// joins with colons).
func loginShellArgv(shell string) ([]string, error) {
	if shell == "" {
		shell = defaultShell
	}
	if !filepath.IsAbs(shell) || strings.ContainsAny(shell, "\x00\n") {
		return nil, fmt.Errorf("$SHELL is %q: not an absolute path", shell)
	}
	script := fmt.Sprintf(`printf '%%s%%s%%s\n' %s "$PATH" %s`, loginPathMarker, loginPathMarker)
	return []string{shell, "-l", "-c", script}, nil
}

// parseLoginPath reads the PATH between the markers in what the shell
// printed: absolute entries only, each once, in order.
func parseLoginPath(out string) ([]string, error) {
	i := strings.Index(out, loginPathMarker)
	if i < 0 {
		return nil, errors.New("the shell did not print its PATH")
	}
	rest := out[i+len(loginPathMarker):]
	j := strings.Index(rest, loginPathMarker)
	if j < 0 {
		return nil, errors.New("the shell's PATH was cut short")
	}
	raw := rest[:j]
	if len(raw) > maxLoginPath {
		return nil, fmt.Errorf("the shell's PATH is %d bytes: at most %d", len(raw), maxLoginPath)
	}
	var dirs []string
	for _, d := range strings.Split(raw, ":") {
		if d == "" || !filepath.IsAbs(d) || strings.ContainsAny(d, "\x00\n\r") || slices.Contains(dirs, filepath.Clean(d)) {
			continue // a relative entry would name a folder wherever a command runs
		}
		dirs = append(dirs, filepath.Clean(d))
	}
	if len(dirs) == 0 {
		return nil, errors.New("the shell's PATH has no absolute folder")
	}
	return dirs, nil
}

// mergePath puts the login shell's folders first, then those of the PATH
// the app was started with that it lacks.
func mergePath(login []string, current string) string {
	out := slices.Clone(login)
	for _, d := range strings.Split(current, ":") {
		if d != "" && filepath.IsAbs(d) && !slices.Contains(out, filepath.Clean(d)) {
			out = append(out, filepath.Clean(d))
		}
	}
	return strings.Join(out, ":")
}

// loginShellPath asks the login shell named by shell ($SHELL) for its PATH
// and returns it merged with current, or an error saying why it could not
// (the caller keeps current then).
func loginShellPath(ctx context.Context, shell, current string) (string, error) {
	argv, err := loginShellArgv(shell)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, loginPathTimeout)
	defer cancel()
	out, _, err := bridge.RunArgv(ctx, bridge.Command{Argv: argv, NewSession: true, MaxOutput: 4 * maxLoginPath})
	if err != nil {
		return "", fmt.Errorf("%s -l: %w", argv[0], err)
	}
	login, err := parseLoginPath(out)
	if err != nil {
		return "", fmt.Errorf("%s -l: %w", argv[0], err)
	}
	return mergePath(login, current), nil
}
