package tray

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/redact"
)

// ReportFile is the history report's name in the data directory.
const ReportFile = "history.html"

// ReportLimit is how many actions the report shows, newest first.
const ReportLimit = 1000

// reportRow is one action as the report shows it. Every field is text:
// html/template escapes each where it is written.
type reportRow struct {
	Time, Client, Request, Preview, Action, Risk, Reasons, Decision, Approval, Status, Output, Error string
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="referrer" content="no-referrer">
<title>Airlock history</title>
<style>
body { font: 13px -apple-system, system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; position: sticky; top: 0; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; font: 12px ui-monospace, monospace; }
.dangerous, .destructive, .blocked { color: #a00; font-weight: 600; }
</style>
</head>
<body>
<h1>Airlock history</h1>
<p>The newest {{len .Rows}} actions, generated {{.Generated}}. Secrets were redacted before they were recorded.
<code>airlock audit verify</code> checks that the record has not been edited.</p>
<table>
<thead><tr><th>Time</th><th>Client</th><th>Action</th><th>Risk</th><th>Decision</th><th>Approval</th><th>Status</th><th>Output / error</th></tr></thead>
<tbody>
{{- range .Rows}}
<tr><td>{{.Time}}</td><td>{{.Client}}<br><small>{{.Request}}</small></td>
<td>{{.Preview}}<pre>{{.Action}}</pre>{{if .Reasons}}<small>{{.Reasons}}</small>{{end}}</td>
<td class="{{.Risk}}">{{.Risk}}</td><td>{{.Decision}}</td><td>{{.Approval}}</td><td>{{.Status}}</td>
<td><pre>{{.Output}}</pre>{{if .Error}}<pre>{{.Error}}</pre>{{end}}</td></tr>
{{- else}}
<tr><td colspan="8">Nothing has been recorded yet.</td></tr>
{{- end}}
</tbody>
</table>
</body>
</html>
`))

// WriteReport writes an HTML report of entries (newest first, as
// history.Store.Recent returns them) to w. Every value is HTML-escaped where
// it is written, and passed through redact.String once more on the way (the
// history redacted it before recording; redacting is idempotent). The page
// loads nothing and runs no script (its Content-Security-Policy forbids
// both).
func WriteReport(w io.Writer, entries []history.Entry, generated time.Time) error {
	rows := make([]reportRow, len(entries))
	for i, e := range entries {
		r := reportRow{
			Time:     e.Decision.Time.Local().Format("2006-01-02 15:04:05"),
			Client:   e.Request.Client,
			Request:  e.Request.ID,
			Preview:  e.Decision.Preview,
			Action:   e.Decision.Action,
			Risk:     e.Decision.Risk.String(),
			Reasons:  strings.Join(e.Decision.Reasons, "; "),
			Decision: e.Decision.Decision,
			Status:   "running",
		}
		if o := e.Outcome; o != nil {
			r.Approval, r.Status, r.Output, r.Error = o.Approval, o.Status, o.Output, o.Error
		}
		for _, f := range []*string{&r.Client, &r.Request, &r.Preview, &r.Action, &r.Reasons, &r.Output, &r.Error} {
			*f = redact.String(*f)
		}
		rows[i] = r
	}
	var b bytes.Buffer
	if err := reportTemplate.Execute(&b, struct {
		Rows      []reportRow
		Generated string
	}{rows, generated.Local().Format("2006-01-02 15:04:05 MST")}); err != nil {
		return fmt.Errorf("writing the history report: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeReportFile writes the report to path atomically, owner-only: a
// temporary file in the same folder, mode 0600, then renamed over path.
func writeReportFile(path string, entries []history.Entry, now time.Time) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing the history report: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the history report: %w", err)
	}
	if err := WriteReport(tmp, entries, now); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the history report: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing the history report: %w", err)
	}
	return nil
}
