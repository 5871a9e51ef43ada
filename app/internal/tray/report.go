package tray

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/redact"
)

// ReportLimit is how many actions the history report shows, newest first.
const ReportLimit = 1000

// Bounds on what one action shows in the report. The report is read in a
// window, not searched: `airlock history --json` has every byte.
const (
	reportActionBytes = 4 << 10
	reportOutputBytes = 1 << 10
)

// WriteReport writes the history report, in plain text, of entries (newest
// first, as history.Store.Recent returns them) to w: for each action when
// it was decided, how it ended, its risk, who asked, its preview, its exact
// text, the reasons, and its output or error. Every value is passed through
// redact.String once more on the way (the history redacted it before
// recording; redacting is idempotent). The text is for a window that shows
// it as text (bridge.ShowText escapes what could hide or disguise it); it is
// never written to a file.
func WriteReport(w io.Writer, entries []history.Entry, generated time.Time) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "Airlock history: the newest %s, generated %s.\n", actions(len(entries)),
		generated.Local().Format("2006-01-02 15:04:05 MST"))
	b.WriteString("Secrets were redacted before they were recorded. `airlock history --json` has the full record;\n" +
		"`airlock audit verify` checks that it has not been edited.\n")
	if len(entries) == 0 {
		b.WriteString("\nNothing has been recorded yet.\n")
	}
	for _, e := range entries {
		outcome, approval := "running", ""
		if o := e.Outcome; o != nil {
			outcome, approval = o.Status, o.Approval
		}
		if approval != "" && approval != outcome {
			outcome += " (" + approval + ")"
		}
		fmt.Fprintf(b, "\n%s  %s  %s — %s by %s (request %s, action %d)\n",
			e.Decision.Time.Local().Format("2006-01-02 15:04:05"), outcome, e.Decision.Risk,
			orNone(e.Decision.Decision), redact.String(orNone(e.Request.Client)), redact.String(e.Request.ID), e.Decision.Index+1)
		fmt.Fprintf(b, "  %s\n", redact.String(e.Decision.Preview))
		for _, ln := range strings.Split(cut(redact.String(e.Decision.Action), reportActionBytes), "\n") {
			fmt.Fprintf(b, "  │ %s\n", ln)
		}
		for _, r := range e.Decision.Reasons {
			fmt.Fprintf(b, "  • %s\n", redact.String(r))
		}
		if o := e.Outcome; o != nil {
			if o.Output != "" {
				fmt.Fprintf(b, "  output: %s\n", indent(cut(redact.String(o.Output), reportOutputBytes)))
			}
			if o.Error != "" {
				fmt.Fprintf(b, "  error: %s\n", indent(cut(redact.String(o.Error), reportOutputBytes)))
			}
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("writing the history report: %w", err)
	}
	return nil
}

func actions(n int) string {
	if n == 1 {
		return "1 action"
	}
	return fmt.Sprintf("%d actions", n)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// cut shortens s to about n bytes, on a character boundary, saying how much
// it left out.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return fmt.Sprintf("%s\n… (%d more bytes: airlock history --json has them)", s[:i], len(s)-i)
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }
