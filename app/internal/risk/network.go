package risk

// UsesNetwork reports whether the action's verdict says it reaches the
// network: it fetches or sends (curl, wget, scp, rsync to another machine,
// NSURL in JXA), opens connections (ssh, nc, socat, telnet, openssl
// s_client, /dev/tcp), serves (python -m http.server), or runs a tool whose
// work is fetching (git clone/fetch/pull/push, package managers). The OS
// sandbox gives the network only to such an action (sandbox.GrantFor): an
// action that runs unasked and whose verdict does not say so reaches
// nothing, not even this machine's own services.
//
// It reads the reasons' effects (effect.Effect.ReachesNetwork: fetching,
// uploading, connecting, looking up, data carried out over the network).
// An effect missing makes the action run without network (it fails, it
// does not escape).
func UsesNetwork(v Verdict) bool {
	for _, r := range v.Reasons {
		if r.Effect.ReachesNetwork() {
			return true
		}
	}
	return false
}
