package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The checks only a Mac has. They are built (and tested as built) on every
// platform, and run on a Mac.

// macProbes are the keychain, Apple events, Launch Services, the script
// profile, and the rules an unasked action meets in a root (on a root of the
// doctor's own: they try to remove and rewrite files).
func (e *doctorEnv) macProbes(ctx context.Context) ([]probe, error) {
	ps := []probe{e.keychain(ctx), e.appleEvents(), e.launchServices(), e.jxaRuns(), e.jxaLaunches()}
	root := filepath.Join(e.work, "root")
	unasked, err := unaskedProbes(root)
	if err != nil {
		return nil, err
	}
	return append(ps, unasked...), nil
}

// keychainCheck asks securityd about the default keychain: it answers only
// a process that reaches it, and asks the person nothing.
var keychainCheck = []string{"/usr/bin/security", "show-keychain-info"}

// keychain: an unasked command with the web granted (the most an unasked
// action gets) asks the keychain daemon about the login keychain.
func (e *doctorEnv) keychain(ctx context.Context) probe {
	p := probe{check: "the keychain daemon is unreachable unless the person grants the host's network", kind: KindCommand,
		grant: Grant{Network: NetInternet}, argv: keychainCheck}
	if !e.runs(ctx, keychainCheck) {
		p.skip = "the keychain does not answer here even outside the sandbox"
	}
	p.judge = refusedIf(func(o outcome) string {
		if o.err == nil {
			return "securityd answered the action"
		}
		return ""
	})
	return p
}

// appleEvents: an unasked command without the UI grant sends Finder an
// Apple event. (Were it not refused, macOS might ask the person to allow
// osascript to control Finder.)
func (e *doctorEnv) appleEvents() probe {
	return probe{check: "Apple events are refused without the UI grant", kind: KindCommand,
		argv: []string{"/usr/bin/osascript", "-e", `tell application "Finder" to get name`},
		judge: refusedIf(func(o outcome) string {
			if o.err == nil {
				return "Finder answered the action"
			}
			return ""
		})}
}

// launchServices: an unasked command asks Launch Services to start an app
// (hidden, in the background: were it not refused, Calculator would start).
func (e *doctorEnv) launchServices() probe {
	return probe{check: "an unasked action cannot have Launch Services start an app", kind: KindCommand,
		argv: []string{"/usr/bin/open", "-g", "-j", "-a", "Calculator"},
		judge: refusedIf(func(o outcome) string {
			if o.err == nil {
				return "open started Calculator"
			}
			return ""
		})}
}

// jxa runs JavaScript for Automation source under the JXA profile.
func jxa(src string) []string { return []string{"/usr/bin/osascript", "-l", "JavaScript", "-e", src} }

// jxaRuns: the scripts' profile, which refuses more of the system than
// can be tried on a machine without a Mac, still runs a script.
func (e *doctorEnv) jxaRuns() probe {
	return probe{check: "an unasked JavaScript for Automation script runs", kind: KindJXA, argv: jxa(`"airlock-doctor"`),
		judge: func(o outcome) (Status, string) {
			if o.err == nil && strings.Contains(o.stdout, "airlock-doctor") {
				return Held, "it ran"
			}
			return NotHeld, "osascript could not run a script under the scripts' profile" + exitWords(o)
		}}
}

// jxaLaunches: an unasked script, which Seatbelt allows by default, has
// Launch Services start an app through a shell command.
func (e *doctorEnv) jxaLaunches() probe {
	src := `var a = Application.currentApplication(); a.includeStandardAdditions = true; a.doShellScript("/usr/bin/open -g -j -a Calculator")`
	return probe{check: "an unasked script cannot have Launch Services start an app", kind: KindJXA, argv: jxa(src),
		judge: refusedIf(func(o outcome) string {
			if o.err == nil {
				return "the script's open started Calculator"
			}
			return ""
		})}
}

// keptText is what the files of the unasked checks hold.
const keptText = "airlock-doctor: the person's file\n"

// unaskedProbes are the checks of what an unasked command may do in a
// sandbox root, made in root (a root of the doctor's own), each on a file
// of its own: remove, rewrite, rename over (from its temporary folder, the
// one rename whose source it may remove), add an executable bit, plant a
// git hook; and make a new file, which it may.
func unaskedProbes(root string) ([]probe, error) {
	if err := os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o700); err != nil {
		return nil, fmt.Errorf("making the doctor's root: %w", err)
	}
	kept := func(name string) (string, error) {
		p := filepath.Join(root, name)
		return p, os.WriteFile(p, []byte(keptText), 0o600)
	}
	intact := func(path string, what string) func(outcome) string {
		return func(outcome) string {
			b, err := os.ReadFile(path)
			fi, serr := os.Stat(path)
			switch {
			case err != nil:
				return "the action " + what + " " + path + " (" + err.Error() + ")"
			case string(b) != keptText:
				return "the action " + what + " " + path
			case serr == nil && fi.Mode().Perm() != 0o600:
				return fmt.Sprintf("the action changed the mode of %s to %v", path, fi.Mode().Perm())
			}
			return ""
		}
	}
	var ps []probe
	for _, c := range []struct {
		check, file, what string
		argv              func(path string) []string
	}{
		{"an unasked action cannot delete a file in a root", "delete.txt", "removed",
			func(p string) []string { return []string{"/bin/rm", "-f", p} }},
		{"an unasked action cannot rewrite a file in a root", "rewrite.txt", "rewrote",
			func(p string) []string { return []string{shell, "-c", `echo changed > "$1"`, "sh", p} }},
		{"an unasked action cannot rename a file over one in a root", "replace.txt", "replaced",
			func(p string) []string {
				return []string{shell, "-c", `echo changed > "$TMPDIR/new" && /bin/mv -f "$TMPDIR/new" "$1"`, "sh", p}
			}},
		{"an unasked action cannot make a file in a root executable", "chmod.txt", "changed",
			func(p string) []string { return []string{"/bin/chmod", "+x", p} }},
	} {
		path, err := kept(c.file)
		if err != nil {
			return nil, fmt.Errorf("making the doctor's root: %w", err)
		}
		ps = append(ps, probe{check: c.check, kind: KindCommand, roots: []string{root}, argv: c.argv(path),
			judge: refusedIf(intact(path, c.what))})
	}
	hook := filepath.Join(root, ".git", "hooks", "pre-commit")
	ps = append(ps, probe{check: "an unasked action cannot plant a git hook in a root", kind: KindCommand, roots: []string{root},
		argv: []string{shell, "-c", `echo 'echo planted' > "$1"`, "sh", hook},
		judge: refusedIf(func(outcome) string {
			if _, err := os.Lstat(hook); err == nil {
				return "the action wrote " + hook
			}
			return ""
		})})
	made := filepath.Join(root, "new.txt")
	ps = append(ps, probe{check: "an unasked action may make a new file in a root", kind: KindCommand, roots: []string{root},
		argv: []string{shell, "-c", `echo made > "$1"`, "sh", made},
		judge: func(o outcome) (Status, string) {
			if b, err := os.ReadFile(made); err == nil && string(b) == "made\n" {
				return Held, "it made " + made
			}
			return NotHeld, "it could not make " + made + exitWords(o)
		}})
	return ps, nil
}
