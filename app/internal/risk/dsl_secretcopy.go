package risk

import (
	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// keepsSecretName reports a COPY_FILE or MOVE_FILE whose destination's
// name says secret as the source's does (rate.SecretFile): talk.key to
// talk-backup.key. A copy or a move of a secret file is rated a read of it
// because the copy would sit under a name that says nothing, for the next
// action to print unnoticed; under such a name the copy is still a secret
// to every rule and to the sandbox's hiding, so it is no read. A Keynote
// deck (*.key) copied or renamed as a deck is the everyday case.
func keepsSecretName(a action.Action) bool {
	if a.Cmd.Name != "COPY_FILE" && a.Cmd.Name != "MOVE_FILE" {
		return false
	}
	to, ok := a.Arg("to")
	if !ok {
		return false
	}
	_, secret := rate.SecretFile(to)
	return secret
}
