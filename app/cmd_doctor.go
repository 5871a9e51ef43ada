package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// doctorFlags declares airlock doctor's flags.
var doctorFlags = jsonFlag("print the findings as JSON", cmdDoctor)

func cmdDoctor(ctx context.Context, asJSON bool, _ io.Reader, stdout, _ io.Writer) error {
	s, err := loadBoxSettings()
	if err != nil {
		return err
	}
	if !asJSON {
		fmt.Fprintf(stdout, "%s\n\n", keyStoreLine(secrets.Open))
	}
	return runDoctor(ctx, s, "", asJSON, stdout)
}

// keyStoreLine says whether the key store that holds the history's key can
// be reached, and if not why and where the README says how to get one: the
// gate does not start without it, and `airlock audit verify` needs it.
func keyStoreLine(open func() (secrets.KeyStore, error)) string {
	if _, err := open(); err != nil {
		return "key store: MISSING (" + err.Error() + "): the gate and `airlock audit verify` need it for the history's key; " +
			"outside a desktop session start one as the README's \"The two commands\" says"
	}
	return "key store: reachable"
}

// runDoctor runs the sandbox's checks with settings s through launcher
// ("" for this program) and prints what each found, a table or JSON. It
// fails (exit status 1, after the findings are printed) when something
// does not hold.
func runDoctor(ctx context.Context, s sandbox.Settings, launcher string, asJSON bool, w io.Writer) error {
	findings, err := sandbox.Doctor(ctx, s, launcher)
	if err != nil {
		return err
	}
	return reportFindings(findings, asJSON, w)
}

// reportFindings prints the findings, a table or JSON, and fails when one
// does not hold.
func reportFindings(findings []sandbox.Finding, asJSON bool, w io.Writer) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(findings); err != nil {
			return err
		}
	} else {
		printFindings(w, findings)
	}
	if !sandbox.Holds(findings) {
		return outcomeError{status: "with containment not holding"}
	}
	return nil
}

// printFindings writes one line a check, its status first, and under it
// what was tried and what happened; then a line saying whether all holds.
func printFindings(w io.Writer, findings []sandbox.Finding) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	bad := 0
	for _, f := range findings {
		fmt.Fprintf(tw, "%s\t%s\n", f.Status, f.Check)
		if f.Detail != "" {
			fmt.Fprintf(tw, "\t  %s\n", strings.ReplaceAll(f.Detail, "\n", " "))
		}
		if f.Status != sandbox.Held && f.Status != sandbox.Skipped {
			bad++
		}
	}
	tw.Flush()
	if bad > 0 {
		fmt.Fprintf(w, "\n%d of %d checks do NOT hold: actions are not contained as Airlock claims on this machine.\n", bad, len(findings))
		return
	}
	fmt.Fprintf(w, "\nContainment holds: %d checks.\n", len(findings))
}
