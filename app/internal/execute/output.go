package execute

import "context"

// outputKey is the context key of the sink WithOutput attaches.
type outputKey struct{}

// WithOutput returns ctx carrying out, which RunScript hands what a command
// prints while it runs (stderr says which stream), within the output cap,
// so the gate can show it as it comes; the Result still carries it whole.
// out is called from the goroutines reading the command's pipes: it must
// not block, nor keep p. Scripts and the DSL's actions ignore it.
func WithOutput(ctx context.Context, out func(p []byte, stderr bool)) context.Context {
	return context.WithValue(ctx, outputKey{}, out)
}

// outputOf returns the sink WithOutput attached to ctx, or nil.
func outputOf(ctx context.Context) func(p []byte, stderr bool) {
	out, _ := ctx.Value(outputKey{}).(func(p []byte, stderr bool))
	return out
}
