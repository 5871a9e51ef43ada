//go:build linux

package execute_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// BenchmarkUnaskedStartSecrets is one unasked command (true) run through
// the real sandbox in a root holding 0 or 50 secret files: the list taken
// from the index, one mount each in the launcher, and the review of its
// (empty) layer.
func BenchmarkUnaskedStartSecrets(b *testing.B) {
	for _, n := range []int{0, 50} {
		b.Run(fmt.Sprintf("secrets=%d", n), func(b *testing.B) {
			home := filepath.Join(tempDir(b), "home")
			data := filepath.Join(home, ".local", "share", "airlock")
			proj := filepath.Join(home, "Documents", "proj")
			for _, d := range []string{data, proj} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					b.Fatal(err)
				}
			}
			for i := range n {
				dir := filepath.Join(proj, fmt.Sprintf("svc%02d", i%10))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					b.Fatal(err)
				}
				name := fmt.Sprintf("k%02d.key", i)
				if i%2 == 0 {
					name = fmt.Sprintf(".env.%02d", i)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
					b.Fatal(err)
				}
			}
			ex := reviewingExecutor(b, home, data, []string{"~/Documents"})
			for b.Loop() {
				res, err := ex.RunScript(context.Background(), execute.KindCommand, "", []string{"/bin/true"}, proj, ossandbox.Grant{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Release != nil {
					res.Release()
				}
			}
		})
	}
}
