package execute_test

import (
	"context"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
)

// BenchmarkWriteFile4KB overwrites a 4 KB file: a temporary file, fsync,
// the old version to the Trash, a rename.
func BenchmarkWriteFile4KB(b *testing.B) {
	s := newSandbox(b)
	cmd, _ := action.Lookup("WRITE_FILE")
	a := action.Action{Cmd: cmd, Args: []string{"~/Documents/bench.txt", strings.Repeat("x", 4096)}}
	for b.Loop() {
		if _, err := s.ex.Run(context.Background(), a); err != nil {
			b.Fatal(err)
		}
	}
}
