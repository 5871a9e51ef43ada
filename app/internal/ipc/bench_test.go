package ipc_test

import (
	"context"
	"testing"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// BenchmarkStatusRoundTrip is one status call over the socket: encode,
// write, read, decode, handle, answer, read back.
func BenchmarkStatusRoundTrip(b *testing.B) {
	_, dir := startGate(b, &fakeGate{}, nil)
	c := dial(b, dir)
	ctx := context.Background()
	for b.Loop() {
		if _, err := c.Call(ctx, "status", nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSubmit decodes a submit carrying a 4 KiB plan.
func BenchmarkDecodeSubmit(b *testing.B) {
	plan := make([]byte, 4096)
	for i := range plan {
		plan[i] = "abc \"\n"[i%6]
	}
	frame, err := ipc.Request{ID: []byte("1"), Method: "submit", Params: ipc.SubmitParams{Client: "bench", Plan: string(plan)}}.Encode()
	if err != nil {
		b.Fatal(err)
	}
	frame = frame[:len(frame)-1]
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if _, err := ipc.DecodeRequest(frame); err != nil {
			b.Fatal(err)
		}
	}
}
