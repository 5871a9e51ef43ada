//go:build !darwin

package main

import "context"

// takeLoginPath does nothing here: outside macOS the app starts from a
// session (a desktop's autostart, a terminal) that already has the
// person's PATH.
func takeLoginPath(context.Context) {}
