//go:build !darwin

package bridge

import "context"

const ownerAuthAvailable = false

func authenticate(context.Context, string) error { return ErrNoOwnerAuth }
