package action_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
)

// benchPlan returns a realistic plan of about n lines: a mix of commands
// and comments, with one 50-line WRITE_DOC when n allows.
func benchPlan(n int) string {
	lines := []string{
		`MOVE_FILE "~/Desktop/Screenshot %d.png" "~/Pictures/Screenshots/Screenshot %d.png"`,
		`COPY_FILE "~/Documents/report-%d.pdf" "~/Backups/report-%d.pdf"`,
		`CREATE_FOLDER "~/Projects/client-%d/assets"`,
		`NOTIFY "Airlock" "Step %d of the plan is done" "Glass"`,
		`OPEN_URL "https://example.com/tickets/%d?view=full"`,
		`SEND_EMAIL "alice@example.com, bob@example.org" "Status %d" "All tasks finished.\nSee the attached notes."`,
		`CREATE_EVENT "Review %d" "2024-01-28 14:00" "2024-01-28T15:30"`,
		`set_volume %d`,
		`# step %d: tidy up`,
		`APPEND_FILE "~/Documents/log.txt" "entry %d\n"`,
		`CREATE_REMINDER "Follow up on item %d" "2024-02-01 09:00"`,
		`OPEN_APP "Visual Studio Code"`,
	}
	var b strings.Builder
	written := 0
	for i := 0; written < n; i++ {
		if i == 20 && n-written > 60 {
			b.WriteString("WRITE_DOC \"~/Documents/Weekly Summary.md\" <<END\n")
			for j := 0; j < 50; j++ {
				fmt.Fprintf(&b, "Line %d of the summary: moved files, sent \"mail\", tabs\tand all.\n", j)
			}
			b.WriteString("END\n")
			written += 52
			continue
		}
		b.WriteString(strings.ReplaceAll(lines[i%len(lines)], "%d", strconv.Itoa(i%101)))
		b.WriteByte('\n')
		written++
	}
	return b.String()
}

func TestBenchPlan(t *testing.T) {
	src := benchPlan(200)
	if n := strings.Count(src, "\n"); n != 200 {
		t.Fatalf("bench plan has %d lines", n)
	}
	p := mustParse(t, src)
	checkRoundTrip(t, p)
}

func BenchmarkParse200(b *testing.B) {
	src := benchPlan(200)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := action.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
