package ipc_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// dashboardGate is a gate with a dashboard: it records what it was asked.
type dashboardGate struct {
	fakeGate
	asked chan ipc.DashboardParams
}

func (g *dashboardGate) Dashboard(_ context.Context, p ipc.DashboardParams) (ipc.DashboardResult, error) {
	g.asked <- p
	if p.Print {
		return ipc.DashboardResult{Address: "http://127.0.0.1:1/", URL: "http://127.0.0.1:1/open?code=x"}, nil
	}
	return ipc.DashboardResult{Address: "http://127.0.0.1:1/", Opened: true}, nil
}

// TestDashboardMethod: dashboard reaches a gate that has one, with its
// params; a gate without one answers with an error that says so.
func TestDashboardMethod(t *testing.T) {
	g := &dashboardGate{asked: make(chan ipc.DashboardParams, 2)}
	_, dir := startGate(t, g, nil)
	c := dial(t, dir)
	for _, p := range []ipc.DashboardParams{{}, {Print: true}} {
		raw, err := c.Call(context.Background(), "dashboard", p, nil)
		if err != nil {
			t.Fatalf("dashboard %+v: %v", p, err)
		}
		var res ipc.DashboardResult
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if got := <-g.asked; got != p {
			t.Errorf("the gate was asked %+v, want %+v", got, p)
		}
		if res.Opened == p.Print || (res.URL != "") != p.Print || res.Address == "" {
			t.Errorf("dashboard %+v answered %+v", p, res)
		}
	}

	_, dir = startGate(t, &fakeGate{}, nil)
	_, err := dial(t, dir).Call(context.Background(), "dashboard", nil, nil)
	var rerr *ipc.RPCError
	if !errors.As(err, &rerr) || !strings.Contains(rerr.Message, "no dashboard") {
		t.Errorf("dashboard on a gate without one: %v", err)
	}
}

func TestDecodeDashboard(t *testing.T) {
	for _, tc := range []struct {
		frame string
		want  ipc.DashboardParams
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"dashboard"}`, ipc.DashboardParams{}},
		{`{"jsonrpc":"2.0","id":1,"method":"dashboard","params":{}}`, ipc.DashboardParams{}},
		{`{"jsonrpc":"2.0","id":1,"method":"dashboard","params":{"print":true}}`, ipc.DashboardParams{Print: true}},
	} {
		got, err := ipc.DecodeRequest([]byte(tc.frame))
		if err != nil || !reflect.DeepEqual(got.Params, tc.want) {
			t.Errorf("%s: %+v, %v; want %+v", tc.frame, got.Params, err, tc.want)
		}
	}
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"dashboard","params":{"print":"yes"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"dashboard","params":{"print":true,"full":true}}`,
		`{"jsonrpc":"2.0","id":1,"method":"dashboard","params":[true]}`,
	} {
		_, err := ipc.DecodeRequest([]byte(frame))
		var rerr *ipc.RPCError
		if !errors.As(err, &rerr) || rerr.Code != ipc.CodeInvalidParams {
			t.Errorf("%s: %v, want invalid params", frame, err)
		}
	}
}
