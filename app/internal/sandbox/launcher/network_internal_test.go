package launcher

import (
	"slices"
	"strings"
	"testing"
)

// TestPlanNetwork: how Linux holds each grant, by kernel: a namespace of
// its own unless the host's network is granted or an approved UI action
// may need the host's abstract sockets; TCP only to the web's ports (and a
// TCP display's) where Landlock has TCP rules, and no network at all where
// it has not; the filter for everything but the host's network.
func TestPlanNetwork(t *testing.T) {
	tcpDisplay := []string{"DISPLAY=localhost:10.0"}
	tests := []struct {
		name    string
		p       Profile
		abi     int
		own     bool
		tcp     bool
		connect []uint16
		filter  bool
		note    string // a word the note holds; "" for no note
	}{
		{"none", Profile{}, 7, true, true, nil, true, ""},
		{"none, old kernel", Profile{}, 3, true, false, nil, true, ""},
		{"internet", Profile{Network: NetInternet}, 7, false, true, []uint16{80, 443}, true, ""},
		{"internet, old kernel", Profile{Network: NetInternet}, 3, true, false, nil, true, "ABI 3"},
		{"host", Profile{Network: NetHost}, 7, false, false, nil, false, ""},
		{"host, old kernel", Profile{Network: NetHost}, 3, false, false, nil, false, ""},
		{"UI, local display", Profile{UI: true, Env: []string{"DISPLAY=:0"}}, 7, false, true, nil, true, ""},
		{"UI, TCP display", Profile{UI: true, Env: tcpDisplay}, 7, false, true, []uint16{6010}, true, ""},
		{"UI, TCP display, internet", Profile{UI: true, Network: NetInternet, Env: tcpDisplay}, 7, false, true, []uint16{80, 443, 6010}, true, ""},
		{"UI, old kernel", Profile{UI: true, Env: tcpDisplay}, 3, true, false, nil, true, "abstract socket"},
		{"TCP display without the UI grant", Profile{Env: tcpDisplay}, 7, true, true, nil, true, ""},
	}
	for _, tt := range tests {
		got := PlanNetwork(tt.p, tt.abi)
		if got.OwnNamespace != tt.own || got.TCP != tt.tcp || !slices.Equal(got.Connect, tt.connect) || got.Filter != tt.filter ||
			(tt.note == "") != (got.Note == "") || !strings.Contains(got.Note, tt.note) {
			t.Errorf("%s: %+v", tt.name, got)
		}
	}
}

func TestDisplayPort(t *testing.T) {
	for _, tt := range []struct {
		display string
		port    uint16
		ok      bool
	}{
		{":0", 0, false}, {":0.0", 0, false}, {"unix:0", 0, false}, {"", 0, false},
		{"/private/tmp/com.apple.launchd.x/org.xquartz:0", 0, false},
		{"localhost:10.0", 6010, true}, {"127.0.0.1:0", 6000, true}, {"host.example:2", 6002, true},
		{"host::0", 0, false}, {"localhost:x", 0, false}, {"localhost:-1", 0, false}, {"localhost:70000", 0, false},
	} {
		port, ok := displayPort(tt.display)
		if port != tt.port || ok != tt.ok {
			t.Errorf("displayPort(%q) = %d, %v", tt.display, port, ok)
		}
	}
}
