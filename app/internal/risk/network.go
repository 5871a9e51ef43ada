package risk

import "github.com/airlockhq/airlock/app/internal/risk/effect"

// UsesNetwork reports whether the action's verdict says it reaches the
// network: it fetches or sends (curl, wget, scp, rsync to another machine,
// NSURL in JXA), opens connections (ssh, nc, socat, telnet, openssl
// s_client, /dev/tcp), serves (python -m http.server), or runs a tool whose
// work is fetching (git clone/fetch/pull/push, package managers). The OS
// sandbox gives the network only to such an action (sandbox.GrantFor): an
// action that runs unasked and whose verdict does not say so reaches
// nothing, not even this machine's own services.
//
// It reads the reasons' effects (effect.Network: fetching, uploading,
// connecting, looking up). A reason without an effect — an analyzer not yet
// converted to effects (issue 24) — is read by its rule name instead
// (networkRules), which the lead removes when every analyzer reports
// effects. An effect or rule missing makes the action run without network
// (it fails, it does not escape); a rule here that also fires for work
// without the network (shell.git covers git stash too) gives that work the
// web's ports when it runs unasked.
func UsesNetwork(v Verdict) bool {
	for _, r := range v.Reasons {
		if r.Effect.Kind != 0 {
			if effect.Network(r.Effect.Kind) {
				return true
			}
			continue
		}
		if networkRules[r.Rule] {
			return true
		}
	}
	return false
}

// networkRules are the rules that find use of the network, for the reasons
// that name no effect.
var networkRules = map[string]bool{
	// Fetching and sending.
	"shell.download": true, "shell.net-lookup": true, "shell.upload": true, "shell.exfiltration": true, "egress.jxa.network": true, "egress.as.network": true,
	// Connections to another machine.
	"shell.ssh": true, "shell.ssh-copy-id": true, "shell.sftp": true, "shell.nc": true, "shell.ncat": true,
	"shell.netcat": true, "shell.socat": true, "shell.telnet": true, "shell.openssl-connect": true,
	"shell.raw-socket": true, "shell.reverse-shell": true, "shell.mount_smbfs": true,
	// Serving.
	"shell.python-module": true,
	// Tools whose work is fetching: git's remote commands (the rule also
	// covers local ones) and package managers.
	"shell.git": true, "shell.pip": true, "shell.pip3": true, "shell.npm": true, "shell.package-runner": true,
	"shell.yarn": true, "shell.pnpm": true, "shell.gem": true, "shell.cargo": true, "shell.go": true,
	"shell.pod": true, "shell.bundle": true, "shell.brew": true, "shell.mas": true,
}
