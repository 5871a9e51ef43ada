// Command airlock-launch is the sandbox's launcher (package
// app/internal/sandbox/launcher), shipped beside airlock: the gate starts
// it, with launcher.Flag and the action's profile on file descriptor 3, to
// confine one action and run it. It imports nothing but the launcher, so
// that it starts in a fraction of the time airlock itself takes, which
// initialises its analyzers, history and UI first.
package main

import (
	"fmt"
	"os"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

func main() {
	code, ok := launcher.Main(os.Args[1:])
	if !ok {
		fmt.Fprintf(os.Stderr, "%s is started by airlock only, to confine one action: run airlock\n", launcher.Program)
		code = 2
	}
	os.Exit(code)
}
