package policy_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func ExampleDecide() {
	for _, risk := range []level.Level{level.Safe, level.Dangerous, level.Destructive, level.Blocked} {
		fmt.Printf("%-11s level 0: %-7s level 1: %-7s level 2: %s\n", risk,
			policy.Decide(policy.AskAll, risk), policy.Decide(policy.SmartDefault, risk), policy.Decide(policy.FullAuto, risk))
	}
	// Output:
	// safe        level 0: ask     level 1: auto    level 2: auto
	// dangerous   level 0: ask     level 1: ask     level 2: auto
	// destructive level 0: ask     level 1: ask     level 2: ask
	// blocked     level 0: refused level 1: refused level 2: refused
}

func ExampleGrants() {
	g := policy.NewGrants(nil)
	noFiles := risk.Runs{Known: true} // a plan that writes a file runs no file (risk.RunFiles)
	agent := policy.Identity{Key: "linux:/usr/bin/agent:2049:1234", Program: "/usr/bin/agent (pid 42)"}
	impostor := policy.Identity{Key: "linux:/tmp/agent:2049:999", Program: "/tmp/agent (pid 77)"}
	_, err := g.Allow(agent, `WRITE_FILE "~/Documents/todo.txt" "milk"`, noFiles, level.Dangerous, time.Hour)
	fmt.Println(err)
	fmt.Println(g.Allowed(agent, `WRITE_FILE "~/Documents/todo.txt" "milk"`, noFiles, level.Dangerous))
	fmt.Println(g.Allowed(agent, `WRITE_FILE "~/Documents/todo.txt" "milk!"`, noFiles, level.Dangerous))
	fmt.Println(g.Allowed(impostor, `WRITE_FILE "~/Documents/todo.txt" "milk"`, noFiles, level.Dangerous))
	_, err = g.Allow(agent, `EMPTY_TRASH`, noFiles, level.Destructive, 0)
	fmt.Println(err)
	_, err = g.Allow(policy.Identity{Program: "unknown"}, `NOTIFY "a" "b"`, noFiles, level.Caution, 0)
	fmt.Println(err)
	// Output:
	// <nil>
	// true
	// false
	// false
	// cannot remember this approval: a destructive action needs its own approval every time
	// cannot remember this approval: the client's program is not verified, and a grant never belongs to a name
}

// A grant covers what runs: the script a command hands to python3 is
// pinned, and the grant no longer holds once the script changes.
func ExampleGrants_files() {
	home, _ := os.MkdirTemp("", "home")
	defer os.RemoveAll(home)
	script := filepath.Join(home, "build.py")
	os.WriteFile(script, []byte("print('build')\n"), 0o600)
	cfg, _ := sanitize.NewConfig(home, nil)
	env := &risk.Env{Paths: cfg}
	argv := []string{"python3", script}
	runs := risk.RunFilesArgv(context.Background(), argv, home, env)
	fmt.Println(runs.Known, len(runs.Files))

	g := policy.NewGrants(nil)
	agent := policy.Identity{Key: "linux:/usr/bin/agent:2049:1234", Program: "/usr/bin/agent (pid 42)"}
	_, err := g.Allow(agent, "python3 "+script, runs, level.Dangerous, 0)
	fmt.Println(err)
	fmt.Println(g.Allowed(agent, "python3 "+script, runs, level.Dangerous))
	os.WriteFile(script, []byte("print('something else')\n"), 0o600)
	fmt.Println(errors.Is(g.Check(agent, "python3 "+script, runs, level.Dangerous), policy.ErrLapsed))

	// Where Airlock cannot name what runs, nothing is remembered.
	unknown := risk.RunFilesArgv(context.Background(), []string{"python3", "-m", "build"}, home, env)
	fmt.Println(unknown.Known, errors.Is(g.Grantable(agent, unknown, level.Dangerous), policy.ErrNotGrantable))
	// Output:
	// true 1
	// <nil>
	// true
	// true
	// false true
}
