//go:build linux

package launcher

import "testing"

// TestNetNamespaceReadAhead: a launcher whose plan needs a network
// namespace of its own fails in the gate's, whether it read its own while
// it waited (netNSAhead) or reads it when the action comes; and runs in
// another.
func TestNetNamespaceReadAhead(t *testing.T) {
	here := NetNamespace()
	if here == 0 {
		t.Skip("/proc/self/ns/net cannot be read here")
	}
	defer func(v uint64) { netNSAhead = v }(netNSAhead)
	own := NetPlan{OwnNamespace: true}
	for _, ahead := range []uint64{0, here} {
		netNSAhead = ahead
		if err := checkNetNamespace(own, here); err == nil {
			t.Errorf("read ahead %v: a launcher in the gate's network namespace passed", ahead != 0)
		}
		if err := checkNetNamespace(own, here+1); err != nil {
			t.Errorf("read ahead %v: a launcher in a namespace other than the gate's failed: %v", ahead != 0, err)
		}
		if err := checkNetNamespace(NetPlan{}, here); err != nil {
			t.Errorf("read ahead %v: a plan that keeps the host's network failed: %v", ahead != 0, err)
		}
	}
}
