//go:build darwin

package main

import (
	"context"
	"log"
	"os"
)

// takeLoginPath sets this process's PATH to the login shell's (see
// loginpath.go), once, at the app's start, before anything runs a command;
// on failure it keeps launchd's and logs why.
func takeLoginPath(ctx context.Context) {
	p, err := loginShellPath(ctx, os.Getenv("SHELL"), os.Getenv("PATH"))
	if err != nil {
		log.Printf("PATH: keeping %s: the login shell's could not be read: %v", os.Getenv("PATH"), err)
		return
	}
	os.Setenv("PATH", p)
}
