package ipc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// A gate serves its Handler on the socket; a client submits a plan and
// reads the events it streams, then the result.
func Example() {
	tmp, _ := os.MkdirTemp("", "ipc")
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "data")

	gate := &fakeGate{submit: func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
		notify(map[string]string{"event": "awaiting_approval", "client": p.Client})
		notify(map[string]string{"event": "approved"})
		return map[string]string{"outcome": "done"}, nil
	}}
	s, err := ipc.Listen(dir, gate)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	go s.Serve(context.Background())

	c, err := ipc.Dial(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	res, err := c.Call(context.Background(), "submit",
		ipc.SubmitParams{Client: "airlock run", Plan: `notify "hello"`},
		func(ev json.RawMessage) { fmt.Println("event:", string(ev)) })
	fmt.Println("result:", string(res), err)

	// An error answer reads as its message; its code is there for callers
	// that branch on it.
	_, err = c.Call(context.Background(), "approve", nil, nil)
	fmt.Println(err)
	var rerr *ipc.RPCError
	fmt.Println(errors.As(err, &rerr) && rerr.Code == ipc.CodeMethodNotFound)
	// Output:
	// event: {"client":"airlock run","event":"awaiting_approval"}
	// event: {"event":"approved"}
	// result: {"outcome":"done"} <nil>
	// method "approve" not found: clients may only call submit, ask, status, history, kill, automations, dashboard, undo, settings
	// true
}
