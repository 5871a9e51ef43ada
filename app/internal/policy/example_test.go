package policy_test

import (
	"fmt"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
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
