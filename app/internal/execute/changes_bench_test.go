package execute_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	sbx "github.com/airlockhq/airlock/app/internal/sandbox"
)

// BenchmarkApplyChanges applies what an unasked action changed: nothing,
// and 100 files of 4 KB, half new and half overwriting files there (whose
// old versions go to the Trash, hashed). Making the layer is not timed.
func BenchmarkApplyChanges(b *testing.B) {
	for _, n := range []int{0, 100} {
		b.Run(fmt.Sprintf("%d files", n), func(b *testing.B) {
			s := newSandbox(b)
			l := newLayer(b, s)
			content := strings.Repeat("x", 4096)
			for i := range n / 2 {
				s.write(b, fmt.Sprintf("Documents/old%d.txt", i), content)
			}
			var changes []sbx.Change
			for b.Loop() {
				b.StopTimer()
				changes = changes[:0]
				for i := range n {
					kind, name, was := sbx.Created, fmt.Sprintf("new%d.txt", i), os.FileMode(0)
					if i < n/2 {
						kind, name, was = sbx.Changed, fmt.Sprintf("old%d.txt", i), 0o644
					}
					if i >= n/2 {
						os.Remove(l.doc(name))
					}
					changes = append(changes, l.file(b, kind, name, content, 0o644, was))
				}
				b.StartTimer()
				if _, _, err := s.ex.ApplyChanges(context.Background(), changes, "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
