package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestReportFindings: the table and the JSON say each check's status; a
// check that does not hold fails the command (exit status 1 through
// outcomeError), a skipped one does not.
func TestReportFindings(t *testing.T) {
	ok := []sandbox.Finding{
		{Check: "writing outside the sandbox roots is refused", Status: sandbox.Held, Detail: "refused: Permission denied"},
		{Check: "names do not resolve", Status: sandbox.Skipped, Detail: "no DNS here"},
	}
	var b bytes.Buffer
	if err := reportFindings(ok, false, &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"held     writing outside", "skipped  names", "refused: Permission denied", "Containment holds: 2 checks."} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
	bad := append(ok, sandbox.Finding{Check: "a credential store is unreadable", Status: sandbox.NotHeld, Detail: "the action read ~/.ssh/id_rsa"})
	b.Reset()
	err := reportFindings(bad, false, &b)
	var oe outcomeError
	if !errors.As(err, &oe) {
		t.Fatalf("a check that does not hold: %v", err)
	}
	if !strings.Contains(b.String(), "NOT HELD  a credential store") || !strings.Contains(b.String(), "1 of 3 checks do NOT hold") {
		t.Errorf("the table:\n%s", b.String())
	}
	b.Reset()
	if err := reportFindings(bad, true, &b); !errors.As(err, &oe) {
		t.Fatalf("JSON, a check that does not hold: %v", err)
	}
	var got []sandbox.Finding
	if err := json.Unmarshal(b.Bytes(), &got); err != nil || len(got) != 3 || !strings.Contains(b.String(), `"status": "NOT HELD"`) {
		t.Errorf("JSON: %v\n%s", err, b.String())
	}
}

func TestDoctorUsage(t *testing.T) {
	tempHome(t)
	if code, _, stderr := runCLI(t, "", "doctor", "extra"); code != 2 || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if code, stdout, _ := runCLI(t, "", "doctor", "--help"); code != 0 || !strings.Contains(stdout, "prove containment") {
		t.Errorf("help: exit %d, %s", code, stdout)
	}
}
