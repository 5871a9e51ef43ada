package risk

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/shell"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Runs is what an action hands control to besides its own text: the files
// a remembered approval of it must pin (policy.Grants), because a grant
// covers what runs, not only the words that start it.
type Runs struct {
	// Known says Airlock named every file the action runs: Files and
	// Optional, possibly none (the text is all that runs). The zero Runs is
	// not known: nothing can be remembered for it.
	Known bool
	// Files are the scripts and programs it runs, absolute and clean,
	// sorted: each must be a regular file.
	Files []string
	// Optional are files it reads as its program when they are there (a
	// makefile among GNUmakefile, makefile and Makefile; an .npmrc): their
	// absence is part of what was approved.
	Optional []string
	// Folders are the folders an interpreter loads code from beside a
	// script it runs (shell.Loads): their code files are part of what
	// was approved too.
	Folders []Folder
	// Why, when not Known, says why not, for the person.
	Why string
}

// Folder is a script's folder an interpreter loads code from.
type Folder = shell.Folder

func unknownRuns(format string, args ...any) Runs {
	return Runs{Why: fmt.Sprintf(format, args...)}
}

// RunFiles names the files an action of kind runs besides its text, for a
// remembered approval to pin. dir is the folder commands start in (the
// home: execute runs commands there), absolute. It is conservative: what it
// cannot name for certain is not Known.
//
//   - dsl: a plan's actions run no file but what OPEN_FILE opens (pinned);
//     RUN_SHORTCUT (the shortcut lives in the Shortcuts app) and OPEN_URL of
//     anything but a web or mail address are not Known.
//   - applescript, jxa: the source is the code. It is Known when every
//     finding at Dangerous or above is a file, mail or document effect;
//     anything that runs a shell command, a script file, a library,
//     Objective-C, a shortcut, or types and clicks is not.
//   - shell: shell.Runs says.
//
// An assessment stopped by ctx is not Known.
func RunFiles(ctx context.Context, kind Kind, text, dir string, env *Env) Runs {
	if env == nil || env.Paths == nil {
		return unknownRuns("Airlock has no home folder to resolve paths in")
	}
	switch kind {
	case KindDSL:
		return dslRuns(text, env.Paths.Home)
	case KindAppleScript, KindJXA:
		v, err := AssessContext(ctx, kind, text, env)
		if err != nil {
			return unknownRuns("the assessment was stopped")
		}
		for _, r := range v.Reasons {
			if r.Level >= level.Dangerous && !scriptEffects[r.Rule] {
				return unknownRuns("Airlock cannot name what it runs (%s)", r.Text)
			}
		}
		return Runs{Known: true}
	case KindShell:
		return shellRuns(ctx, text, nil, dir, env)
	}
	return unknownRuns("unknown kind %q", string(kind))
}

// RunFilesArgv is RunFiles for a command given as an argument vector, run
// without a shell in dir (shell.Runs says which files it names).
func RunFilesArgv(ctx context.Context, argv []string, dir string, env *Env) Runs {
	if env == nil || env.Paths == nil {
		return unknownRuns("Airlock has no home folder to resolve paths in")
	}
	if len(argv) == 0 {
		return unknownRuns("no program is named")
	}
	return shellRuns(ctx, "", argv, dir, env)
}

func shellRuns(ctx context.Context, src string, argv []string, dir string, env *Env) Runs {
	env, end := begin(env, ctx)
	set := shell.Runs(src, argv, dir, env)
	var v Verdict
	if err := end(&v); err != nil {
		return unknownRuns("the assessment was stopped")
	}
	if set.Why != "" {
		return Runs{Why: set.Why}
	}
	return Runs{Known: true, Files: set.Files, Optional: set.Optional, Folders: set.Folders}
}

// scriptEffects are the AppleScript and JXA findings at Dangerous that
// change files, documents or mail and run no code.
var scriptEffects = map[string]bool{
	"as.write": true, "as.make-file": true, "as.save": true, "as.delete": true, "as.trash": true, "as.move": true,
	"as.duplicate": true, "as.export": true, "egress.as.send": true,
	"jxa.write": true, "jxa.save": true, "jxa.delete": true, "jxa.trash": true, "jxa.move": true, "jxa.duplicate": true,
	"jxa.make": true, "egress.jxa.send": true,
}

// dslRuns names the files a plan's actions open.
func dslRuns(text, home string) Runs {
	p, err := action.Parse(text)
	if err != nil {
		return unknownRuns("the plan does not parse")
	}
	var files []string
	for _, a := range p.Actions {
		switch a.Cmd.Name {
		case "OPEN_FILE":
			raw, _ := a.Arg("path")
			abs, err := sanitize.ExpandHome(raw, home)
			if err != nil || !path.IsAbs(abs) {
				return unknownRuns("OPEN_FILE %s: not a path Airlock can pin", sanitize.Display(raw))
			}
			files = append(files, path.Clean(abs))
			slices.Sort(files)
		case "RUN_SHORTCUT":
			return unknownRuns("a shortcut's actions live in the Shortcuts app, where Airlock cannot pin them")
		case "OPEN_URL":
			u, _ := a.Arg("url")
			scheme, _, _ := strings.Cut(strings.ToLower(u), ":")
			if scheme != "https" && scheme != "http" && scheme != "mailto" {
				return unknownRuns("OPEN_URL of a %s: address hands it to whichever app claims that scheme", scheme)
			}
		}
	}
	return Runs{Known: true, Files: slices.Compact(files)}
}
